package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.parallel.DeviceMatrix;
import java.util.List;

/**
 * An output whose local values are partial results: the op's forward communication combines them
 * across the devices along {@code deviceAxes} (indices into the op's device matrix) with {@code
 * op}.
 *
 * <p>{@code scatterDim} is -1 for an AllReduce (every member ends with the whole result) or the
 * output dimension a ReduceScatter splits among the group (MatMul with an out_strategy: dim 0).
 * Example: MatMul {@code ((2, 4), (4, 1))} on 8 devices, device matrix {@code [2, 4, 1]}: output
 * partial over axis 1, SUM; rank 5's group is {@code [4, 5, 6, 7]}.
 */
public record Partial(List<Integer> deviceAxes, PartialOp op, int scatterDim) {

  public Partial {
    deviceAxes = List.copyOf(deviceAxes);
    if (deviceAxes.isEmpty()) {
      throw new IllegalArgumentException("a partial output names at least one device axis");
    }
  }

  /** The ranks that combine their partial results with {@code rank}, in group-rank order. */
  public List<Integer> group(DeviceMatrix devices, int rank) {
    return devices.devicesVaryingOnly(rank, deviceAxes);
  }

  public boolean reduceScatter() {
    return scatterDim >= 0;
  }

  @Override
  public String toString() {
    return (reduceScatter() ? "ReduceScatter(" : "AllReduce(")
        + op
        + " over axes "
        + deviceAxes
        + ")";
  }
}
