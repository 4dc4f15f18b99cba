package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.parallel.DeviceMatrix;
import dev.msjvm.engine.parallel.TensorLayout;
import java.util.List;
import java.util.Optional;

/**
 * How one operator call runs sharded: the strategy (given or defaulted), the device matrix with the
 * repeated-calculation axis appended as MindSpore does, the layout of every input and output, and
 * the forward communication that completes each partial output.
 *
 * <p>Invariants: one layout per real input and per output; input layouts share {@code
 * deviceMatrix}; an output completed by a ReduceScatter has its own device matrix (MindSpore's
 * {@code out_dev_matrix_shape_}, the i and k axes merged). Example: MatMul {@code ((2, 4), (4, 1))}
 * on 8 devices gives device matrix {@code [2, 4, 1]}, layouts {@code ((2, 4, 1), (2, 1), ...)},
 * {@code ((2, 4, 1), (1, 0), ...)}, output {@code ((2, 4, 1), (2, 0), ...)} partial SUM over axis
 * 1.
 */
public record OpSharding(
    String op,
    EinsumSpec spec,
    List<List<Integer>> strategy,
    List<List<Integer>> outStrategy,
    DeviceMatrix deviceMatrix,
    int repeatedCalcNum,
    List<TensorLayout> inputLayouts,
    List<TensorLayout> outputLayouts,
    List<Optional<Partial>> partials) {

  public OpSharding {
    strategy = strategy.stream().map(List::copyOf).toList();
    outStrategy = outStrategy == null ? null : outStrategy.stream().map(List::copyOf).toList();
    inputLayouts = List.copyOf(inputLayouts);
    outputLayouts = List.copyOf(outputLayouts);
    partials = List.copyOf(partials);
    if (partials.size() != outputLayouts.size()) {
      throw new IllegalArgumentException("one partial entry per output");
    }
  }

  /** The forward communication completing output {@code output}, if it is partial. */
  public Optional<Partial> partial(int output) {
    return partials.get(output);
  }

  /**
   * The ranks holding the same slice of input {@code input} as {@code rank}: MindSpore's mirror
   * group of a parameter-like input (its gradient is AllReduced over it); {@code [rank]} when the
   * slice is unique.
   */
  public List<Integer> mirrorGroup(int input, int rank) {
    return inputLayouts.get(input).repeatedGroup(rank);
  }

  /** The strategy as MindSpore prints it, e.g. {@code ((2, 4), (4, 1))}. */
  public String strategyString() {
    return TensorLayout.strategyString(strategy);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(op).append(' ').append(strategyString());
    sb.append(" dev=").append(deviceMatrix.shape());
    sb.append(" in=").append(inputLayouts.stream().map(l -> l.tensorMap().toString()).toList());
    sb.append(" out=").append(outputLayouts.stream().map(l -> l.tensorMap().toString()).toList());
    for (int o = 0; o < partials.size(); o++) {
      int out = o;
      partials.get(o).ifPresent(p -> sb.append(" out").append(out).append('=').append(p));
    }
    return sb.toString();
  }
}
