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

  /**
   * MindSpore's error when a map's operations give {@code got} columns where {@code expected}
   * output columns are named (mindspore/ccsrc/minddata/dataset/engine/datasetops/map_op/map_op.cc).
   */
  public static MsException mapColumns(int got, int expected) {
    return of(
        "Invalid columns, the number of columns returned in 'map' operations should match the"
            + " number of 'output_columns', but got the number of columns returned in 'map'"
            + " operations: "
            + got
            + ", the number of 'output_columns': "
            + expected
            + ".");
  }

  /**
   * {@code e}, raised by the transform {@code op} inside a map, as MindSpore's map reports it: "map
   * operation: [op] failed. " before the reason (map_op.cc); other errors as they are.
   */
  public static MsException inMap(String op, MsException e) {
    String text = e.getMessage();
    int at = text.indexOf("[ERROR] ");
    if (at < 0 || !text.startsWith("Exception thrown from dataset pipeline.")) {
      return e;
    }
    String reason = text.substring(at + "[ERROR] ".length()).stripTrailing();
    return of("map operation: [" + op + "] failed. " + reason);
  }
}
