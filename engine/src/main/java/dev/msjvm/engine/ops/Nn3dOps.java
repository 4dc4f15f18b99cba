package dev.msjvm.engine.ops;

import static dev.msjvm.engine.ops.ElementwiseOps.one;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.parallel.rules.Nn3dRules;
import dev.msjvm.engine.tensor.Convolution3d;
import dev.msjvm.engine.tensor.Pooling3d;
import java.util.EnumSet;
import java.util.List;

/**
 * MindSpore's Conv3D, MaxPool3D and AvgPool3D on NCDHW tensors, with their gradients
 * (Conv3DBackpropInput, Conv3DBackpropFilter, MaxPool3DGrad, AvgPool3DGrad), MindSpore 2.10's
 * inference checks and texts (conv3d.cc, max_pool3d.cc, avg_pool_3d.cc), and their sharding rules
 * ({@link Nn3dRules}).
 *
 * <p>The window geometry (pads per mode, output size) is {@link Window3d}'s, read from the same
 * attributes in the inference, the kernel and the sharding rule. The gradients get the forward's
 * attributes plus {@code input_shape} or {@code filter_shape} (as Conv2D's do), so a partitioned
 * rank's local pads reach them the same way. Conv3D's gradient is MindSpore's bprop: dx =
 * Conv3DBackpropInput(dy, w), dw = Conv3DBackpropFilter(dy, x); MaxPool3D's is MaxPool3DGrad(x, dy)
 * (the gradient goes to the first maximum of each window); AvgPool3D's is AvgPool3DGrad(dy) with
 * the input's shape as {@code origin_input_shape} (MindSpore passes it as a first input).
 */
public final class Nn3dOps {
  private Nn3dOps() {}

  private static final AcceptedTypes CONV_TYPES =
      new AcceptedTypes(
          EnumSet.of(DType.FLOAT16, DType.FLOAT32, DType.BFLOAT16),
          "x",
          "Tensor[BFloat16], Tensor[Float16], Tensor[Float32]");

  private static final AcceptedTypes GRAD_TYPES =
      new AcceptedTypes(AcceptedTypes.FLOATS, "grad", AcceptedTypes.FLOAT3);

  private static final AcceptedTypes POOL_TYPES =
      new AcceptedTypes(AcceptedTypes.FLOATS, "x", AcceptedTypes.FLOAT3);

  static List<OpDef> defs() {
    return List.of(
        OpDef.of(
                "Conv3D",
                c -> {
                  Window3d g = conv3dWindow(c.attrs(), c.in(0).type(), c.in(1).type());
                  return one(
                      Convolution3d.conv3d(
                          c.in(0),
                          c.in(1),
                          g.pad(),
                          g.stride(),
                          g.dilation(),
                          groups(c.attrs()),
                          c.blas()));
                },
                NnOps.convolutionGrad("Conv3DBackpropInput", "Conv3DBackpropFilter"))
            .infers(Infer.one((a, in) -> conv3dType(a, in.get(0), in.get(1))))
            .role(CostRole.GENERAL)
            .shards(Nn3dRules.conv3d()),
        OpDef.of(
                "Conv3DBackpropInput",
                c -> {
                  Shape x = new Shape(c.attrs().ints("input_shape"));
                  Window3d g = Window3d.conv3d(c.attrs(), x, c.in(1).shape());
                  return one(
                      Convolution3d.conv3dBackpropInput(
                          c.in(0),
                          c.in(1),
                          x,
                          g.pad(),
                          g.stride(),
                          g.dilation(),
                          groups(c.attrs()),
                          c.blas()));
                },
                GradRule.UNDEFINED)
            .infers(
                Infer.one(
                    (a, in) -> {
                      Shape x = new Shape(a.ints("input_shape"));
                      gradCheck("Conv3DBackpropInput", a, x, in.get(1).shape(), in.get(0));
                      return in.get(0).withShape(x);
                    }))
            .role(CostRole.GENERAL)
            .shards(Nn3dRules.conv3dBackpropInput()),
        OpDef.of(
                "Conv3DBackpropFilter",
                c -> {
                  Shape w = new Shape(c.attrs().ints("filter_shape"));
                  Window3d g = Window3d.conv3d(c.attrs(), c.in(1).shape(), w);
                  return one(
                      Convolution3d.conv3dBackpropFilter(
                          c.in(0),
                          c.in(1),
                          w,
                          g.pad(),
                          g.stride(),
                          g.dilation(),
                          groups(c.attrs()),
                          c.blas()));
                },
                GradRule.UNDEFINED)
            .infers(
                Infer.one(
                    (a, in) -> {
                      Shape w = new Shape(a.ints("filter_shape"));
                      gradCheck("Conv3DBackpropFilter", a, in.get(1).shape(), w, in.get(0));
                      return in.get(0).withShape(w);
                    }))
            .role(CostRole.GENERAL)
            .shards(Nn3dRules.conv3dBackpropFilter()),
        OpDef.of(
                "MaxPool3D",
                c -> {
                  Window3d g = pool3dWindow(c.attrs(), c.in(0).type());
                  return one(
                      Pooling3d.maxPool3d(c.in(0), g.kernel(), g.stride(), g.pad(), g.out()));
                },
                g -> one(g.op("MaxPool3DGrad", g.attrs(), g.in(0), g.dout(0))))
            .infers(
                Infer.one(
                    (a, in) -> {
                      Window3d g = pool3dWindow(a, in.get(0));
                      Shape x = in.get(0).shape();
                      return in.get(0).withShape(g.outShape(x.dim(0), x.dim(1)));
                    }))
            .role(CostRole.GENERAL)
            .shards(Nn3dRules.maxPool3d()),
        OpDef.of(
                "MaxPool3DGrad",
                c -> {
                  Window3d g = Window3d.pool3d("MaxPool3DGrad", c.attrs(), c.in(0).shape());
                  return one(
                      Pooling3d.maxPool3dGrad(c.in(0), c.in(1), g.kernel(), g.stride(), g.pad()));
                },
                GradRule.UNDEFINED)
            .infers(
                Infer.one(
                    (a, in) -> {
                      Shape x = in.get(0).shape();
                      Window3d g = Window3d.pool3d("MaxPool3DGrad", a, x);
                      Shape y = g.outShape(x.dim(0), x.dim(1));
                      if (!in.get(1).shape().equals(y)) {
                        throw MsException.valueError(
                            "For 'MaxPool3DGrad', the shape of 'grads' must be "
                                + y
                                + ", but got "
                                + in.get(1).shape()
                                + ".");
                      }
                      return in.get(0);
                    }))
            .role(CostRole.GENERAL)
            .shards(Nn3dRules.maxPool3dGrad()),
        OpDef.of(
                "AvgPool3D",
                c -> {
                  Window3d g = avgPool3dWindow(c.attrs(), c.in(0).type());
                  return one(
                      Pooling3d.avgPool3d(
                          c.in(0),
                          g.kernel(),
                          g.stride(),
                          g.pad(),
                          g.out(),
                          countIncludePad(c.attrs()),
                          c.attrs().integer("divisor_override", 0)));
                },
                g ->
                    one(
                        g.op(
                            "AvgPool3DGrad",
                            g.attrs().with("origin_input_shape", g.in(0).shape().dims()),
                            g.dout(0))))
            .infers(
                Infer.one(
                    (a, in) -> {
                      Window3d g = avgPool3dWindow(a, in.get(0));
                      Shape x = in.get(0).shape();
                      return in.get(0).withShape(g.outShape(x.dim(0), x.dim(1)));
                    }))
            .role(CostRole.GENERAL)
            .shards(Nn3dRules.avgPool3d()),
        OpDef.of(
                "AvgPool3DGrad",
                c -> {
                  Shape x = new Shape(c.attrs().ints("origin_input_shape"));
                  Window3d g = Window3d.avgPool3d("AvgPool3DGrad", c.attrs(), x);
                  return one(
                      Pooling3d.avgPool3dGrad(
                          x,
                          c.in(0),
                          g.kernel(),
                          g.stride(),
                          g.pad(),
                          countIncludePad(c.attrs()),
                          c.attrs().integer("divisor_override", 0)));
                },
                GradRule.UNDEFINED)
            .infers(
                Infer.one(
                    (a, in) -> {
                      Shape x = new Shape(a.ints("origin_input_shape"));
                      rank("AvgPool3DGrad", "grad_rank", in.get(0).shape());
                      Window3d g = Window3d.avgPool3d("AvgPool3DGrad", a, x);
                      Shape y = g.outShape(x.dim(0), x.dim(1));
                      if (!in.get(0).shape().equals(y)) {
                        throw MsException.valueError(
                            "For 'AvgPool3DGrad', the shape of 'grads' must be "
                                + y
                                + ", but got "
                                + in.get(0).shape()
                                + ".");
                      }
                      GRAD_TYPES.check("AvgPool3DGrad", in.get(0).dtype());
                      return in.get(0).withShape(x);
                    }))
            .role(CostRole.GENERAL)
            .shards(Nn3dRules.avgPool3dGrad()));
  }

  private static boolean countIncludePad(Attrs a) {
    Object v = a.has("count_include_pad") ? a.get("count_include_pad") : Boolean.TRUE;
    return v instanceof Boolean b ? b : v instanceof Number n && n.intValue() != 0;
  }

  /** AvgPool3D's inference (avg_pool_3d.cc): rank 5, its window, a positive output, its types. */
  private static Window3d avgPool3dWindow(Attrs a, AbstractTensor x) {
    String op = "AvgPool3D";
    POOL_TYPES.check(op, x.dtype()); // AvgPool3DInfer: the type before the shape
    rank(op, "x_rank", x.shape());
    Window3d g = Window3d.avgPool3d(op, a, x.shape());
    Shape out = g.outShape(x.shape().dim(0), x.shape().dim(1));
    if (out.dims().stream().anyMatch(v -> v <= 0)) {
      throw MsException.runtimeError(
          "For '"
              + op
              + "', output shape's all elements must be positive, but got shape: "
              + MsException.vector(out.dims())
              + ".Please check input parameter!");
    }
    return g;
  }

  private static int groups(Attrs a) {
    return a.has("groups") ? a.integer("groups") : a.integer("group", 1);
  }

  /** Conv3D's inference (conv3d.cc): ranks, channels, kernel, types; its window. */
  private static Window3d conv3dWindow(Attrs a, AbstractTensor x, AbstractTensor w) {
    String op = "Conv3D";
    rank(op, "x shape size", x.shape());
    rank(op, "w shape size", w.shape());
    Shape xs = x.shape();
    Shape ws = w.shape();
    int group = groups(a);
    if (xs.dim(1) / group != ws.dim(1)) {
      throw MsException.valueError(
          "For '"
              + op
              + "', 'C_in' of input 'x' shape divide by parameter 'group' must be equal to 'C_in'"
              + " of input 'weight' shape: "
              + ws.dim(1)
              + ", but got 'C_in' of input 'x' shape: "
              + xs.dim(1)
              + ", and 'group': "
              + group
              + ".");
    }
    if (a.has("out_channel") && ws.dim(0) != a.integer("out_channel")) {
      throw MsException.valueError(
          "For '"
              + op
              + "', 'w_shape[0]' must be equal to 'out_channel', but got 'w_shape[0]': "
              + ws.dim(0)
              + ", 'out_channel': "
              + a.integer("out_channel")
              + ".");
    }
    if (a.has("kernel_size")) {
      List<Integer> k = a.ints("kernel_size");
      for (int i = 0; i < 3; i++) {
        int want = k.get(k.size() == 1 ? 0 : i);
        if (ws.dim(2 + i) != want) {
          throw MsException.valueError(
              "For '"
                  + op
                  + "', 'w_shape["
                  + (2 + i)
                  + "]' must be equal to 'kernel_size["
                  + i
                  + "]', but got 'w_shape["
                  + (2 + i)
                  + "]': "
                  + ws.dim(2 + i)
                  + ", 'kernel_size["
                  + i
                  + "]': "
                  + want
                  + ".");
        }
      }
    }
    CONV_TYPES.check(op, x.dtype());
    if (x.dtype() != w.dtype()) {
      throw MsException.typeError("For primitive[" + op + "], the input type must be same.");
    }
    Window3d g = Window3d.conv3d(a, xs, ws);
    for (int o : g.out()) {
      if (o <= 0) {
        throw MsException.valueError(
            "For '"
                + op
                + " output_shape',  shape element [2] must be positive integer or -1 or -2, but"
                + " got: "
                + o
                + ".");
      }
    }
    return g;
  }

  private static AbstractTensor conv3dType(Attrs a, AbstractTensor x, AbstractTensor w) {
    Window3d g = conv3dWindow(a, x, w);
    return x.withShape(g.outShape(x.shape().dim(0), w.shape().dim(0)));
  }

  /** A Conv3D gradient's check: the forward's geometry fits the output gradient {@code dy}. */
  private static void gradCheck(String op, Attrs a, Shape x, Shape w, AbstractTensor dy) {
    Window3d g = Window3d.conv3d(a, x, w);
    Shape y = g.outShape(x.dim(0), w.dim(0));
    if (!dy.shape().equals(y)) {
      throw MsException.valueError(
          "For '" + op + "', the shape of 'dout' must be " + y + ", but got " + dy.shape() + ".");
    }
  }

  /** MaxPool3D's inference (max_pool3d.cc): rank 5, its attributes, a positive output. */
  private static Window3d pool3dWindow(Attrs a, AbstractTensor x) {
    String op = "MaxPool3D";
    rank(op, "x_rank", x.shape());
    Window3d g = Window3d.pool3d(op, a, x.shape());
    Shape out = g.outShape(x.shape().dim(0), x.shape().dim(1));
    if (out.dims().stream().anyMatch(v -> v <= 0)) {
      throw MsException.valueError(
          "For '"
              + op
              + "', output shape's all elements must be positive, but got shape: "
              + MsException.vector(out.dims())
              + ".");
    }
    POOL_TYPES.check(op, x.dtype());
    return g;
  }

  private static void rank(String op, String what, Shape s) {
    if (s.rank() != 5) {
      throw MsException.valueError(
          "For primitive["
              + op
              + "], the "
              + what
              + " must be equal to 5, but got "
              + s.rank()
              + ".");
    }
  }
}
