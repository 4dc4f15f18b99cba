package dev.msjvm.engine.comm;

import dev.msjvm.engine.ops.NnExtraOps;
import dev.msjvm.engine.ops.OpDef;
import java.util.List;

/**
 * RmsNorm on one block of its normalised dims, split over the ranks of {@code group} (MindSpore's
 * RmsNormInfo with the norm axis split, which reduces the squares over those ranks): the per-row
 * sums of squares and the element counts are summed over the group (as float32 value/residue pairs,
 * {@link SyncBatchNorm}), so every rank normalises by the whole row's root mean square and {@code
 * rstd} comes out whole, as the stand-alone run computes it. Its gradient is RmsNorm's, composed of
 * operators the partitioner shards (their means over the split dims are AllReduced). Inputs,
 * outputs and attributes are RmsNorm's plus {@code group}.
 */
public final class SyncRmsNorm {
  private SyncRmsNorm() {}

  public static OpDef forward(Communicator comm) {
    return new OpDef(
            "SyncRmsNorm",
            c -> NnExtraOps.rmsNorm(c, SyncBatchNorm.sums(comm, c.attrs())),
            null,
            false,
            List.of())
        .infers((a, in) -> NnExtraOps.rmsNormTypes(in.get(0), in.get(1)));
  }
}
