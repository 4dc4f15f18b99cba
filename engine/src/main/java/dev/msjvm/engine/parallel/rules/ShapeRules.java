package dev.msjvm.engine.parallel.rules;

import static dev.msjvm.engine.parallel.rules.EinsumSpec.FRESH;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Operators that move dimensions (transpose_info.cc, reshape_info.cc, concat_info.cc,
 * split_info.cc, onehot_info.cc, broadcast_to_info.cc): Transpose permutes letters, ExpandDims and
 * Squeeze add or drop {@code _} dims, Concat and Split keep their axis whole, BroadcastTo never
 * splits a broadcast dim.
 *
 * <p>Reshape and Flatten take no user strategy in MindSpore (their Info redistributes between the
 * neighbours' layouts). Here they are local reshapes on dim-0 blocks: the input may be split only
 * on dim 0, by a count that also divides output dim 0; every rank's row block of the input is then
 * exactly its row block of the output. A partitioner meeting any other input layout redistributes
 * to that one first ({@link ShardingRule#strategyFollowing} gives it).
 */
final class ShapeRules {
  private ShapeRules() {}

  static List<ShardingRule> rules() {
    List<ShardingRule> out = new ArrayList<>();
    out.add(ShardingRule.of("Transpose", ShapeRules::transpose));
    out.add(ShardingRule.of("ExpandDims", ShapeRules::expandDims));
    out.add(ShardingRule.of("Squeeze", ShapeRules::squeeze));
    out.add(reshapeLike("Reshape"));
    out.add(reshapeLike("Flatten"));
    out.add(
        ShardingRule.of("BroadcastTo", ShapeRules::broadcastTo)
            .localizing(ShardingRule.outputShapeAttr("shape")));
    out.add(
        ShardingRule.of("Concat", ShapeRules::concat)
            .checking(
                (spec, s, shapes, n) -> {
                  int axis = spec.inputs().get(0).indexOf(spec.unsplit().charAt(0));
                  if (s.get(0).get(axis) != 1) {
                    return "The axis can not be split";
                  }
                  return s.stream().allMatch(s.get(0)::equals)
                      ? null
                      : "The strategy of each input tensor must be equal";
                }));
    out.add(ShardingRule.of("Split", ShapeRules::split));
    out.add(ShardingRule.of("OneHot", ShapeRules::oneHot));
    return out;
  }

  static EinsumSpec transpose(Attrs attrs, List<Shape> shapes) {
    String x = Letters.run('a', shapes.get(0).rank());
    StringBuilder o = new StringBuilder();
    for (int p : attrs.ints("perm")) {
      o.append(x.charAt(Letters.axis("Transpose", p, x.length())));
    }
    return EinsumSpec.parse(x + "->" + o);
  }

  static EinsumSpec expandDims(Attrs attrs, List<Shape> shapes) {
    String x = Letters.run('a', shapes.get(0).rank());
    int axis = Letters.axis("ExpandDims", attrs.integer("axis"), x.length() + 1);
    return EinsumSpec.parse(x + "->" + x.substring(0, axis) + FRESH + x.substring(axis));
  }

  static EinsumSpec squeeze(Attrs attrs, List<Shape> shapes) {
    Shape s = shapes.get(0);
    List<Integer> axes = attrs.has("axis") ? attrs.ints("axis") : List.of();
    StringBuilder in = new StringBuilder();
    StringBuilder o = new StringBuilder();
    for (int d = 0; d < s.rank(); d++) {
      int dim = d;
      boolean gone =
          axes.isEmpty()
              ? s.dim(d) == 1
              : axes.stream().anyMatch(a -> Letters.axis("Squeeze", a, s.rank()) == dim);
      char c = (char) ('a' + d);
      in.append(gone ? FRESH : c);
      if (!gone) {
        o.append(c);
      }
    }
    return EinsumSpec.parse(in + "->" + o);
  }

  private static ShardingRule reshapeLike(String name) {
    return ShardingRule.of(
            name,
            (attrs, shapes) -> {
              Shape x = shapes.get(0);
              Shape out = name.equals("Flatten") ? flattened(x) : reshaped(x, attrs.ints("shape"));
              boolean rows = x.rank() > 0 && out.rank() > 0;
              String in = rows ? "a" + "_".repeat(x.rank() - 1) : "_".repeat(x.rank());
              String o = rows ? "a" + "_".repeat(out.rank() - 1) : "_".repeat(out.rank());
              return EinsumSpec.parse(in + "->" + o).outputShapes(List.of(out));
            })
        .checking(
            (spec, s, shapes, n) -> {
              Shape out = spec.outputShapes().get(0);
              if (!s.get(0).isEmpty() && out.rank() > 0 && out.dim(0) % s.get(0).get(0) != 0) {
                return "The strategy is "
                    + dev.msjvm.engine.parallel.TensorLayout.strategyString(s)
                    + ", but dim 0 of the output shape "
                    + out.dims()
                    + " is not divisible by "
                    + s.get(0).get(0)
                    + ": a sharded "
                    + name
                    + " keeps the row split of dim 0";
              }
              return null;
            })
        .localizing(ShardingRule.outputShapeAttr("shape"));
  }

  private static Shape flattened(Shape x) {
    if (x.rank() == 0) {
      return Shape.of(1, 1);
    }
    long rest = x.size() / x.dim(0);
    return Shape.of(x.dim(0), (int) rest);
  }

  /** Reshape's target with one -1 resolved. */
  static Shape reshaped(Shape x, List<Integer> target) {
    int[] dims = target.stream().mapToInt(Integer::intValue).toArray();
    long known = 1;
    int unknown = -1;
    for (int i = 0; i < dims.length; i++) {
      if (dims[i] == -1) {
        unknown = i;
      } else {
        known *= dims[i];
      }
    }
    if (unknown >= 0) {
      dims[unknown] = (int) (x.size() / Math.max(known, 1));
    }
    return Shape.of(dims);
  }

  static EinsumSpec broadcastTo(Attrs attrs, List<Shape> shapes) {
    Shape x = shapes.get(0);
    List<Integer> target = attrs.ints("shape");
    int r = target.size();
    int[] out = new int[r];
    StringBuilder in = new StringBuilder();
    char[] o = "_".repeat(r).toCharArray();
    for (int p = 0; p < r; p++) {
      int d = p - (r - x.rank());
      out[p] = target.get(p) == -1 && d >= 0 ? x.dim(d) : target.get(p);
    }
    for (int d = 0; d < x.rank(); d++) {
      int p = d + r - x.rank();
      char c = (char) ('a' + p);
      boolean broadcast = x.dim(d) == 1 && out[p] != 1;
      in.append(broadcast ? FRESH : c);
      if (!broadcast) {
        o[p] = c;
      }
    }
    return EinsumSpec.parse(in + "->" + new String(o)).outputShapes(List.of(Shape.of(out)));
  }

  static EinsumSpec concat(Attrs attrs, List<Shape> shapes) {
    Shape first = shapes.get(0);
    String x = Letters.run('a', first.rank());
    int axis = Letters.axis("Concat", attrs.integer("axis", 0), first.rank());
    int[] out = first.toArray();
    out[axis] = shapes.stream().mapToInt(s -> s.dim(axis)).sum();
    List<String> in = Collections.nCopies(shapes.size(), x);
    return new EinsumSpec(in, in, List.of(x), x, "", Map.of(), (char) 0, null, false)
        .unsplit(x.substring(axis, axis + 1))
        .outputShapes(List.of(Shape.of(out)));
  }

  static EinsumSpec split(Attrs attrs, List<Shape> shapes) {
    Shape s = shapes.get(0);
    String x = Letters.run('a', s.rank());
    int axis = Letters.axis("Split", attrs.integer("axis", 0), s.rank());
    int num = attrs.integer("output_num", 1);
    int[] piece = s.toArray();
    piece[axis] /= num;
    return new EinsumSpec(
            List.of(x),
            List.of(x),
            Collections.nCopies(num, x),
            x,
            "",
            Map.of(),
            (char) 0,
            Collections.nCopies(num, Shape.of(piece)),
            false)
        .unsplit(x.substring(axis, axis + 1));
  }

  /**
   * OneHot(indices, on_value, off_value), {@code depth}, {@code axis}: as in MindSpore the strategy
   * describes the output shape ({@code ((batch, depth), (), ())}); the depth letter stays unsplit
   * here (MindSpore can split it with an offset subgraph).
   */
  static EinsumSpec oneHot(Attrs attrs, List<Shape> shapes) {
    String idx = Letters.run('a', shapes.get(0).rank());
    int axis = Letters.axis("OneHot", attrs.integer("axis", -1), idx.length() + 1);
    String o = idx.substring(0, axis) + 'z' + idx.substring(axis);
    String on = "_".repeat(shapes.get(1).rank());
    String off = "_".repeat(shapes.get(2).rank());
    int[] out = new int[o.length()];
    for (int d = 0, k = 0; d < o.length(); d++) {
      out[d] = d == axis ? attrs.integer("depth") : shapes.get(0).dim(k++);
    }
    // MindSpore's device matrix for axis 0 is [features, depth]; otherwise the output's dims.
    String matrix = axis == 0 && idx.length() == 1 ? idx + "z" : o;
    return new EinsumSpec(
        List.of(o, on, off),
        List.of(idx, on, off),
        List.of(o),
        matrix,
        "z",
        Map.of(),
        idx.isEmpty() ? (char) 0 : idx.charAt(0),
        List.of(Shape.of(out)),
        false);
  }
}
