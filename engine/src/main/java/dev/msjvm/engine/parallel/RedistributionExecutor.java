package dev.msjvm.engine.parallel;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.comm.Communicator;
import dev.msjvm.engine.ir.Shape;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Runs one rank's {@link RedistributionPlan} on real data: the local slice of the source layout
 * goes in, the local slice of the target layout comes out, collectives go through the rank's {@link
 * Communicator}.
 *
 * <p>Every rank of the stage runs its own plan at the same point; each collective uses the group of
 * its rank list, created on every member under the name {@link #groupName} (so the same ranks
 * always meet in the same group). AllConcat is an AllGather followed, for a dim other than 0, by
 * the Split+Concat MindSpore inserts; AllToAll packs the pieces along the split dim. Example, on
 * rank r of an 8-rank world:
 *
 * <pre>{@code
 * RedistributionPlan plan = TensorRedistribution.plan(from, to, r, true);
 * RedistributionExecutor.Result out = RedistributionExecutor.run(world.communicator(r), plan, mine);
 * out.data(); // to.sliceOf(full, r)
 * }</pre>
 */
public final class RedistributionExecutor {

  private static final int FLOAT_BYTES = Float.BYTES;

  private RedistributionExecutor() {}

  /** A rank's target slice (row-major, shape {@code shape}) and the bytes it sent to others. */
  public static final class Result {
    private final float[] data;
    private final Shape shape;
    private final long bytesSent;

    Result(float[] data, Shape shape, long bytesSent) {
      this.data = data;
      this.shape = shape;
      this.bytesSent = bytesSent;
    }

    public float[] data() {
      return data;
    }

    public Shape shape() {
      return shape;
    }

    /** Bytes of float data this rank handed to other ranks (its own piece not counted). */
    public long bytesSent() {
      return bytesSent;
    }
  }

  /** The communication group name used for {@code ranks}, e.g. {@code "redistribution_0_2_4_6"}. */
  public static String groupName(List<Integer> ranks) {
    return ranks.stream()
        .map(String::valueOf)
        .collect(Collectors.joining("_", "redistribution_", ""));
  }

  public static Result run(Communicator comm, RedistributionPlan plan, float[] local) {
    if (comm.rank() != plan.rank()) {
      throw MsException.valueError(
          "The plan is for rank " + plan.rank() + " but the communicator is rank " + comm.rank());
    }
    Shape shape = plan.from().sliceShape();
    if (local.length != shape.size()) {
      throw MsException.valueError(
          "The local slice has "
              + local.length
              + " elements but the source layout "
              + plan.from()
              + " gives rank "
              + plan.rank()
              + " a slice of shape "
              + shape);
    }
    float[] data = local;
    long sent = 0;
    for (RedistributionOp op : plan.ops()) {
      Shape next = op.outputShape(shape);
      switch (op) {
        case RedistributionOp.Reshape r -> {
          if (next.size() != shape.size()) {
            throw MsException.runtimeError(
                "Infer redistribution error, cannot convert shape: "
                    + shape
                    + " to shape: "
                    + next);
          }
        }
        case RedistributionOp.StridedSlice s ->
            data =
                SliceCopy.copyBlock(
                    data, shape.toArray(), LayoutAlgebra.toArray(s.begin()), next.toArray());
        case RedistributionOp.AllConcat c -> {
          sent += (long) FLOAT_BYTES * data.length * (c.ranks().size() - 1);
          data = allConcat(comm, c, data, shape, next);
        }
        case RedistributionOp.AllToAll a -> {
          sent += (long) FLOAT_BYTES * (data.length / a.ranks().size()) * (a.ranks().size() - 1);
          data = allToAll(comm, a, data, shape, next);
        }
      }
      shape = next;
    }
    return new Result(data, shape, sent);
  }

  private static String group(Communicator comm, List<Integer> ranks) {
    String name = groupName(ranks);
    comm.createGroup(name, ranks);
    return name;
  }

  private static float[] allConcat(
      Communicator comm, RedistributionOp.AllConcat c, float[] data, Shape in, Shape out) {
    int n = c.ranks().size();
    float[] gathered = new float[data.length * n];
    comm.allGather(data, gathered, group(comm, c.ranks()));
    if (c.axis() == 0) {
      return gathered; // row-major blocks stacked on dim 0 are already contiguous
    }
    return concat(gathered, n, in.toArray(), c.axis(), out.toArray());
  }

  private static float[] allToAll(
      Communicator comm, RedistributionOp.AllToAll a, float[] data, Shape in, Shape out) {
    int n = a.ranks().size();
    int[] inShape = in.toArray();
    int[] piece = inShape.clone();
    piece[a.splitDim()] /= n;
    int chunk = data.length / n;
    float[] send = new float[data.length];
    int[] begin = new int[piece.length];
    for (int i = 0; i < n; i++) {
      begin[a.splitDim()] = i * piece[a.splitDim()];
      float[] p = SliceCopy.copyBlock(data, inShape, begin, piece);
      System.arraycopy(p, 0, send, i * chunk, chunk);
    }
    float[] recv = new float[data.length];
    comm.allToAll(send, recv, group(comm, a.ranks()));
    return concat(recv, n, piece, a.concatDim(), out.toArray());
  }

  /**
   * Places the {@code n} contiguous blocks of shape {@code part} side by side along {@code axis}.
   */
  private static float[] concat(float[] blocks, int n, int[] part, int axis, int[] outShape) {
    float[] result = new float[blocks.length];
    int size = blocks.length / n;
    int[] begin = new int[part.length];
    for (int g = 0; g < n; g++) {
      begin[axis] = g * part[axis];
      float[] block = new float[size];
      System.arraycopy(blocks, g * size, block, 0, size);
      SliceCopy.pasteBlock(result, outShape, begin, block, part);
    }
    return result;
  }
}
