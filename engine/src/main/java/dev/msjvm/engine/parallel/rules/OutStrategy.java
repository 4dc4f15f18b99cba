package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.parallel.DeviceMatrix;
import dev.msjvm.engine.parallel.TensorLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * out_strategy handling: MindSpore accepts one only for MatMul ({@code
 * MatMul::CheckOutputStrategy}, matmul_info.cc), where output dim 0 split {@code i*k} turns the
 * forward AllReduce into a ReduceScatter; every other op refuses it ({@code
 * OperatorInfo::CheckOutputStrategy}).
 */
final class OutStrategy {
  private OutStrategy() {}

  /** Validates {@code out}; true when output 0 is completed by a ReduceScatter. */
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
   * The output layout after a ReduceScatter: MindSpore's {@code out_dev_matrix_shape_}, the axes of
   * the row letter and the contracted letter (adjacent in the matrix) merged, map {@code [1, 0]}
   * (+1 with a repeated axis).
   */
  static TensorLayout scatterLayout(EinsumSpec spec, DeviceMatrix dev, Shape outShape) {
    int i = spec.matrix().indexOf(spec.outputs().get(0).charAt(0));
    List<Integer> shape = new ArrayList<>(dev.shape());
    int merged = shape.get(i) * shape.get(i + 1);
    shape.remove(i + 1);
    shape.set(i, merged);
    DeviceMatrix out = new DeviceMatrix(shape, dev.rankList());
    int axes = shape.size();
    int j = spec.matrix().indexOf(spec.outputs().get(0).charAt(1)) - 1;
    return new TensorLayout(out, List.of(axes - 1 - i, axes - 1 - j), outShape);
  }
}
