package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.TensorLayout;
import dev.msjvm.engine.tensor.Segments;
import java.util.ArrayList;
import java.util.List;

/**
 * Operators that pick elements (gather_info.cc, gathernd_info.cc, strided_slice_info.cc,
 * unsorted_segment_op_info.cc) and the grad operators their gradients emit.
 *
 * <p>Gather: the output is the table's letters before the axis, the indices' letters (after the
 * batch dims, which the table shares), then the table's letters after it. The gathered axis may be
 * split when there are no batch dims: each rank then gathers from its rows only and the output is
 * partial (SUM) over the axis's devices. GatherGrad (a scatter-add into a zero table) sums over the
 * indices' letters: split indices make its output partial (SUM); the table's axis stays whole. The
 * segment reductions are partial over their ids' letters with their own reduction. StridedSlice: a
 * dim the slice does not cover wholly with stride 1 stays unsplit; the slices of the split dims run
 * with local begin/end.
 */
public final class IndexRules {
  private IndexRules() {}

  /**
   * Gather (gather_info.cc): NORMAL mode with the gathered axis whole; with it split (SHARD_AXIS_0,
   * SHARD_AXIS_1, SHARD_BATCH_AND_AXIS, SHARD_BATCH_AXIS_AND_SP) each rank gathers the indices that
   * fall in its slice of the table, shifted by the slice's start, zeros for the others (MindSpore's
   * Sub/ReLU/Minimum/Equal/Mul replace graph), and the output is partial (SUM) over the axis's
   * devices.
   */
  public static ShardingRule gather() {
    return ShardingRule.of(IndexRules::gather)
        .checking(IndexRules::gatherCheck)
        .localizing(IndexRules::gatherOffset)
        .checkingOut(OutStrategy::gather);
  }

  /** GatherGrad: the table-shaped gradient of Gather, its {@code shape} the rank's slice. */
  public static ShardingRule gatherGrad() {
    return ShardingRule.of(IndexRules::gatherGrad)
        .localizing(ShardingRule.outputShapeAttr("shape"));
  }

  /**
   * UnsortedSegmentSum/Prod/Max/Min (unsorted_segment_op_info.cc): the ids split as the leading
   * dims of x; the segment dim of the output stays whole, and the ids' letters leave the output
   * partial, combined with the operator's reduction (MindSpore's AllReduce for Sum and Prod, its
   * AllGather + ReduceMax/Min for Max and Min).
   */
  public static ShardingRule unsortedSegment(Segments.Reduction r) {
    PartialOp op =
        switch (r) {
          case SUM -> PartialOp.SUM;
          case PROD -> PartialOp.PROD;
          case MAX -> PartialOp.MAX;
          case MIN -> PartialOp.MIN;
        };
    return ShardingRule.of((attrs, shapes) -> unsortedSegment(op, attrs, shapes));
  }

  /**
   * GatherNd (gathernd_info.cc): the table whole, the indices split along any dimension but the
   * last (the index tuples); the output's leading dimensions follow the indices; the device matrix
   * is the indices' strategy.
   */
  public static ShardingRule gatherNd() {
    return ShardingRule.of(IndexRules::gatherNd).checking(IndexRules::gatherNdCheck);
  }

  /**
   * ScatterNd (GatherNd's gradient): updates split with the indices' leading dimensions leave the
   * output partial (SUM) over their devices; the scattered dimensions are new, and the tuples'
   * dimension stays whole.
   */
  public static ShardingRule scatterNd() {
    return ShardingRule.of(IndexRules::scatterNd).localizing(ShardingRule.outputShapeAttr("shape"));
  }

  /** StridedSlice: each rank slices its own piece with local begin/end. */
  public static ShardingRule stridedSlice() {
    return ShardingRule.of((attrs, shapes) -> stridedSlice(attrs, shapes.get(0), false))
        .localizing((attrs, s, rank) -> localSlice(attrs, s.inputLayouts().get(0).sliceShape()));
  }

  /** StridedSliceGrad: StridedSlice's rule on the gradient's {@code shapex}. */
  public static ShardingRule stridedSliceGrad() {
    return ShardingRule.of(
            (attrs, shapes) -> stridedSlice(attrs, new Shape(attrs.ints("shapex")), true))
        .localizing(
            (attrs, s, rank) -> {
              Shape local = s.outputLayouts().get(0).sliceShape();
              return localSlice(attrs, local).with("shapex", local.dims());
            });
  }

  /**
   * Gather's letters; the device matrix is MindSpore's: the indices' letters, then the table's
   * ({@code NormalImpl::InferDevMatrixShape}, {@code ShardBatchAndAxisImpl}'s {@code {i0, p0}}).
   */
  static EinsumSpec gather(Attrs attrs, List<Shape> shapes) {
    String table = Letters.run('a', shapes.get(0).rank());
    int axis = Letters.axis("Gather", attrs.integer("axis", 0), table.length());
    int bd = batchDims(attrs, shapes.get(1).rank());
    String rest = Letters.run('p', shapes.get(1).rank() - bd);
    String idx = table.substring(0, bd) + rest;
    String out = table.substring(0, axis) + rest + table.substring(axis + 1);
    EinsumSpec spec =
        EinsumSpec.parse(table + "," + idx + "->" + out).matrix(idx + table.substring(bd));
    String axisLetter = table.substring(axis, axis + 1);
    // BATCH mode (batch_dims > 0): the axis stays whole; otherwise it may be split (partial).
    spec =
        bd > 0
            ? spec.unsplit(axisLetter)
            : spec.reduce(axisLetter, PartialOp.SUM).withReduceScatter();
    return idx.isEmpty() ? spec : spec.batch(idx.charAt(0));
  }

  /** Gather's {@code batch_dims}, made non-negative against the indices' rank. */
  static int batchDims(Attrs attrs, int indicesRank) {
    int bd = attrs.integer("batch_dims", 0);
    return bd < 0 ? bd + indicesRank : bd;
  }

  /** Gather's modes with the gathered axis split (GatherInfo::GetGatherMode). */
  enum GatherMode {
    SHARD_BATCH_AXIS_AND_SP,
    SHARD_BATCH_AND_AXIS,
    SHARD_AXIS_0,
    SHARD_AXIS_1,
    INVALID
  }

  static GatherMode gatherMode(int axis, List<Integer> p, List<Integer> i, int n) {
    boolean twoByTwo = axis == 0 && p.size() == 2 && i.size() == 2 && p.get(1) == 1;
    if (twoByTwo
        && p.get(0) != n
        && i.get(0) != n
        && p.get(0) != 1
        && i.get(0) != 1
        && i.get(1) != 1) {
      return GatherMode.SHARD_BATCH_AXIS_AND_SP;
    }
    if (twoByTwo && i.get(1) == 1 && p.get(0) * i.get(0) == n && p.get(0) != n && i.get(0) != n) {
      return GatherMode.SHARD_BATCH_AND_AXIS;
    }
    if (axis == 0) {
      return GatherMode.SHARD_AXIS_0;
    }
    return axis == 1 ? GatherMode.SHARD_AXIS_1 : GatherMode.INVALID;
  }

  /**
   * MindSpore's checks of BATCH mode (BatchImpl::CheckStrategy) and of a split gathered axis
   * (ShardAxisImpl::CheckStrategy).
   */
  static String gatherCheck(
      Attrs attrs, EinsumSpec spec, List<List<Integer>> strategy, List<Shape> shapes, int n) {
    List<Integer> p = strategy.get(0);
    List<Integer> i = strategy.get(1);
    int axis = Letters.axis("Gather", attrs.integer("axis", 0), p.size());
    int bd = batchDims(attrs, i.size());
    if (bd > 0) {
      if (p.get(axis) != 1) {
        return "batch mode, the axis can not be split, but the param strategy is "
            + MsException.vector(p)
            + ", and the axis is "
            + axis;
      }
      if (!p.subList(0, bd).equals(i.subList(0, bd))) {
        return "batch mode, the strategy of the batch dims of param and indices must be equal, but"
            + " the param strategy is "
            + MsException.vector(p)
            + ", and the indices strategy is "
            + MsException.vector(i)
            + ", batch dims is "
            + bd;
      }
      return null;
    }
    if (p.get(axis) == 1) {
      return null;
    }
    GatherMode mode = gatherMode(axis, p, i, n);
    if (mode == GatherMode.INVALID) {
      return "invalid gather mode: the axis " + axis + " can not be split";
    }
    if (mode != GatherMode.SHARD_AXIS_0 && mode != GatherMode.SHARD_AXIS_1) {
      return null;
    }
    Shape table = shapes.get(0);
    if (table.rank() != 1 && table.rank() != 2) {
      return "Don't support param dim " + table.rank();
    }
    if (shapes.get(1).rank() == 0) {
      return "Don't support scalar index.";
    }
    if (axis != 0 && table.dim(0) % (p.get(0) * p.get(axis)) != 0) {
      return "param_shape(0) can't be divided by (param_strategy(0)*param_strategy(axis)).";
    }
    if (i.stream().anyMatch(v -> v != 1)) {
      return "param is split at dim (axis)" + axis + " ,index can't be split.";
    }
    int productP = p.stream().reduce(1, (x, y) -> x * y);
    if (productP != n && axis != 0) {
      return "Invalid strategy. Don't support repeated calc.";
    }
    if (productP != n && p.size() == 2 && p.get(1) != 1) {
      return "axis(0) is split, and param_strategy[1] != 1, don't support repeated calc.";
    }
    return null;
  }

  /** The start of the rank's slice of the gathered axis, when it is split. */
  private static Attrs gatherOffset(Attrs attrs, OpSharding s, int rank) {
    TensorLayout table = s.inputLayouts().get(0);
    int axis = Letters.axis("Gather", attrs.integer("axis", 0), table.rank());
    return table.isSplit(axis)
        ? attrs.with("offset", table.sliceRanges(rank).get(axis).begin())
        : attrs;
  }

  static EinsumSpec unsortedSegment(PartialOp op, Attrs attrs, List<Shape> shapes) {
    Shape x = shapes.get(0);
    int k = Math.min(shapes.get(1).rank(), x.rank());
    String letters = Letters.run('a', x.rank());
    String ids = letters.substring(0, k);
    List<Integer> out = new ArrayList<>();
    out.add(attrs.integer("num_segments"));
    out.addAll(x.dims().subList(k, x.rank()));
    EinsumSpec spec =
        EinsumSpec.parse(letters + "," + ids + "->" + EinsumSpec.FRESH + letters.substring(k))
            .outputShapes(List.of(new Shape(out)));
    return ids.isEmpty() ? spec : spec.reduce(ids, op).batch(ids.charAt(0));
  }

  static EinsumSpec gatherNd(Attrs attrs, List<Shape> shapes) {
    Shape x = shapes.get(0);
    Shape idx = shapes.get(1);
    int k = idx.rank() == 0 ? 1 : idx.dim(idx.rank() - 1);
    String table = Letters.run('a', x.rank());
    String ind = Letters.run('p', idx.rank());
    String tuples = ind.substring(0, Math.max(0, ind.length() - 1));
    EinsumSpec spec =
        EinsumSpec.parse(table + "," + ind + "->" + tuples + table.substring(Math.min(k, x.rank())))
            .matrix(ind)
            .unsplit(table + ind.substring(tuples.length()));
    return tuples.isEmpty() ? spec : spec.batch(tuples.charAt(0));
  }

  /** MindSpore's GatherNdInfo::CheckStrategy texts. */
  static String gatherNdCheck(
      Attrs attrs, EinsumSpec spec, List<List<Integer>> strategy, List<Shape> shapes, int n) {
    if (strategy.get(0).stream().reduce(1, (a, b) -> a * b) != 1) {
      return "The input can not be split";
    }
    List<Integer> i = strategy.get(1);
    if (i.isEmpty()) {
      return "The strategy of indices can not be empty";
    }
    if (i.get(i.size() - 1) != 1) {
      return "The last dimension of indices can not be split";
    }
    return null;
  }

  /**
   * TensorScatter* and ScatterNd{Update, Add, Sub}(x, indices, updates) (ScatterNdOpsInfo): the
   * indices whole; the updates' tuple dims whole, their trailing dims as x's trailing dims; x (and
   * the output) split along any dim. Where x's indexed dims are split, each rank gets its block's
   * starts ({@code offsets}) and the whole sizes ({@code global}) and applies only the tuples in
   * its block.
   */
  public static ShardingRule tensorScatter() {
    return ShardingRule.of(
            (attrs, shapes) -> {
              Shape x = shapes.get(0);
              Shape idx = shapes.get(1);
              int k = idx.rank() == 0 ? 0 : Math.min(idx.dim(idx.rank() - 1), x.rank());
              String table = Letters.run('a', x.rank());
              String ind = Letters.run('p', idx.rank());
              String tuples = ind.substring(0, Math.max(0, ind.length() - 1));
              // the device matrix is x's strategy (ScatterNdOpsInfo's), the indices' letters whole
              return EinsumSpec.parse(
                      table + "," + ind + "," + tuples + table.substring(k) + "->" + table)
                  .matrix(table);
            })
        .localizing(
            (attrs, s, rank) -> {
              TensorLayout x = s.inputLayouts().get(0);
              Shape idx = s.inputLayouts().get(1).shape();
              int k = idx.rank() == 0 ? 0 : Math.min(idx.dim(idx.rank() - 1), x.rank());
              List<Integer> offsets = new ArrayList<>();
              List<Integer> global = new ArrayList<>();
              boolean split = false;
              for (int d = 0; d < k; d++) {
                split |= x.isSplit(d);
                offsets.add(x.sliceRanges(rank).get(d).begin());
                global.add(x.shape().dim(d));
              }
              return split ? attrs.with("offsets", offsets).with("global", global) : attrs;
            });
  }

  /**
   * The letters of GatherD(x, index) along {@code dim}: x's; index's share x's where the sizes
   * agree (both may split alike there), else their own unsplit ones; index's dim has its own
   * letter, unsplit. {@code [x, index]}.
   */
  private static String[] gatherDLetters(int dim, Shape x, Shape index) {
    String xs = Letters.run('a', x.rank());
    StringBuilder is = new StringBuilder();
    for (int k = 0; k < x.rank(); k++) {
      boolean shared = k != dim && index.dim(k) == x.dim(k);
      is.append(shared ? xs.charAt(k) : (char) ('p' + k));
    }
    return new String[] {xs, is.toString()};
  }

  private static String unsharedLetters(String xs, String is, int dim) {
    StringBuilder u = new StringBuilder();
    for (int k = 0; k < xs.length(); k++) {
      if (xs.charAt(k) != is.charAt(k)) {
        u.append(is.charAt(k));
        if (k != dim) {
          u.append(xs.charAt(k));
        }
      }
    }
    return u.toString();
  }

  /**
   * GatherD (GatherDInfo): x and index split alike along the dims they share; x's gathered dim may
   * split too: each rank gathers the indices in its block (shifted by the block's start, the rest
   * 0) and the output is partial (SUM) over that dim's devices.
   */
  public static ShardingRule gatherD() {
    return ShardingRule.of(
            (attrs, shapes) -> {
              int dim = Letters.axis("GatherD", attrs.integer("dim"), shapes.get(0).rank());
              String[] l = gatherDLetters(dim, shapes.get(0), shapes.get(1));
              return EinsumSpec.parse(l[0] + "," + l[1] + "->" + l[1])
                  .unsplit(unsharedLetters(l[0], l[1], dim))
                  .reduce(l[0].substring(dim, dim + 1), PartialOp.SUM);
            })
        .localizing(
            (attrs, s, rank) -> {
              TensorLayout x = s.inputLayouts().get(0);
              int dim = Letters.axis("GatherD", attrs.integer("dim"), x.rank());
              return x.isSplit(dim)
                  ? attrs
                      .with("offset", x.sliceRanges(rank).get(dim).begin())
                      .with("whole", x.shape().dim(dim))
                  : attrs;
            });
  }

  /**
   * GatherDGrad(dout, index) (attributes {@code dim}, {@code shape}: x's): dout and index as
   * GatherD's index; the output is x-shaped, whole along dim (and along the dims x does not share
   * with index), split as index along the shared ones.
   */
  public static ShardingRule gatherDGrad() {
    return ShardingRule.of(
            (attrs, shapes) -> {
              Shape x = new Shape(attrs.ints("shape"));
              int dim = Letters.axis("GatherDGrad", attrs.integer("dim"), x.rank());
              String[] l = gatherDLetters(dim, x, shapes.get(1));
              StringBuilder out = new StringBuilder();
              for (int k = 0; k < x.rank(); k++) {
                out.append(l[0].charAt(k) == l[1].charAt(k) ? l[0].charAt(k) : EinsumSpec.FRESH);
              }
              StringBuilder unshared = new StringBuilder();
              for (int k = 0; k < x.rank(); k++) {
                if (l[0].charAt(k) != l[1].charAt(k)) {
                  unshared.append(l[1].charAt(k));
                }
              }
              return EinsumSpec.parse(l[1] + "," + l[1] + "->" + out)
                  .outputShapes(List.of(x))
                  .unsplit(unshared.toString());
            })
        .localizing(ShardingRule.outputShapeAttr("shape"));
  }

  static EinsumSpec scatterNd(Attrs attrs, List<Shape> shapes) {
    Shape shape = new Shape(attrs.ints("shape"));
    Shape idx = shapes.get(0);
    int k = idx.rank() == 0 ? 0 : Math.min(idx.dim(idx.rank() - 1), shape.rank());
    String ind = Letters.run('p', idx.rank());
    String tuples = ind.substring(0, Math.max(0, ind.length() - 1));
    String rest = Letters.run('a', shape.rank() - k);
    String out = String.valueOf(EinsumSpec.FRESH).repeat(k) + rest;
    EinsumSpec spec =
        EinsumSpec.parse(ind + "," + tuples + rest + "->" + out)
            .outputShapes(List.of(shape))
            .unsplit(ind.substring(tuples.length()));
    if (!tuples.isEmpty()) {
      spec = spec.reduce(tuples, PartialOp.SUM).batch(tuples.charAt(0));
    }
    return spec;
  }

  static EinsumSpec gatherGrad(Attrs attrs, List<Shape> shapes) {
    Shape tableShape = new Shape(attrs.ints("shape"));
    String table = Letters.run('a', tableShape.rank());
    int bd = batchDims(attrs, shapes.get(1).rank());
    String rest = Letters.run('p', shapes.get(1).rank() - bd);
    String idx = table.substring(0, bd) + rest;
    int axis = Letters.axis("GatherGrad", attrs.integer("axis", 0), table.length());
    String dout = table.substring(0, axis) + rest + table.substring(axis + 1);
    String out = table.substring(0, axis) + EinsumSpec.FRESH + table.substring(axis + 1);
    EinsumSpec spec =
        EinsumSpec.parse(dout + "," + idx + "->" + out).outputShapes(List.of(tableShape));
    if (!rest.isEmpty()) {
      spec = spec.reduce(rest, PartialOp.SUM);
    }
    return idx.isEmpty() ? spec : spec.batch(idx.charAt(0));
  }

  /** One dim of a strided slice, normalised as Python slicing does. */
  record Range(int begin, int end, int stride, int length, boolean shrink) {
    boolean whole(int size) {
      return stride == 1 && begin == 0 && end == size && !shrink;
    }
  }

  static List<Range> ranges(Attrs a, Shape x) {
    if (a.integer("ellipsis_mask", 0) != 0 || a.integer("new_axis_mask", 0) != 0) {
      // MindSpore: strided_slice_info.cc "It can not support ellipsis_mask now".
      throw MsException.runtimeError(
          "StridedSlice with ellipsis_mask or new_axis_mask has no sharding rule in msjvm yet");
    }
    int[] begin = a.intArray("begin");
    int[] end = a.intArray("end");
    int[] strides = a.intArray("strides");
    int bm = a.integer("begin_mask", 0);
    int em = a.integer("end_mask", 0);
    int sm = a.integer("shrink_axis_mask", 0);
    List<Range> out = new ArrayList<>();
    for (int d = 0; d < x.rank(); d++) {
      int n = x.dim(d);
      if (d >= begin.length) {
        out.add(new Range(0, n, 1, n, false));
        continue;
      }
      int s = strides[d];
      boolean shrink = (sm >> d & 1) != 0;
      int b = begin[d] < 0 ? begin[d] + n : begin[d];
      int e = end[d] < 0 ? end[d] + n : end[d];
      int len;
      if (shrink) {
        e = b + 1;
        len = 1;
      } else if (s > 0) {
        b = (bm >> d & 1) != 0 ? 0 : Math.clamp(b, 0, n);
        e = (em >> d & 1) != 0 ? n : Math.clamp(e, 0, n);
        len = Math.max(0, (e - b + s - 1) / s);
      } else {
        b = (bm >> d & 1) != 0 ? n - 1 : Math.clamp(b, -1, n - 1);
        e = (em >> d & 1) != 0 ? -1 : Math.clamp(e, -1, n - 1);
        len = Math.max(0, (b - e - s - 1) / -s);
      }
      out.add(new Range(b, e, s, len, shrink));
    }
    return out;
  }

  /** x letters; dims not taken wholly are unsplit; shrunk dims leave the sliced tensor. */
  static EinsumSpec stridedSlice(Attrs attrs, Shape x, boolean grad) {
    List<Range> r = ranges(attrs, x);
    String letters = Letters.run('a', x.rank());
    StringBuilder sliced = new StringBuilder();
    StringBuilder unsplit = new StringBuilder();
    List<Integer> dims = new ArrayList<>();
    for (int d = 0; d < x.rank(); d++) {
      if (!r.get(d).whole(x.dim(d))) {
        unsplit.append(letters.charAt(d));
      }
      if (!r.get(d).shrink()) {
        sliced.append(letters.charAt(d));
        dims.add(r.get(d).length());
      }
    }
    EinsumSpec spec =
        grad
            ? EinsumSpec.parse(sliced + "->" + letters).outputShapes(List.of(x))
            : EinsumSpec.parse(letters + "->" + sliced).outputShapes(List.of(new Shape(dims)));
    return spec.unsplit(unsplit.toString());
  }

  /** begin/end of the wholly taken dims set to the local extent {@code local}. */
  private static Attrs localSlice(Attrs attrs, Shape local) {
    List<Range> r = ranges(attrs, local);
    List<Integer> begin = new ArrayList<>(attrs.ints("begin"));
    List<Integer> end = new ArrayList<>(attrs.ints("end"));
    for (int d = 0; d < begin.size(); d++) {
      Range g = r.get(d);
      if (g.stride() == 1 && !g.shrink() && g.begin() == 0 && g.end() >= local.dim(d)) {
        begin.set(d, 0);
        end.set(d, local.dim(d));
      }
    }
    return attrs.with("begin", begin).with("end", end);
  }
}
