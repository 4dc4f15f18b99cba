package dev.msjvm.engine.parallel;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.Shape;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * How a tensor is spread over a stage: MindSpore's tensor layout ({@code
 * frontend/parallel/tensor_layout/tensor_layout.cc}) of device matrix, tensor map and full shape.
 *
 * <p>Tensor-map value {@code v} of dimension {@code d} means "split {@code d} along device axis
 * {@code axes-1-v}" (counted from the right, as MindSpore does); {@code -1} means not split. Device
 * axes that no dimension uses are repeated: every device along them holds the same slice.
 * Invariants (checked, VALUE_ERROR otherwise): one map entry per dimension, values in {@code [-1,
 * axes)}, no device axis used twice, every split dimension divisible by its axis size.
 *
 * <p>Example: on {@code DeviceMatrix.of(2, 4)}, map {@code [1, -1]} and shape {@code [8, 6]} split
 * dim 0 two ways along axis 0 and repeat over axis 1: slice shape {@code [4, 6]}, strategy {@code
 * (2, 1)}, rank 5 (coordinate {@code (1, 1)}) holds rows {@code [4, 8)}, the same as ranks 4, 6, 7.
 */
public record TensorLayout(
    DeviceMatrix deviceMatrix, List<Integer> tensorMap, Shape shape, Declared declared) {

  /**
   * The Layout strategy a user wrote, when it is not this layout's own device matrix and map: its
   * device matrix and, per dimension, the device axes (counted from the right) it is split over,
   * outermost first, {@code [-1]} for none. A dimension split over axes that are not adjacent in
   * order becomes one axis of a reordered device matrix (its rank list says where each rank went);
   * this is what MindSpore reports for it ({@code parameter_layout_dict}, multi-axis tensor-map
   * entries as lists). Not part of equality: two layouts are equal when they place the same slices
   * the same way.
   */
  public record Declared(List<Integer> deviceMatrix, List<List<Integer>> tensorMap) {
    public Declared {
      deviceMatrix = List.copyOf(deviceMatrix);
      tensorMap = tensorMap.stream().map(List::copyOf).toList();
    }
  }

  /** The half-open index range {@code [begin, end)} a slice covers along one dimension. */
  public record SliceRange(int begin, int end) {
    public int length() {
      return end - begin;
    }
  }

  public TensorLayout(DeviceMatrix deviceMatrix, List<Integer> tensorMap, Shape shape) {
    this(deviceMatrix, tensorMap, shape, null);
  }

  /** This layout with {@code declared} as the Layout strategy it came from. */
  public TensorLayout withDeclared(Declared declared) {
    return new TensorLayout(deviceMatrix, tensorMap, shape, declared);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TensorLayout t
        && deviceMatrix.equals(t.deviceMatrix)
        && tensorMap.equals(t.tensorMap)
        && shape.equals(t.shape);
  }

  /**
   * Whether this layout and {@code o} are equal once their device matrices' axes of size 1 are
   * dropped, as MindSpore compares layouts ({@code TensorLayout::Init} removes them, {@code
   * RemoveElementEqualToOneInDeviceArrangement}): a MatMul's input {@code [8, 1]} over the device
   * matrix {@code [8, 1, 1]} and a Cast's {@code [8, 1]} over {@code [8, 1]} are the same layout.
   */
  public boolean equalsWithoutUnitAxes(TensorLayout o) {
    return equals(o) || withoutUnitAxes().equals(o.withoutUnitAxes());
  }

  private TensorLayout withoutUnitAxes() {
    List<Integer> dims = deviceMatrix.shape();
    List<Integer> kept = new ArrayList<>();
    int[] renumbered = new int[dims.size()]; // by axis counted from the right
    for (int r = 0; r < dims.size(); r++) {
      int size = dims.get(dims.size() - 1 - r);
      renumbered[r] = size == 1 ? -1 : kept.size();
      if (size != 1) {
        kept.add(0, size);
      }
    }
    if (kept.size() == dims.size()) {
      return this;
    }
    List<Integer> map = new ArrayList<>();
    for (int m : tensorMap) {
      map.add(m < 0 ? -1 : renumbered[m]);
    }
    List<Integer> shapeKept = kept.isEmpty() ? List.of(1) : kept;
    return new TensorLayout(new DeviceMatrix(shapeKept, deviceMatrix.rankList()), map, shape);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(deviceMatrix, tensorMap, shape);
  }

  public TensorLayout {
    tensorMap = List.copyOf(tensorMap);
    String problem = problem(deviceMatrix.shape(), tensorMap, shape.toArray());
    if (problem != null) {
      throw MsException.valueError(problem);
    }
  }

  public static TensorLayout of(DeviceMatrix deviceMatrix, List<Integer> tensorMap, Shape shape) {
    return new TensorLayout(deviceMatrix, tensorMap, shape);
  }

  /** The layout in which every rank of {@code deviceMatrix} holds the whole tensor. */
  public static TensorLayout whole(DeviceMatrix deviceMatrix, Shape shape) {
    return new TensorLayout(deviceMatrix, java.util.Collections.nCopies(shape.rank(), -1), shape);
  }

  /** {@code of(DeviceMatrix.of(2, 4), new int[] {1, -1}, 8, 6)}. */
  public static TensorLayout of(DeviceMatrix deviceMatrix, int[] tensorMap, int... shape) {
    return new TensorLayout(deviceMatrix, LayoutAlgebra.toList(tensorMap), Shape.of(shape));
  }

  /**
   * The tensor map of MindSpore's {@code Layout(device_matrix, alias_name)(*dims)}: alias at index
   * {@code k} of {@code aliasNames} becomes {@code len-1-k}, {@code "None"} becomes -1. Example:
   * aliases {@code (dp, sp, mp)} and dims {@code (dp, mp)} give {@code [2, 0]}. Multi-axis dims
   * (tuples of aliases) are not represented by this layout.
   */
  public static List<Integer> tensorMapFromAliases(List<String> aliasNames, List<String> dims) {
    List<Integer> map = new ArrayList<>();
    for (String name : dims) {
      if ("None".equals(name)) {
        map.add(-1);
        continue;
      }
      int k = aliasNames.indexOf(name);
      if (k < 0) {
        throw MsException.valueError(
            "The alias name '" + name + "' is not in the layout's alias names " + aliasNames);
      }
      map.add(aliasNames.size() - 1 - k);
    }
    return List.copyOf(map);
  }

  /** The reason {@code tensorMap} with {@code shape} is invalid on {@code deviceShape}, or null. */
  static String problem(List<Integer> deviceShape, List<Integer> tensorMap, int[] shape) {
    for (int d : deviceShape) {
      if (d < 1) {
        return "Every axis of the device matrix "
            + deviceShape
            + " must be at least 1, but got "
            + d;
      }
    }
    String where = "The tensor map " + tensorMap;
    if (tensorMap.size() != shape.length) {
      // MindSpore: tensor_layout.cc IsValidTensorLayout.
      return where
          + " has "
          + tensorMap.size()
          + " entries but the tensor shape "
          + LayoutAlgebra.toList(shape)
          + " has "
          + shape.length
          + " dimensions: tensor_map size must be equal to tensor_shape size";
    }
    int axes = deviceShape.size();
    for (int d = 0; d < tensorMap.size(); d++) {
      int v = tensorMap.get(d);
      if (v < -1 || v >= axes) {
        return where
            + " is invalid for the device matrix "
            + deviceShape
            + ": dimension "
            + d
            + " maps to "
            + v
            + ", but a value must be -1 (not split) or a device axis counted from the right, in [0, "
            + axes
            + ")";
      }
      int first = tensorMap.indexOf(v);
      if (v != -1 && first != d) {
        return where
            + " is invalid: dimensions "
            + first
            + " and "
            + d
            + " are both split along device axis "
            + (axes - 1 - v)
            + " (value "
            + v
            + "); a device axis can split at most one dimension";
      }
      if (v != -1 && shape[d] % deviceShape.get(axes - 1 - v) != 0) {
        // MindSpore: tensor_layout.cc TensorShapeDimensionIsDividedBySplitDeviceDimension.
        return "The tensor shape "
            + LayoutAlgebra.toList(shape)
            + " is not divisible by the layout: dimension "
            + d
            + " has size "
            + shape[d]
            + ", but the slice number is "
            + deviceShape.get(axes - 1 - v)
            + " (device axis "
            + (axes - 1 - v)
            + " of the device matrix "
            + deviceShape
            + ")";
      }
    }
    return null;
  }

  public int rank() {
    return shape.rank();
  }

  public boolean isSplit(int dim) {
    return tensorMap.get(dim) != -1;
  }

  /**
   * Whether some dimension is split in more than one slice (a rank holds less than the whole
   * tensor). A dimension mapped to a device axis of size 1 is whole: MindSpore's default strategy
   * maps a weight's dims to the axes its strategy leaves at 1.
   */
  public boolean isSliced() {
    for (int d = 0; d < rank(); d++) {
      if (splitCount(d) > 1) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether some dimension is mapped to a device axis, even one of size 1: the layout an operator's
   * strategy gave the tensor rather than the whole tensor's default (what MindSpore's default
   * strategy looks at, {@code RulesOracle}).
   */
  public boolean isMapped() {
    return tensorMap.stream().anyMatch(m -> m != -1);
  }

  /** The device axis (index into the device matrix shape) splitting {@code dim}, or -1. */
  public int deviceAxisOf(int dim) {
    int v = tensorMap.get(dim);
    return v == -1 ? -1 : deviceMatrix.axes() - 1 - v;
  }

  /** Number of slices of {@code dim}. */
  public int splitCount(int dim) {
    int axis = deviceAxisOf(dim);
    return axis < 0 ? 1 : deviceMatrix.axisSize(axis);
  }

  /** The strategy of this tensor: slices per dimension, e.g. {@code [2, 1]}. */
  public List<Integer> strategy() {
    List<Integer> s = new ArrayList<>();
    for (int d = 0; d < rank(); d++) {
      s.add(splitCount(d));
    }
    return List.copyOf(s);
  }

  public Shape sliceShape() {
    int[] s = shape.toArray();
    for (int d = 0; d < s.length; d++) {
      s[d] /= splitCount(d);
    }
    return Shape.of(s);
  }

  /** Device axes no dimension is split along (the slice is repeated over them), ascending. */
  public List<Integer> replicatedAxes() {
    List<Integer> out = new ArrayList<>();
    for (int axis = 0; axis < deviceMatrix.axes(); axis++) {
      if (!tensorMap.contains(deviceMatrix.axes() - 1 - axis)) {
        out.add(axis);
      }
    }
    return List.copyOf(out);
  }

  /** The ranks that differ from {@code rank} only along device axis {@code axis}. */
  public List<Integer> groupForAxis(int rank, int axis) {
    return deviceMatrix.devicesAlongAxis(rank, axis);
  }

  /** The ranks holding the same slice as {@code rank} (MindSpore's repeated / mirror group). */
  public List<Integer> repeatedGroup(int rank) {
    List<Integer> used = new ArrayList<>();
    for (int d = 0; d < rank(); d++) {
      if (isSplit(d)) {
        used.add(deviceAxisOf(d));
      }
    }
    return deviceMatrix.devicesMatching(rank, used);
  }

  /** For each dimension, the index range of the full tensor that {@code rank}'s slice covers. */
  public List<SliceRange> sliceRanges(int rank) {
    List<Integer> c = deviceMatrix.coordinateOf(rank);
    List<SliceRange> out = new ArrayList<>();
    for (int d = 0; d < rank(); d++) {
      int len = shape.dim(d) / splitCount(d);
      int index = isSplit(d) ? c.get(deviceAxisOf(d)) : 0;
      out.add(new SliceRange(index * len, (index + 1) * len));
    }
    return List.copyOf(out);
  }

  /**
   * The whole row-major tensor from every rank's slice: {@code gathered} holds the slices of ranks
   * {@code 0..n-1} one after another (an AllGather over the device matrix's ranks, in rank order).
   */
  public float[] wholeFrom(float[] gathered) {
    int[] len = sliceShape().toArray();
    int count = (int) sliceShape().size();
    List<Integer> ranks = deviceMatrix.rankList();
    if (gathered.length != (long) count * ranks.size()) {
      throw MsException.valueError(
          "Expected " + ranks.size() + " slices of " + count + " elements, got " + gathered.length);
    }
    float[] whole = new float[(int) shape.size()];
    float[] block = new float[count];
    for (int i = 0; i < ranks.size(); i++) {
      System.arraycopy(gathered, i * count, block, 0, count);
      int[] begin = sliceRanges(ranks.get(i)).stream().mapToInt(SliceRange::begin).toArray();
      SliceCopy.pasteBlock(whole, shape.toArray(), begin, block, len);
    }
    return whole;
  }

  /** {@code rank}'s slice of the row-major tensor {@code full}, row-major. */
  public float[] sliceOf(float[] full, int rank) {
    if (full.length != shape.size()) {
      throw MsException.valueError(
          "The tensor has "
              + full.length
              + " elements but the layout's shape "
              + shape
              + " has "
              + shape.size());
    }
    List<SliceRange> ranges = sliceRanges(rank);
    int[] begin = ranges.stream().mapToInt(SliceRange::begin).toArray();
    int[] len = ranges.stream().mapToInt(SliceRange::length).toArray();
    return SliceCopy.copyBlock(full, shape.toArray(), begin, len);
  }

  /** As a Python tuple, e.g. {@code ((2, 4), (1, -1), (8, 6))}: device matrix, map, shape. */
  @Override
  public String toString() {
    return "("
        + tuple(deviceMatrix.shape())
        + ", "
        + tuple(tensorMap)
        + ", "
        + tuple(shape.dims())
        + ")";
  }

  /** A strategy as MindSpore prints it, e.g. {@code ((2, 4), (4, 1))}. */
  public static String strategyString(List<List<Integer>> strategy) {
    return strategy.stream()
        .map(TensorLayout::tuple)
        .collect(Collectors.joining(", ", "(", strategy.size() == 1 ? ",)" : ")"));
  }

  /** A Python tuple of ints: {@code (2, 4)}, {@code (8,)}, {@code ()}. */
  static String tuple(List<Integer> values) {
    if (values.size() == 1) {
      return "(" + values.get(0) + ",)";
    }
    return values.stream().map(String::valueOf).collect(Collectors.joining(", ", "(", ")"));
  }
}
