package dev.msjvm.engine.data;

import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The decoded samples of MNIST idx files: images as one byte array ({@code rows*cols} bytes per
 * image) and labels.
 *
 * <p>Mirrors MindSpore's {@code MnistOp}
 * (mindspore/ccsrc/minddata/dataset/data_source/mnist_op.cc): usage "train" reads {@code
 * train-images-idx3-ubyte}/{@code train-labels-idx1-ubyte}, "test" the {@code t10k-} pair, "all"
 * both in file-name order (test first); headers are big-endian, image magic 2051, label magic 2049.
 * Labels come out as int32: the engine has no uint32, MindSpore's label type (recorded in
 * conformance-tests/tools/DEVIATIONS.md). Example: {@code MnistData.read(dir, "test").size()} is
 * 10000 for the standard set.
 */
public final class MnistData {
  private final byte[] images;
  private final int[] labels;
  private final int rows;
  private final int cols;

  private MnistData(byte[] images, int[] labels, int rows, int cols) {
    this.images = images;
    this.labels = labels;
    this.rows = rows;
    this.cols = cols;
  }

  private static final int IMAGE_MAGIC = 2051;
  private static final int LABEL_MAGIC = 2049;

  /** Number of samples. */
  public int size() {
    return labels.length;
  }

  /** Image height. */
  public int rows() {
    return rows;
  }

  /** Image width. */
  public int cols() {
    return cols;
  }

  /** The label of sample {@code i}. */
  public int labelAt(int i) {
    return labels[i];
  }

  /** Pixel {@code k} (row-major) of image {@code i}, 0..255. */
  public int pixel(int i, int k) {
    return images[i * rows * cols + k] & 0xff;
  }

  /** Sample {@code i} as MindSpore's columns: image uint8 [rows, cols, 1], label int32 []. */
  public List<Tensor> sample(int i) {
    return List.of(image(i), label(i));
  }

  /** Image {@code i} as a uint8 [rows, cols, 1] tensor. */
  public Tensor image(int i) {
    int n = rows * cols;
    return Tensor.ofDoubles(DType.UINT8, Shape.of(rows, cols, 1), k -> images[i * n + k] & 0xff);
  }

  /** Label {@code i} as an int32 scalar. */
  public Tensor label(int i) {
    int v = labels[i];
    return Tensor.ofDoubles(DType.INT32, Shape.scalar(), k -> v);
  }

  /** Reads the idx pair(s) of {@code usage} ("train", "test" or "all") under {@code dir}. */
  public static MnistData read(Path dir, String usage) {
    List<String> prefixes =
        switch (usage) {
          case "train" -> List.of("train");
          case "test" -> List.of("t10k");
          case "all" -> List.of("t10k", "train");
          default -> throw new IllegalArgumentException("usage " + usage);
        };
    List<MnistData> parts = new ArrayList<>();
    for (String p : prefixes) {
      Path img = dir.resolve(p + "-images-idx3-ubyte");
      Path lab = dir.resolve(p + "-labels-idx1-ubyte");
      if (Files.isRegularFile(img) && Files.isRegularFile(lab)) {
        parts.add(readPair(img, lab));
      }
    }
    if (parts.isEmpty()) {
      throw PipelineError.of(
          "Invalid data, no valid data matching the dataset API MnistDataset. Please check file path"
              + " or dataset API.");
    }
    return concat(parts);
  }

  /**
   * MindSpore's error when an idx file's magic number (after a header check) is not {@code
   * expected}.
   */
  private static void checkMagic(
      ByteBuffer buffer, Path file, int headerBytes, int expected, String what) {
    int magic = header(buffer, file, headerBytes);
    if (magic != expected) {
      throw PipelineError.of(
          "Invalid mnist file, the "
              + what
              + " number of "
              + file
              + " should be "
              + expected
              + ", but got "
              + magic);
    }
  }

  /** Reads one images/labels pair, checking magic numbers, counts and file lengths. */
  public static MnistData readPair(Path imageFile, Path labelFile) {
    ByteBuffer img = load(imageFile);
    ByteBuffer lab = load(labelFile);
    checkMagic(img, imageFile, 16, IMAGE_MAGIC, "image");
    checkMagic(lab, labelFile, 8, LABEL_MAGIC, "label");
    int numImages = img.getInt(4);
    int rows = img.getInt(8);
    int cols = img.getInt(12);
    int numLabels = lab.getInt(4);
    if (numImages != numLabels) {
      throw PipelineError.of(
          "Invalid mnist file, num of images " + numImages + " is not equal to num of labels.");
    }
    long need = 16L + (long) numImages * rows * cols;
    if (numImages < 0 || rows <= 0 || cols <= 0 || img.limit() < need) {
      throw PipelineError.of(
          "Invalid mnist file, " + imageFile + " is truncated: expected " + need + " bytes.");
    }
    if (lab.limit() < 8L + numLabels) {
      throw PipelineError.of(
          "Invalid mnist file, "
              + labelFile
              + " is truncated: expected "
              + (8L + numLabels)
              + " bytes.");
    }
    byte[] images = new byte[(int) (need - 16)];
    img.get(16, images);
    int[] labels = new int[numLabels];
    for (int i = 0; i < numLabels; i++) {
      labels[i] = lab.get(8 + i) & 0xff;
    }
    return new MnistData(images, labels, rows, cols);
  }

  private static int header(ByteBuffer b, Path file, int length) {
    if (b.limit() < length) {
      throw PipelineError.of(
          "Invalid mnist file, " + file + " is truncated: its header needs " + length + " bytes.");
    }
    return b.getInt(0);
  }

  private static ByteBuffer load(Path file) {
    try {
      return ByteBuffer.wrap(Files.readAllBytes(file)); // big-endian, as idx headers are
    } catch (IOException e) {
      throw PipelineError.of("Invalid file, failed to open mnist file: " + file + ": " + e);
    }
  }

  private static MnistData concat(List<MnistData> parts) {
    if (parts.size() == 1) {
      return parts.get(0);
    }
    MnistData first = parts.get(0);
    int images = 0;
    int labels = 0;
    for (MnistData p : parts) {
      if (p.rows != first.rows || p.cols != first.cols) {
        throw PipelineError.of("Invalid mnist file, image sizes differ between files.");
      }
      images += p.images.length;
      labels += p.labels.length;
    }
    byte[] allImages = new byte[images];
    int[] allLabels = new int[labels];
    int io = 0;
    int lo = 0;
    for (MnistData p : parts) {
      System.arraycopy(p.images, 0, allImages, io, p.images.length);
      System.arraycopy(p.labels, 0, allLabels, lo, p.labels.length);
      io += p.images.length;
      lo += p.labels.length;
    }
    return new MnistData(allImages, allLabels, first.rows, first.cols);
  }
}
