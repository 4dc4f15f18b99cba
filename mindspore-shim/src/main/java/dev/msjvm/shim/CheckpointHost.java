package dev.msjvm.shim;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.checkpoint.CheckpointEntry;
import dev.msjvm.engine.checkpoint.CheckpointFile;
import dev.msjvm.engine.checkpoint.CheckpointReader;
import dev.msjvm.engine.checkpoint.SafetensorsFile;
import dev.msjvm.engine.checkpoint.TensorBytes;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code mindspore.train.serialization} calls: writes and reads {@code .ckpt} files as lists
 * of (name, value) pairs, a value being a Java {@link Tensor} or a Python string.
 *
 * <p>It holds no state, so one per interpreter is as good as one per call. Example: {@code
 * save("/tmp/a.ckpt", List.of("w"), List.of(t))} then {@code load("/tmp/a.ckpt")} gives {@code
 * [["w", t']]} with {@code t'} equal to {@code t}.
 */
public final class CheckpointHost {
  private final CheckpointFile files = new CheckpointFile();
  private final FilePolicy policy;

  /** Files through {@code policy} (resolved against the interpreter's directory, checked). */
  public CheckpointHost(FilePolicy policy) {
    this.policy = policy;
  }

  /**
   * Writes {@code values[i]} (a Tensor, a Parameter's Variable, or a String) under {@code
   * names[i]}; {@code crc}: with MindSpore's CRC trailer.
   */
  public void save(String path, List<Object> names, List<Object> values, boolean crc) {
    if (names.size() != values.size()) {
      throw new IllegalArgumentException(names.size() + " names for " + values.size() + " values");
    }
    files.write(
        policy.write(path), names.size(), i -> entry((String) names.get(i), values.get(i)), crc);
  }

  /**
   * As {@link #save}, the value of {@code names[i]} asked of {@code valueOf} when it is written, so
   * one value at a time is held (the distributed-checkpoint tools make each slice then).
   */
  public void saveStreaming(
      String path, List<Object> names, java.util.function.Function<Object, Object> valueOf) {
    files.write(
        policy.write(path),
        names.size(),
        i -> entry((String) names.get(i), valueOf.apply(names.get(i))),
        false);
  }

  private static CheckpointEntry entry(String name, Object value) {
    return switch (value) {
      case Tensor t -> new CheckpointEntry.OfTensor(name, t);
      case Variable v -> new CheckpointEntry.OfTensor(name, v.value());
      case String s -> new CheckpointEntry.OfText(name, s);
      case Object o ->
          throw MsException.typeError(
              "For 'save_checkpoint', cannot save " + o.getClass().getSimpleName() + ".");
    };
  }

  /**
   * A safetensors file whose tensors {@code names[i]} (of engine type {@code types[i]} and shape
   * {@code shapes[i]}) are asked of {@code valueOf} one at a time as they are written, with the
   * metadata {@code metaKeys[i] -> metaValues[i]}.
   */
  public void saveSafetensorsStreaming(
      String path,
      List<Object> names,
      List<Object> types,
      List<List<Integer>> shapes,
      java.util.function.Function<Object, Object> valueOf,
      List<Object> metaKeys,
      List<Object> metaValues) {
    List<SafetensorsFile.Declared> declared = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      declared.add(
          new SafetensorsFile.Declared(
              (String) names.get(i),
              DType.valueOf((String) types.get(i)),
              new dev.msjvm.engine.ir.Shape(shapes.get(i))));
    }
    Map<String, String> metadata = new LinkedHashMap<>();
    for (int i = 0; i < metaKeys.size(); i++) {
      metadata.put((String) metaKeys.get(i), (String) metaValues.get(i));
    }
    SafetensorsFile.write(
        policy.write(path), declared, name -> safetensorsValue(valueOf.apply(name)), metadata);
  }

  private static Tensor safetensorsValue(Object value) {
    return switch (value) {
      case Tensor t -> t;
      case Variable v -> v.value();
      case Object o ->
          throw MsException.typeError(
              "For 'save_checkpoint', cannot save "
                  + o.getClass().getSimpleName()
                  + " in a safetensors file.");
    };
  }

  /** Random access to the entries of a .ckpt or .safetensors file (indexed now, read on demand). */
  public CheckpointReader open(String path) {
    return CheckpointReader.open(
        policy.read(path), dev.msjvm.engine.ReadLimit.fromSystemProperty());
  }

  /**
   * A tensor of engine type {@code type} and shape {@code shape} assembled from pieces of entry
   * {@code name}: piece {@code i} is the box {@code [begins[i], ends[i])} of the entry in {@code
   * readers[i]} (a {@link CheckpointReader}), written at {@code ats[i]}. Each piece is read
   * straight into the result, so the result and one read chunk are all that is held (the
   * distributed- checkpoint tools' destination slices).
   */
  public Tensor assemble(
      String type,
      List<Integer> shape,
      String name,
      List<Object> readers,
      List<List<Integer>> begins,
      List<List<Integer>> ends,
      List<List<Integer>> ats) {
    Tensor out = Tensor.zeros(DType.valueOf(type), new dev.msjvm.engine.ir.Shape(shape));
    for (int i = 0; i < readers.size(); i++) {
      ((CheckpointReader) readers.get(i))
          .readBoxInto(name, begins.get(i), ends.get(i), out, ats.get(i));
    }
    return out;
  }

  /**
   * Writes {@code values[i]} (a Tensor or a Parameter's Variable) under {@code names[i]} as a
   * safetensors file with the metadata {@code metaKeys[i] -> metaValues[i]} (none at all when
   * {@code metaKeys} is null); with {@code crc}, adds MindSpore's {@code "crc_num"}: the CRC-32 of
   * each name and then its tensor's bytes, names in sorted order. Returns that CRC (or -1).
   */
  public long saveSafetensors(
      String path,
      List<Object> names,
      List<Object> values,
      List<Object> metaKeys,
      List<Object> metaValues,
      boolean crc) {
    Map<String, Tensor> tensors = new LinkedHashMap<>();
    for (int i = 0; i < names.size(); i++) {
      String name = (String) names.get(i);
      tensors.put(name, safetensorsValue(values.get(i)));
    }
    Map<String, String> metadata = null;
    if (metaKeys != null) {
      metadata = new LinkedHashMap<>();
      for (int i = 0; i < metaKeys.size(); i++) {
        metadata.put((String) metaKeys.get(i), (String) metaValues.get(i));
      }
    }
    long sum = -1;
    if (crc) {
      sum = crcOf(tensors);
      if (metadata == null) {
        metadata = new LinkedHashMap<>();
      }
      metadata.put("crc_num", Long.toString(sum));
    }
    SafetensorsFile.write(policy.write(path), tensors, metadata);
    return sum;
  }

  /**
   * MindSpore's safetensors CRC: names in sorted order, each followed by {@code bytes(array)} of
   * its numpy value. For a 0-d integer array that is not its data: numpy gives such an array {@code
   * __index__}, so {@code bytes()} makes that many zero bytes (and refuses a negative one with
   * "negative count"); MindSpore's CRC includes them, so this one does too.
   */
  private static long crcOf(Map<String, Tensor> tensors) {
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    for (String name : new java.util.TreeSet<>(tensors.keySet())) {
      crc.update(name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      Tensor t = tensors.get(name);
      DType.Kind kind = t.dtype().kind();
      if (t.shape().rank() == 0 && (kind == DType.Kind.SIGNED || kind == DType.Kind.UNSIGNED)) {
        long count = t.getLong(0);
        if (count < 0) {
          throw MsException.valueError("negative count");
        }
        byte[] zeros = new byte[(int) Math.min(count, 1 << 16)];
        for (long left = count; left > 0; left -= zeros.length) {
          crc.update(zeros, 0, (int) Math.min(left, zeros.length));
        }
      } else {
        crc.update(TensorBytes.of(t));
      }
    }
    return crc.getValue();
  }

  /**
   * A safetensors file as {@code [[name, Tensor]...], metadata, crc]}: tensors in sorted name order
   * (as MindSpore loads them), the {@code __metadata__} map, and, with {@code crc}, the CRC
   * MindSpore's check computes (-1 without: the tensors' bytes are not gone over again).
   */
  public List<Object> loadSafetensors(String path, boolean crc) {
    SafetensorsFile.Contents contents = SafetensorsFile.read(policy.read(path));
    Map<String, Tensor> sorted = new java.util.TreeMap<>();
    contents.tensors().forEach(e -> sorted.put(e.getKey(), e.getValue()));
    List<List<Object>> pairs = new ArrayList<>();
    sorted.forEach((name, t) -> pairs.add(List.of(name, t)));
    return List.of(pairs, contents.metadata(), crc ? crcOf(sorted) : -1L);
  }

  /** Whether the file at {@code path} ends with a CRC trailer. */
  public boolean hasCrc(String path) {
    return CheckpointFile.hasCrc(policy.read(path));
  }

  /** The (name, Tensor or String) pairs of {@code path}, in file order; checks a CRC if asked. */
  public List<List<Object>> load(String path, boolean crcCheck) {
    List<List<Object>> out = new ArrayList<>();
    for (CheckpointEntry e : files.read(policy.read(path), crcCheck)) {
      Object value =
          switch (e) {
            case CheckpointEntry.OfTensor t -> t.tensor();
            case CheckpointEntry.OfText s -> s.text();
          };
      out.add(List.of(e.tag(), value));
    }
    return out;
  }
}
