package dev.msjvm.engine.ops;

import static dev.msjvm.engine.ops.ElementwiseOps.one;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.parallel.rules.ReductionRules;
import dev.msjvm.engine.tensor.Reductions;
import dev.msjvm.engine.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;

/**
 * The reductions MindSpore's parallel tests use beside ReduceSum and friends: ArgMaxWithValue and
 * ArgMinWithValue (attributes {@code axis}, {@code keep_dims}; outputs the int64 index and the
 * value, reduce_method_info.cc's ArgMaxWithValueInfo), Argmin ({@code axis}, {@code output_type}),
 * SquareSumAll (the two inputs' sums of squares, SquareSumAllInfo) and CumProd ({@code axis},
 * {@code exclusive}, {@code reverse}; CumProdInfo keeps the axis whole), with MindSpore 2.10's
 * checks, texts and bprops.
 */
final class ReductionOps {
  private ReductionOps() {}

  private static final Attrs NONE = Attrs.EMPTY;

  static List<OpDef> defs() {
    List<OpDef> defs = new ArrayList<>();
    for (boolean max : new boolean[] {true, false}) {
      String name = max ? "ArgMaxWithValue" : "ArgMinWithValue";
      defs.add(
          OpDef.of(
                  name,
                  c -> {
                    Tensor x = c.in(0);
                    AbstractTensor values = withValueType(name, c.attrs(), x.type());
                    int axis = c.attrs().integer("axis", 0);
                    int[] at = Reductions.argExtremum(x, axis, max);
                    return new Tensor[] {
                      Reductions.indices(at, DType.INT64, values.shape()),
                      Reductions.gatherAlong(x, axis, at, values.shape())
                    };
                  },
                  ReductionOps::withValueGrad)
              .infers(
                  (a, in) -> {
                    AbstractTensor v = withValueType(name, a, in.get(0));
                    return List.of(v.withDtype(DType.INT64), v);
                  })
              .role(CostRole.GENERAL)
              .shards(ReductionRules.argReduceWithValue(name)));
    }
    defs.add(
        OpDef.of(
                "Argmin",
                c -> {
                  AbstractTensor t = MathOps.argReduceType("Argmin", c.attrs(), c.in(0).type());
                  int[] at = Reductions.argExtremum(c.in(0), c.attrs().integer("axis", -1), false);
                  return one(Reductions.indices(at, t.dtype(), t.shape()));
                },
                GradRule.NONE)
            .infers(Infer.one((a, in) -> MathOps.argReduceType("Argmin", a, in.get(0))))
            .role(CostRole.GENERAL)
            .shards(ReductionRules.argReduce("Argmin")));
    defs.add(
        OpDef.of(
                "SquareSumAll",
                c -> {
                  AbstractTensor t = squareSumAllType(c.in(0).type(), c.in(1).type());
                  return new Tensor[] {squareSum(c.in(0), t), squareSum(c.in(1), t)};
                },
                g ->
                    new Tensor[] {
                      g.needs(0) ? twiceTimes(g, g.in(0), g.dout(0)) : null,
                      g.needs(1) ? twiceTimes(g, g.in(1), g.dout(1)) : null
                    })
            .infers(
                (a, in) -> {
                  AbstractTensor t = squareSumAllType(in.get(0), in.get(1));
                  return List.of(t, t);
                })
            .role(CostRole.GENERAL)
            .shards(ReductionRules.squareSumAll()));
    // CumProd's bprop: CumSum(out dout) the other way round, divided by x.
    defs.add(
        OpDef.of(
                "CumProd",
                c -> {
                  return one(
                      Reductions.cumProd(
                          c.in(0),
                          c.attrs().integer("axis"),
                          c.attrs().bool("exclusive", false),
                          c.attrs().bool("reverse", false)));
                },
                g -> {
                  Attrs sum =
                      Attrs.of(
                          "axis",
                          g.attrs().integer("axis"),
                          "exclusive",
                          g.attrs().bool("exclusive", false),
                          "reverse",
                          !g.attrs().bool("reverse", false));
                  Tensor s = g.op("CumSum", sum, g.op("Mul", NONE, g.out(0), g.dout(0)));
                  return one(g.op("Div", NONE, s, g.in(0)));
                })
            .infers(Infer.one((a, in) -> Reductions.cumProdType(in.get(0), a.integer("axis"))))
            .role(CostRole.SOFTMAX)
            .shards(ReductionRules.softmax("CumProd")));
    return defs;
  }

  /** The value output of ArgMaxWithValue/ArgMinWithValue: the input less (or with 1 at) axis. */
  private static AbstractTensor withValueType(String name, Attrs a, AbstractTensor x) {
    int rank = x.rank();
    int bound = Math.max(rank, 1);
    int axis = a.integer("axis", 0);
    Reductions.checkAxis(name, axis, bound);
    if (x.dtype() == DType.BOOL) {
      throw MsException.typeError(
          "Select CPU operator[" + name + "] fail! Unsupported data type! The input is Bool.");
    }
    List<Integer> dims = new ArrayList<>(x.shape().dims());
    if (rank > 0) {
      int d = Math.floorMod(axis, rank);
      if (a.bool("keep_dims", false)) {
        dims.set(d, 1);
      } else {
        dims.remove(d);
      }
    }
    return x.withShape(new Shape(dims));
  }

  /**
   * MindSpore's ArgminOrArgmaxGrad: the value's gradient at the chosen index (a one-hot along
   * axis), zeros elsewhere; the index gets none.
   */
  private static Tensor[] withValueGrad(GradRule.Call g) {
    Tensor x = g.in(0);
    if (x.shape().rank() == 0) {
      return one(g.dout(1));
    }
    int axis = Math.floorMod(g.attrs().integer("axis", 0), x.shape().rank());
    Tensor index = g.out(0);
    Tensor dv = g.dout(1);
    if (g.attrs().bool("keep_dims", false)) {
      index = g.op("Squeeze", Attrs.of("axis", List.of(axis)), index);
    } else {
      dv = g.op("ExpandDims", Attrs.of("axis", axis), dv);
    }
    // OneHot puts the depth dim back at axis: x's shape
    Tensor on = Tensor.ofDoubles(x.dtype(), Shape.scalar(), i -> 1);
    Tensor off = Tensor.ofDoubles(x.dtype(), Shape.scalar(), i -> 0);
    Tensor hot =
        g.op("OneHot", Attrs.of("depth", x.shape().dim(axis), "axis", axis), index, on, off);
    return one(g.op("Mul", NONE, hot, dv));
  }

  /** SquareSumAll's outputs: 0-d, of the inputs' type (float16 or float32, shapes equal). */
  private static AbstractTensor squareSumAllType(AbstractTensor x, AbstractTensor y) {
    String[] names = {"x", "y"};
    AbstractTensor[] in = {x, y};
    for (int i = 0; i < 2; i++) {
      DType t = in[i].dtype();
      if (t != DType.FLOAT16 && t != DType.FLOAT32) {
        throw MsException.typeError(
            "For primitive[SquareSumAll], the input argument["
                + names[i]
                + "] must be a type of {Tensor[Float16], Tensor[Float32]}, but got Tensor["
                + t.mindsporeName()
                + "].");
      }
    }
    if (!x.shape().equals(y.shape())) {
      throw MsException.valueError(
          "For primitive[SquareSumAll], the x: "
              + trailingCommas(x.shape())
              + " must be equal to "
              + trailingCommas(y.shape()));
    }
    return new AbstractTensor(Shape.scalar(), x.dtype());
  }

  /** A shape as MindSpore's check prints it here: {@code [2,]}, {@code [2,3,]}. */
  private static String trailingCommas(Shape s) {
    StringBuilder b = new StringBuilder("[");
    for (int d : s.dims()) {
      b.append(d).append(',');
    }
    return b.append(']').toString();
  }

  private static Tensor squareSum(Tensor x, AbstractTensor t) {
    double sum = 0;
    for (int i = 0; i < x.size(); i++) {
      double v = x.getDouble(i);
      sum += v * v;
    }
    double s = sum;
    return Tensor.ofDoubles(t.dtype(), t.shape(), i -> s);
  }

  /** {@code 2 x dout}. */
  private static Tensor twiceTimes(GradRule.Call g, Tensor x, Tensor dout) {
    Tensor twice = g.op("ScalarOp", Attrs.of("op", "Mul", "scalar", 2.0, "left", false), x);
    return g.op("Mul", NONE, twice, dout);
  }
}
