package dev.msjvm.engine.exec;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.comm.CollectiveOps;
import dev.msjvm.engine.comm.Communicator;
import dev.msjvm.engine.comm.NeighborExchange;
import dev.msjvm.engine.comm.ReduceOp;
import dev.msjvm.engine.exec.Graph.Arg;
import dev.msjvm.engine.exec.Graph.Const;
import dev.msjvm.engine.exec.Graph.Node;
import dev.msjvm.engine.exec.Graph.Out;
import dev.msjvm.engine.exec.Graph.Ref;
import dev.msjvm.engine.exec.Graph.Var;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.ops.OpDef;
import dev.msjvm.engine.parallel.DeviceMatrix;
import dev.msjvm.engine.parallel.NodeSharding;
import dev.msjvm.engine.parallel.RedistributionExecutor;
import dev.msjvm.engine.parallel.RedistributionPlan;
import dev.msjvm.engine.parallel.ShardingOracle;
import dev.msjvm.engine.parallel.TensorLayout;
import dev.msjvm.engine.parallel.TensorRedistribution;
import dev.msjvm.engine.parallel.rules.Layouts;
import dev.msjvm.engine.tensor.FloatPool;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Turns a graph traced on global shapes (forward, backward and optimizer update) into one rank's
 * program: every node runs on its local slices, with the communication that makes the result the
 * global one (see {@code docs/design-parallel-execution.md}).
 *
 * <p>Walking the nodes in order, each gets a {@link NodeSharding} from the {@link ShardingOracle}
 * (the user's strategy, or one following its inputs). An input whose current layout differs from
 * the one required gets a redistribution node (MindSpore's planner, executed through the
 * communicator); a partial output gets an AllReduce over the devices it is partial on at once. A
 * parameter takes the layout its first consumer requires (through its {@code Load}); its variable
 * is then cut down to this rank's slice. Attributes that spell the output's shape ({@code shape},
 * {@code input_shape}, {@code filter_shape}) become the local slice's shape.
 *
 * <p>Every rank partitions the same global graph with the same oracle, so all ranks emit the same
 * sequence of collectives. The oracle's answers do not depend on the rank: {@link #decide} asks
 * them once (no communicator, nothing emitted, no variable touched) and {@link #lower} emits a
 * rank's program from them, which is how a job plans once for all its ranks ({@link
 * ParallelCompiler}).
 */
public final class SpmdPartitioner {

  private static final List<String> SHAPE_ATTRS = List.of("shape", "input_shape", "filter_shape");

  /**
   * One rank's program, the layout chosen for every parameter, a line per planned node, and the
   * strategy each node of the global graph ran with (by node index).
   */
  public record Result(
      Graph graph,
      Map<Variable, TensorLayout> variableLayouts,
      List<String> plan,
      Map<Integer, List<List<Integer>>> strategies,
      int[] origins) {

    /**
     * The global node each node of {@link #graph} was emitted for (its own local form, the
     * redistributions of its inputs, the reduction of its partial outputs).
     */
    public int origin(int localNode) {
      return origins[localNode];
    }
  }

  private final Graph global;
  private final List<TensorLayout> argLayouts;
  private final ShardingOracle oracle;
  private final Communicator comm;
  private final int devices;
  private final int rank;
  private final boolean enableAllToAll;

  private final List<Node> local = new ArrayList<>();

  /** The sharding of each global node (null for a Load), asked or given. */
  private final NodeSharding[] shardings;

  /** Shardings decided before ({@link #lower}), or null to ask the oracle. */
  private final NodeSharding[] decided;

  /** Whether a rank's program is emitted; false in {@link #decide}. */
  private final boolean lowering;

  /** The global node each local node belongs to (see {@link Result#origin}). */
  private final List<Integer> origins = new ArrayList<>();

  /** The global node being partitioned. */
  private int emitting = -1;

  private final List<String> plan = new ArrayList<>();
  private final Map<Integer, List<List<Integer>>> strategies = new LinkedHashMap<>();
  private final Map<Variable, TensorLayout> varLayouts = new LinkedHashMap<>();
  private final Ref[][] localOut;
  private final TensorLayout[][] layouts;

  /**
   * Loads of variables not placed yet, and unannotated Identity reads of them (a snapshot taken
   * before an update): node index -> the variable. Their layout is the variable's once placed.
   */
  private final Map<Integer, Variable> pendingLoads = new LinkedHashMap<>();

  /** A pending Identity -> the pending Load it reads (placed together). */
  private final Map<Integer, Integer> pendingVia = new LinkedHashMap<>();

  /** The variables an earlier compile laid out whole (replicated on every rank). */
  private final java.util.Set<Variable> earlierWhole = new java.util.HashSet<>();

  /**
   * The first Load in this compile of each of {@link #earlierWhole}: the decisions see it as a
   * parameter not placed yet, as the first compile did, so a recompile (another batch size, eval
   * after train) decides as the first compile (unannotated operators take their default strategy
   * rather than following the others' inputs); its value keeps the earlier layout.
   */
  private final java.util.Set<Integer> unplacedForDecisions = new java.util.HashSet<>();

  private SpmdPartitioner(
      Graph global,
      List<TensorLayout> argLayouts,
      ShardingOracle oracle,
      NodeSharding[] decided,
      Communicator comm,
      int devices,
      boolean enableAllToAll) {
    this.global = global;
    this.enableAllToAll = enableAllToAll;
    this.argLayouts = argLayouts;
    this.oracle = oracle;
    this.decided = decided;
    this.comm = comm;
    this.lowering = comm != null;
    this.devices = devices;
    this.rank = lowering ? comm.rank() : 0;
    int n = global.nodes().size();
    shardings = new NodeSharding[n];
    localOut = new Ref[n][];
    layouts = new TensorLayout[n][];
  }

  /**
   * Partitions {@code global} for {@code comm}'s rank. {@code argLayouts} give the layout of each
   * graph argument (the dataset strategy); the variables of placed parameters are cut to the rank's
   * slice.
   */
  public static Result partition(
      Graph global,
      List<TensorLayout> argLayouts,
      ShardingOracle oracle,
      Communicator comm,
      int devices) {
    return partition(global, argLayouts, Map.of(), oracle, comm, devices, false);
  }

  /**
   * {@link #partition} where some variables are laid out already ({@code placed}: an earlier
   * compile of another graph cut them to slices; they hold their whole values now, for the trace).
   * They keep their layouts; consumers needing others get redistributions. {@code enableAllToAll}
   * is MindSpore's {@code enable_alltoall}: a redistribution that moves a split from one dimension
   * to another uses one AllToAll instead of an AllGather followed by a local split.
   */
  public static Result partition(
      Graph global,
      List<TensorLayout> argLayouts,
      Map<Variable, TensorLayout> placed,
      ShardingOracle oracle,
      Communicator comm,
      int devices,
      boolean enableAllToAll) {
    return lower(
        global,
        argLayouts,
        placed,
        decide(global, argLayouts, placed, oracle, devices).shardings(),
        comm,
        devices,
        enableAllToAll);
  }

  /**
   * What every rank's partition of {@code global} shares: the sharding of each node (by global node
   * index, null for a {@code Load}), the layout of every parameter and the strategy of every node.
   * Asks {@code oracle} once per node; needs no communicator and changes no variable.
   */
  public record Decisions(
      List<NodeSharding> shardings,
      Map<Variable, TensorLayout> variableLayouts,
      Map<Integer, List<List<Integer>>> strategies) {}

  /** The rank-independent half of {@link #partition} (see {@link Decisions}). */
  public static Decisions decide(
      Graph global,
      List<TensorLayout> argLayouts,
      Map<Variable, TensorLayout> placed,
      ShardingOracle oracle,
      int devices) {
    SpmdPartitioner p = start(global, argLayouts, placed, oracle, null, null, devices, false);
    return new Decisions(
        Collections.unmodifiableList(java.util.Arrays.asList(p.shardings)),
        Collections.unmodifiableMap(p.varLayouts),
        Collections.unmodifiableMap(p.strategies));
  }

  /**
   * {@code comm}'s rank's program of {@code global} with the shardings {@link #decide} chose (for a
   * graph with the same nodes: the same graph, or one whose variables were rebound); cuts the
   * placed variables to the rank's slices.
   */
  public static Result lower(
      Graph global,
      List<TensorLayout> argLayouts,
      Map<Variable, TensorLayout> placed,
      List<NodeSharding> decided,
      Communicator comm,
      int devices,
      boolean enableAllToAll) {
    return lower(global, argLayouts, placed, decided, comm, devices, enableAllToAll, true);
  }

  /**
   * {@link #lower}; {@code fill} false (a dry run): a deferred variable is not filled but given an
   * abstract tensor of its slice's type ({@link Tensor#abstractOf}: no storage).
   */
  public static Result lower(
      Graph global,
      List<TensorLayout> argLayouts,
      Map<Variable, TensorLayout> placed,
      List<NodeSharding> decided,
      Communicator comm,
      int devices,
      boolean enableAllToAll,
      boolean fill) {
    if (decided.size() != global.nodes().size()) {
      throw new IllegalArgumentException(
          "decisions for " + decided.size() + " nodes, graph of " + global.nodes().size());
    }
    SpmdPartitioner p =
        start(
            global,
            argLayouts,
            placed,
            null,
            decided.toArray(new NodeSharding[0]),
            Objects.requireNonNull(comm),
            devices,
            enableAllToAll);
    Ref[] outs = new Ref[global.outputRefs().length];
    for (int i = 0; i < outs.length; i++) {
      outs[i] = p.mapped(global.outputRefs()[i]);
    }
    for (Map.Entry<Variable, TensorLayout> e : p.varLayouts.entrySet()) {
      Variable v = e.getKey();
      TensorLayout layout = e.getValue();
      if (!fill && (v.deferred() || v.current().isAbstract())) {
        // A dry run: the variable keeps only the type of its slice, and nothing is made.
        v.set(Tensor.abstractOf(new AbstractTensor(layout.sliceShape(), v.type().dtype())));
        continue;
      }
      if (!layout.isSliced()) {
        v.current(); // whole on every rank (a deferred variable fills now)
        continue;
      }
      if (v.deferred()) {
        // Only this rank's block is made (bit-identical to that block of the whole value).
        List<TensorLayout.SliceRange> ranges = layout.sliceRanges(p.rank);
        int[] begin = ranges.stream().mapToInt(TensorLayout.SliceRange::begin).toArray();
        int[] length = ranges.stream().mapToInt(r -> r.end() - r.begin()).toArray();
        Tensor block = v.fillBlock(begin, length);
        v.set(block.shape().equals(layout.shape()) ? slice(block, layout, p.rank) : block);
      } else if (v.current().shape().equals(layout.shape())) {
        v.set(slice(v.current(), layout, p.rank));
      }
    }
    return new Result(
        Graph.assemble(p.local, outs, global.arity()),
        Collections.unmodifiableMap(p.varLayouts),
        List.copyOf(p.plan),
        Collections.unmodifiableMap(p.strategies),
        p.origins.stream().mapToInt(Integer::intValue).toArray());
  }

  private static SpmdPartitioner start(
      Graph global,
      List<TensorLayout> argLayouts,
      Map<Variable, TensorLayout> placed,
      ShardingOracle oracle,
      NodeSharding[] decided,
      Communicator comm,
      int devices,
      boolean enableAllToAll) {
    if (argLayouts.size() != global.arity()) {
      throw MsException.valueError(
          "The graph takes " + global.arity() + " inputs but " + argLayouts.size() + " layouts");
    }
    SpmdPartitioner p =
        new SpmdPartitioner(global, argLayouts, oracle, decided, comm, devices, enableAllToAll);
    for (Variable v : global.variables()) {
      TensorLayout l = placed.get(v);
      if (l != null) {
        p.varLayouts.put(v, l);
        if (l.sliceShape().equals(l.shape())) {
          p.earlierWhole.add(v);
        }
      }
    }
    p.run();
    return p;
  }

  private void run() {
    List<Node> nodes = global.nodes();
    for (int n = 0; n < nodes.size(); n++) {
      Node node = nodes.get(n);
      emitting = n;
      if (node.op().name().equals("Load") && node.inputs()[0] instanceof Var v) {
        TensorLayout placed = varLayouts.get(v.variable());
        if (placed == null) {
          pendingLoads.put(n, v.variable());
        } else if (earlierWhole.remove(v.variable())) {
          unplacedForDecisions.add(n);
        }
        layouts[n] = new TensorLayout[] {placed};
        localOut[n] =
            new Ref[] {lowering ? emit(node, node.inputs(), localShapes(placed, node)) : null};
        continue;
      }
      if (readsPendingParameter(node) || (decided != null && decided[n] == null)) {
        // An unannotated Identity of a parameter nothing placed yet (the value before an update,
        // read to be restored): it does not decide the parameter's layout, its later reader or
        // the update does, as for the Load itself (the decisions leave it out; lowered, it takes
        // the parameter's layout).
        int load = ((Out) node.inputs()[0]).node();
        TensorLayout known = layouts[load][0];
        if (known == null) {
          pendingLoads.put(n, pendingLoads.get(load));
          pendingVia.put(n, load);
        }
        layouts[n] = new TensorLayout[] {known};
        localOut[n] =
            new Ref[] {lowering ? emit(node, node.inputs(), localShapes(known, node)) : null};
        continue;
      }
      List<TensorLayout> current = new ArrayList<>();
      List<TensorLayout> seen = new ArrayList<>();
      for (Ref r : node.inputs()) {
        TensorLayout l = layoutOf(r, node, current.size());
        current.add(l);
        seen.add(r instanceof Out o && unplacedForDecisions.contains(o.node()) ? null : l);
      }
      NodeSharding s =
          decided != null
              ? decided[n]
              : oracle.shard(
                  node.op().name(),
                  node.attrs(),
                  List.of(node.inShapes()),
                  List.of(node.outShapes()),
                  Collections.unmodifiableList(seen),
                  devices);
      shardings[n] = s;
      strategies.put(n, s.strategy());
      Ref[] in = new Ref[node.inputs().length];
      for (int i = 0; i < in.length; i++) {
        in[i] = placeInput(node.inputs()[i], current.get(i), s.inputs().get(i), node, n, i);
      }
      if (!lowering) {
        layouts[n] = s.outputs().toArray(new TensorLayout[0]);
        continue;
      }
      plan.add(
          node.op().name()
              + " #"
              + n
              + phase(n)
              + " strategy "
              + TensorLayout.strategyString(s.strategy())
              + " inputs "
              + s.inputs()
              + " outputs "
              + s.outputs());
      NodeSharding.Lowering lowering = s.lowerer().at(rank);
      Shape[] inShapes = new Shape[in.length];
      for (int i = 0; i < in.length; i++) {
        inShapes[i] = s.inputs().get(i).sliceShape();
        Attrs ex = lowering.inputs().get(i);
        if (ex != null) {
          in[i] = exchange(in[i], inShapes[i], ex, true, node, n);
          inShapes[i] = framed(inShapes[i], ex, 1);
        }
      }
      Shape[] outShapes = new Shape[node.outputs()];
      for (int j = 0; j < outShapes.length; j++) {
        outShapes[j] = kernelShape(s.outputs().get(j), s.partial().get(j));
        Attrs ex = lowering.outputs().get(j);
        if (ex != null) {
          outShapes[j] = framed(outShapes[j], ex, 1);
        }
      }
      Attrs attrs = localAttrs(node, s.localizer().local(node.attrs(), rank), outShapes);
      OpDef op = node.op();
      NodeSharding.Replacement replacement = lowering.replacement();
      if (replacement != null) {
        String group = RedistributionExecutor.groupName(replacement.group());
        comm.createGroup(group, replacement.group());
        op = CollectiveOps.named(replacement.op(), comm);
        attrs = attrs.with("group", group);
        plan.add(
            "  "
                + replacement.op()
                + " group "
                + replacement.group()
                + " in place of "
                + node.op().name()
                + " #"
                + n
                + phase(n));
      }
      Node localNode = new Node(op, attrs, in, node.outputs(), inShapes, outShapes);
      int id = local.size();
      add(localNode);
      layouts[n] = s.outputs().toArray(new TensorLayout[0]);
      localOut[n] = new Ref[node.outputs()];
      for (int j = 0; j < node.outputs(); j++) {
        NodeSharding.Partial partial = s.partial().get(j);
        Ref out = new Out(id, j);
        Attrs ex = lowering.outputs().get(j);
        if (ex != null) {
          out = exchange(out, outShapes[j], ex, false, node, n);
          outShapes[j] = framed(outShapes[j], ex, -1);
        }
        localOut[n][j] =
            partial == null
                ? out
                : reduce(
                    out,
                    s.outputs().get(j),
                    partial,
                    outShapes[j],
                    "output " + j + " of " + node.op().name() + " #" + n + phase(n));
      }
    }
  }

  /**
   * A halo exchange on the world group around {@code node}'s kernel: {@code forward}, its input
   * {@code r} (shape {@code shape}) framed by the neighbours' rows and columns
   * (NeighborExchangeV2); else its framed result {@code r} cut to the slice, the frame sent back to
   * the neighbours it belongs to and added onto theirs (NeighborExchangeV2Grad).
   */
  private Ref exchange(Ref r, Shape shape, Attrs ex, boolean forward, Node node, int n) {
    Shape out = framed(shape, ex, forward ? 1 : -1);
    plan.add(
        "  "
            + (forward ? "NeighborExchangeV2 " : "NeighborExchangeV2Grad ")
            + exchangeText(ex)
            + " "
            + shape
            + " -> "
            + out
            + "; halo of the "
            + (forward ? "input" : "output")
            + " of "
            + node.op().name()
            + " #"
            + n
            + phase(n));
    int id = local.size();
    add(
        new Node(
            forward ? NeighborExchange.exchange(comm) : NeighborExchange.exchangeGrad(comm),
            ex.with("group", comm.worldGroup()),
            new Ref[] {r},
            1,
            new Shape[] {shape},
            new Shape[] {out}));
    return new Out(id, 0);
  }

  private static String exchangeText(Attrs ex) {
    return "send "
        + ex.ints("send_rank_ids")
        + " "
        + ex.ints("send_lens")
        + " recv "
        + ex.ints("recv_rank_ids")
        + " "
        + ex.ints("recv_lens");
  }

  /** {@code shape} (NCHW) grown ({@code sign} 1) or shrunk (-1) by an exchange's received lens. */
  private static Shape framed(Shape shape, Attrs ex, int sign) {
    List<Integer> recv = ex.ints("recv_lens");
    int[] dims = shape.toArray();
    dims[2] += sign * (recv.get(0) + recv.get(1));
    dims[3] += sign * (recv.get(2) + recv.get(3));
    return Shape.of(dims);
  }

  /** Whether {@code node} is an unannotated Identity of a Load whose variable is unplaced. */
  private boolean readsPendingParameter(Node node) {
    return node.op().name().equals("Identity")
        && node.inputs().length == 1
        && node.inputs()[0] instanceof Out o
        && pendingLoads.containsKey(o.node())
        && varLayouts.get(pendingLoads.get(o.node())) == null
        && !node.attrs().has("in_strategy")
        && !node.attrs().has("in_layout");
  }

  /** The layout {@code r} has now; null for a parameter (or its Load) not placed yet. */
  private TensorLayout layoutOf(Ref r, Node node, int i) {
    return switch (r) {
      case Arg a -> argLayouts.get(a.index());
      // A pending read whose variable an update placed since: the variable's layout.
      case Out o
          when layouts[o.node()][o.index()] == null
              && pendingLoads.containsKey(o.node())
              && varLayouts.get(pendingLoads.get(o.node())) != null ->
          settle(o.node(), varLayouts.get(pendingLoads.get(o.node())));
      case Out o -> layouts[o.node()][o.index()];
      case Var v -> varLayouts.get(v.variable());
      case Const c -> TensorLayout.whole(DeviceMatrix.of(devices), node.inShapes()[i]);
    };
  }

  /** The local reference for input {@code i} in layout {@code need}, placing parameters. */
  private Ref placeInput(
      Ref r, TensorLayout current, TensorLayout need, Node node, int nodeIndex, int i) {
    switch (r) {
      case Var v -> {
        place(v.variable(), need, node);
        return r;
      }
      case Const c -> {
        return lowering && need.isSliced() ? new Const(slice(c.value(), need, rank)) : r;
      }
      case Out o when current == null && pendingLoads.containsKey(o.node()) -> {
        place(pendingLoads.get(o.node()), need, node);
        settle(o.node(), need);
        return localOut[o.node()][0];
      }
      default -> {
        if (current == null) {
          throw MsException.runtimeError(
              "Parallel planning: input " + i + " of " + node.op().name() + " has no layout.");
        }
        if (!lowering) {
          return null;
        }
        Ref mapped = mapped(r);
        String producer =
            r instanceof Out o
                ? global.nodes().get(o.node()).op().name() + " #" + o.node()
                : r instanceof Arg a ? "argument " + a.index() : "a parameter";
        return redistribute(
            mapped,
            current,
            need,
            node.inShapes()[i],
            "input "
                + i
                + " of "
                + node.op().name()
                + " #"
                + nodeIndex
                + " from "
                + producer
                + phase(nodeIndex));
      }
    }
  }

  /** Pending read {@code n} (and the Load a pending Identity reads) now has {@code layout}. */
  private TensorLayout settle(int n, TensorLayout layout) {
    pendingLoads.remove(n);
    layouts[n][0] = layout;
    Integer load = pendingVia.remove(n);
    if (load != null && pendingLoads.remove(load) != null) {
      layouts[load][0] = layout;
    }
    return layout;
  }

  private void place(Variable v, TensorLayout need, Node node) {
    TensorLayout placed = varLayouts.putIfAbsent(v, need);
    if (placed != null && !Layouts.sameSlices(placed, need)) {
      throw MsException.runtimeError(
          "Parallel planning: parameter '"
              + v.name()
              + "' is laid out as "
              + placed
              + " but "
              + node.op().name()
              + " updates it as "
              + need
              + ".");
    }
  }

  private Ref mapped(Ref r) {
    return r instanceof Out o ? localOut[o.node()][o.index()] : r;
  }

  /** " (backward)" for a node of the backward pass or the optimizer update, else "". */
  private String phase(int n) {
    return n < global.forwardNodes() ? "" : " (backward)";
  }

  private Ref redistribute(
      Ref from, TensorLayout current, TensorLayout need, Shape shape, String cause) {
    RedistributionPlan p = TensorRedistribution.plan(current, need, rank, enableAllToAll);
    if (p.ops().isEmpty()) {
      return from;
    }
    OpDef op = redistribution(comm, p);
    plan.add(
        "  redistribute "
            + current
            + " -> "
            + need
            + ": "
            + p
            + ", "
            + 4L * current.sliceShape().size()
            + " bytes in; "
            + cause);
    Shape out = need.sliceShape();
    int id = local.size();
    add(
        new Node(
            op,
            Attrs.EMPTY,
            new Ref[] {from},
            1,
            new Shape[] {current.sliceShape()},
            new Shape[] {out}));
    return new Out(id, 0);
  }

  /**
   * The shape a rank's kernel computes for an output: the output layout's slice, or for an output
   * completed by a ReduceScatter the slice before scattering (its scattered dimension as many times
   * larger as the group has ranks).
   */
  private Shape kernelShape(TensorLayout layout, NodeSharding.Partial partial) {
    Shape slice = layout.sliceShape();
    if (partial == null || !partial.reduceScatter()) {
      return slice;
    }
    int[] dims = slice.toArray();
    dims[partial.scatterDim()] *= partial.group(layout.deviceMatrix(), rank).size();
    return Shape.of(dims);
  }

  private Ref reduce(
      Ref out, TensorLayout layout, NodeSharding.Partial partial, Shape shape, String cause) {
    List<Integer> group = partial.group(layout.deviceMatrix(), rank);
    if (group.size() == 1) {
      return out;
    }
    String name = RedistributionExecutor.groupName(group);
    comm.createGroup(name, group);
    String kind = partial.reduceScatter() ? "ReduceScatter" : "AllReduce";
    Shape result = partial.reduceScatter() ? layout.sliceShape() : shape;
    plan.add(
        "  "
            + kind
            + "("
            + partial.reduce()
            + ") group "
            + group
            + " shape "
            + shape
            + ", "
            + 4L * shape.size()
            + " bytes; partial sums of "
            + cause);
    int dim = partial.reduceScatter() ? partial.scatterDim() : 0;
    if (dim > 0) {
      // The communicator scatters contiguous blocks, which are blocks of dimension 0: the
      // scattered dimension goes first and back.
      List<Integer> perm = new ArrayList<>();
      perm.add(dim);
      for (int d = 0; d < shape.rank(); d++) {
        if (d != dim) {
          perm.add(d);
        }
      }
      List<Integer> inverse = new ArrayList<>(Collections.nCopies(perm.size(), 0));
      for (int i = 0; i < perm.size(); i++) {
        inverse.set(perm.get(i), i);
      }
      Ref front = transpose(out, shape, perm);
      Ref scattered =
          reduce(
              front,
              permuted(shape, perm),
              permuted(result, perm),
              group,
              name,
              partial,
              "ReduceScatter");
      return transpose(scattered, permuted(result, perm), inverse);
    }
    return reduce(out, shape, result, group, name, partial, kind);
  }

  private Ref reduce(
      Ref out,
      Shape shape,
      Shape result,
      List<Integer> group,
      String name,
      NodeSharding.Partial partial,
      String kind) {
    OpDef op =
        partial.reduceScatter()
            ? reduceScatter(comm, name, partial.reduce(), group.size(), result)
            : allReduce(comm, name, partial.reduce(), group.size());
    int id = local.size();
    add(
        new Node(
            op,
            // "op": MindSpore's attribute (its mean is AllReduce(sum) and a division).
            Attrs.of(
                "group",
                group,
                "reduce",
                partial.reduce(),
                "op",
                partial.reduce().equals("mean") ? "sum" : partial.reduce()),
            new Ref[] {out},
            1,
            new Shape[] {shape},
            new Shape[] {result}));
    return new Out(id, 0);
  }

  private Ref transpose(Ref in, Shape shape, List<Integer> perm) {
    int id = local.size();
    add(
        new Node(
            dev.msjvm.engine.ops.OpTable.get("Transpose"),
            Attrs.of("perm", perm),
            new Ref[] {in},
            1,
            new Shape[] {shape},
            new Shape[] {permuted(shape, perm)}));
    return new Out(id, 0);
  }

  private static Shape permuted(Shape shape, List<Integer> perm) {
    int[] dims = new int[perm.size()];
    for (int i = 0; i < dims.length; i++) {
      dims[i] = shape.dim(perm.get(i));
    }
    return Shape.of(dims);
  }

  private void add(Node node) {
    local.add(node);
    origins.add(emitting);
  }

  /** Appends {@code node} with its global {@code inputs} mapped to this rank's references. */
  private Ref emit(Node node, Ref[] inputs, Shape[] outShapes) {
    Ref[] in = new Ref[inputs.length];
    for (int i = 0; i < in.length; i++) {
      in[i] = mapped(inputs[i]);
    }
    int id = local.size();
    add(new Node(node.op(), node.attrs(), in, node.outputs(), node.inShapes(), outShapes));
    return new Out(id, 0);
  }

  private static Shape[] localShapes(TensorLayout layout, Node node) {
    return layout == null ? node.outShapes() : new Shape[] {layout.sliceShape()};
  }

  /**
   * {@code attrs} (the rule's localised attributes) with output-shape attributes still spelling the
   * global output shape cut to the local slice.
   */
  private static Attrs localAttrs(Node node, Attrs attrs, Shape[] outShapes) {
    for (String key : SHAPE_ATTRS) {
      if (attrs.has(key)
          && node.outShapes().length > 0
          && attrs.ints(key).equals(node.outShapes()[0].dims())) {
        attrs = attrs.with(key, outShapes[0].dims());
      }
    }
    return attrs;
  }

  /**
   * The whole value of a variable holding {@code rank}'s slice under {@code layout}: an AllGather
   * of every rank's slice (a collective: every rank of the world calls it, in the same order).
   */
  public static Tensor gatherWhole(Communicator comm, Tensor slice, TensorLayout layout) {
    Tensor f = slice.dtype() == DType.FLOAT32 ? slice : slice.astype(DType.FLOAT32);
    float[] gathered = new float[f.floats().length * comm.size()];
    comm.allGather(f.floats(), gathered, comm.worldGroup());
    Tensor whole = Tensor.ofFloats(layout.shape(), layout.wholeFrom(gathered));
    return slice.dtype() == DType.FLOAT32 ? whole : whole.astype(slice.dtype());
  }

  /** {@code rank}'s slice of {@code full} (any dtype; computed in float32 for non-float types). */
  static Tensor slice(Tensor full, TensorLayout layout, int rank) {
    Tensor f = full.dtype() == DType.FLOAT32 ? full : full.astype(DType.FLOAT32);
    Tensor s = Tensor.ofFloats(layout.sliceShape(), layout.sliceOf(f.floats(), rank));
    return full.dtype() == DType.FLOAT32 ? s : s.astype(full.dtype());
  }

  /** A redistribution of float32 (or cast-through-float32) tensors along {@code plan}. */
  static OpDef redistribution(Communicator comm, RedistributionPlan plan) {
    return new OpDef(
        "Redistribution",
        c -> {
          Tensor x = c.in(0);
          Tensor f = x.dtype() == DType.FLOAT32 ? x : x.astype(DType.FLOAT32);
          RedistributionExecutor.Result r = RedistributionExecutor.run(comm, plan, f.floats());
          Tensor out = Tensor.ofFloats(r.shape(), r.data());
          return new Tensor[] {x.dtype() == DType.FLOAT32 ? out : out.astype(x.dtype())};
        },
        null,
        true,
        List.of());
  }

  private static ReduceOp reduceOp(String reduce) {
    return switch (reduce) {
      case "sum", "mean" -> ReduceOp.SUM;
      case "max" -> ReduceOp.MAX;
      case "min" -> ReduceOp.MIN;
      case "prod" -> ReduceOp.PROD;
      default -> throw MsException.valueError("Unknown partial reduction " + reduce);
    };
  }

  /**
   * The reduction of partial results over {@code group} with each member keeping its block of
   * dimension 0 ({@code out} is the block's shape; "mean" divides by the group's size).
   */
  static OpDef reduceScatter(Communicator comm, String group, String reduce, int size, Shape out) {
    ReduceOp op = reduceOp(reduce);
    return completion(
        "ReduceScatter",
        reduce,
        size,
        (in, len) -> {
          float[] recv = FloatPool.uninitialized(len / size);
          comm.reduceScatter(in, recv, op, group);
          return recv;
        },
        x -> out);
  }

  /** The reduction of partial results over {@code group} ("mean": the sum divided by its size). */
  static OpDef allReduce(Communicator comm, String group, String reduce, int size) {
    ReduceOp op = reduceOp(reduce);
    return completion(
        "AllReduce",
        reduce,
        size,
        (in, len) -> {
          float[] recv = FloatPool.uninitialized(len);
          comm.allReduce(in, 0, recv, 0, len, op, group);
          return recv;
        },
        Tensor::shape);
  }

  /** One collective over float32 values (other dtypes are cast there and back). */
  private interface FloatCollective {
    float[] run(float[] in, int length);
  }

  private static OpDef completion(
      String name,
      String reduce,
      int size,
      FloatCollective collective,
      java.util.function.Function<Tensor, Shape> outShape) {
    return new OpDef(
        name,
        c -> {
          Tensor x = c.in(0);
          Tensor f = x.dtype() == DType.FLOAT32 ? x : x.astype(DType.FLOAT32);
          float[] data = collective.run(f.floats(), f.size());
          if (reduce.equals("mean")) {
            float inv = 1.0f / size;
            for (int k = 0; k < data.length; k++) {
              data[k] *= inv;
            }
          }
          Tensor t = Tensor.ofFloats(outShape.apply(x), data);
          return new Tensor[] {x.dtype() == DType.FLOAT32 ? t : t.astype(x.dtype())};
        },
        null,
        true,
        List.of());
  }
}
