package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.tensor.Segments;
import java.util.ArrayList;
import java.util.List;

/**
 * Operators that pick elements (gather_info.cc NORMAL mode, strided_slice_info.cc) and the grad
 * operators their gradients emit.
 *
 * <p>Gather: the gathered axis of the table stays whole; the output is the table's letters before
 * the axis, the indices' letters, then the table's letters after it. GatherGrad (a scatter-add into
 * a zero table) sums over the indices' letters: split indices make its output partial (SUM).
 * StridedSlice: a dim the slice does not cover wholly with stride 1 stays unsplit; the slices of
 * the split dims run with local begin/end.
 */
public final class IndexRules {
  private IndexRules() {}

  /** Gather (gather_info.cc). */
  public static ShardingRule gather() {
    return ShardingRule.of(IndexRules::gather);
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

  static EinsumSpec gather(Attrs attrs, List<Shape> shapes) {
    String table = Letters.run('a', shapes.get(0).rank());
    String idx = Letters.run('p', shapes.get(1).rank());
    int axis = Letters.axis("Gather", attrs.integer("axis", 0), table.length());
    String out = table.substring(0, axis) + idx + table.substring(axis + 1);
    EinsumSpec spec =
        EinsumSpec.parse(table + "," + idx + "->" + out).unsplit(table.substring(axis, axis + 1));
    return idx.isEmpty() ? spec : spec.batch(idx.charAt(0));
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

  static EinsumSpec gatherGrad(Attrs attrs, List<Shape> shapes) {
    Shape tableShape = new Shape(attrs.ints("shape"));
    String table = Letters.run('a', tableShape.rank());
    String idx = Letters.run('p', shapes.get(1).rank());
    int axis = Letters.axis("GatherGrad", attrs.integer("axis", 0), table.length());
    String dout = table.substring(0, axis) + idx + table.substring(axis + 1);
    String out = table.substring(0, axis) + EinsumSpec.FRESH + table.substring(axis + 1);
    EinsumSpec spec =
        EinsumSpec.parse(dout + "," + idx + "->" + out).outputShapes(List.of(tableShape));
    return idx.isEmpty() ? spec : spec.reduce(idx, PartialOp.SUM).batch(idx.charAt(0));
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
