package dev.msjvm.engine.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

// Layouts, orders and the bad-magic text recorded from MnistDataset on MindSpore 2.10.0.
class MnistDataTest {
  @TempDir Path dir;

  /** Writes {@code n} 2x3 images whose pixel k of image i is 10 * i + k, labels i % 10. */
  static void write(Path dir, String prefix, int n, int imageMagic, int dropBytes)
      throws IOException {
    ByteBuffer img = ByteBuffer.allocate(16 + n * 6);
    img.putInt(imageMagic).putInt(n).putInt(2).putInt(3);
    for (int i = 0; i < n; i++) {
      for (int k = 0; k < 6; k++) {
        img.put((byte) (10 * i + k));
      }
    }
    ByteBuffer lab = ByteBuffer.allocate(8 + n);
    lab.putInt(2049).putInt(n);
    for (int i = 0; i < n; i++) {
      lab.put((byte) (i % 10));
    }
    byte[] images = Arrays.copyOf(img.array(), img.capacity() - dropBytes);
    Files.write(dir.resolve(prefix + "-images-idx3-ubyte"), images);
    Files.write(dir.resolve(prefix + "-labels-idx1-ubyte"), lab.array());
  }

  @Test
  void decodesImagesAndLabels() throws IOException {
    write(dir, "train", 4, 2051, 0);
    MnistData d = MnistData.read(dir, "train");
    assertEquals(4, d.size());
    var sample = d.sample(2);
    assertEquals(DType.UINT8, sample.get(0).dtype());
    assertEquals(Shape.of(2, 3, 1), sample.get(0).shape());
    assertEquals(25L, sample.get(0).getLong(5));
    assertEquals(DType.INT32, sample.get(1).dtype());
    assertEquals(2L, sample.get(1).getLong(0));
  }

  @Test
  void allReadsTestBeforeTrain() throws IOException {
    write(dir, "train", 3, 2051, 0);
    write(dir, "t10k", 2, 2051, 0);
    MnistData d = MnistData.read(dir, "all");
    assertEquals(5, d.size());
    int[] labels = new int[5];
    for (int i = 0; i < 5; i++) {
      labels[i] = d.labelAt(i);
    }
    assertEquals("[0, 1, 0, 1, 2]", Arrays.toString(labels));
    assertEquals(2, MnistData.read(dir, "test").size());
  }

  @Test
  void badMagicNumber() throws IOException {
    write(dir, "train", 3, 1234, 0);
    MsException e = assertThrows(MsException.class, () -> MnistData.read(dir, "train"));
    assertTrue(
        e.getMessage()
            .contains(
                "[ERROR] Invalid mnist file, the image number of "
                    + dir.resolve("train-images-idx3-ubyte")
                    + " should be 2051, but got 1234"),
        e.getMessage());
    assertEquals(MsException.Kind.RUNTIME_ERROR, e.kind());
  }

  @Test
  void truncatedFiles() throws IOException {
    write(dir, "train", 3, 2051, 1);
    MsException e = assertThrows(MsException.class, () -> MnistData.read(dir, "train"));
    assertTrue(e.getMessage().contains("is truncated: expected 34 bytes."), e.getMessage());
    Files.write(dir.resolve("train-images-idx3-ubyte"), new byte[] {0, 0, 8});
    e = assertThrows(MsException.class, () -> MnistData.read(dir, "train"));
    assertTrue(e.getMessage().contains("its header needs 16 bytes"), e.getMessage());
  }

  @Test
  void missingFiles() {
    MsException e = assertThrows(MsException.class, () -> MnistData.read(dir, "test"));
    assertTrue(
        e.getMessage().contains("no valid data matching the dataset API MnistDataset"),
        e.getMessage());
  }
}
