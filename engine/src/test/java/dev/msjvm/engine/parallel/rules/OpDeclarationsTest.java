package dev.msjvm.engine.parallel.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.exec.Runtime;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.ops.OpDef;
import dev.msjvm.engine.ops.OpTable;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every registered operator is declared whole (kernel, shape and dtype inference, gradient, cost
 * role, sharding rule), its inference gives the types its kernel computes, and it refuses bad
 * inputs with the kernel's own MindSpore text.
 */
class OpDeclarationsTest {

  @Test
  void everyOperatorIsDeclaredWhole() {
    List<String> missing = new ArrayList<>();
    for (String name : OpTable.names()) {
      OpDef d = OpTable.get(name);
      if (d.infer() == null) {
        missing.add(name + ": shape/dtype inference");
      }
      if (d.grad() == null) {
        missing.add(name + ": gradient (GradRule.UNDEFINED if none is defined)");
      }
      if (d.costRole() == null) {
        missing.add(name + ": cost role");
      }
      if (d.sharding() == null) {
        missing.add(name + ": sharding rule");
      } else if (!d.sharding().name().equals(name)) {
        missing.add(name + ": its sharding rule is bound to " + d.sharding().name());
      }
    }
    assertEquals(List.of(), missing);
  }

  /** The rule validator's cases call every operator, so every inference below is exercised. */
  @Test
  void everyOperatorHasACase() {
    Set<String> covered = new TreeSet<>();
    for (RuleCases.Case c : RuleCases.all()) {
      covered.add(c.op());
    }
    Set<String> missing = new TreeSet<>(OpTable.names());
    missing.removeAll(covered);
    // PythonPrimitive has no kernel (it exists in graphs compiled on shapes):
    // PythonPrimitiveOpsTest
    // covers its inference, gradient, rule and kernel error.
    missing.remove("PythonPrimitive");
    assertEquals(Set.of(), missing);
  }

  static List<RuleCases.Case> cases() {
    return RuleCases.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void inferenceGivesTheKernelsTypes(RuleCases.Case c) {
    OpDef def = OpTable.get(c.op());
    List<AbstractTensor> in = c.inputs().stream().map(Tensor::type).toList();
    List<AbstractTensor> inferred = def.infer().outputs(c.attrs(), in);
    List<AbstractTensor> computed = new ArrayList<>();
    for (Tensor t : RuleCases.run(c.op(), c.attrs(), c.inputs())) {
      computed.add(t.type());
    }
    assertEquals(computed, inferred, c.name());
  }

  /**
   * An output that is the storage of an input is declared so ({@link OpDef#aliasOf}), and a
   * declared one is: a dry run counts memory from these declarations as a replay counts storage.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void aliasesAreDeclared(RuleCases.Case c) {
    OpDef def = OpTable.get(c.op());
    Object[] in = new Object[c.inputs().size()];
    for (int i = 0; i < in.length; i++) {
      Tensor t = c.inputs().get(i).copy();
      in[i] = def.writes(i) ? new Variable("v" + i, t) : t;
    }
    Tensor[] out = new Runtime(NaiveBlas::new).apply(def, c.attrs(), in);
    for (int j = 0; j < out.length; j++) {
      List<Integer> shared = new ArrayList<>();
      for (int i = 0; i < in.length; i++) {
        Tensor t = in[i] instanceof Variable v ? v.current() : (Tensor) in[i];
        if (out[j].sharesStorage(t)) {
          shared.add(i);
        }
      }
      int declared = def.aliasOf(j);
      if (declared < 0) {
        assertEquals(List.of(), shared, c.name() + " output " + j + " is new storage");
      } else {
        assertTrue(shared.contains(declared), c.name() + " output " + j + " is input " + declared);
      }
    }
  }

  /** A call the operator refuses. */
  record Bad(String name, String op, Attrs attrs, List<Tensor> inputs) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Tensor t(DType dtype, int... dims) {
    return Tensor.zeros(dtype, Shape.of(dims));
  }

  private static Tensor f(int... dims) {
    return t(DType.FLOAT32, dims);
  }

  private static Tensor i32(int... dims) {
    return t(DType.INT32, dims);
  }

  static List<Bad> refused() {
    Attrs none = Attrs.EMPTY;
    Attrs pool = Attrs.of("kernel_size", List.of(2, 2), "strides", List.of(2, 2));
    Attrs conv = Attrs.of("stride", List.of(1, 1), "dilation", List.of(1, 1));
    return List.of(
        new Bad("Add does not broadcast", "Add", none, List.of(f(2, 3), f(4))),
        new Bad("Pow of bools", "Pow", none, List.of(t(DType.BOOL, 2), t(DType.BOOL, 2))),
        new Bad("Exp of ints", "Exp", none, List.of(i32(2))),
        new Bad("MatMul k differs", "MatMul", none, List.of(f(2, 3), f(4, 5))),
        new Bad("MatMul types differ", "MatMul", none, List.of(f(2, 3), i32(3, 5))),
        new Bad("BatchMatMul of a vector", "BatchMatMul", none, List.of(f(3), f(3, 2))),
        new Bad(
            "Reshape to a wrong size", "Reshape", Attrs.of("shape", List.of(4)), List.of(f(2, 3))),
        new Bad(
            "Transpose repeats an axis",
            "Transpose",
            Attrs.of("perm", List.of(0, 0)),
            List.of(f(2, 3))),
        new Bad("Flatten of a scalar", "Flatten", none, List.of(f())),
        new Bad("Concat shapes differ", "Concat", Attrs.of("axis", 0), List.of(f(2, 3), f(2, 4))),
        new Bad(
            "Split not divisible", "Split", Attrs.of("axis", 0, "output_num", 2), List.of(f(3, 2))),
        new Bad(
            "ReduceSum axis out of range",
            "ReduceSum",
            Attrs.of("axis", List.of(3), "keep_dims", false),
            List.of(f(2, 3))),
        new Bad("Softmax of ints", "Softmax", Attrs.of("axis", -1), List.of(i32(2, 3))),
        new Bad("Gather float indices", "Gather", Attrs.of("axis", 0), List.of(f(4, 3), f(2))),
        new Bad(
            "OneHot float indices",
            "OneHot",
            Attrs.of("depth", 3, "axis", -1),
            List.of(f(2), f(), f())),
        new Bad("Select int condition", "Select", none, List.of(i32(2), f(2), f(2))),
        new Bad("BiasAdd bias size", "BiasAdd", none, List.of(f(2, 3), f(4))),
        new Bad("MaxPool of rank 3", "MaxPool", pool, List.of(f(1, 4, 4))),
        new Bad(
            "AdaptiveAvgPool2D of rank 2",
            "AdaptiveAvgPool2D",
            Attrs.of("output_size", List.of(2, 2)),
            List.of(f(4, 4))),
        new Bad(
            "AdaptiveAvgPool2D of ints",
            "AdaptiveAvgPool2D",
            Attrs.of("output_size", List.of(2, 2)),
            List.of(i32(1, 4, 4))),
        new Bad("Conv2D channels differ", "Conv2D", conv, List.of(f(1, 3, 5, 5), f(2, 4, 3, 3))),
        new Bad(
            "LayerNorm gamma shape",
            "LayerNorm",
            Attrs.of("begin_norm_axis", 1, "begin_params_axis", 1, "epsilon", 1e-5),
            List.of(f(2, 4), f(3), f(3))),
        new Bad(
            "SparseSoftmaxCrossEntropyWithLogits labels shape",
            "SparseSoftmaxCrossEntropyWithLogits",
            none,
            List.of(f(4, 3), i32(3))),
        new Bad("GeLU of ints", "GeLU", none, List.of(i32(2))),
        new Bad(
            "Tile multiples too short for TileGrad's dout",
            "TileGrad",
            Attrs.of("shape", List.of(2, 3), "multiples", List.of(2, 1)),
            List.of(f(2, 3))),
        new Bad(
            "ApplyMomentum accum shape",
            "ApplyMomentum",
            none,
            List.of(f(3), f(4), f(), f(3), f())));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refused")
  void inferenceRefusesAsTheKernelDoes(Bad b) {
    OpDef def = OpTable.get(b.op());
    MsException kernel =
        assertThrows(MsException.class, () -> RuleCases.run(b.op(), b.attrs(), b.inputs()));
    List<AbstractTensor> in = b.inputs().stream().map(Tensor::type).toList();
    MsException inferred =
        assertThrows(MsException.class, () -> def.infer().outputs(b.attrs(), in));
    assertEquals(kernel.kind(), inferred.kind(), b.name());
    assertEquals(kernel.getMessage(), inferred.getMessage(), b.name());
  }
}
