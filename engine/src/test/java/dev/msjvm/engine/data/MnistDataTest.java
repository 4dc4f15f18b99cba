package dev.msjvm.engine.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ReadLimit;
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
    assertTrue(
        e.getMessage()
            .contains(
                dir.resolve("train-images-idx3-ubyte")
                    + " is truncated: its header declares 3 images of 2 x 3 pixels, 18 bytes, but"
                    + " only 17 are left after the header."),
        e.getMessage());
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

  /** Idx files holding only headers: {@code images} images of {@code rows x cols}, labels. */
  private void headers(int images, int rows, int cols, int labels) throws IOException {
    Files.write(
        dir.resolve("train-images-idx3-ubyte"),
        ByteBuffer.allocate(16).putInt(2051).putInt(images).putInt(rows).putInt(cols).array());
    Files.write(
        dir.resolve("train-labels-idx1-ubyte"),
        ByteBuffer.allocate(8).putInt(2049).putInt(labels).array());
  }

  private MsException refused() {
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    long before = mx.getCurrentThreadAllocatedBytes();
    MsException e = assertThrows(MsException.class, () -> MnistData.read(dir, "train"));
    long allocated = mx.getCurrentThreadAllocatedBytes() - before;
    assertTrue(allocated < 1 << 20, "allocated " + allocated + " bytes before refusing");
    assertEquals(MsException.Kind.RUNTIME_ERROR, e.kind());
    return e;
  }

  @Test
  void headerCountsPastTheFileAreRefusedWithTheDeclaredAndAvailableSizes() throws IOException {
    headers(300_000_000, 28, 28, 300_000_000);
    MsException e = refused();
    assertTrue(
        e.getMessage()
            .contains(
                "[ERROR] Invalid mnist file, "
                    + dir.resolve("train-images-idx3-ubyte")
                    + " is truncated: its header declares 300000000 images of 28 x 28 pixels,"
                    + " 235200000000 bytes, but only 0 are left after the header.\n"),
        e.getMessage());
  }

  @Test
  void headerCountsAreUnsigned() throws IOException {
    headers(-1, 2, 3, -1); // 0xffffffff images
    MsException e = refused();
    assertTrue(
        e.getMessage()
            .contains(
                "its header declares 4294967295 images of 2 x 3 pixels, 25769803770 bytes, but"
                    + " only 0 are left after the header."),
        e.getMessage());
  }

  @Test
  void imageDimsWhoseProductWrapsAreRefused() throws IOException {
    // 16 * 2^30 * 2^30 = 2^64 wraps a long to 0 pixels: the header must not pass as "no pixels".
    headers(16, 1 << 30, 1 << 30, 16);
    Files.write(
        dir.resolve("train-labels-idx1-ubyte"),
        ByteBuffer.allocate(8 + 16).putInt(2049).putInt(16).array());
    MsException e = refused();
    assertTrue(
        e.getMessage()
            .contains(
                "Invalid mnist file, "
                    + dir.resolve("train-images-idx3-ubyte")
                    + " declares images of 1073741824 x 1073741824."),
        e.getMessage());
  }

  @Test
  void aFileOverTheReadLimitIsRefusedBeforeItIsRead() throws IOException {
    write(dir, "train", 4, 2051, 0); // 40 bytes of images
    MsException e =
        assertThrows(MsException.class, () -> MnistData.read(dir, "train", new ReadLimit(20)));
    assertEquals(MsException.Kind.RUNTIME_ERROR, e.kind());
    assertTrue(
        e.getMessage()
            .contains(
                dir.resolve("train-images-idx3-ubyte")
                    + " is 40 bytes, over the limit of 20 bytes set by msjvm.maxReadBytes."),
        e.getMessage());
    assertEquals(4, MnistData.read(dir, "train", new ReadLimit(40)).size());
  }
}
