package dev.msjvm.engine.comm;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.ops.Infer;
import dev.msjvm.engine.ops.OpDef;
import dev.msjvm.engine.tensor.FloatPool;
import dev.msjvm.engine.tensor.Joining;
import dev.msjvm.engine.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;

/**
 * Collective primitives a script calls itself ({@code ops.AllReduce(op, group)(x)}), as operators
 * bound to one rank's {@link Communicator}: they run eagerly and record into traces like any
 * operator, so a replayed graph communicates again on every replay.
 *
 * <p>They are made per communicator (not registered in the static op table, which holds no per-rank
 * state) and are stateful: a traced graph keeps them even if nothing reads their outputs, and never
 * merges two of them, so every rank issues the same sequence of collectives. Values are reduced in
 * float32 (exact for integers up to 2^24 in magnitude). Their gradients are MindSpore's bprops
 * ({@code grad_comm_ops.py}), collectives on the same communicator: AllReduce's is a SUM AllReduce
 * of the output gradient (times {@code x == out} for MAX/MIN, {@code (dout * out)} reduced over
 * {@code x} for PROD), AllGather's a SUM ReduceScatter, ReduceScatter's an AllGather, AlltoAll's
 * the AlltoAll with split and concat dimensions swapped, Broadcast's the output gradient itself.
 * Attributes: {@code op} (MindSpore's {@code "sum"}, {@code "max"}, {@code "min"}, {@code "prod"})
 * and {@code group}. Example: {@code runtime.apply(CollectiveOps.allReduce(comm), Attrs.of("op",
 * "sum", "group", "hccl_world_group"), x)}.
 */
public final class CollectiveOps {

  private CollectiveOps() {}

  /**
   * The communicating operator {@code name} bound to {@code comm}: the collectives a script calls
   * ({@code "AllReduce"}, {@code "AllGather"}, {@code "ReduceScatter"}, {@code "AlltoAll"}, {@code
   * "Send"}, {@code "Receive"}, {@code "Broadcast"}, {@code "NeighborExchange"}) and those the
   * partitioner substitutes ({@code "NeighborExchangeV2"} and its gradient, {@code "SyncBatchNorm"}
   * and its gradient, {@code "SyncRmsNorm"}).
   */
  public static OpDef named(String name, Communicator comm) {
    return switch (name) {
      case "AllReduce" -> allReduce(comm);
      case "AllGather" -> allGather(comm);
      case "ReduceScatter" -> reduceScatter(comm);
      case "AlltoAll" -> allToAll(comm);
      case "Send" -> send(comm);
      case "Receive" -> receive(comm);
      case "Broadcast" -> broadcast(comm);
      case "NeighborExchange" -> neighborExchange(comm);
      case "NeighborExchangeV2" -> NeighborExchange.exchange(comm);
      case "NeighborExchangeV2Grad" -> NeighborExchange.exchangeGrad(comm);
      case "SyncBatchNorm" -> SyncBatchNorm.forward(comm);
      case "SyncBatchNormGrad" -> SyncBatchNorm.backward(comm);
      case "SyncRmsNorm" -> SyncRmsNorm.forward(comm);
      default -> throw MsException.valueError("Unknown collective operator " + name + ".");
    };
  }

  /** MindSpore's {@code AllReduce}: the element-wise reduction of the input over the group. */
  public static OpDef allReduce(Communicator comm) {
    return new OpDef(
            "AllReduce",
            c -> {
              ReduceOp op = reduceOp(c.attrs().string("op"));
              Tensor x = c.in(0);
              requireNumeric(x.dtype());
              Tensor f = floats(x);
              // Out of place: every rank folds its share of the group's inputs straight into the
              // group's outputs (pooled: in a replayed step, storage the previous step used).
              float[] out = FloatPool.uninitialized(f.size());
              comm.allReduce(f.floats(), 0, out, 0, f.size(), op, c.attrs().string("group"));
              Tensor buf = Tensor.ofFloats(x.shape(), out);
              return new Tensor[] {as(buf, x.dtype())};
            },
            g -> {
              Attrs sum = Attrs.of("op", "sum", "group", g.attrs().string("group"));
              OpDef reduce = allReduce(comm);
              String op = g.attrs().string("op");
              Tensor dx;
              if (op.equals("prod")) {
                Tensor dy = g.apply(reduce, sum, g.op("Mul", Attrs.EMPTY, g.dout(0), g.out(0)))[0];
                dx = g.op("Div", Attrs.EMPTY, dy, g.in(0));
              } else {
                dx = g.apply(reduce, sum, g.dout(0))[0];
                if (!op.equals("sum")) {
                  Tensor hit =
                      g.op(
                          "Cast",
                          Attrs.of("dtype", dx.dtype().name()),
                          g.op("Equal", Attrs.EMPTY, g.in(0), g.out(0)));
                  dx = g.op("Mul", Attrs.EMPTY, dx, hit);
                }
              }
              return new Tensor[] {dx};
            },
            true,
            List.of())
        .infers(
            Infer.one(
                (a, in) -> {
                  requireNumeric(in.get(0).dtype());
                  return in.get(0);
                }));
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
              Tensor send = floats(x);
              float[] recv = new float[send.floats().length * n];
              comm.allGather(send.floats(), recv, group);
              Tensor out = Tensor.ofFloats(allGatherShape(x.shape(), n), recv);
              return new Tensor[] {as(out, x.dtype())};
            },
            g ->
                g.apply(
                    reduceScatter(comm),
                    Attrs.of("op", "sum", "group", g.attrs().string("group")),
                    g.dout(0)),
            true,
            List.of())
        .infers(groupShaped(comm, CollectiveOps::allGatherShape));
  }

  /**
   * MindSpore's {@code ReduceScatter}: the element-wise reduction of the input over the group, of
   * which group rank r keeps block r of dimension 0 (dimension 0 must be divisible by the group
   * size).
   */
  public static OpDef reduceScatter(Communicator comm) {
    return new OpDef(
            "ReduceScatter",
            c -> {
              ReduceOp op = reduceOp(c.attrs().string("op"));
              Tensor x = c.in(0);
              String group = c.attrs().string("group");
              int n = comm.groupSize(group);
              Shape shape = reduceScatterShape(x.shape(), n);
              Tensor f = floats(x);
              float[] recv = new float[f.size() / n];
              comm.reduceScatter(f.floats(), recv, op, group);
              Tensor out = Tensor.ofFloats(shape, recv);
              return new Tensor[] {as(out, x.dtype())};
            },
            g -> {
              if (!g.attrs().string("op").equals("sum")) {
                throw MsException.runtimeError(
                    "The reducescatter bprop only support ReduceOp.SUM until now.");
              }
              return g.apply(
                  allGather(comm), Attrs.of("group", g.attrs().string("group")), g.dout(0));
            },
            true,
            List.of())
        .infers(groupShaped(comm, CollectiveOps::reduceScatterShape));
  }

  /**
   * MindSpore's {@code AlltoAll(split_count, split_dim, concat_dim)}: the input is cut into {@code
   * split_count} (= the group size) equal blocks along {@code split_dim}; group rank r receives
   * block r of every rank and joins them, in group-rank order, along {@code concat_dim}.
   */
  public static OpDef allToAll(Communicator comm) {
    return new OpDef(
            "AlltoAll",
            c -> {
              Tensor x = c.in(0);
              String group = c.attrs().string("group");
              int n = comm.groupSize(group);
              int[] dims = allToAllDims(c.attrs(), x.shape(), n);
              int split = dims[0];
              int concat = dims[1];
              Tensor f = floats(x);
              List<Tensor> blocks = Joining.split(f, split, n);
              int chunk = f.size() / n;
              float[] send = new float[f.size()];
              for (int r = 0; r < n; r++) {
                System.arraycopy(blocks.get(r).floats(), 0, send, r * chunk, chunk);
              }
              float[] recv = new float[send.length];
              comm.allToAll(send, recv, group);
              List<Tensor> parts = new ArrayList<>(n);
              for (int r = 0; r < n; r++) {
                float[] part = new float[chunk];
                System.arraycopy(recv, r * chunk, part, 0, chunk);
                parts.add(Tensor.ofFloats(blocks.get(r).shape(), part));
              }
              Tensor out = Joining.concat(parts, concat);
              return new Tensor[] {as(out, x.dtype())};
            },
            g ->
                g.apply(
                    allToAll(comm),
                    Attrs.of(
                        "split_count", g.attrs().integer("split_count"),
                        "split_dim", g.attrs().integer("concat_dim"),
                        "concat_dim", g.attrs().integer("split_dim"),
                        "group", g.attrs().string("group")),
                    g.dout(0)),
            true,
            List.of())
        .infers(
            Infer.one(
                (a, in) -> {
                  Shape x = in.get(0).shape();
                  int n = comm.groupSize(a.string("group"));
                  int[] dims = allToAllDims(a, x, n);
                  int[] out = x.toArray();
                  out[dims[0]] /= n;
                  out[dims[1]] *= n;
                  return in.get(0).withShape(Shape.of(out));
                }));
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
              comm.broadcast(
                  buf.floats(), c.attrs().integer("root_rank"), c.attrs().string("group"));
              return new Tensor[] {as(buf, x.dtype())};
            },
            g -> new Tensor[] {g.dout(0)},
            true,
            List.of())
        .infers(Infer.like(0));
  }

  /**
   * MindSpore's {@code Send(sr_tag, dest_rank)}: the input goes to group rank {@code dest_rank}
   * (buffered: it returns at once); the output is the input, which a graph keeps the call by.
   */
  public static OpDef send(Communicator comm) {
    return new OpDef(
            "Send",
            c -> {
              Tensor x = c.in(0);
              Tensor f = floats(x);
              comm.send(
                  f.floats(),
                  c.attrs().integer("dest_rank"),
                  c.attrs().integer("sr_tag"),
                  c.attrs().string("group"));
              return new Tensor[] {x};
            },
            null,
            true,
            List.of())
        .infers(Infer.like(0));
  }

  /**
   * MindSpore's {@code Receive(sr_tag, src_rank, shape, dtype)}: waits for the tensor group rank
   * {@code src_rank} sent with {@code sr_tag}; its inputs (if any) only order the call.
   */
  public static OpDef receive(Communicator comm) {
    return new OpDef(
            "Receive",
            c -> {
              Shape shape = new Shape(c.attrs().ints("shape"));
              DType dtype = DType.valueOf(c.attrs().string("dtype"));
              float[] buf = new float[Math.toIntExact(shape.size())];
              comm.recv(
                  buf,
                  c.attrs().integer("src_rank"),
                  c.attrs().integer("sr_tag"),
                  c.attrs().string("group"));
              Tensor out = Tensor.ofFloats(shape, buf);
              return new Tensor[] {as(out, dtype)};
            },
            null,
            true,
            List.of())
        .infers(
            Infer.one(
                (a, in) ->
                    new AbstractTensor(
                        new Shape(a.ints("shape")), DType.valueOf(a.string("dtype")))));
  }

  /** The tag of NeighborExchange's messages: apart from the tags a script gives Send/Receive. */
  private static final int EXCHANGE_TAG = -2;

  /**
   * MindSpore's {@code NeighborExchange(send_rank_ids, recv_rank_ids, recv_shapes, send_shapes,
   * recv_type, group)}: input i goes to group rank {@code send_rank_ids[i]}, output j is what group
   * rank {@code recv_rank_ids[j]} sends this rank, shaped {@code recv_shapes[j]} (a list of int
   * lists) and typed {@code recv_type} (the engine's type name). A rank may send to itself; one
   * call carries one message per ordered pair of ranks. Sends are buffered, so every rank posts its
   * sends before it waits for its receives. The gradient is the exchange back (MindSpore's bprop):
   * each output's gradient returns to the rank it came from and becomes the gradient of the input
   * that rank sent here.
   */
  public static OpDef neighborExchange(Communicator comm) {
    return new OpDef(
            "NeighborExchange",
            c -> {
              Attrs a = c.attrs();
              String group = a.string("group");
              int[] dst = a.intArray("send_rank_ids");
              for (int i = 0; i < dst.length; i++) {
                comm.send(floats(c.in(i)).floats(), dst[i], EXCHANGE_TAG, group);
              }
              int[] src = a.intArray("recv_rank_ids");
              List<AbstractTensor> types = exchangeOutputs(a);
              Tensor[] out = new Tensor[src.length];
              for (int j = 0; j < src.length; j++) {
                AbstractTensor t = types.get(j);
                float[] buf = new float[Math.toIntExact(t.shape().size())];
                comm.recv(buf, src[j], EXCHANGE_TAG, group);
                out[j] = as(Tensor.ofFloats(t.shape(), buf), t.dtype());
              }
              return out;
            },
            g -> {
              Attrs a = g.attrs();
              List<List<Integer>> shapes = new ArrayList<>();
              for (int i = 0; i < g.arity(); i++) {
                shapes.add(java.util.Arrays.stream(g.in(i).shape().toArray()).boxed().toList());
              }
              Object[] douts = new Object[a.intArray("recv_rank_ids").length];
              for (int j = 0; j < douts.length; j++) {
                douts[j] = g.dout(j);
              }
              Attrs back =
                  Attrs.of(
                      "send_rank_ids", a.get("recv_rank_ids"),
                      "recv_rank_ids", a.get("send_rank_ids"),
                      "recv_shapes", shapes,
                      "recv_type", a.string("recv_type"),
                      "group", a.string("group"));
              Tensor[] dx = g.apply(neighborExchange(comm), back, douts);
              for (int i = 0; i < dx.length; i++) {
                DType want = g.in(i).dtype();
                if (dx[i].dtype() != want) {
                  dx[i] = g.op("Cast", Attrs.of("dtype", want.name()), dx[i]);
                }
              }
              return dx;
            },
            true,
            List.of())
        .infers((a, in) -> exchangeOutputs(a));
  }

  /** NeighborExchange's outputs: {@code recv_shapes} typed {@code recv_type}. */
  private static List<AbstractTensor> exchangeOutputs(Attrs a) {
    DType type = DType.valueOf(a.string("recv_type"));
    List<AbstractTensor> out = new ArrayList<>();
    for (Object dims : (List<?>) a.get("recv_shapes")) {
      int[] shape = ((List<?>) dims).stream().mapToInt(d -> ((Number) d).intValue()).toArray();
      out.add(new AbstractTensor(Shape.of(shape), type));
    }
    return out;
  }

  /**
   * One output of the input's dtype, shaped by {@code shape} from the input's and the group size.
   */
  private static Infer groupShaped(
      Communicator comm, java.util.function.BiFunction<Shape, Integer, Shape> shape) {
    return Infer.one(
        (a, in) ->
            in.get(0).withShape(shape.apply(in.get(0).shape(), comm.groupSize(a.string("group")))));
  }

  /** AllReduce's refusal of a boolean input. */
  private static void requireNumeric(DType dtype) {
    if (dtype == DType.BOOL) {
      throw MsException.typeError(
          "For 'AllReduce', the input must be a numeric tensor, but got Bool.");
    }
  }

  /** AllGather's output shape: dimension 0 times the group size. */
  private static Shape allGatherShape(Shape x, int n) {
    int[] dims = x.toArray();
    dims[0] *= n;
    return Shape.of(dims);
  }

  /** ReduceScatter's output shape (dimension 0 over the group size), with MindSpore's checks. */
  private static Shape reduceScatterShape(Shape x, int n) {
    if (x.rank() == 0) {
      throw MsException.valueError("the shape is empty");
    }
    int rows = x.dim(0);
    if (rows % n != 0) {
      throw MsException.valueError(
          "the first dimension for 'input_shape' must be divided by 'rank_size', but got"
              + " input_shape[0]: "
              + rows
              + ", rank_size: "
              + n);
    }
    int[] dims = x.toArray();
    dims[0] /= n;
    return Shape.of(dims);
  }

  /**
   * AlltoAll's {split dim, concat dim}, non-negative, with MindSpore's checks of {@code
   * split_count}, the dims and the split dim's divisibility.
   */
  private static int[] allToAllDims(Attrs attrs, Shape x, int n) {
    int count = attrs.integer("split_count");
    int rank = x.rank();
    int splitDim = attrs.integer("split_dim");
    int concatDim = attrs.integer("concat_dim");
    if (count != n) {
      // MindSpore's message names split_dim's value as 'split_count' (all_to_all.cc).
      throw MsException.valueError(
          "For 'AlltoAll, the 'split_count' must be equal to 'rank_size', but got"
              + " 'split_count': "
              + splitDim
              + ", 'rank_size': "
              + n);
    }
    if (concatDim >= rank || concatDim < -rank) {
      throw MsException.indexError(
          "Invalid concat dim " + concatDim + " is greater than shape size " + rank);
    }
    if (splitDim >= rank || splitDim < -rank) {
      throw MsException.indexError(
          "Invalid split dim " + splitDim + " is greater than shape size " + rank);
    }
    int split = splitDim < 0 ? splitDim + rank : splitDim;
    int concat = concatDim < 0 ? concatDim + rank : concatDim;
    if (x.dim(split) % count != 0) {
      throw MsException.valueError(
          "For 'AlltoAll, the 'x_shape[split_dim]' must be divisible by 'split_count', but"
              + " got 'x_shape[split_dim]' {x_shape["
              + split
              + "]}, 'split_count' "
              + count
              + ".");
    }
    return new int[] {split, concat};
  }

  /** {@code x} in float32, the type the communicator moves (itself when it is float32 already). */
  private static Tensor floats(Tensor x) {
    return x.dtype() == DType.FLOAT32 ? x : x.astype(DType.FLOAT32);
  }

  /** A float32 result {@code out} back in the caller's {@code dtype}. */
  private static Tensor as(Tensor out, DType dtype) {
    return dtype == DType.FLOAT32 ? out : out.astype(dtype);
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
