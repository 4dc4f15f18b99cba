package dev.msjvm.engine.parallel.search;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.ops.CostRole;
import dev.msjvm.engine.ops.OpDef;
import dev.msjvm.engine.ops.OpTable;
import dev.msjvm.engine.parallel.TensorLayout;
import dev.msjvm.engine.parallel.rules.EinsumSpec;
import dev.msjvm.engine.parallel.rules.Rules;
import dev.msjvm.engine.parallel.rules.ShardingException;
import dev.msjvm.engine.parallel.rules.ShardingRule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code recursive_programming}: MindSpore's symbolic automatic parallel planner (SAPP, {@code
 * rec_core/}, reference §3.2) over the operator rules.
 *
 * <p>The machine is cut in two {@code log2(devices)} times. In each cut every operator, taken in
 * reverse topological order (the graph's output side first, MindSpore's {@code TopologyOrder}),
 * halves one of its dimensions (a letter of its rule) or none, choosing the cheapest by its own
 * cost plus a redistribution penalty: for each neighbour already decided in this cut that shares a
 * tensor with it, if the two halve that tensor differently, the tensor's current slice size times
 * {@link #REDIS_COEF}. Costs per operator ({@code rec_cost.cc}), with {@code i, j, k} the current
 * slice extents of a MatMul's rows, columns and reduction:
 *
 * <ul>
 *   <li>MatMul and BatchMatMul: cut i {@code j·k/2·rp_matmul_mem_coef}, cut j {@code i·k/2}, cut k
 *       {@code i·j/2}, no cut {@code m²/350} with {@code m} the least of those three; a batch
 *       letter costs nothing to cut (MindSpore's BatchMatMul weighs it by Ascend cores);
 *   <li>batch-parallel operators (softmaxes, losses, OneHot, BatchNorm...): the first dimension
 *       that can be halved, at constant cost;
 *   <li>every other operator: any dimension, at no cost of its own (the penalty decides; ties: the
 *       earlier dimension), except a reduced dimension, whose partial output costs its slice size
 *       times {@link #REDIS_COEF} (MindSpore eliminates reductions before the cuts and never weighs
 *       their AllReduce).
 * </ul>
 *
 * A dimension can be halved while its current extent is even. Dataset inputs and operators with a
 * user strategy are fixed: each cut they halve the dimensions their layout splits, first dimension
 * first (MindSpore only honours user strategies with {@code MS_INTERFERED_SAPP=1}; here they always
 * hold). Parameters follow their users. The final strategy of each operator is its per-dimension
 * cut count; one the operator refuses becomes its default batch strategy.
 *
 * <p>Linear in the number of operators per cut: a 10,000-operator graph on 1,024 devices takes ten
 * passes over the graph.
 */
public final class RecursiveProgramming {

  static final double REDIS_COEF = 16;
  static final double REPLICATE_BELOW = 350;
  static final int MAX_DEVICES = 1024;

  /** One operator (or fixed node) as the planner sees it. */
  private static final class Op {
    final OpGraph.Node node;
    final EinsumSpec spec;
    final String letters; // the splittable letters, in the order a tie prefers them
    final int[] size; // per letter
    final int[] split; // per letter, cuts so far (a power of 2)
    final int[] fixedMoves; // fixed nodes: the letter each cut halves, -1 none
    final boolean fixed;
    final CostRole role; // SAPP's operator type: the operator's declared cost role
    int move = -2; // this cut: the letter index halved, -1 none, -2 undecided

    Op(OpGraph.Node node, EinsumSpec spec, String letters, int[] size, int[] fixedMoves) {
      this.node = node;
      OpDef def = OpTable.find(node.name());
      this.role = def == null ? CostRole.GENERAL : def.costRole();
      this.spec = spec;
      this.letters = letters;
      this.size = size;
      this.split = new int[size.length];
      Arrays.fill(split, 1);
      this.fixedMoves = fixedMoves;
      this.fixed = fixedMoves != null;
    }

    /** Letters of input {@code i} (real inputs) or, for i = -1 - o, of output o. */
    String tensor(int i) {
      return i >= 0 ? spec.layouts().get(i) : spec.outputs().get(-1 - i);
    }
  }

  private final OpGraph graph;
  private final double matmulMemCoef;
  private final Op[] ops;
  private final List<List<int[]>> users = new ArrayList<>(); // per node: {user, input}
  private final java.util.Map<List<Object>, List<List<Integer>>> validated =
      new java.util.HashMap<>();
  private final java.util.Map<List<Object>, EinsumSpec> specs = new java.util.HashMap<>();

  private RecursiveProgramming(OpGraph graph, double matmulMemCoef) {
    this.graph = graph;
    this.matmulMemCoef = matmulMemCoef;
    int n = graph.nodes().size();
    ops = new Op[n];
    for (int v = 0; v < n; v++) {
      users.add(new ArrayList<>());
    }
    for (int v = 0; v < n; v++) {
      OpGraph.Node node = graph.nodes().get(v);
      for (int i = 0; i < node.inputs().size(); i++) {
        OpGraph.Src s = node.inputs().get(i);
        if (s != null) {
          users.get(s.node()).add(new int[] {v, i});
        }
      }
      ops[v] = build(node);
    }
  }

  /**
   * The strategy of every operator node of {@code g} without a user strategy (null for the other
   * nodes); MatMul's cut-i cost is weighed by the model's {@code rp_matmul_mem_coef}.
   */
  public static List<List<List<Integer>>> solve(OpGraph g, CostModel model) {
    int n = g.devices();
    if (Integer.bitCount(n) != 1) {
      throw MsException.runtimeError(
          "The recursive auto parallel strategy searching mode requires the device num be the "
              + "power of 2.");
    }
    if (n > MAX_DEVICES) {
      throw MsException.runtimeError("ERROR: Number of devices can't be larger than 1024.");
    }
    RecursiveProgramming rp = new RecursiveProgramming(g, model.rpMatmulMemCoef());
    int cuts = Integer.numberOfTrailingZeros(n);
    for (int level = 0; level < cuts; level++) {
      rp.cut(level);
    }
    return rp.strategies();
  }

  private Op build(OpGraph.Node node) {
    int n = graph.devices();
    int cuts = Integer.numberOfTrailingZeros(n);
    if (node.kind() == OpGraph.Kind.PARAM) {
      return null;
    }
    if (node.kind() == OpGraph.Kind.DATA) {
      TensorLayout l = node.fixed();
      StringBuilder letters = new StringBuilder();
      int[] size = new int[l.rank()];
      for (int d = 0; d < l.rank(); d++) {
        letters.append((char) ('a' + d));
        size[d] = l.shape().dim(d);
      }
      EinsumSpec spec = EinsumSpec.parse(letters + "->" + letters);
      return new Op(node, spec, letters.toString(), size, moves(l.strategy(), cuts));
    }
    ShardingRule rule = Rules.of(node.name());
    EinsumSpec spec =
        specs.computeIfAbsent(
            List.of(node.name(), node.attrs(), node.inShapes()),
            k -> rule.specFor(node.attrs(), node.inShapes()));
    StringBuilder letters = new StringBuilder();
    List<Integer> sizes = new ArrayList<>();
    for (int i = 0; i < spec.layouts().size(); i++) {
      String t = spec.layouts().get(i);
      for (int d = 0; d < t.length(); d++) {
        char c = t.charAt(d);
        if (spec.splittable(c) && letters.indexOf(String.valueOf(c)) < 0) {
          letters.append(c);
          sizes.add(node.inShapes().get(i).dim(d));
        }
      }
    }
    int[] size = sizes.stream().mapToInt(Integer::intValue).toArray();
    int[] fixedMoves = null;
    if (node.isConfigured()) {
      List<List<Integer>> strategy = configuredStrategy(node, rule);
      int[] perLetter = new int[size.length];
      Arrays.fill(perLetter, 1);
      if (strategy != null) {
        for (int i = 0; i < strategy.size() && i < spec.inputs().size(); i++) {
          String t = spec.inputs().get(i);
          for (int d = 0; d < t.length(); d++) {
            int li = letters.indexOf(String.valueOf(t.charAt(d)));
            if (li >= 0) {
              perLetter[li] = strategy.get(i).get(d);
            }
          }
        }
      }
      List<Integer> counts = new ArrayList<>();
      for (int s : perLetter) {
        counts.add(s);
      }
      fixedMoves = moves(counts, cuts);
    }
    return new Op(node, spec, letters.toString(), size, fixedMoves);
  }

  private static List<List<Integer>> configuredStrategy(OpGraph.Node node, ShardingRule rule) {
    if (node.configured() != null) {
      return node.configured();
    }
    Object s = node.attrs().get("in_strategy");
    if (!(s instanceof List<?> rows)) {
      return null; // a Layout strategy: the planner treats the op as fixed but unsplit
    }
    List<List<Integer>> out = new ArrayList<>();
    for (Object row : rows) {
      out.add(((List<?>) row).stream().map(v -> ((Number) v).intValue()).toList());
    }
    return out;
  }

  /** The letter each cut halves for a fixed split per letter: first letter first. */
  private static int[] moves(List<Integer> counts, int cuts) {
    int[] out = new int[cuts];
    Arrays.fill(out, -1);
    int level = 0;
    for (int l = 0; l < counts.size(); l++) {
      for (int c = counts.get(l); c > 1 && level < cuts; c /= 2) {
        out[level++] = l;
      }
    }
    return out;
  }

  private void cut(int level) {
    for (Op op : ops) {
      if (op != null) {
        op.move = op.fixed ? op.fixedMoves[level] : -2;
      }
    }
    for (int v = ops.length - 1; v >= 0; v--) {
      Op op = ops[v];
      if (op == null || op.fixed) {
        continue;
      }
      op.move = choose(v, op);
    }
    for (Op op : ops) {
      if (op != null && op.move >= 0) {
        op.split[op.move] *= 2;
      }
    }
  }

  private boolean canHalve(Op op, int l) {
    int extent = op.size[l] / op.split[l];
    return extent >= 2 && extent % 2 == 0;
  }

  private int choose(int v, Op op) {
    int letters = op.letters.length();
    double[] cost = new double[letters + 1]; // the last: no cut
    Arrays.fill(cost, Double.MAX_VALUE);
    if (op.role == CostRole.MATMUL) {
      matmulCosts(op, cost);
    } else if (op.role == CostRole.BATCH_PARALLEL || op.role == CostRole.SOFTMAX) {
      for (int l = 0; l < letters; l++) {
        if (canHalve(op, l)) {
          cost[l] = 0;
          break;
        }
      }
    } else {
      for (int l = 0; l < letters; l++) {
        if (canHalve(op, l)) {
          cost[l] = contracted(op, l) ? sliceSize(op, op.tensor(-1)) * REDIS_COEF : 0;
        }
      }
    }
    boolean any = false;
    for (int l = 0; l < letters; l++) {
      any |= cost[l] < Double.MAX_VALUE;
    }
    if (!any) {
      return -1;
    }
    int best = -1;
    double bestCost = Double.MAX_VALUE;
    for (int m = 0; m <= letters; m++) {
      if (cost[m] == Double.MAX_VALUE) {
        continue;
      }
      int move = m == letters ? -1 : m;
      double c = cost[m] + redistribution(v, op, move);
      if (c < bestCost) {
        bestCost = c;
        best = move;
      }
    }
    return best;
  }

  /**
   * Whether halving letter {@code l} leaves output 0 partial (a reduced dimension: the output then
   * needs an AllReduce, which SAPP's eliminated reductions never pay for; here it costs like a
   * redistribution of the output).
   */
  private static boolean contracted(Op op, int l) {
    return !op.spec.outputs().isEmpty()
        && op.spec.outputs().get(0).indexOf(op.letters.charAt(l)) < 0
        && op.spec.reduce().containsKey(op.letters.charAt(l));
  }

  /** {@code CostMatMul::GetOptimalStr}'s own costs, by letter role. */
  private void matmulCosts(Op op, double[] cost) {
    String a = op.spec.layouts().get(0);
    String b = op.spec.layouts().get(1);
    String out = op.spec.outputs().get(0);
    double ei = 1;
    double ej = 1;
    double ek = 1;
    int li = -1;
    int lj = -1;
    int lk = -1;
    for (int l = 0; l < op.letters.length(); l++) {
      char c = op.letters.charAt(l);
      double extent = (double) op.size[l] / op.split[l];
      boolean inA = a.indexOf(c) >= 0;
      boolean inB = b.indexOf(c) >= 0;
      boolean inOut = out.indexOf(c) >= 0;
      if (inA && inB && inOut) {
        cost[l] = canHalve(op, l) ? 0 : Double.MAX_VALUE; // a batch letter
      } else if (inA && inOut) {
        li = l;
        ei = extent;
      } else if (inB && inOut) {
        lj = l;
        ej = extent;
      } else if (inA && inB) {
        lk = l;
        ek = extent;
      }
    }
    double ci = ej * ek / 2 * matmulMemCoef;
    double cj = ei * ek / 2;
    double ck = ei * ej / 2;
    if (li >= 0 && canHalve(op, li)) {
      cost[li] = ci;
    }
    if (lj >= 0 && canHalve(op, lj)) {
      cost[lj] = cj;
    }
    if (lk >= 0 && canHalve(op, lk)) {
      cost[lk] = ck;
    }
    double min = Math.min(ci, Math.min(cj, ck));
    cost[op.letters.length()] = min * min / REPLICATE_BELOW;
  }

  /**
   * {@code CostRedis}: for each neighbour decided in this cut that shares a tensor with {@code v},
   * the tensor's current slice size times {@link #REDIS_COEF} if they halve it differently.
   */
  private double redistribution(int v, Op op, int move) {
    double cost = 0;
    OpGraph.Node node = op.node;
    for (int i = 0; i < node.inputs().size(); i++) {
      OpGraph.Src s = node.inputs().get(i);
      if (s == null || ops[s.node()] == null || ops[s.node()].move == -2) {
        continue;
      }
      Op producer = ops[s.node()];
      if (!Arrays.equals(
          halving(op, op.tensor(i), move),
          halving(producer, producer.tensor(-1 - s.output()), producer.move))) {
        cost += sliceSize(op, op.tensor(i)) * REDIS_COEF;
      }
    }
    for (int[] use : users.get(v)) {
      Op user = ops[use[0]];
      if (user == null || user.move == -2) {
        continue;
      }
      OpGraph.Src s = graph.nodes().get(use[0]).inputs().get(use[1]);
      String mine = op.tensor(-1 - s.output());
      if (!Arrays.equals(halving(op, mine, move), halving(user, user.tensor(use[1]), user.move))) {
        cost += sliceSize(op, mine) * REDIS_COEF;
      }
    }
    return cost;
  }

  /** Which dimensions of a tensor (given by its letters) a move halves. */
  private static boolean[] halving(Op op, String tensorLetters, int move) {
    boolean[] out = new boolean[tensorLetters.length()];
    if (move >= 0) {
      char c = op.letters.charAt(move);
      int d = tensorLetters.indexOf(c);
      if (d >= 0) {
        out[d] = true;
      }
    }
    return out;
  }

  private static double sliceSize(Op op, String tensorLetters) {
    double size = 1;
    for (char c : tensorLetters.toCharArray()) {
      int l = op.letters.indexOf(c);
      if (l >= 0) {
        size *= (double) op.size[l] / op.split[l];
      }
    }
    return size;
  }

  private List<List<List<Integer>>> strategies() {
    List<List<List<Integer>>> out = new ArrayList<>();
    for (Op op : ops) {
      if (op == null || op.node.kind() != OpGraph.Kind.OP || op.fixed) {
        out.add(null);
        continue;
      }
      List<List<Integer>> strategy = new ArrayList<>();
      for (String t : op.spec.inputs()) {
        List<Integer> s = new ArrayList<>();
        for (char c : t.toCharArray()) {
          int l = op.letters.indexOf(c);
          s.add(l >= 0 ? op.split[l] : 1);
        }
        strategy.add(List.copyOf(s));
      }
      out.add(valid(op.node, strategy));
    }
    return out;
  }

  /**
   * {@code strategy} if the operator accepts it, else its default strategy; answers are cached by
   * operator, attributes, shapes and strategy (repeated layers ask the same question).
   */
  private List<List<Integer>> valid(OpGraph.Node node, List<List<Integer>> strategy) {
    List<Object> key = List.of(node.name(), node.attrs(), node.inShapes(), strategy);
    return validated.computeIfAbsent(
        key,
        k -> {
          ShardingRule rule = Rules.of(node.name());
          List<Shape> shapes = node.inShapes();
          Attrs attrs = node.attrs();
          int n = graph.devices();
          try {
            rule.shard(attrs, shapes, strategy, n);
            return strategy;
          } catch (ShardingException e) {
            return rule.defaultStrategy(attrs, shapes, n);
          }
        });
  }
}
