package dev.msjvm.engine.parallel;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What one rank does to move its slice of a tensor from layout {@code from} to layout {@code to}:
 * the ops in order, and what the whole redistribution costs. Plans differ between ranks only in
 * groups and slice offsets; every rank of the stage runs its own.
 *
 * <p>Prints as the list MindSpore's {@code _transform_tensor_by_layout} returns, e.g. {@code
 * [('Reshape', [32, 1, 32]), ('AllConcat', [0, 1, 2]), ('Reshape', [32, 64])]}; {@code []} when
 * nothing moves.
 */
public record RedistributionPlan(
    TensorLayout from,
    TensorLayout to,
    int rank,
    boolean allToAllEnabled,
    List<RedistributionOp> ops,
    RedistributionCost cost) {

  public RedistributionPlan {
    ops = List.copyOf(ops);
  }

  /** True when some op exchanges data between ranks. */
  public boolean communicates() {
    return ops.stream()
        .anyMatch(
            op ->
                op instanceof RedistributionOp.AllConcat
                    || op instanceof RedistributionOp.AllToAll);
  }

  @Override
  public String toString() {
    return ops.stream().map(Object::toString).collect(Collectors.joining(", ", "[", "]"));
  }
}
