package dev.msjvm.engine.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Recomputation: a step of two recomputed blocks replays each block's inner operators in the
 * backward pass, from the kept output of the block before, just before that block's backward. The
 * gradients are bitwise those of the plain step, the copies carry {@code recomputed}, and the peak
 * of intermediate bytes alive at once falls.
 */
class RecomputeTest {
  private static final int BATCH = 512;
  private static final int WIDTH = 64;

  private static Tensor random(long seed, int... dims) {
    Random r = new Random(seed);
    int n = 1;
    for (int d : dims) {
      n *= d;
    }
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) (r.nextDouble() - 0.5) * 0.2f;
    }
    return Tensor.ofFloats(Shape.of(dims), v);
  }

  /**
   * Two blocks of three MatMul + ReLU layers, then Square and ReduceSum. With {@code recompute}
   * each block is a recomputed cell as MindSpore's {@code Cell.recompute()} makes it: every
   * operator of the block labelled except the block's output (its last ReLU), which is kept.
   */
  private static Graph step(Runtime rt, List<Variable> ws, boolean recompute) {
    Tensor x = random(7, BATCH, WIDTH);
    Tape tape = rt.push();
    Tensor h = x;
    for (int l = 0; l < ws.size(); l++) {
      boolean blockStart = l % 3 == 0;
      if (recompute && blockStart) {
        rt.pushLabels(Attrs.of("recompute", true));
      }
      h = rt.apply("MatMul", Attrs.EMPTY, h, ws.get(l))[0];
      h = rt.apply("ReLU", Attrs.EMPTY, h)[0];
      if (recompute && l % 3 == 2) {
        rt.popLabels();
        rt.keepForBackward(List.of(h));
      }
    }
    Tensor sq = rt.apply("Square", Attrs.EMPTY, h)[0];
    Tensor loss = rt.apply("ReduceSum", Attrs.of("axis", List.of(), "keep_dims", false), sq)[0];
    List<Tensor> results = new ArrayList<>();
    results.add(loss);
    results.addAll(Autodiff.gradients(rt, tape, List.of(loss), null, new ArrayList<>(ws)));
    rt.pop(tape);
    return Graph.compile(tape, List.of(x), results);
  }

  private static List<Variable> weights() {
    List<Variable> ws = new ArrayList<>();
    for (int l = 0; l < 6; l++) {
      ws.add(new Variable("w" + l, random(l + 1, WIDTH, WIDTH)));
    }
    return ws;
  }

  @Test
  void recomputedLayersGiveTheSameGradientsWithFewerBytesAlive() {
    Runtime rt = new Runtime(NaiveBlas::new);
    Graph plain = step(rt, weights(), false);
    Graph recomputed = step(rt, weights(), true);
    long copies = recomputed.nodes().stream().filter(n -> n.attrs().has("recomputed")).count();
    // Per block the two inner MatMul + ReLU pairs, read by the backward (ReluGrad reads the ReLU's
    // output, a MatMul's weight gradient its input); the last MatMul's output is read by nothing
    // in the backward, and the block's output is kept.
    assertEquals(8, copies, "recomputed copies: " + recomputed.opNames());
    assertEquals(plain.size() + 8, recomputed.size());
    assertEquals(plain.forwardNodes(), recomputed.forwardNodes());
    for (Graph.Node n : recomputed.nodes()) {
      if (n.attrs().has("recomputed")) {
        assertTrue(n.attrs().bool("recompute"), "a copy of a labelled forward node");
      }
    }

    Tensor x = random(7, BATCH, WIDTH);
    List<Tensor> a = plain.run(rt, List.of(x));
    List<Tensor> b = recomputed.run(rt, List.of(x));
    assertEquals(a.size(), b.size());
    for (int i = 0; i < a.size(); i++) {
      assertArrayEquals(a.get(i).floats(), b.get(i).floats(), "result " + i);
    }
    assertTrue(plain.peakBytes() > 0);
    long activation = 4L * BATCH * WIDTH;
    // The plain step holds every ReLU output from its forward to its backward; the recomputed one
    // holds the block outputs and one block's inner activations at a time.
    assertTrue(
        recomputed.peakBytes() <= plain.peakBytes() - 2 * activation,
        "peak " + recomputed.peakBytes() + " vs " + plain.peakBytes());
  }

  @Test
  void gradientOperatorsAreNotLabelledForRecomputation() {
    Runtime rt = new Runtime(NaiveBlas::new);
    Graph g = step(rt, weights(), true);
    for (int n = g.forwardNodes(); n < g.size(); n++) {
      Graph.Node node = g.nodes().get(n);
      if (!node.attrs().has("recomputed")) {
        assertTrue(!node.attrs().has("recompute"), node.op().name() + " #" + n);
      }
    }
  }
}
