package dev.msjvm.engine.parallel;

import static dev.msjvm.engine.parallel.LayoutAlgebra.NONE;
import static dev.msjvm.engine.parallel.LayoutAlgebra.indexOf;

import java.util.ArrayList;
import java.util.List;

/**
 * A layout as the redistribution planner handles it: device arrangement without axes of size 1,
 * tensor map counted from the right, full tensor shape. Mirrors the parts of MindSpore's {@code
 * TensorLayout} (frontend/parallel/tensor_layout/tensor_layout.cc) used to unify two layouts.
 *
 * <p>Invariant: valid by construction ({@link #init} returns null otherwise). Example: {@code
 * init([1, 8], [1, 0], [32, 256])} has arrangement {@code [8]} and map {@code [-1, 0]}.
 */
final class ExpandedLayout {

  final int[] dev;
  final int[] map;
  final int[] shape;

  private ExpandedLayout(int[] dev, int[] map, int[] shape) {
    this.dev = dev;
    this.map = map;
    this.shape = shape;
  }

  /**
   * {@code TensorLayout::Init}: null when the map has values below -1, repeats an axis, points past
   * the arrangement, has another length than the shape, or a split dim is not divisible; otherwise
   * the device axes of size 1 are removed and the dims split on them become unsplit.
   */
  static ExpandedLayout init(int[] dev, int[] map, int[] shape) {
    if (TensorLayout.problem(LayoutAlgebra.toList(dev), LayoutAlgebra.toList(map), shape) != null) {
      return null;
    }
    List<Integer> kept = new ArrayList<>();
    int[] newMap = map.clone();
    int n = dev.length;
    for (int axis = 0; axis < n; axis++) {
      if (dev[axis] != 1) {
        kept.add(dev[axis]);
        continue;
      }
      int value = n - 1 - axis;
      for (int i = 0; i < map.length; i++) {
        if (map[i] == value) {
          newMap[i] = NONE;
        }
      }
    }
    // Renumber: a kept axis's new value counts the kept axes to its right.
    for (int i = 0; i < map.length; i++) {
      if (newMap[i] != NONE) {
        int axis = n - 1 - map[i];
        int right = 0;
        for (int a = axis + 1; a < n; a++) {
          right += dev[a] != 1 ? 1 : 0;
        }
        newMap[i] = right;
      }
    }
    if (kept.isEmpty()) {
      kept.add(1);
    }
    return new ExpandedLayout(LayoutAlgebra.toArray(kept), newMap, shape.clone());
  }

  int splitOf(int mapValue) {
    return dev[dev.length - 1 - mapValue];
  }

  int[] sliceShape() {
    int[] s = shape.clone();
    for (int i = 0; i < s.length; i++) {
      if (map[i] != NONE) {
        s[i] /= splitOf(map[i]);
      }
    }
    return s;
  }

  /** {@code TransferRepeatLayout}: the same arrangement and shape, nothing split. */
  ExpandedLayout repeatLayout() {
    int[] none = new int[shape.length];
    java.util.Arrays.fill(none, NONE);
    return new ExpandedLayout(dev, none, shape);
  }

  /**
   * {@code SqueezeShape}: drops tensor dims of size 1 (a one-element tensor becomes {@code [1]}).
   */
  ExpandedLayout squeezeShape() {
    if (LayoutAlgebra.product(shape) == 1) {
      return init(dev, new int[] {NONE}, new int[] {1});
    }
    List<Integer> newShape = new ArrayList<>();
    List<Integer> newMap = new ArrayList<>();
    for (int i = 0; i < shape.length; i++) {
      if (shape[i] == 1) {
        if (map[i] != NONE) {
          return this;
        }
        continue;
      }
      newShape.add(shape[i]);
      newMap.add(map[i]);
    }
    return init(dev, LayoutAlgebra.toArray(newMap), LayoutAlgebra.toArray(newShape));
  }

  /** {@code ExpandDeviceArrangement}: the same layout on a finer arrangement, or null. */
  ExpandedLayout expandDeviceArrangement(int[] expandedArrangement) {
    List<int[]> groups = LayoutAlgebra.expandShapeList(dev, expandedArrangement);
    if (groups == null) {
      return null;
    }
    int[] newMap = LayoutAlgebra.expandMapByDecreaseNumber(map, LayoutAlgebra.groupSizes(groups));
    List<int[]> perDim = LayoutAlgebra.reMapVector(map, groups);
    if (newMap == null || perDim == null) {
      return null;
    }
    int[] newShape = LayoutAlgebra.expandedByListReserveLeft(shape, perDim);
    return init(expandedArrangement, newMap, newShape);
  }

  /** {@code ExpandTensorShape}: the same layout on a finer tensor shape, or null. */
  ExpandedLayout expandTensorShape(int[] expandedShape) {
    int[] arrangement = computeArrangementByExpandedShape(expandedShape);
    if (arrangement == null) {
      return null;
    }
    ExpandedLayout finer = expandDeviceArrangement(arrangement);
    return finer == null ? null : finer.expandTensorShapeKeepingArrangement(expandedShape);
  }

  private int[] computeArrangementByExpandedShape(int[] expandedShape) {
    List<int[]> groups = LayoutAlgebra.expandShapeList(shape, expandedShape);
    if (groups == null) {
      return null;
    }
    List<int[]> perAxis = new ArrayList<>();
    for (int value = dev.length - 1; value >= 0; value--) {
      int dim = indexOf(map, value);
      perAxis.add(dim < 0 ? new int[0] : groups.get(dim));
    }
    return LayoutAlgebra.expandedByListRemoveLeft(dev, perAxis);
  }

  private ExpandedLayout expandTensorShapeKeepingArrangement(int[] expandedShape) {
    List<int[]> groups = LayoutAlgebra.expandShapeList(shape, expandedShape);
    if (groups == null) {
      return null;
    }
    int[] newMap = LayoutAlgebra.expandMapByNone(map, LayoutAlgebra.groupSizes(groups));
    return init(dev, newMap, expandedShape);
  }

  boolean tensorShapeCanBeExpanded(int[] expand) {
    int[] e = LayoutAlgebra.expandShape(shape, expand);
    return e != null && java.util.Arrays.equals(e, shape);
  }

  @Override
  public String toString() {
    return "dev "
        + LayoutAlgebra.toList(dev)
        + " map "
        + LayoutAlgebra.toList(map)
        + " shape "
        + LayoutAlgebra.toList(shape);
  }
}
