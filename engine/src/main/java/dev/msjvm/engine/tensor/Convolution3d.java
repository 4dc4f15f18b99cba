package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.Blas;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;

/**
 * MindSpore's {@code Conv3D} (NCDHW, grouped or not) and its two gradients, {@code
 * Conv3DBackpropInput} and {@code Conv3DBackpropFilter}, lowered to a 3-D im2col plus one {@link
 * Blas} GEMM per image and group.
 *
 * <p>Inputs are {@code [N, C, D, H, W]}, weights {@code [O, C / group, kd, kh, kw]}; group {@code
 * g} convolves input channels {@code [g*C/group, (g+1)*C/group)} into output channels {@code
 * [g*O/group, (g+1)*O/group)}. Padding is explicit (the op layer resolves {@code pad_mode}): {@code
 * pad} is {@code (head, tail, top, bottom, left, right)}, i.e. the zeros before and after D, H and
 * W; {@code stride} and {@code dilation} are {@code (d, h, w)}. Each output extent is {@code
 * floor((X + before + after - dilation*(k-1) - 1) / stride) + 1}. Arithmetic is float32; float16,
 * bfloat16 and float64 inputs are computed in float32 and rounded back to their type. Example: a
 * {@code [1, 1, 3, 3, 3]} input of ones and a {@code [1, 1, 2, 2, 2]} kernel of ones, without
 * padding, give a {@code [1, 1, 2, 2, 2]} output of eights.
 */
public final class Convolution3d {
  private Convolution3d() {}

  /**
   * The resolved geometry of one 3-D convolution. {@code c} and {@code o} are all input and output
   * channels; {@code p} holds the leading (head/top/left) padding of each spatial axis.
   */
  private record Geometry(
      int n,
      int groups,
      int c,
      int d,
      int h,
      int w,
      int o,
      int kd,
      int kh,
      int kw,
      int od,
      int oh,
      int ow,
      int[] p,
      int[] s,
      int[] dl) {
    /** Input channels per group. */
    int cg() {
      return c / groups;
    }

    /** Output channels per group. */
    int og() {
      return o / groups;
    }

    /** Rows of one group's im2col matrix: one per (channel, kernel tap). */
    int colRows() {
      return cg() * kd * kh * kw;
    }

    /** Columns of the im2col matrix: one per output position. */
    int colCols() {
      return od * oh * ow;
    }

    /** Offset of image {@code b}, group {@code gi}'s input volumes. */
    int xOff(int b, int gi) {
      return (b * c + gi * cg()) * d * h * w;
    }

    /** Offset of image {@code b}, group {@code gi}'s output volumes. */
    int yOff(int b, int gi) {
      return (b * o + gi * og()) * colCols();
    }

    /** Offset of group {@code gi}'s filters within the weight. */
    int wOff(int gi) {
      return gi * og() * colRows();
    }

    Shape outShape() {
      return Shape.of(n, o, od, oh, ow);
    }
  }

  /**
   * {@code Conv3D(x, w)}: {@code x} is {@code [N, C, D, H, W]}, {@code w} is {@code [O, C/group,
   * kd, kh, kw]}; the result is {@code [N, O, oD, oH, oW]} in {@code x}'s dtype.
   *
   * <p>Example: {@code conv3d(x, w, new int[6], new int[] {1, 1, 1}, new int[] {1, 1, 1}, 1, blas)}
   * with {@code x} of shape {@code [2, 4, 5, 5, 5]} and {@code w} of shape {@code [8, 4, 3, 3, 3]}
   * has shape {@code [2, 8, 3, 3, 3]}.
   */
  public static Tensor conv3d(
      Tensor x, Tensor w, int[] pad, int[] stride, int[] dilation, int group, Blas blas) {
    checkTypes("Conv3D", x.type(), w.type());
    Geometry g = geometry("Conv3D", x.shape(), w.shape(), pad, stride, dilation, group);
    float[] xs = KernelSupport.asFloat32(x).floats();
    float[] ws = KernelSupport.asFloat32(w).floats();
    float[] out = FloatPool.zeroed(checkedSize("Conv3D", g.outShape()));
    boolean work = g.og() > 0 && g.colRows() > 0 && g.colCols() > 0;
    float[] col = work ? new float[colSize("Conv3D", g)] : new float[0];
    for (int b = 0; b < g.n && work; b++) {
      for (int gi = 0; gi < g.groups; gi++) {
        im2col(xs, g.xOff(b, gi), g, col);
        blas.sgemm(
            false,
            false,
            g.og(),
            g.colCols(),
            g.colRows(),
            1f,
            ws,
            g.wOff(gi),
            g.colRows(),
            col,
            0,
            g.colCols(),
            0f,
            out,
            g.yOff(b, gi),
            g.colCols());
      }
    }
    return back(Tensor.ofFloats(g.outShape(), out), x.dtype());
  }

  /**
   * {@code Conv3DBackpropInput(dy, w, xShape)}: the gradient of {@link #conv3d} with respect to its
   * input, {@code col2im(w^T @ dy)} per image and group. {@code dy} must have the forward output's
   * shape; the result has {@code xShape} and {@code dy}'s dtype.
   *
   * <p>Example: for the {@code conv3d} example above, {@code conv3dBackpropInput(dy, w, Shape.of(2,
   * 4, 5, 5, 5), ...)} takes a {@code [2, 8, 3, 3, 3]} {@code dy}.
   */
  public static Tensor conv3dBackpropInput(
      Tensor dy,
      Tensor w,
      Shape xShape,
      int[] pad,
      int[] stride,
      int[] dilation,
      int group,
      Blas blas) {
    String op = "Conv3DBackpropInput";
    checkTypes(op, dy.type(), w.type());
    Geometry g = geometry(op, xShape, w.shape(), pad, stride, dilation, group);
    KernelSupport.requireShape(op, "dout", dy.shape(), g.outShape());
    float[] dys = KernelSupport.asFloat32(dy).floats();
    float[] ws = KernelSupport.asFloat32(w).floats();
    float[] dx = FloatPool.zeroed(checkedSize(op, xShape));
    // With no output channels per group the gradient is zero, which dx already is.
    boolean work = g.og() > 0 && g.colRows() > 0 && g.colCols() > 0;
    float[] col = work ? new float[colSize(op, g)] : new float[0];
    for (int b = 0; b < g.n && work; b++) {
      for (int gi = 0; gi < g.groups; gi++) {
        blas.sgemm(
            true,
            false,
            g.colRows(),
            g.colCols(),
            g.og(),
            1f,
            ws,
            g.wOff(gi),
            g.colRows(),
            dys,
            g.yOff(b, gi),
            g.colCols(),
            0f,
            col,
            0,
            g.colCols());
        col2im(col, g, dx, g.xOff(b, gi));
      }
    }
    return back(Tensor.ofFloats(xShape, dx), dy.dtype());
  }

  /**
   * {@code Conv3DBackpropFilter(dy, x, wShape)}: the gradient of {@link #conv3d} with respect to
   * its weight, {@code sum over images of dy @ im2col(x)^T} per group. {@code dy} must have the
   * forward output's shape; the result has {@code wShape} and {@code dy}'s dtype.
   *
   * <p>Example: for the {@code conv3d} example above, {@code conv3dBackpropFilter(dy, x,
   * Shape.of(8, 4, 3, 3, 3), ...)} gives the {@code [8, 4, 3, 3, 3]} weight gradient.
   */
  public static Tensor conv3dBackpropFilter(
      Tensor dy,
      Tensor x,
      Shape wShape,
      int[] pad,
      int[] stride,
      int[] dilation,
      int group,
      Blas blas) {
    String op = "Conv3DBackpropFilter";
    checkTypes(op, dy.type(), x.type());
    Geometry g = geometry(op, x.shape(), wShape, pad, stride, dilation, group);
    KernelSupport.requireShape(op, "dout", dy.shape(), g.outShape());
    float[] dys = KernelSupport.asFloat32(dy).floats();
    float[] xs = KernelSupport.asFloat32(x).floats();
    float[] dw = FloatPool.zeroed(checkedSize(op, wShape));
    // With no output positions (or no images) nothing is summed and the gradient stays zero.
    boolean work = g.og() > 0 && g.colRows() > 0 && g.colCols() > 0;
    float[] col = work ? new float[colSize(op, g)] : new float[0];
    for (int b = 0; b < g.n && work; b++) {
      for (int gi = 0; gi < g.groups; gi++) {
        im2col(xs, g.xOff(b, gi), g, col);
        // beta = 1 accumulates the per-image contributions in place.
        blas.sgemm(
            false,
            true,
            g.og(),
            g.colRows(),
            g.colCols(),
            1f,
            dys,
            g.yOff(b, gi),
            g.colCols(),
            col,
            0,
            g.colCols(),
            1f,
            dw,
            g.wOff(gi),
            g.colRows());
      }
    }
    return back(Tensor.ofFloats(wShape, dw), dy.dtype());
  }

  /**
   * The shape {@link #conv3d} gives for input shape {@code x} and weight shape {@code w}: {@code
   * [N, O, oD, oH, oW]}, with the rank, padding, stride and dilation checks; the channel and group
   * checks need {@code group} and are left to the kernels.
   *
   * <p>Example: {@code outputShape(Shape.of(1, 2, 8, 8, 8), Shape.of(4, 2, 3, 3, 3), new int[] {1,
   * 1, 1, 1, 1, 1}, new int[] {2, 2, 2}, new int[] {1, 1, 1})} is {@code [1, 4, 4, 4, 4]}.
   */
  public static Shape outputShape(Shape x, Shape w, int[] pad, int[] stride, int[] dilation) {
    checkRanks("Conv3D", x, w);
    int[] out = spatialOutput("Conv3D", x, w, pad, stride, dilation);
    return Shape.of(x.dim(0), w.dim(0), out[0], out[1], out[2]);
  }

  private static void checkTypes(String op, AbstractTensor a, AbstractTensor b) {
    KernelSupport.requireFloat(op, "x", a);
    if (a.dtype() != b.dtype()) {
      throw MsException.typeError(
          "For '"
              + op
              + "', the inputs must have the same type, but got "
              + a.dtype().mindsporeName()
              + " and "
              + b.dtype().mindsporeName()
              + ".");
    }
  }

  private static Tensor back(Tensor f32, DType t) {
    return t == DType.FLOAT32 ? f32 : f32.astype(t);
  }

  private static void checkRanks(String op, Shape x, Shape w) {
    if (x.rank() != 5 || w.rank() != 5) {
      throw MsException.valueError(
          "For '"
              + op
              + "', the dimension of 'x' and 'weight' must be 5, but got "
              + x.rank()
              + " and "
              + w.rank()
              + ".");
    }
  }

  /** {@code (oD, oH, oW)}, after checking the lengths and signs of the geometry arguments. */
  private static int[] spatialOutput(
      String op, Shape x, Shape w, int[] pad, int[] stride, int[] dilation) {
    checkPositive(op, "stride", stride);
    checkPositive(op, "dilation", dilation);
    if (pad == null || pad.length != 6) {
      throw MsException.valueError(
          "For '"
              + op
              + "', the 'pad' must have 6 elements (head, tail, top, bottom, left, right).");
    }
    for (int v : pad) {
      if (v < 0) {
        throw MsException.valueError(
            "For '" + op + "', the 'pad' must be non-negative, but got " + v + ".");
      }
    }
    int[] out = new int[3];
    for (int a = 0; a < 3; a++) {
      if (w.dim(2 + a) <= 0) {
        throw MsException.valueError(
            "For '" + op + "', the kernel size must be positive, but got weight shape " + w + ".");
      }
      long in = x.dim(2 + a);
      long extent = (long) dilation[a] * (w.dim(2 + a) - 1) + 1;
      long padded = in + pad[2 * a] + pad[2 * a + 1];
      long size = Math.floorDiv(padded - extent, (long) stride[a]) + 1;
      if (in == 0) {
        // An empty input axis gives an empty (or all-padding) output axis, never an error.
        size = Math.max(0, size);
      } else if (size <= 0) {
        throw MsException.valueError(
            "For '"
                + op
                + "', the kernel (with dilation) is larger than the padded input, input shape "
                + x
                + ", weight shape "
                + w
                + ".");
      }
      if (size > Integer.MAX_VALUE) {
        throw MsException.valueError("For '" + op + "', the output is too large.");
      }
      out[a] = (int) size;
    }
    return out;
  }

  private static void checkPositive(String op, String name, int[] v) {
    if (v == null || v.length != 3 || v[0] <= 0 || v[1] <= 0 || v[2] <= 0) {
      throw MsException.valueError(
          "For '" + op + "', the '" + name + "' must be 3 positive integers (d, h, w).");
    }
  }

  private static Geometry geometry(
      String op, Shape x, Shape w, int[] pad, int[] stride, int[] dilation, int group) {
    if (group < 1) {
      throw MsException.valueError(
          "For '" + op + "', the 'group' must be a positive integer, but got " + group + ".");
    }
    checkRanks(op, x, w);
    Convolution.checkGroups(op, x, w, group);
    int[] out = spatialOutput(op, x, w, pad, stride, dilation);
    return new Geometry(
        x.dim(0),
        group,
        x.dim(1),
        x.dim(2),
        x.dim(3),
        x.dim(4),
        w.dim(0),
        w.dim(2),
        w.dim(3),
        w.dim(4),
        out[0],
        out[1],
        out[2],
        new int[] {pad[0], pad[2], pad[4]},
        stride.clone(),
        dilation.clone());
  }

  private static int checkedSize(String op, Shape s) {
    return checkedSize(op, s.size());
  }

  private static int colSize(String op, Geometry g) {
    return checkedSize(op, (long) g.colRows() * g.colCols());
  }

  private static int checkedSize(String op, long n) {
    if (n > Integer.MAX_VALUE - 8) {
      throw MsException.valueError(
          "For '" + op + "', a buffer of " + n + " elements is too large for this kernel.");
    }
    return (int) n;
  }

  /**
   * Fills row {@code ((c*kd + i)*kh + j)*kw + l}, column {@code (z*oh + y)*ow + x} of {@code col}
   * with the padded input under kernel tap {@code (i, j, l)} of output position {@code (z, y, x)}.
   */
  private static void im2col(float[] x, int xOff, Geometry g, float[] col) {
    int cols = g.colCols();
    int plane = g.h * g.w;
    int volume = g.d * plane;
    for (int c = 0; c < g.cg(); c++) {
      int cOff = xOff + c * volume;
      for (int i = 0; i < g.kd; i++) {
        for (int j = 0; j < g.kh; j++) {
          for (int l = 0; l < g.kw; l++) {
            int row = (((c * g.kd + i) * g.kh + j) * g.kw + l) * cols;
            for (int oz = 0; oz < g.od; oz++) {
              int z = oz * g.s[0] - g.p[0] + i * g.dl[0];
              int zRow = row + oz * g.oh * g.ow;
              if (z < 0 || z >= g.d) {
                java.util.Arrays.fill(col, zRow, zRow + g.oh * g.ow, 0f);
                continue;
              }
              for (int oy = 0; oy < g.oh; oy++) {
                int y = oy * g.s[1] - g.p[1] + j * g.dl[1];
                int at = zRow + oy * g.ow;
                if (y < 0 || y >= g.h) {
                  java.util.Arrays.fill(col, at, at + g.ow, 0f);
                  continue;
                }
                int src = cOff + z * plane + y * g.w;
                for (int ox = 0; ox < g.ow; ox++) {
                  int xx = ox * g.s[2] - g.p[2] + l * g.dl[2];
                  col[at + ox] = xx >= 0 && xx < g.w ? x[src + xx] : 0f;
                }
              }
            }
          }
        }
      }
    }
  }

  /** The adjoint of {@link #im2col}: adds each column entry back onto the input element it read. */
  private static void col2im(float[] col, Geometry g, float[] x, int xOff) {
    int cols = g.colCols();
    int plane = g.h * g.w;
    int volume = g.d * plane;
    for (int c = 0; c < g.cg(); c++) {
      int cOff = xOff + c * volume;
      for (int i = 0; i < g.kd; i++) {
        for (int j = 0; j < g.kh; j++) {
          for (int l = 0; l < g.kw; l++) {
            int row = (((c * g.kd + i) * g.kh + j) * g.kw + l) * cols;
            for (int oz = 0; oz < g.od; oz++) {
              int z = oz * g.s[0] - g.p[0] + i * g.dl[0];
              if (z < 0 || z >= g.d) {
                continue;
              }
              for (int oy = 0; oy < g.oh; oy++) {
                int y = oy * g.s[1] - g.p[1] + j * g.dl[1];
                if (y < 0 || y >= g.h) {
                  continue;
                }
                int at = row + (oz * g.oh + oy) * g.ow;
                int dst = cOff + z * plane + y * g.w;
                for (int ox = 0; ox < g.ow; ox++) {
                  int xx = ox * g.s[2] - g.p[2] + l * g.dl[2];
                  if (xx >= 0 && xx < g.w) {
                    x[dst + xx] += col[at + ox];
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}
