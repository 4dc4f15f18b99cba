package dev.msjvm.engine.exec;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.comm.Communicator;
import dev.msjvm.engine.exec.Graph.Node;
import dev.msjvm.engine.exec.Graph.Out;
import dev.msjvm.engine.exec.Graph.Ref;
import dev.msjvm.engine.exec.Graph.Var;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.ops.OpDef;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * One rank's part of a pipeline-parallel training step (reference §5): the nodes of its stage, in
 * the order of the pipeline schedule, with a Send after every value another stage reads and a Recv
 * before the first use of every value this stage reads from another.
 *
 * <p>Ranks are grouped as MindSpore groups them: with {@code p} stages over {@code N} ranks, stage
 * {@code s} owns world ranks {@code [s·N/p, (s+1)·N/p)}. The traced step is partitioned once for a
 * stage-sized world (every rank of every stage partitions it identically, see {@link
 * SpmdPartitioner}), so rank {@code i} of one stage holds the same slice of a tensor as rank {@code
 * i} of any other: a cross-stage edge is one Send from stage rank {@code i} to stage rank {@code
 * i}.
 *
 * <p>Order: each node belongs to a block, the forward (F) or backward (B) computation of one
 * micro-batch, by its micro label ({@link Runtime#pushLabels}). The scheduler ranks the blocks of
 * stage {@code s} of {@code p}: "gpipe" runs F0…F(m−1) then B0…B(m−1); "1f1b" runs {@code p−s−1}
 * warm-up forwards, then alternates one forward and one backward, then drains the backwards, so at
 * most {@code p−s} micro-batches are in flight. Unlabelled nodes (the optimizer, the loss sum) run
 * as soon as their inputs allow; Sends run as soon as their value exists. The order is a list
 * schedule by (block rank, trace position) that respects data edges and every variable's read/write
 * order. Sends are buffered and Recvs block; before any step runs, the schedules of all stages are
 * simulated together, and a schedule in which some Recv can never be matched is refused
 * (MindSpore's graph would hang; ours raises RuntimeError at compile).
 *
 * <p>Every replay is timed node by node ({@link Timeline}): the per-rank Chrome trace and the
 * measured bubble (the share of the step a stage spends waiting in Recv).
 */
public final class PipelineProgram {

  /** What an entry of a stage's schedule does. */
  private enum Kind {
    NODE,
    SEND,
    RECV
  }

  /**
   * One entry: a partitioned node ({@code node}), or the transfer of output {@code index} of node
   * {@code node} to/from stage {@code peer}.
   */
  private record Item(Kind kind, int node, int index, int peer) {}

  private static final int UNSET = Integer.MAX_VALUE;

  private final List<Node> local;

  /** The most outputs of a node: Send/Recv tags are {@code node * tagStride + output}. */
  private final int tagStride;

  private final int[] origins;
  private final PipelineStages colours;
  private final int forwardNodes;
  private final Ref[] outputs;
  private final int stages;
  private final int micro;
  private final int chunks;
  private final String scheduler;
  private final int arity;
  private final boolean broadcastResults;

  /** needs.get(t): the (node, output) pairs stage t reads but does not compute. */
  private final List<Set<Long>> needs = new ArrayList<>();

  private PipelineProgram(
      Graph global,
      PipelineStages colours,
      SpmdPartitioner.Result part,
      String scheduler,
      boolean broadcastResults) {
    this.broadcastResults = broadcastResults;
    this.local = part.graph().nodes();
    int widest = 1;
    for (Node n : local) {
      widest = Math.max(widest, n.outputs());
    }
    this.tagStride = widest;
    this.origins = part.origins();
    this.colours = colours;
    this.forwardNodes = global.forwardNodes();
    this.outputs = part.graph().outputRefs();
    this.stages = colours.stages();
    this.micro = colours.microBatches();
    this.chunks = colours.chunks();
    this.scheduler = scheduler;
    this.arity = part.graph().arity();
  }

  /** The built program of one rank: its graph, the schedule report and the timeline recorder. */
  public record Result(Graph graph, List<String> plan, Timeline timeline) {}

  /**
   * The program of {@code job}'s rank: {@code part} is the whole step partitioned for a world of
   * {@code job.size() / stages} ranks (this rank's stage), {@code colours} the global graph's
   * stages. {@code scheduler}: "1f1b" or "gpipe". {@code broadcastResults}: MindSpore's {@code
   * pipeline_result_broadcast}, every stage receives the step's results from the stage computing
   * them; otherwise, as MindSpore's {@code GetZeroOutputs}, a result another stage computes is
   * zeros here (the loss of a first-stage rank).
   */
  public static Result build(
      Graph global,
      PipelineStages colours,
      SpmdPartitioner.Result part,
      Communicator job,
      String scheduler,
      boolean broadcastResults) {
    if (!scheduler.equals("1f1b") && !scheduler.equals("gpipe")) {
      throw MsException.valueError(
          "The pipeline scheduler '" + scheduler + "' is not supported; use '1f1b' or 'gpipe'.");
    }
    int p = colours.stages();
    if (job.size() % p != 0) {
      throw MsException.runtimeError(
          "The device num " + job.size() + " must be divisible by the pipeline stages " + p);
    }
    PipelineProgram prog = new PipelineProgram(global, colours, part, scheduler, broadcastResults);
    prog.findNeeds();
    List<List<Item>> orders = new ArrayList<>();
    List<List<Item>> lists = new ArrayList<>();
    for (int u = 0; u < p; u++) {
      List<Item> items = prog.items(u);
      lists.add(items);
      orders.add(prog.schedule(u, items));
    }
    prog.checkNoDeadlock(orders);
    int per = job.size() / p;
    int s = job.rank() / per;
    return prog.assemble(orders.get(s), job, per, s);
  }

  private boolean keep(int stage, int localNode) {
    return colours.runsOn(origins[localNode], stage);
  }

  private int owner(int localNode) {
    return colours.stage(origins[localNode]);
  }

  private static long key(int node, int index) {
    return ((long) node << 16) | index;
  }

  private void findNeeds() {
    for (int t = 0; t < stages; t++) {
      Set<Long> need = new HashSet<>();
      for (int k = 0; k < local.size(); k++) {
        if (!keep(t, k)) {
          continue;
        }
        for (Ref r : local.get(k).inputs()) {
          if (r instanceof Out o && !keep(t, o.node())) {
            need.add(key(o.node(), o.index()));
          }
        }
      }
      for (Ref r : outputs) {
        if (broadcastResults && r instanceof Out o && !keep(t, o.node())) {
          need.add(key(o.node(), o.index()));
        }
      }
      needs.add(need);
    }
  }

  /** Stage {@code u}'s entries in trace order: Recvs before first use, Sends after production. */
  private List<Item> items(int u) {
    List<Item> items = new ArrayList<>();
    Set<Long> received = new HashSet<>();
    for (int k = 0; k < local.size(); k++) {
      if (!keep(u, k)) {
        continue;
      }
      Node node = local.get(k);
      for (Ref r : node.inputs()) {
        if (r instanceof Out o && !keep(u, o.node()) && received.add(key(o.node(), o.index()))) {
          items.add(new Item(Kind.RECV, o.node(), o.index(), owner(o.node())));
        }
      }
      items.add(new Item(Kind.NODE, k, -1, -1));
      if (node.outputs() > 0xffff) {
        throw MsException.runtimeError(
            "A pipeline node has more than 65535 outputs: " + node.op().name());
      }
      for (int j = 0; j < node.outputs(); j++) {
        for (int t = 0; t < stages; t++) {
          if (t != u && owner(k) == u && needs.get(t).contains(key(k, j))) {
            items.add(new Item(Kind.SEND, k, j, t));
          }
        }
      }
    }
    for (Ref r : outputs) {
      if (broadcastResults
          && r instanceof Out o
          && !keep(u, o.node())
          && received.add(key(o.node(), o.index()))) {
        items.add(new Item(Kind.RECV, o.node(), o.index(), owner(o.node())));
      }
    }
    return items;
  }

  /**
   * The blocks of stage {@code u} in schedule order, as {@code (micro·chunks + chunk)·2 + (backward
   * ? 1 : 0)}.
   */
  List<Integer> blockOrder(int u) {
    return blockOrder(scheduler, stages, micro, chunks, u);
  }

  /** {@link #blockOrder(String, int, int, int, int)} without chunks. */
  static List<Integer> blockOrder(String scheduler, int p, int m, int u) {
    return blockOrder(scheduler, p, m, 1, u);
  }

  /**
   * The F/B blocks of stage {@code u} of {@code p} over {@code m} micro-batches and {@code v}
   * chunks, in order. Without chunks: "gpipe" F0..F(m-1) then B0..B(m-1); "1f1b" MindSpore's
   * warm-up of p−u forwards, then one forward and one backward. With chunks (an interleaved
   * pipeline, Megatron's schedule, which MindSpore's InterleavedScheduler follows): the forward
   * units go by groups of p micro-batches, chunk by chunk, the backward units the same with the
   * chunks reversed; 1F1B warms up with (p−u−1)·2 + (v−1)·p forwards.
   */
  static List<Integer> blockOrder(String scheduler, int p, int m, int v, int u) {
    List<Integer> forward = new ArrayList<>();
    List<Integer> backward = new ArrayList<>();
    for (int g = 0; g < m; g += p) {
      int size = Math.min(p, m - g);
      for (int c = 0; c < v; c++) {
        for (int i = 0; i < size; i++) {
          forward.add(((g + i) * v + c) * 2);
          backward.add(((g + i) * v + (v - 1 - c)) * 2 + 1);
        }
      }
    }
    if (v == 1) {
      // Plain pipelines: backwards in micro-batch order.
      backward.sort(null);
    }
    List<Integer> order = new ArrayList<>();
    if (scheduler.equals("gpipe")) {
      order.addAll(forward);
      order.addAll(backward);
      return order;
    }
    int units = m * v;
    int warm = Math.min(v == 1 ? p - u - 1 : (p - u - 1) * 2 + (v - 1) * p, units);
    for (int i = 0; i < warm; i++) {
      order.add(forward.get(i));
    }
    for (int i = 0; i < units - warm; i++) {
      order.add(forward.get(warm + i));
      order.add(backward.get(i));
    }
    for (int i = units - warm; i < units; i++) {
      order.add(backward.get(i));
    }
    return order;
  }

  /** The block of a partitioned node: {@code micro * 2 + backward}, or -1 outside micro-batches. */
  private int blockOf(int localNode) {
    int n = origins[localNode];
    int m = colours.micro(n);
    return m < 0 ? -1 : (m * chunks + colours.chunk(n)) * 2 + (n >= forwardNodes ? 1 : 0);
  }

  /** The list schedule of stage {@code u}'s entries. */
  private List<Item> schedule(int u, List<Item> items) {
    int size = items.size();
    int[] rank = new int[2 * micro * chunks];
    List<Integer> blocks = blockOrder(u);
    for (int i = 0; i < blocks.size(); i++) {
      rank[blocks.get(i)] = i;
    }
    Map<Long, Integer> producer = new HashMap<>();
    Map<Integer, Integer> nodeItem = new HashMap<>();
    List<List<Integer>> preds = new ArrayList<>();
    List<List<Integer>> succs = new ArrayList<>();
    Map<Variable, Integer> lastWriter = new IdentityHashMap<>();
    Map<Variable, List<Integer>> readers = new IdentityHashMap<>();
    for (int i = 0; i < size; i++) {
      preds.add(new ArrayList<>());
      succs.add(new ArrayList<>());
    }
    for (int i = 0; i < size; i++) {
      Item it = items.get(i);
      List<Integer> pre = preds.get(i);
      switch (it.kind()) {
        case RECV -> producer.put(key(it.node(), it.index()), i);
        case SEND -> pre.add(producerOf(it.node(), it.index(), producer, nodeItem));
        case NODE -> {
          Node node = local.get(it.node());
          for (int a = 0; a < node.inputs().length; a++) {
            Ref r = node.inputs()[a];
            if (r instanceof Out o) {
              pre.add(producerOf(o.node(), o.index(), producer, nodeItem));
            } else if (r instanceof Var v) {
              Variable var = v.variable();
              Integer w = lastWriter.get(var);
              if (w != null) {
                pre.add(w);
              }
              if (node.op().writes(a)) {
                pre.addAll(readers.getOrDefault(var, List.of()));
                lastWriter.put(var, i);
                readers.put(var, new ArrayList<>());
              } else {
                readers.computeIfAbsent(var, x -> new ArrayList<>()).add(i);
              }
            }
          }
          nodeItem.put(it.node(), i);
        }
      }
      int self = i;
      pre.removeIf(x -> x == self);
      for (int q : pre) {
        succs.get(q).add(i);
      }
    }
    int[] prio = new int[size];
    for (int i = 0; i < size; i++) {
      Item it = items.get(i);
      prio[i] =
          switch (it.kind()) {
            case SEND -> Integer.MIN_VALUE;
            case RECV -> UNSET;
            case NODE -> {
              int b = blockOf(it.node());
              if (b >= 0) {
                yield rank[b];
              }
              int from = UNSET;
              for (int q : preds.get(i)) {
                if (prio[q] != UNSET && prio[q] != Integer.MIN_VALUE) {
                  from = from == UNSET ? prio[q] : Math.max(from, prio[q]);
                }
              }
              yield from;
            }
          };
    }
    for (int i = size - 1; i >= 0; i--) {
      if (prio[i] == UNSET) {
        int min = UNSET;
        for (int q : succs.get(i)) {
          if (prio[q] != Integer.MIN_VALUE) {
            min = Math.min(min, prio[q]);
          }
        }
        prio[i] = min == UNSET ? blocks.size() : min;
      }
    }
    int[] waiting = new int[size];
    PriorityQueue<Integer> ready =
        new PriorityQueue<>(
            (a, b) ->
                prio[a] != prio[b] ? Integer.compare(prio[a], prio[b]) : Integer.compare(a, b));
    for (int i = 0; i < size; i++) {
      waiting[i] = (int) preds.get(i).stream().distinct().count();
      if (waiting[i] == 0) {
        ready.add(i);
      }
    }
    for (int i = 0; i < size; i++) {
      List<Integer> distinct = succs.get(i).stream().distinct().toList();
      succs.set(i, distinct);
    }
    List<Item> order = new ArrayList<>(size);
    while (!ready.isEmpty()) {
      int i = ready.poll();
      order.add(items.get(i));
      for (int q : succs.get(i)) {
        if (--waiting[q] == 0) {
          ready.add(q);
        }
      }
    }
    if (order.size() != size) {
      throw MsException.runtimeError(
          "Pipeline scheduling: stage " + u + " has a dependency cycle.");
    }
    return order;
  }

  private static int producerOf(
      int node, int index, Map<Long, Integer> producer, Map<Integer, Integer> nodeItem) {
    Integer recv = producer.get(key(node, index));
    if (recv != null) {
      return recv;
    }
    Integer made = nodeItem.get(node);
    if (made == null) {
      throw new IllegalStateException("node " + node + " used before it is scheduled");
    }
    return made;
  }

  /**
   * Runs every stage's order against the others with buffered Sends and blocking Recvs; throws if
   * the stages would wait on each other forever.
   */
  private void checkNoDeadlock(List<List<Item>> orders) {
    Set<List<Integer>> sent = new HashSet<>();
    int[] at = new int[stages];
    boolean progress = true;
    while (progress) {
      progress = false;
      for (int u = 0; u < stages; u++) {
        List<Item> order = orders.get(u);
        while (at[u] < order.size()) {
          Item it = order.get(at[u]);
          if (it.kind() == Kind.RECV
              && !sent.contains(List.of(it.node(), it.index(), it.peer(), u))) {
            break;
          }
          if (it.kind() == Kind.SEND) {
            sent.add(List.of(it.node(), it.index(), u, it.peer()));
          }
          at[u]++;
          progress = true;
        }
      }
    }
    for (int u = 0; u < stages; u++) {
      if (at[u] < orders.get(u).size()) {
        Item it = orders.get(u).get(at[u]);
        throw MsException.runtimeError(
            "The pipeline schedule '"
                + scheduler
                + "' cannot run this graph: stage "
                + u
                + " would wait forever for "
                + local.get(it.node()).op().name()
                + " from stage "
                + it.peer()
                + ".");
      }
    }
  }

  private Result assemble(List<Item> order, Communicator job, int per, int s) {
    int li = job.rank() % per;
    Map<Long, Ref> value = new HashMap<>();
    List<Node> nodes = new ArrayList<>(order.size());
    String[] labels = new String[order.size()];
    int[] blockOfNode = new int[order.size()];
    int sends = 0;
    int recvs = 0;
    long bytesOut = 0;
    for (Item it : order) {
      int id = nodes.size();
      Node src = local.get(it.node());
      switch (it.kind()) {
        case NODE -> {
          Ref[] in = src.inputs().clone();
          for (int a = 0; a < in.length; a++) {
            if (in[a] instanceof Out o) {
              in[a] = value.get(key(o.node(), o.index()));
            }
          }
          nodes.add(src.with(in));
          for (int j = 0; j < src.outputs(); j++) {
            value.put(key(it.node(), j), new Out(id, j));
          }
          int b = blockOf(it.node());
          blockOfNode[id] = b;
          labels[id] = b < 0 ? "step" : blockName(b);
        }
        case SEND -> {
          Shape shape = src.outShapes()[it.index()];
          int dst = it.peer() * per + li;
          nodes.add(
              new Node(
                  send(job, dst, tag(it)),
                  Attrs.of("dst", dst),
                  new Ref[] {value.get(key(it.node(), it.index()))},
                  1,
                  new Shape[] {shape},
                  new Shape[] {shape}));
          blockOfNode[id] = -1;
          labels[id] = "send";
          sends++;
          bytesOut += 4L * shape.size();
        }
        case RECV -> {
          Shape shape = src.outShapes()[it.index()];
          int from = it.peer() * per + li;
          nodes.add(
              new Node(
                  recv(job, from, tag(it), shape),
                  Attrs.of("src", from),
                  new Ref[0],
                  1,
                  new Shape[0],
                  new Shape[] {shape}));
          value.put(key(it.node(), it.index()), new Out(id, 0));
          blockOfNode[id] = -1;
          labels[id] = "recv";
          recvs++;
        }
      }
    }
    Ref[] outs = outputs.clone();
    for (int i = 0; i < outs.length; i++) {
      if (outs[i] instanceof Out o) {
        Ref mine = value.get(key(o.node(), o.index()));
        outs[i] =
            mine != null
                ? mine
                : new Graph.Const(
                    Tensor.zeros(DType.FLOAT32, local.get(o.node()).outShapes()[o.index()]));
      }
    }
    Graph graph = Graph.sequence(nodes, outs, arity, 0);
    List<String> plan = new ArrayList<>();
    plan.add(
        "pipeline: stage "
            + s
            + " of "
            + stages
            + " (world ranks "
            + s * per
            + ".."
            + (s * per + per - 1)
            + "), "
            + micro
            + " micro-batches, scheduler "
            + scheduler);
    StringBuilder b = new StringBuilder("  block order:");
    for (int blk : blockOrder(s)) {
      b.append(' ').append(blockName(blk));
    }
    plan.add(b.toString());
    plan.add(
        "  "
            + nodes.size()
            + " nodes ("
            + sends
            + " Send, "
            + recvs
            + " Recv, "
            + bytesOut
            + " bytes sent per step), peak in-flight micro-batches "
            + peakInFlight(blockOrder(s), chunks));
    Timeline timeline =
        new Timeline(job.rank(), s, stages, micro, chunks, scheduler, labels, blockOfNode);
    graph.listen(timeline);
    return new Result(graph, plan, timeline);
  }

  /** "F3", "B0", or with chunks "F3c1". */
  private String blockName(int block) {
    int unit = block / 2;
    return (block % 2 == 0 ? "F" : "B")
        + (unit / chunks)
        + (chunks > 1 ? "c" + (unit % chunks) : "");
  }

  /** Micro-batches whose forward has started and whose backward has not finished, at most. */
  static int peakInFlight(List<Integer> blocks) {
    return peakInFlight(blocks, 1);
  }

  /**
   * Micro-batches between their first forward block and their last backward block, at most ({@code
   * chunks} blocks of each direction per micro-batch).
   */
  static int peakInFlight(List<Integer> blocks, int chunks) {
    java.util.Map<Integer, Integer> backwardsLeft = new java.util.HashMap<>();
    int live = 0;
    int peak = 0;
    for (int b : blocks) {
      int m = b / 2 / chunks;
      if (b % 2 == 0) {
        if (!backwardsLeft.containsKey(m)) {
          backwardsLeft.put(m, chunks);
          peak = Math.max(peak, ++live);
        }
      } else if (backwardsLeft.merge(m, -1, Integer::sum) == 0) {
        live--;
      }
    }
    return peak;
  }

  /**
   * The message tag of a Send/Recv pair: the producing node and output, numbered alike on every
   * stage (the stages' programs are node for node the same), as {@code node * tagStride + output}.
   */
  private int tag(Item it) {
    long tag = (long) it.node() * tagStride + it.index();
    if (tag > Integer.MAX_VALUE) {
      throw MsException.runtimeError(
          "A pipelined program of " + local.size() + " nodes has too many outputs to tag");
    }
    return (int) tag;
  }

  /** Sends its input (as float32 plus its dtype code) to world rank {@code dst}; returns it. */
  private static OpDef send(Communicator job, int dst, int tag) {
    return new OpDef(
            "Send",
            c -> {
              Tensor x = c.in(0);
              Tensor f = x.dtype() == DType.FLOAT32 ? x : x.astype(DType.FLOAT32);
              float[] buf = Arrays.copyOf(f.floats(), f.size() + 1);
              buf[f.size()] = x.dtype().ordinal();
              job.send(buf, dst, tag, job.worldGroup());
              return new Tensor[] {x};
            },
            null,
            true,
            List.of())
        .aliases(0);
  }

  /** Receives a tensor of {@code shape} that {@link #send} sent from world rank {@code src}. */
  private static OpDef recv(Communicator job, int src, int tag, Shape shape) {
    int n = (int) shape.size();
    return new OpDef(
        "Receive",
        c -> {
          float[] buf = new float[n + 1];
          job.recv(buf, src, tag, job.worldGroup());
          DType dtype = DType.values()[(int) buf[n]];
          Tensor t = Tensor.ofFloats(shape, Arrays.copyOf(buf, n));
          return new Tensor[] {dtype == DType.FLOAT32 ? t : t.astype(dtype)};
        },
        null,
        true,
        List.of());
  }
}
