package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.parallel.DeviceMatrix;
import dev.msjvm.engine.parallel.TensorLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * out_strategy handling: MindSpore accepts one for MatMul ({@code MatMul::CheckOutputStrategy},
 * matmul_info.cc), where output dim 0 split {@code i*k} turns the forward AllReduce into a
 * ReduceScatter, and for Gather with its gathered axis split (gather_info.cc, below); every other
 * op refuses it ({@code OperatorInfo::CheckOutputStrategy}).
 */
final class OutStrategy {
  private OutStrategy() {}

  /**
   * The rules' default out_strategy check (MatMul's where the spec allows a ReduceScatter, a
   * refusal elsewhere): validates {@code out}; true when output 0 is completed by a ReduceScatter.
   */
  static boolean check(
      String op,
      EinsumSpec spec,
      List<List<Integer>> in,
      List<List<Integer>> out,
      Map<Character, Integer> splits,
      List<Shape> outShapes,
      int n) {
    if (out == null) {
      return false;
    }
    if (!spec.reduceScatter()) {
      throw new ShardingException(
          op, "It does not support to set output strategy now, please modify the shard set");
    }
    if (in.stream().anyMatch(s -> s.size() != 2)) {
      throw new ShardingException(
          op, "The dimension of mat a and mat b must be 2 if set output strategy");
    }
    StrategyChecks.checkStrategyByVector(op, out, outShapes.subList(0, 1), n);
    String letters = spec.outputs().get(0);
    int a = splits.get(letters.charAt(0));
    int c = splits.get(letters.charAt(1));
    int b = 1;
    for (char k : spec.contracted(0).toCharArray()) {
      b *= splits.get(k);
    }
    String inText = "The input strategy is (" + in.get(0) + ", " + in.get(1) + ")";
    List<Integer> o = out.get(0);
    if (o.get(1) != c) {
      throw new ShardingException(
          op,
          inText
              + ", the second dimension of output strategy must be "
              + c
              + ", but got "
              + o.get(1));
    }
    if (o.get(0) == a) {
      return false;
    }
    if (o.get(0) == a * b) {
      return b > 1;
    }
    throw new ShardingException(
        op,
        inText
            + ", the first dimension of output strategy must be "
            + a
            + " or "
            + a * b
            + ", but got "
            + o.get(0));
  }

  /**
   * Gather (GatherInfo::CheckOutputStrategy): with the gathered axis split, the output strategy is
   * the AllReduce one (the indices' strategy, then the table's after dim 0) or, for axis 0 with the
   * indices split at most along dim 0, the ReduceScatter one (its dim 0 times the axis's split).
   * Without one, SHARD_AXIS_0 reduce-scatters when the indices' dim 0 divides by the axis's split
   * (ShardAxisImpl::SetAttribute); the modes that split the indices too all-reduce.
   */
  static boolean gather(
      String op,
      EinsumSpec spec,
      List<List<Integer>> in,
      List<List<Integer>> out,
      Map<Character, Integer> splits,
      List<Shape> outShapes,
      int n) {
    List<Integer> p = in.get(0);
    List<Integer> idx = in.get(1);
    String table = spec.inputs().get(0);
    int axis = table.indexOf(spec.contracted(0));
    boolean split = axis >= 0 && p.get(axis) > 1;
    IndexRules.GatherMode mode = split ? IndexRules.gatherMode(axis, p, idx, n) : null;
    boolean scatterable =
        split
            && axis == 0
            && (mode == IndexRules.GatherMode.SHARD_AXIS_0
                || mode == IndexRules.GatherMode.SHARD_BATCH_AND_AXIS)
            && !idx.isEmpty()
            && idx.stream().skip(1).allMatch(v -> v == 1);
    String idxLetters = spec.inputs().get(1);
    int bd = 0;
    while (bd < Math.min(idxLetters.length(), table.length())
        && idxLetters.charAt(bd) == table.charAt(bd)) {
      bd++;
    }
    if (out != null && bd > 0) {
      throw new ShardingException(
          op,
          "Set output strategy only for axis = 0 and batch_dims = 0, but the axis is "
              + axis
              + ", the batch_dims is "
              + bd);
    }
    if (out == null) {
      return scatterable
          && mode == IndexRules.GatherMode.SHARD_AXIS_0
          && !outShapes.get(0).dims().isEmpty()
          && outShapes.get(0).dim(0) % p.get(0) == 0;
    }
    StrategyChecks.checkStrategyByVector(op, out, outShapes.subList(0, 1), n);
    List<Integer> allReduce = new ArrayList<>(idx);
    allReduce.addAll(p.subList(1, p.size()));
    List<Integer> reduceScatter = new ArrayList<>(allReduce);
    if (!reduceScatter.isEmpty()) {
      reduceScatter.set(0, reduceScatter.get(0) * p.get(0));
    }
    List<Integer> o = out.get(0);
    if (o.equals(allReduce)) {
      return false;
    }
    if (o.equals(reduceScatter)) {
      if (!scatterable) {
        throw new ShardingException(
            op,
            "The output strategy "
                + MsException.vector(o)
                + " for gather mode "
                + (mode == null ? "NORMAL" : mode.name())
                + " is invalid, it must be "
                + MsException.vector(allReduce));
      }
      return true;
    }
    throw new ShardingException(
        op,
        "The output strategy "
            + MsException.vector(o)
            + " is invalid, it must be "
            + MsException.vector(allReduce)
            + " or "
            + MsException.vector(reduceScatter));
  }

  /**
   * The output layout after a ReduceScatter: MindSpore's {@code out_dev_matrix_shape_}, the axis of
   * the row letter and that of the contracted letter (the axes between them all of size 1: MatMul's
   * are adjacent, Gather's indices unsplit after dim 0) merged, the row's outermost; the output's
   * other letters keep their axes.
   */
  static TensorLayout scatterLayout(EinsumSpec spec, DeviceMatrix dev, Shape outShape) {
    String letters = spec.outputs().get(0);
    int i = spec.matrix().indexOf(letters.charAt(0));
    int k = spec.matrix().indexOf(spec.contracted(0).charAt(0));
    List<Integer> shape = new ArrayList<>(dev.shape());
    shape.set(i, shape.get(i) * shape.get(k));
    shape.remove(k);
    DeviceMatrix out = new DeviceMatrix(shape, dev.rankList());
    int axes = shape.size();
    List<Integer> map = new ArrayList<>();
    for (int d = 0; d < letters.length(); d++) {
      int m = spec.matrix().indexOf(letters.charAt(d));
      if (d > 0 && m < 0) {
        map.add(-1);
        continue;
      }
      int j = d == 0 ? i : (m > k ? m - 1 : m);
      map.add(axes - 1 - j);
    }
    return new TensorLayout(out, map, outShape);
  }
}
