package dev.msjvm.engine.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.tensor.FloatPool;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Replayed graphs update variables in place and reuse intermediates' storage only where no one can
 * observe it: every test compares against what copying everything would give.
 */
class InPlaceReplayTest {
  private static final Attrs SGD =
      Attrs.of("dampening", 0.0, "weight_decay", 0.0, "nesterov", false);

  private final Runtime rt = new Runtime(NaiveBlas::new);

  private static Tensor floats(int n, float start, float step) {
    float[] f = new float[n];
    for (int i = 0; i < n; i++) {
      f[i] = start + i * step;
    }
    return Tensor.ofFloats(Shape.of(n), f);
  }

  private static Tensor scalar(float v) {
    return Tensor.ofFloats(Shape.of(), new float[] {v});
  }

  private static float[] values(Tensor t) {
    float[] f = new float[t.size()];
    for (int i = 0; i < f.length; i++) {
      f[i] = (float) t.getDouble(i);
    }
    return f;
  }

  /** param -= 0.5 * grad with SGD (no momentum); the state variables are fresh zeros / ones. */
  private Tensor[] sgd(Variable param, Tensor grad, int n) {
    return rt.apply(
        "SGD",
        SGD,
        param,
        grad,
        scalar(0.5f),
        new Variable("accum", floats(n, 0f, 0f)),
        scalar(0f),
        new Variable("stat", floats(n, 1f, 0f)));
  }

  /** The traced stand-in for graph argument {@code x}, a leaf of {@code tape}. */
  private static Tensor leaf(Tape tape, Tensor x) {
    Tensor traced = x.alias();
    tape.addLeaves(List.of(traced));
    return traced;
  }

  /** A graph computing {@code loss = sum(w * x)} and taking one SGD step on w with grad x. */
  private Graph traceStep(Variable w, Tensor x, int n) {
    Tape tape = rt.push();
    Tensor xa = leaf(tape, x);
    Tensor prod = rt.apply("Mul", Attrs.EMPTY, w, xa)[0];
    Tensor loss = rt.apply("ReduceSum", Attrs.of("axis", List.of(), "keep_dims", false), prod)[0];
    sgd(w, xa, n);
    rt.pop(tape);
    return Graph.compile(tape, List.of(xa), List.of(loss));
  }

  @Test
  void replaysUpdateTheVariablesStorageInPlaceOnceItIsPrivate() {
    int n = 2048;
    Variable w = new Variable("w", floats(n, 1f, 0.001f));
    Tensor x = floats(n, 0.5f, 0f);
    Graph g = traceStep(w, x, n);
    g.run(rt, List.of(x)); // the first update copies: the traced value was handed out
    float[] storage = w.current().floatStorage();
    g.run(rt, List.of(x));
    g.run(rt, List.of(x));
    assertSame(storage, w.current().floatStorage());
    assertEquals(1f - 4 * 0.25f, (float) w.current().getDouble(0), 1e-6f);
  }

  @Test
  void aValueHandedOutBeforeAReplayKeepsItsValues() {
    int n = 2048;
    Variable w = new Variable("w", floats(n, 1f, 0.001f));
    Tensor x = floats(n, 0.5f, 0f);
    Graph g = traceStep(w, x, n);
    g.run(rt, List.of(x));
    g.run(rt, List.of(x));
    Tensor snapshot = w.value();
    float[] before = values(snapshot);
    g.run(rt, List.of(x));
    assertArrayEquals(before, values(snapshot));
    assertNotSame(snapshot.floatStorage(), w.current().floatStorage());
    assertEquals(before[0] - 0.25f, (float) w.current().getDouble(0), 1e-6f);
  }

  @Test
  void aLoadReadAfterTheUpdateSeesTheOldValues() {
    int n = 1500;
    Variable w = new Variable("w", floats(n, 2f, 0.01f));
    Tensor x = floats(n, 1f, 0f);
    Tape tape = rt.push();
    Tensor xa = leaf(tape, x);
    Tensor read = rt.apply("Load", Attrs.EMPTY, w)[0];
    sgd(w, xa, n);
    Tensor twice = rt.apply("Add", Attrs.EMPTY, read, read)[0]; // after the update, in node order
    rt.pop(tape);
    Graph g = Graph.compile(tape, List.of(xa), List.of(twice, read));
    for (int step = 1; step <= 3; step++) {
      float[] old = values(w.current());
      List<Tensor> out = g.run(rt, List.of(x));
      for (int i = 0; i < n; i += 97) {
        assertEquals(2 * old[i], (float) out.get(0).getDouble(i), 0f);
        assertEquals(old[i], (float) out.get(1).getDouble(i), 0f, "the returned Load");
        assertEquals(old[i] - 0.5f, (float) w.current().getDouble(i), 1e-6f);
      }
    }
  }

  /**
   * A Cast to the dtype a tensor has is the tensor itself (no copy), so a Cast of a parameter read
   * before its update aliases the variable: the update must not show through it.
   */
  @Test
  void aSameDtypeCastOfAParameterKeepsTheValueItRead() {
    int n = 1500;
    Variable w = new Variable("w", floats(n, 3f, 0.01f));
    Tensor x = floats(n, 1f, 0f);
    Attrs toF32 = Attrs.of("dtype", "FLOAT32");
    Tensor eager = rt.apply("Cast", toF32, w)[0];
    assertSame(w.current().floatStorage(), eager.floatStorage(), "no copy");
    Tape tape = rt.push();
    Tensor xa = leaf(tape, x);
    Tensor cast = rt.apply("Cast", toF32, w)[0];
    sgd(w, xa, n);
    Tensor twice = rt.apply("Add", Attrs.EMPTY, cast, cast)[0];
    rt.pop(tape);
    Graph g = Graph.compile(tape, List.of(xa), List.of(twice, cast));
    float[] first = values(eager);
    for (int step = 1; step <= 3; step++) {
      float[] old = values(w.current());
      List<Tensor> out = g.run(rt, List.of(x));
      for (int i = 0; i < n; i += 97) {
        assertEquals(2 * old[i], (float) out.get(0).getDouble(i), 0f);
        assertEquals(old[i], (float) out.get(1).getDouble(i), 0f, "the returned Cast");
        assertEquals(old[i] - 0.5f, (float) w.current().getDouble(i), 1e-6f);
      }
    }
    assertArrayEquals(first, values(eager), "the eager Cast still holds the first value");
  }

  @Test
  void anUpdatedParameterReturnedByTheGraphIsNotOverwrittenByTheNextReplay() {
    int n = 1024;
    Variable w = new Variable("w", floats(n, 0f, 1f));
    Tensor x = floats(n, 1f, 0f);
    Tape tape = rt.push();
    Tensor xa = leaf(tape, x);
    Tensor updated = sgd(w, xa, n)[0];
    rt.pop(tape);
    Graph g = Graph.compile(tape, List.of(xa), List.of(updated));
    Tensor first = g.run(rt, List.of(x)).get(0); // the trace took the first step
    Tensor second = g.run(rt, List.of(x)).get(0);
    g.run(rt, List.of(x));
    assertEquals(-1f, (float) first.getDouble(0));
    assertEquals(-1.5f, (float) second.getDouble(0));
    assertEquals(-2f, (float) w.current().getDouble(0));
    assertTrue(w.shared(), "a result aliasing the variable marks it shared");
  }

  @Test
  void intermediatesReuseTheLastReplaysStorageButResultsAreNeverRecycled() {
    int n = 4096;
    Variable w = new Variable("w", floats(n, 1f, 0.0001f));
    Tensor x = floats(n, 0.5f, 0.0002f);
    Tape tape = rt.push();
    Tensor xa = leaf(tape, x);
    Tensor a = rt.apply("Mul", Attrs.EMPTY, w, xa)[0];
    Tensor b = rt.apply("Add", Attrs.EMPTY, a, xa)[0];
    Tensor c = rt.apply("Mul", Attrs.EMPTY, b, b)[0];
    Tensor flat = rt.apply("Reshape", Attrs.of("shape", List.of(64, 64)), b)[0];
    rt.pop(tape);
    Graph g = Graph.compile(tape, List.of(xa), List.of(c, flat));
    List<Tensor> first = g.run(rt, List.of(x));
    float[] c1 = values(first.get(0));
    float[] flat1 = values(first.get(1));
    for (int run = 0; run < 3; run++) {
      List<Tensor> again = g.run(rt, List.of(x));
      assertArrayEquals(c1, values(again.get(0)));
      assertArrayEquals(flat1, values(again.get(1)));
      assertNotSame(first.get(0).floatStorage(), again.get(0).floatStorage());
    }
    assertArrayEquals(c1, values(first.get(0)), "an earlier result is untouched");
    assertArrayEquals(flat1, values(first.get(1)));
  }

  @Test
  void eagerUpdatesMarkTheVariableWhenTheirOutputAliasesIt() {
    int n = 8;
    Variable w = new Variable("w", floats(n, 1f, 0f));
    sgd(w, floats(n, 1f, 0f), n);
    assertTrue(w.shared());
    assertEquals(0.5f, (float) w.current().getDouble(0));
  }

  @Test
  void poolsHandOutOnlyInsideTheirScope() {
    FloatPool pool = new FloatPool();
    float[] big = new float[4096];
    big[7] = 3f;
    pool.recycle(List.of(big));
    assertNotSame(big, FloatPool.zeroed(4096), "no scope entered");
    try (FloatPool.Scope scope = pool.enter()) {
      float[] again = FloatPool.zeroed(4096);
      assertSame(big, again);
      assertEquals(0f, again[7]);
      assertNotSame(big, FloatPool.zeroed(4096), "each array once");
    }
    assertEquals(0, pool.size());
    pool.recycle(List.of(new float[16]));
    assertEquals(0, pool.size(), "small arrays are not kept");
    assertFalse(pool.size() > 0);
  }
}
