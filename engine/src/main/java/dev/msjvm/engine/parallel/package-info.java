/**
 * Tensor layouts and their redistribution, as MindSpore's auto-parallel models them
 * (frontend/parallel/tensor_layout).
 *
 * <p>The model. A stage's devices form a {@link dev.msjvm.engine.parallel.DeviceMatrix}, e.g.
 * {@code [2, 4]} over ranks 0..7 with rank {@code 4a + b} at {@code (a, b)}. A {@link
 * dev.msjvm.engine.parallel.TensorLayout} gives each tensor dimension a tensor-map value: {@code v}
 * splits it along device axis {@code axes-1-v} (counted from the right, as in MindSpore's
 * strategies and its {@code Layout("dp", "mp")} aliases), {@code -1} leaves it whole. Device axes
 * no dimension uses are repeated: all devices along them hold the same slice (MindSpore's "repeated
 * calculation" and mirror groups). So on {@code [2, 4]}, map {@code [1, -1]} splits dim 0 in two
 * (strategy {@code (2, 1)}) and every slice lives on four devices; map {@code [0, 1]} splits dim 0
 * four ways along axis 1 and dim 1 two ways along axis 0.
 *
 * <p>Moving a tensor between layouts. {@link dev.msjvm.engine.parallel.TensorRedistribution} plans,
 * for one rank, MindSpore's sequence of StridedSlice, AllConcat (AllGather + Split + Concat),
 * optional AllToAll and Reshape ops, in MindSpore's order and format, with MindSpore's cost; {@link
 * dev.msjvm.engine.parallel.RedistributionExecutor} runs such a plan on a rank's data through the
 * job's communicator.
 */
package dev.msjvm.engine.parallel;
