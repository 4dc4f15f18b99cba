package dev.msjvm.engine.data;

import dev.msjvm.engine.ReadLimit;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
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
 *
 * <p>Counts in a header are unsigned 32-bit (as MindSpore reads them); their product is checked
 * against the bytes after the header, and each file's size against a {@link ReadLimit}, before
 * anything of that size is allocated.
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

  /**
   * Reads the idx pair(s) of {@code usage} ("train", "test" or "all") under {@code dir}, within the
   * limit of {@link ReadLimit#PROPERTY}.
   */
  public static MnistData read(Path dir, String usage) {
    return read(dir, usage, ReadLimit.fromSystemProperty());
  }

  /** As {@link #read(Path, String)}; {@code limit} bounds each file and the samples together. */
  public static MnistData read(Path dir, String usage, ReadLimit limit) {
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
        parts.add(readPair(img, lab, limit));
      }
    }
    if (parts.isEmpty()) {
      throw PipelineError.of(
          "Invalid data, no valid data matching the dataset API MnistDataset. Please check file path"
              + " or dataset API.");
    }
    return concat(parts, limit);
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
    return readPair(imageFile, labelFile, ReadLimit.fromSystemProperty());
  }

  /** As {@link #readPair(Path, Path)}, each file within {@code limit}. */
  public static MnistData readPair(Path imageFile, Path labelFile, ReadLimit limit) {
    ByteBuffer img = load(imageFile, limit);
    ByteBuffer lab = load(labelFile, limit);
    checkMagic(img, imageFile, 16, IMAGE_MAGIC, "image");
    checkMagic(lab, labelFile, 8, LABEL_MAGIC, "label");
    long numImages = Integer.toUnsignedLong(img.getInt(4));
    long rows = Integer.toUnsignedLong(img.getInt(8));
    long cols = Integer.toUnsignedLong(img.getInt(12));
    long numLabels = Integer.toUnsignedLong(lab.getInt(4));
    if (numImages != numLabels) {
      throw PipelineError.of(
          "Invalid mnist file, num of images " + numImages + " is not equal to num of labels.");
    }
    long imageBytes = ReadLimit.byteSize(List.of(rows, cols), 1);
    if (imageBytes <= 0 || imageBytes > ReadLimit.MAX_ARRAY) {
      throw PipelineError.of(
          "Invalid mnist file, " + imageFile + " declares images of " + rows + " x " + cols + ".");
    }
    // The header's counts, checked against the file before anything of their size is allocated.
    long pixels = ReadLimit.byteSize(List.of(numImages, rows, cols), 1);
    String why = ReadLimit.none().refusal(pixels, img.limit() - 16L);
    if (why != null) {
      throw PipelineError.of(
          "Invalid mnist file, "
              + imageFile
              + " is truncated: its header declares "
              + numImages
              + " images of "
              + rows
              + " x "
              + cols
              + " pixels, "
              + why
              + " after the header.");
    }
    why = ReadLimit.none().refusal(numLabels, lab.limit() - 8L);
    if (why != null) {
      throw PipelineError.of(
          "Invalid mnist file, "
              + labelFile
              + " is truncated: its header declares "
              + numLabels
              + " labels, "
              + why
              + " after the header.");
    }
    byte[] images = new byte[(int) pixels];
    img.get(16, images);
    int[] labels = new int[(int) numLabels];
    for (int i = 0; i < labels.length; i++) {
      labels[i] = lab.get(8 + i) & 0xff;
    }
    return new MnistData(images, labels, (int) rows, (int) cols);
  }

  private static int header(ByteBuffer b, Path file, int length) {
    if (b.limit() < length) {
      throw PipelineError.of(
          "Invalid mnist file, " + file + " is truncated: its header needs " + length + " bytes.");
    }
    return b.getInt(0);
  }

  /** The bytes of {@code file}, its size checked against {@code limit} before reading it. */
  private static ByteBuffer load(Path file, ReadLimit limit) {
    try {
      long size = Files.size(file);
      String why = limit.refusal(size, size);
      if (why != null) {
        throw PipelineError.of("Invalid mnist file, " + file + " is " + why + ".");
      }
      return ByteBuffer.wrap(Files.readAllBytes(file)); // big-endian, as idx headers are
    } catch (IOException e) {
      throw PipelineError.of("Invalid file, failed to open mnist file: " + file + ": " + reason(e));
    }
  }

  /** What went wrong, in words (no Java class name: users read it). */
  private static String reason(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return f.getReason();
    }
    return e.getMessage() == null ? "read error" : e.getMessage();
  }

  private static MnistData concat(List<MnistData> parts, ReadLimit limit) {
    if (parts.size() == 1) {
      return parts.get(0);
    }
    MnistData first = parts.get(0);
    long images = 0;
    long labels = 0;
    for (MnistData p : parts) {
      if (p.rows != first.rows || p.cols != first.cols) {
        throw PipelineError.of("Invalid mnist file, image sizes differ between files.");
      }
      images += p.images.length;
      labels += p.labels.length;
    }
    String why = limit.refusal(images, images);
    if (why != null) {
      throw PipelineError.of(
          "Invalid mnist file, the images of all files together are " + why + ".");
    }
    byte[] allImages = new byte[(int) images];
    int[] allLabels = new int[(int) labels];
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
