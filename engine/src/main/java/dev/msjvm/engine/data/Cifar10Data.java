package dev.msjvm.engine.data;

import dev.msjvm.engine.ReadLimit;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The samples of a CIFAR-10 binary folder: each record is one label byte and a 32x32 RGB image
 * stored channel by channel (3072 bytes), given out as MindSpore's columns image (uint8 [32, 32,
 * 3], HWC) and label.
 *
 * <p>Mirrors MindSpore's {@code CifarOp}
 * (mindspore/ccsrc/minddata/dataset/data_source/cifar_op.cc): the {@code .bin} files of the folder
 * in name order; usage "train" takes those whose name holds {@code data_batch}, "test" {@code
 * test_batch}, "all" {@code batch}; every file counts as exactly 10,000 records (the first 10,000
 * are read; a shorter file fails when read, not when counted). Labels are int32 (MindSpore: uint32;
 * the engine has no uint32, as for MNIST). Example: a folder with {@code data_batch_1.bin} and
 * {@code test_batch.bin} has 20,000 samples under "all", train's first.
 */
public final class Cifar10Data {
  /** Records per file, as MindSpore counts them whatever the file's size. */
  public static final int RECORDS = 10_000;

  private static final int SIDE = 32;
  private static final int IMAGE = SIDE * SIDE * 3;
  private static final int RECORD = IMAGE + 1;

  private final List<byte[]> files;

  private Cifar10Data(List<byte[]> files) {
    this.files = files;
  }

  /** Number of samples. */
  public int size() {
    return files.size() * RECORDS;
  }

  /** Sample {@code i} as MindSpore's columns: image uint8 [32, 32, 3], label int32 []. */
  public List<Tensor> sample(int i) {
    byte[] file = files.get(i / RECORDS);
    int at = (i % RECORDS) * RECORD;
    int label = file[at] & 0xff;
    byte[] hwc = new byte[IMAGE];
    int plane = SIDE * SIDE;
    for (int p = 0; p < plane; p++) {
      for (int c = 0; c < 3; c++) {
        hwc[p * 3 + c] = file[at + 1 + c * plane + p];
      }
    }
    return List.of(
        Tensor.fromBytes(DType.UINT8, Shape.of(SIDE, SIDE, 3), hwc),
        Tensor.ofDoubles(DType.INT32, Shape.scalar(), k -> label));
  }

  /**
   * The files of {@code usage} under {@code dir} ({@code shown} is the folder as the user wrote it,
   * for messages); MindSpore's error when the folder has no {@code .bin} file at all.
   */
  private static List<Path> files(Path dir, String shown, String usage) {
    List<Path> all = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "*.bin")) {
      entries.forEach(all::add);
    } catch (IOException e) {
      throw PipelineError.of(
          "Invalid directory, " + shown + " is not a directory or permission denied.");
    }
    if (all.isEmpty()) {
      throw PipelineError.of("Invalid cifar folder, cifar(.bin) files are missing under " + shown);
    }
    String part =
        switch (usage) {
          case "train" -> "data_batch";
          case "test" -> "test_batch";
          default -> "batch";
        };
    return all.stream().sorted().filter(p -> p.getFileName().toString().contains(part)).toList();
  }

  /**
   * The number of samples of the files of {@code usage} under {@code dir}, as MindSpore counts them
   * ({@link #RECORDS} a file, without reading them); its error for a folder with no {@code .bin}.
   */
  public static int count(Path dir, String shown, String usage) {
    return files(dir, shown, usage).size() * RECORDS;
  }

  /**
   * Reads the first {@link #RECORDS} records of each file of {@code usage}, each within the limit
   * of {@link ReadLimit#PROPERTY}.
   */
  public static Cifar10Data read(Path dir, String shown, String usage) {
    ReadLimit limit = ReadLimit.fromSystemProperty();
    List<byte[]> files = new ArrayList<>();
    for (Path file : files(dir, shown, usage)) {
      String name = shown + (shown.endsWith("/") ? "" : "/") + file.getFileName();
      String why = limit.refusal((long) RECORDS * RECORD, (long) RECORDS * RECORD);
      if (why != null) {
        throw PipelineError.of("Invalid cifar10 file, " + name + " is " + why + ".");
      }
      byte[] records;
      try (InputStream in = Files.newInputStream(file)) {
        records = in.readNBytes(RECORDS * RECORD);
      } catch (IOException e) {
        throw PipelineError.of(
            "Invalid cifar10 file, failed to open "
                + name
                + ", the file is damaged or permission denied.");
      }
      if (records.length < RECORDS * RECORD) {
        throw PipelineError.of(
            "Invalid cifar10 file, failed to read data from: "
                + name
                + ", re-download dataset(make sure it is CIFAR-10 binary version).");
      }
      files.add(records);
    }
    return new Cifar10Data(files);
  }
}
