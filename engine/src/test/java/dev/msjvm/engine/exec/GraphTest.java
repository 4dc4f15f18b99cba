package dev.msjvm.engine.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.ops.GradCheck;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import java.util.List;
import org.junit.jupiter.api.Test;

class GraphTest {
  private final Runtime rt = new Runtime(NaiveBlas::new);

  /**
   * One SGD step of a two-layer linear model with a squared loss: returns the loss, updates w and
   * v. The gradient of w needs v's value (MatMul's rule multiplies by it), which a replay must read
   * afresh each step.
   */
  private Tensor step(Variable w, Variable v, Tensor x, Tensor y) {
    Tape tape = rt.push();
    Tensor hidden = rt.apply("MatMul", Attrs.EMPTY, x, w)[0];
    Tensor pred = rt.apply("MatMul", Attrs.EMPTY, hidden, v)[0];
    Tensor err = rt.apply("Sub", Attrs.EMPTY, pred, y)[0];
    Tensor loss =
        rt.apply(
                "ReduceMean",
                Attrs.of("axis", List.of(), "keep_dims", false),
                rt.apply("Square", Attrs.EMPTY, err)[0])[0];
    rt.pop(tape);
    List<Tensor> g = Autodiff.gradients(rt, tape, List.of(loss), null, List.of(w, v));
    for (int i = 0; i < 2; i++) {
      Variable var = i == 0 ? w : v;
      Tensor upd =
          rt.apply("ScalarOp", Attrs.of("op", "Mul", "scalar", 0.1, "left", false), g.get(i))[0];
      rt.apply("Assign", Attrs.EMPTY, var, rt.apply("Sub", Attrs.EMPTY, var, upd)[0]);
    }
    return loss;
  }

  /** One training step of {@code w} and {@code v} traced on the shapes of {@code e}'s data. */
  private Graph traceOnShapes(Eager e, Variable w, Variable v) {
    Tensor xa = Tensor.abstractOf(e.x().type());
    Tensor ya = Tensor.abstractOf(e.y().type());
    Tape trace = rt.pushAbstract();
    trace.addLeaves(List.of(xa, ya));
    Tensor loss = step(w, v, xa, ya);
    rt.pop(trace);
    return Graph.compile(trace, List.of(xa, ya), List.of(loss));
  }

  /** Seeded data and initial weights, the weights after {@code losses.length} eager steps. */
  private record Eager(
      Tensor x, Tensor y, Tensor w0, Tensor v0, Variable w, Variable v, double[] losses) {}

  private Eager eager(int steps) {
    Tensor x = GradCheck.random(1, -1, 1, 8, 3);
    Tensor y = GradCheck.random(2, -1, 1, 8, 2);
    Tensor w0 = GradCheck.random(3, -1, 1, 3, 4);
    Tensor v0 = GradCheck.random(4, -1, 1, 4, 2);
    Variable w = new Variable("w", w0);
    Variable v = new Variable("v", v0);
    double[] losses = new double[steps];
    for (int s = 0; s < steps; s++) {
      losses[s] = step(w, v, x, y).getDouble(0);
    }
    return new Eager(x, y, w0, v0, w, v, losses);
  }

  /**
   * A dry run of a training step's graph runs no kernel and changes no variable, gives the types a
   * replay gives, and counts the same peak bytes of intermediate values as a real replay measures
   * (storage by storage: a Load of w is w's storage).
   */
  /**
   * A slice of a trace is a tape of those calls alone (a cell's forward inside a GRAPH_MODE step):
   * its gradients ignore the calls after it, and it keeps the trace's serial.
   */
  @Test
  void sliceOfTraceDifferentiatesItsCallsAlone() {
    Tensor x = GradCheck.random(5, -1, 1, 3);
    assertEquals(null, rt.innermostTape());
    Tape trace = rt.push();
    assertEquals(trace, rt.innermostTape());
    int start = trace.size();
    Tensor square = rt.apply("Mul", Attrs.EMPTY, x, x)[0];
    int end = trace.size();
    Tensor cube = rt.apply("Mul", Attrs.EMPTY, square, x)[0];
    Tape part = trace.slice(start, end);
    assertEquals(trace.serial(), part.serial());
    assertEquals(end - start, part.size());
    Tensor dx = Autodiff.gradients(rt, part, List.of(square), null, List.of(x)).get(0);
    Tensor dxAll = Autodiff.gradients(rt, trace, List.of(cube), null, List.of(x)).get(0);
    rt.pop(trace);
    assertEquals(null, rt.innermostTape());
    for (int i = 0; i < 3; i++) {
      double v = x.getDouble(i);
      assertEquals(2 * v, dx.getDouble(i), 1e-6);
      assertEquals(3 * v * v, dxAll.getDouble(i), 1e-6);
    }
    assertTrue(rt.push().serial() > trace.serial(), "serials are never reused");
    rt.reset();
  }

  @Test
  void aDryRunTypesTheResultsAndCountsThePeakAReplayMeasures() {
    Eager e = eager(1);
    Variable w = new Variable("w", e.w0());
    Variable v = new Variable("v", e.v0());
    Graph graph = traceOnShapes(e, w, v);
    long kernels = rt.kernelCalls();
    Graph.DryRun dry = graph.dryRun(List.of(e.x().type(), e.y().type()));
    assertEquals(kernels, rt.kernelCalls(), "kernels run by a dry run");
    assertTrue(w.value() == e.w0() && v.value() == e.v0(), "variables unchanged");
    List<Tensor> real = graph.run(rt, List.of(e.x(), e.y()));
    assertEquals(real.get(0).type(), dry.outputs().get(0));
    assertTrue(dry.peakBytes() > 0);
    assertEquals(graph.peakBytes(), dry.peakBytes(), "the static count equals the replay's");
    assertEquals(graph.memory(), dry.memory(), "and so do the parts held at the peak");
    assertTrue(dry.memory().variables() == bytes(e.w0()) + bytes(e.v0()), "w and v once each");
    assertThrows(MsException.class, () -> graph.dryRun(List.of(e.x().type())));
  }

  /**
   * The node listing MindSpore's parallel UTs read: each node named {@code <Op>-<k>} in order, its
   * inputs naming the arguments, the parameters (through their Loads) and earlier nodes.
   */
  @Test
  void nodeInfoNamesEachNodePerOperatorAndItsInputs() {
    Eager e = eager(1);
    Variable w = new Variable("w", e.w0());
    Variable v = new Variable("v", e.v0());
    Graph graph = traceOnShapes(e, w, v);
    List<List<Object>> info = graph.nodeInfo(List.of("x", "y"));
    java.util.Map<String, List<?>> inputs = new java.util.LinkedHashMap<>();
    for (List<Object> node : info) {
      assertTrue(node.get(2) instanceof java.util.Map<?, ?>, "attributes of " + node.get(0));
      inputs.put((String) node.get(0), (List<?>) node.get(1));
    }
    assertEquals(List.of("x", "Load-0"), inputs.get("MatMul-0"));
    assertEquals(List.of("MatMul-0", "Load-1"), inputs.get("MatMul-1"));
    assertEquals(List.of("MatMul-1", "y"), inputs.get("Sub-0"));
    assertEquals(List.of("w"), inputs.get("Load-0"));
    assertEquals(List.of("v"), inputs.get("Load-1"));
    for (List<?> in : inputs.values()) {
      for (Object ref : in) {
        assertTrue(
            !(ref instanceof String name)
                || inputs.containsKey(name)
                || List.of("x", "y", "w", "v").contains(name),
            "an input names a node, an argument or a parameter: " + ref);
      }
    }
  }

  /**
   * The same training step traced on shapes alone: no kernel runs and no variable changes while it
   * traces, and the graph it compiles replays exactly like eager steps from the first one.
   */
  @Test
  void aStepTracedOnShapesRunsNoKernelAndReplaysLikeEagerSteps() {
    Eager e = eager(3);
    Variable w = new Variable("w", e.w0());
    Variable v = new Variable("v", e.v0());
    Tensor xa = Tensor.abstractOf(e.x().type());
    Tensor ya = Tensor.abstractOf(e.y().type());
    long kernels = rt.kernelCalls();
    Tape trace = rt.pushAbstract();
    trace.addLeaves(List.of(xa, ya));
    Tensor loss = step(w, v, xa, ya);
    rt.pop(trace);
    assertEquals(kernels, rt.kernelCalls(), "kernels run while tracing on shapes");
    assertTrue(loss.isAbstract());
    assertEquals(Shape.scalar(), loss.shape());
    assertThrows(IllegalStateException.class, () -> loss.getDouble(0));
    assertTrue(w.value() == e.w0() && v.value() == e.v0(), "variables unchanged");
    assertFalse(rt.onShapes());
    Graph graph = Graph.compile(trace, List.of(xa, ya), List.of(loss));
    for (int s = 0; s < 3; s++) {
      assertEquals(e.losses()[s], graph.run(rt, List.of(e.x(), e.y())).get(0).getDouble(0), 0);
    }
    for (int i = 0; i < e.w0().size(); i++) {
      assertEquals(e.w().value().getDouble(i), w.value().getDouble(i), 0);
    }
    assertTrue(rt.kernelCalls() > kernels);
  }

  @Test
  void aTracedTrainingStepReplaysLikeEagerSteps() {
    Eager e = eager(4);
    Tensor x = e.x();
    Tensor y = e.y();
    Tensor w0 = e.w0();
    Tensor v0 = e.v0();
    Variable eager = e.w();
    Variable eagerV = e.v();
    double[] expected = e.losses();
    Variable traced = new Variable("w", w0);
    Variable tracedV = new Variable("v", v0);
    Tape trace = rt.push();
    Tensor xa = x.alias();
    Tensor ya = y.alias();
    trace.addLeaves(List.of(xa, ya));
    Tensor loss0 = step(traced, tracedV, xa, ya);
    rt.pop(trace);
    assertFalse(trace.valueRead());
    Graph graph = Graph.compile(trace, List.of(xa, ya), List.of(loss0));
    assertEquals(expected[0], loss0.getDouble(0), 0);
    for (int s = 1; s < 4; s++) {
      assertEquals(expected[s], graph.run(rt, List.of(x, y)).get(0).getDouble(0), 0);
    }
    for (int i = 0; i < w0.size(); i++) {
      assertEquals(eager.value().getDouble(i), traced.value().getDouble(i), 0);
    }
    for (int i = 0; i < v0.size(); i++) {
      assertEquals(eagerV.value().getDouble(i), tracedV.value().getDouble(i), 0);
    }
    assertTrue(graph.opNames().contains("Assign"));
    assertTrue(expected[3] < expected[0]);
  }

  @Test
  void readingATracedValueMarksTheTrace() {
    Tensor x = GradCheck.random(1, -1, 1, 2);
    Tape trace = rt.push();
    trace.addLeaves(List.of(x));
    Tensor y = rt.apply("Neg", Attrs.EMPTY, x)[0];
    rt.noteValueRead(GradCheck.random(5, 0, 1, 1), "item()");
    assertFalse(trace.valueRead());
    rt.noteValueRead(y, "item()");
    rt.pop(trace);
    assertTrue(trace.valueRead());
  }

  @Test
  void missingGradientsAndOperatorsAreClearErrors() {
    MsException e = assertThrows(MsException.class, () -> rt.apply("NoSuchOp", Attrs.EMPTY));
    assertEquals("The operator 'NoSuchOp' is not supported by msjvm yet.", e.getMessage());
    Tensor x = GradCheck.random(1, 0.5, 1, 3);
    Tape tape = rt.push();
    Tensor d = rt.apply("ReluGrad", Attrs.EMPTY, x, x)[0];
    rt.pop(tape);
    e =
        assertThrows(
            MsException.class, () -> Autodiff.gradients(rt, tape, List.of(d), null, List.of(x)));
    assertEquals("Illegal primitive ReluGrad's bprop not defined", e.getMessage());
  }

  @Test
  void unusedInputsGetZeroGradients() {
    Tensor x = GradCheck.random(1, -1, 1, 3);
    Tensor z = GradCheck.random(2, -1, 1, 2);
    Tape tape = rt.push();
    Tensor y = rt.apply("Square", Attrs.EMPTY, x)[0];
    rt.pop(tape);
    List<Tensor> g = Autodiff.gradients(rt, tape, List.of(y), null, List.of(x, z));
    assertEquals(2 * x.getDouble(1), g.get(0).getDouble(1), 1e-12);
    assertEquals(0.0, g.get(1).getDouble(0));
    assertEquals(z.shape(), g.get(1).shape());
  }

  @Test
  void stopGradientBlocksTheGradientEvenThoughItReturnsTheSameValues() {
    Tensor x = GradCheck.random(1, -1, 1, 3);
    Tape tape = rt.push();
    Tensor twice = rt.apply("ScalarOp", Attrs.of("op", "Mul", "scalar", 2.0, "left", false), x)[0];
    Tensor stopped = rt.apply("StopGradient", Attrs.EMPTY, twice)[0];
    Tensor thrice = rt.apply("ScalarOp", Attrs.of("op", "Mul", "scalar", 3.0, "left", false), x)[0];
    Tensor sum = rt.apply("Add", Attrs.EMPTY, stopped, thrice)[0];
    rt.pop(tape);
    Tensor g = Autodiff.gradients(rt, tape, List.of(sum), null, List.of(x)).get(0);
    for (int i = 0; i < 3; i++) {
      assertEquals(3.0, g.getDouble(i), 0);
    }
  }

  /**
   * Two calls each making their own small constants with equal values (a loss's scalars) merge; a
   * constant with another value, or a large one, keeps its call.
   */
  @Test
  void callsOnEqualSmallConstantsMerge() {
    Tensor x = GradCheck.random(1, -1, 1, 3, 3);
    Tape trace = rt.push();
    Tensor xa = x.alias();
    trace.addLeaves(List.of(xa));
    Tensor a = rt.apply("Mul", Attrs.EMPTY, xa, Tensor.ofFloats(Shape.of(), new float[] {2f}))[0];
    Tensor b = rt.apply("Mul", Attrs.EMPTY, xa, Tensor.ofFloats(Shape.of(), new float[] {2f}))[0];
    Tensor c = rt.apply("Mul", Attrs.EMPTY, xa, Tensor.ofFloats(Shape.of(), new float[] {3f}))[0];
    Tensor sum = rt.apply("Add", Attrs.EMPTY, rt.apply("Add", Attrs.EMPTY, a, b)[0], c)[0];
    rt.pop(trace);
    Graph graph = Graph.compile(trace, List.of(xa), List.of(sum));
    assertEquals(List.of("Mul", "Mul", "Add", "Add"), graph.opNames(), "the 2x products merged");
    assertEquals(7 * x.getDouble(4), graph.run(rt, List.of(x)).get(0).getDouble(4), 1e-6);
  }

  @Test
  void repeatedComputationsAndDeadNodesLeaveTheGraph() {
    Tensor x = GradCheck.random(1, -1, 1, 3, 3);
    Variable w = new Variable("w", GradCheck.random(2, -1, 1, 3, 3));
    Tape trace = rt.push();
    Tensor xa = x.alias();
    trace.addLeaves(List.of(xa));
    Tensor a = rt.apply("MatMul", Attrs.EMPTY, xa, w)[0];
    Tensor b = rt.apply("MatMul", Attrs.EMPTY, xa, w)[0]; // the same product again
    rt.apply("Exp", Attrs.EMPTY, xa); // unused
    Tensor sum = rt.apply("Add", Attrs.EMPTY, a, b)[0];
    rt.apply("Assign", Attrs.EMPTY, w, sum);
    Tensor after = rt.apply("MatMul", Attrs.EMPTY, xa, w)[0]; // reads the new w: not shared
    rt.pop(trace);
    Graph graph = Graph.compile(trace, List.of(xa), List.of(sum, after));
    assertEquals(List.of("Load", "MatMul", "Add", "Assign", "Load", "MatMul"), graph.opNames());
    Tensor wBefore = w.value();
    List<Tensor> out = graph.run(rt, List.of(x));
    Tensor expected = rt.apply("MatMul", Attrs.EMPTY, x, wBefore)[0];
    assertEquals(2 * expected.getDouble(4), out.get(0).getDouble(4), 1e-12);
    assertEquals(out.get(0).getDouble(4), w.value().getDouble(4), 0);
  }

  /** W -> MatMul -> BatchNorm(gamma, beta) -> weighted sum; SGD on W and gamma. */
  private Tensor bnStep(Variable[] v, Tensor x, Tensor weights) {
    Tape tape = rt.push();
    Tensor h = rt.apply("MatMul", Attrs.EMPTY, x, v[0])[0];
    Attrs bn = Attrs.of("is_training", true, "epsilon", 1e-5, "momentum", 0.1);
    Tensor y = rt.apply("BatchNorm", bn, h, v[1], v[2], v[3], v[4])[0];
    Tensor loss =
        rt.apply(
                "ReduceSum",
                Attrs.of("axis", List.of(), "keep_dims", false),
                rt.apply("Mul", Attrs.EMPTY, y, weights)[0])[0];
    rt.pop(tape);
    List<Tensor> g = Autodiff.gradients(rt, tape, List.of(loss), null, List.of(v[0], v[1]));
    for (int i = 0; i < 2; i++) {
      Tensor upd =
          rt.apply("ScalarOp", Attrs.of("op", "Mul", "scalar", 0.5, "left", false), g.get(i))[0];
      rt.apply("Assign", Attrs.EMPTY, v[i], rt.apply("Sub", Attrs.EMPTY, v[i], upd)[0]);
    }
    return loss;
  }

  private static Variable[] bnVariables() {
    return new Variable[] {
      new Variable("w", GradCheck.random(3, -1, 1, 3, 4)),
      new Variable("gamma", GradCheck.random(4, 0.5, 1.5, 4)),
      new Variable("beta", GradCheck.random(5, -1, 1, 4)),
      new Variable("mean", GradCheck.random(6, -1, 1, 4)),
      new Variable("var", GradCheck.random(7, 0.5, 1.5, 4))
    };
  }

  @Test
  void aTracedBatchNormStepReadsTheUpdatedScaleInItsBackwardPass() {
    Tensor x = GradCheck.random(1, -1, 1, 6, 3);
    Tensor weights = GradCheck.random(2, -1, 1, 6, 4);
    Variable[] eager = bnVariables();
    double[] expected = new double[4];
    for (int s = 0; s < 4; s++) {
      expected[s] = bnStep(eager, x, weights).getDouble(0);
    }
    Variable[] traced = bnVariables();
    Tape trace = rt.push();
    Tensor xa = x.alias();
    trace.addLeaves(List.of(xa));
    Tensor loss0 = bnStep(traced, xa, weights);
    rt.pop(trace);
    Graph graph = Graph.compile(trace, List.of(xa), List.of(loss0));
    for (int s = 1; s < 4; s++) {
      assertEquals(expected[s], graph.run(rt, List.of(x)).get(0).getDouble(0), 1e-12);
    }
  }

  private static long bytes(Tensor t) {
    return (long) t.size() * t.dtype().itemSize();
  }
}
