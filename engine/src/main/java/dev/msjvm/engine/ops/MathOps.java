package dev.msjvm.engine.ops;

import static dev.msjvm.engine.ops.ElementwiseOps.one;

import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.parallel.rules.ElementwiseRules;
import dev.msjvm.engine.parallel.rules.MatrixRules;
import dev.msjvm.engine.parallel.rules.PartialOp;
import dev.msjvm.engine.parallel.rules.ReductionRules;
import dev.msjvm.engine.tensor.Activations;
import dev.msjvm.engine.tensor.MatMul;
import dev.msjvm.engine.tensor.Reductions;
import dev.msjvm.engine.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;

/**
 * MatMul ({@code transpose_a}, {@code transpose_b}), the reductions ({@code axis}: a list, empty
 * for all; {@code keep_dims}; optional {@code primitive}: the name errors use, e.g. {@code
 * SumExt}), Softmax/LogSoftmax ({@code axis}) and the activation gradients ReluGrad, SigmoidGrad,
 * TanhGrad.
 */
final class MathOps {
  private MathOps() {}

  private static final Attrs NONE = Attrs.EMPTY;

  static List<OpDef> defs() {
    List<OpDef> defs = new ArrayList<>();
    defs.add(
        OpDef.of(
                "MatMul",
                c ->
                    one(
                        MatMul.matmul(
                            c.in(0),
                            c.in(1),
                            c.attrs().bool("transpose_a", false),
                            c.attrs().bool("transpose_b", false),
                            c.blas())),
                MathOps::matmulGrad)
            .infers(
                Infer.one(
                    (a, in) ->
                        MatMul.matmulType(
                            in.get(0),
                            in.get(1),
                            a.bool("transpose_a", false),
                            a.bool("transpose_b", false))))
            .role(CostRole.MATMUL)
            .shards(MatrixRules.matmul()));
    for (Reductions.Op r : Reductions.Op.values()) {
      defs.add(
          OpDef.of(
                  r.primitive(),
                  c ->
                      one(
                          Reductions.reduce(
                              r,
                              c.attrs().has("primitive")
                                  ? c.attrs().string("primitive")
                                  : r.primitive(),
                              c.in(0),
                              c.attrs().ints("axis"),
                              c.attrs().bool("keep_dims", false))),
                  g -> reduceGrad(r, g))
              .infers(
                  Infer.one(
                      (a, in) ->
                          Reductions.reduceType(
                              r,
                              a.has("primitive") ? a.string("primitive") : r.primitive(),
                              in.get(0),
                              a.ints("axis"),
                              a.bool("keep_dims", false))))
              .role(CostRole.GENERAL)
              .shards(ReductionRules.reduce(partial(r))));
    }
    defs.add(
        OpDef.of(
                "Softmax",
                c -> one(Activations.softmax("Softmax", c.in(0), c.attrs().integer("axis"), false)),
                g -> {
                  Attrs sum =
                      Attrs.of("axis", List.of(g.attrs().integer("axis")), "keep_dims", true);
                  Tensor dy = g.dout(0);
                  Tensor y = g.out(0);
                  Tensor s = g.op("ReduceSum", sum, g.op("Mul", NONE, dy, y));
                  return one(g.op("Mul", NONE, y, g.op("Sub", NONE, dy, s)));
                })
            .infers(softmaxType("Softmax"))
            .role(CostRole.SOFTMAX)
            .shards(ReductionRules.softmax("Softmax")));
    defs.add(
        OpDef.of(
                "LogSoftmax",
                c ->
                    one(
                        Activations.softmax(
                            "LogSoftmax", c.in(0), c.attrs().integer("axis"), true)),
                g -> {
                  Attrs sum =
                      Attrs.of("axis", List.of(g.attrs().integer("axis")), "keep_dims", true);
                  Tensor dy = g.dout(0);
                  Tensor s = g.op("ReduceSum", sum, dy);
                  return one(
                      g.op("Sub", NONE, dy, g.op("Mul", NONE, g.op("Exp", NONE, g.out(0)), s)));
                })
            .infers(softmaxType("LogSoftmax"))
            .role(CostRole.SOFTMAX)
            .shards(ReductionRules.softmax("LogSoftmax")));
    // CumSum (attributes axis, exclusive, reverse): the gradient is the cumulative sum of dout
    // the other way round; the axis stays whole when sharded (CumSumInfo).
    defs.add(
        OpDef.of(
                "CumSum",
                c ->
                    one(
                        Reductions.cumSum(
                            c.in(0),
                            c.attrs().integer("axis"),
                            c.attrs().bool("exclusive", false),
                            c.attrs().bool("reverse", false))),
                g ->
                    one(
                        g.op(
                            "CumSum",
                            Attrs.of(
                                "axis",
                                g.attrs().integer("axis"),
                                "exclusive",
                                g.attrs().bool("exclusive", false),
                                "reverse",
                                !g.attrs().bool("reverse", false)),
                            g.dout(0))))
            .infers(Infer.one((a, in) -> Reductions.cumSumType(in.get(0), a.integer("axis"))))
            .role(CostRole.SOFTMAX)
            .shards(ReductionRules.softmax("CumSum")));
    defs.add(activationGrad("ReluGrad", 0, 0));
    defs.add(activationGrad("SigmoidGrad", 1, 1));
    defs.add(activationGrad("TanhGrad", 2, 1));
    // ReduceAll / ReduceAny: whether every / any element along the axes is true (non-zero); the
    // partial result of a split reduced dim is the ranks' MIN / MAX (MindSpore's ReduceAllInfo and
    // ReduceAnyInfo all-reduce a cast to int).
    for (boolean all : new boolean[] {true, false}) {
      String name = all ? "ReduceAll" : "ReduceAny";
      Reductions.Op op = all ? Reductions.Op.MIN : Reductions.Op.MAX;
      defs.add(
          OpDef.of(
                  name,
                  c ->
                      one(
                          Reductions.reduce(
                                  op,
                                  name,
                                  truth(c.in(0)),
                                  c.attrs().ints("axis"),
                                  c.attrs().bool("keep_dims", false))
                              .astype(DType.BOOL)),
                  GradRule.NONE)
              .infers(
                  Infer.one(
                      (a, in) ->
                          Reductions.reduceType(
                                  Reductions.Op.SUM,
                                  name,
                                  in.get(0).withDtype(DType.FLOAT32),
                                  a.ints("axis"),
                                  a.bool("keep_dims", false))
                              .withDtype(DType.BOOL)))
              .role(CostRole.GENERAL)
              .shards(ReductionRules.reduce(all ? PartialOp.MIN : PartialOp.MAX)));
    }
    // Argmax: the index of the first maximum along axis, as output_type (Int32 or Int64).
    defs.add(
        OpDef.of(
                "Argmax",
                c -> {
                  AbstractTensor t = argReduceType("Argmax", c.attrs(), c.in(0).type());
                  int[] at = Reductions.argExtremum(c.in(0), c.attrs().integer("axis", -1), true);
                  return one(Reductions.indices(at, t.dtype(), t.shape()));
                },
                GradRule.NONE)
            .infers(Infer.one((a, in) -> argReduceType("Argmax", a, in.get(0))))
            .role(CostRole.GENERAL)
            .shards(ReductionRules.argReduce("Argmax")));
    return defs;
  }

  /** How a reduction split over its reduced dims leaves its output: partial of the same op. */
  private static PartialOp partial(Reductions.Op r) {
    return switch (r) {
      case SUM -> PartialOp.SUM;
      case MEAN -> PartialOp.MEAN;
      case MAX -> PartialOp.MAX;
      case MIN -> PartialOp.MIN;
      case PROD -> PartialOp.PROD;
    };
  }

  private static Infer softmaxType(String name) {
    return Infer.one((a, in) -> Activations.softmaxType(name, in.get(0), a.integer("axis")));
  }

  /** An activation gradient of {@code kind}, its output gradient dy at input {@code dyAt}. */
  private static OpDef activationGrad(String name, int kind, int dyAt) {
    return OpDef.of(
            name, c -> one(activationGrad(kind, c.in(dyAt), c.in(1 - dyAt))), GradRule.UNDEFINED)
        .infers(
            Infer.one(
                (a, in) -> {
                  AbstractTensor dy = in.get(dyAt);
                  checkSameShape(dy.shape(), in.get(1 - dyAt).shape());
                  return dy;
                }))
        .role(CostRole.ELEMENTWISE)
        .shards(ElementwiseRules.arithmetic());
  }

  private static void checkSameShape(Shape dy, Shape y) {
    if (!dy.equals(y)) {
      throw dev.msjvm.engine.MsException.valueError(
          "The shapes of dy " + dy + " and y " + y + " must be the same.");
    }
  }

  /** dy times the activation's derivative written in terms of its output y. */
  private static Tensor activationGrad(int kind, Tensor dy, Tensor y) {
    checkSameShape(dy.shape(), y.shape());
    int n = y.size();
    Tensor out = Tensor.zeros(dy.dtype(), dy.shape());
    if (dy.dtype() == dev.msjvm.engine.ir.DType.FLOAT32
        && y.dtype() == dev.msjvm.engine.ir.DType.FLOAT32) {
      float[] d = dy.floats();
      float[] v = y.floats();
      float[] o = out.floats();
      // One loop per kind (a switch inside the loop keeps C2 from vectorising it).
      switch (kind) {
        case 0 -> {
          for (int i = 0; i < n; i++) {
            o[i] = v[i] > 0 ? d[i] : 0f;
          }
        }
        case 1 -> {
          for (int i = 0; i < n; i++) {
            o[i] = d[i] * v[i] * (1f - v[i]);
          }
        }
        default -> {
          for (int i = 0; i < n; i++) {
            o[i] = d[i] * (1f - v[i] * v[i]);
          }
        }
      }
      return out;
    }
    return Tensor.ofDoubles(
        dy.dtype(),
        dy.shape(),
        i -> {
          double d = dy.getDouble(i);
          double v = y.getDouble(i);
          return switch (kind) {
            case 0 -> v > 0 ? d : 0;
            case 1 -> d * v * (1 - v);
            default -> d * (1 - v * v);
          };
        });
  }

  private static Tensor[] matmulGrad(GradRule.Call g) {
    boolean ta = g.attrs().bool("transpose_a", false);
    boolean tb = g.attrs().bool("transpose_b", false);
    Tensor x = g.in(0);
    Tensor y = g.in(1);
    Tensor d = g.dout(0);
    Tensor dx = null;
    Tensor dy = null;
    if (g.needs(0)) {
      dx = ta ? mm(g, y, d, tb, true) : mm(g, d, y, false, !tb);
    }
    if (g.needs(1)) {
      dy = tb ? mm(g, d, x, true, ta) : mm(g, x, d, !ta, false);
    }
    return new Tensor[] {dx, dy};
  }

  private static Tensor mm(GradRule.Call g, Tensor a, Tensor b, boolean ta, boolean tb) {
    return g.op("MatMul", Attrs.of("transpose_a", ta, "transpose_b", tb), a, b);
  }

  /** 1.0 where {@code x} is non-zero (true), 0.0 elsewhere, as float32. */
  private static Tensor truth(Tensor x) {
    return Tensor.ofDoubles(DType.FLOAT32, x.shape(), i -> x.getDouble(i) != 0 ? 1 : 0);
  }

  /** Argmax's and Argmin's output: the input less {@code axis}, in {@code output_type}. */
  static AbstractTensor argReduceType(String name, Attrs a, AbstractTensor x) {
    int rank = x.shape().rank();
    int axis = a.integer("axis", -1);
    Reductions.checkAxis(name, axis, Math.max(rank, 1));
    List<Integer> dims = new ArrayList<>(x.shape().dims());
    if (rank > 0) {
      dims.remove(Math.floorMod(axis, rank));
    }
    return new AbstractTensor(
        new Shape(dims), DType.valueOf(a.has("output_type") ? a.string("output_type") : "INT32"));
  }

  private static Tensor[] reduceGrad(Reductions.Op r, GradRule.Call g) {
    Tensor x = g.in(0);
    Shape xs = x.shape();
    List<Integer> axes = g.attrs().ints("axis");
    boolean[] reduced = new boolean[xs.rank()];
    for (int a : axes) {
      reduced[a < 0 ? a + xs.rank() : a] = true;
    }
    List<Integer> kept = new ArrayList<>();
    long count = 1;
    for (int a = 0; a < xs.rank(); a++) {
      boolean all = axes.isEmpty() || reduced[a];
      kept.add(all ? 1 : xs.dim(a));
      if (all) {
        count *= xs.dim(a);
      }
    }
    Attrs keptShape = Attrs.of("shape", kept);
    Attrs toX = Attrs.of("shape", xs.dims());
    Tensor d = g.op("BroadcastTo", toX, g.op("Reshape", keptShape, g.dout(0)));
    return switch (r) {
      case SUM -> one(d);
      case MEAN ->
          one(
              g.op(
                  "ScalarOp",
                  Attrs.of("op", "RealDiv", "scalar", (double) count, "left", false),
                  d));
      case MAX, MIN -> {
        // MindSpore splits the gradient evenly between tied extremes.
        Tensor y = g.op("BroadcastTo", toX, g.op("Reshape", keptShape, g.out(0)));
        Tensor hit = g.op("Cast", Attrs.of("dtype", x.dtype().name()), g.op("Equal", NONE, x, y));
        Attrs sum = Attrs.of("axis", axes, "keep_dims", true);
        Tensor n = g.op("BroadcastTo", toX, g.op("ReduceSum", sum, hit));
        yield one(g.op("Mul", NONE, d, g.op("Div", NONE, hit, n)));
      }
      case PROD ->
          xs.rank() == 0 ? one(g.dout(0)) : one(g.op("Mul", NONE, d, othersProduct(g, x, axes)));
    };
  }

  /**
   * For each element of {@code x}, the product of the other elements its reduction over {@code
   * axes} (empty: all) multiplies: MindSpore's ReduceProd bprop, which moves the reduced dims to
   * the front, flattens them, and multiplies exclusive cumulative products from both ends (exact
   * where elements are zero, unlike out / x).
   */
  private static Tensor othersProduct(GradRule.Call g, Tensor x, List<Integer> axes) {
    Shape xs = x.shape();
    int rank = xs.rank();
    List<Integer> perm = new ArrayList<>();
    List<Integer> kept = new ArrayList<>();
    int reducedSize = 1;
    int keptSize = 1;
    for (int a = 0; a < rank; a++) {
      boolean r = axes.isEmpty() || axes.contains(a) || axes.contains(a - rank);
      if (r) {
        perm.add(a);
        reducedSize *= xs.dim(a);
      } else {
        kept.add(a);
        keptSize *= xs.dim(a);
      }
    }
    perm.addAll(kept);
    List<Integer> permutedDims = new ArrayList<>();
    List<Integer> inverse = new ArrayList<>(java.util.Collections.nCopies(rank, 0));
    for (int i = 0; i < rank; i++) {
      permutedDims.add(xs.dim(perm.get(i)));
      inverse.set(perm.get(i), i);
    }
    Tensor p = g.op("Transpose", Attrs.of("perm", perm), x);
    Tensor flat = g.op("Reshape", Attrs.of("shape", List.of(reducedSize, keptSize)), p);
    Tensor left = g.op("CumProd", Attrs.of("axis", 0, "exclusive", true, "reverse", false), flat);
    Tensor right = g.op("CumProd", Attrs.of("axis", 0, "exclusive", true, "reverse", true), flat);
    Tensor y = g.op("Reshape", Attrs.of("shape", permutedDims), g.op("Mul", NONE, left, right));
    return g.op("Transpose", Attrs.of("perm", inverse), y);
  }
}
