package dev.msjvm.engine.ops;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.parallel.rules.OptimizerRules;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import java.util.List;
import java.util.Map;

/**
 * Fused optimizer updates, following MindSpore 2.10's CPU kernels. Each updates its variables in
 * place ({@link Variable#set}) and returns the new values; all are stateful, so a traced training
 * step keeps them.
 *
 * <ul>
 *   <li>{@code ApplyMomentum(var, accum, lr, grad, momentum)} ({@code use_nesterov}): {@code accum
 *       = accum * momentum + grad}; {@code var -= lr * accum}, or with Nesterov {@code var -= grad
 *       * lr + accum * momentum * lr}.
 *   <li>{@code SGD(param, grad, lr, accum, momentum, stat)} ({@code dampening}, {@code
 *       weight_decay}, {@code nesterov}): PyTorch's SGD; {@code stat} (ones at first) marks the
 *       first step, where {@code accum = grad}.
 *   <li>{@code Adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad)} ({@code
 *       use_locking}, {@code use_nesterov}): {@code lr' = lr * sqrt(1 - beta2_power) / (1 -
 *       beta1_power)}, {@code m += (g - m) * (1 - beta1)}, {@code v += (g*g - v) * (1 - beta2)},
 *       {@code var -= lr' * m / (sqrt(v) + eps)} (Nesterov: {@code m * beta1 + (1 - beta1) * g} in
 *       place of {@code m}).
 *   <li>{@code AdamWeightDecay(var, m, v, lr, beta1, beta2, epsilon, decay, grad)}: as Adam without
 *       bias correction, plus {@code decay * var} in the update.
 *   <li>{@code Lamb(var, m, v, lr, beta1, beta2, epsilon, decay, global_step, grad)}: Adam's
 *       moments with bias correction by {@code beta^global_step}, the update scaled by the trust
 *       ratio {@code ||var|| / ||update||} (1 where either norm is 0).
 *   <li>{@code LearningRateSchedule(global_step)} ({@code kind} and its constants): the learning
 *       rates of {@code mindspore.nn}'s schedules in one operator, so a replayed graph recomputes
 *       them from the step.
 * </ul>
 */
final class OptimizerOps {
  private OptimizerOps() {}

  private static double scalar(Kernel.Call c, int i) {
    return c.in(i).getDouble(0);
  }

  /** The inputs each update's kernel requires to have its variable's (input 0's) shape. */
  private static final Map<String, int[]> SAME_SHAPE =
      Map.of(
          "ApplyMomentum", new int[] {1, 3},
          "SGD", new int[] {1, 3},
          "Adam", new int[] {1, 2, 9},
          "AdamWeightDecay", new int[] {1, 2, 8},
          "Lamb", new int[] {1, 2, 9});

  /** Throws MindSpore's error unless op's {@link #SAME_SHAPE} inputs have input 0's shape. */
  private static void checkShapes(String op, java.util.function.IntFunction<Shape> shapeOf) {
    Shape want = shapeOf.apply(0);
    for (int b : SAME_SHAPE.get(op)) {
      Shape got = shapeOf.apply(b);
      if (!want.equals(got)) {
        throw MsException.valueError(
            "For '"
                + op
                + "', the shape of input "
                + b
                + " "
                + got
                + " must be the same as the shape of input 0 "
                + want
                + ".");
      }
    }
  }

  private static void checkShapes(String op, Kernel.Call c) {
    checkShapes(op, i -> c.in(i).shape());
  }

  /**
   * An update's inference: its shape checks; its outputs are its first {@code outputs} (variable)
   * inputs' new values, typed as they are.
   */
  private static Infer updates(String op, int outputs) {
    return (attrs, in) -> {
      checkShapes(op, i -> in.get(i).shape());
      return List.copyOf(in.subList(0, outputs));
    };
  }

  private static Tensor set(Kernel.Call c, int i, double[] values) {
    Tensor old = c.in(i);
    Tensor t;
    if (old.dtype() == DType.FLOAT32) {
      // The same rounding as Tensor.ofDoubles, without its per-element dispatch.
      float[] f = new float[values.length];
      for (int k = 0; k < f.length; k++) {
        f[k] = (float) values[k];
      }
      t = Tensor.ofFloats(old.shape(), f);
    } else {
      t = Tensor.ofDoubles(old.dtype(), old.shape(), k -> values[k]);
    }
    c.var(i).set(t);
    return t;
  }

  private static double[] doubles(Tensor t) {
    double[] d = new double[t.size()];
    if (t.dtype() == DType.FLOAT32) {
      float[] f = t.floats();
      for (int i = 0; i < d.length; i++) {
        d[i] = f[i];
      }
      return d;
    }
    for (int i = 0; i < d.length; i++) {
      d[i] = t.getDouble(i);
    }
    return d;
  }

  static Tensor[] applyMomentum(Kernel.Call c) {
    checkShapes("ApplyMomentum", c);
    boolean nesterov = c.attrs().bool("use_nesterov", false);
    double lr = scalar(c, 2);
    double mom = scalar(c, 4);
    if (allFloat32(c, 0, 1, 3)) {
      // In place where allowed; the same double arithmetic, rounded once per stored value.
      float[] grad = c.in(3).floats();
      float[] acc = c.writable(1).floats();
      Tensor param = c.writable(0);
      float[] p = param.floats();
      for (int i = 0; i < p.length; i++) {
        double g = grad[i];
        double a = acc[i] * mom + g;
        acc[i] = (float) a;
        p[i] = (float) (p[i] - (nesterov ? g * lr + a * mom * lr : lr * a));
      }
      return new Tensor[] {param};
    }
    double[] var = doubles(c.in(0));
    double[] acc = doubles(c.in(1));
    double[] grad = doubles(c.in(3));
    for (int i = 0; i < var.length; i++) {
      double g = grad[i];
      acc[i] = acc[i] * mom + g;
      var[i] -= nesterov ? g * lr + acc[i] * mom * lr : lr * acc[i];
    }
    set(c, 1, acc);
    return new Tensor[] {set(c, 0, var)};
  }

  static Tensor[] sgd(Kernel.Call c) {
    checkShapes("SGD", c);
    if (allFloat32(c, 0, 1, 3, 5)) {
      return sgdFloat32(c);
    }
    double dampening = c.attrs().real("dampening");
    double wd = c.attrs().real("weight_decay");
    boolean nesterov = c.attrs().bool("nesterov");
    double lr = scalar(c, 2);
    double mom = scalar(c, 4);
    double[] p = doubles(c.in(0));
    double[] acc = doubles(c.in(3));
    double[] stat = doubles(c.in(5));
    double[] grad = doubles(c.in(1));
    for (int i = 0; i < p.length; i++) {
      double g = grad[i];
      if (wd > 0) {
        g += p[i] * wd;
      }
      if (mom > 0) {
        acc[i] = stat[i] > 0 ? g : acc[i] * mom + (1 - dampening) * g;
        g = nesterov ? g + acc[i] * mom : acc[i];
        if (stat[i] > 0) {
          stat[i] = 0;
        }
      }
      p[i] -= lr * g;
    }
    if (mom > 0) {
      set(c, 3, acc);
      set(c, 5, stat);
    }
    return new Tensor[] {set(c, 0, p)};
  }

  private static boolean allFloat32(Kernel.Call c, int... inputs) {
    for (int i : inputs) {
      if (c.in(i).dtype() != DType.FLOAT32) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@link #sgd} on float32 storage, updating the parameter and accumulator in place where the
   * runtime allows ({@link Kernel.Call#writable}): the same arithmetic (double, rounded once per
   * stored value), so the same results. As MindSpore's kernel, {@code stat} is read and cleared
   * only with momentum; an all-zero {@code stat} is not rewritten.
   */
  private static Tensor[] sgdFloat32(Kernel.Call c) {
    double dampening = c.attrs().real("dampening");
    double wd = c.attrs().real("weight_decay");
    boolean nesterov = c.attrs().bool("nesterov");
    double lr = scalar(c, 2);
    double mom = scalar(c, 4);
    float[] grad = c.in(1).floats();
    Tensor param = c.writable(0);
    float[] p = param.floats();
    int n = p.length;
    if (mom > 0) {
      float[] stat = c.in(5).floats();
      float[] acc = c.writable(3).floats();
      boolean statSet = false;
      for (int i = 0; i < n; i++) {
        double g = grad[i];
        if (wd > 0) {
          g += p[i] * wd;
        }
        boolean first = stat[i] > 0;
        statSet |= first;
        double a = first ? g : acc[i] * mom + (1 - dampening) * g;
        acc[i] = (float) a;
        g = nesterov ? g + a * mom : a;
        p[i] = (float) (p[i] - lr * g);
      }
      if (statSet) {
        float[] s = c.writable(5).floats();
        for (int i = 0; i < n; i++) {
          if (s[i] > 0) {
            s[i] = 0f;
          }
        }
      }
    } else if (wd > 0) {
      for (int i = 0; i < n; i++) {
        p[i] = (float) (p[i] - lr * (grad[i] + p[i] * wd));
      }
    } else {
      for (int i = 0; i < n; i++) {
        p[i] = (float) (p[i] - lr * grad[i]);
      }
    }
    return new Tensor[] {param};
  }

  static Tensor[] adam(Kernel.Call c) {
    checkShapes("Adam", c);
    boolean nesterov = c.attrs().bool("use_nesterov", false);
    double b1p = scalar(c, 3);
    double b2p = scalar(c, 4);
    double lr = scalar(c, 5);
    double b1 = scalar(c, 6);
    double b2 = scalar(c, 7);
    double eps = scalar(c, 8);
    double newLr = lr * Math.sqrt(1 - b2p) / (1 - b1p);
    double[] var = doubles(c.in(0));
    double[] m = doubles(c.in(1));
    double[] v = doubles(c.in(2));
    double[] grad = doubles(c.in(9));
    for (int i = 0; i < var.length; i++) {
      double g = grad[i];
      m[i] += (g - m[i]) * (1 - b1);
      v[i] += (g * g - v[i]) * (1 - b2);
      double num = nesterov ? m[i] * b1 + (1 - b1) * g : m[i];
      var[i] -= newLr * num / (Math.sqrt(v[i]) + eps);
    }
    return new Tensor[] {set(c, 0, var), set(c, 1, m), set(c, 2, v)};
  }

  static Tensor[] adamWeightDecay(Kernel.Call c) {
    checkShapes("AdamWeightDecay", c);
    double lr = scalar(c, 3);
    double b1 = scalar(c, 4);
    double b2 = scalar(c, 5);
    double eps = scalar(c, 6);
    double decay = scalar(c, 7);
    double[] var = doubles(c.in(0));
    double[] m = doubles(c.in(1));
    double[] v = doubles(c.in(2));
    double[] grad = doubles(c.in(8));
    for (int i = 0; i < var.length; i++) {
      double g = grad[i];
      m[i] += (g - m[i]) * (1 - b1);
      v[i] += (g * g - v[i]) * (1 - b2);
      double update = m[i] / (Math.sqrt(v[i]) + eps) + decay * var[i];
      var[i] -= lr * update;
    }
    return new Tensor[] {set(c, 0, var), set(c, 1, m), set(c, 2, v)};
  }

  static Tensor[] lamb(Kernel.Call c) {
    checkShapes("Lamb", c);
    double lr = scalar(c, 3);
    double b1 = scalar(c, 4);
    double b2 = scalar(c, 5);
    double eps = scalar(c, 6);
    double decay = scalar(c, 7);
    double step = scalar(c, 8);
    double b1c = 1 - Math.pow(b1, step);
    double b2c = 1 - Math.pow(b2, step);
    double[] var = doubles(c.in(0));
    double[] m = doubles(c.in(1));
    double[] v = doubles(c.in(2));
    double[] update = new double[var.length];
    double[] grad = doubles(c.in(9));
    double wNorm = 0;
    double gNorm = 0;
    double uNorm = 0;
    for (int i = 0; i < var.length; i++) {
      double g = grad[i];
      m[i] = b1 * m[i] + (1 - b1) * g;
      v[i] = b2 * v[i] + (1 - b2) * g * g;
      update[i] = (m[i] / b1c) / (Math.sqrt(v[i] / b2c) + eps) + decay * var[i];
      wNorm += var[i] * var[i];
      gNorm += g * g;
      uNorm += update[i] * update[i];
    }
    wNorm = Math.sqrt(wNorm);
    gNorm = Math.sqrt(gNorm);
    uNorm = Math.sqrt(uNorm);
    double ratio = wNorm > 0 && gNorm > 0 ? wNorm / uNorm : 1.0;
    ratio = Math.min(Math.max(ratio, 0.0), 10.0);
    for (int i = 0; i < var.length; i++) {
      var[i] -= lr * ratio * update[i];
    }
    return new Tensor[] {set(c, 0, var), set(c, 1, m), set(c, 2, v)};
  }

  /** The learning rate of schedule {@code kind} at {@code step}, in float32 arithmetic. */
  static double schedule(Attrs a, double step) {
    String kind = a.string("kind");
    return switch (kind) {
      case "exponential" -> {
        float p = (float) step / (float) a.real("decay_steps");
        if (a.bool("is_stair")) {
          p = (float) Math.floor(p);
        }
        yield (float) a.real("learning_rate") * (float) Math.pow((float) a.real("decay_rate"), p);
      }
      case "natural_exp" -> {
        float p = (float) step;
        if (a.bool("is_stair")) {
          float ds = (float) a.real("decay_steps");
          p = (float) Math.floor(p / ds) * ds;
        }
        yield (float) a.real("learning_rate")
            * (float) Math.pow((float) Math.E, -(float) a.real("decay_rate") * p);
      }
      case "inverse" -> {
        float p = (float) step / (float) a.real("decay_steps");
        if (a.bool("is_stair")) {
          p = (float) Math.floor(p);
        }
        yield (float) a.real("learning_rate") / (1 + (float) a.real("decay_rate") * p);
      }
      case "cosine" -> {
        float ds = (float) a.real("decay_steps");
        float p = (float) Math.min(step, ds);
        float delta = (float) a.real("delta");
        yield (float) a.real("min_lr")
            + delta * (1.0f + (float) Math.sin((float) Math.PI * (p / ds + 0.5f)));
      }
      case "polynomial" -> {
        float gs = (float) step;
        float ds = (float) a.real("decay_steps");
        if (a.bool("update_decay_steps")) {
          ds = ds * (float) Math.max(Math.ceil(gs / ds), 1.0);
        } else {
          gs = Math.min(gs, ds);
        }
        float p = gs / ds;
        yield (float) a.real("diff") * (float) Math.pow(1.0f - p, (float) a.real("power"))
            + (float) a.real("end_learning_rate");
      }
      case "warmup" -> {
        float ws = (float) a.real("warmup_steps");
        yield (float) a.real("learning_rate") * ((float) Math.min(step, ws) / ws);
      }
      default -> throw MsException.valueError("Unknown learning rate schedule '" + kind + "'.");
    };
  }

  static List<OpDef> defs() {
    return List.of(
        new OpDef("ApplyMomentum", OptimizerOps::applyMomentum, GradRule.NONE, true)
            .infers(updates("ApplyMomentum", 1))
            .role(CostRole.UPDATE)
            .shards(OptimizerRules.update(1))
            .aliases(0),
        new OpDef("SGD", OptimizerOps::sgd, GradRule.NONE, true)
            .infers(updates("SGD", 1))
            .role(CostRole.UPDATE)
            .shards(OptimizerRules.update(1))
            .aliases(0),
        new OpDef("Adam", OptimizerOps::adam, GradRule.NONE, true)
            .infers(updates("Adam", 3))
            .role(CostRole.UPDATE)
            .shards(OptimizerRules.update(3))
            .aliases(0, 1, 2),
        new OpDef("AdamWeightDecay", OptimizerOps::adamWeightDecay, GradRule.NONE, true)
            .infers(updates("AdamWeightDecay", 3))
            .role(CostRole.UPDATE)
            .shards(OptimizerRules.update(3))
            .aliases(0, 1, 2),
        new OpDef("Lamb", OptimizerOps::lamb, GradRule.NONE, true)
            .infers(updates("Lamb", 3))
            .role(CostRole.WHOLE_UPDATE)
            .shards(OptimizerRules.lamb())
            .aliases(0, 1, 2),
        OpDef.of(
                "LearningRateSchedule",
                c -> {
                  Tensor step = c.in(0);
                  double lr = schedule(c.attrs(), step.getDouble(0));
                  return new Tensor[] {
                    Tensor.ofDoubles(dev.msjvm.engine.ir.DType.FLOAT32, step.shape(), i -> lr)
                  };
                },
                GradRule.NONE)
            .infers(Infer.one((a, in) -> in.get(0).withDtype(DType.FLOAT32)))
            .role(CostRole.GENERAL)
            .shards(OptimizerRules.learningRateSchedule()));
  }
}
