package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.TensorLayout;
import java.util.List;

/**
 * A Conv2D whose input is split along H or W (MindSpore's {@code Conv2DInfo}, conv2d_info.cc): its
 * checks, and for each rank the rows and columns it exchanges with its neighbours and the padding
 * its local convolution keeps.
 *
 * <p>Along one dimension of input length {@code in}, output length {@code out}, kernel reach {@code
 * k} (dilation included), stride {@code s}, leading pad {@code p} and {@code S} slices, the slice
 * with rank bias {@code b} needs {@code p + (in - out*s)*b/S} rows before it (its "top overlap")
 * and {@code (b+1)*(out*s - in)/S + k - s - p} after it (its "bottom overlap"), MindSpore's
 * formulas with C++'s truncating division. Only a kernel wider than the stride overlaps; the first
 * slice keeps the leading pad, the last the trailing one, the middle ones none. A rank receives its
 * own overlaps from its neighbours along the dimension and sends them theirs; with both H and W
 * exchanged the corner blocks come from the diagonal neighbours (NeighborExchangeV2's eight
 * directions).
 *
 * <p>Example: input 16x16, kernel 3, stride 1, pad (3, 3, 3, 3), H split 2: output 20 rows; slice 0
 * (rows 0..7) receives 1 row from slice 1 and convolves 9 rows with pads (top 3, bottom 0) into 10
 * output rows; slice 1 receives 1 row and convolves with pads (0, 3).
 */
final class ConvHalo {
  /** One of H and W. */
  record Dim(
      int in, int out, int kernel, int stride, int before, int after, int split, boolean exchange) {
    long overlapBefore(int b) {
      return before + (long) (in - (long) out * stride) * b / split;
    }

    long overlapAfter(int b) {
      return (b + 1L) * ((long) out * stride - in) / split + kernel - stride - before;
    }

    int recvBefore(int b) {
      return exchange && b > 0 ? (int) overlapBefore(b) : 0;
    }

    int recvAfter(int b) {
      return exchange && b < split - 1 ? (int) overlapAfter(b) : 0;
    }

    int sendBefore(int b) {
      return exchange && b > 0 ? (int) overlapAfter(b - 1) : 0;
    }

    int sendAfter(int b) {
      return exchange && b < split - 1 ? (int) overlapBefore(b + 1) : 0;
    }

    /** The (leading, trailing) pad slice {@code b} convolves with. */
    int[] pads(int b) {
      if (!exchange) {
        return new int[] {before, after};
      }
      return new int[] {b == 0 ? before : 0, b == split - 1 ? after : 0};
    }
  }

  private final Dim[] dims;
  private final boolean repadded;
  private final String problem;
  private final String format;

  private ConvHalo(Dim[] dims, boolean repadded, String problem, String format) {
    this.dims = dims;
    this.repadded = repadded;
    this.problem = problem;
    this.format = format;
  }

  /**
   * The halo plan of a Conv2D with attributes {@code attrs} on input {@code x} (global NCHW shape)
   * and weight {@code w} giving output {@code out}, its input split {@code hSplit} x {@code
   * wSplit}.
   */
  static ConvHalo of(Attrs attrs, Shape x, Shape w, Shape out, int hSplit, int wSplit) {
    String mode = NnRules.padMode(attrs, "valid");
    int[] stride = NnRules.pair(attrs, "stride");
    int[] extent = {NnRules.extent(attrs, w, 0), NnRules.extent(attrs, w, 1)};
    int[] pad = padList(attrs, mode, x, extent, out, stride);
    return of(mode, extent, stride, pad, x, out, hSplit, wSplit, "NCHW");
  }

  /**
   * The halo plan of a window op whose dims 2 and 3 (H and W of NCHW, D and H of NCDHW: {@code
   * format}) may exchange: the windows' reach {@code extent} and {@code stride} along them, their
   * pads {@code pad} (before and after each, as MindSpore's Info holds them once adjusted), the
   * global input and output shapes, the two splits. Mode "valid" never exchanges.
   */
  static ConvHalo of(
      String mode,
      int[] extent,
      int[] stride,
      int[] pad,
      Shape x,
      Shape out,
      int split2,
      int split3,
      String format) {
    Dim[] dims = new Dim[2];
    String problem = null;
    int[] splits = {split2, split3};
    for (int a = 0; a < 2; a++) {
      int k = extent[a];
      int in = x.dim(2 + a);
      int o = out.dim(2 + a);
      int split = splits[a];
      boolean exchange = false;
      if (split > 1 && !mode.equals("valid") && problem == null) {
        String dim = (2 + a) + "th dimension";
        int padAll = pad[2 * a] + pad[2 * a + 1];
        if (k <= stride[a]) {
          if (padAll != 0) {
            problem =
                "The 'pad' or 'same' mode do not support to split "
                    + dim
                    + " when kernel_size <= stride and pad != 0";
          } else if (in / split % stride[a] != 0) {
            problem =
                "The 'pad' or 'same' mode do not support to split "
                    + dim
                    + " when kernel_size <= stride and input's slice % stride != 0";
          }
        } else if ((in + padAll - k) % stride[a] != 0) {
          problem =
              "The 'pad' or 'same' mode do not support to split "
                  + dim
                  + " when kernel_size > stride and input_shape + pad_all - k is not divisible by"
                  + " stride";
        } else if (((long) o * stride[a] - in) % split != 0) {
          problem =
              "The 'pad' or 'same' mode do not support to split "
                  + dim
                  + " when kernel_size > stride and output_shape * s - input_shape is not divisible"
                  + " by stride";
        } else {
          exchange = true;
        }
      }
      dims[a] = new Dim(in, o, k, stride[a], pad[2 * a], pad[2 * a + 1], split, exchange);
    }
    if (problem == null) {
      problem = overlapProblem(dims, x);
    }
    return new ConvHalo(dims, !mode.equals("valid") && (split2 > 1 || split3 > 1), problem, format);
  }

  /** MindSpore's refusal of this split (its log text without the {@code <Name>Info: }), or null. */
  String problem() {
    return problem;
  }

  /** Whether some rank exchanges rows or columns. */
  boolean exchanges() {
    return dims[0].exchange || dims[1].exchange;
  }

  /**
   * The attributes of rank {@code rank}'s local convolution ({@code x} its input's layout): where H
   * or W is split in mode "same" or "pad", pad mode "pad" with the slice's own pads (a dimension
   * that exchanges keeps only its outer pads), else {@code attrs}; either with {@code pad_list},
   * the pads the op uses.
   */
  Attrs localAttrs(Attrs attrs, TensorLayout x, int rank) {
    int[] p = localPads(x, rank);
    List<Integer> pads = List.of(p[0], p[1], p[2], p[3]);
    // pad_list: the pads the rank's op uses, as MindSpore's inference records them (shown only)
    if (!repadded) {
      return attrs.with("pad_list", pads);
    }
    return attrs.with("pad_mode", "pad").with("pad", pads).with("pad_list", pads);
  }

  /**
   * Whether a split dim 2 or 3 makes the local op pad its slice its own way ({@link #localPads}).
   */
  boolean repadded() {
    return repadded;
  }

  /**
   * Rank {@code rank}'s pads (before and after dim 2, before and after dim 3) for its local op:
   * those of the global op where a dim does not exchange, else only the outer ones.
   */
  int[] localPads(TensorLayout x, int rank) {
    int[] a = dims[0].pads(bias(x, 2, rank));
    int[] b = dims[1].pads(bias(x, 3, rank));
    return new int[] {a[0], a[1], b[0], b[1]};
  }

  /**
   * Rank {@code rank}'s NeighborExchangeV2 attributes ({@code x} its input's layout; the rank ids
   * are world ranks, the group is the partitioner's to add), or null when it neither sends nor
   * receives.
   */
  Attrs exchangeAttrs(TensorLayout x, int rank) {
    if (!exchanges()) {
      return null;
    }
    int hb = bias(x, 2, rank);
    int wb = bias(x, 3, rank);
    Dim h = dims[0];
    Dim w = dims[1];
    int[] sendLens = {h.sendBefore(hb), h.sendAfter(hb), w.sendBefore(wb), w.sendAfter(wb)};
    int[] recvLens = {h.recvBefore(hb), h.recvAfter(hb), w.recvBefore(wb), w.recvAfter(wb)};
    if (java.util.Arrays.stream(sendLens).sum() + java.util.Arrays.stream(recvLens).sum() == 0) {
      return null;
    }
    int top = neighbour(x, 2, rank, -1);
    int bottom = neighbour(x, 2, rank, 1);
    int left = neighbour(x, 3, rank, -1);
    int right = neighbour(x, 3, rank, 1);
    int[] corners = {
      neighbour(x, 3, top, 1), // top-right
      neighbour(x, 3, bottom, 1), // bottom-right
      neighbour(x, 3, bottom, -1), // bottom-left
      neighbour(x, 3, top, -1) // top-left
    };
    return Attrs.of(
        "send_rank_ids",
        directions(sendLens, top, bottom, left, right, corners),
        "send_lens",
        java.util.Arrays.stream(sendLens).boxed().toList(),
        "recv_rank_ids",
        directions(recvLens, top, bottom, left, right, corners),
        "recv_lens",
        java.util.Arrays.stream(recvLens).boxed().toList(),
        "data_format",
        format);
  }

  /**
   * The shape of rank {@code rank}'s framed slice of {@code x}: its slice grown on dims 2 and 3 by
   * the rows and columns it receives ({@link #exchangeAttrs}), the slice itself where it receives
   * none. The input gradient of a split convolution or pooling is computed at this shape and its
   * frame sent back.
   */
  int[] framedShape(TensorLayout x, int rank) {
    int[] framed = x.sliceShape().toArray();
    Attrs ex = exchangeAttrs(x, rank);
    if (ex != null) {
      List<Integer> recv = ex.ints("recv_lens");
      framed[2] += recv.get(0) + recv.get(1);
      framed[3] += recv.get(2) + recv.get(3);
    }
    return framed;
  }

  /**
   * The eight rank ids (top, top-right, right, bottom-right, bottom, bottom-left, left, top-left)
   * of the directions with a non-zero length; a corner where both its sides have one.
   */
  private static List<Integer> directions(
      int[] lens, int top, int bottom, int left, int right, int[] corners) {
    int t = lens[0] > 0 ? top : -1;
    int b = lens[1] > 0 ? bottom : -1;
    int l = lens[2] > 0 ? left : -1;
    int r = lens[3] > 0 ? right : -1;
    return List.of(
        t,
        t != -1 && r != -1 ? corners[0] : -1,
        r,
        b != -1 && r != -1 ? corners[1] : -1,
        b,
        b != -1 && l != -1 ? corners[2] : -1,
        l,
        t != -1 && l != -1 ? corners[3] : -1);
  }

  /** Whether {@code rank} holds the last slice of {@code x} along {@code dim} (or it is whole). */
  static boolean lastAlong(TensorLayout x, int dim, int rank) {
    return bias(x, dim, rank) == x.strategy().get(dim) - 1;
  }

  /** The slice index of {@code rank} along {@code dim} of {@code x}. */
  private static int bias(TensorLayout x, int dim, int rank) {
    int axis = x.deviceAxisOf(dim);
    return axis < 0 ? 0 : x.deviceMatrix().coordinateOf(rank).get(axis);
  }

  /** The rank holding the slice {@code step} away along {@code dim}, or -1 (none, or no rank). */
  private static int neighbour(TensorLayout x, int dim, int rank, int step) {
    int axis = x.deviceAxisOf(dim);
    if (rank < 0 || axis < 0) {
      return -1;
    }
    List<Integer> along = x.deviceMatrix().devicesAlongAxis(rank, axis);
    int at = along.indexOf(rank) + step;
    return at < 0 || at >= along.size() ? -1 : along.get(at);
  }

  /**
   * CheckOverlapSizeNonNegative and InferCommunicationAttrs' length checks, over every slice: each
   * overlap is non-negative and no send or receive is longer than a slice.
   */
  private static String overlapProblem(Dim[] dims, Shape x) {
    for (int a = 0; a < 2; a++) {
      Dim d = dims[a];
      if (!d.exchange) {
        continue;
      }
      String dim = (2 + a) + "th dimension";
      String[] sides = a == 0 ? new String[] {"top", "bottom"} : new String[] {"left", "right"};
      long first = d.overlapAfter(0);
      if (first < 0) {
        return "The "
            + sides[1]
            + " overlap size of "
            + dim
            + " rank bias 0 must be positive, but it is "
            + first;
      }
      for (int b = 1; b < d.split - 1; b++) {
        if (d.overlapBefore(b) < 0 || d.overlapAfter(b) < 0) {
          return "The overlap size of "
              + dim
              + " rank bias "
              + b
              + " must be positive, but "
              + sides[0]
              + " overlap size is "
              + d.overlapBefore(b)
              + ", "
              + sides[1]
              + " overlap size is "
              + d.overlapAfter(b);
        }
      }
      long last = d.overlapBefore(d.split - 1);
      if (last < 0) {
        return "The "
            + sides[0]
            + " overlap size of "
            + dim
            + " last rank bias must be positive, but it is "
            + last;
      }
      int slice = x.dim(2 + a) / d.split;
      for (int b = 0; b < d.split; b++) {
        if (Math.max(
                Math.max(d.sendBefore(b), d.sendAfter(b)),
                Math.max(d.recvBefore(b), d.recvAfter(b)))
            > slice) {
          return "The send or recv len larger than slice shape of " + dim + " " + slice;
        }
      }
    }
    return null;
  }

  /**
   * Conv2D's pad list (top, bottom, left, right) as MindSpore's inference sets it: "same" splits
   * the needed padding with the smaller half first, "pad" takes {@code pad} with the trailing pads
   * trimmed of rows the stride never reaches (Conv2DInfo::AdjustPadList), "valid" none.
   */
  private static int[] padList(
      Attrs attrs, String mode, Shape x, int[] extent, Shape out, int[] stride) {
    int[] pad = NnRules.pads(attrs);
    for (int a = 0; a < 2; a++) {
      int k = extent[a];
      int in = x.dim(2 + a);
      switch (mode) {
        case "same" -> {
          int needed = Math.max(0, (out.dim(2 + a) - 1) * stride[a] + k - in);
          pad[2 * a] = needed / 2;
          pad[2 * a + 1] = needed - needed / 2;
        }
        case "pad" -> pad[2 * a + 1] = trimmed(in, pad[2 * a], pad[2 * a + 1], k, stride[a]);
        default -> {}
      }
    }
    return pad;
  }

  /**
   * AdjustPadList along one dim: the trailing pad less the rows the stride never reaches ({@code
   * (in + before + after - k) % stride}), 0 where that exceeds it.
   */
  static int trimmed(int in, int before, int after, int k, int stride) {
    int useless = (in + before + after - k) % stride;
    return useless > after ? 0 : after - useless;
  }
}
