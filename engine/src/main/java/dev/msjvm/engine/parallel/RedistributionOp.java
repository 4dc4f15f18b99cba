package dev.msjvm.engine.parallel;

import dev.msjvm.engine.ir.Shape;
import java.util.ArrayList;
import java.util.List;

/**
 * One step that turns a rank's local slice into the next one during a redistribution. Prints as
 * MindSpore's {@code _transform_tensor_by_layout} does ({@code tensor_transform.cc}): {@code
 * ('Reshape', [32, 1, 32])}, {@code ('StridedSlice', [begin..., end..., strides...])}, {@code
 * ('AllConcat', [ranks..., concat_dim])}. AllConcat is MindSpore's AllGather (which gathers along
 * dim 0), followed by Split and Concat when the dim is not 0. {@link AllToAll} only appears when
 * AllToAll is enabled (never in MindSpore's checkpoint-transform mode, so it has no format there);
 * it prints as {@code ('AlltoAll', [ranks..., split_dim, concat_dim])}.
 */
public sealed interface RedistributionOp {

  /** Reinterprets the local slice with another shape of the same size. */
  record Reshape(Shape shape) implements RedistributionOp {
    @Override
    public String name() {
      return "Reshape";
    }

    @Override
    public List<Integer> args() {
      return shape.dims();
    }

    @Override
    public String toString() {
      return format();
    }
  }

  /** Keeps the block {@code [begin, end)} of the local slice (strides are always 1 here). */
  record StridedSlice(List<Integer> begin, List<Integer> end, List<Integer> strides)
      implements RedistributionOp {
    public StridedSlice {
      begin = List.copyOf(begin);
      end = List.copyOf(end);
      strides = List.copyOf(strides);
    }

    @Override
    public String name() {
      return "StridedSlice";
    }

    @Override
    public List<Integer> args() {
      List<Integer> all = new ArrayList<>(begin);
      all.addAll(end);
      all.addAll(strides);
      return all;
    }

    @Override
    public String toString() {
      return format();
    }
  }

  /**
   * Gathers the slices of {@code ranks} (in that order) and concatenates them along {@code axis}.
   */
  record AllConcat(List<Integer> ranks, int axis) implements RedistributionOp {
    public AllConcat {
      ranks = List.copyOf(ranks);
    }

    @Override
    public String name() {
      return "AllConcat";
    }

    @Override
    public List<Integer> args() {
      List<Integer> all = new ArrayList<>(ranks);
      all.add(axis);
      return all;
    }

    @Override
    public String toString() {
      return format();
    }
  }

  /**
   * Splits the local slice into {@code ranks.size()} pieces along {@code splitDim}, sends piece
   * {@code i} to {@code ranks.get(i)} and concatenates the pieces received, in group order, along
   * {@code concatDim} (MindSpore's {@code AlltoAll} with {@code split_count = ranks.size()}).
   */
  record AllToAll(List<Integer> ranks, int splitDim, int concatDim) implements RedistributionOp {
    public AllToAll {
      ranks = List.copyOf(ranks);
    }

    @Override
    public String name() {
      return "AlltoAll";
    }

    @Override
    public List<Integer> args() {
      List<Integer> all = new ArrayList<>(ranks);
      all.add(splitDim);
      all.add(concatDim);
      return all;
    }

    @Override
    public String toString() {
      return format();
    }
  }

  /** MindSpore's name of the op ({@code 'Reshape'}, {@code 'StridedSlice'}, ...). */
  String name();

  /** MindSpore's argument list of the op (see the class comment). */
  List<Integer> args();

  /** MindSpore's tuple form, {@code ('<name>', [args...])}. */
  default String format() {
    return "('" + name() + "', " + args() + ")";
  }

  /** The local shape after this op, given the shape before it. */
  default Shape outputShape(Shape in) {
    return switch (this) {
      case Reshape r -> r.shape();
      case StridedSlice s -> {
        int[] out = new int[s.begin().size()];
        for (int i = 0; i < out.length; i++) {
          out[i] = s.end().get(i) - s.begin().get(i);
        }
        yield Shape.of(out);
      }
      case AllConcat c -> {
        int[] out = in.toArray();
        out[c.axis()] *= c.ranks().size();
        yield Shape.of(out);
      }
      case AllToAll a -> {
        int[] out = in.toArray();
        out[a.splitDim()] /= a.ranks().size();
        out[a.concatDim()] *= a.ranks().size();
        yield Shape.of(out);
      }
    };
  }
}
