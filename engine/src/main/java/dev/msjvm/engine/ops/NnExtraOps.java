package dev.msjvm.engine.ops;

import static dev.msjvm.engine.ops.ElementwiseOps.one;
import static dev.msjvm.engine.ops.GradOps.mul;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.parallel.rules.NnRules;
import dev.msjvm.engine.parallel.rules.ReductionRules;
import dev.msjvm.engine.tensor.Normalization;
import dev.msjvm.engine.tensor.Pointwise;
import dev.msjvm.engine.tensor.Reductions;
import dev.msjvm.engine.tensor.Tensor;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * PReLU, L2Normalize and RmsNorm (MindSpore's prelu_info.cc, l2_normalize_info.cc,
 * rms_norm_info.cc), with MindSpore 2.10's checks and texts where its CPU wheel has the kernel
 * (PReLU, L2Normalize; RmsNorm has none there, so it follows the documented formula).
 *
 * <p>PReLU(x, weight): {@code x} where positive, {@code weight[c] x} elsewhere, {@code c} the index
 * along dimension 1 (a 1-element weight serves every channel); the weight splits as x's channels.
 * L2Normalize (attributes {@code axis}, {@code epsilon}): {@code x / sqrt(max(sum(x^2, axis),
 * epsilon))}, the axis whole. RmsNorm(x, gamma) (attribute {@code epsilon}): {@code y = x rstd
 * gamma} and {@code rstd = 1 / sqrt(mean(x^2) + epsilon)} over the trailing dims gamma covers,
 * which stay whole; {@code rstd} keeps them as 1s.
 */
public final class NnExtraOps {
  private NnExtraOps() {}

  private static final Attrs NONE = Attrs.EMPTY;

  private static final AcceptedTypes PRELU_TYPES =
      new AcceptedTypes(EnumSet.of(DType.FLOAT16, DType.FLOAT32), "x", "Float16, Float32");

  private static final AcceptedTypes L2_TYPES =
      new AcceptedTypes(AcceptedTypes.FLOATS, "input_x", AcceptedTypes.FLOAT3);

  private static final AcceptedTypes RMS_TYPES =
      new AcceptedTypes(
          EnumSet.of(DType.FLOAT16, DType.FLOAT32, DType.BFLOAT16),
          "x",
          "Tensor[BFloat16], Tensor[Float16], Tensor[Float32]");

  static List<OpDef> defs() {
    List<OpDef> defs = new ArrayList<>();
    defs.add(
        OpDef.of(
                "PReLU",
                c -> {
                  AbstractTensor t = preluType(c.in(0).type(), c.in(1).type());
                  Tensor x = c.in(0);
                  Tensor w = c.in(1);
                  int inner = channelStride(x.shape());
                  int channels = x.shape().rank() >= 2 ? x.shape().dim(1) : 1;
                  int wn = w.size();
                  return one(
                      Tensor.ofDoubles(
                          t.dtype(),
                          t.shape(),
                          i -> {
                            double v = x.getDouble(i);
                            int ch = wn == 1 ? 0 : (i / inner) % channels;
                            return v > 0 ? v : w.getDouble(ch) * v;
                          }));
                },
                NnExtraOps::preluGrad)
            .infers(Infer.one((a, in) -> preluType(in.get(0), in.get(1))))
            .role(CostRole.ELEMENTWISE)
            .shards(NnRules.prelu()));
    defs.add(
        OpDef.of(
                "L2Normalize",
                c -> {
                  l2Type(c.attrs(), c.in(0).type());
                  Tensor x = c.in(0);
                  Tensor norm = l2Norm(x, c.attrs());
                  return one(
                      Pointwise.map2(
                          x, norm, DType.FLOAT64, x.dtype(), x.shape(), (u, v) -> u / v, null));
                },
                NnExtraOps::l2NormalizeGrad)
            .infers(Infer.one(NnExtraOps::l2Type))
            .role(CostRole.SOFTMAX)
            .shards(ReductionRules.softmax("L2Normalize")));
    defs.add(
        OpDef.of("RmsNorm", c -> rmsNorm(c, Normalization.Sums.LOCAL), NnExtraOps::rmsNormGrad)
            .infers((a, in) -> rmsNormTypes(in.get(0), in.get(1)))
            .role(CostRole.GENERAL)
            .shards(ReductionRules.rmsNorm()));
    defs.add(
        OpDef.of("KLDivLoss", NnExtraOps::klDivLoss, NnExtraOps::klDivLossGrad)
            .infers(Infer.one((a, in) -> klDivLossType(a, in.get(0), in.get(1))))
            .role(CostRole.ELEMENTWISE)
            .shards(ReductionRules.klDivLoss()));
    return defs;
  }

  // ---- PReLU ---------------------------------------------------------------------------------

  /** The elements between two consecutive channels of {@code x} (1-D: every element). */
  private static int channelStride(Shape s) {
    int inner = 1;
    for (int d = 2; d < s.rank(); d++) {
      inner *= s.dim(d);
    }
    return inner;
  }

  private static AbstractTensor preluType(AbstractTensor x, AbstractTensor w) {
    PRELU_TYPES.check("PReLU", x.dtype());
    int channels = x.rank() >= 2 ? x.shape().dim(1) : 1;
    if (w.rank() != 1 || (w.shape().dim(0) != channels && w.shape().dim(0) != 1)) {
      throw MsException.valueError(
          "For 'Prelu', the length of 'weight' must be equal to number of channels: "
              + channels
              + ", but got [const vector]{"
              + String.join(", ", w.shape().dims().stream().map(String::valueOf).toList())
              + "}.");
    }
    return x;
  }

  /**
   * PReLUGrad: {@code dx = dout} where x is positive, {@code weight dout} elsewhere; {@code
   * dweight} the sum over all but the channel dim of {@code dout x} where x is not positive.
   */
  private static Tensor[] preluGrad(GradRule.Call g) {
    Tensor x = g.in(0);
    Tensor w = g.in(1);
    int rank = x.shape().rank();
    List<Integer> wShape = new ArrayList<>();
    for (int d = 0; d < rank; d++) {
      wShape.add(d == 1 || (rank == 1 && d == 0) ? w.shape().dim(0) : 1);
    }
    Tensor wb =
        g.op(
            "Cast",
            Attrs.of("dtype", x.dtype().name()),
            g.op("Reshape", Attrs.of("shape", wShape), w));
    Tensor positive = g.op("ScalarOp", Attrs.of("op", "Greater", "scalar", 0.0, "left", false), x);
    Tensor zeros = g.op("ZerosLike", NONE, g.dout(0));
    Tensor dx = g.op("Select", NONE, positive, g.dout(0), mul(g, g.dout(0), wb));
    Tensor dw = null;
    if (g.needs(1)) {
      Tensor part = g.op("Select", NONE, positive, zeros, mul(g, g.dout(0), x));
      List<Integer> axes = new ArrayList<>();
      for (int d = 0; d < rank; d++) {
        if (!(w.shape().dim(0) > 1 && d == 1)) {
          axes.add(d);
        }
      }
      Tensor s = g.op("ReduceSum", Attrs.of("axis", axes), part);
      dw =
          g.op(
              "Cast",
              Attrs.of("dtype", w.dtype().name()),
              g.op("Reshape", Attrs.of("shape", w.shape().dims()), s));
    }
    return new Tensor[] {dx, dw};
  }

  // ---- L2Normalize ---------------------------------------------------------------------------

  private static AbstractTensor l2Type(Attrs a, List<AbstractTensor> in) {
    return l2Type(a, in.get(0));
  }

  private static AbstractTensor l2Type(Attrs a, AbstractTensor x) {
    L2_TYPES.check("L2Normalize", x.dtype());
    int rank = x.rank();
    int axis = a.integer("axis", 0);
    if (axis < -rank || axis >= rank) {
      throw MsException.valueError(
          "For primitive[L2Normalize], the axis value must be in ["
              + -rank
              + ","
              + rank
              + "), but got "
              + axis
              + ".");
    }
    return x;
  }

  /** {@code sqrt(max(sum(x^2, axis, keep), epsilon))} in double, of x's type. */
  private static Tensor l2Norm(Tensor x, Attrs a) {
    Tensor sq =
        Tensor.ofDoubles(
            DType.FLOAT64,
            x.shape(),
            i -> {
              double v = x.getDouble(i);
              return v * v;
            });
    Tensor sum =
        Reductions.reduce(
            Reductions.Op.SUM, "L2Normalize", sq, List.of(a.integer("axis", 0)), true);
    double eps = a.has("epsilon") ? a.real("epsilon") : 1e-4;
    return Tensor.ofDoubles(
        DType.FLOAT64, sum.shape(), i -> Math.sqrt(Math.max(sum.getDouble(i), eps)));
  }

  /** {@code (dout - y sum(dout y, axis)) / norm}, the norm recomputed from x. */
  private static Tensor[] l2NormalizeGrad(GradRule.Call g) {
    Tensor x = g.in(0);
    Tensor y = g.out(0);
    Attrs keep = Attrs.of("axis", List.of(g.attrs().integer("axis", 0)), "keep_dims", true);
    double eps = g.attrs().has("epsilon") ? g.attrs().real("epsilon") : 1e-4;
    Tensor sumSq = g.op("ReduceSum", keep, g.op("Square", NONE, x));
    Tensor norm =
        g.op(
            "Sqrt",
            NONE,
            g.op("ScalarOp", Attrs.of("op", "Maximum", "scalar", eps, "left", false), sumSq));
    Tensor s = g.op("ReduceSum", keep, mul(g, g.dout(0), y));
    return one(g.op("Div", NONE, g.op("Sub", NONE, g.dout(0), mul(g, y, s)), norm));
  }

  // ---- RmsNorm -------------------------------------------------------------------------------

  /** RmsNorm's outputs: y (x's type and shape) and rstd (float32, the normalised dims as 1s). */
  public static List<AbstractTensor> rmsNormTypes(AbstractTensor x, AbstractTensor gamma) {
    RMS_TYPES.check("RmsNorm", x.dtype());
    int begin = x.rank() - gamma.rank();
    if (begin < 0) {
      throw MsException.valueError(
          "For 'RmsNorm', the rank of 'gamma' must not be larger than the rank of 'x', but got "
              + gamma.rank()
              + " and "
              + x.rank()
              + ".");
    }
    for (int d = 0; d < gamma.rank(); d++) {
      if (gamma.shape().dim(d) != x.shape().dim(begin + d)) {
        throw MsException.valueError(
            "For 'RmsNorm', the shape of 'gamma' must equal the trailing dims of 'x', but got "
                + gamma.shape()
                + " and "
                + x.shape()
                + ".");
      }
    }
    List<Integer> rstd = new ArrayList<>();
    for (int d = 0; d < x.rank(); d++) {
      rstd.add(d < begin ? x.shape().dim(d) : 1);
    }
    return List.of(x, new AbstractTensor(new Shape(rstd), DType.FLOAT32));
  }

  /**
   * RmsNorm's kernel on this rank's block: each row's sum of squares and element count, summed over
   * the ranks holding the rest of the row by {@code sums} (LOCAL on one rank), give its rstd.
   */
  public static Tensor[] rmsNorm(Kernel.Call c, Normalization.Sums sums) {
    Tensor x = c.in(0);
    Tensor gamma = c.in(1);
    List<AbstractTensor> t = rmsNormTypes(x.type(), gamma.type());
    double eps = c.attrs().real("epsilon");
    int n = gamma.size();
    int rows = n == 0 ? 0 : x.size() / n;
    double[] local = new double[rows + 1];
    for (int row = 0; row < rows; row++) {
      double sum = 0;
      for (int k = 0; k < n; k++) {
        double v = x.getDouble(row * n + k);
        sum += v * v;
      }
      local[row] = sum;
    }
    local[rows] = n;
    double[] total = sums.acrossRanks(local);
    double count = total[rows];
    double[] r = new double[rows];
    for (int row = 0; row < rows; row++) {
      r[row] = 1 / Math.sqrt(total[row] / count + eps);
    }
    Tensor rs = Tensor.ofDoubles(DType.FLOAT32, t.get(1).shape(), i -> r[i]);
    Tensor y =
        Tensor.ofDoubles(
            x.dtype(), x.shape(), i -> x.getDouble(i) * r[i / n] * gamma.getDouble(i % n));
    return new Tensor[] {y, rs};
  }

  /**
   * RmsNormGrad (the gradient of y; rstd's is ignored, as MindSpore's): {@code dx = rstd gamma dy -
   * x rstd^3 mean(gamma dy x)} over the normalised dims, {@code dgamma = sum(dy x rstd)} over the
   * others.
   */
  private static Tensor[] rmsNormGrad(GradRule.Call g) {
    Tensor x = g.in(0);
    Tensor gamma = g.in(1);
    int begin = x.shape().rank() - gamma.shape().rank();
    List<Integer> norm = new ArrayList<>();
    List<Integer> lead = new ArrayList<>();
    for (int d = 0; d < x.shape().rank(); d++) {
      (d < begin ? lead : norm).add(d);
    }
    Attrs cast = Attrs.of("dtype", x.dtype().name());
    Tensor r = g.op("Cast", cast, g.out(1));
    Tensor gdy = mul(g, g.dout(0), gamma);
    Tensor mean = g.op("ReduceMean", Attrs.of("axis", norm, "keep_dims", true), mul(g, gdy, x));
    Tensor r3 = mul(g, mul(g, r, r), r);
    Tensor dx = g.op("Sub", NONE, mul(g, r, gdy), mul(g, mul(g, x, r3), mean));
    Tensor dgamma = null;
    if (g.needs(1)) {
      Tensor p = mul(g, mul(g, g.dout(0), x), r);
      dgamma = lead.isEmpty() ? p : g.op("ReduceSum", Attrs.of("axis", lead), p);
      dgamma = g.op("Cast", Attrs.of("dtype", gamma.dtype().name()), dgamma);
    }
    return new Tensor[] {dx, dgamma};
  }

  // ---- KLDivLoss -----------------------------------------------------------------------------

  /**
   * KLDivLoss(logits, labels), {@code reduction} none/mean/sum/batchmean: {@code labels *
   * (log(labels) - logits)} where a label is positive, 0 elsewhere (MindSpore 2.10's CPU kernel),
   * then summed, averaged over every element or over dimension 0. A partitioned graph's rank
   * divides a batchmean by the global batch ({@code global_batch}, the rule's local attribute).
   */
  private static Tensor[] klDivLoss(Kernel.Call c) {
    AbstractTensor t = klDivLossType(c.attrs(), c.in(0).type(), c.in(1).type());
    Tensor x = c.in(0);
    Tensor y = c.in(1);
    String reduction = c.attrs().string("reduction");
    if (reduction.equals("none")) {
      return one(Tensor.ofDoubles(t.dtype(), t.shape(), i -> klDivTerm(x, y, i)));
    }
    double sum = 0;
    for (int i = 0; i < x.size(); i++) {
      sum += klDivTerm(x, y, i);
    }
    double divisor =
        switch (reduction) {
          case "mean" -> x.size();
          case "batchmean" -> c.attrs().integer("global_batch", x.shape().dim(0));
          default -> 1;
        };
    double loss = sum / divisor;
    return one(Tensor.ofDoubles(t.dtype(), t.shape(), i -> loss));
  }

  private static double klDivTerm(Tensor x, Tensor y, int i) {
    double label = y.getDouble(i);
    return label > 0 ? label * (Math.log(label) - x.getDouble(i)) : 0;
  }

  /**
   * MindSpore's bprop: {@code dlogits = -labels * dout}, divided by the element count for mean and
   * by the batch for batchmean; the labels get zeros.
   */
  private static Tensor[] klDivLossGrad(GradRule.Call g) {
    Tensor x = g.in(0);
    Tensor dx = mul(g, g.op("Neg", NONE, g.in(1)), g.dout(0));
    String reduction = g.attrs().string("reduction");
    if (reduction.equals("mean")) {
      dx = GradOps.scalar(g, "RealDiv", dx, x.size());
    } else if (reduction.equals("batchmean")) {
      dx = GradOps.scalar(g, "RealDiv", dx, x.shape().dim(0));
    }
    return new Tensor[] {dx, g.needs(1) ? GradOps.zeros(g, g.in(1)) : null};
  }

  private static AbstractTensor klDivLossType(Attrs a, AbstractTensor x, AbstractTensor y) {
    AcceptedTypes.check3("KLDivLoss", "x", x.dtype());
    if (x.dtype() != y.dtype()) {
      throw MsException.typeError("For primitive[KLDivLoss], the input type must be same.");
    }
    if (!x.shape().equals(y.shape())) {
      throw MsException.valueError(
          "For primitive[KLDivLoss], the x shape: "
              + dimsText(x.shape())
              + " must be equal to "
              + dimsText(y.shape()));
    }
    String reduction = a.string("reduction");
    if (reduction.equals("none")) {
      return x;
    }
    if (reduction.equals("batchmean") && x.shape().rank() == 0) {
      throw MsException.runtimeError("For KLDivLoss, can not do batchmean with x shape = []");
    }
    return x.withShape(Shape.of());
  }

  /** A shape as MindSpore's vector printer writes it: {@code [2,3,]}. */
  private static String dimsText(Shape s) {
    StringBuilder b = new StringBuilder("[");
    for (int d : s.toArray()) {
      b.append(d).append(',');
    }
    return b.append(']').toString();
  }
}
