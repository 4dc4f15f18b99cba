package dev.msjvm.engine.parallel;

/**
 * Copies rectangular blocks between row-major float arrays: the data movement of StridedSlice (unit
 * strides), Concat and Split. Example: {@code copyBlock(a, [4, 6], [2, 0], [2, 6])} is rows 2 and 3
 * of a 4x6 matrix.
 */
final class SliceCopy {

  private SliceCopy() {}

  /**
   * The block of {@code src} (shape {@code shape}) starting at {@code begin} with extent {@code
   * len}.
   */
  static float[] copyBlock(float[] src, int[] shape, int[] begin, int[] len) {
    float[] out = new float[(int) LayoutAlgebra.product(len)];
    move(src, shape, begin, out, len, new int[len.length], len);
    return out;
  }

  /**
   * Writes {@code block} (shape {@code len}) into {@code dst} (shape {@code shape}) at {@code
   * begin}.
   */
  static void pasteBlock(float[] dst, int[] shape, int[] begin, float[] block, int[] len) {
    move(block, len, new int[len.length], dst, shape, begin, len);
  }

  /**
   * Copies the {@code len} block at {@code aBegin} of {@code a} to the one at {@code bBegin} of
   * {@code b}.
   */
  private static void move(
      float[] a, int[] aShape, int[] aBegin, float[] b, int[] bShape, int[] bBegin, int[] len) {
    int rank = len.length;
    if (rank == 0) {
      b[0] = a[0];
      return;
    }
    for (int l : len) {
      if (l == 0) {
        return;
      }
    }
    long[] aStride = strides(aShape);
    long[] bStride = strides(bShape);
    int run = len[rank - 1];
    int[] idx = new int[rank - 1];
    while (true) {
      long ao = (long) aBegin[rank - 1];
      long bo = (long) bBegin[rank - 1];
      for (int k = 0; k < rank - 1; k++) {
        ao += (aBegin[k] + idx[k]) * aStride[k];
        bo += (bBegin[k] + idx[k]) * bStride[k];
      }
      System.arraycopy(a, (int) ao, b, (int) bo, run);
      int k = rank - 2;
      while (k >= 0 && ++idx[k] == len[k]) {
        idx[k] = 0;
        k--;
      }
      if (k < 0) {
        return;
      }
    }
  }

  private static long[] strides(int[] shape) {
    long[] s = new long[shape.length];
    long acc = 1;
    for (int i = shape.length - 1; i >= 0; i--) {
      s[i] = acc;
      acc *= shape[i];
    }
    return s;
  }
}
