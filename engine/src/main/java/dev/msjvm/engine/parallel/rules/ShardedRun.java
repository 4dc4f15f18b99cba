package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.comm.CollectiveOps;
import dev.msjvm.engine.comm.Communicator;
import dev.msjvm.engine.comm.InJvmWorld;
import dev.msjvm.engine.comm.NeighborExchange;
import dev.msjvm.engine.exec.Runtime;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.ops.OpDef;
import dev.msjvm.engine.ops.OpTable;
import dev.msjvm.engine.parallel.NodeSharding;
import dev.msjvm.engine.parallel.TensorLayout;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Runs one operator sharded: each rank slices the full inputs by the input layouts, exchanges the
 * halos its rule asks for (a Conv2D split along H or W), runs the op's registered kernel (or the
 * communicating operator its rule substitutes: SyncBatchNorm for a batch-split BatchNorm) on its
 * slices (through {@link Runtime}), sends back the halos of framed outputs, then performs the
 * forward communication of every partial output (AllReduce or ReduceScatter through its {@link
 * Communicator}, ReduceMean's division). The result is each rank's local output, which equals the
 * rank's slice of the unsharded output under the output layout.
 *
 * <p>Example: {@code ShardedRun.run(world, "MatMul", attrs, sharding, List.of(x, w)).get(r)[0]}.
 */
public final class ShardedRun {
  private ShardedRun() {}

  /** Every rank of {@code world}, one thread each; results indexed by rank. */
  public static List<Tensor[]> run(
      InJvmWorld world, String op, Attrs attrs, OpSharding sharding, List<Tensor> fullInputs)
      throws InterruptedException {
    int n = sharding.deviceMatrix().size();
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      List<Future<Tensor[]>> futures = new ArrayList<>();
      for (int r : sharding.deviceMatrix().rankList()) {
        futures.add(
            pool.submit(
                () -> {
                  try {
                    Runtime rt = new Runtime(NaiveBlas::new);
                    List<Tensor> local = new ArrayList<>();
                    for (int i = 0; i < fullInputs.size(); i++) {
                      local.add(slice(fullInputs.get(i), sharding.inputLayouts().get(i), r));
                    }
                    return runRank(world.communicator(r), rt, op, attrs, sharding, local);
                  } catch (RuntimeException | Error e) {
                    world.abort(r, e);
                    throw e;
                  }
                }));
      }
      List<Tensor[]> out = new ArrayList<>();
      for (Future<Tensor[]> f : futures) {
        try {
          out.add(f.get(60, TimeUnit.SECONDS));
        } catch (java.util.concurrent.ExecutionException e) {
          if (e.getCause() instanceof RuntimeException re) {
            throw re;
          }
          throw new IllegalStateException(e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
          throw MsException.runtimeError("sharded " + op + " timed out");
        }
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  /** One rank: runs the kernel on {@code localInputs} and completes the partial outputs. */
  public static Tensor[] runRank(
      Communicator comm,
      Runtime rt,
      String op,
      Attrs attrs,
      OpSharding sharding,
      List<Tensor> localInputs) {
    OpDef def = OpTable.get(op);
    Object[] inputs = new Object[localInputs.size()];
    for (int i = 0; i < inputs.length; i++) {
      Tensor t = localInputs.get(i);
      inputs[i] = def.writes(i) ? new Variable("input" + i, t) : t;
    }
    ShardingRule rule = Rules.of(op);
    Attrs local = rule.localAttrs(attrs, sharding, comm.rank());
    NodeSharding.Lowering lowering = rule.lowering(attrs, sharding, comm.rank());
    for (var e : lowering.inputs().entrySet()) {
      Attrs ex = e.getValue().with("group", comm.worldGroup());
      inputs[e.getKey()] = rt.apply(NeighborExchange.exchange(comm), ex, inputs[e.getKey()])[0];
    }
    NodeSharding.Replacement replacement = lowering.replacement();
    if (replacement != null) {
      String group = groupName(replacement.group());
      comm.createGroup(group, replacement.group());
      def = CollectiveOps.named(replacement.op(), comm);
      local = local.with("group", group);
    }
    Tensor[] out = rt.apply(def, local, inputs);
    for (int o = 0; o < out.length; o++) {
      Attrs ex = lowering.outputs().get(o);
      if (ex != null) {
        out[o] =
            rt.apply(
                    NeighborExchange.exchangeGrad(comm),
                    ex.with("group", comm.worldGroup()),
                    out[o])[0];
      }
      Optional<Partial> p = sharding.partial(o);
      if (p.isPresent()) {
        out[o] = complete(comm, sharding, p.get(), out[o]);
      }
    }
    return out;
  }

  /** The forward communication of one partial output on this rank. */
  public static Tensor complete(Communicator comm, OpSharding sharding, Partial p, Tensor local) {
    List<Integer> group = p.group(sharding.deviceMatrix(), comm.rank());
    String name = groupName(group);
    comm.createGroup(name, group);
    float[] data = floats(local);
    Shape shape = local.shape();
    if (p.reduceScatter()) {
      float[] recv = new float[data.length / group.size()];
      comm.reduceScatter(data, recv, p.op().commOp(), name);
      int[] dims = shape.toArray();
      dims[p.scatterDim()] /= group.size();
      data = recv;
      shape = Shape.of(dims);
    } else {
      comm.allReduce(data, p.op().commOp(), name);
    }
    if (p.op().dividesByGroupSize()) {
      for (int i = 0; i < data.length; i++) {
        data[i] /= group.size();
      }
    }
    Tensor t = Tensor.ofFloats(shape, data);
    return local.dtype() == DType.FLOAT32 ? t : t.astype(local.dtype());
  }

  /** The name this runner gives the group of {@code ranks}. */
  private static String groupName(List<Integer> ranks) {
    return ranks.stream().map(String::valueOf).collect(Collectors.joining("_", "op_", ""));
  }

  private static float[] floats(Tensor t) {
    if (t.dtype() == DType.FLOAT32) {
      return t.floats().clone();
    }
    float[] f = new float[t.size()];
    for (int i = 0; i < f.length; i++) {
      f[i] = (float) t.getDouble(i);
    }
    return f;
  }

  /** {@code rank}'s slice of {@code full} under {@code layout}, any dtype. */
  public static Tensor slice(Tensor full, TensorLayout layout, int rank) {
    Shape local = layout.sliceShape();
    if (full.dtype() == DType.FLOAT32) {
      return Tensor.ofFloats(local, layout.sliceOf(full.floats(), rank));
    }
    List<TensorLayout.SliceRange> ranges = layout.sliceRanges(rank);
    int[] fullDims = full.shape().toArray();
    int[] dims = local.toArray();
    return full.take(
        local,
        i -> {
          int flat = 0;
          int rest = i;
          int[] idx = new int[dims.length];
          for (int d = dims.length - 1; d >= 0; d--) {
            idx[d] = rest % dims[d];
            rest /= dims[d];
          }
          for (int d = 0; d < dims.length; d++) {
            flat = flat * fullDims[d] + ranges.get(d).begin() + idx[d];
          }
          return flat;
        });
  }
}
