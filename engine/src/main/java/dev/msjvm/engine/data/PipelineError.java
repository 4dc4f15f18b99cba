package dev.msjvm.engine.data;

import dev.msjvm.engine.MsException;

/**
 * MindSpore's wrapping of an error raised inside a running dataset pipeline.
 *
 * <p>MindSpore 2.10 raises such errors as {@code RuntimeError} whose text frames the reason
 * (mindspore/dataset/engine/iterators.py re-raises the C++ status, built in
 * mindspore/ccsrc/minddata/dataset/util/status.cc). The C++ call-stack section MindSpore appends is
 * left out. Example: {@code of("Invalid column, column name: z does not exist.")}.
 */
public final class PipelineError {
  private static final String RULE =
      "------------------------------------------------------------------";

  private PipelineError() {}

  /** A RuntimeError whose message frames {@code reason} as MindSpore's pipeline does. */
  public static MsException of(String reason) {
    return MsException.runtimeError(
        "Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error Message'. \n\n"
            + RULE
            + "\n- Dataset Pipeline Error Message: \n"
            + RULE
            + "\n[ERROR] "
            + reason
            + "\n");
  }
}
