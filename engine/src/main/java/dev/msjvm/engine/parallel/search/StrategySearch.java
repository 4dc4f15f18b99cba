package dev.msjvm.engine.parallel.search;

import dev.msjvm.engine.MsException;

/**
 * The search modes of {@code set_auto_parallel_context(search_mode=...)} over a {@link CostGraph}.
 */
public final class StrategySearch {

  public static final String SHARDING_PROPAGATION = "sharding_propagation";
  public static final String DYNAMIC_PROGRAMMING = "dynamic_programming";
  public static final String RECURSIVE_PROGRAMMING = "recursive_programming";

  private StrategySearch() {}

  /** The chosen candidate of every node of {@code g} under {@code mode}. */
  public static int[] solve(CostGraph g, String mode) {
    return switch (mode) {
      case SHARDING_PROPAGATION -> ShardingPropagation.solve(g);
      case DYNAMIC_PROGRAMMING -> DynamicProgramming.solve(g);
      default -> throw MsException.valueError("Unsupported search mode: " + mode);
    };
  }
}
