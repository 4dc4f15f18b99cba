package dev.msjvm.engine.parallel;

import java.util.List;

/**
 * What a redistribution costs in MindSpore's model ({@code TensorRedistribution::ComputeCost},
 * {@code tensor_redistribution.cc}), in elements; the edge cost multiplies by the dtype's bytes.
 *
 * <p>Per abstract op reading a slice of {@code s} elements: SplitByAxis adds {@code s} to
 * computation and memory; PermuteByAxis (AllToAll) adds {@code 2s} forward and backward, {@code 4s}
 * to communication, and {@code s} (concat dim 0) or {@code s + 2s·n} computation; ConcatByAxis
 * (AllGather over {@code n}) adds {@code s·n/2} forward, {@code s/2} backward, {@code s(n+1)/2}
 * communication, and computation/memory {@code s}/{@code s·n} on dim 0, else {@code s + 2s·n} for
 * both. A Reshape anywhere adds twice the size of the (squeezed) source slice to computation and
 * memory. Example: gathering a {@code [4, 8]} slice over 8 ranks on dim 0 costs communication 144.
 */
public record RedistributionCost(
    double computation,
    double forwardCommunication,
    double backwardCommunication,
    double communication,
    double memory) {

  private static final double ALLTOALL_SCALE_FACTOR = 2.0;
  private static final double ALLGATHER_REDUCESCATTER_SCALE_FACTOR = 0.5;
  private static final double COST_FACTOR = 2.0;

  static RedistributionCost of(List<OperatorInfer.Step> steps, boolean reshaped, long prevSize) {
    double comp = 0;
    double fwd = 0;
    double bwd = 0;
    double comm = 0;
    double mem = 0;
    for (OperatorInfer.Step step : steps) {
      double s = step.input().size();
      List<Integer> a = step.args();
      switch (step.kind()) {
        case PERMUTE_BY_AXIS -> {
          fwd += s * ALLTOALL_SCALE_FACTOR;
          bwd += s * ALLTOALL_SCALE_FACTOR;
          comm += COST_FACTOR * s * ALLTOALL_SCALE_FACTOR;
          int devNum = a.get(4);
          if (a.get(2) == 0) {
            comp += s;
            mem += s;
          } else {
            comp += s + 2 * s * devNum;
            mem += 2 * s * devNum + s;
          }
        }
        case CONCAT_BY_AXIS -> {
          double n = a.get(2);
          fwd += s * n * ALLGATHER_REDUCESCATTER_SCALE_FACTOR;
          bwd += s * ALLGATHER_REDUCESCATTER_SCALE_FACTOR;
          comm += s * (n + 1) * ALLGATHER_REDUCESCATTER_SCALE_FACTOR;
          if (a.get(0) == 0) {
            comp += s;
            mem += s * n;
          } else {
            comp += s + 2 * s * n;
            mem += 2 * s * n + s;
          }
        }
        case SPLIT_BY_AXIS -> {
          comp += s;
          mem += s;
        }
      }
    }
    if (reshaped) {
      comp += COST_FACTOR * prevSize;
      mem += COST_FACTOR * prevSize;
    }
    return new RedistributionCost(comp, fwd, bwd, comm, mem);
  }
}
