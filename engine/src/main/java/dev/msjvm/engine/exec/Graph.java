package dev.msjvm.engine.exec;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.ops.OpDef;
import dev.msjvm.engine.tensor.FloatPool;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A traced function compiled for replay: GRAPH_MODE's graph. Nodes are the recorded operator calls
 * in order; their inputs refer to the function's arguments, to earlier nodes' outputs, to variables
 * (read when the node runs) or to constants captured at trace time.
 *
 * <p>Replaying runs every node on the {@link Runtime} without Python, so a training step traced
 * once (forward, backward and optimizer update) runs as one Java loop afterwards. Example: trace
 * {@code f(x) = x * 2 + 1} on one tensor, then {@code graph.run([y])} is {@code [y * 2 + 1]}.
 */
public final class Graph {
  /** Where a node input comes from. */
  sealed interface Ref {}

  record Arg(int index) implements Ref {}

  record Out(int node, int index) implements Ref {}

  record Var(Variable variable) implements Ref {}

  record Const(Tensor value) implements Ref {}

  /**
   * One operator call; {@code inShapes}/{@code outShapes} are the shapes seen when it was traced
   * (what the parallel partitioner plans with: the trace runs on global shapes).
   */
  record Node(
      OpDef op, Attrs attrs, Ref[] inputs, int outputs, Shape[] inShapes, Shape[] outShapes) {
    Node with(Ref[] newInputs) {
      return new Node(op, attrs, newInputs, outputs, inShapes, outShapes);
    }
  }

  private final List<Node> nodes;
  private final Ref[] outputs;
  private final int arity;

  /**
   * How many nodes, from the first, are the forward computation: recorded before the first gradient
   * step (the calls a strategy search decides; backward and optimizer nodes follow them).
   */
  private final int forwardNodes;

  /** The distinct variables the nodes read or write, in first-use order. */
  private final Variable[] variables;

  /**
   * {@code lastUse[n][j]}: the last node reading output {@code j} of node {@code n} ({@code -1} for
   * none, {@link Integer#MAX_VALUE} for a graph result).
   */
  private final int[][] lastUse;

  /** Intermediates' storage from the last replay, for the next one to write into. */
  private final FloatPool pool = new FloatPool();

  /** The thread replaying this graph with its pool (a graph belongs to one rank's interpreter). */
  private Thread poolUser;

  /** Told when each node of a replay starts and ends (a pipeline's timeline), or null. */
  private volatile NodeListener listener;

  /** What the last replay outside a tape held ({@link Memory}); all zeros before any. */
  private volatile Memory memory = new Memory(0, 0, 0, 0, 0, 0);

  /** The memory the last replay outside a tape held, storage counted once ({@link Memory}). */
  public Memory memory() {
    return memory;
  }

  /**
   * The most bytes of computed values alive at once during the last replay outside a tape (a value
   * lives from its node to its last reader, results to the end; storage shared by several values
   * counts once): what an allocator freeing each value after its last use would need. 0 before any
   * replay.
   */
  public long peakBytes() {
    return memory.valuePeak();
  }

  private static long bytes(Tensor t) {
    return (long) t.size() * t.dtype().itemSize();
  }

  private static boolean firstOccurrence(Ref[] refs, int i) {
    for (int j = 0; j < i; j++) {
      if (refs[j].equals(refs[i])) {
        return false;
      }
    }
    return true;
  }

  /** Observes replays node by node. */
  interface NodeListener {
    /** Node {@code node} starts; {@code System.nanoTime()} is {@code now}. */
    void started(int node, long now);

    /** Node {@code node} has finished. */
    void finished(int node, long now);
  }

  private Graph(List<Node> nodes, Ref[] outputs, int arity, int forwardNodes) {
    this.nodes = nodes;
    this.outputs = outputs;
    this.arity = arity;
    this.forwardNodes = forwardNodes;
    java.util.LinkedHashSet<Variable> vars = new java.util.LinkedHashSet<>();
    lastUse = new int[nodes.size()][];
    for (int n = 0; n < nodes.size(); n++) {
      lastUse[n] = new int[nodes.get(n).outputs()];
      java.util.Arrays.fill(lastUse[n], -1);
      for (Ref r : nodes.get(n).inputs()) {
        switch (r) {
          case Out o -> lastUse[o.node()][o.index()] = n;
          case Var v -> vars.add(v.variable());
          default -> {}
        }
      }
    }
    for (Ref r : outputs) {
      switch (r) {
        case Out o -> lastUse[o.node()][o.index()] = Integer.MAX_VALUE;
        case Var v -> vars.add(v.variable());
        default -> {}
      }
    }
    variables = vars.toArray(new Variable[0]);
  }

  /**
   * The graph of {@code tape}, whose leaves are {@code args} (in order) and whose results are
   * {@code results}.
   */
  public static Graph compile(Tape tape, List<Tensor> args, List<Tensor> results) {
    Map<Tensor, Ref> refs = new IdentityHashMap<>();
    for (int i = 0; i < args.size(); i++) {
      refs.putIfAbsent(args.get(i), new Arg(i));
    }
    List<Node> nodes = new ArrayList<>();
    int firstBackward = -1;
    for (Tape.Step step : tape.steps()) {
      if (step.backward() && firstBackward < 0) {
        firstBackward = nodes.size();
      }
      Ref[] in = new Ref[step.inputs().length];
      for (int i = 0; i < in.length; i++) {
        in[i] =
            step.inputs()[i] instanceof Variable v
                ? new Var(v)
                : refs.getOrDefault((Tensor) step.inputs()[i], new Const(step.inputValues()[i]));
      }
      int id = nodes.size();
      Shape[] inShapes = new Shape[in.length];
      for (int i = 0; i < in.length; i++) {
        inShapes[i] = step.inputValues()[i].shape();
      }
      Shape[] outShapes = new Shape[step.outputs().length];
      for (int j = 0; j < outShapes.length; j++) {
        outShapes[j] = step.outputs()[j].shape();
      }
      nodes.add(new Node(step.op(), step.attrs(), in, step.outputs().length, inShapes, outShapes));
      for (int j = 0; j < step.outputs().length; j++) {
        refs.put(step.outputs()[j], new Out(id, j));
      }
    }
    Ref[] out = new Ref[results.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = refs.getOrDefault(results.get(i), new Const(results.get(i)));
    }
    return recompute(
        simplify(nodes, out, args.size(), firstBackward < 0 ? nodes.size() : firstBackward));
  }

  /**
   * MindSpore's recomputation ({@code Cell.recompute()}, {@code Primitive.recompute()}): forward
   * nodes carrying {@code recompute} are run again in the backward pass for the gradient operators
   * that read them, so their forward outputs die in the forward pass instead of living until the
   * backward. Each such node gets one copy (attribute {@code recomputed}, so no pass merges it
   * back), placed just before its first backward reader, reading copies of its recomputed producers
   * and the original outputs of the others (the checkpoints). Stateful operators (random ones,
   * Loads) are not recomputed. Example: {@code relu1.recompute()} keeps the MatMul's output and
   * recomputes the ReLU for ReluGrad and the next MatMul's weight gradient.
   */
  static Graph recompute(Graph g) {
    int fwd = g.forwardNodes;
    boolean any = false;
    for (int n = 0; n < fwd && !any; n++) {
      any = recomputed(g.nodes.get(n));
    }
    if (!any) {
      return g;
    }
    List<Node> out = new ArrayList<>(g.nodes.size() + fwd);
    int[] moved = new int[g.nodes.size()];
    int[] copy = new int[fwd];
    java.util.Arrays.fill(copy, -1);
    for (int n = 0; n < g.nodes.size(); n++) {
      Node node = g.nodes.get(n);
      Ref[] in = node.inputs().clone();
      for (int i = 0; i < in.length; i++) {
        if (in[i] instanceof Out o) {
          in[i] =
              n >= fwd && o.node() < fwd && recomputed(g.nodes.get(o.node()))
                  ? new Out(copyOf(g, o.node(), out, moved, copy), o.index())
                  : new Out(moved[o.node()], o.index());
        }
      }
      moved[n] = out.size();
      out.add(node.with(in));
    }
    Ref[] outputs = g.outputs.clone();
    for (int i = 0; i < outputs.length; i++) {
      if (outputs[i] instanceof Out o) {
        outputs[i] = new Out(moved[o.node()], o.index());
      }
    }
    return new Graph(List.copyOf(out), outputs, g.arity, fwd);
  }

  private static boolean recomputed(Node node) {
    // A Load's value is the variable's storage: nothing to free, nothing to recompute.
    return node.attrs().bool("recompute", false)
        && !node.op().stateful()
        && !node.op().name().equals("Load");
  }

  /** The index in {@code out} of the backward copy of forward node {@code n}, made if needed. */
  private static int copyOf(Graph g, int n, List<Node> out, int[] moved, int[] copy) {
    if (copy[n] >= 0) {
      return copy[n];
    }
    Node node = g.nodes.get(n);
    Ref[] in = node.inputs().clone();
    for (int i = 0; i < in.length; i++) {
      if (in[i] instanceof Out o) {
        in[i] =
            recomputed(g.nodes.get(o.node()))
                ? new Out(copyOf(g, o.node(), out, moved, copy), o.index())
                : new Out(moved[o.node()], o.index());
      }
    }
    copy[n] = out.size();
    out.add(
        new Node(
            node.op(),
            node.attrs().with("recomputed", true),
            in,
            node.outputs(),
            node.inShapes(),
            node.outShapes()));
    return copy[n];
  }

  /**
   * Common-subexpression elimination and dead-code removal: a node computing what an earlier one
   * computed (same operator, attributes and inputs; a Load only between the same two stateful
   * nodes) reuses its outputs, and nodes that neither update state nor feed a result are dropped.
   * Example: {@code TrainOneStepCell} runs the network forward twice (once for the loss, once under
   * grad); the graph keeps one forward pass, as MindSpore's graph compiler does.
   */
  private static Graph simplify(List<Node> nodes, Ref[] outputs, int arity, int firstBackward) {
    record Key(String op, Attrs attrs, List<Ref> inputs, int epoch) {}
    Map<Key, Integer> seen = new java.util.HashMap<>();
    Map<Out, Ref> subst = new java.util.HashMap<>();
    Map<List<Object>, Const> constants = new java.util.HashMap<>();
    boolean[] dropped = new boolean[nodes.size()];
    List<Node> remapped = new ArrayList<>(nodes.size());
    int epoch = 0;
    for (int n = 0; n < nodes.size(); n++) {
      Node node = nodes.get(n);
      Ref[] in = new Ref[node.inputs().length];
      for (int i = 0; i < in.length; i++) {
        in[i] = subst.getOrDefault(node.inputs()[i], node.inputs()[i]);
        if (in[i] instanceof Const c && c.value().size() <= SMALL_CONSTANT) {
          // Small constants made afresh by each call (a loss's scalars, OneHot's on/off values)
          // are one constant, so the calls they feed can be merged.
          in[i] = constants.computeIfAbsent(valueKey(c.value()), k -> c);
        }
      }
      remapped.add(node.with(in));
      if (node.op().stateful()) {
        epoch++;
        continue;
      }
      boolean load = node.op().name().equals("Load");
      if (load && !(in[0] instanceof Var)) {
        // A Load of a tensor only gave it a new identity (an argument under grad): same value.
        subst.put(new Out(n, 0), in[0]);
        dropped[n] = true;
        continue;
      }
      Key key = new Key(node.op().name(), node.attrs(), List.of(in), load ? epoch : 0);
      Integer first = seen.putIfAbsent(key, n);
      if (first != null) {
        for (int j = 0; j < node.outputs(); j++) {
          subst.put(new Out(n, j), new Out(first, j));
        }
        dropped[n] = true;
      }
    }
    Ref[] outs = new Ref[outputs.length];
    boolean[] live = new boolean[nodes.size()];
    for (int i = 0; i < outs.length; i++) {
      outs[i] = subst.getOrDefault(outputs[i], outputs[i]);
      if (outs[i] instanceof Out o) {
        live[o.node()] = true;
      }
    }
    for (int n = nodes.size() - 1; n >= 0; n--) {
      if (dropped[n]) {
        continue;
      }
      if (remapped.get(n).op().stateful()) {
        live[n] = true;
      }
      if (live[n]) {
        for (Ref r : remapped.get(n).inputs()) {
          if (r instanceof Out o) {
            live[o.node()] = true;
          }
        }
      }
    }
    int[] position = new int[nodes.size()];
    List<Node> kept = new ArrayList<>();
    int forward = 0;
    for (int n = 0; n < nodes.size(); n++) {
      if (!dropped[n] && live[n]) {
        position[n] = kept.size();
        if (n < firstBackward) {
          forward++;
        }
        Node node = remapped.get(n);
        Ref[] in = node.inputs().clone();
        for (int i = 0; i < in.length; i++) {
          if (in[i] instanceof Out o) {
            in[i] = new Out(position[o.node()], o.index());
          }
        }
        kept.add(node.with(in));
      }
    }
    for (int i = 0; i < outs.length; i++) {
      if (outs[i] instanceof Out o) {
        outs[i] = new Out(position[o.node()], o.index());
      }
    }
    return new Graph(List.copyOf(kept), outs, arity, forward);
  }

  /** The nodes in order (for passes over the graph, e.g. {@link SpmdPartitioner}). */
  /**
   * The nodes as MindSpore's {@code get_parallel_graph_info} lists a graph's CNodes (what its
   * parallel UTs' ParallelValidator reads): per node in order, its name {@code <Op>-<k>} ({@code k}
   * counting that operator's nodes from 0), its inputs (another node's name, a parameter's name,
   * the argument's name from {@code argNames}, or a constant's value: a number, or a list of
   * numbers; the type of a constant without values) and its attributes. Example: {@code [["Load-0",
   * ["w"], {}], ["MatMul-0", ["x", "Load-0"], {...}]]}.
   */
  public List<List<Object>> nodeInfo(List<String> argNames) {
    java.util.Map<String, Integer> counts = new java.util.HashMap<>();
    String[] names = new String[nodes.size()];
    List<List<Object>> out = new ArrayList<>();
    for (int n = 0; n < nodes.size(); n++) {
      Node node = nodes.get(n);
      String op = node.op().name();
      int k = counts.merge(op, 1, Integer::sum) - 1;
      names[n] = op + "-" + k;
      List<Object> inputs = new ArrayList<>();
      for (Ref r : node.inputs()) {
        inputs.add(
            switch (r) {
              case Out o -> names[o.node()];
              case Var v -> v.variable().name();
              case Arg a ->
                  a.index() < argNames.size() ? argNames.get(a.index()) : "arg" + a.index();
              case Const c when c.value().isAbstract() -> c.value().type().toString();
              case Const c ->
                  c.value().size() == 1 && c.value().shape().rank() == 0
                      ? c.value().get(0)
                      : c.value().toList();
            });
      }
      out.add(List.of(names[n], inputs, node.attrs().asMap()));
    }
    return out;
  }

  List<Node> nodes() {
    return nodes;
  }

  /** The variables the nodes read or write, in first-use order. */
  public List<Variable> variables() {
    return List.of(variables);
  }

  /** Where each result comes from. */
  Ref[] outputRefs() {
    return outputs.clone();
  }

  /** The number of tensor arguments. */
  public int arity() {
    return arity;
  }

  /** Constants up to this many elements are compared by value when merging nodes. */
  private static final int SMALL_CONSTANT = 64;

  /** Dtype, shape and values: equal for equal constants (NaN equals NaN, -0.0 differs from 0.0). */
  private static List<Object> valueKey(Tensor t) {
    List<Object> key = new ArrayList<>(t.size() + 2);
    key.add(t.dtype());
    key.add(t.shape());
    for (int i = 0; i < t.size(); i++) {
      key.add(t.get(i));
    }
    return key;
  }

  /**
   * A graph of already-built nodes in exactly this order (nothing merged or dropped), whose first
   * {@code forwardNodes} nodes are the forward computation.
   */
  static Graph sequence(List<Node> nodes, Ref[] outputs, int arity, int forwardNodes) {
    return new Graph(List.copyOf(nodes), outputs.clone(), arity, forwardNodes);
  }

  /**
   * Whether another rank (of this JVM or of another process tracing the same script) can run this
   * graph once its variables are rebound ({@link #rebound}): every operator is the registered one
   * ({@link OpTable}: no collective bound to a rank's communicator, no callback into one rank's
   * interpreter) and every attribute is plain data ({@link Attrs#plain}: no random stream), and its
   * variables have distinct names.
   */
  public boolean portable() {
    java.util.Set<String> names = new java.util.HashSet<>();
    for (Variable v : variables) {
      if (!names.add(v.name())) {
        return false;
      }
    }
    for (Node node : nodes) {
      if (dev.msjvm.engine.ops.OpTable.find(node.op().name()) != node.op()
          || !node.attrs().plain()) {
        return false;
      }
    }
    return true;
  }

  /**
   * This graph reading and writing {@code to.apply(v)} wherever it used variable {@code v} (another
   * rank's parameters of the same names); {@code to} must give a variable for each of {@link
   * #variableNames}.
   */
  public Graph rebound(java.util.function.Function<Variable, Variable> to) {
    Map<Variable, Var> map = new IdentityHashMap<>();
    for (Variable v : variables) {
      map.put(v, new Var(Objects.requireNonNull(to.apply(v), v.name())));
    }
    List<Node> copy = new ArrayList<>(nodes.size());
    for (Node node : nodes) {
      copy.add(node.with(rebound(node.inputs(), map)));
    }
    return new Graph(List.copyOf(copy), rebound(outputs, map), arity, forwardNodes);
  }

  private static Ref[] rebound(Ref[] refs, Map<Variable, Var> map) {
    Ref[] out = refs.clone();
    for (int i = 0; i < out.length; i++) {
      if (out[i] instanceof Var v) {
        out[i] = map.get(v.variable());
      }
    }
    return out;
  }

  /** The names of the variables the nodes read or write, in first-use order. */
  public List<String> variableNames() {
    List<String> names = new ArrayList<>(variables.length);
    for (Variable v : variables) {
      names.add(v.name());
    }
    return names;
  }

  /**
   * What a replay on {@code args} would hold, without running a kernel (MindSpore's dry run): the
   * type of every value from the operators' inference (or, for an operator without one, such as a
   * collective the partitioner made, the shapes recorded on its node and its first input's dtype),
   * and the bytes held at the peak, counted as a replay counts them ({@link #memory}) with each
   * value's storage taken from its operator's declared aliases.
   */
  public DryRun dryRun(List<dev.msjvm.engine.ir.AbstractTensor> args) {
    if (args.size() != arity) {
      throw MsException.valueError("The graph takes " + arity + " inputs but got " + args.size());
    }
    dev.msjvm.engine.ir.AbstractTensor[][] types =
        new dev.msjvm.engine.ir.AbstractTensor[nodes.size()][];
    // The storage each value would have: a fresh object for new storage, else its input's.
    Object[][] keys = new Object[nodes.size()][];
    Object[] argKeys = new Object[arity];
    StorageMeter meter = new StorageMeter();
    for (Variable v : variables) {
      meter.hold(StorageMeter.VARIABLE, v, bytes(v.type()));
    }
    for (int i = 0; i < arity; i++) {
      argKeys[i] = new Object();
      meter.hold(StorageMeter.INPUT, argKeys[i], bytes(args.get(i)));
    }
    for (Node node : nodes) {
      for (Ref r : node.inputs()) {
        if (r instanceof Const c) {
          meter.hold(StorageMeter.INPUT, c.value(), bytes(c.value().type()));
        }
      }
    }
    for (int n = 0; n < nodes.size(); n++) {
      Node node = nodes.get(n);
      List<dev.msjvm.engine.ir.AbstractTensor> in = new ArrayList<>(node.inputs().length);
      for (Ref r : node.inputs()) {
        in.add(typeOf(r, args, types));
      }
      List<dev.msjvm.engine.ir.AbstractTensor> out;
      if (node.op().infer() != null) {
        out = node.op().infer().outputs(node.attrs(), in);
      } else {
        out = new ArrayList<>(node.outputs());
        for (int j = 0; j < node.outputs(); j++) {
          out.add(
              new dev.msjvm.engine.ir.AbstractTensor(
                  node.outShapes()[j],
                  in.isEmpty() ? dev.msjvm.engine.ir.DType.FLOAT32 : in.get(0).dtype()));
        }
      }
      types[n] = out.toArray(new dev.msjvm.engine.ir.AbstractTensor[0]);
      keys[n] = new Object[types[n].length];
      for (int j = 0; j < types[n].length; j++) {
        int alias = node.op().aliasOf(j);
        keys[n][j] =
            alias >= 0 && alias < node.inputs().length
                ? keyOf(node.inputs()[alias], argKeys, keys)
                : new Object();
        meter.hold(StorageMeter.VALUE, keys[n][j], bytes(types[n][j]));
      }
      meter.mark();
      release(meter, n, keys);
    }
    List<dev.msjvm.engine.ir.AbstractTensor> results = new ArrayList<>(outputs.length);
    for (Ref r : outputs) {
      results.add(typeOf(r, args, types));
    }
    return new DryRun(List.copyOf(results), meter.memory());
  }

  /** Where a dry run keeps the value {@code r} names: the storage key it gave that value. */
  private static Object keyOf(Ref r, Object[] argKeys, Object[][] keys) {
    return switch (r) {
      case Arg a -> argKeys[a.index()];
      case Out o -> keys[o.node()][o.index()];
      case Var v -> v.variable();
      case Const c -> c.value();
    };
  }

  /**
   * After node {@code n}: its outputs nothing reads and the values whose last reader it is stop
   * holding their storage ({@code keys[m][j]}: value j of node m's storage key).
   */
  private void release(StorageMeter meter, int n, Object[][] keys) {
    for (int j = 0; j < keys[n].length; j++) {
      if (lastUse[n][j] < 0) {
        meter.drop(StorageMeter.VALUE, keys[n][j]);
      }
    }
    Ref[] refs = nodes.get(n).inputs();
    for (int i = 0; i < refs.length; i++) {
      if (refs[i] instanceof Out o
          && lastUse[o.node()][o.index()] == n
          && firstOccurrence(refs, i)) {
        meter.drop(StorageMeter.VALUE, keys[o.node()][o.index()]);
      }
    }
  }

  /** A dry run's result types and the memory a replay would hold. */
  public record DryRun(List<dev.msjvm.engine.ir.AbstractTensor> outputs, Memory memory) {
    /** {@link Memory#valuePeak}: what {@link Graph#peakBytes} would be after a replay. */
    public long peakBytes() {
      return memory.valuePeak();
    }
  }

  /**
   * The bytes one step holds at its peak ({@code peak}: the most held at once, after a node's
   * outputs exist and before any is freed) and their parts at that moment: storage variables own
   * ({@code variables}: parameters and optimizer states), the step's arguments and constants
   * ({@code inputs}), and the values it computes ({@code values}: activations kept for the
   * backward, gradients, collectives' results); and {@code valuePeak}, the most bytes of computed
   * values alive at once; {@code end}, the bytes still held when the step ends (variables, inputs,
   * results). Each storage counts once however many values share it.
   */
  public record Memory(
      long peak, long variables, long inputs, long values, long valuePeak, long end) {}

  private static long bytes(dev.msjvm.engine.ir.AbstractTensor t) {
    long n = 1;
    for (int d : t.shape().dims()) {
      n *= d;
    }
    return n * t.dtype().itemSize();
  }

  private static dev.msjvm.engine.ir.AbstractTensor typeOf(
      Ref r,
      List<dev.msjvm.engine.ir.AbstractTensor> args,
      dev.msjvm.engine.ir.AbstractTensor[][] types) {
    return switch (r) {
      case Arg a -> args.get(a.index());
      case Out o -> types[o.node()][o.index()];
      case Var v -> v.variable().type();
      case Const c -> c.value().type();
    };
  }

  /** Replays report each node to {@code l} from now on (null: to nobody). */
  void listen(NodeListener l) {
    listener = l;
  }

  /** A graph of already-built nodes (simplified like a trace's). */
  static Graph assemble(List<Node> nodes, Ref[] outputs, int arity) {
    return simplify(new ArrayList<>(nodes), outputs, arity, 0);
  }

  /**
   * A copy whose node {@code n} carries {@code extra.get(n)} in its attributes as well (a strategy
   * search's choices, read by the partitioner as {@code in_strategy}).
   */
  public Graph withAttrs(Map<Integer, Attrs> extra) {
    List<Node> copy = new ArrayList<>(nodes);
    for (Map.Entry<Integer, Attrs> e : extra.entrySet()) {
      Node node = copy.get(e.getKey());
      Attrs attrs = node.attrs();
      for (Map.Entry<String, Object> a : e.getValue().asMap().entrySet()) {
        attrs = attrs.with(a.getKey(), a.getValue());
      }
      copy.set(
          e.getKey(),
          new Node(
              node.op(), attrs, node.inputs(), node.outputs(), node.inShapes(), node.outShapes()));
    }
    return new Graph(List.copyOf(copy), outputs.clone(), arity, forwardNodes);
  }

  /** The number of leading nodes that are the forward computation (see {@link #forwardNodes}). */
  public int forwardNodes() {
    return forwardNodes;
  }

  public int size() {
    return nodes.size();
  }

  /** The names of the operators, in order (for tests and reports). */
  public List<String> opNames() {
    return nodes.stream().map(n -> n.op().name()).toList();
  }

  /**
   * Runs the graph on {@code args}; the results in the traced order.
   *
   * <p>Optimizer updates overwrite a variable's tensor in place when no value of this run that
   * shares its storage (a Load of it, a reshape of that Load...) is read at or after the updating
   * node, and nothing outside the graph holds it ({@link Variable#shared()}); otherwise they copy
   * first. Results sharing a variable's storage mark it shared. Under a recording tape every node
   * goes through the runtime's ordinary path, which copies.
   */
  public List<Tensor> run(Runtime rt, List<Tensor> args) {
    if (args.size() != arity) {
      throw MsException.valueError(
          "The graph takes " + arity + " tensor inputs, but got " + args.size() + ".");
    }
    if (rt.recording()) {
      Tensor[][] values = new Tensor[nodes.size()][];
      for (int n = 0; n < nodes.size(); n++) {
        values[n] = rt.apply(nodes.get(n).op(), nodes.get(n).attrs(), inputs(n, args, values));
      }
      return results(args, values);
    }
    if (!claimPool()) {
      return replay(rt, args, null);
    }
    try {
      return replay(rt, args, pool);
    } finally {
      synchronized (this) {
        poolUser = null;
      }
    }
  }

  private synchronized boolean claimPool() {
    if (poolUser != null) {
      return false;
    }
    poolUser = Thread.currentThread();
    return true;
  }

  /**
   * A replay outside any tape: in-place updates where {@link Liveness} allows, and, with a pool,
   * intermediates allocated from the previous replay's storage and recycled at the end.
   */
  private List<Tensor> replay(Runtime rt, List<Tensor> args, FloatPool pool) {
    Tensor[][] values = new Tensor[nodes.size()][];
    Object[][] keys = new Object[nodes.size()][];
    Liveness live = new Liveness();
    StorageMeter meter = new StorageMeter();
    Object[] owned = new Object[variables.length];
    for (int k = 0; k < variables.length; k++) {
      owned[k] = variables[k].current().storageKey();
      meter.hold(StorageMeter.VARIABLE, owned[k], bytes(variables[k].current()));
    }
    for (Tensor a : args) {
      meter.hold(StorageMeter.INPUT, a.storageKey(), bytes(a));
    }
    for (Node node : nodes) {
      for (Ref r : node.inputs()) {
        if (r instanceof Const c) {
          meter.hold(StorageMeter.INPUT, c.value().storageKey(), bytes(c.value()));
        }
      }
    }
    Set<float[]> fresh = Collections.newSetFromMap(new IdentityHashMap<>());
    try (FloatPool.Scope scope = pool == null ? null : pool.enter()) {
      NodeListener l = listener;
      for (int n = 0; n < nodes.size(); n++) {
        Object[] in = inputs(n, args, values);
        live.node = n;
        if (l != null) {
          l.started(n, System.nanoTime());
        }
        Tensor[] out = rt.apply(nodes.get(n).op(), nodes.get(n).attrs(), in, live);
        if (l != null) {
          l.finished(n, System.nanoTime());
        }
        values[n] = out;
        keys[n] = new Object[out.length];
        for (int j = 0; j < out.length; j++) {
          keys[n][j] = out[j].storageKey();
          meter.hold(StorageMeter.VALUE, keys[n][j], bytes(out[j]));
        }
        for (Ref r : nodes.get(n).inputs()) {
          if (r instanceof Var v) {
            reown(meter, owned, v.variable());
          }
        }
        meter.mark();
        release(meter, n, keys);
        live.after(n, out);
        if (pool != null) {
          noteFresh(out, in, fresh);
        }
      }
    }
    memory = meter.memory();
    List<Tensor> result = results(args, values);
    if (pool != null) {
      // What a result, an argument, a constant or a variable still holds stays out of the pool.
      for (Tensor t : result) {
        fresh.remove(t.floatStorage());
      }
      for (Tensor t : args) {
        fresh.remove(t.floatStorage());
      }
      for (Variable v : variables) {
        fresh.remove(v.current().floatStorage());
      }
      for (Node node : nodes) {
        for (Ref r : node.inputs()) {
          if (r instanceof Const c) {
            fresh.remove(c.value().floatStorage());
          }
        }
      }
      pool.recycle(fresh);
    }
    return result;
  }

  /** A variable a node may have written: the meter follows it to its new storage, if any. */
  private void reown(StorageMeter meter, Object[] owned, Variable v) {
    for (int k = 0; k < variables.length; k++) {
      if (variables[k] == v) {
        Object now = v.current().storageKey();
        if (now != owned[k]) {
          meter.hold(StorageMeter.VARIABLE, now, bytes(v.current()));
          meter.drop(StorageMeter.VARIABLE, owned[k]);
          owned[k] = now;
        }
        return;
      }
    }
  }

  /** Float storage the kernel created (not a view of one of its inputs). */
  private static void noteFresh(Tensor[] out, Object[] in, Set<float[]> fresh) {
    for (Tensor o : out) {
      float[] storage = o.floatStorage();
      if (storage == null) {
        continue;
      }
      boolean view = false;
      for (Object i : in) {
        Tensor t = i instanceof Variable v ? v.current() : (Tensor) i;
        view |= o.sharesStorage(t);
      }
      if (!view) {
        fresh.add(storage);
      }
    }
  }

  private Object[] inputs(int n, List<Tensor> args, Tensor[][] values) {
    Ref[] refs = nodes.get(n).inputs();
    Object[] in = new Object[refs.length];
    for (int i = 0; i < in.length; i++) {
      in[i] = resolve(refs[i], args, values);
    }
    return in;
  }

  private List<Tensor> results(List<Tensor> args, Tensor[][] values) {
    List<Tensor> result = new ArrayList<>(outputs.length);
    for (Ref r : outputs) {
      Object v = resolve(r, args, values);
      Tensor t = v instanceof Variable var ? var.value() : (Tensor) v;
      for (Variable var : variables) {
        if (t.sharesStorage(var.current())) {
          var.markShared();
        }
      }
      result.add(t);
    }
    return result;
  }

  /**
   * For each variable, the last node that reads a value of this run sharing the variable's current
   * storage ({@code horizon}); a node may write the storage in place only past its horizon.
   */
  private final class Liveness implements Runtime.InPlacePolicy {
    private final Tensor[] storage = new Tensor[variables.length];
    private final int[] horizon = new int[variables.length];
    private int node;

    Liveness() {
      for (int k = 0; k < variables.length; k++) {
        storage[k] = variables[k].current();
        horizon[k] = -1;
      }
    }

    @Override
    public boolean allows(Variable v) {
      for (int k = 0; k < variables.length; k++) {
        if (variables[k] == v) {
          return horizon[k] < node && storage[k].sharesStorage(v.current());
        }
      }
      return false;
    }

    void after(int n, Tensor[] outs) {
      for (int k = 0; k < variables.length; k++) {
        Tensor now = variables[k].current();
        if (!now.sharesStorage(storage[k])) {
          // New storage (a copy before writing, an Assign): nothing of this run aliases it yet.
          storage[k] = now;
          horizon[k] = -1;
        }
        for (int j = 0; j < outs.length; j++) {
          if (outs[j].sharesStorage(now)) {
            horizon[k] = Math.max(horizon[k], lastUse[n][j]);
          }
        }
      }
    }
  }

  private static Object resolve(Ref ref, List<Tensor> args, Tensor[][] values) {
    return switch (ref) {
      case Arg a -> args.get(a.index());
      case Out o -> values[o.node()][o.index()];
      case Var v -> v.variable();
      case Const c -> c.value();
    };
  }
}
