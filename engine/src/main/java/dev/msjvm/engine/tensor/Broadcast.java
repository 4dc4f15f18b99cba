package dev.msjvm.engine.tensor;

import dev.msjvm.engine.ir.Shape;

/** Row-major index maps from a broadcast output shape back into an input. */
final class Broadcast {
  private Broadcast() {}

  /**
   * For each element of {@code out} (row-major), the index of the element of an input of shape
   * {@code in} that broadcasts to it. Example: {@code indices([3], [2, 3])} is {@code [0, 1, 2, 0,
   * 1, 2]}.
   */
  static int[] indices(Shape in, Shape out) {
    int n = (int) out.size();
    int[] idx = new int[n];
    int rank = out.rank();
    int offset = rank - in.rank();
    int[] strides = new int[rank];
    int s = 1;
    for (int a = rank - 1; a >= 0; a--) {
      int d = a - offset >= 0 ? in.dim(a - offset) : 1;
      strides[a] = d == 1 ? 0 : s;
      s *= d;
    }
    int[] counter = new int[rank];
    int pos = 0;
    for (int i = 0; i < n; i++) {
      idx[i] = pos;
      for (int a = rank - 1; a >= 0; a--) {
        counter[a]++;
        pos += strides[a];
        if (counter[a] < out.dim(a)) {
          break;
        }
        pos -= strides[a] * counter[a];
        counter[a] = 0;
      }
    }
    return idx;
  }
}
