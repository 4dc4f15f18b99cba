package dev.msjvm.engine.parallel;

import java.util.List;

/**
 * How one operator call runs sharded: its strategy, the layout each input must have, the layout of
 * each output and, per output, whether the local results are partial (to be reduced over some
 * device axes before anyone reads them).
 *
 * <p>Example: MatMul {@code ((2, 4), (4, 1))} on 8 devices has device matrix {@code [2, 4, 1]},
 * inputs {@code x: map [2, 1]} and {@code w: map [1, 0]}, output {@code map [2, 0]} partial ({@link
 * Partial#SUM}) over device axis 1 (the 4 devices splitting the reduction dimension).
 *
 * @param strategy the strategy as MindSpore prints it, one list per input
 * @param inputs the layout each input must have when the operator runs
 * @param outputs the layout of each output once its partial sums (if any) are reduced
 * @param partial per output: the reduction still to do, or null
 */
public record NodeSharding(
    List<List<Integer>> strategy,
    List<TensorLayout> inputs,
    List<TensorLayout> outputs,
    List<Partial> partial) {

  public NodeSharding {
    strategy = List.copyOf(strategy);
    inputs = List.copyOf(inputs);
    outputs = List.copyOf(outputs);
    partial = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(partial));
    if (partial.size() != outputs.size()) {
      throw new IllegalArgumentException("one partial entry per output");
    }
  }

  /**
   * Local results still to be reduced over the devices that differ only along {@code deviceAxes}
   * (indices into the device matrix, counted from the left): {@code "sum"}, {@code "max"}, {@code
   * "min"}, or {@code "mean"} (sum, then divided by the number of those devices).
   */
  public record Partial(List<Integer> deviceAxes, String reduce) {
    public static final String SUM = "sum";
    public static final String MEAN = "mean";

    public Partial {
      deviceAxes = List.copyOf(deviceAxes);
    }
  }
}
