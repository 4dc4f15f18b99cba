package dev.msjvm.engine.parallel.rules;

import static dev.msjvm.engine.parallel.rules.EinsumSpec.FRESH;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.TensorLayout;
import dev.msjvm.engine.tensor.Joining;
import dev.msjvm.engine.tensor.Padding;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Operators that move dimensions (transpose_info.cc, reshape_info.cc, concat_info.cc,
 * split_info.cc, onehot_info.cc, broadcast_to_info.cc, tile_info.cc): Transpose permutes letters,
 * ExpandDims and Squeeze add or drop {@code _} dims, Concat and Split keep their axis whole,
 * BroadcastTo never splits a broadcast dim, Tile deals out whole tiles.
 *
 * <p>Reshape and Flatten take no user strategy in MindSpore (their Info redistributes between the
 * neighbours' layouts). Here they are local reshapes on dim-0 blocks: the input may be split only
 * on dim 0, by a count that also divides output dim 0; every rank's row block of the input is then
 * exactly its row block of the output. A partitioner meeting any other input layout redistributes
 * to that one first ({@link ShardingRule#strategyFollowing} gives it).
 */
public final class ShapeRules {
  private ShapeRules() {}

  /**
   * Every input whole, one scalar output: an operator that needs the whole values on every rank
   * (Print), so that each rank's inputs are gathered first.
   */
  public static ShardingRule whole() {
    return ShardingRule.of(
        (attrs, shapes) -> {
          List<String> in = new ArrayList<>();
          for (Shape s : shapes) {
            in.add("_".repeat(s.rank()));
          }
          return new EinsumSpec(
              in, in, List.of(""), "", "", Map.of(), (char) 0, List.of(Shape.of()), false);
        });
  }

  /** Transpose: the dims move with the permutation. */
  public static ShardingRule transpose() {
    return ShardingRule.of(ShapeRules::transpose);
  }

  /** ExpandDims: the new dim is whole. */
  public static ShardingRule expandDims() {
    return ShardingRule.of(ShapeRules::expandDims);
  }

  /** Squeeze: the removed dims are whole. */
  public static ShardingRule squeeze() {
    return ShardingRule.of(ShapeRules::squeeze);
  }

  /** Reshape: keeps the row split of dim 0. */
  public static ShardingRule reshape() {
    return reshapeLike("Reshape");
  }

  /** Flatten: Reshape's rule to {@code [rows, rest]}. */
  public static ShardingRule flatten() {
    return reshapeLike("Flatten");
  }

  /** BroadcastTo: new dims whole, {@code shape} the rank's slice. */
  public static ShardingRule broadcastTo() {
    return ShardingRule.of(ShapeRules::broadcastTo)
        .localizing(ShardingRule.outputShapeAttr("shape"));
  }

  /** Concat (concat_info.cc's texts). */
  public static ShardingRule concat() {
    return ShardingRule.of(ShapeRules::concat)
        .checking(
            (attrs, spec, s, shapes, n) -> {
              int axis = spec.inputs().get(0).indexOf(spec.unsplit().charAt(0));
              if (s.get(0).get(axis) != 1) {
                return "The axis can not be split";
              }
              return s.stream().allMatch(s.get(0)::equals)
                  ? null
                  : "The strategy of each input tensor must be equal";
            });
  }

  /** Stack (MindSpore's StackInfo): the inputs split alike; the new axis is whole. */
  public static ShardingRule stack() {
    return ShardingRule.of(
            (attrs, shapes) -> {
              String x = Letters.run('a', shapes.get(0).rank());
              int axis = Letters.axis("Stack", attrs.integer("axis", 0), x.length() + 1);
              String in = String.join(",", Collections.nCopies(shapes.size(), x));
              List<Integer> out = new ArrayList<>(shapes.get(0).dims());
              out.add(axis, shapes.size());
              return EinsumSpec.parse(in + "->" + x.substring(0, axis) + FRESH + x.substring(axis))
                  .outputShapes(List.of(new Shape(out)));
            })
        .checking(
            (attrs, spec, s, shapes, n) ->
                s.stream().allMatch(s.get(0)::equals)
                    ? null
                    : "The strategy of each input tensor must be equal");
  }

  /** Unstack: the unstacked axis is whole; every output is laid out as the input less it. */
  public static ShardingRule unstack() {
    return ShardingRule.of(
        (attrs, shapes) -> {
          Shape s = shapes.get(0);
          String x = Letters.run('a', s.rank());
          int axis = Letters.axis("Unstack", attrs.integer("axis", 0), s.rank());
          String out = x.substring(0, axis) + x.substring(axis + 1);
          List<Integer> piece = new ArrayList<>(s.dims());
          piece.remove(axis);
          int num = s.dim(axis);
          return new EinsumSpec(
                  List.of(x),
                  List.of(x),
                  Collections.nCopies(num, out),
                  x,
                  "",
                  Map.of(),
                  (char) 0,
                  Collections.nCopies(num, new Shape(piece)),
                  false)
              .unsplit(x.substring(axis, axis + 1));
        });
  }

  /** Split: the split axis is whole. */
  public static ShardingRule split() {
    return ShardingRule.of(ShapeRules::split);
  }

  /** SplitV (split_v_info.cc): the split dimension whole, every output laid out as the input. */
  public static ShardingRule splitV() {
    return ShardingRule.of(ShapeRules::splitV);
  }

  /**
   * PadV3 (pad_v3_info.cc): the padded dimensions whole, the others split as the input (the
   * paddings and the constant whole); PadV3Grad the same from the padded side.
   */
  public static ShardingRule padV3() {
    return ShardingRule.of((attrs, shapes) -> pad(attrs, shapes, false));
  }

  /** PadV3Grad: as {@link #padV3}, from the padded shape back to the input's. */
  public static ShardingRule padV3Grad() {
    return ShardingRule.of((attrs, shapes) -> pad(attrs, shapes, true));
  }

  /** OneHot. */
  public static ShardingRule oneHot() {
    return ShardingRule.of(ShapeRules::oneHot)
        .checking(ShapeRules::oneHotCheck)
        .localizing(ShapeRules::oneHotDepth);
  }

  /** Tile: {@code multiples} the rank's. */
  public static ShardingRule tile() {
    return ShardingRule.of(ShapeRules::tile)
        .checking(ShapeRules::tileCheck)
        .localizing(ShapeRules::localMultiples);
  }

  /** TileGrad: Tile's rule backwards, {@code shape} and {@code multiples} the rank's. */
  public static ShardingRule tileGrad() {
    return ShardingRule.of(ShapeRules::tileGrad)
        .checking(ShapeRules::tileCheck)
        .localizing(
            (attrs, s, rank) ->
                ShardingRule.outputShapeAttr("shape")
                    .local(localMultiples(attrs, s, rank), s, rank));
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
            (attrs, shapes) -> {
              Shape x = shapes.get(0);
              Shape out = name.equals("Flatten") ? flattened(x) : reshaped(x, attrs.ints("shape"));
              boolean rows = x.rank() > 0 && out.rank() > 0;
              String in = rows ? "a" + "_".repeat(x.rank() - 1) : "_".repeat(x.rank());
              String o = rows ? "a" + "_".repeat(out.rank() - 1) : "_".repeat(out.rank());
              return EinsumSpec.parse(in + "->" + o).outputShapes(List.of(out));
            })
        .checking(
            (attrs, spec, s, shapes, n) -> {
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

  static EinsumSpec pad(Attrs attrs, List<Shape> shapes, boolean grad) {
    Shape s = shapes.get(0);
    String x = Letters.run('a', s.rank());
    int[][] amounts =
        Padding.amounts(s.rank(), attrs.ints("paddings"), attrs.bool("paddings_contiguous", true));
    StringBuilder padded = new StringBuilder();
    int[] out = s.toArray();
    for (int d = 0; d < s.rank(); d++) {
      int change = amounts[d][0] + amounts[d][1];
      if (amounts[d][0] != 0 || amounts[d][1] != 0) {
        padded.append(x.charAt(d));
      }
      out[d] += grad ? -change : change;
    }
    List<String> in = new ArrayList<>(List.of(x));
    for (int k = 1; k < shapes.size(); k++) {
      in.add("_".repeat(shapes.get(k).rank()));
    }
    return new EinsumSpec(
            in, in, List.of(x), x, "", Map.of(), (char) 0, List.of(Shape.of(out)), false)
        .unsplit(padded.toString());
  }

  static EinsumSpec splitV(Attrs attrs, List<Shape> shapes) {
    Shape s = shapes.get(0);
    String x = Letters.run('a', s.rank());
    int axis = Letters.axis("SplitV", attrs.integer("split_dim", 0), s.rank());
    List<Shape> pieces = new ArrayList<>();
    for (int size :
        Joining.splitVSizes(s, axis, attrs.ints("size_splits"), attrs.integer("num_split"))) {
      int[] piece = s.toArray();
      piece[axis] = size;
      pieces.add(Shape.of(piece));
    }
    return new EinsumSpec(
            List.of(x),
            List.of(x),
            Collections.nCopies(pieces.size(), x),
            x,
            "",
            Map.of(),
            (char) 0,
            pieces,
            false)
        .unsplit(x.substring(axis, axis + 1));
  }

  /**
   * OneHot(indices, on_value, off_value), {@code depth}, {@code axis}: as in MindSpore the strategy
   * describes the output shape ({@code ((batch, depth), (), ())}). A 1-D input's depth can be split
   * (classes model parallel): each rank builds its block of the classes ({@link #oneHotDepth}), an
   * index outside the block giving off_value, as OneHotInfo's replace graph (FloorDiv, Equal to the
   * rank's block, OneHot of depth/split) does.
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
        "",
        Map.of(),
        idx.isEmpty() ? (char) 0 : idx.charAt(0),
        List.of(Shape.of(out)),
        false);
  }

  /**
   * OneHotInfo's CheckStrategy refusal, its text, for a split depth over indices of more than one
   * dimension. MindSpore refuses every strategy but a batch split there, and any axis but -1; here
   * such a OneHot (the ArgMaxWithValue gradient makes one) shards along its index dimensions, only
   * its depth stays whole (DEVIATIONS.md).
   */
  private static String oneHotCheck(
      Attrs attrs, EinsumSpec spec, List<List<Integer>> strategy, List<Shape> shapes, int n) {
    List<Integer> out = strategy.get(0);
    int axis = Letters.axis("OneHot", attrs.integer("axis", -1), out.size());
    if (out.size() > 2 && out.get(axis) != 1) {
      return "When input dimension is > 1, axis must be -1, and strategy must be data parallel.";
    }
    return null;
  }

  /** A rank's OneHot with the depth split: its block's size and where the block starts. */
  private static Attrs oneHotDepth(Attrs attrs, OpSharding s, int rank) {
    TensorLayout out = s.outputLayouts().get(0);
    int axis = Letters.axis("OneHot", attrs.integer("axis", -1), out.rank());
    if (!out.isSplit(axis)) {
      return attrs;
    }
    TensorLayout.SliceRange block = out.sliceRanges(rank).get(axis);
    return attrs.with("depth", block.end() - block.begin()).with("offset", block.begin());
  }

  /**
   * Tile(x), {@code multiples} (left-padded with 1s to the output rank), as TileInfo: the strategy
   * describes the output; a dim with multiple 1 is x's dim, split alike; a tiled dim keeps x whole
   * and splits the multiple, so each rank tiles {@code multiple / split} whole copies (its block of
   * the output). Example: x {@code [4, 2]}, multiples {@code (2, 1)}: {@code ab->ab layouts=_b}.
   */
  static EinsumSpec tile(Attrs attrs, List<Shape> shapes) {
    Shape x = shapes.get(0);
    int[] m = multiples(attrs, x.rank());
    String o = Letters.run('a', m.length);
    StringBuilder in = new StringBuilder();
    int[] out = new int[m.length];
    for (int p = 0; p < m.length; p++) {
      int d = p - (m.length - x.rank());
      out[p] = (d < 0 ? 1 : x.dim(d)) * m[p];
      if (d >= 0) {
        in.append(m[p] == 1 ? o.charAt(p) : FRESH);
      }
    }
    return new EinsumSpec(
        List.of(o),
        List.of(in.toString()),
        List.of(o),
        o,
        "",
        Map.of(),
        (char) 0,
        List.of(Shape.of(out)),
        false);
  }

  /**
   * TileGrad(dy), {@code shape} (x's) and {@code multiples}: Tile's reverse. A rank holding {@code
   * multiple / split} whole tiles of dy sums them into x's shape: a split tiled dim leaves dx
   * partial (SUM), as do dy's leading dims that x lacks.
   */
  static EinsumSpec tileGrad(Attrs attrs, List<Shape> shapes) {
    Shape x = new Shape(attrs.ints("shape"));
    int[] m = multiples(attrs, shapes.get(0).rank());
    String dy = Letters.run('a', m.length);
    StringBuilder o = new StringBuilder();
    StringBuilder summed = new StringBuilder();
    for (int p = 0; p < m.length; p++) {
      boolean tiled = p < m.length - x.rank() || m[p] != 1;
      if (p >= m.length - x.rank()) {
        o.append(tiled ? FRESH : dy.charAt(p));
      }
      if (tiled) {
        summed.append(dy.charAt(p));
      }
    }
    EinsumSpec spec = EinsumSpec.parse(dy + "->" + o).outputShapes(List.of(x));
    return summed.isEmpty() ? spec : spec.reduce(summed.toString(), PartialOp.SUM);
  }

  /**
   * TileInfo::CheckStrategy: the strategy is checked against the multiples, with x's dim where the
   * multiple is 1 (a split must divide the number of tiles, which are never cut).
   */
  private static String tileCheck(
      Attrs attrs, EinsumSpec spec, List<List<Integer>> s, List<Shape> shapes, int n) {
    int[] tiles = shapes.get(0).toArray(); // the output's (Tile) or dy's (TileGrad) dims
    int[] m = multiples(attrs, tiles.length);
    for (int p = 0; p < tiles.length; p++) {
      tiles[p] = m[p] == 1 ? tiles[p] : m[p];
    }
    try {
      StrategyChecks.checkStrategyByVector("Tile", s, List.of(Shape.of(tiles)), n);
      return null;
    } catch (ShardingException e) {
      return e.detail();
    }
  }

  /** {@code multiples} for the slices: a tiled dim split k ways tiles {@code multiple / k}. */
  private static Attrs localMultiples(Attrs attrs, OpSharding s, int rank) {
    List<Integer> split = s.strategy().get(0);
    int[] m = multiples(attrs, split.size());
    List<Integer> local = new ArrayList<>();
    for (int p = 0; p < m.length; p++) {
      local.add(m[p] == 1 ? 1 : m[p] / split.get(p));
    }
    return attrs.with("multiples", local);
  }

  /** {@code multiples} left-padded with 1s to at least {@code rank} entries (as Tile pads). */
  private static int[] multiples(Attrs attrs, int rank) {
    List<Integer> given = attrs.ints("multiples");
    int[] m = new int[Math.max(rank, given.size())];
    java.util.Arrays.fill(m, 1);
    for (int i = 0; i < given.size(); i++) {
      m[m.length - given.size() + i] = given.get(i);
    }
    return m;
  }
}
