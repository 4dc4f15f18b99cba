package dev.msjvm.engine.ops;

/**
 * How the strategy search treats an operator beyond its sharding rule: MindSpore's SAPP operator
 * types ({@code rec_core/rec_graph.h}) and its {@code IsElementWiseOperator} list, which decides
 * whether an elementwise operator follows its producer's strategy in the dynamic programming
 * search.
 */
public enum CostRole {
  /** MatMul, BatchMatMul: SAPP weighs their cuts by {@code rp_matmul_mem_coef}. */
  MATMUL,
  /** Arithmetic, comparisons, activations and their gradients, casts: pointwise. */
  ELEMENTWISE,
  /** Softmax, LogSoftmax: pointwise along a row for the DP search, batch-parallel for SAPP. */
  SOFTMAX,
  /** Losses, OneHot, BatchNorm: SAPP keeps them batch-parallel. */
  BATCH_PARALLEL,
  /**
   * Identity, Load, StopGradient, Assign: they move a value without computing on it; not
   * elementwise in MindSpore's sense.
   */
  PASS_THROUGH,
  /**
   * ApplyMomentum, SGD, Adam, AdamWeightDecay: fused optimizer updates. They run in their
   * parameter's own layout, so the strategy search leaves them out; by rule otherwise.
   */
  UPDATE,
  /**
   * Lamb: an update whose trust ratio takes norms over the whole parameter, so it runs on the whole
   * parameter (optimizer parallel leaves its parameters whole); by rule otherwise.
   */
  WHOLE_UPDATE,
  /** Everything else (reshapes, reductions, gathers, convolutions): by rule. */
  GENERAL;

  /** Whether MindSpore counts the operator as elementwise ({@code IsElementWiseOperator}). */
  public boolean isElementwise() {
    return this == ELEMENTWISE || this == SOFTMAX;
  }
}
