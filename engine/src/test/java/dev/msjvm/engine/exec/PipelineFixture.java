package dev.msjvm.engine.exec;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A pipeline training step for tests and benchmarks: {@code layers} MatMul layers (ReLU between
 * them, squared-sum loss after the last) over {@code micros} micro-batches of {@code rows} rows,
 * layer {@code l} on stage {@code l·stages/layers}, SGD through Assign. Equal-cost stages when the
 * layers divide evenly.
 */
record PipelineFixture(int layers, int width, int rows) {

  /** The traced step and its weights (restored to their initial values after the trace). */
  record Traced(Graph graph, List<Variable> weights) {}

  /** One rank's stage communicator, partitioned step and pipeline program. */
  record Built(
      dev.msjvm.engine.comm.Communicator stage,
      SpmdPartitioner.Result partitioned,
      PipelineProgram.Result program) {}

  /**
   * {@code job}'s rank of the pipelined step {@code t}: the step partitioned over its stage's ranks
   * (whole inputs), then cut into its stage's program.
   */
  Built build(
      Traced t,
      dev.msjvm.engine.comm.Communicator job,
      int stages,
      int micros,
      String scheduler,
      boolean broadcast) {
    int per = job.size() / stages;
    dev.msjvm.engine.comm.Communicator stage =
        dev.msjvm.engine.comm.SubWorldCommunicator.of(job, job.rank() / per * per, per);
    SpmdPartitioner.Result part =
        SpmdPartitioner.partition(
            t.graph(),
            List.of(
                dev.msjvm.engine.parallel.TensorLayout.of(
                    dev.msjvm.engine.parallel.DeviceMatrix.of(per),
                    new int[] {-1, -1},
                    rows * micros,
                    width)),
            java.util.Map.of(),
            dev.msjvm.engine.parallel.rules.RulesOracle.INSTANCE,
            stage,
            per,
            false);
    PipelineProgram.Result prog =
        PipelineProgram.build(
            t.graph(), PipelineStages.of(t.graph(), stages), part, job, scheduler, broadcast);
    return new Built(stage, part, prog);
  }

  static float[] values(long seed, int n) {
    Random r = new Random(seed);
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) (r.nextDouble() - 0.5);
    }
    return v;
  }

  Tensor input(int micros) {
    return Tensor.ofFloats(Shape.of(rows * micros, width), values(99, rows * micros * width));
  }

  /**
   * The step traced on {@code rt}; {@code constantSens}: the gradient seed is a constant 1/micros
   * (as MindSpore's fill), else a OnesLike of the summed loss given as the seed (a seed that
   * depends on every micro-batch's forward).
   */
  Traced trace(Runtime rt, int stages, int micros, boolean constantSens) {
    return trace(rt, stages, micros, constantSens, 1);
  }

  /**
   * {@link #trace(Runtime, int, int, boolean)} over {@code chunks} chunks per stage (an interleaved
   * pipeline): layer {@code l} is on virtual stage {@code v = l·stages·chunks/layers}, i.e. stage
   * {@code v % stages}, {@code pipeline_segment} {@code v / stages}.
   */
  Traced trace(Runtime rt, int stages, int micros, boolean constantSens, int chunks) {
    List<Variable> ws = new ArrayList<>();
    List<Tensor> init = new ArrayList<>();
    float scale = (float) Math.sqrt(1.0 / width);
    for (int l = 0; l < layers; l++) {
      float[] v = values(l + 1, width * width);
      for (int i = 0; i < v.length; i++) {
        v[i] *= 2 * scale;
      }
      Tensor w = Tensor.ofFloats(Shape.of(width, width), v);
      init.add(w);
      ws.add(new Variable("w" + l, w));
    }
    Tensor x = input(micros);
    Tape tape = rt.push();
    Tensor loss = null;
    for (int m = 0; m < micros; m++) {
      rt.pushLabels(Attrs.of("micro", m));
      Tensor h = slice(rt, x, m);
      for (int l = 0; l < layers; l++) {
        int virtual = l * stages * chunks / layers;
        rt.pushLabels(
            chunks == 1
                ? Attrs.of("pipeline_stage", virtual)
                : Attrs.of(
                    "pipeline_stage", virtual % stages, "pipeline_segment", virtual / stages));
        h = rt.apply("MatMul", Attrs.EMPTY, h, ws.get(l))[0];
        h =
            l < layers - 1
                ? rt.apply("ReLU", Attrs.EMPTY, h)[0]
                : rt.apply(
                        "ReduceSum",
                        Attrs.of("axis", List.of(), "keep_dims", false),
                        rt.apply("Square", Attrs.EMPTY, h)[0])[0];
        rt.popLabels();
      }
      rt.popLabels();
      loss = loss == null ? h : rt.apply("Add", Attrs.EMPTY, loss, h)[0];
    }
    // Otherwise a seed computed from the summed loss (a user's sens derived from its value).
    List<Tensor> sens =
        List.of(
            constantSens
                ? Tensor.ofFloats(Shape.of(), new float[] {1f / micros})
                : rt.apply("OnesLike", Attrs.EMPTY, loss)[0]);
    List<Tensor> grads = Autodiff.gradients(rt, tape, List.of(loss), sens, new ArrayList<>(ws));
    Tensor lr = Tensor.ofFloats(Shape.of(), new float[] {0.05f});
    for (int l = 0; l < layers; l++) {
      Tensor step = rt.apply("Mul", Attrs.EMPTY, grads.get(l), lr)[0];
      Tensor next = rt.apply("Sub", Attrs.EMPTY, ws.get(l), step)[0];
      rt.apply("Assign", Attrs.EMPTY, ws.get(l), next);
    }
    rt.pop(tape);
    Graph g = Graph.compile(tape, List.of(x), List.of(loss));
    for (int l = 0; l < layers; l++) {
      ws.get(l).set(init.get(l));
    }
    return new Traced(g, ws);
  }

  private Tensor slice(Runtime rt, Tensor x, int m) {
    return rt.apply(
            "StridedSlice",
            Attrs.of(
                "begin", List.of(rows * m, 0),
                "end", List.of(rows * m + rows, width),
                "strides", List.of(1, 1),
                "begin_mask", 0,
                "end_mask", 0,
                "ellipsis_mask", 0,
                "new_axis_mask", 0,
                "shrink_axis_mask", 0),
            x)[0];
  }
}
