package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.Blas;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.Locale;

/**
 * MindSpore's {@code Conv2D} (NCHW, grouped or not) and its two gradients, {@code
 * Conv2DBackpropInput} and {@code Conv2DBackpropFilter}, lowered to im2col plus one {@link Blas}
 * GEMM per image.
 *
 * <p>Weights are {@code [out, in / group, kh, kw]}; group {@code g} convolves input channels {@code
 * [g*in/group, (g+1)*in/group)} into output channels {@code [g*out/group, (g+1)*out/group)}. {@code
 * pad} is {@code (top, bottom, left, right)} and must be all zero unless {@code padMode} is {@code
 * "pad"}; {@code stride} and {@code dilation} are {@code (h, w)}. Output height: valid {@code
 * floor((H - d*(kh-1) - 1)/s) + 1}; same {@code ceil(H/s)} with the total padding split as
 * MindSpore does (top gets {@code total/2}, bottom the rest); pad {@code floor((H + top + bottom -
 * d*(kh-1) - 1)/s) + 1}. Arithmetic is float32; float16, bfloat16 and float64 inputs are computed
 * in float32 and rounded back to their type. Example: a {@code [1, 1, 3, 3]} input of ones and a
 * {@code [1, 1, 2, 2]} kernel of ones give a {@code [1, 1, 2, 2]} output of fours with pad mode
 * valid.
 */
public final class Convolution {
  private Convolution() {}

  /** The resolved geometry of one convolution: output size and leading (top/left) padding. */
  private record Geometry(
      int n,
      int groups,
      int c,
      int h,
      int w,
      int o,
      int kh,
      int kw,
      int oh,
      int ow,
      int[] p,
      int[] s,
      int[] d) {
    /** Rows of one group's im2col matrix ({@code c} is a group's input channels). */
    int colRows() {
      return c * kh * kw;
    }

    /** Output channels per group. */
    int og() {
      return o / groups;
    }

    /** Offset of image {@code b}, group {@code gi}'s input planes. */
    int xOff(int b, int gi) {
      return (b * groups + gi) * c * h * w;
    }

    /** Offset of image {@code b}, group {@code gi}'s output planes. */
    int yOff(int b, int gi) {
      return (b * o + gi * og()) * colCols();
    }

    int colCols() {
      return oh * ow;
    }
  }

  /**
   * {@code Conv2D(x, w)}: {@code x} is {@code [N, C, H, W]}, {@code w} is {@code [O, C, kh, kw]}.
   */
  public static Tensor conv2d(
      Tensor x,
      Tensor w,
      String padMode,
      int[] pad,
      int[] stride,
      int[] dilation,
      int group,
      Blas blas) {
    conv2dType(x.type(), w.type(), padMode, pad, stride, dilation, group);
    Geometry g = geometry("Conv2D", x.shape(), w.shape(), padMode, pad, stride, dilation, group);
    float[] xs = KernelSupport.asFloat32(x).floats();
    float[] ws = KernelSupport.asFloat32(w).floats();
    float[] out = FloatPool.zeroed(g.n * g.o * g.colCols());
    float[] col = new float[g.colRows() * g.colCols()];
    for (int b = 0; b < g.n && col.length > 0 && g.o > 0; b++) {
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
            gi * g.og() * g.colRows(),
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
    return back(Tensor.ofFloats(Shape.of(g.n, g.o, g.oh, g.ow), out), x.dtype());
  }

  /**
   * {@code Conv2DBackpropInput(dy, w, xShape)}: the gradient of {@link #conv2d} with respect to its
   * input, i.e. {@code col2im(w^T @ dy)}; {@code dy} must have the forward output's shape.
   */
  public static Tensor conv2dBackpropInput(
      Tensor dy,
      Tensor w,
      Shape xShape,
      String padMode,
      int[] pad,
      int[] stride,
      int[] dilation,
      int group,
      Blas blas) {
    conv2dBackpropInputType(dy.type(), w.type(), xShape, padMode, pad, stride, dilation, group);
    Geometry g =
        geometry("Conv2DBackpropInput", xShape, w.shape(), padMode, pad, stride, dilation, group);
    float[] dys = KernelSupport.asFloat32(dy).floats();
    float[] ws = KernelSupport.asFloat32(w).floats();
    float[] dx = FloatPool.zeroed(g.n * g.groups * g.c * g.h * g.w);
    float[] col = new float[g.colRows() * g.colCols()];
    for (int b = 0; b < g.n && col.length > 0; b++) {
      for (int gi = 0; gi < g.groups; gi++) {
        if (g.og() > 0) {
          blas.sgemm(
              true,
              false,
              g.colRows(),
              g.colCols(),
              g.og(),
              1f,
              ws,
              gi * g.og() * g.colRows(),
              g.colRows(),
              dys,
              g.yOff(b, gi),
              g.colCols(),
              0f,
              col,
              0,
              g.colCols());
        } else {
          java.util.Arrays.fill(col, 0f);
        }
        col2im(col, g, dx, g.xOff(b, gi));
      }
    }
    return back(Tensor.ofFloats(xShape, dx), dy.dtype());
  }

  /**
   * {@code Conv2DBackpropFilter(dy, x, wShape)}: the gradient of {@link #conv2d} with respect to
   * its weight, {@code sum over images of dy @ im2col(x)^T}.
   */
  public static Tensor conv2dBackpropFilter(
      Tensor dy,
      Tensor x,
      Shape wShape,
      String padMode,
      int[] pad,
      int[] stride,
      int[] dilation,
      int group,
      Blas blas) {
    conv2dBackpropFilterType(dy.type(), x.type(), wShape, padMode, pad, stride, dilation, group);
    Geometry g =
        geometry("Conv2DBackpropFilter", x.shape(), wShape, padMode, pad, stride, dilation, group);
    float[] dys = KernelSupport.asFloat32(dy).floats();
    float[] xs = KernelSupport.asFloat32(x).floats();
    float[] dw = FloatPool.zeroed(g.o * g.colRows());
    float[] col = new float[g.colRows() * g.colCols()];
    for (int b = 0; b < g.n && dw.length > 0 && g.colCols() > 0; b++) {
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
            gi * g.og() * g.colRows(),
            g.colRows());
      }
    }
    return back(Tensor.ofFloats(wShape, dw), dy.dtype());
  }

  /** The type {@link #conv2d} gives, with its errors; reads no values. */
  public static AbstractTensor conv2dType(
      AbstractTensor x,
      AbstractTensor w,
      String padMode,
      int[] pad,
      int[] stride,
      int[] dilation,
      int group) {
    checkTypes("Conv2D", x, w);
    Geometry g = geometry("Conv2D", x.shape(), w.shape(), padMode, pad, stride, dilation, group);
    return x.withShape(Shape.of(g.n, g.o, g.oh, g.ow));
  }

  /** The type {@link #conv2dBackpropInput} gives, with its errors; reads no values. */
  public static AbstractTensor conv2dBackpropInputType(
      AbstractTensor dy,
      AbstractTensor w,
      Shape xShape,
      String padMode,
      int[] pad,
      int[] stride,
      int[] dilation,
      int group) {
    checkTypes("Conv2DBackpropInput", dy, w);
    Geometry g =
        geometry("Conv2DBackpropInput", xShape, w.shape(), padMode, pad, stride, dilation, group);
    KernelSupport.requireShape(
        "Conv2DBackpropInput", "dout", dy.shape(), Shape.of(g.n, g.o, g.oh, g.ow));
    return dy.withShape(xShape);
  }

  /** The type {@link #conv2dBackpropFilter} gives, with its errors; reads no values. */
  public static AbstractTensor conv2dBackpropFilterType(
      AbstractTensor dy,
      AbstractTensor x,
      Shape wShape,
      String padMode,
      int[] pad,
      int[] stride,
      int[] dilation,
      int group) {
    checkTypes("Conv2DBackpropFilter", dy, x);
    Geometry g =
        geometry("Conv2DBackpropFilter", x.shape(), wShape, padMode, pad, stride, dilation, group);
    KernelSupport.requireShape(
        "Conv2DBackpropFilter", "dout", dy.shape(), Shape.of(g.n, g.o, g.oh, g.ow));
    return dy.withShape(wShape);
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

  private static Geometry geometry(
      String op,
      Shape x,
      Shape w,
      String padMode,
      int[] pad,
      int[] stride,
      int[] dilation,
      int group) {
    if (group < 1) {
      throw MsException.valueError(
          "For '" + op + "', the 'group' must be a positive integer, but got " + group + ".");
    }
    if (x.rank() != 4 || w.rank() != 4) {
      throw MsException.valueError(
          "For '"
              + op
              + "', the dimension of 'x' and 'weight' must be 4, but got "
              + x.rank()
              + " and "
              + w.rank()
              + ".");
    }
    checkGroups(op, x, w, group);
    checkPositive(op, "stride", stride, 2);
    checkPositive(op, "dilation", dilation, 2);
    if (pad.length != 4) {
      throw MsException.valueError("For '" + op + "', the 'pad' must have 4 elements.");
    }
    String mode = padMode.toLowerCase(Locale.ROOT);
    boolean anyPad = pad[0] != 0 || pad[1] != 0 || pad[2] != 0 || pad[3] != 0;
    if (!mode.equals("pad") && anyPad) {
      throw MsException.valueError(
          "For '" + op + "', the 'pad' must be zero when 'pad_mode' is not \"pad\".");
    }
    int[] lead = new int[2];
    int[] outSize = new int[2];
    for (int a = 0; a < 2; a++) {
      int in = x.dim(2 + a);
      int k = w.dim(2 + a);
      int extent = dilation[a] * (k - 1) + 1;
      switch (mode) {
        case "valid" -> outSize[a] = Math.floorDiv(in - extent, stride[a]) + 1;
        case "same" -> {
          outSize[a] = Math.ceilDiv(in, stride[a]);
          int total = Math.max(0, (outSize[a] - 1) * stride[a] + extent - in);
          lead[a] = total / 2; // MindSpore: top/left gets the floor half, bottom/right the rest
        }
        case "pad" -> {
          if (pad[2 * a] < 0 || pad[2 * a + 1] < 0) {
            throw MsException.valueError("For '" + op + "', the 'pad' must be non-negative.");
          }
          outSize[a] = Math.floorDiv(in + pad[2 * a] + pad[2 * a + 1] - extent, stride[a]) + 1;
          lead[a] = pad[2 * a];
        }
        default ->
            throw MsException.valueError(
                "For '"
                    + op
                    + "', the 'pad_mode' must be one of ['valid', 'same', 'pad'], but got '"
                    + padMode
                    + "'.");
      }
      if (outSize[a] <= 0) {
        throw MsException.valueError(
            "For '"
                + op
                + "', the kernel (with dilation) is larger than the padded input, shape "
                + x
                + ".");
      }
    }
    return new Geometry(
        x.dim(0),
        group,
        x.dim(1) / group,
        x.dim(2),
        x.dim(3),
        w.dim(0),
        w.dim(2),
        w.dim(3),
        outSize[0],
        outSize[1],
        lead,
        stride,
        dilation);
  }

  /**
   * The channel checks every convolution makes, in MindSpore's order and texts: {@code C_in} of the
   * input equals {@code group} times {@code C_in} of the weight, and {@code out_channel} is a
   * multiple of {@code group}. Shared with {@link Convolution3d}.
   */
  static void checkGroups(String op, Shape x, Shape w, int group) {
    if (x.dim(1) != w.dim(1) * group) {
      throw MsException.valueError(
          "For '"
              + op
              + "', 'C_in' of input 'x' shape divide by parameter 'group' must be equal to 'C_in'"
              + " of input 'weight' shape: "
              + w.dim(1)
              + ", but got 'C_in' of input 'x' shape: "
              + x.dim(1)
              + ", and 'group': "
              + group
              + ".");
    }
    if (w.dim(0) % group != 0) {
      throw MsException.valueError(
          "For '"
              + op
              + "', 'out_channel' must be divisible by 'group', but got 'out_channel': "
              + w.dim(0)
              + " and 'group': "
              + group
              + ".");
    }
  }

  private static void checkPositive(String op, String name, int[] v, int len) {
    if (v.length != len || v[0] <= 0 || v[1] <= 0) {
      throw MsException.valueError(
          "For '" + op + "', the '" + name + "' must be " + len + " positive integers.");
    }
  }

  /** Fills {@code col[(c*kh+i)*kw+j][oy*ow+ox]} with the padded input under each kernel tap. */
  private static void im2col(float[] x, int xOff, Geometry g, float[] col) {
    int cols = g.colCols();
    for (int c = 0; c < g.c; c++) {
      for (int i = 0; i < g.kh; i++) {
        for (int j = 0; j < g.kw; j++) {
          int row = ((c * g.kh + i) * g.kw + j) * cols;
          for (int oy = 0; oy < g.oh; oy++) {
            int y = oy * g.s[0] - g.p[0] + i * g.d[0];
            for (int ox = 0; ox < g.ow; ox++) {
              int xx = ox * g.s[1] - g.p[1] + j * g.d[1];
              boolean in = y >= 0 && y < g.h && xx >= 0 && xx < g.w;
              col[row + oy * g.ow + ox] = in ? x[xOff + (c * g.h + y) * g.w + xx] : 0f;
            }
          }
        }
      }
    }
  }

  /** The adjoint of {@link #im2col}: adds each column entry back onto its input pixel. */
  private static void col2im(float[] col, Geometry g, float[] x, int xOff) {
    int cols = g.colCols();
    for (int c = 0; c < g.c; c++) {
      for (int i = 0; i < g.kh; i++) {
        for (int j = 0; j < g.kw; j++) {
          int row = ((c * g.kh + i) * g.kw + j) * cols;
          for (int oy = 0; oy < g.oh; oy++) {
            int y = oy * g.s[0] - g.p[0] + i * g.d[0];
            if (y < 0 || y >= g.h) {
              continue;
            }
            for (int ox = 0; ox < g.ow; ox++) {
              int xx = ox * g.s[1] - g.p[1] + j * g.d[1];
              if (xx >= 0 && xx < g.w) {
                x[xOff + (c * g.h + y) * g.w + xx] += col[row + oy * g.ow + ox];
              }
            }
          }
        }
      }
    }
  }
}
