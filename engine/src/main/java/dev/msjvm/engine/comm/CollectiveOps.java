package dev.msjvm.engine.comm;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.OpDef;
import dev.msjvm.engine.tensor.FloatPool;
import dev.msjvm.engine.tensor.Tensor;
import java.util.List;

/**
 * Collective primitives a script calls itself ({@code ops.AllReduce(op, group)(x)}), as operators
 * bound to one rank's {@link Communicator}: they run eagerly and record into traces like any
 * operator, so a replayed graph communicates again on every replay.
 *
 * <p>They are made per communicator (not registered in the static op table, which holds no per-rank
 * state) and are stateful: a traced graph keeps them even if nothing reads their outputs, and never
 * merges two of them, so every rank issues the same sequence of collectives. Values are reduced in
 * float32 (exact for integers up to 2^24 in magnitude); differentiating through them is an error
 * naming the operator. Attributes: {@code op} (MindSpore's {@code "sum"}, {@code "max"}, {@code
 * "min"}, {@code "prod"}) and {@code group}. Example: {@code
 * runtime.apply(CollectiveOps.allReduce(comm), Attrs.of("op", "sum", "group", "hccl_world_group"),
 * x)}.
 */
public final class CollectiveOps {

  private CollectiveOps() {}

  /** MindSpore's {@code AllReduce}: the element-wise reduction of the input over the group. */
  public static OpDef allReduce(Communicator comm) {
    return new OpDef(
        "AllReduce",
        c -> {
          ReduceOp op = reduceOp(c.attrs().string("op"));
          Tensor x = c.in(0);
          if (x.dtype() == DType.BOOL) {
            throw MsException.typeError(
                "For 'AllReduce', the input must be a numeric tensor, but got Bool.");
          }
          Tensor f = x.dtype() == DType.FLOAT32 ? x : x.astype(DType.FLOAT32);
          // Out of place: every rank folds its share of the group's inputs straight into the
          // group's outputs (pooled: in a replayed step, storage the previous step used).
          float[] out = FloatPool.uninitialized(f.size());
          comm.allReduce(f.floats(), 0, out, 0, f.size(), op, c.attrs().string("group"));
          Tensor buf = Tensor.ofFloats(x.shape(), out);
          return new Tensor[] {x.dtype() == DType.FLOAT32 ? buf : buf.astype(x.dtype())};
        },
        null,
        true,
        List.of());
  }

  /**
   * MindSpore's {@code AllGather}: the inputs of the group's ranks concatenated along dimension 0,
   * in group-rank order (every rank's input must have the same shape).
   */
  public static OpDef allGather(Communicator comm) {
    return new OpDef(
        "AllGather",
        c -> {
          Tensor x = c.in(0);
          String group = c.attrs().string("group");
          int n = comm.groupSize(group);
          Tensor send = x.dtype() == DType.FLOAT32 ? x : x.astype(DType.FLOAT32);
          float[] recv = new float[send.floats().length * n];
          comm.allGather(send.floats(), recv, group);
          int[] dims = x.shape().toArray();
          dims[0] *= n;
          Tensor out = Tensor.ofFloats(Shape.of(dims), recv);
          return new Tensor[] {x.dtype() == DType.FLOAT32 ? out : out.astype(x.dtype())};
        },
        null,
        true,
        List.of());
  }

  /**
   * MindSpore's {@code Broadcast}: every rank of the group receives the group rank {@code root}'s
   * input.
   */
  public static OpDef broadcast(Communicator comm) {
    return new OpDef(
        "Broadcast",
        c -> {
          Tensor x = c.in(0);
          Tensor buf = x.dtype() == DType.FLOAT32 ? x.copy() : x.astype(DType.FLOAT32);
          comm.broadcast(buf.floats(), c.attrs().integer("root_rank"), c.attrs().string("group"));
          return new Tensor[] {x.dtype() == DType.FLOAT32 ? buf : buf.astype(x.dtype())};
        },
        null,
        true,
        List.of());
  }

  /** The reduction named in MindSpore's spelling. */
  static ReduceOp reduceOp(String name) {
    for (ReduceOp op : ReduceOp.values()) {
      if (op.mindsporeName().equals(name)) {
        return op;
      }
    }
    throw MsException.valueError(
        "For 'AllReduce', the 'op' must be one of 'sum', 'max', 'min', 'prod', but got '"
            + name
            + "'.");
  }
}
