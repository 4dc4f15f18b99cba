package dev.msjvm.engine.ops;

import static dev.msjvm.engine.ops.ElementwiseOps.one;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.parallel.rules.ElementwiseRules;
import dev.msjvm.engine.parallel.rules.IndexRules;
import dev.msjvm.engine.parallel.rules.ShapeRules;
import dev.msjvm.engine.tensor.Indexing;
import dev.msjvm.engine.tensor.Joining;
import dev.msjvm.engine.tensor.Padding;
import dev.msjvm.engine.tensor.Segments;
import dev.msjvm.engine.tensor.ShapeOps;
import dev.msjvm.engine.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;

/**
 * Operators that pick, join and repeat: Concat ({@code axis}, any number of inputs), Split ({@code
 * axis}, {@code output_num}), Gather and SparseGatherV2 ({@code axis}, {@code batch_dims}, and the
 * {@code offset} of a rank's rows when the table is split along the axis), GatherNd and ScatterNd
 * ({@code shape}), UnsortedSegmentSum/Prod/Max/Min ({@code num_segments}), OneHot ({@code depth},
 * {@code axis}), Select, Tile ({@code multiples}), StridedSlice ({@code begin}, {@code end}, {@code
 * strides} and the five masks), with the grad operators their rules emit.
 */
final class IndexOps {
  private IndexOps() {}

  private static final Attrs NONE = Attrs.EMPTY;

  /** StridedSlice's attributes as the kernel takes them. */
  private static Indexing.SliceSpec spec(Attrs a) {
    return new Indexing.SliceSpec(
        a.ints("begin"),
        a.ints("end"),
        a.ints("strides"),
        a.integer("begin_mask", 0),
        a.integer("end_mask", 0),
        a.integer("ellipsis_mask", 0),
        a.integer("new_axis_mask", 0),
        a.integer("shrink_axis_mask", 0));
  }

  static List<OpDef> defs() {
    return List.of(
        OpDef.of(
                "Concat",
                c -> {
                  List<Tensor> in = new ArrayList<>();
                  for (int i = 0; i < c.arity(); i++) {
                    in.add(c.in(i));
                  }
                  return one(Joining.concat(in, c.attrs().integer("axis", 0)));
                },
                IndexOps::concatGrad)
            .infers(Infer.one((a, in) -> Joining.concatType(in, a.integer("axis", 0))))
            .role(CostRole.GENERAL)
            .shards(ShapeRules.concat()),
        OpDef.of(
                "Split",
                c ->
                    Joining.split(
                            c.in(0),
                            c.attrs().integer("axis", 0),
                            c.attrs().integer("output_num", 1))
                        .toArray(new Tensor[0]),
                g -> {
                  Object[] douts = new Object[g.attrs().integer("output_num", 1)];
                  for (int i = 0; i < douts.length; i++) {
                    douts[i] = g.dout(i);
                  }
                  return one(g.op("Concat", Attrs.of("axis", g.attrs().integer("axis", 0)), douts));
                })
            .infers(
                (a, in) ->
                    java.util.Collections.nCopies(
                        a.integer("output_num", 1),
                        Joining.splitType(
                            in.get(0), a.integer("axis", 0), a.integer("output_num", 1))))
            .role(CostRole.GENERAL)
            .shards(ShapeRules.split()),
        OpDef.of(
                "SplitV",
                c -> {
                  Tensor x = c.in(0);
                  int axis = splitVAxis(c.attrs(), x.shape());
                  return Joining.splitSizes(x, axis, splitVSizes(c.attrs(), x.type()))
                      .toArray(new Tensor[0]);
                },
                g -> {
                  Object[] douts = new Object[g.attrs().integer("num_split")];
                  for (int i = 0; i < douts.length; i++) {
                    douts[i] = g.dout(i);
                  }
                  int axis = splitVAxis(g.attrs(), g.in(0).shape());
                  return one(g.op("Concat", Attrs.of("axis", axis), douts));
                })
            .infers(
                (a, in) -> {
                  AbstractTensor x = in.get(0);
                  int axis = splitVAxis(a, x.shape());
                  List<AbstractTensor> out = new ArrayList<>();
                  for (int size : splitVSizes(a, x)) {
                    int[] dims = x.shape().toArray();
                    dims[axis] = size;
                    out.add(x.withShape(Shape.of(dims)));
                  }
                  return out;
                })
            .role(CostRole.GENERAL)
            .shards(ShapeRules.splitV()),
        OpDef.of(
                "PadV3",
                c -> {
                  AbstractTensor t = padType(c.attrs(), c.in(0).type());
                  double value = c.arity() > 2 ? c.in(2).getDouble(0) : 0;
                  return one(
                      Padding.pad(
                          c.in(0), padAmounts(c.attrs(), t.rank()), padMode(c.attrs()), value));
                },
                g -> {
                  Tensor[] d = new Tensor[g.arity()];
                  d[0] = g.op("PadV3Grad", g.attrs(), g.dout(0));
                  return d;
                })
            .infers(Infer.one((a, in) -> padType(a, in.get(0))))
            .role(CostRole.GENERAL)
            .shards(ShapeRules.padV3()),
        OpDef.of(
                "PadV3Grad",
                c ->
                    one(
                        Padding.padGrad(
                            c.in(0),
                            padAmounts(c.attrs(), c.in(0).shape().rank()),
                            padMode(c.attrs()))),
                GradRule.UNDEFINED)
            .infers(
                Infer.one(
                    (a, in) -> {
                      int[][] pad = padAmounts(a, in.get(0).rank());
                      int[] dims = in.get(0).shape().toArray();
                      for (int d = 0; d < dims.length; d++) {
                        dims[d] -= pad[d][0] + pad[d][1];
                      }
                      return in.get(0).withShape(Shape.of(dims));
                    }))
            .role(CostRole.GENERAL)
            .shards(ShapeRules.padV3Grad()),
        gather("Gather"),
        gather("SparseGatherV2"),
        gatherNd(),
        scatterNd(),
        OpDef.of(
                "GatherGrad",
                c ->
                    one(
                        Indexing.gatherGrad(
                            c.in(0),
                            c.in(1),
                            c.attrs().integer("axis"),
                            new Shape(c.attrs().ints("shape")),
                            c.attrs().integer("batch_dims", 0))),
                // Scatter-add's adjoint is the gather at the same indices.
                g ->
                    new Tensor[] {
                      g.op(
                          "Gather",
                          Attrs.of(
                              "axis",
                              g.attrs().integer("axis"),
                              "batch_dims",
                              g.attrs().integer("batch_dims", 0)),
                          g.dout(0),
                          g.in(1)),
                      null
                    })
            .infers(
                Infer.one(
                    (a, in) ->
                        Indexing.gatherGradType(
                            in.get(0),
                            in.get(1),
                            a.integer("axis"),
                            new Shape(a.ints("shape")),
                            a.integer("batch_dims", 0))))
            .role(CostRole.GENERAL)
            .shards(IndexRules.gatherGrad()),
        segment(Segments.Reduction.SUM, IndexOps::segmentSumGrad),
        segment(Segments.Reduction.PROD, IndexOps::segmentProdGrad),
        segment(Segments.Reduction.MAX, IndexOps::segmentMinMaxGrad),
        segment(Segments.Reduction.MIN, IndexOps::segmentMinMaxGrad),
        OpDef.of(
                "OneHot",
                c ->
                    one(
                        Indexing.oneHot(
                            c.in(0),
                            c.attrs().integer("depth"),
                            c.in(1),
                            c.in(2),
                            c.attrs().integer("axis", -1),
                            c.attrs().integer("offset", 0))),
                GradRule.NONE)
            .infers(
                Infer.one(
                    (a, in) ->
                        Indexing.oneHotType(
                            in.get(0),
                            a.integer("depth"),
                            in.get(1),
                            in.get(2),
                            a.integer("axis", -1))))
            .role(CostRole.BATCH_PARALLEL)
            .shards(ShapeRules.oneHot()),
        OpDef.of(
                "Select",
                c -> one(Indexing.select(c.in(0), c.in(1), c.in(2))),
                g -> {
                  Tensor zeros = g.op("ZerosLike", NONE, g.dout(0));
                  Tensor dx = g.op("Select", NONE, g.in(0), g.dout(0), zeros);
                  Tensor dy = g.op("Select", NONE, g.in(0), zeros, g.dout(0));
                  return new Tensor[] {
                    null, g.sumTo(dx, g.in(1).shape()), g.sumTo(dy, g.in(2).shape())
                  };
                })
            .infers(Infer.one((a, in) -> Indexing.selectType(in.get(0), in.get(1), in.get(2))))
            .role(CostRole.ELEMENTWISE)
            .shards(ElementwiseRules.arithmetic()),
        OpDef.of(
                "Tile",
                c -> one(Joining.tile(c.in(0), c.attrs().intArray("multiples"))),
                g ->
                    one(
                        g.op(
                            "TileGrad",
                            g.attrs().with("shape", g.in(0).shape().dims()),
                            g.dout(0))))
            .infers(
                Infer.one(
                    (a, in) ->
                        in.get(0)
                            .withShape(
                                Joining.tileShape(
                                    "Tile", in.get(0).shape(), a.intArray("multiples")))))
            .role(CostRole.GENERAL)
            .shards(ShapeRules.tile()),
        OpDef.of(
                "TileGrad",
                c ->
                    one(
                        Joining.tileGrad(
                            c.in(0),
                            new Shape(c.attrs().ints("shape")),
                            c.attrs().intArray("multiples"))),
                GradRule.UNDEFINED)
            .infers(
                Infer.one(
                    (a, in) ->
                        Joining.tileGradType(
                            in.get(0), new Shape(a.ints("shape")), a.intArray("multiples"))))
            .role(CostRole.GENERAL)
            .shards(ShapeRules.tileGrad()),
        OpDef.of(
                "StridedSlice",
                c -> one(Indexing.stridedSlice(c.in(0), spec(c.attrs()))),
                g ->
                    one(
                        g.op(
                            "StridedSliceGrad",
                            g.attrs().with("shapex", g.in(0).shape().dims()),
                            g.dout(0))))
            .infers(Infer.one((a, in) -> Indexing.stridedSliceType(in.get(0), spec(a))))
            .role(CostRole.GENERAL)
            .shards(IndexRules.stridedSlice()),
        OpDef.of(
                "StridedSliceGrad",
                c ->
                    one(
                        Indexing.stridedSliceGrad(
                            c.in(0), new Shape(c.attrs().ints("shapex")), spec(c.attrs()))),
                GradRule.UNDEFINED)
            .infers(
                Infer.one(
                    (a, in) ->
                        Indexing.stridedSliceGradType(
                            in.get(0), new Shape(a.ints("shapex")), spec(a))))
            .role(CostRole.GENERAL)
            .shards(IndexRules.stridedSliceGrad()),
        // Slice(x, begin, size): StridedSlice with unit strides (the shim passes begin, end and
        // strides), its kernel, gradient and rule.
        OpDef.of(
                "Slice",
                c -> one(Indexing.stridedSlice(c.in(0), spec(c.attrs()))),
                g ->
                    one(
                        g.op(
                            "StridedSliceGrad",
                            g.attrs().with("shapex", g.in(0).shape().dims()),
                            g.dout(0))))
            .infers(Infer.one((a, in) -> Indexing.stridedSliceType(in.get(0), spec(a))))
            .role(CostRole.GENERAL)
            .shards(IndexRules.stridedSlice()),
        // Stack: the inputs (one shape and type) joined along a new axis; Unstack splits it off.
        OpDef.of(
                "Stack",
                c -> {
                  List<dev.msjvm.engine.ir.AbstractTensor> types = new ArrayList<>();
                  for (int i = 0; i < c.arity(); i++) {
                    types.add(c.in(i).type());
                  }
                  stackType(c.attrs(), types);
                  int axis = stackAxis(c.attrs(), c.in(0).shape().rank());
                  List<Tensor> in = new ArrayList<>();
                  for (int i = 0; i < c.arity(); i++) {
                    in.add(ShapeOps.expandDims(c.in(i), axis));
                  }
                  return one(Joining.concat(in, axis));
                },
                g -> {
                  int axis = stackAxis(g.attrs(), g.in(0).shape().rank());
                  return g.ops("Unstack", Attrs.of("axis", axis, "num", g.arity()), g.dout(0));
                })
            .infers(Infer.one((a, in) -> stackType(a, in)))
            .role(CostRole.GENERAL)
            .shards(ShapeRules.stack()),
        OpDef.of(
                "Unstack",
                c -> {
                  int axis = unstackAxis(c.attrs(), c.in(0).shape());
                  List<Tensor> parts = Joining.split(c.in(0), axis, c.in(0).shape().dim(axis));
                  Tensor[] out = new Tensor[parts.size()];
                  for (int i = 0; i < out.length; i++) {
                    out[i] = ShapeOps.squeeze(parts.get(i), List.of(axis));
                  }
                  return out;
                },
                g -> {
                  int axis = unstackAxis(g.attrs(), g.in(0).shape());
                  Object[] douts = new Object[g.in(0).shape().dim(axis)];
                  for (int i = 0; i < douts.length; i++) {
                    douts[i] = g.dout(i);
                  }
                  return one(g.op("Stack", Attrs.of("axis", axis), douts));
                })
            .infers(
                (a, in) -> {
                  Shape x = in.get(0).shape();
                  int axis = unstackAxis(a, x);
                  List<Integer> piece = new ArrayList<>(x.dims());
                  piece.remove(axis);
                  return java.util.Collections.nCopies(
                      x.dim(axis), in.get(0).withShape(new Shape(piece)));
                })
            .role(CostRole.GENERAL)
            .shards(ShapeRules.unstack()));
  }

  /** Stack's axis in the output's dims, MindSpore's range check. */
  private static int stackAxis(Attrs a, int inputRank) {
    int axis = a.integer("axis", 0);
    if (axis < -inputRank - 1 || axis > inputRank) {
      throw dev.msjvm.engine.MsException.valueError(
          "For primitive[Stack], the Stack axis must be in ["
              + (-inputRank - 1)
              + ","
              + inputRank
              + "], but got "
              + axis
              + ".");
    }
    return axis < 0 ? axis + inputRank + 1 : axis;
  }

  private static dev.msjvm.engine.ir.AbstractTensor stackType(
      Attrs a, List<dev.msjvm.engine.ir.AbstractTensor> in) {
    Shape first = in.get(0).shape();
    for (var t : in) {
      if (!t.shape().equals(first)) {
        throw dev.msjvm.engine.MsException.valueError(
            "All input shape must be the same! "
                + dev.msjvm.engine.MsException.vector(t.shape().dims())
                + " And "
                + dev.msjvm.engine.MsException.vector(first.dims()));
      }
      if (t.dtype() != in.get(0).dtype()) {
        throw dev.msjvm.engine.MsException.typeError(
            "For primitive[Stack], the input type must be same.");
      }
    }
    List<Integer> dims = new ArrayList<>(first.dims());
    dims.add(stackAxis(a, first.rank()), in.size());
    return in.get(0).withShape(new Shape(dims));
  }

  /** Unstack's axis, with the range error MindSpore's kernel gives. */
  private static int unstackAxis(Attrs a, Shape x) {
    int axis = a.integer("axis", 0);
    int rank = x.rank();
    if (axis < -rank || axis >= rank) {
      throw dev.msjvm.engine.MsException.valueError(
          "Dimension out of range (expected to be in range of ["
              + -rank
              + ", "
              + rank
              + "), but got "
              + axis
              + ")");
    }
    return axis < 0 ? axis + rank : axis;
  }

  /**
   * Gather, and SparseGatherV2 (the same operator to MindSpore's CPU backend and sharding: its
   * SparseGatherV2Info is a GatherInfo; only the gradient's sparse form differs, dense here).
   */
  private static OpDef gather(String name) {
    return OpDef.of(
            name,
            c ->
                one(
                    Indexing.gather(
                        c.in(0),
                        c.in(1),
                        c.attrs().integer("axis", 0),
                        c.attrs().integer("offset", -1),
                        c.attrs().integer("batch_dims", 0))),
            g ->
                new Tensor[] {
                  g.op(
                      "GatherGrad",
                      Attrs.of(
                          "axis",
                          g.attrs().integer("axis", 0),
                          "shape",
                          g.in(0).shape().dims(),
                          "batch_dims",
                          g.attrs().integer("batch_dims", 0)),
                      g.dout(0),
                      g.in(1)),
                  null
                })
        .infers(
            Infer.one(
                (a, in) ->
                    Indexing.gatherType(
                        in.get(0), in.get(1), a.integer("axis", 0), a.integer("batch_dims", 0))))
        .role(CostRole.GENERAL)
        .shards(IndexRules.gather());
  }

  /**
   * GatherNd; its gradient scatters the output's gradient back (ScatterNd into the table's shape).
   */
  private static OpDef gatherNd() {
    return OpDef.of(
            "GatherNd",
            c -> one(Indexing.gatherNd(c.in(0), c.in(1))),
            g ->
                new Tensor[] {
                  g.op("ScatterNd", Attrs.of("shape", g.in(0).shape().dims()), g.in(1), g.dout(0)),
                  null
                })
        .infers(Infer.one((a, in) -> Indexing.gatherNdType(in.get(0), in.get(1))))
        .role(CostRole.GENERAL)
        .shards(IndexRules.gatherNd());
  }

  /** ScatterNd, {@code shape} an attribute; its gradient gathers the updates' gradient back. */
  private static OpDef scatterNd() {
    return OpDef.of(
            "ScatterNd",
            c -> one(Indexing.scatterNd(c.in(0), c.in(1), new Shape(c.attrs().ints("shape")))),
            g -> new Tensor[] {null, g.op("GatherNd", NONE, g.dout(0), g.in(0))})
        .infers(
            Infer.one(
                (a, in) ->
                    Indexing.scatterNdType(in.get(0), in.get(1), new Shape(a.ints("shape")))))
        .role(CostRole.GENERAL)
        .shards(IndexRules.scatterNd());
  }

  /** UnsortedSegmentSum/Prod/Max/Min, {@code num_segments} an attribute. */
  private static OpDef segment(Segments.Reduction r, GradRule grad) {
    return OpDef.of(
            r.op(),
            c -> one(Segments.reduce(r, c.in(0), c.in(1), c.attrs().integer("num_segments"))),
            grad)
        .infers(
            Infer.one((a, in) -> Segments.type(r, in.get(0), in.get(1), a.integer("num_segments"))))
        .role(CostRole.GENERAL)
        .shards(IndexRules.unsortedSegment(r));
  }

  /**
   * What the segment gradients gather rows with, made once per gradient (MindSpore's bprops make
   * {@code zero_clipped_indices} once too): the ids clipped at 0, and whether each id is
   * non-negative, shaped {@code ids.shape + [1, ...]} to broadcast over the gathered rows.
   */
  private record SegmentIds(Tensor clipped, Tensor keep) {
    static SegmentIds of(GradRule.Call g, Tensor ids, int rank) {
      Tensor zeros = g.op("ZerosLike", NONE, ids);
      Tensor keep = g.op("GreaterEqual", NONE, ids, zeros);
      List<Integer> shape = new ArrayList<>(ids.shape().dims());
      while (shape.size() < rank) {
        shape.add(1);
      }
      if (shape.size() != ids.shape().rank()) {
        keep = g.op("Reshape", Attrs.of("shape", shape), keep);
      }
      return new SegmentIds(g.op("Maximum", NONE, ids, zeros), keep);
    }

    /**
     * The rows of {@code segments} at the ids, zero where an id is negative (MindSpore's {@code
     * _GatherDropNegatives}).
     */
    Tensor rows(GradRule.Call g, Tensor segments) {
      Tensor rows = g.op("Gather", Attrs.of("axis", 0), segments, clipped);
      return g.op("Select", NONE, keep, rows, g.op("ZerosLike", NONE, rows));
    }
  }

  private static Tensor[] segmentSumGrad(GradRule.Call g) {
    Tensor ids = g.in(1);
    return new Tensor[] {SegmentIds.of(g, ids, g.in(0).shape().rank()).rows(g, g.dout(0)), null};
  }

  /**
   * MindSpore's {@code _unsorted_segment_min_or_max_grad}: the gradient of a segment goes to the
   * elements equal to its extreme, shared equally among ties.
   */
  private static Tensor[] segmentMinMaxGrad(GradRule.Call g) {
    Tensor x = g.in(0);
    Tensor ids = g.in(1);
    SegmentIds at = SegmentIds.of(g, ids, x.shape().rank());
    Tensor extreme = at.rows(g, g.out(0));
    Tensor equal = g.op("Equal", NONE, x, extreme);
    Tensor selected = g.op("Select", NONE, at.keep(), equal, g.op("ZerosLike", NONE, equal));
    Attrs num = Attrs.of("num_segments", g.attrs().integer("num_segments"));
    Tensor counts =
        g.op(
            "UnsortedSegmentSum",
            num,
            g.op("Cast", Attrs.of("dtype", g.dout(0).dtype().name()), selected),
            ids);
    Tensor share = g.op("RealDiv", NONE, g.dout(0), counts);
    Tensor rows = at.rows(g, share);
    return new Tensor[] {g.op("Select", NONE, selected, rows, g.op("ZerosLike", NONE, rows)), null};
  }

  /**
   * MindSpore's UnsortedSegmentProd bprop: the product of the others, the product of the non-zero
   * elements for a segment's only zero, and nothing for a segment with two zeros or more.
   */
  private static Tensor[] segmentProdGrad(GradRule.Call g) {
    Tensor x = g.in(0);
    Tensor ids = g.in(1);
    Attrs num = Attrs.of("num_segments", g.attrs().integer("num_segments"));
    SegmentIds at = SegmentIds.of(g, ids, x.shape().rank());
    Tensor zeros = g.op("ZerosLike", NONE, x);
    Tensor isZero = g.op("Equal", NONE, x, zeros);
    Tensor zeroCount =
        g.op(
            "UnsortedSegmentSum",
            num,
            g.op("Cast", Attrs.of("dtype", x.dtype().name()), isZero),
            ids);
    Tensor one = g.op("OnesLike", NONE, zeroCount);
    Tensor douts =
        g.op(
            "Select",
            NONE,
            g.op("Greater", NONE, zeroCount, one),
            g.op("ZerosLike", NONE, g.dout(0)),
            g.dout(0));
    Tensor nonZero = g.op("Select", NONE, isZero, g.op("OnesLike", NONE, x), x);
    Tensor nonZeroProd = g.op("UnsortedSegmentProd", num, nonZero, ids);
    Tensor prod = at.rows(g, g.out(0));
    Tensor others =
        g.op("Select", NONE, isZero, at.rows(g, nonZeroProd), g.op("RealDiv", NONE, prod, x));
    Tensor rows = at.rows(g, douts);
    return new Tensor[] {g.op("Mul", NONE, rows, others), null};
  }

  private static Tensor[] concatGrad(GradRule.Call g) {
    int rank = g.out(0).shape().rank();
    int axis = g.attrs().integer("axis", 0);
    int a = axis < 0 ? axis + rank : axis;
    Tensor[] grads = new Tensor[g.arity()];
    int offset = 0;
    for (int i = 0; i < g.arity(); i++) {
      int len = g.in(i).shape().dim(a);
      if (g.needs(i)) {
        List<Integer> begin = new ArrayList<>();
        List<Integer> end = new ArrayList<>();
        List<Integer> strides = new ArrayList<>();
        for (int d = 0; d < rank; d++) {
          begin.add(d == a ? offset : 0);
          end.add(d == a ? offset + len : g.out(0).shape().dim(d));
          strides.add(1);
        }
        grads[i] =
            g.op(
                "StridedSlice",
                Attrs.of("begin", begin, "end", end, "strides", strides),
                g.dout(0));
      }
      offset += len;
    }
    return grads;
  }

  private static final AcceptedTypes SPLIT_V_TYPES =
      new AcceptedTypes(
          java.util.EnumSet.of(
              DType.INT8,
              DType.INT16,
              DType.INT32,
              DType.INT64,
              DType.UINT8,
              DType.FLOAT16,
              DType.BFLOAT16,
              DType.FLOAT32),
          "input_x",
          "Tensor[BFloat16], Tensor[Float16], Tensor[Float32], Tensor[Int16], Tensor[Int32],"
              + " Tensor[Int64], Tensor[Int8], Tensor[UInt16], Tensor[UInt32], Tensor[UInt64],"
              + " Tensor[UInt8]");

  /**
   * SplitV's {@code split_dim}, non-negative, checked against {@code x}'s rank as MindSpore does.
   */
  static int splitVAxis(Attrs a, Shape x) {
    int rank = x.rank();
    if (rank < 1) {
      throw MsException.valueError(
          "For primitive[SplitV], the x_rank must be greater than or equal to 1, but got 0.");
    }
    int dim = a.integer("split_dim");
    if (dim < -rank || dim >= rank) {
      throw MsException.valueError(
          "For primitive[SplitV], the split_dim must be in ["
              + -rank
              + ","
              + rank
              + "), but got "
              + dim
              + ".");
    }
    return dim < 0 ? dim + rank : dim;
  }

  /**
   * SplitV's part sizes for input {@code x} (its type checked first, as MindSpore's infer does).
   */
  static int[] splitVSizes(Attrs a, AbstractTensor x) {
    SPLIT_V_TYPES.check("SplitV", x.dtype());
    return Joining.splitVSizes(
        x.shape(), splitVAxis(a, x.shape()), a.ints("size_splits"), a.integer("num_split"));
  }

  private static AbstractTensor padType(Attrs a, AbstractTensor x) {
    return Padding.type(x, a.ints("paddings"), padMode(a), a.bool("paddings_contiguous", true));
  }

  private static int[][] padAmounts(Attrs a, int rank) {
    return Padding.amounts(rank, a.ints("paddings"), a.bool("paddings_contiguous", true));
  }

  private static String padMode(Attrs a) {
    return a.has("mode") ? a.string("mode") : "constant";
  }
}
