package dev.msjvm.engine.parallel;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import java.util.List;

/**
 * Answers, for one operator call of a traced graph, how it runs sharded: the user's strategy when
 * the call has one (its {@code in_strategy} attribute), otherwise a strategy that consumes the
 * inputs' current layouts without moving data where the operator allows it. Invalid strategies
 * raise MindSpore's errors ({@link dev.msjvm.engine.MsException}).
 */
public interface ShardingOracle {

  /**
   * @param op the operator name
   * @param attrs its attributes (including {@code in_strategy}/{@code out_strategy} if set)
   * @param inputShapes the global shapes of the inputs
   * @param outputShapes the global shapes of the outputs
   * @param current each input's present layout, or null where the input is still free (a parameter
   *     no operator has placed yet)
   * @param devices the number of devices of the stage
   */
  NodeSharding shard(
      String op,
      Attrs attrs,
      List<Shape> inputShapes,
      List<Shape> outputShapes,
      List<TensorLayout> current,
      int devices);
}
