package dev.msjvm.engine.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Calls on small constants fold while a folding tape records (what Python's traces push): they run
 * at once, are not recorded and count as folds, not kernels; calls reading a traced tensor, a
 * variable, a large constant, or on a tape that does not fold, are recorded as before.
 */
class ConstantFoldingTest {
  private final Runtime rt = new Runtime(NaiveBlas::new);

  private static Tensor scalar(double v) {
    return Tensor.ofFloats(Shape.scalar(), new float[] {(float) v});
  }

  @Test
  void smallConstantsFoldOnFoldingTapes() {
    Tensor x =
        Tensor.abstractOf(new dev.msjvm.engine.ir.AbstractTensor(Shape.of(4), DType.FLOAT32));
    Variable w = new Variable("w", Tensor.ofFloats(Shape.of(4), new float[] {1, 2, 3, 4}));
    Tape trace = rt.pushAbstract();
    trace.addLeaves(List.of(x));
    trace.foldConstants();
    long kernels = rt.kernelCalls();
    Tensor less = rt.apply("Less", Attrs.EMPTY, scalar(0.9), scalar(1.0))[0];
    assertFalse(less.isAbstract(), "a folded call has a value while tracing on shapes");
    assertEquals(1, less.getLong(0));
    assertEquals(0, trace.size(), "a folded call is not recorded");
    assertEquals(kernels, rt.kernelCalls());
    assertEquals(1, rt.foldedCalls());
    rt.apply("Add", Attrs.EMPTY, x, scalar(1.0));
    rt.apply("Mul", Attrs.EMPTY, w, scalar(2.0));
    Tensor big = Tensor.ofFloats(Shape.of(65), new float[65]);
    rt.apply("Neg", Attrs.EMPTY, big);
    rt.pop(trace);
    // Add of a leaf, Load + Mul of the variable, Neg of 65 elements
    assertEquals(4, trace.size());
    assertTrue(trace.steps().stream().allMatch(s -> s.outputs()[0].isAbstract()));
  }

  @Test
  void tapesThatDoNotFoldRecordEveryCall() {
    Tape tape = rt.push();
    Tensor c = scalar(3.0);
    rt.apply("Square", Attrs.EMPTY, c);
    rt.pop(tape);
    assertEquals(1, tape.size(), "a gradient tape may differentiate any tensor it is given");
    assertEquals(0, rt.foldedCalls());
  }
}
