package dev.msjvm.engine.exec;

import dev.msjvm.engine.MsException;
import java.util.TreeSet;

/**
 * The pipeline stage of every node of a traced training step, coloured as MindSpore's {@code
 * PipelineTransformer::Coloring} does (reference §5.1): a node recorded inside a cell with a {@code
 * pipeline_stage} carries that stage (its gradient operators carry it too, see {@link
 * Runtime#pushLabels}); any other node takes the largest stage among its producers (0 without one),
 * so data flows from lower to higher stages. A node that reads no other stage-carrying node (a
 * parameter's Load outside every staged cell, a constant, the micro-batch slice of an input) is
 * <em>floating</em>: it runs on every stage that consumes it (on all stages if none does), which is
 * how MindSpore gives each stage its own copy of a parameter read or a constant. MindSpore's
 * errors: a labelled node reading from a higher stage ("The stage setting is incorrect. PreNode's
 * stage:... is larger than NextNode's stage:..."), a stage count other than the configured one
 * ("Stage num is ... is not equal to stage used: ..."), fewer micro-batches than stages
 * ("MicroBatch num must be larger or equal than StageNum", the 1F1B scheduler's check).
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
    int microBatches = 0;
    int chunks = 1;
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
      if (node.attrs().has("pipeline_stage")) {
        // The virtual stage: chunk (pipeline_segment) k of stage s is k·stages + s; data flows
        // through stages 0..p-1 of chunk 0, then of chunk 1, ...
        int segment = Math.max(0, node.attrs().integer("pipeline_segment", 0));
        chunks = Math.max(chunks, segment + 1);
        int own = segment * stages + node.attrs().integer("pipeline_stage");
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
    if (microBatches < stages) {
      throw MsException.runtimeError("MicroBatch num must be larger or equal than StageNum");
    }
    int[] chunk = new int[n];
    for (int i = 0; i < n; i++) {
      chunk[i] = floating[i] != 0 ? 0 : virt[i] / stages;
    }
    return new PipelineStages(stage, chunk, floating, micro, stages, microBatches, chunks);
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
