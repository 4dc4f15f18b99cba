package dev.msjvm.engine.exec;

import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import java.util.ArrayList;
import java.util.List;

/**
 * Peak bytes of intermediates alive at once ({@link Graph#peakBytes}) for a training step of {@code
 * blocks} blocks of three MatMul + ReLU layers, with and without each block recomputed as
 * MindSpore's {@code Cell.recompute()} does (block outputs kept), plus the step time of each.
 *
 * <p>Run: {@code bench/recompute/run.sh}.
 */
public final class RecomputeBench {
  private RecomputeBench() {}

  public static void main(String[] args) {
    System.out.println(
        "| blocks x 3 layers | batch x width | peak MB plain | peak MB recompute | saved | ms/step plain | ms/step recompute |");
    System.out.println("|---|---|---:|---:|---:|---:|---:|");
    for (int[] c : new int[][] {{2, 512, 128}, {4, 512, 128}, {4, 1024, 256}}) {
      row(c[0], c[1], c[2]);
    }
  }

  private static void row(int blocks, int batch, int width) {
    Runtime rt = new Runtime(NaiveBlas::new);
    long[] peak = new long[2];
    double[] ms = new double[2];
    for (int v = 0; v < 2; v++) {
      List<Variable> ws = new ArrayList<>();
      for (int l = 0; l < 3 * blocks; l++) {
        ws.add(
            new Variable(
                "w" + l,
                Tensor.ofFloats(
                    Shape.of(width, width),
                    scaled(PipelineFixture.values(l, width * width), width))));
      }
      Tensor x = Tensor.ofFloats(Shape.of(batch, width), PipelineFixture.values(99, batch * width));
      Graph g = step(rt, ws, x, v == 1);
      g.run(rt, List.of(x));
      long t0 = System.nanoTime();
      int steps = 5;
      for (int k = 0; k < steps; k++) {
        g.run(rt, List.of(x));
      }
      ms[v] = (System.nanoTime() - t0) / 1e6 / steps;
      peak[v] = g.peakBytes();
    }
    System.out.printf(
        "| %d | %d x %d | %.2f | %.2f | %.0f%% | %.1f | %.1f |%n",
        blocks,
        batch,
        width,
        peak[0] / 1e6,
        peak[1] / 1e6,
        100.0 * (peak[0] - peak[1]) / peak[0],
        ms[0],
        ms[1]);
  }

  private static float[] scaled(float[] v, int width) {
    float s = (float) (2 / Math.sqrt(width));
    for (int i = 0; i < v.length; i++) {
      v[i] *= s;
    }
    return v;
  }

  private static Graph step(Runtime rt, List<Variable> ws, Tensor x, boolean recompute) {
    Tape tape = rt.push();
    Tensor h = x;
    for (int l = 0; l < ws.size(); l++) {
      if (recompute && l % 3 == 0) {
        rt.pushLabels(Attrs.of("recompute", true));
      }
      h = rt.apply("ReLU", Attrs.EMPTY, rt.apply("MatMul", Attrs.EMPTY, h, ws.get(l))[0])[0];
      if (recompute && l % 3 == 2) {
        rt.popLabels();
        rt.keepForBackward(List.of(h));
      }
    }
    Tensor loss =
        rt.apply(
                "ReduceSum",
                Attrs.of("axis", List.of(), "keep_dims", false),
                rt.apply("Square", Attrs.EMPTY, h)[0])[0];
    List<Tensor> results = new ArrayList<>();
    results.add(loss);
    results.addAll(Autodiff.gradients(rt, tape, List.of(loss), null, new ArrayList<>(ws)));
    rt.pop(tape);
    return Graph.compile(tape, List.of(x), results);
  }
}
