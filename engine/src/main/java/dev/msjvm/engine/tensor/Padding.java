package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.Shape;
import java.util.List;

/**
 * MindSpore's {@code PadV3(mode, paddings_contiguous)} and its gradient {@code PadV3Grad}: padding
 * given as {@code (begin, end)} pairs from the last dimension backwards ({@code [l, r]} pads the
 * last dimension, {@code [l, r, t, b]} the last two), a negative amount cropping. Modes: {@code
 * constant} (the padded cells take {@code constant_value}), {@code reflect} (mirrored without the
 * edge), {@code edge} (the border repeated) and {@code circular} (wrapped around).
 *
 * <p>Every output cell reads one input cell or the constant, so the gradient adds each output
 * cell's gradient onto the input cell it read. Example: {@code [[0, 1]]} padded {@code [1, 1]} with
 * {@code reflect} is {@code [[1, 0, 1, 0]]}.
 */
public final class Padding {
  private Padding() {}

  /** The pad amounts per dimension, {@code [rank][2]}, from MindSpore's flat list. */
  public static int[][] amounts(int rank, List<Integer> paddings, boolean contiguous) {
    int pairs = paddings.size() / 2;
    int[][] pad = new int[rank][2];
    for (int p = 0; p < pairs; p++) {
      int dim = rank - 1 - p;
      int begin = contiguous ? paddings.get(2 * p) : paddings.get(p);
      int end = contiguous ? paddings.get(2 * p + 1) : paddings.get(pairs + p);
      pad[dim][0] = begin;
      pad[dim][1] = end;
    }
    return pad;
  }

  /**
   * PadV3's output type, with the checks of MindSpore 2.10's infer ({@code pad_v3.cc}) in its order
   * and with its texts.
   */
  public static AbstractTensor type(
      AbstractTensor x, List<Integer> paddings, String mode, boolean contiguous) {
    int rank = x.rank();
    int n = paddings.size();
    int[] dims = x.shape().toArray();
    if (n > 2 * rank) {
      throw MsException.valueError(
          "For primitive[PadV3], the paddings_length must be less than or equal to "
              + 2 * rank
              + ", but got "
              + n
              + ".");
    }
    int[][] pad = amounts(rank, paddings, contiguous);
    if (!mode.equals("constant")) {
      atLeast("input dims for edge, reflect or circular mode", rank, 3);
      if (mode.equals("reflect")) {
        atMost("input dims for reflect mode", rank, 4);
        for (int p = 0; p < Math.min(n / 2, 2); p++) {
          int d = rank - 1 - p;
          if (pad[d][0] >= dims[d] || pad[d][1] >= dims[d]) {
            throw MsException.valueError(
                "For 'PadV3' reflect mode, Padding size must be less than the corresponding input"
                    + " dimension, but got: padding ("
                    + pad[d][0]
                    + ","
                    + pad[d][1]
                    + ") at dimension "
                    + d
                    + " of input:["
                    + dims[d]
                    + "]");
          }
        }
      } else if (mode.equals("edge")) {
        atMost("input dims for edge mode", rank, 5);
      }
      if (n == 2 || n == 4 || n == 6) {
        int want = n / 2 + 2;
        if (rank != want) {
          throw MsException.valueError(
              "For primitive[PadV3], the input dims when padding's size equal "
                  + n
                  + " must be equal to "
                  + want
                  + ", but got "
                  + rank
                  + ".");
        }
      } else {
        throw MsException.valueError(
            "For 'PadV3', the length of paddings must be 2, 4 or 6, but got " + n);
      }
    } else if (n % 2 == 1) {
      throw MsException.valueError(
          "For 'PadV3' constant mode, paddings length must be divisible by 2");
    }
    for (int k = 0; k < n; k++) {
      int size = dims[rank - 1 - k / 2];
      if (paddings.get(k) < -size) {
        throw MsException.valueError(
            "For primitive[PadV3], the paddings_value must be greater than or equal to "
                + -size
                + ", but got "
                + paddings.get(k)
                + ".");
      }
    }
    int[] out = dims.clone();
    for (int d = 0; d < rank; d++) {
      out[d] += pad[d][0] + pad[d][1];
      if (out[d] <= 0) {
        throw MsException.valueError(
            "For primitive[PadV3], the output size must be greater than 0, but got "
                + out[d]
                + ".");
      }
    }
    return x.withShape(Shape.of(out));
  }

  private static void atLeast(String what, int value, int bound) {
    if (value < bound) {
      throw MsException.valueError(
          "For primitive[PadV3], the "
              + what
              + " must be greater than or equal to "
              + bound
              + ", but got "
              + value
              + ".");
    }
  }

  private static void atMost(String what, int value, int bound) {
    if (value > bound) {
      throw MsException.valueError(
          "For primitive[PadV3], the "
              + what
              + " must be less than or equal to "
              + bound
              + ", but got "
              + value
              + ".");
    }
  }

  /**
   * {@code x} padded: each output cell is the input cell {@link #source} names, or {@code value}.
   */
  public static Tensor pad(Tensor x, int[][] pad, String mode, double value) {
    int[] in = x.shape().toArray();
    int[] out = new int[in.length];
    for (int d = 0; d < in.length; d++) {
      out[d] = in[d] + pad[d][0] + pad[d][1];
    }
    return Tensor.ofDoubles(
        x.dtype(),
        Shape.of(out),
        i -> {
          int src = source(i, in, out, pad, mode);
          return src < 0 ? value : x.getDouble(src);
        });
  }

  /** PadV3Grad: {@code dy} (the padded shape) summed back onto the input cells the cells read. */
  public static Tensor padGrad(Tensor dy, int[][] pad, String mode) {
    int[] out = dy.shape().toArray();
    int[] in = new int[out.length];
    for (int d = 0; d < out.length; d++) {
      in[d] = out[d] - pad[d][0] - pad[d][1];
    }
    double[] acc = new double[Math.toIntExact(Shape.of(in).size())];
    for (int i = 0; i < dy.size(); i++) {
      int src = source(i, in, out, pad, mode);
      if (src >= 0) {
        acc[src] += dy.getDouble(i);
      }
    }
    return Tensor.ofDoubles(dy.dtype(), Shape.of(in), k -> acc[k]);
  }

  /** The flat input index output cell {@code i} reads, or -1 for a constant cell. */
  private static int source(int i, int[] in, int[] out, int[][] pad, String mode) {
    int src = 0;
    int stride = 1;
    int rest = i;
    int[] coord = new int[out.length];
    for (int d = out.length - 1; d >= 0; d--) {
      coord[d] = rest % out[d];
      rest /= out[d];
    }
    for (int d = out.length - 1; d >= 0; d--) {
      int n = in[d];
      int j = coord[d] - pad[d][0];
      if (j < 0 || j >= n) {
        switch (mode) {
          case "reflect" -> j = j < 0 ? -j : 2 * (n - 1) - j;
          case "edge" -> j = j < 0 ? 0 : n - 1;
          case "circular" -> j = Math.floorMod(j, n);
          default -> {
            return -1;
          }
        }
      }
      src += j * stride;
      stride *= n;
    }
    return src;
  }
}
