package dev.msjvm.engine.parallel;

import dev.msjvm.engine.MsException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The devices of one stage arranged as a row-major grid, MindSpore's device matrix ({@code
 * frontend/parallel/device_matrix.cc}).
 *
 * <p>Invariants: every axis has size at least 1; {@code rankList} holds distinct world ranks, as
 * many as the product of {@code shape}. The device at local index {@code i} of the rank list has
 * the coordinate of {@code i} in row-major order, the last axis varying fastest ({@code
 * ConvertRankToCoordinate}). Example: {@code DeviceMatrix.of(2, 4)} places rank {@code 4a + b} at
 * {@code (a, b)}; {@code devicesAlongAxis(5, 1)} is {@code [4, 5, 6, 7]} and {@code
 * devicesAlongAxis(5, 0)} is {@code [1, 5]}.
 */
public record DeviceMatrix(List<Integer> shape, List<Integer> rankList) {

  public DeviceMatrix {
    shape = List.copyOf(shape);
    boolean range = rankList instanceof RankRange;
    rankList = range ? rankList : List.copyOf(rankList);
    if (shape.isEmpty()) {
      throw MsException.valueError("The device matrix must have at least one axis, but got []");
    }
    long devices = 1;
    for (int d : shape) {
      if (d < 1) {
        throw MsException.valueError(
            "Every axis of the device matrix " + shape + " must be at least 1, but got " + d);
      }
      devices *= d;
    }
    if (devices != rankList.size()) {
      // MindSpore: device_matrix.cc, DeviceMatrix constructor.
      throw MsException.valueError(
          "Device shape does not match the size of the device list! The device matrix "
              + shape
              + " holds "
              + devices
              + " devices, but the rank list "
              + rankList
              + " has "
              + rankList.size());
    }
    if (!range && new HashSet<>(rankList).size() != rankList.size()) {
      throw MsException.valueError("The rank list " + rankList + " has duplicated ranks");
    }
  }

  /** A device matrix over ranks {@code 0..n-1}. */
  public static DeviceMatrix of(int... shape) {
    List<Integer> dims = IntStream.of(shape).boxed().toList();
    long n = 1;
    for (int d : shape) {
      n *= Math.max(d, 0);
    }
    return new DeviceMatrix(dims, RankRange.of((int) n));
  }

  /** Number of axes. */
  public int axes() {
    return shape.size();
  }

  /** Number of devices. */
  public int size() {
    return rankList.size();
  }

  public int axisSize(int axis) {
    return shape.get(axis);
  }

  /** The coordinate of world rank {@code rank} (one entry per axis). */
  public List<Integer> coordinateOf(int rank) {
    int local = localIndex(rank);
    int[] c = new int[shape.size()];
    for (int a = shape.size() - 1; a >= 0; a--) {
      c[a] = local % shape.get(a);
      local /= shape.get(a);
    }
    return LayoutAlgebra.toList(c);
  }

  /** The world rank at {@code coordinate}. */
  public int rankAt(List<Integer> coordinate) {
    if (coordinate.size() != shape.size()) {
      throw MsException.valueError(
          "The coordinate " + coordinate + " does not fit the device matrix " + shape);
    }
    int local = 0;
    for (int a = 0; a < shape.size(); a++) {
      int c = coordinate.get(a);
      if (c < 0 || c >= shape.get(a)) {
        throw MsException.valueError(
            "The coordinate " + coordinate + " is outside the device matrix " + shape);
      }
      local = local * shape.get(a) + c;
    }
    return rankList.get(local);
  }

  /**
   * The ranks that differ from {@code rank} only along {@code axis}, ordered by their coordinate on
   * that axis ({@code GetDevicesAlongDim}); {@code [rank]} when the axis has size 1.
   */
  public List<Integer> devicesAlongAxis(int rank, int axis) {
    checkAxis(axis);
    List<Integer> c = new ArrayList<>(coordinateOf(rank));
    List<Integer> group = new ArrayList<>();
    for (int i = 0; i < shape.get(axis); i++) {
      c.set(axis, i);
      group.add(rankAt(c));
    }
    return List.copyOf(group);
  }

  /**
   * The ranks whose coordinates equal {@code rank}'s on every axis in {@code axes}, in rank-list
   * order ({@code GetDevicesByTensorMap} with the axes a tensor map uses: the devices holding the
   * same slice).
   */
  public List<Integer> devicesMatching(int rank, List<Integer> axes) {
    axes.forEach(this::checkAxis);
    List<Integer> mine = coordinateOf(rank);
    List<Integer> out = new ArrayList<>();
    for (int r : rankList) {
      List<Integer> other = coordinateOf(r);
      if (axes.stream().allMatch(a -> other.get(a).equals(mine.get(a)))) {
        out.add(r);
      }
    }
    return List.copyOf(out);
  }

  /**
   * The ranks whose coordinates differ from {@code rank}'s only on {@code axes}, in rank-list
   * order: the group that combines results partial over those axes.
   */
  public List<Integer> devicesVaryingOnly(int rank, List<Integer> axes) {
    axes.forEach(this::checkAxis);
    List<Integer> others = new ArrayList<>();
    for (int a = 0; a < axes(); a++) {
      if (!axes.contains(a)) {
        others.add(a);
      }
    }
    return devicesMatching(rank, others);
  }

  private int localIndex(int rank) {
    int local = rankList.indexOf(rank);
    if (local < 0) {
      // MindSpore: device_matrix.cc, DeviceMatrix constructor.
      throw MsException.valueError(
          "Rank " + rank + " is not in the current stage! The stage's ranks are " + rankList);
    }
    return local;
  }

  private void checkAxis(int axis) {
    if (axis < 0 || axis >= shape.size()) {
      throw MsException.valueError(
          "The dimension " + axis + " is out of the size of the device shape " + shape + "!");
    }
  }

  @Override
  public String toString() {
    boolean plain = IntStream.range(0, rankList.size()).allMatch(i -> rankList.get(i) == i);
    return plain ? shape.toString() : shape + " on ranks " + rankList;
  }
}
