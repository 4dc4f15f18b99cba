package dev.msjvm.engine.exec;

import dev.msjvm.engine.comm.Communicator;
import dev.msjvm.engine.exec.Graph.Node;
import dev.msjvm.engine.exec.Graph.Out;
import dev.msjvm.engine.exec.Graph.Ref;
import dev.msjvm.engine.exec.Graph.Var;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.ops.OpDef;
import dev.msjvm.engine.parallel.RedistributionExecutor;
import dev.msjvm.engine.parallel.TensorLayout;
import dev.msjvm.engine.parallel.rules.OptimizerRules;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * MindSpore's optimizer parallel ({@code enable_parallel_optimizer}, {@code AutoParallel.hsdp};
 * reference §5.2), ZeRO on a rank's partitioned step: a parameter whose slice is repeated on {@code
 * r} ranks (its data-parallel replicas) is stored as {@code 1/k} of that slice along dimension 0
 * ({@code k = r}, or {@code optimizer_weight_shard_size} when it divides {@code r}), and so are the
 * optimizer states updated with it (momentum accumulators, Adam moments). Every read of the
 * parameter first gathers the slice back (AllGather over the {@code k} ranks holding its pieces;
 * level 3 gathers again for the backward pass); the update runs on the piece with the matching rows
 * of its gradient, whose AllReduce over the same ranks becomes a ReduceScatter. The numerics are
 * those of the unsharded step; per-rank parameter and state memory shrinks {@code k} times.
 *
 * <p>Skipped, as in MindSpore ({@code TensorLayout::GenerateOptShardSliceShape}): parameters with
 * {@code parallel_optimizer=False}, below the threshold (bytes of the slice), without replicas (a
 * fully sharded slice), with {@code r} not divisible by the shard size, or whose first slice
 * dimension does not divide by {@code k} ("could not be shard on the first dimension").
 */
public final class OptimizerShard {

  /**
   * {@code thresholdBytes}: MindSpore's {@code parallel_optimizer_threshold} in bytes; {@code
   * shardSize}: {@code optimizer_weight_shard_size} (-1: all replicas); {@code zero3}: level 3.
   */
  public record Config(long thresholdBytes, int shardSize, boolean zero3) {}

  /**
   * How a variable is stored: piece {@code index} of {@code parts} along dimension 0 of its slice
   * {@code sliceShape}, the pieces held by the (stage-local) ranks {@code group} in order.
   */
  public record Piece(List<Integer> group, int index, int parts, Shape sliceShape) {
    /** The piece's rows of {@code slice}. */
    public Tensor of(Tensor slice) {
      return rows(slice, index, parts);
    }

    /** The slice, gathered from every member's {@code piece} (a collective over the group). */
    public Tensor gather(Communicator comm, Tensor piece) {
      String name = RedistributionExecutor.groupName(group);
      comm.createGroup(name, group);
      Tensor f = piece.dtype() == DType.FLOAT32 ? piece : piece.astype(DType.FLOAT32);
      float[] recv = new float[f.size() * parts];
      comm.allGather(f.floats(), recv, name);
      Tensor t = Tensor.ofFloats(sliceShape, recv);
      return piece.dtype() == DType.FLOAT32 ? t : t.astype(piece.dtype());
    }
  }

  /** The rewritten program (its nodes' origins kept), the report and the pieces. */
  public record Result(SpmdPartitioner.Result program, Map<Variable, Piece> pieces) {}

  private OptimizerShard() {}

  /**
   * Shards the parameters named in {@code eligible} (trainable, {@code parallel_optimizer} True) of
   * {@code part}, a step partitioned over {@code comm}'s world; {@code forwardNodes}: the global
   * graph's forward node count (the level-3 re-gather point); {@code runs}: whether this rank runs
   * a node of {@code part}. With pipeline stages every stage shards every parameter alike (their
   * programs must stay node for node the same for the Send/Recv pairing), but the report and its
   * byte totals name only the variables this rank's stage updates.
   */
  public static Result apply(
      SpmdPartitioner.Result part,
      Set<String> eligible,
      Config config,
      Communicator comm,
      int forwardNodes,
      java.util.function.IntPredicate runs) {
    List<Node> nodes = part.graph().nodes();
    int rank = comm.rank();
    List<String> plan = new ArrayList<>(part.plan());
    Map<Variable, Piece> pieces = new LinkedHashMap<>();
    Map<Variable, Variable> stateOf = new IdentityHashMap<>();
    Map<Variable, List<Integer>> writers = new IdentityHashMap<>();
    // Weights are read by the forward pass; optimizer states (also trainable parameters in
    // MindSpore's sense when cloned from the weights) only by the update.
    Set<Variable> weights = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    Set<Variable> own = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    for (int k = 0; k < nodes.size(); k++) {
      Node node = nodes.get(k);
      for (int i = 0; i < node.inputs().length; i++) {
        if (node.inputs()[i] instanceof Var v) {
          if (node.op().writes(i)) {
            writers.computeIfAbsent(v.variable(), x -> new ArrayList<>()).add(k);
            if (runs.test(k)) {
              own.add(v.variable());
            }
          } else if (part.origins()[k] < forwardNodes) {
            weights.add(v.variable());
          }
        }
      }
    }
    long before = 0;
    long after = 0;
    for (Map.Entry<Variable, TensorLayout> e : part.variableLayouts().entrySet()) {
      Variable v = e.getKey();
      if (!eligible.contains(v.name()) || !writers.containsKey(v) || !weights.contains(v)) {
        continue;
      }
      Tensor slice = v.current();
      long bytes = (long) slice.size() * slice.dtype().itemSize();
      List<Integer> replicas = e.getValue().repeatedGroup(rank);
      int r = replicas.size();
      int k = config.shardSize() > 0 && config.shardSize() <= r ? config.shardSize() : r;
      String why = null;
      if (bytes < config.thresholdBytes()) {
        why = bytes + " bytes, below the threshold of " + config.thresholdBytes();
      } else if (r == 1) {
        why = "its slice is not repeated on other ranks";
      } else if (r % k != 0) {
        why = "the shard size " + k + " does not divide its " + r + " replicas";
      } else if (slice.shape().rank() == 0 || slice.shape().dim(0) % k != 0) {
        why = "could not be shard on the first dimension " + slice.shape() + " by " + k;
      } else if (writers.get(v).stream()
          .anyMatch(w -> OptimizerRules.needsWholeParameter(nodes.get(w).op().name()))) {
        why = "its update (Lamb's trust ratio) needs the whole parameter";
      }
      if (why != null) {
        if (own.contains(v)) {
          plan.add("optimizer parallel: '" + v.name() + "' not sharded: " + why);
        }
        continue;
      }
      int at = replicas.indexOf(rank);
      List<Integer> group = List.copyOf(replicas.subList(at / k * k, at / k * k + k));
      Piece piece = new Piece(group, at % k, k, slice.shape());
      pieces.put(v, piece);
      for (int w : writers.get(v)) {
        Node node = nodes.get(w);
        for (int i = 0; i < node.inputs().length; i++) {
          if (node.inputs()[i] instanceof Var s
              && s.variable() != v
              && node.op().writes(i)
              && s.variable().current().shape().equals(slice.shape())
              && !weights.contains(s.variable())) {
            stateOf.put(s.variable(), v);
          }
        }
      }
    }
    for (Map.Entry<Variable, Variable> e : stateOf.entrySet()) {
      pieces.putIfAbsent(e.getKey(), pieces.get(e.getValue()));
    }
    if (pieces.isEmpty()) {
      return new Result(part, pieces);
    }
    Rewriter rw = new Rewriter(part, pieces, stateOf, config.zero3(), comm, forwardNodes);
    SpmdPartitioner.Result rewritten = rw.run(plan);
    int reported = 0;
    for (Map.Entry<Variable, Piece> e : pieces.entrySet()) {
      Variable v = e.getKey();
      Tensor slice = v.current();
      v.set(e.getValue().of(slice));
      if (!own.contains(stateOf.getOrDefault(v, v))) {
        continue;
      }
      reported++;
      before += (long) slice.size() * slice.dtype().itemSize();
      after += (long) v.current().size() * slice.dtype().itemSize();
      plan.add(
          "optimizer parallel: '"
              + v.name()
              + "'"
              + (stateOf.containsKey(v) ? " (state of '" + stateOf.get(v).name() + "')" : "")
              + " slice "
              + slice.shape()
              + " stored as piece "
              + e.getValue().index()
              + " of "
              + e.getValue().parts()
              + " over ranks "
              + e.getValue().group()
              + ": "
              + (long) slice.size() * slice.dtype().itemSize()
              + " -> "
              + (long) v.current().size() * slice.dtype().itemSize()
              + " bytes");
    }
    plan.add(
        "optimizer parallel: "
            + reported
            + " variables of this rank sharded, "
            + before
            + " -> "
            + after
            + " bytes on this rank, "
            + rw.gathers
            + " AllGather, "
            + rw.scatters
            + " AllReduce -> ReduceScatter, "
            + rw.takes
            + " gradient slices taken locally");
    return new Result(
        new SpmdPartitioner.Result(
            rewritten.graph(),
            part.variableLayouts(),
            List.copyOf(plan),
            part.strategies(),
            rewritten.origins()),
        pieces);
  }

  /** Rows {@code [index·d/parts, (index+1)·d/parts)} of dimension 0 of {@code t}. */
  static Tensor rows(Tensor t, int index, int parts) {
    if (t.isAbstract()) {
      // A dry run's variable: its piece's type alone.
      int[] dims = t.shape().toArray();
      dims[0] /= parts;
      return Tensor.abstractOf(new dev.msjvm.engine.ir.AbstractTensor(Shape.of(dims), t.dtype()));
    }
    Tensor f = t.dtype() == DType.FLOAT32 ? t : t.astype(DType.FLOAT32);
    int[] dims = t.shape().toArray();
    int per = f.size() / parts;
    float[] out = new float[per];
    System.arraycopy(f.floats(), index * per, out, 0, per);
    dims[0] /= parts;
    Tensor s = Tensor.ofFloats(Shape.of(dims), out);
    return t.dtype() == DType.FLOAT32 ? s : s.astype(t.dtype());
  }

  /** Rebuilds the node list with gathers before reads and row slices before updates. */
  private static final class Rewriter {
    private final List<Node> nodes;
    private final int[] origins;
    private final Ref[] outputs;
    private final int arity;
    private final Map<Variable, Piece> pieces;
    private final Map<Variable, Variable> stateOf;
    private final boolean zero3;
    private final Communicator comm;
    private final int forwardNodes;
    private final List<Node> out = new ArrayList<>();
    private final List<Integer> outOrigins = new ArrayList<>();

    /** Where each original node's value is now (its emitted node or its gather). */
    private final int[] moved;

    /** For each emitted node, the original node it is (-1 for a node the rewrite added). */
    private final List<Integer> sources = new ArrayList<>();

    private final Map<Variable, Ref> gathered = new IdentityHashMap<>();
    private final Map<Variable, Boolean> gatheredInBackward = new IdentityHashMap<>();
    private final int[] consumers;
    private final Map<Integer, Integer> sliced = new HashMap<>();
    int gathers;
    int scatters;
    int takes;

    Rewriter(
        SpmdPartitioner.Result part,
        Map<Variable, Piece> pieces,
        Map<Variable, Variable> stateOf,
        boolean zero3,
        Communicator comm,
        int forwardNodes) {
      this.nodes = part.graph().nodes();
      this.origins = part.origins();
      this.outputs = part.graph().outputRefs();
      this.arity = part.graph().arity();
      this.pieces = pieces;
      this.stateOf = stateOf;
      this.zero3 = zero3;
      this.comm = comm;
      this.forwardNodes = forwardNodes;
      this.moved = new int[nodes.size()];
      this.consumers = new int[nodes.size()];
      for (Node n : nodes) {
        for (Ref r : n.inputs()) {
          if (r instanceof Out o) {
            consumers[o.node()]++;
          }
        }
      }
      for (Ref r : outputs) {
        if (r instanceof Out o) {
          consumers[o.node()]++;
        }
      }
    }

    private Ref map(Ref r) {
      return r instanceof Out o ? new Out(moved[o.node()], o.index()) : r;
    }

    private int emit(Node node, int origin) {
      return emit(node, origin, -1);
    }

    private int emit(Node node, int origin, int source) {
      out.add(node);
      outOrigins.add(origin);
      sources.add(source);
      return out.size() - 1;
    }

    SpmdPartitioner.Result run(List<String> plan) {
      for (int k = 0; k < nodes.size(); k++) {
        Node node = nodes.get(k);
        int origin = origins[k];
        boolean backward = origin >= forwardNodes;
        Ref[] in = new Ref[node.inputs().length];
        Shape[] inShapes = node.inShapes().clone();
        Variable updated = null;
        for (int i = 0; i < in.length; i++) {
          if (node.inputs()[i] instanceof Var v
              && pieces.containsKey(v.variable())
              && node.op().writes(i)) {
            updated = stateOf.getOrDefault(v.variable(), v.variable());
          }
        }
        boolean loadOfSharded =
            node.op().name().equals("Load")
                && node.inputs().length == 1
                && node.inputs()[0] instanceof Var lv
                && pieces.containsKey(lv.variable());
        if (loadOfSharded) {
          // The Load itself becomes the gather: later reads of this value are unchanged.
          Variable v = ((Var) node.inputs()[0]).variable();
          moved[k] = gather(v, origin, backward);
          continue;
        }
        for (int i = 0; i < in.length; i++) {
          Ref r = node.inputs()[i];
          if (r instanceof Var v && pieces.containsKey(v.variable()) && !node.op().writes(i)) {
            in[i] = new Out(gather(v.variable(), origin, backward), 0);
          } else if (updated != null
              && !(r instanceof Var)
              && node.inShapes()[i].equals(pieces.get(updated).sliceShape())) {
            in[i] = piece(map(r), pieces.get(updated), origin);
            inShapes[i] = rowsShape(pieces.get(updated));
          } else {
            in[i] = map(r);
          }
          if (r instanceof Var v && pieces.containsKey(v.variable()) && node.op().writes(i)) {
            inShapes[i] = rowsShape(pieces.get(v.variable()));
          }
        }
        Shape[] outShapes = node.outShapes().clone();
        if (updated != null) {
          for (int j = 0; j < outShapes.length; j++) {
            if (outShapes[j].equals(pieces.get(updated).sliceShape())) {
              outShapes[j] = rowsShape(pieces.get(updated));
            }
          }
          gathered.remove(updated);
        }
        moved[k] =
            emit(
                new Node(node.op(), node.attrs(), in, node.outputs(), inShapes, outShapes),
                origin,
                k);
      }
      Ref[] outs = new Ref[outputs.length];
      for (int i = 0; i < outs.length; i++) {
        outs[i] = map(outputs[i]);
      }
      Graph g = Graph.sequence(out, outs, arity, 0);
      return new SpmdPartitioner.Result(
          g, Map.of(), plan, Map.of(), outOrigins.stream().mapToInt(Integer::intValue).toArray());
    }

    private static Shape rowsShape(Piece p) {
      int[] dims = p.sliceShape().toArray();
      dims[0] /= p.parts();
      return Shape.of(dims);
    }

    /** The gathered slice of {@code v} (one AllGather per variable between updates). */
    private int gather(Variable v, int origin, boolean backward) {
      Ref have = gathered.get(v);
      if (have != null && (!zero3 || gatheredInBackward.get(v) == backward)) {
        return ((Out) have).node();
      }
      Piece p = pieces.get(v);
      comm.createGroup(RedistributionExecutor.groupName(p.group()), p.group());
      Shape whole = p.sliceShape();
      OpDef op =
          new OpDef(
              "AllGather", c -> new Tensor[] {p.gather(comm, c.in(0))}, null, true, List.of());
      int id =
          emit(
              new Node(
                  op,
                  Attrs.of("group", p.group(), "parameter", v.name()),
                  new Ref[] {new Var(v)},
                  1,
                  new Shape[] {rowsShape(p)},
                  new Shape[] {whole}),
              origin);
      gathers++;
      gathered.put(v, new Out(id, 0));
      gatheredInBackward.put(v, backward);
      return id;
    }

    /**
     * This rank's rows of {@code value} (an update's gradient): the AllReduce producing it becomes
     * a ReduceScatter over the piece's group when it reduces over exactly that group and feeds
     * nothing else; otherwise the rows are taken locally.
     */
    private Ref piece(Ref value, Piece p, int origin) {
      if (value instanceof Out o) {
        Integer done = sliced.get(o.node());
        if (done != null) {
          return new Out(done, o.index());
        }
        Node producer = out.get(o.node());
        int original = sources.get(o.node());
        if (producer.op().name().equals("AllReduce")
            && producer.attrs().has("group")
            && producer.attrs().ints("group").equals(p.group())
            && original >= 0
            && consumers[original] == 1) {
          String group = RedistributionExecutor.groupName(p.group());
          OpDef rs =
              SpmdPartitioner.reduceScatter(
                  comm, group, producer.attrs().string("reduce"), p.parts(), rowsShape(p));
          out.set(
              o.node(),
              new Node(
                  rs,
                  producer.attrs(),
                  producer.inputs(),
                  1,
                  producer.inShapes(),
                  new Shape[] {rowsShape(p)}));
          sliced.put(o.node(), o.node());
          scatters++;
          return value;
        }
      }
      int index = p.index();
      int parts = p.parts();
      OpDef take =
          new OpDef("TakeRows", c -> new Tensor[] {rows(c.in(0), index, parts)}, null, false);
      int id =
          emit(
              new Node(
                  take,
                  Attrs.of("index", index, "parts", parts),
                  new Ref[] {value},
                  1,
                  new Shape[] {p.sliceShape()},
                  new Shape[] {rowsShape(p)}),
              origin);
      takes++;
      if (value instanceof Out o) {
        sliced.put(o.node(), id);
      }
      return new Out(id, 0);
    }
  }
}
