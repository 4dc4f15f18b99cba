package dev.msjvm.engine.checkpoint;

import dev.msjvm.engine.tensor.Tensor;
import java.util.Objects;

/**
 * One named value of a MindSpore {@code .ckpt} file: a tensor, or a string (what {@code
 * save_checkpoint(append_dict={"k": "text"})} stores).
 *
 * <p>Example: {@code new CheckpointEntry.OfTensor("fc.weight", w)} is written as one {@code
 * Checkpoint.Value} with tag {@code "fc.weight"} and tensor type {@code "Float32"}.
 */
public sealed interface CheckpointEntry {
  /** The entry's name ({@code Checkpoint.Value.tag}). */
  String tag();

  /** A tensor entry. */
  record OfTensor(String tag, Tensor tensor) implements CheckpointEntry {
    public OfTensor {
      Objects.requireNonNull(tag);
      Objects.requireNonNull(tensor);
    }
  }

  /** A string entry (tensor type {@code "str"}, dims {@code [0]}, UTF-32LE content). */
  record OfText(String tag, String text) implements CheckpointEntry {
    public OfText {
      Objects.requireNonNull(tag);
      Objects.requireNonNull(text);
    }
  }
}
