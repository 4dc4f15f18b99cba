package dev.msjvm.engine.comm;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.ops.Infer;
import dev.msjvm.engine.ops.OpDef;
import dev.msjvm.engine.tensor.Tensor;
import java.util.List;

/**
 * MindSpore's {@code NeighborExchangeV2} and its gradient, {@code NeighborExchangeV2Grad}, bound to
 * one rank's {@link Communicator}: the halo exchange of an NCHW tensor split over H and W (what a
 * Conv2D whose input is split along H or W needs from its neighbours).
 *
 * <p>Attributes, as MindSpore's: {@code send_rank_ids} and {@code recv_rank_ids}, eight group ranks
 * (or -1) in the order top, top-right, right, bottom-right, bottom, bottom-left, left, top-left;
 * {@code send_lens} and {@code recv_lens}, four lengths (top, bottom, left, right); {@code group}.
 * The exchange sends the rank's first {@code send_lens[top]} rows to its top neighbour, its last
 * {@code send_lens[bottom]} rows to the bottom one, its first/last columns left/right, and the
 * corner blocks diagonally; it returns the input framed by what it receives: shape {@code (N, C, H
 * + recv_top + recv_bottom, W + recv_left + recv_right)}, a block nobody sends left zero.
 *
 * <p>The gradient sends each received block's gradient back to the rank it came from and adds what
 * comes back onto the blocks this rank sent; its own gradient is the exchange again (the exchange
 * is linear and this is its adjoint). Sends are buffered ({@link Communicator#send}), so every rank
 * posts all its sends before it waits for its receives. Values travel in float32, as the other
 * collectives' do.
 */
public final class NeighborExchange {
  private NeighborExchange() {}

  /** Directions in MindSpore's order; {@code (d + 4) % 8} is the opposite one. */
  private static final int DIRECTIONS = 8;

  /** Tags of the gradient's messages (a forward message is tagged with its direction). */
  private static final int GRAD_TAG = 8;

  /** {@code NeighborExchangeV2(x)}. */
  public static OpDef exchange(Communicator comm) {
    return new OpDef(
            "NeighborExchangeV2",
            c -> new Tensor[] {forward(comm, c.attrs(), c.in(0))},
            g -> new Tensor[] {g.apply(exchangeGrad(comm), g.attrs(), g.dout(0))[0]},
            true,
            List.of())
        .infers(Infer.one((a, in) -> typeOf(a, in.get(0), true)));
  }

  /** {@code NeighborExchangeV2Grad(dy)}: {@code dy} has the exchange's output shape. */
  public static OpDef exchangeGrad(Communicator comm) {
    return new OpDef(
            "NeighborExchangeV2Grad",
            c -> new Tensor[] {backward(comm, c.attrs(), c.in(0))},
            g -> new Tensor[] {g.apply(exchange(comm), g.attrs(), g.dout(0))[0]},
            true,
            List.of())
        .infers(Infer.one((a, in) -> typeOf(a, in.get(0), false)));
  }

  /** The halo sizes of one call, with MindSpore's checks of the attributes. */
  private record Halo(int[] sendIds, int[] recvIds, int[] sendLens, int[] recvLens, String group) {
    static Halo of(Attrs a) {
      Halo h =
          new Halo(
              ints(a, "send_rank_ids", DIRECTIONS),
              ints(a, "recv_rank_ids", DIRECTIONS),
              ints(a, "send_lens", 4),
              ints(a, "recv_lens", 4),
              a.string("group"));
      for (int[] lens : List.of(h.sendLens, h.recvLens)) {
        for (int v : lens) {
          if (v < 0) {
            throw MsException.valueError(
                "For 'NeighborExchangeV2', the send_lens and recv_lens must be non-negative, but"
                    + " got "
                    + java.util.Arrays.toString(lens)
                    + ".");
          }
        }
      }
      return h;
    }

    /**
     * The [begin, end) range along one axis of direction {@code d}'s block. Along H the "before"
     * directions are top, top-right and top-left, the "after" ones bottom-*; along W they are
     * *-left and *-right. {@code framed}: in the exchange's output, where the inner extent {@code
     * size} is framed by {@code before} and {@code after}; else in its input, where the blocks are
     * its first {@code before} and last {@code after} elements.
     */
    static int[] range(
        boolean isBefore, boolean isAfter, int size, int before, int after, boolean framed) {
      int lead = framed ? before : 0;
      if (isBefore) {
        return new int[] {0, before};
      }
      if (isAfter) {
        return framed
            ? new int[] {lead + size, lead + size + after}
            : new int[] {size - after, size};
      }
      return new int[] {lead, lead + size};
    }

    static int[] rows(int d, int h, int top, int bottom, boolean framed) {
      return range(d == 0 || d == 1 || d == 7, d == 3 || d == 4 || d == 5, h, top, bottom, framed);
    }

    static int[] cols(int d, int w, int left, int right, boolean framed) {
      return range(d == 5 || d == 6 || d == 7, d == 1 || d == 2 || d == 3, w, left, right, framed);
    }
  }

  private static int[] ints(Attrs a, String name, int size) {
    List<Integer> v = a.ints(name);
    if (v.size() != size) {
      throw MsException.valueError(
          "For 'NeighborExchangeV2', the size of '"
              + name
              + "' must be "
              + size
              + ", but got "
              + v.size()
              + ".");
    }
    return v.stream().mapToInt(Integer::intValue).toArray();
  }

  private static AbstractTensor typeOf(Attrs a, AbstractTensor x, boolean forward) {
    Halo h = Halo.of(a);
    Shape s = x.shape();
    if (s.rank() != 4 && !(s.rank() == 5 && volumes(a))) {
      throw MsException.valueError(
          "For 'NeighborExchangeV2', the input must be 4-D (NCHW), but got shape " + s + ".");
    }
    int sign = forward ? 1 : -1;
    int[] dims = s.toArray();
    dims[2] += sign * (h.recvLens[0] + h.recvLens[1]);
    dims[3] += sign * (h.recvLens[2] + h.recvLens[3]);
    if (dims[2] <= 0 || dims[3] <= 0) {
      throw MsException.valueError(
          "For 'NeighborExchangeV2Grad', the input shape "
              + s
              + " is not larger than the received lengths "
              + java.util.Arrays.toString(h.recvLens)
              + ".");
    }
    return x.withShape(Shape.of(dims));
  }

  private static Tensor forward(Communicator comm, Attrs attrs, Tensor x) {
    Halo h = Halo.of(attrs);
    Shape s = x.shape();
    int n = s.dim(0) * s.dim(1);
    int height = s.dim(2);
    int width = s.dim(3);
    int inner = inner(s);
    float[] in = floats(x);
    for (int d = 0; d < DIRECTIONS; d++) {
      if (h.sendIds[d] >= 0) {
        int[] r = Halo.rows(d, height, h.sendLens[0], h.sendLens[1], false);
        int[] c = scaled(Halo.cols(d, width, h.sendLens[2], h.sendLens[3], false), inner);
        comm.send(block(in, n, height, width * inner, r, c), h.sendIds[d], d, h.group);
      }
    }
    int top = h.recvLens[0];
    int left = h.recvLens[2];
    int oh = height + top + h.recvLens[1];
    int ow = width + left + h.recvLens[3];
    float[] out = new float[n * oh * ow * inner];
    place(
        out,
        n,
        oh,
        ow * inner,
        in,
        new int[] {top, top + height},
        scaled(new int[] {left, left + width}, inner),
        false);
    for (int e = 0; e < DIRECTIONS; e++) {
      if (h.recvIds[e] >= 0) {
        int[] r = Halo.rows(e, height, top, h.recvLens[1], true);
        int[] c = scaled(Halo.cols(e, width, left, h.recvLens[3], true), inner);
        float[] got = new float[n * (r[1] - r[0]) * (c[1] - c[0])];
        comm.recv(got, h.recvIds[e], (e + 4) % DIRECTIONS, h.group);
        place(out, n, oh, ow * inner, got, r, c, false);
      }
    }
    return as(Tensor.ofFloats(framedShape(s, oh, ow), out), x.dtype());
  }

  private static Tensor backward(Communicator comm, Attrs attrs, Tensor dy) {
    Halo h = Halo.of(attrs);
    Shape s = dy.shape();
    int n = s.dim(0) * s.dim(1);
    int oh = s.dim(2);
    int ow = s.dim(3);
    int inner = inner(s);
    int top = h.recvLens[0];
    int left = h.recvLens[2];
    int height = oh - top - h.recvLens[1];
    int width = ow - left - h.recvLens[3];
    float[] in = floats(dy);
    for (int e = 0; e < DIRECTIONS; e++) {
      if (h.recvIds[e] >= 0) {
        int[] r = Halo.rows(e, height, top, h.recvLens[1], true);
        int[] c = scaled(Halo.cols(e, width, left, h.recvLens[3], true), inner);
        comm.send(
            block(in, n, oh, ow * inner, r, c),
            h.recvIds[e],
            GRAD_TAG + (e + 4) % DIRECTIONS,
            h.group);
      }
    }
    float[] dx =
        block(
            in,
            n,
            oh,
            ow * inner,
            new int[] {top, top + height},
            scaled(new int[] {left, left + width}, inner));
    for (int d = 0; d < DIRECTIONS; d++) {
      if (h.sendIds[d] >= 0) {
        int[] r = Halo.rows(d, height, h.sendLens[0], h.sendLens[1], false);
        int[] c = scaled(Halo.cols(d, width, h.sendLens[2], h.sendLens[3], false), inner);
        float[] got = new float[n * (r[1] - r[0]) * (c[1] - c[0])];
        comm.recv(got, h.sendIds[d], GRAD_TAG + d, h.group);
        place(dx, n, height, width * inner, got, r, c, true);
      }
    }
    return as(Tensor.ofFloats(framedShape(s, height, width), dx), dy.dtype());
  }

  /**
   * Whether {@code a} asks for the exchange of a volume: an NCDHW tensor whose D and H are
   * exchanged as H and W are in NCHW, each (d, h) position carrying its W elements along (the
   * partitioner's halo of a Conv3D or MaxPool3D; MindSpore reaches the same exchange by transposing
   * W into the batch around a 4-D NeighborExchangeV2, its Conv3DInfo).
   */
  private static boolean volumes(Attrs a) {
    return a.has("data_format") && a.string("data_format").equals("NCDHW");
  }

  /** The elements one (row, column) position carries: 1 for NCHW, W for NCDHW. */
  private static int inner(Shape s) {
    return s.rank() == 5 ? s.dim(4) : 1;
  }

  private static int[] scaled(int[] range, int inner) {
    return new int[] {range[0] * inner, range[1] * inner};
  }

  /** {@code s} with its dims 2 and 3 replaced. */
  private static Shape framedShape(Shape s, int rows, int cols) {
    int[] dims = s.toArray();
    dims[2] = rows;
    dims[3] = cols;
    return Shape.of(dims);
  }

  /** Rows {@code r} and columns {@code c} of each of the {@code n} planes of {@code x}. */
  private static float[] block(float[] x, int n, int h, int w, int[] r, int[] c) {
    int rows = r[1] - r[0];
    int cols = c[1] - c[0];
    float[] out = new float[n * rows * cols];
    for (int p = 0; p < n; p++) {
      for (int i = 0; i < rows; i++) {
        System.arraycopy(x, (p * h + r[0] + i) * w + c[0], out, (p * rows + i) * cols, cols);
      }
    }
    return out;
  }

  /** Writes (or with {@code add}, adds) {@code block} at rows {@code r}, columns {@code c}. */
  private static void place(
      float[] x, int n, int h, int w, float[] block, int[] r, int[] c, boolean add) {
    int rows = r[1] - r[0];
    int cols = c[1] - c[0];
    for (int p = 0; p < n; p++) {
      for (int i = 0; i < rows; i++) {
        int to = (p * h + r[0] + i) * w + c[0];
        int from = (p * rows + i) * cols;
        if (add) {
          for (int j = 0; j < cols; j++) {
            x[to + j] += block[from + j];
          }
        } else {
          System.arraycopy(block, from, x, to, cols);
        }
      }
    }
  }

  private static float[] floats(Tensor x) {
    return (x.dtype() == DType.FLOAT32 ? x : x.astype(DType.FLOAT32)).floats();
  }

  private static Tensor as(Tensor out, DType dtype) {
    return dtype == DType.FLOAT32 ? out : out.astype(dtype);
  }
}
