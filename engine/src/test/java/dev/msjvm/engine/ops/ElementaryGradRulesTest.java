package dev.msjvm.engine.ops;

import static dev.msjvm.engine.ops.GradCheck.random;

import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The gradients of ElementaryOps, ArithmeticOps, ArithmeticExtraOps and ReductionOps against
 * central finite differences (float64), on inputs where MindSpore's bprop is the derivative (SeLU
 * above zero; Mod where the floored and truncated quotients agree; the shrinks and HSigmoid away
 * from their kinks).
 */
class ElementaryGradRulesTest {
  private static final Tensor A = random(21, -2, 2, 2, 3);
  private static final Tensor B3 = random(22, -2, 2, 3);
  private static final Tensor UNIT = random(23, -0.9, 0.9, 2, 3);
  private static final Tensor P = random(24, 0.5, 2, 2, 3);
  private static final Tensor P3 = random(25, 0.5, 2, 3);
  private static final Tensor BIG = random(26, 1.5, 4, 2, 3);
  private static final Tensor CUBE = random(27, -1, 1, 2, 3, 4);

  static Stream<Arguments> cases() {
    Attrs none = Attrs.EMPTY;
    Stream<Arguments> unary =
        Stream.of(
                "Tan",
                "Sinh",
                "Cosh",
                "Atan",
                "Asinh",
                "Inv",
                "BesselI0e",
                "BesselI1e",
                "BesselI0",
                "BesselI1",
                "BesselJ0",
                "BesselJ1",
                "Mish")
            .map(op -> Arguments.of(op, none, List.of(op.equals("Inv") ? P : A)));
    Stream<Arguments> inside =
        Stream.of("Atanh", "Asin", "ACos", "Erfinv")
            .map(op -> Arguments.of(op, none, List.of(UNIT)));
    Stream<Arguments> others =
        Stream.of(
            Arguments.of("Acosh", none, List.of(BIG)),
            Arguments.of("SeLU", none, List.of(P)),
            Arguments.of("Elu", Attrs.of("alpha", 1.0), List.of(A)),
            Arguments.of("HSigmoid", none, List.of(random(28, -2.5, 2.5, 2, 3))),
            Arguments.of("Mod", none, List.of(BIG, P3)),
            Arguments.of("TruncateMod", none, List.of(BIG, P3)),
            Arguments.of("FmodTensor", none, List.of(BIG, P3)),
            Arguments.of("RemainderTensorTensor", none, List.of(BIG, P3)),
            Arguments.of("Atan2", none, List.of(A, B3)),
            Arguments.of("DivNoNan", none, List.of(A, P3)),
            Arguments.of("MulNoNan", none, List.of(A, B3)),
            Arguments.of("Xdivy", none, List.of(A, P3)),
            Arguments.of("Xlogy", none, List.of(A, P3)),
            Arguments.of("SquaredDifference", none, List.of(A, B3)),
            Arguments.of("Hypot", none, List.of(A, B3)),
            Arguments.of("NextAfter", none, List.of(A, random(29, -2, 2, 2, 3))),
            Arguments.of("AddcmulExt", Attrs.of("value", 0.5), List.of(A, B3, P)),
            Arguments.of("ReduceProd", Attrs.of("axis", List.of(1)), List.of(CUBE)),
            Arguments.of("ReduceProd", Attrs.of("axis", List.of(0, 2)), List.of(CUBE)),
            Arguments.of("ReduceProd", Attrs.of("axis", List.of()), List.of(A)),
            Arguments.of("CumProd", Attrs.of("axis", 1), List.of(P)),
            Arguments.of(
                "CumProd", Attrs.of("axis", 0, "exclusive", true, "reverse", true), List.of(P)),
            Arguments.of("L2Normalize", Attrs.of("axis", 1, "epsilon", 1e-4), List.of(CUBE)),
            Arguments.of("ArgMaxWithValue", Attrs.of("axis", 1), List.of(CUBE)),
            Arguments.of(
                "ArgMinWithValue", Attrs.of("axis", -1, "keep_dims", true), List.of(CUBE)));
    return Stream.of(unary, inside, others).flatMap(s -> s);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void gradientMatchesFiniteDifferences(String op, Attrs attrs, List<Tensor> inputs) {
    int[] all = new int[inputs.size()];
    for (int i = 0; i < all.length; i++) {
      all[i] = i;
    }
    GradCheck.check(op, attrs, inputs, all);
  }

  /**
   * The operators MindSpore's kernels take in float16/float32 only, in float32: the shrinks and
   * PReLU (linear away from their kinks), SquareSumAll (quadratic, so central differences are exact
   * up to rounding) and RmsNorm.
   */
  @ParameterizedTest(name = "{0} float32")
  @MethodSource("float32Cases")
  void float32GradientMatchesFiniteDifferences(String op, Attrs attrs, List<Tensor> inputs) {
    List<Tensor> f32 = inputs.stream().map(t -> t.astype(DType.FLOAT32)).toList();
    int[] all = new int[f32.size()];
    for (int i = 0; i < all.length; i++) {
      all[i] = i;
    }
    GradCheck.check(op, attrs, f32, 1e-2, 2e-3, all);
  }

  static Stream<Arguments> float32Cases() {
    return Stream.of(
        Arguments.of("HShrink", Attrs.of("lambd", 0.25), List.of(P)),
        Arguments.of("SoftShrink", Attrs.of("lambd", 0.25), List.of(P)),
        Arguments.of("SquareSumAll", Attrs.EMPTY, List.of(A, random(30, -1, 1, 2, 3))),
        Arguments.of("FastGeLU", Attrs.EMPTY, List.of(A)),
        Arguments.of("SiLU", Attrs.EMPTY, List.of(A)),
        Arguments.of("PReLU", Attrs.EMPTY, List.of(CUBE, random(31, 0.1, 0.5, 3))),
        Arguments.of("PReLU", Attrs.EMPTY, List.of(A, random(32, 0.1, 0.5, 1))),
        Arguments.of("RmsNorm", Attrs.of("epsilon", 1e-6), List.of(CUBE, random(33, 0.5, 2, 4))),
        Arguments.of(
            "RmsNorm", Attrs.of("epsilon", 1e-6), List.of(CUBE, random(34, 0.5, 2, 3, 4))));
  }

  /**
   * MaskedFill: the input gets dout where the mask is false, the value the sum where it is true.
   */
  @ParameterizedTest(name = "MaskedFill value={0}")
  @MethodSource("maskedFill")
  void maskedFillGradient(boolean valueTensor) {
    Tensor mask = Tensor.ofDoubles(DType.BOOL, Shape.of(3), i -> i % 2);
    List<Tensor> in =
        valueTensor
            ? List.of(A, mask, Tensor.ofDoubles(DType.FLOAT64, Shape.scalar(), i -> 0.75))
            : List.of(A, mask);
    Attrs attrs = valueTensor ? Attrs.EMPTY : Attrs.of("value", 0.75);
    if (valueTensor) {
      GradCheck.check("MaskedFill", attrs, in, 0, 2);
    } else {
      GradCheck.check("MaskedFill", attrs, in, 0);
    }
  }

  /**
   * TensorScatter*: the input's and the updates' gradients (distinct tuples, so Max and Min have
   * one winner per element).
   */
  @ParameterizedTest(name = "TensorScatter{0}")
  @MethodSource("scatterModes")
  void tensorScatterGradient(String mode) {
    Tensor x = random(40, 0.5, 2, 3, 4);
    Tensor idx =
        Tensor.ofDoubles(DType.INT32, Shape.of(3, 2), i -> new int[] {0, 1, 2, 3, 1, 0}[i]);
    Tensor up = random(41, 0.5, 2, 3);
    GradCheck.check("TensorScatter" + mode, Attrs.EMPTY, List.of(x, idx, up), 0, 2);
  }

  /** GatherD along each dim (index values repeat, so some elements collect several gradients). */
  @ParameterizedTest(name = "GatherD dim={0}")
  @MethodSource("gatherDims")
  void gatherDGradient(int dim) {
    Tensor x = random(42, -1, 1, 3, 4);
    Tensor idx =
        Tensor.ofDoubles(
            DType.INT64, Shape.of(3, 4), i -> dim == 0 ? (i * 7) % 3 : (i * 5) % 4 - (i % 2) * 4);
    GradCheck.check("GatherD", Attrs.of("dim", dim), List.of(x, idx), 0);
  }

  static Stream<Integer> gatherDims() {
    return Stream.of(0, 1);
  }

  static Stream<String> scatterModes() {
    return Stream.of("Update", "Add", "Sub", "Mul", "Div", "Max", "Min");
  }

  static Stream<Boolean> maskedFill() {
    return Stream.of(true, false);
  }
}
