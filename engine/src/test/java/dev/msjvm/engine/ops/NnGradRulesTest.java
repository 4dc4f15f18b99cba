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
 * The gradient rules of the neural-network and indexing operators against central finite
 * differences: they wire the grad kernels (tested on their own) to the right inputs and attributes.
 */
class NnGradRulesTest {
  private static Tensor ints(DType t, int[] dims, long... v) {
    return Tensor.of(t, Shape.of(dims), java.util.Arrays.stream(v).boxed().toList());
  }

  private static Tensor f32(Tensor t) {
    return t.astype(DType.FLOAT32);
  }

  static Stream<Arguments> cases() {
    Tensor x4 = random(1, -1, 1, 2, 3, 5, 5);
    Tensor logits = random(2, -2, 2, 4, 5);
    // Dense labels are distributions (rows sum to 1): MindSpore's backprop, softmax - labels,
    // is the gradient only then.
    Tensor raw = random(3, 0.1, 1, 4, 5);
    Tensor labels =
        Tensor.ofDoubles(
            DType.FLOAT64,
            raw.shape(),
            i -> {
              double sum = 0;
              for (int k = 0; k < 5; k++) {
                sum += raw.getDouble(i / 5 * 5 + k);
              }
              return raw.getDouble(i) / sum;
            });
    Tensor seq = random(4, -1, 1, 3, 4);
    Tensor cond =
        Tensor.of(
            DType.BOOL,
            Shape.of(3, 4),
            List.of(true, false, true, true, false, false, true, false, true, true, false, true));
    return Stream.of(
        Arguments.of("BiasAdd", Attrs.EMPTY, List.of(x4, random(5, -1, 1, 3)), new int[] {0, 1}),
        Arguments.of(
            "BiasAdd", Attrs.EMPTY, List.of(logits, random(6, -1, 1, 5)), new int[] {0, 1}),
        Arguments.of(
            "BatchMatMul",
            Attrs.EMPTY,
            List.of(random(7, -1, 1, 2, 3, 4), random(8, -1, 1, 2, 4, 2)),
            new int[] {0, 1}),
        Arguments.of(
            "BatchMatMul",
            Attrs.of("transpose_a", true, "transpose_b", true),
            List.of(random(9, -1, 1, 2, 4, 3), random(10, -1, 1, 2, 4)),
            new int[] {0, 1}),
        Arguments.of(
            "MaxPool",
            Attrs.of(
                "kernel_size",
                List.of(1, 1, 2, 2),
                "strides",
                List.of(1, 1, 2, 2),
                "pad_mode",
                "VALID"),
            List.of(x4),
            new int[] {0}),
        Arguments.of(
            "AvgPool",
            Attrs.of(
                "kernel_size",
                List.of(1, 1, 3, 3),
                "strides",
                List.of(1, 1, 2, 2),
                "pad_mode",
                "SAME"),
            List.of(x4),
            new int[] {0}),
        Arguments.of(
            "AdaptiveAvgPool2D",
            Attrs.of("output_size", List.of(3, 2)),
            List.of(x4),
            new int[] {0}),
        Arguments.of(
            "AdaptiveAvgPool2D",
            Attrs.of("output_size", List.of(-1, 4)),
            List.of(random(19, -1, 1, 3, 4, 7)),
            new int[] {0}),
        Arguments.of(
            "BatchNorm",
            Attrs.of("is_training", false, "epsilon", 1e-5, "momentum", 0.1),
            List.of(
                x4,
                random(11, 0.5, 1.5, 3),
                random(12, -1, 1, 3),
                random(13, -1, 1, 3),
                random(14, 0.5, 1.5, 3)),
            new int[] {0, 1, 2}),
        Arguments.of(
            "LayerNorm",
            Attrs.of("begin_norm_axis", 1, "begin_params_axis", 1, "epsilon", 1e-7),
            List.of(seq, random(15, 0.5, 1.5, 4), random(16, -1, 1, 4)),
            new int[] {0, 1, 2}),
        Arguments.of("GeLU", Attrs.EMPTY, List.of(seq), new int[] {0}),
        Arguments.of(
            "SoftmaxCrossEntropyWithLogits", Attrs.EMPTY, List.of(logits, labels), new int[] {0}),
        Arguments.of(
            "SparseSoftmaxCrossEntropyWithLogits",
            Attrs.EMPTY,
            List.of(logits, ints(DType.INT32, new int[] {4}, 0, 4, 2, 2)),
            new int[] {0}),
        Arguments.of(
            "Concat", Attrs.of("axis", 1), List.of(seq, random(17, -1, 1, 3, 2)), new int[] {0, 1}),
        Arguments.of("Split", Attrs.of("axis", 1, "output_num", 2), List.of(seq), new int[] {0}),
        Arguments.of(
            "PadV3",
            Attrs.of("paddings", List.of(1, 2, 2, 1), "mode", "reflect"),
            List.of(random(24, -1, 1, 1, 2, 3, 4)),
            new int[] {0}),
        Arguments.of(
            "PadV3",
            Attrs.of("paddings", List.of(2, -1, 1, 3), "mode", "constant"),
            List.of(random(25, -1, 1, 2, 3, 4)),
            new int[] {0}),
        Arguments.of(
            "PadV3",
            Attrs.of(
                "paddings", List.of(1, 3, 2, 1), "mode", "circular", "paddings_contiguous", false),
            List.of(random(26, -1, 1, 1, 2, 3, 4)),
            new int[] {0}),
        Arguments.of(
            "KLDivLoss",
            Attrs.of("reduction", "mean"),
            List.of(seq, random(21, 0.1, 1.5, 3, 4)),
            new int[] {0}),
        Arguments.of(
            "KLDivLoss",
            Attrs.of("reduction", "batchmean"),
            List.of(seq, random(22, 0.1, 1.5, 3, 4)),
            new int[] {0}),
        Arguments.of(
            "KLDivLoss",
            Attrs.of("reduction", "none"),
            List.of(seq, random(23, 0.1, 1.5, 3, 4)),
            new int[] {0}),
        Arguments.of(
            "Gather",
            Attrs.of("axis", 0),
            List.of(seq, ints(DType.INT64, new int[] {2, 2}, 2, 0, 2, 1)),
            new int[] {0}),
        Arguments.of(
            "Select", Attrs.EMPTY, List.of(cond, seq, random(18, -1, 1, 4)), new int[] {1, 2}),
        Arguments.of("Tile", Attrs.of("multiples", List.of(2, 1, 2)), List.of(seq), new int[] {0}),
        Arguments.of(
            "StridedSlice",
            Attrs.of("begin", List.of(0, 3), "end", List.of(3, 0), "strides", List.of(2, -2)),
            List.of(seq),
            new int[] {0}));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void gradientMatchesFiniteDifferences(String op, Attrs attrs, List<Tensor> inputs, int[] wrt) {
    GradCheck.check(op, attrs, inputs, wrt);
  }

  @ParameterizedTest(name = "Conv2D {0}")
  @MethodSource("convCases")
  void convolutionGradientInFloat32(Attrs attrs) {
    // Conv2D runs in float32; it is linear in each input, so a large step is exact up to rounding.
    Tensor x = f32(random(20, -1, 1, 2, 3, 6, 5));
    Tensor w = f32(random(21, -1, 1, 4, 3, 3, 2));
    GradCheck.check("Conv2D", attrs, List.of(x, w), 0.25, 2e-3, 0, 1);
  }

  @ParameterizedTest(name = "Conv2DTranspose {0}")
  @MethodSource("convCases")
  void transposedConvolutionGradientInFloat32(Attrs attrs) {
    // Conv2DTranspose(x, w) maps a Conv2D's output back to its input shape; also linear per input.
    Tensor w = f32(random(21, -1, 1, 4, 3, 3, 2));
    Shape input = Shape.of(2, 3, 6, 5);
    Shape out =
        OpTable.get("Conv2D")
            .infer()
            .outputs(
                attrs,
                List.of(
                    new dev.msjvm.engine.ir.AbstractTensor(input, DType.FLOAT32),
                    new dev.msjvm.engine.ir.AbstractTensor(w.shape(), DType.FLOAT32)))
            .get(0)
            .shape();
    Tensor x = f32(random(22, -1, 1, out.toArray()));
    Attrs transposed = attrs.with("input_shape", input.dims());
    GradCheck.check("Conv2DTranspose", transposed, List.of(x, w), 0.25, 2e-3, 0, 1);
    GradCheck.check("Conv2DBackpropInput", transposed, List.of(x, w), 0.25, 2e-3, 0, 1);
  }

  static Stream<Attrs> convCases() {
    return Stream.of(
        Attrs.of(
            "pad_mode", "valid", "stride", List.of(1, 1, 1, 1), "dilation", List.of(1, 1, 1, 1)),
        Attrs.of(
            "pad_mode", "same", "stride", List.of(1, 1, 2, 2), "dilation", List.of(1, 1, 1, 1)),
        Attrs.of(
            "pad_mode",
            "pad",
            "pad",
            List.of(1, 0, 2, 1),
            "stride",
            List.of(1, 1, 1, 2),
            "dilation",
            List.of(1, 1, 2, 1)));
  }
}
