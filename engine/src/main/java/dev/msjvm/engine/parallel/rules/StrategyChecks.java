package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.parallel.TensorLayout;
import java.util.List;

/**
 * MindSpore's generic strategy checks with its texts: {@code OperatorInfo::CheckStrategyByVector}
 * (frontend/parallel/ops_info/operator_info.cc), in its order: count, length, positive values,
 * divisibility, power of two (skipped when the device count is not a power of two).
 */
final class StrategyChecks {
  private StrategyChecks() {}

  static void checkStrategyByVector(
      String op, List<List<Integer>> strategy, List<Shape> shapes, int deviceCount) {
    String s = TensorLayout.strategyString(strategy);
    if (strategy.size() != shapes.size()) {
      throw new ShardingException(
          op,
          "The strategy is "
              + s
              + ", strategy size: "
              + strategy.size()
              + " is not equal to inputs size: "
              + shapes.size());
    }
    for (int i = 0; i < strategy.size(); i++) {
      List<Integer> sub = strategy.get(i);
      Shape shape = shapes.get(i);
      if (sub.size() != shape.rank()) {
        throw new ShardingException(
            op,
            "The strategy is "
                + s
                + ", strategy len: "
                + sub.size()
                + " is not equal to inputs len: "
                + shape.rank()
                + ", index: "
                + i);
      }
      for (int j = 0; j < sub.size(); j++) {
        int v = sub.get(j);
        if (v < 1) {
          throw new ShardingException(
              op,
              "The strategy is "
                  + s
                  + ", the value of strategy must be larger than 0, but get "
                  + v);
        }
        if (shape.dim(j) % v != 0) {
          throw new ShardingException(
              op,
              "Input index "
                  + i
                  + ", the strategy is "
                  + s
                  + ", shape is "
                  + shape.dims()
                  + ", shape value "
                  + shape.dim(j)
                  + " at dim index "
                  + j
                  + " cannot be divisible by strategy value "
                  + v);
        }
        if (!powerOfTwo(v) && powerOfTwo(deviceCount)) {
          throw new ShardingException(
              op,
              "The strategy is "
                  + s
                  + ", the value of strategy must be the power of 2, but get "
                  + v);
        }
      }
    }
  }

  static boolean powerOfTwo(long v) {
    return v > 0 && (v & (v - 1)) == 0;
  }
}
