package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.exec.Runtime;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.ops.OpDef;
import dev.msjvm.engine.ops.OpTable;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Representative calls of every covered operator, with seeded inputs, for the rule validator. */
final class RuleCases {
  private RuleCases() {}

  /** One call: operator, attributes, full inputs. */
  record Case(String name, String op, Attrs attrs, List<Tensor> inputs) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final class Gen {
    private final SplittableRandom random;

    Gen(long seed) {
      random = new SplittableRandom(seed);
    }

    Tensor f(int... shape) {
      return floats(-1, 1, shape);
    }

    Tensor pos(int... shape) {
      return floats(0.5, 2, shape);
    }

    Tensor floats(double lo, double hi, int... shape) {
      Shape s = Shape.of(shape);
      float[] v = new float[(int) s.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = (float) random.nextDouble(lo, hi);
      }
      return Tensor.ofFloats(s, v);
    }

    Tensor ints(int bound, int... shape) {
      Shape s = Shape.of(shape);
      long[] v = new long[(int) s.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = random.nextInt(bound);
      }
      return Tensor.ofDoubles(DType.INT32, s, i -> v[i]);
    }

    Tensor bools(int... shape) {
      Shape s = Shape.of(shape);
      boolean[] v = new boolean[(int) s.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = random.nextBoolean();
      }
      return Tensor.ofDoubles(DType.BOOL, s, i -> v[i] ? 1 : 0);
    }

    Tensor scalar(double v) {
      return Tensor.ofFloats(Shape.scalar(), new float[] {(float) v});
    }
  }

  /**
   * Runs operator {@code op} on whole inputs through the runtime (copies of them; the inputs it
   * writes passed as variables): the unsharded reference.
   */
  static Tensor[] run(String op, Attrs attrs, List<Tensor> inputs) {
    OpDef def = OpTable.get(op);
    Object[] in = new Object[inputs.size()];
    for (int i = 0; i < in.length; i++) {
      Tensor t = inputs.get(i).copy();
      in[i] = def.writes(i) ? new Variable("v" + i, t) : t;
    }
    return new Runtime(NaiveBlas::new).apply(def, attrs, in);
  }

  /** The operators whose rule is {@link ElementwiseRules#arithmetic}. */
  private static final List<String> BINARY =
      List.of(
          "Add",
          "AddExt",
          "Sub",
          "SubExt",
          "Mul",
          "Div",
          "RealDiv",
          "Maximum",
          "Minimum",
          "Pow",
          "FloorDiv",
          "FloorMod",
          "Igamma",
          "Igammac",
          "IgammaGradA",
          "Zeta",
          "Gcd",
          "Lcm",
          "Equal",
          "NotEqual",
          "Less",
          "LessEqual",
          "Greater",
          "GreaterEqual",
          "ReluGrad",
          "SigmoidGrad",
          "TanhGrad",
          "GeLUGrad",
          "DropoutGrad",
          "Assign",
          "AssignAdd",
          "Select");

  /** The operators whose rule is {@link ElementwiseRules#pointwise}. */
  private static List<String> unary() {
    List<String> names = new ArrayList<>();
    for (dev.msjvm.engine.tensor.Elementwise.Unary u :
        dev.msjvm.engine.tensor.Elementwise.Unary.values()) {
      names.add(u.primitive());
    }
    names.addAll(
        List.of(
            "GeLU",
            "ScalarOp",
            "Cast",
            "ZerosLike",
            "OnesLike",
            "StopGradient",
            "Identity",
            "Load",
            "Dropout"));
    return names;
  }

  static List<Case> all() {
    Gen g = new Gen(20250705L);
    List<Case> c = new ArrayList<>();
    for (String op : BINARY) {
      switch (op) {
        case "Select" ->
            c.add(new Case(op, op, Attrs.EMPTY, List.of(g.bools(8, 4), g.f(8, 4), g.f(4))));
        case "Assign", "AssignAdd", "ReluGrad", "SigmoidGrad", "TanhGrad", "GeLUGrad" ->
            c.add(new Case(op, op, Attrs.EMPTY, List.of(g.f(8, 4), g.f(8, 4))));
        case "DropoutGrad" ->
            c.add(
                new Case(
                    op, op, Attrs.of("keep_prob", 0.5), List.of(g.f(8, 4), g.floats(0, 2, 8, 4))));
        case "Pow", "FloorDiv", "FloorMod", "Div", "RealDiv", "Igamma", "Igammac", "IgammaGradA" ->
            c.add(new Case(op, op, Attrs.EMPTY, List.of(g.pos(8, 4), g.pos(4))));
        case "Zeta" ->
            c.add(new Case(op, op, Attrs.EMPTY, List.of(g.floats(1.5, 3, 8, 4), g.pos(4))));
        case "Gcd", "Lcm" ->
            c.add(new Case(op, op, Attrs.EMPTY, List.of(g.ints(12, 8, 4), g.ints(12, 4))));
        default -> {
          c.add(new Case(op + "[8,4]+[4]", op, Attrs.EMPTY, List.of(g.f(8, 4), g.f(4))));
          if (op.equals("Add") || op.equals("Mul")) {
            c.add(new Case(op + "[8,1]+[1,4]", op, Attrs.EMPTY, List.of(g.f(8, 1), g.f(1, 4))));
            c.add(
                new Case(op + "[2,4]+[4,2,4]", op, Attrs.EMPTY, List.of(g.f(2, 4), g.f(4, 2, 4))));
          }
        }
      }
    }
    for (String op : unary()) {
      Attrs a =
          switch (op) {
            case "ScalarOp" -> Attrs.of("op", "Mul", "scalar", 2.0, "left", false);
            case "Cast" -> Attrs.of("dtype", "FLOAT64");
            case "Dropout" -> Attrs.of("keep_prob", 1.0, "rng", new SplittableRandom(1));
            default -> Attrs.EMPTY;
          };
      c.add(
          new Case(
              op, op, a, List.of(op.equals("Log") || op.equals("Sqrt") ? g.pos(8, 4) : g.f(8, 4))));
    }
    Tensor re = g.f(8, 4);
    Tensor im = g.f(8, 4);
    double[] rv = new double[re.size()];
    double[] iv = new double[im.size()];
    for (int i = 0; i < rv.length; i++) {
      rv[i] = re.getDouble(i);
      iv[i] = im.getDouble(i);
    }
    Tensor z = Tensor.ofComplex(DType.COMPLEX64, re.shape(), rv, iv);
    c.add(new Case("Real", "Real", Attrs.EMPTY, List.of(z)));
    c.add(new Case("Imag", "Imag", Attrs.EMPTY, List.of(z)));
    c.add(new Case("Complex", "Complex", Attrs.EMPTY, List.of(g.f(8, 4), g.f(4))));
    for (boolean lower : new boolean[] {false, true}) {
      Tensor m = g.floats(1, 2, 4, 3, 3); // diagonals away from zero
      c.add(
          new Case(
              "MatrixTriangularSolve lower=" + lower,
              "MatrixTriangularSolve",
              Attrs.of("lower", lower, "adjoint", !lower),
              List.of(m, g.f(4, 3, 2))));
    }
    c.add(
        new Case(
            "MatrixBandPart",
            "MatrixBandPart",
            Attrs.of("lower", 1, "upper", 0),
            List.of(g.f(2, 4, 3, 3))));
    for (boolean ta : new boolean[] {false, true}) {
      for (boolean tb : new boolean[] {false, true}) {
        Attrs a = Attrs.of("transpose_a", ta, "transpose_b", tb);
        c.add(
            new Case(
                "MatMul ta=" + ta + " tb=" + tb,
                "MatMul",
                a,
                List.of(ta ? g.f(16, 8) : g.f(8, 16), tb ? g.f(8, 16) : g.f(16, 8))));
      }
    }
    c.add(
        new Case(
            "BatchMatMul",
            "BatchMatMul",
            Attrs.of("transpose_a", false, "transpose_b", true),
            List.of(g.f(4, 8, 8), g.f(4, 4, 8))));
    c.add(
        new Case(
            "BatchMatMul broadcast",
            "BatchMatMul",
            Attrs.EMPTY,
            List.of(g.f(2, 1, 4, 8), g.f(4, 8, 4))));
    c.add(new Case("BiasAdd", "BiasAdd", Attrs.EMPTY, List.of(g.f(8, 4, 2), g.f(4))));
    c.add(new Case("BiasAddGrad", "BiasAddGrad", Attrs.EMPTY, List.of(g.f(8, 4, 2))));
    for (String op : List.of("ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd")) {
      c.add(new Case(op + " axis=1", op, Attrs.of("axis", List.of(1)), List.of(g.f(8, 4, 2))));
      c.add(
          new Case(
              op + " axis=(0,2) keep",
              op,
              Attrs.of("axis", List.of(0, 2), "keep_dims", true),
              List.of(g.f(8, 4, 2))));
      c.add(new Case(op + " all", op, Attrs.of("axis", List.of()), List.of(g.f(8, 4))));
    }
    for (String op : List.of("Softmax", "LogSoftmax")) {
      c.add(new Case(op + " axis=-1", op, Attrs.of("axis", -1), List.of(g.f(8, 4, 2))));
      c.add(new Case(op + " axis=0", op, Attrs.of("axis", 0), List.of(g.f(8, 4))));
    }
    c.add(new Case("CumSum axis=1", "CumSum", Attrs.of("axis", 1), List.of(g.f(8, 4, 2))));
    c.add(
        new Case(
            "CumSum exclusive reverse axis=-1",
            "CumSum",
            Attrs.of("axis", -1, "exclusive", true, "reverse", true),
            List.of(g.f(8, 4))));
    c.add(
        new Case(
            "SoftmaxCrossEntropyWithLogits",
            "SoftmaxCrossEntropyWithLogits",
            Attrs.EMPTY,
            List.of(g.f(8, 4), g.floats(0, 1, 8, 4))));
    c.add(
        new Case(
            "SparseSoftmaxCrossEntropyWithLogits",
            "SparseSoftmaxCrossEntropyWithLogits",
            Attrs.of("is_grad", false),
            List.of(g.f(8, 4), g.ints(4, 8))));
    c.add(
        new Case(
            "SparseSoftmaxCrossEntropyWithLogits is_grad",
            "SparseSoftmaxCrossEntropyWithLogits",
            Attrs.of("is_grad", true),
            List.of(g.f(8, 4), g.ints(4, 8))));
    c.add(
        new Case(
            "SparseSoftmaxCrossEntropyWithLogitsGrad",
            "SparseSoftmaxCrossEntropyWithLogitsGrad",
            Attrs.EMPTY,
            List.of(g.f(8, 4), g.ints(4, 8))));
    c.add(
        new Case(
            "LayerNorm last",
            "LayerNorm",
            Attrs.of("begin_norm_axis", -1, "begin_params_axis", -1, "epsilon", 1e-7),
            List.of(g.f(8, 4, 8), g.f(8), g.f(8))));
    c.add(
        new Case(
            "LayerNorm params=1 norm=2",
            "LayerNorm",
            Attrs.of("begin_norm_axis", 2, "begin_params_axis", 1, "epsilon", 1e-7),
            List.of(g.f(8, 4, 8), g.f(4, 8), g.f(4, 8))));
    for (boolean training : new boolean[] {false, true}) {
      c.add(
          new Case(
              "BatchNorm training=" + training,
              "BatchNorm",
              Attrs.of("is_training", training, "epsilon", 1e-5, "momentum", 0.1),
              List.of(g.f(8, 4, 2, 2), g.pos(4), g.f(4), g.f(4), g.pos(4))));
    }
    for (boolean training : new boolean[] {false, true}) {
      c.add(
          new Case(
              "BatchNormGrad training=" + training,
              "BatchNormGrad",
              Attrs.of("is_training", training, "epsilon", 1e-5),
              List.of(g.f(4, 4, 2), g.f(4, 4, 2), g.pos(4), g.f(4), g.pos(4))));
    }
    c.add(
        new Case(
            "LayerNormGrad norm=1 params=1",
            "LayerNormGrad",
            Attrs.of("begin_norm_axis", 1, "begin_params_axis", 1),
            List.of(g.f(8, 8), g.f(8, 8), g.f(8, 1), g.pos(8, 1), g.f(8))));
    c.add(
        new Case(
            "LayerNormGrad norm=1 params=0",
            "LayerNormGrad",
            Attrs.of("begin_norm_axis", 1, "begin_params_axis", 0),
            List.of(g.f(8, 8), g.f(8, 8), g.f(8, 1), g.pos(8, 1), g.f(8, 8))));
    c.addAll(nnCases(g));
    c.addAll(elementaryCases(g));
    c.addAll(attentionCases(g));
    c.add(
        new Case(
            "Transpose", "Transpose", Attrs.of("perm", List.of(2, 0, 1)), List.of(g.f(8, 4, 2))));
    c.add(new Case("ExpandDims", "ExpandDims", Attrs.of("axis", 1), List.of(g.f(8, 4))));
    c.add(new Case("Squeeze", "Squeeze", Attrs.of("axis", List.of(1)), List.of(g.f(8, 1, 4))));
    c.add(
        new Case(
            "Reshape [8,4,2]->[8,8]",
            "Reshape",
            Attrs.of("shape", List.of(8, -1)),
            List.of(g.f(8, 4, 2))));
    c.add(
        new Case(
            "Reshape [8,4]->[4,8]",
            "Reshape",
            Attrs.of("shape", List.of(4, 8)),
            List.of(g.f(8, 4))));
    c.add(new Case("Flatten", "Flatten", Attrs.EMPTY, List.of(g.f(8, 4, 2))));
    c.add(
        new Case(
            "BroadcastTo", "BroadcastTo", Attrs.of("shape", List.of(8, 4)), List.of(g.f(1, 4))));
    c.add(new Case("Concat axis=1", "Concat", Attrs.of("axis", 1), List.of(g.f(8, 4), g.f(8, 2))));
    c.add(new Case("Concat axis=0", "Concat", Attrs.of("axis", 0), List.of(g.f(8, 4), g.f(4, 4))));
    c.add(new Case("Split", "Split", Attrs.of("axis", 1, "output_num", 2), List.of(g.f(8, 4))));
    c.add(
        new Case(
            "SplitV",
            "SplitV",
            Attrs.of("size_splits", List.of(1, 3, -1), "split_dim", -1, "num_split", 3),
            List.of(g.f(8, 6))));
    Tensor pads = Tensor.ofDoubles(DType.INT64, Shape.of(4), i -> new int[] {1, 2, 0, 0}[i]);
    c.add(
        new Case(
            "PadV3 constant",
            "PadV3",
            Attrs.of("paddings", List.of(1, 2, 0, 0), "mode", "constant"),
            List.of(g.f(8, 4, 2), pads, g.scalar(0.5))));
    c.add(
        new Case(
            "PadV3 reflect",
            "PadV3",
            Attrs.of("paddings", List.of(1, 1), "mode", "reflect"),
            List.of(g.f(8, 4, 3), Tensor.ofDoubles(DType.INT64, Shape.of(2), i -> 1))));
    c.add(
        new Case(
            "PadV3Grad edge",
            "PadV3Grad",
            Attrs.of("paddings", List.of(1, 1), "mode", "edge"),
            List.of(g.f(8, 4, 4))));
    for (String reduction : List.of("none", "mean", "sum", "batchmean")) {
      c.add(
          new Case(
              "KLDivLoss " + reduction,
              "KLDivLoss",
              Attrs.of("reduction", reduction),
              List.of(g.f(8, 4), g.f(8, 4))));
    }
    c.add(new Case("AddN", "AddN", Attrs.EMPTY, List.of(g.f(8, 4), g.f(8, 4), g.f(8, 4))));
    c.add(new Case("LogicalNot", "LogicalNot", Attrs.EMPTY, List.of(g.bools(8, 4))));
    for (String op : List.of("ReduceAll", "ReduceAny")) {
      c.add(new Case(op + " axis=1", op, Attrs.of("axis", List.of(1)), List.of(g.bools(8, 4, 2))));
      c.add(
          new Case(
              op + " axis=(0,2) keep",
              op,
              Attrs.of("axis", List.of(0, 2), "keep_dims", true),
              List.of(g.bools(8, 4, 2))));
      c.add(new Case(op + " all", op, Attrs.of("axis", List.of()), List.of(g.bools(8, 4))));
    }
    c.add(new Case("Argmax axis=1", "Argmax", Attrs.of("axis", 1), List.of(g.f(8, 4, 2))));
    c.add(
        new Case(
            "Argmax int64",
            "Argmax",
            Attrs.of("axis", -1, "output_type", "INT64"),
            List.of(g.f(8, 4))));
    c.add(
        new Case(
            "Slice",
            "Slice",
            Attrs.of("begin", List.of(0, 2), "end", List.of(8, 6), "strides", List.of(1, 1)),
            List.of(g.f(8, 8))));
    c.add(new Case("Stack axis=1", "Stack", Attrs.of("axis", 1), List.of(g.f(8, 4), g.f(8, 4))));
    c.add(
        new Case(
            "Stack axis=-1",
            "Stack",
            Attrs.of("axis", -1),
            List.of(g.f(8, 4), g.f(8, 4), g.f(8, 4))));
    c.add(new Case("Unstack axis=2", "Unstack", Attrs.of("axis", 2), List.of(g.f(8, 4, 2))));
    c.add(new Case("Unstack axis=0", "Unstack", Attrs.of("axis", 0), List.of(g.f(2, 8, 4))));
    Attrs window =
        Attrs.of(
            "kernel_size", List.of(1, 1, 2, 2), "strides", List.of(1, 1, 2, 2), "pad_mode", "SAME");
    Tensor image = g.f(8, 4, 5, 6);
    c.add(new Case("MaxPoolWithArgmax", "MaxPoolWithArgmax", window, List.of(image)));
    Tensor[] pooled =
        dev.msjvm.engine.tensor.Pooling.maxPoolWithArgmax(
            image, new int[] {2, 2}, new int[] {2, 2}, "SAME");
    c.add(
        new Case(
            "MaxPoolGradWithArgmax",
            "MaxPoolGradWithArgmax",
            window,
            List.of(image, g.f(8, 4, 3, 3), pooled[1])));
    Attrs adaptive = Attrs.of("output_size", List.of(2, -1));
    c.add(new Case("AdaptiveAvgPool2D", "AdaptiveAvgPool2D", adaptive, List.of(image)));
    c.add(
        new Case(
            "AdaptiveAvgPool2D chw",
            "AdaptiveAvgPool2D",
            Attrs.of("output_size", List.of(3, 4)),
            List.of(g.f(8, 5, 6))));
    c.add(
        new Case(
            "AdaptiveAvgPool2DGrad",
            "AdaptiveAvgPool2DGrad",
            adaptive,
            List.of(image, g.f(8, 4, 2, 6))));
    for (boolean align : new boolean[] {false, true}) {
      Attrs resize =
          Attrs.of("size", List.of(5, 7), "align_corners", align, "half_pixel_centers", !align);
      c.add(
          new Case(
              "ResizeBilinearV2 align=" + align,
              "ResizeBilinearV2",
              resize,
              List.of(g.f(8, 4, 3, 4))));
      c.add(
          new Case(
              "ResizeBilinearGrad align=" + align,
              "ResizeBilinearGrad",
              resize,
              List.of(g.f(8, 4, 5, 7), g.f(8, 4, 3, 4))));
    }
    Attrs slice = Attrs.of("begin", List.of(0, 2), "end", List.of(8, 6), "strides", List.of(1, 1));
    c.add(new Case("StridedSlice", "StridedSlice", slice, List.of(g.f(8, 8))));
    c.add(
        new Case(
            "StridedSlice shrink",
            "StridedSlice",
            Attrs.of(
                "begin",
                List.of(0, 3),
                "end",
                List.of(8, 4),
                "strides",
                List.of(1, 1),
                "shrink_axis_mask",
                2),
            List.of(g.f(8, 8))));
    c.add(
        new Case(
            "StridedSliceGrad",
            "StridedSliceGrad",
            slice.with("shapex", List.of(8, 8)),
            List.of(g.f(8, 4))));
    c.add(
        new Case(
            "Gather axis=0", "Gather", Attrs.of("axis", 0), List.of(g.f(16, 4), g.ints(16, 8, 2))));
    c.add(
        new Case(
            "Gather axis=1", "Gather", Attrs.of("axis", 1), List.of(g.f(4, 16), g.ints(16, 8))));
    c.add(
        new Case(
            "Gather batch_dims=1 axis=2",
            "Gather",
            Attrs.of("axis", 2, "batch_dims", 1),
            List.of(g.f(4, 2, 6, 2), g.ints(6, 4, 8))));
    c.add(
        new Case(
            "GatherGrad batch_dims=1",
            "GatherGrad",
            Attrs.of("axis", 2, "shape", List.of(4, 2, 6, 2), "batch_dims", 1),
            List.of(g.f(4, 2, 8, 2), g.ints(6, 4, 8))));
    c.add(
        new Case(
            "SparseGatherV2 axis=0",
            "SparseGatherV2",
            Attrs.of("axis", 0),
            List.of(g.f(16, 4), g.ints(16, 8))));
    c.add(
        new Case(
            "GatherGrad",
            "GatherGrad",
            Attrs.of("axis", 0, "shape", List.of(16, 4)),
            List.of(g.f(8, 2, 4), g.ints(16, 8, 2))));
    c.add(
        new Case(
            "GatherNd k=2", "GatherNd", Attrs.EMPTY, List.of(g.f(4, 6, 3), g.ints(4, 8, 2, 2))));
    c.add(new Case("GatherNd k=1", "GatherNd", Attrs.EMPTY, List.of(g.f(4, 6), g.ints(4, 8, 1))));
    c.add(
        new Case(
            "ScatterNd k=2",
            "ScatterNd",
            Attrs.of("shape", List.of(4, 6, 3)),
            List.of(g.ints(4, 8, 2, 2), g.f(8, 2, 3))));
    for (String op :
        List.of(
            "UnsortedSegmentSum",
            "UnsortedSegmentProd",
            "UnsortedSegmentMax",
            "UnsortedSegmentMin")) {
      c.add(
          new Case(
              op + " 2-D ids",
              op,
              Attrs.of("num_segments", 5),
              List.of(g.f(8, 4, 6), g.ints(5, 8, 4))));
      c.add(
          new Case(
              op + " 1-D ids", op, Attrs.of("num_segments", 7), List.of(g.f(8, 6), g.ints(5, 8))));
    }
    for (int axis : new int[] {-1, 0}) {
      c.add(
          new Case(
              "OneHot axis=" + axis,
              "OneHot",
              Attrs.of("depth", 4, "axis", axis),
              List.of(g.ints(4, 8), g.scalar(1), g.scalar(0))));
    }
    c.add(
        new Case(
            "OneHot 2-D indices",
            "OneHot",
            Attrs.of("depth", 4, "axis", -1),
            List.of(g.ints(4, 4, 2), g.scalar(1), g.scalar(0))));
    c.add(new Case("Tile [4,2] x (2,1)", "Tile", multiples(2, 1), List.of(g.f(4, 2))));
    c.add(new Case("Tile [2,4] x (2,1,2)", "Tile", multiples(2, 1, 2), List.of(g.f(2, 4))));
    c.add(
        new Case(
            "TileGrad [8,2] to [4,2]",
            "TileGrad",
            multiples(2, 1).with("shape", List.of(4, 2)),
            List.of(g.f(8, 2))));
    c.add(
        new Case(
            "TileGrad [2,2,8] to [2,4]",
            "TileGrad",
            multiples(2, 1, 2).with("shape", List.of(2, 4)),
            List.of(g.f(2, 2, 8))));
    c.add(
        new Case(
            "ApplyMomentum",
            "ApplyMomentum",
            Attrs.of("use_nesterov", false),
            List.of(g.f(8, 4), g.f(8, 4), g.scalar(0.1), g.f(8, 4), g.scalar(0.9))));
    c.add(
        new Case(
            "SGD",
            "SGD",
            Attrs.of("dampening", 0.0, "weight_decay", 0.01, "nesterov", false),
            List.of(g.f(8, 4), g.f(8, 4), g.scalar(0.1), g.f(8, 4), g.scalar(0.9), g.pos(8, 4))));
    c.add(
        new Case(
            "Adam",
            "Adam",
            Attrs.of("use_locking", false, "use_nesterov", false),
            List.of(
                g.f(8, 4),
                g.f(8, 4),
                g.pos(8, 4),
                g.scalar(0.9),
                g.scalar(0.99),
                g.scalar(0.01),
                g.scalar(0.9),
                g.scalar(0.999),
                g.scalar(1e-8),
                g.f(8, 4))));
    List<Tensor> decayed = weightDecayed(g);
    decayed.add(g.f(8, 4));
    c.add(new Case("AdamWeightDecay", "AdamWeightDecay", Attrs.EMPTY, decayed));
    List<Tensor> lamb = weightDecayed(g);
    lamb.add(g.scalar(3)); // global_step
    lamb.add(g.f(8, 4));
    c.add(new Case("Lamb", "Lamb", Attrs.EMPTY, lamb));
    c.add(
        new Case(
            "LearningRateSchedule",
            "LearningRateSchedule",
            Attrs.of("kind", "warmup", "learning_rate", 0.1, "warmup_steps", 4),
            List.of(Tensor.ofFloats(Shape.of(1), new float[] {3}))));
    c.add(
        new Case(
            "Print",
            "Print",
            Attrs.of("items", "STTS", "texts", List.of("x and y:", "1")),
            List.of(g.f(4, 2), g.f(2))));
    return c;
  }

  /** var, m, v, lr, beta1, beta2, epsilon, decay: AdamWeightDecay's and Lamb's first inputs. */
  private static List<Tensor> weightDecayed(Gen g) {
    return new ArrayList<>(
        List.of(
            g.f(8, 4),
            g.f(8, 4),
            g.pos(8, 4),
            g.scalar(0.01),
            g.scalar(0.9),
            g.scalar(0.999),
            g.scalar(1e-8),
            g.scalar(0.01)));
  }

  private static Attrs multiples(Integer... m) {
    return Attrs.of("multiples", List.of(m));
  }

  /** Convolution and pooling calls (NCHW) and their grads, with MindSpore's 4-element windows. */
  private static List<Case> nnCases(Gen g) {
    List<Case> c = new ArrayList<>();
    Attrs valid = conv("valid", List.of(0, 0, 0, 0), 1, 1);
    Attrs same = conv("same", List.of(0, 0, 0, 0), 2, 1);
    c.add(new Case("Conv2D valid", "Conv2D", valid, List.of(g.f(4, 4, 5, 5), g.f(4, 4, 3, 3))));
    c.add(
        new Case(
            "Conv2D same stride=2", "Conv2D", same, List.of(g.f(4, 4, 4, 4), g.f(4, 4, 3, 3))));
    c.add(
        new Case(
            "Conv2D pad dilation=2",
            "Conv2D",
            conv("pad", List.of(1, 0, 1, 1), 1, 2),
            List.of(g.f(2, 4, 5, 5), g.f(4, 4, 2, 2))));
    // H and W split with halo exchanges (corners included), as a Conv2D and its two gradients,
    // and a grouped convolution.
    Attrs same1 = conv("same", List.of(0, 0, 0, 0), 1, 1);
    c.add(new Case("Conv2D same 8x8", "Conv2D", same1, List.of(g.f(2, 2, 8, 8), g.f(2, 2, 3, 3))));
    c.add(
        new Case(
            "Conv2D pad group=2",
            "Conv2D",
            conv("pad", List.of(1, 1, 1, 1), 1, 1).with("group", 2),
            List.of(g.f(2, 4, 6, 6), g.f(4, 2, 3, 3))));
    c.add(
        new Case(
            "Conv2DBackpropInput same 8x8",
            "Conv2DBackpropInput",
            same1.with("input_shape", List.of(2, 2, 8, 8)),
            List.of(g.f(2, 2, 8, 8), g.f(2, 2, 3, 3))));
    c.add(
        new Case(
            "Conv2DTranspose same 8x8",
            "Conv2DTranspose",
            same1.with("input_shape", List.of(2, 2, 8, 8)),
            List.of(g.f(2, 2, 8, 8), g.f(2, 2, 3, 3))));
    c.add(
        new Case(
            "Conv2DBackpropFilter same 8x8",
            "Conv2DBackpropFilter",
            same1.with("filter_shape", List.of(2, 2, 3, 3)),
            List.of(g.f(2, 2, 8, 8), g.f(2, 2, 8, 8))));
    c.add(
        new Case(
            "Conv2DBackpropInput same stride=2",
            "Conv2DBackpropInput",
            same.with("input_shape", List.of(4, 4, 4, 4)),
            List.of(g.f(4, 4, 2, 2), g.f(4, 4, 3, 3))));
    c.add(
        new Case(
            "Conv2DBackpropFilter valid",
            "Conv2DBackpropFilter",
            valid.with("filter_shape", List.of(4, 4, 3, 3)),
            List.of(g.f(4, 4, 3, 3), g.f(4, 4, 5, 5))));
    // NCDHW: D and H split with halo exchanges (W whole), as a Conv3D, its two gradients, a
    // MaxPool3D and its gradient; a stride-2 "pad" window whose trailing pad AdjustPadList trims.
    Attrs same3 = conv3d("same", List.of(0, 0, 0, 0, 0, 0), 1);
    Attrs pad3 = conv3d("pad", List.of(1, 1, 1, 1, 0, 1), 2);
    c.add(
        new Case(
            "Conv3D same 4x4x2", "Conv3D", same3, List.of(g.f(2, 2, 4, 4, 2), g.f(2, 2, 3, 3, 2))));
    c.add(
        new Case(
            "Conv3D pad stride=2",
            "Conv3D",
            pad3,
            List.of(g.f(2, 2, 6, 6, 2), g.f(2, 2, 3, 3, 1))));
    c.add(
        new Case(
            "Conv3D valid group=2",
            "Conv3D",
            conv3d("valid", List.of(0, 0, 0, 0, 0, 0), 1).with("groups", 2).with("out_channel", 4),
            List.of(g.f(2, 4, 4, 4, 2), g.f(4, 2, 1, 1, 1))));
    c.add(
        new Case(
            "Conv3DBackpropInput same 4x4x2",
            "Conv3DBackpropInput",
            same3.with("input_shape", List.of(2, 2, 4, 4, 2)),
            List.of(g.f(2, 2, 4, 4, 2), g.f(2, 2, 3, 3, 2))));
    c.add(
        new Case(
            "Conv3DBackpropFilter pad stride=2",
            "Conv3DBackpropFilter",
            pad3.with("filter_shape", List.of(2, 2, 3, 3, 1)),
            List.of(g.f(2, 2, 3, 3, 2), g.f(2, 2, 6, 6, 2))));
    Attrs max3 = pool3d("SAME", List.of(0, 0, 0, 0, 0, 0), 3, 1);
    Attrs maxPad3 = pool3d("CALCULATED", List.of(1, 1, 1, 0, 0, 0), 3, 2);
    c.add(new Case("MaxPool3D same", "MaxPool3D", max3, List.of(g.f(2, 2, 4, 4, 2))));
    c.add(new Case("MaxPool3D pad stride=2", "MaxPool3D", maxPad3, List.of(g.f(2, 2, 6, 6, 3))));
    Attrs maxCeil3 = pool3d("CALCULATED", List.of(1, 1, 1, 1, 0, 0), 3, 2).with("ceil_mode", 1);
    c.add(new Case("MaxPool3D pad ceil_mode", "MaxPool3D", maxCeil3, List.of(g.f(2, 2, 6, 6, 3))));
    c.add(
        new Case(
            "MaxPool3DGrad pad ceil_mode",
            "MaxPool3DGrad",
            maxCeil3,
            List.of(g.f(2, 2, 6, 6, 3), g.f(2, 2, 4, 4, 1))));
    c.add(
        new Case(
            "MaxPool3DGrad same",
            "MaxPool3DGrad",
            max3,
            List.of(g.f(2, 2, 4, 4, 2), g.f(2, 2, 4, 4, 2))));
    c.add(
        new Case(
            "MaxPool3DGrad pad stride=2",
            "MaxPool3DGrad",
            maxPad3,
            List.of(g.f(2, 2, 6, 6, 3), g.f(2, 2, 3, 3, 1))));
    // AvgPool3D: padding counted or not, a divisor override, and a ceil-mode window past the end.
    Attrs avg3 = avgPool3d(pool3d("SAME", List.of(0, 0, 0, 0, 0, 0), 3, 1), true, false, 0);
    Attrs avgPad3 = avgPool3d(pool3d("PAD", List.of(1, 1, 1, 0, 0, 0), 3, 2), false, false, 0);
    Attrs avgCeil3 = avgPool3d(pool3d("PAD", List.of(1, 1, 1, 1, 0, 0), 3, 2), true, true, 0);
    Attrs avgDiv3 = avgPool3d(pool3d("PAD", List.of(1, 1, 1, 1, 1, 1), 3, 1), true, false, 5);
    // valid 2, stride 2 over 8x8x3: ceil_mode rounds W (whole) up to 2
    Attrs avgValidCeil3 =
        avgPool3d(pool3d("VALID", List.of(0, 0, 0, 0, 0, 0), 2, 2), true, true, 0);
    List<Attrs> avgs = List.of(avg3, avgPad3, avgCeil3, avgDiv3, avgValidCeil3);
    List<String> avgNames =
        List.of("same", "pad stride=2", "pad ceil_mode", "divisor_override", "valid ceil_mode");
    List<int[]> avgOut =
        List.of(
            new int[] {4, 4, 2},
            new int[] {3, 3, 1},
            new int[] {4, 4, 1},
            new int[] {6, 6, 3},
            new int[] {4, 4, 2});
    List<int[]> avgIn =
        List.of(
            new int[] {4, 4, 2},
            new int[] {6, 6, 3},
            new int[] {6, 6, 3},
            new int[] {6, 6, 3},
            new int[] {8, 8, 3});
    for (int i = 0; i < avgs.size(); i++) {
      int[] in = avgIn.get(i);
      int[] out = avgOut.get(i);
      c.add(
          new Case(
              "AvgPool3D " + avgNames.get(i),
              "AvgPool3D",
              avgs.get(i),
              List.of(g.f(2, 2, in[0], in[1], in[2]))));
      c.add(
          new Case(
              "AvgPool3DGrad " + avgNames.get(i),
              "AvgPool3DGrad",
              avgs.get(i).with("origin_input_shape", List.of(2, 2, in[0], in[1], in[2])),
              List.of(g.f(2, 2, out[0], out[1], out[2]))));
    }
    Attrs max = pool("VALID", 2, 2);
    Attrs avg = pool("SAME", 3, 2);
    c.add(new Case("MaxPool", "MaxPool", max, List.of(g.f(4, 4, 4, 4))));
    c.add(new Case("AvgPool", "AvgPool", avg, List.of(g.f(4, 4, 5, 5))));
    c.add(new Case("MaxPoolGrad", "MaxPoolGrad", max, List.of(g.f(4, 4, 4, 4), g.f(4, 4, 2, 2))));
    c.add(new Case("AvgPoolGrad", "AvgPoolGrad", avg, List.of(g.f(4, 4, 5, 5), g.f(4, 4, 3, 3))));
    return c;
  }

  static Attrs conv(String padMode, List<Integer> pad, int stride, int dilation) {
    return Attrs.of(
        "pad_mode",
        padMode,
        "pad",
        pad,
        "stride",
        List.of(1, 1, stride, stride),
        "dilation",
        List.of(1, 1, dilation, dilation),
        "group",
        1);
  }

  /** Conv3D's attributes as its primitive stores them (3-D kernel read from the weight). */
  static Attrs conv3d(String padMode, List<Integer> pad, int stride) {
    return Attrs.of(
        "pad_mode",
        padMode,
        "pad",
        pad,
        "strides",
        List.of(1, 1, stride, stride, stride),
        "dilations",
        List.of(1, 1, 1, 1, 1),
        "groups",
        1);
  }

  /** MaxPool3D's attributes as its primitive stores them. */
  static Attrs pool3d(String padMode, List<Integer> padList, int kernel, int stride) {
    return Attrs.of(
        "kernel_size",
        List.of(1, 1, kernel, kernel, kernel),
        "strides",
        List.of(1, 1, stride, stride, stride),
        "pad_mode",
        padMode,
        "pad_list",
        padList,
        "ceil_mode",
        0);
  }

  /** AvgPool3D's attributes: MaxPool3D's plus its own, {@code ceil_mode} a bool as it stores it. */
  static Attrs avgPool3d(Attrs pool3d, boolean countIncludePad, boolean ceil, int divisor) {
    return pool3d
        .with("count_include_pad", countIncludePad)
        .with("ceil_mode", ceil)
        .with("divisor_override", divisor);
  }

  static Attrs pool(String padMode, int kernel, int stride) {
    return Attrs.of(
        "kernel_size",
        List.of(1, 1, kernel, kernel),
        "strides",
        List.of(1, 1, stride, stride),
        "pad_mode",
        padMode);
  }

  /** Same-shape float tensors, ints (for the bitwise operators and shifts), bools and so on. */
  /**
   * FlashAttentionScore (query heads 4, key/value heads 4, 2 or 1; head size 2; sequences 8), its
   * gradient and DropoutGenMask (keep_prob 1: every bit set, the same on every rank). The optional
   * rank-4 inputs are left to the equivalence case flash_attention_r8 (every strategy of five
   * rank-4 tensors is more than this validator can enumerate).
   */
  private static Tensor half(Gen g, int... shape) {
    return g.f(shape).astype(DType.FLOAT16);
  }

  private static List<Case> attentionCases(Gen g) {
    List<Case> c = new ArrayList<>();
    for (int kvHeads : new int[] {4, 2, 1}) {
      Attrs a = Attrs.of("head_num", 4, "input_layout", "BSH", "scale_value", 0.5);
      c.add(
          new Case(
              "FlashAttentionScore BSH kv heads " + kvHeads,
              "FlashAttentionScore",
              a,
              List.of(g.f(4, 8, 8), g.f(4, 8, 2 * kvHeads), g.f(4, 8, 2 * kvHeads))));
    }
    c.add(
        new Case(
            "FlashAttentionScore SBH causal (sequence parallel)",
            "FlashAttentionScore",
            Attrs.of("head_num", 2, "input_layout", "SBH", "sparse_mode", 2),
            List.of(g.f(8, 2, 4), g.f(8, 2, 4), g.f(8, 2, 6))));
    // TND: 4 packed sequences (ends 2, 4, 6, 8) of one query head split by the batch.
    Tensor ends = Tensor.of(DType.INT64, Shape.of(4), List.of(2L, 4L, 6L, 8L));
    c.add(
        new Case(
            "FlashAttentionScore TND packed sequences",
            "FlashAttentionScore",
            Attrs.of("head_num", 2, "input_layout", "TND", "sparse_mode", 3, "has_seq_lens", true),
            List.of(g.f(8, 2, 2), g.f(8, 2, 2), g.f(8, 2, 2), ends, ends)));
    c.add(
        new Case(
            "FlashAttentionScoreGrad BSH kv heads 1",
            "FlashAttentionScoreGrad",
            Attrs.of("head_num", 2, "input_layout", "BSH", "sparse_mode", 3, "next_tokens", 0),
            List.of(g.f(2, 8, 4), g.f(2, 8, 2), g.f(2, 8, 2), g.f(2, 8, 4))));
    // The inference attention ops (float16), with per-batch lengths (rank 1: the validator can
    // enumerate them); their rank-4 masks and pse_shift are left to infer_attention_r8.
    Tensor lens = Tensor.of(DType.INT64, Shape.of(4), List.of(8L, 5L, 7L, 3L));
    c.add(
        new Case(
            "PromptFlashAttention BSH grouped heads, query and key lengths",
            "PromptFlashAttention",
            Attrs.of(
                "num_heads",
                4,
                "num_key_value_heads",
                2,
                "input_layout",
                "BSH",
                "scale_value",
                0.5,
                "pre_tokens",
                Integer.MAX_VALUE,
                "next_tokens",
                0,
                "sparse_mode",
                0,
                "present",
                "actual_seq_lengths,actual_seq_lengths_kv"),
            List.of(half(g, 4, 8, 8), half(g, 4, 8, 4), half(g, 4, 8, 4), lens, lens)));
    c.add(
        new Case(
            "FusedInferAttentionScore BNSD one query row with softmax_lse",
            "FusedInferAttentionScore",
            Attrs.of(
                "num_heads",
                4,
                "input_layout",
                "BNSD",
                "scale_value",
                0.5,
                "softmax_lse_flag",
                true,
                "present",
                "actual_seq_lengths_kv"),
            List.of(half(g, 4, 4, 1, 2), half(g, 4, 4, 8, 2), half(g, 4, 4, 8, 2), lens)));
    c.add(
        new Case(
            "IncreFlashAttention BSH, key lengths kept whole",
            "IncreFlashAttention",
            Attrs.of(
                "num_heads",
                4,
                "input_layout",
                "BSH",
                "scale_value",
                0.5,
                "present",
                "actual_seq_lengths_kv"),
            List.of(half(g, 4, 1, 8), half(g, 4, 8, 8), half(g, 4, 8, 8), lens)));
    // PagedAttention: 4 tokens over a cache of 6 blocks of 2 slots, 2 key/value heads.
    Tensor tables =
        Tensor.of(
            DType.INT32, Shape.of(4, 3), List.of(5L, 0L, 2L, 1L, 3L, 4L, 2L, 2L, 2L, 4L, 1L, 0L));
    Tensor context = Tensor.of(DType.INT32, Shape.of(4), List.of(5L, 2L, 6L, 3L));
    for (String op : List.of("PagedAttention", "PagedAttentionMask")) {
      c.add(
          new Case(
              op + " grouped heads",
              op,
              Attrs.of("head_num", 4, "scale_value", 0.5, "kv_head_num", 2, "present", ""),
              List.of(
                  half(g, 4, 1, 8), half(g, 6, 2, 2, 2), half(g, 6, 2, 2, 2), tables, context)));
    }
    c.add(
        new Case(
            "DropoutGenMask",
            "DropoutGenMask",
            Attrs.of("shape", List.of(2, 4, 8, 8), "rng", new SplittableRandom(3)),
            List.of(g.scalar(1.0))));
    return c;
  }

  private static List<Case> elementaryCases(Gen g) {
    List<Case> c = new ArrayList<>();
    for (String op :
        List.of(
            "Tan",
            "Sinh",
            "Cosh",
            "Atan",
            "Asinh",
            "Rint",
            "Inv",
            "BesselI0e",
            "BesselI1e",
            "BesselI0",
            "BesselI1",
            "BesselJ0",
            "BesselJ1",
            "Mish",
            "SeLU",
            "HSigmoid",
            "FastGeLU",
            "SiLU")) {
      c.add(new Case(op, op, Attrs.EMPTY, List.of(g.floats(-3, 3, 8, 4))));
    }
    for (String op : List.of("Atanh", "Asin", "ACos", "Erfinv")) {
      c.add(new Case(op, op, Attrs.EMPTY, List.of(g.floats(-0.9, 0.9, 8, 4))));
    }
    c.add(new Case("Acosh", "Acosh", Attrs.EMPTY, List.of(g.floats(1, 4, 8, 4))));
    for (String op : List.of("HShrink", "SoftShrink")) {
      c.add(new Case(op, op, Attrs.of("lambd", 0.25), List.of(g.f(8, 4))));
    }
    c.add(new Case("Elu", "Elu", Attrs.of("alpha", 1.0), List.of(g.f(8, 4))));
    for (String op :
        List.of(
            "Mod",
            "FmodTensor",
            "Atan2",
            "DivNoNan",
            "MulNoNan",
            "TruncateDiv",
            "TruncateMod",
            "Xdivy",
            "Xlogy",
            "SquaredDifference",
            "Hypot",
            "NextAfter",
            "LogicalAnd",
            "LogicalOr",
            "IsClose",
            "RemainderTensorTensor")) {
      c.add(new Case(op + "[8,4]+[4]", op, Attrs.EMPTY, List.of(g.f(8, 4), g.pos(4))));
    }
    for (String op : List.of("BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift")) {
      c.add(new Case(op, op, Attrs.EMPTY, List.of(g.ints(64, 8, 4), g.ints(6, 4))));
    }
    c.add(
        new Case(
            "ApproximateEqual",
            "ApproximateEqual",
            Attrs.of("tolerance", 0.5),
            List.of(g.f(8, 4), g.f(8, 4))));
    c.add(new Case("Polar", "Polar", Attrs.EMPTY, List.of(g.pos(8, 4), g.f(4))));
    c.add(
        new Case(
            "MaskedFill value tensor",
            "MaskedFill",
            Attrs.EMPTY,
            List.of(g.f(8, 4), g.bools(4), g.scalar(2.5))));
    c.add(
        new Case(
            "MaskedFill value attribute",
            "MaskedFill",
            Attrs.of("value", -1.5),
            List.of(g.f(8, 4), g.bools(8, 1))));
    c.add(
        new Case(
            "AddcmulExt",
            "AddcmulExt",
            Attrs.of("value", 0.5),
            List.of(g.f(8, 4), g.f(8, 4), g.f(4))));
    c.add(new Case("AssignSub", "AssignSub", Attrs.EMPTY, List.of(g.f(8, 4), g.f(8, 4))));
    for (String op : List.of("ArgMaxWithValue", "ArgMinWithValue")) {
      c.add(new Case(op + " axis=1", op, Attrs.of("axis", 1), List.of(g.f(8, 4, 2))));
      c.add(
          new Case(
              op + " axis=-1 keep",
              op,
              Attrs.of("axis", -1, "keep_dims", true),
              List.of(g.f(8, 4, 2))));
    }
    c.add(new Case("Argmin axis=0", "Argmin", Attrs.of("axis", 0), List.of(g.f(8, 4, 2))));
    c.add(new Case("SquareSumAll", "SquareSumAll", Attrs.EMPTY, List.of(g.f(8, 4), g.f(8, 4))));
    for (String op : List.of("Triu", "Tril")) {
      for (int diagonal : new int[] {0, 1, -3}) {
        c.add(
            new Case(
                op + " diagonal=" + diagonal,
                op,
                Attrs.of("diagonal", diagonal),
                List.of(g.f(2, 8, 8))));
      }
    }
    // TraceV2 keeps dims 0 and 3 (splittable), sums the diagonal 1 of dims 1, 2; its gradient.
    c.add(
        new Case(
            "TraceV2 offset=1 axes (1, 2)",
            "TraceV2",
            Attrs.of("offset", 1, "axis1", 1, "axis2", 2),
            List.of(g.f(4, 3, 6, 2))));
    c.add(
        new Case(
            "TraceV2Grad offset=-1 axes (-1, 0)",
            "TraceV2Grad",
            Attrs.of(
                "offset",
                -1,
                "axis1",
                -1,
                "axis2",
                0,
                "shape",
                List.of(5, 4, 6),
                "type",
                "FLOAT32"),
            List.of(g.f(4))));
    for (String mode : List.of("Update", "Add", "Sub", "Mul", "Div", "Max", "Min")) {
      c.add(
          new Case(
              "TensorScatter" + mode + " k=2",
              "TensorScatter" + mode,
              Attrs.EMPTY,
              List.of(g.pos(8, 4, 2), g.ints(4, 5, 2), g.pos(5, 2))));
      c.add(
          new Case(
              "TensorScatter" + mode + " k=1",
              "TensorScatter" + mode,
              Attrs.EMPTY,
              List.of(g.pos(8, 4), g.ints(8, 3, 1), g.pos(3, 4))));
    }
    for (String mode : List.of("Update", "Add", "Sub")) {
      c.add(
          new Case(
              "ScatterNd" + mode,
              "ScatterNd" + mode,
              Attrs.EMPTY,
              List.of(g.f(8, 4), g.ints(8, 3, 1), g.f(3, 4))));
    }
    for (int dim : new int[] {0, 1, -1}) {
      c.add(
          new Case(
              "GatherD dim=" + dim,
              "GatherD",
              Attrs.of("dim", dim),
              List.of(g.f(8, 4, 2), g.ints(2, 8, 4, 2))));
    }
    c.add(
        new Case(
            "GatherD other index shape",
            "GatherD",
            Attrs.of("dim", 1),
            List.of(g.f(8, 4, 2), g.ints(4, 8, 6, 2))));
    c.add(
        new Case(
            "GatherDGrad",
            "GatherDGrad",
            Attrs.of("dim", 1, "shape", List.of(8, 4, 2)),
            List.of(g.f(8, 6, 2), g.ints(4, 8, 6, 2))));
    c.add(new Case("PReLU per channel", "PReLU", Attrs.EMPTY, List.of(g.f(8, 4, 2), g.f(4))));
    c.add(new Case("PReLU one weight", "PReLU", Attrs.EMPTY, List.of(g.f(8, 4), g.f(1))));
    for (int axis : new int[] {1, -1}) {
      c.add(
          new Case(
              "L2Normalize axis=" + axis,
              "L2Normalize",
              Attrs.of("axis", axis, "epsilon", 1e-4),
              List.of(g.f(8, 4, 2))));
    }
    c.add(
        new Case(
            "RmsNorm last", "RmsNorm", Attrs.of("epsilon", 1e-6), List.of(g.f(8, 4, 6), g.f(6))));
    c.add(
        new Case(
            "RmsNorm two dims",
            "RmsNorm",
            Attrs.of("epsilon", 1e-6),
            List.of(g.f(8, 4, 6), g.f(4, 6))));
    c.add(new Case("CumProd axis=1", "CumProd", Attrs.of("axis", 1), List.of(g.pos(8, 4, 2))));
    c.add(
        new Case(
            "CumProd exclusive reverse",
            "CumProd",
            Attrs.of("axis", -1, "exclusive", true, "reverse", true),
            List.of(g.pos(8, 4))));
    return c;
  }
}
