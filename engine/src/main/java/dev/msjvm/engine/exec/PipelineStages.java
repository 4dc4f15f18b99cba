package dev.msjvm.engine.exec;

import dev.msjvm.engine.MsException;
import java.util.TreeSet;

/**
 * The pipeline stage of every node of a traced training step, coloured as MindSpore's {@code
 * PipelineTransformer::Coloring} does (reference §5.1): a node recorded inside a cell with a {@code
 * pipeline_stage} carries that stage (its gradient operators carry it too, see {@link
 * Runtime#pushLabels}); any other node takes the largest stage among its producers (0 without one),
 * so data flows from lower to higher stages. MindSpore's errors: a labelled node reading from a
 * higher stage ("The stage setting is incorrect. PreNode's stage:... is larger than NextNode's
 * stage:..."), a stage count other than the configured one ("Stage num is ... is not equal to stage
 * used: ..."), fewer micro-batches than stages ("MicroBatch num must be larger or equal than
 * StageNum", the 1F1B scheduler's check).
 *
 * <p>Example: {@code PipelineStages.of(graph, 2).stage(n)}.
 */
public final class PipelineStages {
  private final int[] stage;
  private final int[] micro;
  private final int stages;
  private final int microBatches;

  private PipelineStages(int[] stage, int[] micro, int stages, int microBatches) {
    this.stage = stage;
    this.micro = micro;
    this.stages = stages;
    this.microBatches = microBatches;
  }

  /** Colours {@code graph} for {@code stages} stages, or throws MindSpore's RuntimeError. */
  public static PipelineStages of(Graph graph, int stages) {
    int n = graph.size();
    int[] stage = new int[n];
    int[] micro = new int[n];
    TreeSet<Integer> forwardStages = new TreeSet<>();
    int microBatches = 0;
    for (int i = 0; i < n; i++) {
      Graph.Node node = graph.nodes().get(i);
      int fromProducers = 0;
      for (Graph.Ref r : node.inputs()) {
        if (r instanceof Graph.Out o) {
          fromProducers = Math.max(fromProducers, stage[o.node()]);
        }
      }
      if (node.attrs().has("pipeline_stage")) {
        int own = node.attrs().integer("pipeline_stage");
        boolean backward = i >= graph.forwardNodes();
        if (!backward && fromProducers > own) {
          throw MsException.runtimeError(
              "The stage setting is incorrect. PreNode's stage:"
                  + fromProducers
                  + " is larger than NextNode's stage:"
                  + own);
        }
        stage[i] = own;
      } else {
        stage[i] = fromProducers;
      }
      micro[i] = node.attrs().integer("micro", -1);
      microBatches = Math.max(microBatches, micro[i] + 1);
      if (i < graph.forwardNodes()) {
        forwardStages.add(stage[i]);
      }
    }
    if (forwardStages.size() != stages) {
      throw MsException.runtimeError(
          "Stage num is " + stages + " is not equal to stage used: " + forwardStages.size());
    }
    if (microBatches < stages) {
      throw MsException.runtimeError("MicroBatch num must be larger or equal than StageNum");
    }
    return new PipelineStages(stage, micro, stages, microBatches);
  }

  /** The stage of node {@code node}. */
  public int stage(int node) {
    return stage[node];
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

  /** How many nodes each stage has, for reports. */
  public int[] nodesPerStage() {
    int[] count = new int[stages];
    for (int s : stage) {
      if (s < stages) {
        count[s]++;
      }
    }
    return count;
  }
}
