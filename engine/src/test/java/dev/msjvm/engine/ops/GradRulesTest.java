package dev.msjvm.engine.ops;

import static dev.msjvm.engine.ops.GradCheck.random;

import dev.msjvm.engine.tensor.Tensor;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every differentiable operator's gradient against central finite differences (float64). */
class GradRulesTest {
  private static final Tensor A23 = random(1, -2, 2, 2, 3);
  private static final Tensor B23 = random(2, -2, 2, 2, 3);
  private static final Tensor B3 = random(3, -2, 2, 3);
  private static final Tensor B21 = random(4, -2, 2, 2, 1);
  private static final Tensor P23 = random(5, 0.5, 2, 2, 3);
  private static final Tensor P3 = random(6, 0.5, 2, 3);
  private static final Tensor C34 = random(7, -1, 1, 3, 4);
  private static final Tensor C42 = random(8, -1, 1, 4, 2);
  private static final Tensor D234 = random(9, -1, 1, 2, 3, 4);

  static Stream<Arguments> cases() {
    Attrs none = Attrs.EMPTY;
    return Stream.of(
        Arguments.of("Add", none, List.of(A23, B3)),
        Arguments.of("Add", none, List.of(A23, B21)),
        Arguments.of("Sub", none, List.of(B21, A23)),
        Arguments.of("Mul", none, List.of(A23, B3)),
        Arguments.of("Div", none, List.of(A23, P23)),
        Arguments.of("RealDiv", none, List.of(B3, P23)),
        Arguments.of("Maximum", none, List.of(A23, B23)),
        Arguments.of("Minimum", none, List.of(A23, B3)),
        Arguments.of("Pow", none, List.of(P23, B3)),
        Arguments.of("Neg", none, List.of(A23)),
        Arguments.of("Abs", none, List.of(A23)),
        Arguments.of("Exp", none, List.of(A23)),
        Arguments.of("Log", none, List.of(P23)),
        Arguments.of("Sqrt", none, List.of(P23)),
        Arguments.of("Square", none, List.of(A23)),
        Arguments.of("ReLU", none, List.of(A23)),
        Arguments.of("Sigmoid", none, List.of(A23)),
        Arguments.of("Tanh", none, List.of(A23)),
        Arguments.of("ScalarOp", Attrs.of("op", "Add", "scalar", 2.5, "left", false), List.of(A23)),
        Arguments.of("ScalarOp", Attrs.of("op", "Sub", "scalar", 2.5, "left", true), List.of(A23)),
        Arguments.of(
            "ScalarOp", Attrs.of("op", "Mul", "scalar", -1.5, "left", false), List.of(A23)),
        Arguments.of(
            "ScalarOp", Attrs.of("op", "RealDiv", "scalar", 3.0, "left", true), List.of(P23)),
        Arguments.of(
            "ScalarOp", Attrs.of("op", "RealDiv", "scalar", 3.0, "left", false), List.of(A23)),
        Arguments.of("ScalarOp", Attrs.of("op", "Pow", "scalar", 3.0, "left", false), List.of(A23)),
        Arguments.of("ScalarOp", Attrs.of("op", "Pow", "scalar", 1.7, "left", true), List.of(A23)),
        Arguments.of(
            "ScalarOp", Attrs.of("op", "Maximum", "scalar", 0.1, "left", false), List.of(A23)),
        Arguments.of("MatMul", none, List.of(C34, C42)),
        Arguments.of(
            "MatMul", Attrs.of("transpose_a", true), List.of(random(10, -1, 1, 4, 3), C42)),
        Arguments.of(
            "MatMul", Attrs.of("transpose_b", true), List.of(C34, random(11, -1, 1, 2, 4))),
        Arguments.of(
            "MatMul",
            Attrs.of("transpose_a", true, "transpose_b", true),
            List.of(random(12, -1, 1, 4, 3), random(13, -1, 1, 2, 4))),
        Arguments.of("ReduceSum", Attrs.of("axis", List.of(1), "keep_dims", false), List.of(D234)),
        Arguments.of("ReduceSum", Attrs.of("axis", List.of(), "keep_dims", false), List.of(D234)),
        Arguments.of(
            "ReduceMean", Attrs.of("axis", List.of(0, 2), "keep_dims", true), List.of(D234)),
        Arguments.of("ReduceMax", Attrs.of("axis", List.of(-1), "keep_dims", false), List.of(D234)),
        Arguments.of("ReduceMin", Attrs.of("axis", List.of(), "keep_dims", false), List.of(D234)),
        Arguments.of("Reshape", Attrs.of("shape", List.of(4, -1)), List.of(D234)),
        Arguments.of("ExpandDims", Attrs.of("axis", 1), List.of(A23)),
        Arguments.of("Squeeze", Attrs.of("axis", List.of()), List.of(B21)),
        Arguments.of("Flatten", none, List.of(D234)),
        Arguments.of("Transpose", Attrs.of("perm", List.of(2, 0, 1)), List.of(D234)),
        Arguments.of("BroadcastTo", Attrs.of("shape", List.of(4, 2, 3)), List.of(B21)),
        Arguments.of("Cast", Attrs.of("dtype", "FLOAT64"), List.of(A23)),
        Arguments.of("Softmax", Attrs.of("axis", -1), List.of(D234)),
        Arguments.of("Softmax", Attrs.of("axis", 1), List.of(D234)),
        Arguments.of("LogSoftmax", Attrs.of("axis", -1), List.of(A23)),
        Arguments.of("LogSoftmax", Attrs.of("axis", 0), List.of(D234)),
        Arguments.of("Pow", none, List.of(P3, random(14, -1, 1, 2, 3))));
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @MethodSource("cases")
  void gradientMatchesFiniteDifferences(String op, Attrs attrs, List<Tensor> inputs) {
    int[] all = new int[inputs.size()];
    for (int i = 0; i < all.length; i++) {
      all[i] = i;
    }
    GradCheck.check(op, attrs, inputs, all);
  }
}
