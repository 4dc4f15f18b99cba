package dev.msjvm.engine.parallel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Shape and tensor-map arithmetic used to bring two layouts onto one device arrangement and one
 * tensor shape, as MindSpore's {@code shape_util.cc}, {@code arrangement.cc} and {@code map.cc}
 * (frontend/parallel/tensor_layout) do. Every method returns {@code null} where MindSpore's returns
 * FAILED or nullptr; callers then fall back as MindSpore does.
 *
 * <p>Example: {@link #unifiedShape} of {@code [8, 4]} and {@code [2, 16]} merges the prefix
 * products {@code {8, 32}} and {@code {2, 32}} into {@code {2, 8, 32}}, i.e. {@code [2, 4, 4]}.
 */
final class LayoutAlgebra {

  static final int NONE = -1;

  private LayoutAlgebra() {}

  static long product(int[] a) {
    long p = 1;
    for (int v : a) {
      p *= v;
    }
    return p;
  }

  static int indexOf(int[] a, int value) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] == value) {
        return i;
      }
    }
    return NONE;
  }

  static int max(int[] a) {
    int m = NONE;
    for (int v : a) {
      m = Math.max(m, v);
    }
    return m;
  }

  static int[] toArray(List<Integer> list) {
    return list.stream().mapToInt(Integer::intValue).toArray();
  }

  static List<Integer> toList(int[] a) {
    return Arrays.stream(a).boxed().toList();
  }

  /** {@code GetUnifiedShape}: the common refinement of two shapes of equal product, or null. */
  static int[] unifiedShape(int[] a, int[] b) {
    long[] pa = prefixProducts(a);
    long[] pb = prefixProducts(b);
    if (pa == null || pb == null) {
      return null;
    }
    List<Long> out = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < pa.length || j < pb.length) {
      if (i == pa.length || j == pb.length) {
        return null; // products differ
      }
      if (pa[i] < pb[j]) {
        out.add(pa[i++]);
      } else if (pa[i] == pb[j]) {
        out.add(pa[i++]);
        j++;
      } else {
        out.add(pb[j++]);
      }
    }
    int[] shape = new int[out.size()];
    long prev = 1;
    for (int k = 0; k < shape.length; k++) {
      if (out.get(k) % prev != 0) {
        return null;
      }
      shape[k] = (int) (out.get(k) / prev);
      prev = out.get(k);
    }
    return shape;
  }

  private static long[] prefixProducts(int[] a) {
    long[] p = new long[a.length];
    long size = 1;
    for (int i = 0; i < a.length; i++) {
      size *= a[i];
      if (size <= 0) {
        return null;
      }
      p[i] = size;
    }
    return p;
  }

  /**
   * {@code ExpandShape}: {@code in} refined by the suffix products of {@code expand}, e.g. in
   * {@code [2, 8, 32]} by {@code [16, 4, 8]} gives {@code [2, 8, 4, 8]}; null when they do not
   * nest.
   */
  static int[] expandShape(int[] in, int[] expand) {
    long[] inRev = suffixProducts(in);
    long[] exRev = suffixProducts(expand);
    if (inRev == null || exRev == null) {
      return null;
    }
    // Walk both from the innermost (smallest) product outwards, as ExpandAccumulateProduct does.
    List<Long> outRev = new ArrayList<>();
    int i = inRev.length - 1;
    int e = exRev.length - 1;
    while (e >= 0) {
      if (i < 0) {
        if (e + 1 < exRev.length && exRev[e] == exRev[e + 1]) {
          e--;
          continue;
        }
        return null;
      }
      if (inRev[i] > exRev[e]) {
        outRev.add(0, exRev[e--]);
      } else if (inRev[i] == exRev[e]) {
        outRev.add(0, exRev[e--]);
        i--;
      } else {
        outRev.add(0, inRev[i--]);
      }
    }
    while (i >= 0) {
      outRev.add(0, inRev[i--]);
    }
    int[] shape = new int[outRev.size()];
    long value = 1;
    for (int k = shape.length - 1; k >= 0; k--) {
      long v = outRev.get(k);
      if (v == 0 || v % value != 0) {
        return null;
      }
      shape[k] = (int) (v / value);
      value = v;
    }
    return shape;
  }

  private static long[] suffixProducts(int[] a) {
    long[] p = new long[a.length];
    long size = 1;
    for (int i = a.length - 1; i >= 0; i--) {
      size *= a[i];
      if (size <= 0) {
        return null;
      }
      p[i] = size;
    }
    return p;
  }

  /**
   * {@code GetExpandShapeList}: groups consecutive entries of {@code expand} whose products equal
   * the entries of {@code arr}, e.g. arr {@code [8, 4]}, expand {@code [4, 2, 2, 2]} gives {@code
   * [[4, 2], [2, 2]]}; null if they do not line up.
   */
  static List<int[]> expandShapeList(int[] arr, int[] expand) {
    List<int[]> list = new ArrayList<>();
    List<Integer> current = new ArrayList<>();
    long size = 1;
    int ind = 0;
    for (int v : expand) {
      if (ind >= arr.length) {
        return null;
      }
      size *= v;
      current.add(v);
      if (size > arr[ind]) {
        return null;
      }
      if (size == arr[ind]) {
        list.add(toArray(current));
        current.clear();
        ind++;
        size = 1;
      }
    }
    return ind == arr.length ? list : null;
  }

  /** The number of entries each group of {@link #expandShapeList} has. */
  static int[] groupSizes(List<int[]> groups) {
    return groups.stream().mapToInt(g -> g.length).toArray();
  }

  /**
   * {@code GetFrontElementByValue}: the leading entries of {@code arr} whose product reaches {@code
   * value}, the last one cut so that the product is exactly {@code value}.
   */
  private static List<Integer> frontElementsByValue(int[] arr, long value) {
    List<Integer> out = new ArrayList<>();
    if (arr.length == 0 || value > product(arr)) {
      return out;
    }
    long size = 1;
    int idx = 0;
    while (size < value) {
      size *= arr[idx];
      if (size <= value) {
        out.add(arr[idx]);
      } else {
        out.add((int) (value * arr[idx] / size));
      }
      idx++;
    }
    return out;
  }

  /** {@code GetExpandedShapeByExpandListRemoveLeft}. */
  static int[] expandedByListRemoveLeft(int[] arr, List<int[]> expandList) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < arr.length; i++) {
      List<Integer> front = frontElementsByValue(expandList.get(i), arr[i]);
      if (front.isEmpty()) {
        out.add(arr[i]);
      } else {
        out.addAll(front);
      }
    }
    return toArray(out);
  }

  /** {@code GetExpandedShapeByExpandListReserveLeft}. */
  static int[] expandedByListReserveLeft(int[] arr, List<int[]> expandList) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < arr.length; i++) {
      int[] ex = expandList.get(i);
      if (ex.length >= 1) {
        int size = 1;
        for (int k = 0; k < ex.length - 1; k++) {
          out.add(ex[k]);
          size *= ex[k];
        }
        out.add(arr[i] / size);
      } else {
        out.add(arr[i]);
      }
    }
    return toArray(out);
  }

  /**
   * {@code ExpandMapByNone}: each tensor dim split into {@code counts[i]} dims, the rest unsplit.
   */
  static int[] expandMapByNone(int[] map, int[] counts) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < map.length; i++) {
      out.add(map[i]);
      for (int j = 1; j < counts[i]; j++) {
        out.add(NONE);
      }
    }
    return toArray(out);
  }

  /**
   * {@code ExpandMapByDecreaseNumber}: the device axis {@code v} became {@code counts[len-1-v]}
   * axes; a dim split on it is now split on all of them, numbered from the right.
   */
  static int[] expandMapByDecreaseNumber(int[] map, int[] counts) {
    if (max(map) >= counts.length) {
      return null;
    }
    int[] start = new int[counts.length];
    int sum = 0;
    for (int k = 0; k < counts.length; k++) {
      start[k] = sum;
      sum += counts[counts.length - 1 - k];
    }
    List<Integer> out = new ArrayList<>();
    for (int v : map) {
      if (v == NONE) {
        out.add(NONE);
      } else {
        for (int k = counts[counts.length - 1 - v] - 1; k >= 0; k--) {
          out.add(k + start[v]);
        }
      }
    }
    return toArray(out);
  }

  /**
   * {@code ReMapVector}: per tensor dim, the group of the device axis it is split on (or empty).
   */
  static List<int[]> reMapVector(int[] map, List<int[]> perAxis) {
    if (max(map) >= perAxis.size()) {
      return null;
    }
    List<int[]> out = new ArrayList<>();
    for (int v : map) {
      out.add(v == NONE ? new int[0] : perAxis.get(perAxis.size() - 1 - v));
    }
    return out;
  }
}
