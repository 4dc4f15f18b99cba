package dev.msjvm.engine.exec;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ops.Attrs;
import java.util.TreeSet;

/**
 * The pipeline stage of every node of a traced training step, coloured as MindSpore's {@code
 * PipelineTransformer::Coloring} does (reference §5.1): a node recorded inside a cell with a {@code
 * pipeline_stage} carries that stage (its gradient operators carry it too, see {@link
 * Runtime#pushLabels}); any other node takes the largest stage among its producers (0 without one),
 * so data flows from lower to higher stages. A node that reads no other stage-carrying node (a
 * parameter's Load outside every staged cell, a constant, the micro-batch slice of an input) is
 * <em>floating</em>: it runs on every stage that consumes it (on all stages if none does), which is
 * how MindSpore gives each stage its own copy of a parameter read or a constant. In inference a
 * parameter's Load floats even inside a staged cell: each stage reading the parameter uses its own
 * copy (a tied embedding), which MindSpore sends from the lowest stage only when training; in
 * training such a parameter's Loads all run on the lowest stage reading it, which sends the value
 * to the others, and its update and the sum of its gradient run there too ({@link
 * #placeSharedUpdates}). MindSpore's errors: a labelled node reading from a higher stage ("The
 * stage setting is incorrect. PreNode's stage:... is larger than NextNode's stage:..."), a stage
 * count other than the configured one ("Stage num is ... is not equal to stage used: ..."), fewer
 * micro-batches than stages ("MicroBatch num must be larger or equal than StageNum", the 1F1B
 * scheduler's check).
 *
 * <p>Example: {@code PipelineStages.of(graph, 2).stage(n)}.
 */
public final class PipelineStages {
  private final int[] stage;
  private final int[] chunk;
  private final int chunks;
  private final long[] floating;
  private final int[] micro;
  private final int stages;
  private final int microBatches;

  private PipelineStages(
      int[] stage,
      int[] chunk,
      long[] floating,
      int[] micro,
      int stages,
      int microBatches,
      int chunks) {
    this.stage = stage;
    this.chunk = chunk;
    this.chunks = chunks;
    this.floating = floating;
    this.micro = micro;
    this.stages = stages;
    this.microBatches = microBatches;
  }

  /** Colours {@code graph} for {@code stages} stages, or throws MindSpore's RuntimeError. */
  public static PipelineStages of(Graph graph, int stages) {
    int n = graph.size();
    if (stages >= 64) {
      throw MsException.valueError("At most 63 pipeline stages are supported, got " + stages);
    }
    int[] stage = new int[n];
    int[] virt = new int[n];
    long[] floating = new long[n];
    int[] micro = new int[n];
    TreeSet<Integer> forwardStages = new TreeSet<>();
    // Inference reads a parameter on every stage that uses it, from that stage's own copy
    // (MindSpore's HandleSharedParameter sends shared parameters only when training; the copies are
    // made equal by sync_pipeline_shared_parameters).
    boolean inference = graph.forwardNodes() == n;
    int microBatches = 0;
    int chunks = 1;
    java.util.Map<Object, Integer> owner =
        inference ? java.util.Map.of() : sharedOwners(graph, stages);
    for (int i = 0; i < n; i++) {
      Graph.Node node = graph.nodes().get(i);
      int fromProducers = 0;
      boolean staged = false;
      for (Graph.Ref r : node.inputs()) {
        if (r instanceof Graph.Out o && floating[o.node()] == 0) {
          fromProducers = Math.max(fromProducers, virt[o.node()]);
          staged = true;
        }
      }
      micro[i] = node.attrs().integer("micro", -1);
      microBatches = Math.max(microBatches, micro[i] + 1);
      if (node.attrs().has("pipeline_stage") && !(inference && readsParameter(node))) {
        // The virtual stage: chunk (pipeline_segment) k of stage s is k·stages + s; data flows
        // through stages 0..p-1 of chunk 0, then of chunk 1, ...
        int segment = Math.max(0, node.attrs().integer("pipeline_segment", 0));
        chunks = Math.max(chunks, segment + 1);
        int own = segment * stages + node.attrs().integer("pipeline_stage");
        if (readsParameter(node) && owner.containsKey(((Graph.Var) node.inputs()[0]).variable())) {
          // A parameter several stages read lives on the lowest: the others get its value from
          // there (MindSpore's HandleSharedParameter) and send their gradients back.
          own = owner.get(((Graph.Var) node.inputs()[0]).variable());
        }
        boolean backward = i >= graph.forwardNodes();
        if (!backward && fromProducers > own) {
          throw MsException.runtimeError(
              "The stage setting is incorrect. PreNode's stage:"
                  + fromProducers
                  + " is larger than NextNode's stage:"
                  + own);
        }
        virt[i] = own;
      } else if (staged) {
        virt[i] = fromProducers;
      } else {
        floating[i] = -1; // placeholder until the consumers are known
        continue;
      }
      stage[i] = virt[i] % stages;
      if (i < graph.forwardNodes()) {
        forwardStages.add(stage[i]);
      }
    }
    if (!owner.isEmpty()) {
      placeSharedUpdates(graph, owner, virt, stage, floating, stages);
    }
    long all = (1L << stages) - 1;
    for (Graph.Ref r : graph.outputRefs()) {
      if (r instanceof Graph.Out o && floating[o.node()] != 0) {
        floating[o.node()] = all;
      }
    }
    long[] users = new long[n];
    for (int i = n - 1; i >= 0; i--) {
      if (floating[i] != 0) {
        long mask = floating[i] == -1 ? users[i] : users[i] | floating[i];
        floating[i] = mask == 0 ? all : mask;
        stage[i] = Long.numberOfTrailingZeros(floating[i]);
      }
      long mine = floating[i] != 0 ? floating[i] : 1L << stage[i];
      for (Graph.Ref r : graph.nodes().get(i).inputs()) {
        if (r instanceof Graph.Out o) {
          users[o.node()] |= mine;
        }
      }
    }
    if (forwardStages.size() != stages) {
      throw MsException.runtimeError(
          "Stage num is " + stages + " is not equal to stage used: " + forwardStages.size());
    }
    if (microBatches == 0) {
      microBatches = labelInputSlices(graph, micro);
    }
    boolean training = graph.forwardNodes() < n;
    if (training && microBatches < stages) {
      throw MsException.runtimeError("MicroBatch num must be larger or equal than StageNum");
    }
    int[] chunk = new int[n];
    for (int i = 0; i < n; i++) {
      chunk[i] = floating[i] != 0 ? 0 : virt[i] / stages;
    }
    return new PipelineStages(stage, chunk, floating, micro, stages, microBatches, chunks);
  }

  /**
   * The parameters a training step reads in more than one stage (Loads inside cells of different
   * {@code pipeline_stage}), each with the lowest (virtual) stage reading it, which holds it.
   */
  private static java.util.Map<Object, Integer> sharedOwners(Graph graph, int stages) {
    java.util.Map<Object, java.util.TreeSet<Integer>> readers = new java.util.HashMap<>();
    for (Graph.Node node : graph.nodes()) {
      if (readsParameter(node) && node.attrs().has("pipeline_stage")) {
        int segment = Math.max(0, node.attrs().integer("pipeline_segment", 0));
        readers
            .computeIfAbsent(((Graph.Var) node.inputs()[0]).variable(), k -> new TreeSet<>())
            .add(segment * stages + node.attrs().integer("pipeline_stage"));
      }
    }
    java.util.Map<Object, Integer> owner = new java.util.HashMap<>();
    readers.forEach(
        (v, at) -> {
          if (at.size() > 1) {
            owner.put(v, at.first());
          }
        });
    return owner;
  }

  /**
   * Moves the update of each shared parameter, and the backward nodes outside every micro-batch
   * that only feed it (the sum of its gradient over micro-batches and stages), to the stage holding
   * it. By the producers' rule that sum would take the highest stage of its terms and alternate
   * between the stages term by term, which no schedule can run (each stage waiting for the other's
   * next term); on the holder each stage's terms arrive as they are made and the sum ends its step,
   * as MindSpore accumulates a shared parameter's gradient where the parameter lives.
   */
  private static void placeSharedUpdates(
      Graph graph,
      java.util.Map<Object, Integer> owner,
      int[] virt,
      int[] stage,
      long[] floating,
      int stages) {
    int n = graph.size();
    java.util.List<java.util.List<Integer>> consumers = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      consumers.add(new java.util.ArrayList<>());
    }
    for (int i = 0; i < n; i++) {
      for (Graph.Ref r : graph.nodes().get(i).inputs()) {
        if (r instanceof Graph.Out o) {
          consumers.get(o.node()).add(i);
        }
      }
    }
    boolean[] output = new boolean[n];
    for (Graph.Ref r : graph.outputRefs()) {
      if (r instanceof Graph.Out o) {
        output[o.node()] = true;
      }
    }
    int[] want = new int[n];
    java.util.Arrays.fill(want, -1);
    for (int i = n - 1; i >= graph.forwardNodes(); i--) {
      Graph.Node node = graph.nodes().get(i);
      // The sums of a gradient over micro-batches carry the stage of the term they add (and micro
      // -1); other staged nodes keep their stage.
      boolean accumulation = node.attrs().has("micro") && node.attrs().integer("micro") == -1;
      if ((node.attrs().has("pipeline_stage") && !accumulation) || floating[i] != 0) {
        continue;
      }
      if (node.op().stateful()
          && node.inputs().length > 0
          && node.inputs()[0] instanceof Graph.Var v
          && owner.containsKey(v.variable())) {
        want[i] = owner.get(v.variable());
      } else if (!output[i] && !consumers.get(i).isEmpty()) {
        int w = want[consumers.get(i).get(0)];
        for (int c : consumers.get(i)) {
          if (want[c] != w) {
            w = -1;
          }
        }
        want[i] = w;
      }
      if (want[i] >= 0) {
        virt[i] = want[i];
        stage[i] = want[i] % stages;
      }
    }
  }

  /** Whether {@code node} is a parameter's Load. */
  private static boolean readsParameter(Graph.Node node) {
    return node.op().name().equals("Load")
        && node.inputs().length > 0
        && node.inputs()[0] instanceof Graph.Var;
  }

  /**
   * Micro-batch labels for a graph whose nodes carry none (a script that slices its inputs into
   * micro-batches itself, as MindSpore's pipeline inference samples do): as MindSpore's {@code
   * PipelineTransformer::LabelMicroBatch}, each StridedSlice reading a graph input is one
   * micro-batch, numbered by its start along the axis where the slices of that input differ divided
   * by its length there; every other node takes the largest label among its producers (-1 for
   * none). Fills {@code micro}; returns the micro-batch count (0 without such slices).
   */
  private static int labelInputSlices(Graph graph, int[] micro) {
    int n = graph.size();
    java.util.Map<Integer, java.util.List<Integer>> slicesOf = new java.util.TreeMap<>();
    for (int i = 0; i < n; i++) {
      Graph.Node node = graph.nodes().get(i);
      if (node.op().name().equals("StridedSlice")
          && node.inputs().length > 0
          && node.inputs()[0] instanceof Graph.Arg a) {
        slicesOf.computeIfAbsent(a.index(), k -> new java.util.ArrayList<>()).add(i);
      }
    }
    java.util.Arrays.fill(micro, -1);
    int count = 0;
    for (java.util.List<Integer> slices : slicesOf.values()) {
      java.util.List<Integer> first = graph.nodes().get(slices.get(0)).attrs().ints("begin");
      int axis = 0;
      for (int s : slices) {
        java.util.List<Integer> begin = graph.nodes().get(s).attrs().ints("begin");
        for (int d = 0; d < Math.min(begin.size(), first.size()); d++) {
          if (!begin.get(d).equals(first.get(d))) {
            axis = d;
          }
        }
      }
      for (int s : slices) {
        Attrs a = graph.nodes().get(s).attrs();
        java.util.List<Integer> b = a.ints("begin");
        java.util.List<Integer> e = a.ints("end");
        int begin = b.size() > axis ? b.get(axis) : 0;
        int end = e.size() > axis ? e.get(axis) : begin + 1;
        int length = Math.max(1, end - begin);
        micro[s] = begin / length;
        count = Math.max(count, micro[s] + 1);
      }
    }
    if (count == 0) {
      return 0;
    }
    for (int i = 0; i < n; i++) {
      if (micro[i] < 0) {
        for (Graph.Ref r : graph.nodes().get(i).inputs()) {
          if (r instanceof Graph.Out o) {
            micro[i] = Math.max(micro[i], micro[o.node()]);
          }
        }
      }
    }
    return count;
  }

  /** The stage of node {@code node}; for a floating node the lowest stage it runs on. */
  public int stage(int node) {
    return stage[node];
  }

  /** The chunk (pipeline_segment) of {@code node} in an interleaved pipeline; 0 otherwise. */
  public int chunk(int node) {
    return chunk[node];
  }

  /** How many chunks each stage runs (1 without pipeline_segment). */
  public int chunks() {
    return chunks;
  }

  /** Whether {@code node} reads no stage-carrying node (it runs on every stage using it). */
  public boolean floating(int node) {
    return floating[node] != 0;
  }

  /** Whether stage {@code s} runs {@code node}: its own stage, or one using a floating node. */
  public boolean runsOn(int node, int s) {
    return floating[node] != 0 ? (floating[node] & (1L << s)) != 0 : stage[node] == s;
  }

  /** The micro-batch of node {@code node}, -1 outside every micro-batch. */
  public int micro(int node) {
    return micro[node];
  }

  public int stages() {
    return stages;
  }

  public int microBatches() {
    return microBatches;
  }

  /** How many nodes each stage runs (floating ones on each of their stages), for reports. */
  public int[] nodesPerStage() {
    int[] count = new int[stages];
    for (int n = 0; n < stage.length; n++) {
      for (int s = 0; s < stages; s++) {
        if (runsOn(n, s)) {
          count[s]++;
        }
      }
    }
    return count;
  }
}
