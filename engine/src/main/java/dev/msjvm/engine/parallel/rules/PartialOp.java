package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.comm.ReduceOp;

/**
 * How the local results of a partial output combine: the forward communication MindSpore inserts
 * after a sharded contraction ({@code InferForwardCommunication}).
 *
 * <p>{@code MEAN} is ReduceMean's: AllReduce(SUM) then division by the group size (every slice has
 * the same number of elements, so the mean of the local means is the global mean).
 */
public enum PartialOp {
  SUM(ReduceOp.SUM),
  MAX(ReduceOp.MAX),
  MIN(ReduceOp.MIN),
  PROD(ReduceOp.PROD),
  MEAN(ReduceOp.SUM),
  /**
   * Not partial at all: the output does not depend on the letter (BatchNorm's statistics outputs in
   * inference echo its mean and variance inputs), so no communication is needed.
   */
  NONE(null);

  private final ReduceOp commOp;

  PartialOp(ReduceOp commOp) {
    this.commOp = commOp;
  }

  /** The collective's reduce op. */
  public ReduceOp commOp() {
    return commOp;
  }

  /** Whether the reduced value is divided by the group size afterwards. */
  public boolean dividesByGroupSize() {
    return this == MEAN;
  }
}
