package dev.msjvm.engine.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.exec.Autodiff;
import dev.msjvm.engine.exec.Runtime;
import dev.msjvm.engine.exec.Tape;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * PythonPrimitive, a script's own primitive in a graph compiled on shapes: typed by the attributes
 * its infer functions gave, differentiated by its bprop callback, sharded by MindSpore's fallback
 * (batch parallel where the first input's and the output's dimension 0 agree, else whole), and
 * refusing to run with values.
 */
class PythonPrimitiveOpsTest {
  private static final OpDef OP = OpTable.get("PythonPrimitive");

  private static Attrs loss() {
    return Attrs.of("primitive", "VirtualLoss", "shape", List.of(1), "dtype", "FLOAT32");
  }

  @Test
  void infersTheOutputItsPythonInferGave() {
    List<AbstractTensor> out =
        OP.infer().outputs(loss(), List.of(AbstractTensor.of(DType.FLOAT16, 64, 32)));
    assertEquals(List.of(new AbstractTensor(Shape.of(1), DType.FLOAT32)), out);
  }

  @Test
  void runningItWithValuesIsARuntimeErrorNamingIt() {
    Runtime rt = new Runtime(NaiveBlas::new);
    Tensor x = Tensor.ofFloats(Shape.of(2), new float[] {1, 2});
    MsException e = assertThrows(MsException.class, () -> rt.apply(OP, loss(), new Object[] {x}));
    assertEquals("RuntimeError", e.pythonType());
    assertTrue(e.getMessage().contains("'VirtualLoss' has no kernel"), e.getMessage());
  }

  @Test
  void itsGradientIsWhatItsBpropReturns() {
    Runtime rt = new Runtime(NaiveBlas::new);
    List<List<Shape>> seen = new ArrayList<>();
    Function<Tensor[], Tensor[]> bprop =
        args -> {
          seen.add(java.util.Arrays.stream(args).map(Tensor::shape).toList());
          // d(loss)/dx = 2 * x, as a bprop composed of registered operators would say
          return new Tensor[] {
            rt.apply("ScalarOp", Attrs.of("op", "Mul", "scalar", 2.0, "left", false), args[0])[0]
          };
        };
    Tensor x = Tensor.abstractOf(AbstractTensor.of(DType.FLOAT32, 8, 4));
    Tape tape = rt.pushAbstract();
    tape.addLeaves(List.of(x));
    Tensor y = rt.apply(OP, loss().with("bprop", bprop), new Object[] {x})[0];
    List<Tensor> grads = Autodiff.gradients(rt, tape, List.of(y), null, List.of(x));
    rt.pop(tape);
    assertEquals(List.of(List.of(Shape.of(8, 4), Shape.of(1), Shape.of(1))), seen);
    assertEquals(new AbstractTensor(Shape.of(8, 4), DType.FLOAT32), grads.get(0).type());
  }

  @Test
  void withoutABpropDifferentiatingIsAnError() {
    Runtime rt = new Runtime(NaiveBlas::new);
    Tensor x = Tensor.abstractOf(AbstractTensor.of(DType.FLOAT32, 8, 4));
    Tape tape = rt.pushAbstract();
    tape.addLeaves(List.of(x));
    Tensor y = rt.apply(OP, loss(), new Object[] {x})[0];
    MsException e =
        assertThrows(
            MsException.class, () -> Autodiff.gradients(rt, tape, List.of(y), null, List.of(x)));
    assertTrue(e.getMessage().contains("defines no bprop"), e.getMessage());
    rt.reset();
  }

  @Test
  void shardsAsMindSporesFallbackForOperatorsWithoutInfo() {
    // VirtualLoss [64, 32] -> [1]: dimension 0 differs, every tensor whole (StandAloneInfo)
    assertEquals(
        "__->_", OP.sharding().specFor(loss(), List.of(Shape.of(64, 32))).toString().split(" ")[0]);
    // VirtualLossGrad (x [64, 32], out [1], dout [1]) -> [64, 32]: x and the output split on
    // dimension 0 (BatchParallelInfo), the scalars whole
    Attrs grad =
        Attrs.of("primitive", "VirtualLossGrad", "shape", List.of(64, 32), "dtype", "FLOAT32");
    assertEquals(
        "a_,_,_->a_",
        OP.sharding()
            .specFor(grad, List.of(Shape.of(64, 32), Shape.of(1), Shape.of(1)))
            .toString()
            .split(" ")[0]);
  }
}
