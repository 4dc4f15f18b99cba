package dev.msjvm.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class LaunchConfigTest {

  @Test
  void elementwiseCoversSmallInputsAndCapsBlocksPerMultiprocessor() {
    assertEquals(new LaunchConfig(1, 256, 0), LaunchConfig.elementwise(1, 132));
    assertEquals(new LaunchConfig(2, 256, 0), LaunchConfig.elementwise(257, 132));
    assertEquals(new LaunchConfig(132 * 32, 256, 0), LaunchConfig.elementwise(1L << 32, 132));
    assertEquals(new LaunchConfig(32, 256, 0), LaunchConfig.elementwise(1L << 20, 0));
    assertThrows(IllegalArgumentException.class, () -> LaunchConfig.elementwise(0, 132));
  }

  @Test
  void rowKernelsUseAPowerOfTwoBlockNoWiderThanNeeded() {
    assertEquals(new LaunchConfig(32, 32, 128), LaunchConfig.rows(32, 10));
    assertEquals(new LaunchConfig(5, 256, 1024), LaunchConfig.rows(5, 5000));
    assertEquals(new LaunchConfig(7, 64, 256), LaunchConfig.rows(7, 33));
    assertEquals(new LaunchConfig(1, 128, 512), LaunchConfig.rows(1, 128));
    assertThrows(IllegalArgumentException.class, () -> LaunchConfig.rows(0, 3));
  }

  @Test
  void columnKernelsHaveAThreadPerColumn() {
    assertEquals(new LaunchConfig(1, 256, 0), LaunchConfig.columns(10));
    assertEquals(new LaunchConfig(3, 256, 0), LaunchConfig.columns(513));
  }
}
