package dev.msjvm.shim;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.checkpoint.CheckpointEntry;
import dev.msjvm.engine.checkpoint.CheckpointFile;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import java.util.ArrayList;
import java.util.List;

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
    List<CheckpointEntry> entries = new ArrayList<>(names.size());
    for (int i = 0; i < names.size(); i++) {
      String name = (String) names.get(i);
      entries.add(
          switch (values.get(i)) {
            case Tensor t -> new CheckpointEntry.OfTensor(name, t);
            case Variable v -> new CheckpointEntry.OfTensor(name, v.value());
            case String s -> new CheckpointEntry.OfText(name, s);
            case Object o ->
                throw MsException.typeError(
                    "For 'save_checkpoint', cannot save " + o.getClass().getSimpleName() + ".");
          });
    }
    files.write(policy.write(path), entries, crc);
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
