package dev.msjvm.engine.parallel;

import static dev.msjvm.engine.parallel.LayoutAlgebra.NONE;
import static dev.msjvm.engine.parallel.LayoutAlgebra.indexOf;

import dev.msjvm.engine.ir.Shape;
import java.util.ArrayList;
import java.util.List;

/**
 * Infers the communication that moves a tensor from one tensor map to another on the same device
 * arrangement and tensor shape: MindSpore's {@code RedistributionOperatorInfer}
 * (frontend/parallel/tensor_layout/redistribution_operator_infer.cc).
 *
 * <p>Over the map "tensor dim -> current device axis" it repeats, until every dim has its target
 * axis: SplitByAxis (an unsplit dim whose target axis is free is sliced locally), PermuteByAxis
 * (its target axis is held by another dim: one AllToAll, or AllGather of that dim then a slice),
 * ConcatByAxis (a dim split on an axis the target does not use is gathered), and when a whole pass
 * changes nothing it gathers the first remaining dim to break the cycle. Dims are visited in {@link
 * RobinHoodOrder}. Each primitive op is recorded with the slice size it reads, for {@link
 * RedistributionCost}.
 */
final class OperatorInfer {

  enum Kind {
    SPLIT_BY_AXIS,
    PERMUTE_BY_AXIS,
    CONCAT_BY_AXIS
  }

  /** One abstract op with MindSpore's argument vector and the slice shape it reads. */
  record Step(Kind kind, List<Integer> args, Shape input) {}

  private final int[] dev;
  private final int[] inMap;
  private final int[] outMap;
  private final int[] shape;
  private final int[] curMap;
  private final DeviceMatrix devices;
  private final int rank;
  private final boolean enableAllToAll;

  private final int[] order;
  private final boolean[] present;
  private final int[] value;

  final List<RedistributionOp> ops = new ArrayList<>();
  final List<Step> steps = new ArrayList<>();

  OperatorInfer(
      ExpandedLayout from, int[] outMap, List<Integer> rankList, int rank, boolean enableAllToAll) {
    this.dev = from.dev;
    this.inMap = from.map.clone();
    this.outMap = outMap.clone();
    this.shape = from.shape;
    this.curMap = from.map.clone();
    this.devices = new DeviceMatrix(LayoutAlgebra.toList(dev), rankList);
    this.rank = rank;
    this.enableAllToAll = enableAllToAll;
    int n = inMap.length;
    this.order = RobinHoodOrder.of(n);
    this.present = new boolean[n];
    this.value = inMap.clone();
    java.util.Arrays.fill(present, true);
  }

  /** {@code InferRedistributionOperator}; fills {@link #ops} and {@link #steps}. */
  OperatorInfer infer() {
    while (!isEmpty()) {
      int lenGlobal = steps.size();
      while (!isEmpty()) {
        int lenSplit = steps.size();
        inferSplitByAxis();
        while (!isEmpty()) {
          int lenPermute = steps.size();
          inferPermuteByAxis();
          if (lenPermute == steps.size()) {
            break;
          }
        }
        if (lenSplit == steps.size()) {
          break;
        }
      }
      inferConcatByAxis();
      if (lenGlobal == steps.size() && !isEmpty()) {
        int dim = firstPresent();
        int in = value[dim];
        value[dim] = NONE;
        insert(Kind.CONCAT_BY_AXIS, List.of(dim, in, splitOf(in)));
      }
    }
    return this;
  }

  private boolean isEmpty() {
    for (boolean p : present) {
      if (p) {
        return false;
      }
    }
    return true;
  }

  private int firstPresent() {
    for (int k : order) {
      if (present[k]) {
        return k;
      }
    }
    throw new IllegalStateException("empty");
  }

  private boolean anyValue(int v) {
    for (int k = 0; k < value.length; k++) {
      if (present[k] && value[k] == v) {
        return true;
      }
    }
    return false;
  }

  private int splitOf(int mapValue) {
    return dev[dev.length - 1 - mapValue];
  }

  private void inferSplitByAxis() {
    for (int k : order) {
      if (!present[k]) {
        continue;
      }
      int in = value[k];
      int out = outMap[k];
      if (in == out) {
        present[k] = false;
      } else if (in == NONE && !anyValue(out)) {
        insert(Kind.SPLIT_BY_AXIS, List.of(splitOf(out), k, out));
        present[k] = false;
      }
    }
  }

  private void inferPermuteByAxis() {
    for (int k : order) {
      if (!present[k]) {
        continue;
      }
      int in = value[k];
      int out = outMap[k];
      if (in == out) {
        present[k] = false;
      } else if (in == NONE && anyValue(out)) {
        int catDim = indexOf(inMap, out);
        int devNum = splitOf(out);
        if (enableAllToAll) {
          int devDim = inMap[catDim];
          insert(Kind.PERMUTE_BY_AXIS, List.of(splitOf(devDim), k, catDim, devDim, devNum));
        } else {
          insert(Kind.CONCAT_BY_AXIS, List.of(catDim, out, devNum));
          insert(Kind.SPLIT_BY_AXIS, List.of(devNum, k, out));
        }
        present[k] = false;
        value[catDim] = NONE;
      }
    }
  }

  private void inferConcatByAxis() {
    for (int k : order) {
      if (!present[k]) {
        continue;
      }
      int in = value[k];
      if (in != NONE && indexOf(outMap, in) == NONE) {
        insert(Kind.CONCAT_BY_AXIS, List.of(k, in, splitOf(in)));
        if (outMap[k] == NONE) {
          present[k] = false;
        } else {
          value[k] = NONE;
        }
      }
    }
  }

  /** {@code InsertOperator}: records the step and emits its primitive op ({@code Transfer*}). */
  private void insert(Kind kind, List<Integer> args) {
    int[] slice = sliceShape();
    steps.add(new Step(kind, args, Shape.of(slice)));
    switch (kind) {
      case SPLIT_BY_AXIS -> {
        int count = args.get(0);
        int dim = args.get(1);
        int mapValue = args.get(2);
        List<Integer> group = groupAlong(mapValue);
        int index = group.indexOf(rank);
        int[] begin = new int[slice.length];
        int[] end = slice.clone();
        int[] strides = new int[slice.length];
        java.util.Arrays.fill(strides, 1);
        int len = slice[dim] / count;
        begin[dim] = index * len;
        end[dim] = (index + 1) * len;
        ops.add(
            new RedistributionOp.StridedSlice(
                LayoutAlgebra.toList(begin),
                LayoutAlgebra.toList(end),
                LayoutAlgebra.toList(strides)));
        curMap[dim] = mapValue;
      }
      case PERMUTE_BY_AXIS -> {
        int dim = args.get(1);
        int catDim = args.get(2);
        ops.add(new RedistributionOp.AllToAll(groupAlong(args.get(3)), dim, catDim));
        curMap[catDim] = NONE;
        curMap[dim] = outMap[dim];
      }
      case CONCAT_BY_AXIS -> {
        int dim = args.get(0);
        ops.add(new RedistributionOp.AllConcat(groupAlong(args.get(1)), dim));
        curMap[dim] = NONE;
      }
    }
  }

  /** The ranks along the device axis that map value {@code v} names, containing this rank. */
  private List<Integer> groupAlong(int v) {
    return devices.devicesAlongAxis(rank, dev.length - 1 - v);
  }

  private int[] sliceShape() {
    int[] s = shape.clone();
    for (int i = 0; i < s.length; i++) {
      if (curMap[i] != NONE) {
        s[i] /= splitOf(curMap[i]);
      }
    }
    return s;
  }
}
