package dev.msjvm.engine.comm;

import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.ops.NnOps;
import dev.msjvm.engine.ops.OpDef;
import dev.msjvm.engine.tensor.Normalization;
import dev.msjvm.engine.tensor.Tensor;
import java.util.List;

/**
 * BatchNorm in training on one block of a batch split over the ranks of {@code group} (MindSpore's
 * {@code SyncBatchNorm}, which its BatchNormInfo substitutes when the batch, H or W of a training
 * BatchNorm is split), and its gradient ({@code SyncBatchNormGrad}), bound to one rank's {@link
 * Communicator}: the per-channel sums behind the statistics are summed over the group, so every
 * rank normalises with, and updates its moving statistics from, the whole batch's mean and
 * variance, as the stand-alone run does; the gradient sums its per-channel terms over the group the
 * same way, so the scale and bias gradients come out whole on every rank.
 *
 * <p>Inputs, outputs and attributes are BatchNorm's and BatchNormGrad's ({@code epsilon}, {@code
 * momentum}) plus {@code group}. A script's {@code SyncBatchNorm} primitive ({@code
 * nn.SyncBatchNorm} in data-parallel training) also sets {@code device_num}: its scale and bias
 * gradients are then the group's mean rather than its sum, as MindSpore's (its SyncBNGrad split
 * multiplies the AllReduce by {@code 1/device_num}), and the gradient reducer averages them over
 * the ranks as any other. The sums travel as float32 pairs (the value rounded, then the rounding
 * error), so they keep about double precision through the float32 AllReduce.
 */
public final class SyncBatchNorm {
  private SyncBatchNorm() {}

  /**
   * {@code SyncBatchNorm(x, scale, bias, moving_mean, moving_variance)}: y, batch mean, variance.
   */
  public static OpDef forward(Communicator comm) {
    return new OpDef(
            "SyncBatchNorm",
            c -> NnOps.batchNorm(c, true, sums(comm, c.attrs())),
            g -> {
              Tensor[] d =
                  g.apply(
                      backward(comm), g.attrs(), g.dout(0), g.in(0), g.in(1), g.out(1), g.out(2));
              return new Tensor[] {d[0], d[1], d[2], null, null};
            },
            true,
            List.of(3, 4))
        .infers(
            (a, in) ->
                Normalization.batchNormType(in.get(0), in.get(1), in.get(2), in.get(3), in.get(4)));
  }

  /** {@code SyncBatchNormGrad(dy, x, scale, batch_mean, batch_variance)}: dx, dscale, dbias. */
  public static OpDef backward(Communicator comm) {
    return new OpDef(
            "SyncBatchNormGrad",
            c -> NnOps.batchNormGrad(c, true, sums(comm, c.attrs())),
            null,
            true,
            List.of())
        .infers(
            (a, in) ->
                Normalization.batchNormGradType(
                    in.get(0), in.get(1), in.get(2), in.get(3), in.get(4)));
  }

  /** Element-wise sums over {@code group}, each double sent as two float32s (value, residue). */
  static Normalization.Sums sums(Communicator comm, Attrs attrs) {
    String group = attrs.string("group");
    return values -> {
      int n = values.length;
      float[] buf = new float[2 * n];
      for (int i = 0; i < n; i++) {
        buf[i] = (float) values[i];
        buf[n + i] = (float) (values[i] - buf[i]);
      }
      comm.allReduce(buf, ReduceOp.SUM, group);
      double[] out = new double[n];
      for (int i = 0; i < n; i++) {
        out[i] = (double) buf[i] + buf[n + i];
      }
      return out;
    };
  }
}
