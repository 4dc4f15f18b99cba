package dev.msjvm.engine.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.exec.Runtime;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import org.junit.jupiter.api.Test;

/**
 * The fused optimizer kernels against the textbook formulas evaluated in double precision, over
 * several steps (so the state the kernels keep in their variables is checked too).
 */
class OptimizerOpsTest {
  private static final int N = 7;
  private static final int STEPS = 4;
  private final Runtime rt = new Runtime(NaiveBlas::new);

  private static double[] rand(long seed, double lo, double hi) {
    Tensor t = GradCheck.random(seed, lo, hi, N);
    double[] d = new double[N];
    for (int i = 0; i < N; i++) {
      d[i] = t.getDouble(i);
    }
    return d;
  }

  private static Tensor vec(double[] d) {
    return Tensor.ofDoubles(DType.FLOAT64, Shape.of(d.length), i -> d[i]);
  }

  private static Variable var(String name, double[] d) {
    return new Variable(name, vec(d));
  }

  private static Tensor s(double v) {
    return Tensor.ofDoubles(DType.FLOAT64, Shape.of(), i -> v);
  }

  private static void assertClose(double[] expected, Variable v) {
    for (int i = 0; i < expected.length; i++) {
      assertEquals(
          expected[i],
          v.value().getDouble(i),
          1e-12 * (1 + Math.abs(expected[i])),
          v + "[" + i + "]");
    }
  }

  @Test
  void applyMomentumPlainAndNesterov() {
    for (boolean nesterov : new boolean[] {false, true}) {
      double[] w = rand(1, -1, 1);
      double[] acc = new double[N];
      Variable vw = var("w", w);
      Variable va = var("acc", acc);
      double lr = 0.1;
      double mom = 0.9;
      for (int step = 0; step < STEPS; step++) {
        double[] g = rand(10 + step, -1, 1);
        rt.apply(
            "ApplyMomentum", Attrs.of("use_nesterov", nesterov), vw, va, s(lr), vec(g), s(mom));
        for (int i = 0; i < N; i++) {
          acc[i] = mom * acc[i] + g[i];
          w[i] = nesterov ? w[i] - lr * (g[i] + mom * acc[i]) : w[i] - lr * acc[i];
        }
        assertClose(w, vw);
        assertClose(acc, va);
      }
    }
  }

  @Test
  void sgdFollowsPyTorch() {
    double lr = 0.05;
    double mom = 0.8;
    double damp = 0.3;
    double wd = 0.01;
    for (boolean nesterov : new boolean[] {false, true}) {
      double d = nesterov ? 0.0 : damp;
      double[] p = rand(2, -1, 1);
      Variable vp = var("p", p);
      Variable vacc = var("accum", new double[N]);
      double[] ones = new double[N];
      java.util.Arrays.fill(ones, 1.0);
      Variable vstat = var("stat", ones);
      double[] buf = null;
      for (int step = 0; step < STEPS; step++) {
        double[] g = rand(20 + step, -1, 1);
        rt.apply(
            "SGD",
            Attrs.of("dampening", d, "weight_decay", wd, "nesterov", nesterov),
            vp,
            vec(g),
            s(lr),
            vacc,
            s(mom),
            vstat);
        double[] dp = new double[N];
        for (int i = 0; i < N; i++) {
          dp[i] = g[i] + wd * p[i];
        }
        if (buf == null) {
          buf = dp.clone();
        } else {
          for (int i = 0; i < N; i++) {
            buf[i] = mom * buf[i] + (1 - d) * dp[i];
          }
        }
        for (int i = 0; i < N; i++) {
          p[i] -= lr * (nesterov ? dp[i] + mom * buf[i] : buf[i]);
        }
        assertClose(p, vp);
        assertClose(buf, vacc);
        assertEquals(0.0, vstat.value().getDouble(0));
      }
    }
  }

  private static Variable var32(String name, double[] d) {
    float[] f = new float[d.length];
    for (int i = 0; i < f.length; i++) {
      f[i] = (float) d[i];
    }
    return new Variable(name, Tensor.ofFloats(Shape.of(d.length), f));
  }

  private static Tensor vec32(double[] d) {
    return var32("g", d).value();
  }

  private static Tensor s32(double v) {
    return Tensor.ofFloats(Shape.of(), new float[] {(float) v});
  }

  private static void assertBits(float[] expected, Variable v) {
    for (int i = 0; i < expected.length; i++) {
      assertEquals(expected[i], (float) v.current().getDouble(i), 0f, v + "[" + i + "]");
    }
  }

  /**
   * The float32 kernels (which update in place) compute in double from the stored floats and round
   * once per stored value, step after step; stat is read and cleared only with momentum, as in
   * MindSpore's CPU kernel.
   */
  @Test
  void sgdFloat32RoundsOncePerStoredValue() {
    for (double mom : new double[] {0.0, 0.8}) {
      for (double wd : new double[] {0.0, 0.01}) {
        for (boolean nesterov : new boolean[] {false, true}) {
          double lr = 0.05;
          double d = nesterov ? 0.0 : 0.3;
          float[] p = new float[N];
          float[] acc = new float[N];
          double[] init = rand(4, -1, 1);
          for (int i = 0; i < N; i++) {
            p[i] = (float) init[i];
          }
          Variable vp = var32("p", init);
          Variable vacc = var32("accum", new double[N]);
          double[] ones = new double[N];
          java.util.Arrays.fill(ones, 1.0);
          Variable vstat = var32("stat", ones);
          boolean first = true;
          for (int step = 0; step < STEPS; step++) {
            double[] g = rand(40 + step, -1, 1);
            rt.apply(
                "SGD",
                Attrs.of("dampening", d, "weight_decay", wd, "nesterov", nesterov),
                vp,
                vec32(g),
                s32(lr),
                vacc,
                s32(mom),
                vstat);
            for (int i = 0; i < N; i++) {
              double gi = (float) g[i];
              if (wd > 0) {
                gi += p[i] * (double) (float) wd;
              }
              if (mom > 0) {
                double a = first ? gi : acc[i] * (double) (float) mom + (1 - d) * gi;
                acc[i] = (float) a;
                gi = nesterov ? gi + a * (float) mom : a;
              }
              p[i] = (float) (p[i] - (double) (float) lr * gi);
            }
            first &= mom == 0;
            assertBits(p, vp);
            assertBits(acc, vacc);
            assertEquals(mom > 0 ? 0.0 : 1.0, vstat.current().getDouble(N - 1));
          }
        }
      }
    }
  }

  @Test
  void applyMomentumFloat32RoundsOncePerStoredValue() {
    for (boolean nesterov : new boolean[] {false, true}) {
      double[] init = rand(5, -1, 1);
      float[] w = new float[N];
      float[] acc = new float[N];
      for (int i = 0; i < N; i++) {
        w[i] = (float) init[i];
      }
      Variable vw = var32("w", init);
      Variable va = var32("acc", new double[N]);
      double lr = (float) 0.1;
      double mom = (float) 0.9;
      for (int step = 0; step < STEPS; step++) {
        double[] g = rand(50 + step, -1, 1);
        rt.apply(
            "ApplyMomentum",
            Attrs.of("use_nesterov", nesterov),
            vw,
            va,
            s32(lr),
            vec32(g),
            s32(mom));
        for (int i = 0; i < N; i++) {
          double gi = (float) g[i];
          double a = acc[i] * mom + gi;
          acc[i] = (float) a;
          w[i] = (float) (w[i] - (nesterov ? gi * lr + a * mom * lr : lr * a));
        }
        assertBits(w, vw);
        assertBits(acc, va);
      }
    }
  }

  @Test
  void sgdWithoutMomentumIsPlainDescent() {
    double[] p = rand(3, -1, 1);
    Variable vp = var("p", p);
    double[] g = rand(30, -1, 1);
    double[] ones = new double[N];
    java.util.Arrays.fill(ones, 1.0);
    rt.apply(
        "SGD",
        Attrs.of("dampening", 0.0, "weight_decay", 0.0, "nesterov", false),
        vp,
        vec(g),
        s(0.1),
        var("a", new double[N]),
        s(0.0),
        var("st", ones));
    for (int i = 0; i < N; i++) {
      p[i] -= 0.1 * g[i];
    }
    assertClose(p, vp);
  }

  @Test
  void adamWithBiasCorrection() {
    for (boolean nesterov : new boolean[] {false, true}) {
      double b1 = 0.9;
      double b2 = 0.999;
      double eps = 1e-8;
      double lr = 0.01;
      double[] w = rand(4, -1, 1);
      double[] m = new double[N];
      double[] v = new double[N];
      Variable vw = var("w", w);
      Variable vm = var("m", m);
      Variable vv = var("v", v);
      for (int t = 1; t <= STEPS; t++) {
        double[] g = rand(40 + t, -1, 1);
        double b1p = Math.pow(b1, t);
        double b2p = Math.pow(b2, t);
        rt.apply(
            "Adam",
            Attrs.of("use_locking", false, "use_nesterov", nesterov),
            vw,
            vm,
            vv,
            s(b1p),
            s(b2p),
            s(lr),
            s(b1),
            s(b2),
            s(eps),
            vec(g));
        double alpha = lr * Math.sqrt(1 - b2p) / (1 - b1p);
        for (int i = 0; i < N; i++) {
          m[i] = b1 * m[i] + (1 - b1) * g[i];
          v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i];
          double num = nesterov ? b1 * m[i] + (1 - b1) * g[i] : m[i];
          w[i] -= alpha * num / (Math.sqrt(v[i]) + eps);
        }
        assertClose(w, vw);
        assertClose(m, vm);
        assertClose(v, vv);
      }
    }
  }

  @Test
  void adamWeightDecayAddsDecayToTheUpdate() {
    double b1 = 0.9;
    double b2 = 0.99;
    double eps = 1e-6;
    double lr = 0.01;
    double wd = 0.05;
    double[] w = rand(5, -1, 1);
    double[] m = new double[N];
    double[] v = new double[N];
    Variable vw = var("w", w);
    Variable vm = var("m", m);
    Variable vv = var("v", v);
    for (int t = 1; t <= STEPS; t++) {
      double[] g = rand(50 + t, -1, 1);
      rt.apply(
          "AdamWeightDecay", Attrs.EMPTY, vw, vm, vv, s(lr), s(b1), s(b2), s(eps), s(wd), vec(g));
      for (int i = 0; i < N; i++) {
        m[i] = b1 * m[i] + (1 - b1) * g[i];
        v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i];
        w[i] -= lr * (m[i] / (Math.sqrt(v[i]) + eps) + wd * w[i]);
      }
      assertClose(w, vw);
      assertClose(m, vm);
      assertClose(v, vv);
    }
  }

  @Test
  void lambScalesByTheTrustRatio() {
    double b1 = 0.9;
    double b2 = 0.999;
    double eps = 1e-6;
    double lr = 0.02;
    double wd = 0.01;
    double[] w = rand(6, -1, 1);
    double[] m = new double[N];
    double[] v = new double[N];
    Variable vw = var("w", w);
    Variable vm = var("m", m);
    Variable vv = var("v", v);
    for (int t = 1; t <= STEPS; t++) {
      double[] g = rand(60 + t, -1, 1);
      rt.apply("Lamb", Attrs.EMPTY, vw, vm, vv, s(lr), s(b1), s(b2), s(eps), s(wd), s(t), vec(g));
      double[] u = new double[N];
      double wn = 0;
      double un = 0;
      for (int i = 0; i < N; i++) {
        m[i] = b1 * m[i] + (1 - b1) * g[i];
        v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i];
        double mh = m[i] / (1 - Math.pow(b1, t));
        double vh = v[i] / (1 - Math.pow(b2, t));
        u[i] = mh / (Math.sqrt(vh) + eps) + wd * w[i];
        wn += w[i] * w[i];
        un += u[i] * u[i];
      }
      double ratio = Math.min(10.0, Math.sqrt(wn) / Math.sqrt(un));
      for (int i = 0; i < N; i++) {
        w[i] -= lr * ratio * u[i];
      }
      assertClose(w, vw);
      assertClose(m, vm);
      assertClose(v, vv);
    }
  }

  @Test
  void float32VariablesStayFloat32() {
    Variable vw = new Variable("w", Tensor.ofFloats(Shape.of(2), new float[] {1f, 2f}));
    Variable va = new Variable("a", Tensor.ofFloats(Shape.of(2), new float[] {0f, 0f}));
    Tensor g = Tensor.ofFloats(Shape.of(2), new float[] {0.5f, -0.5f});
    Tensor lr = Tensor.ofFloats(Shape.of(), new float[] {0.1f});
    Tensor mom = Tensor.ofFloats(Shape.of(), new float[] {0.9f});
    Tensor out = rt.apply("ApplyMomentum", Attrs.EMPTY, vw, va, lr, g, mom)[0];
    assertEquals(DType.FLOAT32, vw.value().dtype());
    assertEquals(out, vw.value());
    assertEquals(0.95f, (float) vw.value().getDouble(0));
  }

  @Test
  void declaredStatefulWithoutGradientAndCheckShapes() {
    for (String name : new String[] {"ApplyMomentum", "SGD", "Adam", "AdamWeightDecay", "Lamb"}) {
      assertTrue(OpTable.get(name).stateful(), name);
    }
    Variable vw = var("w", rand(7, -1, 1));
    MsException e =
        assertThrows(
            MsException.class,
            () ->
                rt.apply(
                    "ApplyMomentum",
                    Attrs.EMPTY,
                    vw,
                    var("a", new double[N]),
                    s(0.1),
                    vec(new double[N + 1]),
                    s(0.9)));
    assertTrue(e.getMessage().contains("ApplyMomentum"), e.getMessage());
    assertThrows(
        MsException.class,
        () ->
            rt.apply(
                "ApplyMomentum",
                Attrs.EMPTY,
                vec(new double[N]),
                var("a", new double[N]),
                s(0.1),
                vec(new double[N]),
                s(0.9)));
  }

  @Test
  void learningRateSchedules() {
    Tensor step = Tensor.of(DType.INT32, Shape.of(1), java.util.List.of(2));
    double cos =
        rt
            .apply(
                "LearningRateSchedule",
                Attrs.of("kind", "cosine", "min_lr", 0.01, "delta", 0.045, "decay_steps", 4.0),
                step)[0]
            .getDouble(0);
    assertEquals(0.01 + 0.045 * (1 + Math.cos(Math.PI * 2 / 4)), cos, 1e-7);
    double exp =
        rt
            .apply(
                "LearningRateSchedule",
                Attrs.of(
                    "kind",
                    "exponential",
                    "learning_rate",
                    0.1,
                    "decay_rate",
                    0.9,
                    "decay_steps",
                    4.0,
                    "is_stair",
                    false),
                step)[0]
            .getDouble(0);
    assertEquals(0.1 * Math.pow(0.9, 0.5), exp, 1e-7);
    double warm =
        rt
            .apply(
                "LearningRateSchedule",
                Attrs.of("kind", "warmup", "learning_rate", 0.1, "warmup_steps", 3.0),
                step)[0]
            .getDouble(0);
    assertEquals(0.1 * 2 / 3, warm, 1e-7);
    double poly =
        rt
            .apply(
                "LearningRateSchedule",
                Attrs.of(
                    "kind",
                    "polynomial",
                    "diff",
                    0.09,
                    "end_learning_rate",
                    0.01,
                    "decay_steps",
                    4.0,
                    "power",
                    2.0,
                    "update_decay_steps",
                    false),
                step)[0]
            .getDouble(0);
    assertEquals(0.09 * 0.25 + 0.01, poly, 1e-7);
  }
}
