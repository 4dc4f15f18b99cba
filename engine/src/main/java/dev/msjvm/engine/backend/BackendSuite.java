package dev.msjvm.engine.backend;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * The kernel suite every {@link DeviceBackend} must pass: each kernel on seeded random data (odd
 * sizes, offsets, transposes, every {@link Unary} and {@link Binary}), compared with the reference
 * backend ({@link HostBackend#reference()}), plus memory-scope accounting and five training steps
 * of the seed MLP ({@link KernelMlp}). Tolerances: elementwise kernels within 1e-5 relative to the
 * largest reference value (float transcendentals are within a few ulps); GEMMs and sums within the
 * classic float32 error bound {@code k * 2^-23 * (|A||B|)_ij} (the bound cuBLAS's blocked or
 * split-K sums also satisfy); the MLP's losses within 1e-4 and its parameter updates (after minus
 * before) within 2e-4 relative after five steps.
 */
public final class BackendSuite {

  /** One check's outcome. */
  public record Result(String name, boolean passed, String detail) {}

  private final DeviceBackend under;
  private final DeviceBackend ref;
  private final List<Result> results = new ArrayList<>();
  private final SplittableRandom random = new SplittableRandom(20261126L);

  private BackendSuite(DeviceBackend under, DeviceBackend ref) {
    this.under = under;
    this.ref = ref;
  }

  /** Runs every check of {@code under} against {@code reference}. */
  public static List<Result> run(DeviceBackend under, DeviceBackend reference) {
    BackendSuite s = new BackendSuite(under, reference);
    s.all();
    return List.copyOf(s.results);
  }

  private void all() {
    check(
        "copy round trip",
        () -> {
          for (int n : new int[] {1, 1000, (1 << 20) + 3}) {
            float[] v = values(n, 1f);
            try (DeviceBuffer b = under.allocate(n)) {
              under.copyIn(v, 0, b, 0, n);
              float[] back = new float[n + 2];
              under.copyOut(b, 0, back, 1, n);
              for (int i = 0; i < n; i++) {
                if (Float.floatToRawIntBits(back[i + 1]) != Float.floatToRawIntBits(v[i])) {
                  throw new AssertionError(
                      "element " + i + " of " + n + ": " + back[i + 1] + " != " + v[i]);
                }
              }
            }
          }
        });
    float[] fillInput = values(300, 1f);
    compare(
        "fill",
        0,
        (be, scope, x) -> {
          be.copyIn(fillInput, 0, x, 0, 300);
          be.fill(x, 17, 200, -2.5f);
        },
        300);
    int[][] shapes = {{1, 1, 1}, {33, 17, 65}, {32, 512, 784}, {7, 300, 5}, {256, 256, 256}};
    for (int[] s : shapes) {
      for (int t = 0; t < 4; t++) {
        boolean ta = (t & 1) != 0;
        boolean tb = (t & 2) != 0;
        gemmCase(s[0], s[1], s[2], ta, tb, 1f, 0f, 0);
      }
    }
    gemmCase(19, 23, 29, false, true, 0.5f, -1.25f, 3);
    gemmCase(64, 48, 1000, true, false, -2f, 1f, 5);
    batchedCase(4, 16, 24, 8, false, false);
    batchedCase(3, 10, 12, 33, true, true);
    for (Unary op : Unary.values()) {
      int n = 5003;
      float[] x = domain(op, n);
      compare("map " + op, 1e-5, (be, scope, out) -> be.map(op, scope.upload(x), out, n), n);
    }
    for (Binary op : Binary.values()) {
      int n = 4099;
      float[] a = values(n, 3f);
      float[] b = op == Binary.DIV ? awayFromZero(n) : values(n, 3f);
      compare(
          "zip " + op,
          1e-5,
          (be, scope, out) -> be.zip(op, scope.upload(a), scope.upload(b), out, n),
          n);
    }
    for (Binary op : new Binary[] {Binary.ADD, Binary.MUL, Binary.SUB}) {
      int rows = 37;
      int cols = 129;
      float[] a = values(rows * cols, 2f);
      float[] r = values(cols, 2f);
      compare(
          "zipRow " + op,
          1e-5,
          (be, scope, out) -> be.zipRow(op, scope.upload(a), scope.upload(r), out, rows, cols),
          rows * cols);
    }
    for (int[] rc : new int[][] {{1, 1}, {32, 10}, {5, 5000}, {1000, 3}, {64, 1025}}) {
      int rows = rc[0];
      int cols = rc[1];
      float[] a = values(rows * cols, 4f);
      reductionCase("sumRows " + rows + "x" + cols, a, rows, cols, true);
      reductionCase("sumCols " + rows + "x" + cols, a, rows, cols, false);
      compare(
          "softmax " + rows + "x" + cols,
          1e-5,
          (be, scope, out) -> be.softmax(scope.upload(a), out, rows, cols),
          rows * cols);
      float[] labels = new float[rows];
      for (int i = 0; i < rows; i++) {
        labels[i] = random.nextInt(cols);
      }
      for (boolean wantLoss : new boolean[] {true, false}) {
        compare(
            (wantLoss ? "cross-entropy loss " : "cross-entropy grad ") + rows + "x" + cols,
            1e-5,
            (be, scope, out) -> {
              DeviceBuffer other = scope.allocate(wantLoss ? rows * cols : rows);
              be.softmaxCrossEntropy(
                  scope.upload(a),
                  scope.upload(labels),
                  wantLoss ? out : other,
                  wantLoss ? other : out,
                  rows,
                  cols,
                  1f / rows);
            },
            wantLoss ? rows : rows * cols);
      }
    }
    for (boolean nesterov : new boolean[] {false, true}) {
      int n = 2051;
      float[] p = values(n, 1f);
      float[] acc = values(n, 1f);
      float[] g = values(n, 1f);
      for (int which = 0; which < 2; which++) {
        int w = which;
        compare(
            "applyMomentum nesterov=" + nesterov + (w == 0 ? " param" : " accum"),
            1e-5,
            (be, scope, out) -> {
              DeviceBuffer pa = scope.upload(p);
              DeviceBuffer ac = scope.upload(acc);
              be.applyMomentum(pa, ac, scope.upload(g), 0.1f, 0.9f, nesterov, n);
              float[] host = new float[n];
              be.copyOut(w == 0 ? pa : ac, 0, host, 0, n);
              be.copyIn(host, 0, out, 0, n);
            },
            n);
      }
    }
    {
      int n = 3001;
      float[] p = values(n, 1f);
      float[] m = values(n, 0.1f);
      float[] v = abs(values(n, 0.01f));
      float[] g = values(n, 1f);
      compare(
          "adam param",
          1e-5,
          (be, scope, out) -> {
            be.copyIn(p, 0, out, 0, n);
            be.adam(
                out,
                scope.upload(m),
                scope.upload(v),
                scope.upload(g),
                0.001f,
                0.9f,
                0.999f,
                1e-8f,
                0.9f * 0.9f,
                0.999f * 0.999f,
                n);
          },
          n);
    }
    check(
        "memory scope frees its buffers",
        () -> {
          long before = under.memoryStats().inUse();
          try (MemoryScope scope = new MemoryScope(under)) {
            for (int i = 1; i <= 20; i++) {
              scope.allocate(1000L * i);
            }
            long during = under.memoryStats().inUse();
            if (during < before + 4 * 210_000) {
              throw new AssertionError("in use " + during + " after 210000 floats, was " + before);
            }
          }
          long after = under.memoryStats().inUse();
          if (after != before) {
            throw new AssertionError("in use " + after + " after the scope closed, was " + before);
          }
        });
    check("seed MLP, 5 SGD steps", this::mlpCase);
  }

  private void mlpCase() {
    int batch = 32;
    float[] x = values(batch * 784, 1f);
    float[] labels = new float[batch];
    for (int i = 0; i < batch; i++) {
      labels[i] = random.nextInt(10);
    }
    Training onUnder = train(under, x, labels, batch);
    Training onRef = train(ref, x, labels, batch);
    float[] lossesUnder = onUnder.losses();
    float[] lossesRef = onRef.losses();
    float[][] paramsUnder = onUnder.updates();
    float[][] paramsRef = onRef.updates();
    if (!(lossesRef[4] < lossesRef[0])) {
      throw new AssertionError(
          "reference loss did not fall: " + lossesRef[0] + " -> " + lossesRef[4]);
    }
    double lossErr = relErr(lossesUnder, lossesRef);
    double paramErr = 0;
    for (int i = 0; i < paramsRef.length; i++) {
      paramErr = Math.max(paramErr, relErr(paramsUnder[i], paramsRef[i]));
    }
    if (lossErr > 1e-4 || paramErr > 2e-4) {
      throw new AssertionError("loss rel err " + lossErr + ", update rel err " + paramErr);
    }
    note(
        "losses "
            + lossesUnder[0]
            + " -> "
            + lossesUnder[4]
            + ", loss rel err "
            + lossErr
            + ", update rel err "
            + paramErr);
  }

  /** The losses of five SGD steps and each parameter's update over them (after minus before). */
  private record Training(float[] losses, float[][] updates) {}

  private static Training train(DeviceBackend be, float[] x, float[] labels, int batch) {
    float[] losses = new float[5];
    try (KernelMlp mlp = new KernelMlp(be, KernelMlp.SEED_WIDTHS, 0.01f, 7);
        DeviceBuffer xs = be.allocate(x.length);
        DeviceBuffer ls = be.allocate(batch)) {
      be.copyIn(x, 0, xs, 0, x.length);
      be.copyIn(labels, 0, ls, 0, batch);
      float[][] start = mlp.parameters();
      for (int s = 0; s < losses.length; s++) {
        losses[s] = mlp.step(xs, ls, batch, true);
      }
      return new Training(losses, minus(mlp.parameters(), start));
    }
  }

  private static float[][] minus(float[][] after, float[][] before) {
    float[][] d = new float[after.length][];
    for (int i = 0; i < after.length; i++) {
      d[i] = new float[after[i].length];
      for (int j = 0; j < d[i].length; j++) {
        d[i][j] = after[i][j] - before[i][j];
      }
    }
    return d;
  }

  private String pendingNote;

  private void note(String text) {
    pendingNote = text;
  }

  private interface Body {
    void run() throws Exception;
  }

  private void check(String name, Body body) {
    pendingNote = null;
    try {
      body.run();
      results.add(new Result(name, true, pendingNote == null ? "" : pendingNote));
    } catch (Throwable t) {
      results.add(new Result(name, false, String.valueOf(t)));
    }
  }

  /** A kernel call writing {@code out}; its inputs come from {@code scope}, closed after it. */
  private interface Kernel {
    void run(DeviceBackend backend, MemoryScope scope, DeviceBuffer out);
  }

  /** Runs {@code kernel} on both backends into an {@code n}-float output and compares. */
  private void compare(String name, double tol, Kernel kernel, int n) {
    check(
        name,
        () -> {
          float[] got = runOn(under, kernel, n);
          float[] want = runOn(ref, kernel, n);
          double err = relErr(got, want);
          if (tol == 0 ? err != 0 : !(err <= tol)) {
            throw new AssertionError("rel err " + err + " > " + tol);
          }
          note("rel err " + err);
        });
  }

  private static float[] runOn(DeviceBackend be, Kernel kernel, int n) {
    try (MemoryScope scope = new MemoryScope(be)) {
      DeviceBuffer out = scope.allocate(n);
      be.fill(out, 0, n, 0f);
      kernel.run(be, scope, out);
      float[] host = new float[n];
      be.copyOut(out, 0, host, 0, n);
      return host;
    }
  }

  private void gemmCase(
      int m, int n, int k, boolean ta, boolean tb, float alpha, float beta, int pad) {
    int lda = (ta ? m : k) + pad;
    int ldb = (tb ? k : n) + pad;
    int ldc = n + pad;
    int aRows = ta ? k : m;
    int bRows = tb ? n : k;
    int offA = pad;
    int offB = 2 * pad;
    int offC = pad;
    float[] a = values(offA + aRows * lda, 1f);
    float[] b = values(offB + bRows * ldb, 1f);
    float[] c = values(offC + m * ldc, 1f);
    String name =
        "gemm "
            + m
            + "x"
            + n
            + "x"
            + k
            + (ta ? " A^T" : "")
            + (tb ? " B^T" : "")
            + (pad > 0 ? " ld+" + pad : "")
            + (alpha != 1 || beta != 0 ? " alpha=" + alpha + " beta=" + beta : "");
    check(
        name,
        () -> {
          Kernel kernel = gemmKernel(a, b, c, alpha, beta, m, n, k, ta, tb, pad);
          float[] got = runOn(under, kernel, c.length);
          float[] want = runOn(ref, kernel, c.length);
          // The float32 error bound: the same product of the absolute values.
          Kernel bound =
              gemmKernel(
                  abs(a), abs(b), abs(c), Math.abs(alpha), Math.abs(beta), m, n, k, ta, tb, pad);
          float[] scale = runOn(ref, bound, c.length);
          double worst = 0;
          for (int i = 0; i < c.length; i++) {
            double allowed = (k + 2) * 0x1p-23 * scale[i] + 1e-30;
            worst = Math.max(worst, Math.abs(got[i] - want[i]) / allowed);
          }
          if (!(worst <= 1)) {
            throw new AssertionError("error " + worst + " times the float32 bound");
          }
          note("error " + String.format("%.3g", worst) + " of the bound");
        });
  }

  /** {@code gemmCase}'s product (offsets and leading dimensions from {@code pad}) as a kernel. */
  private static Kernel gemmKernel(
      float[] a,
      float[] b,
      float[] c,
      float alpha,
      float beta,
      int m,
      int n,
      int k,
      boolean ta,
      boolean tb,
      int pad) {
    int lda = (ta ? m : k) + pad;
    int ldb = (tb ? k : n) + pad;
    int ldc = n + pad;
    return (be, scope, out) -> {
      be.copyIn(c, 0, out, 0, c.length);
      be.gemm(
          ta,
          tb,
          m,
          n,
          k,
          alpha,
          scope.upload(a),
          pad,
          lda,
          scope.upload(b),
          2L * pad,
          ldb,
          beta,
          out,
          pad,
          ldc);
    };
  }

  private void batchedCase(int batch, int m, int n, int k, boolean ta, boolean tb) {
    int lda = ta ? m : k;
    int ldb = tb ? k : n;
    long sa = (long) m * k;
    long sb = (long) k * n;
    long sc = (long) m * n;
    float[] a = values((int) (batch * sa), 1f);
    float[] b = values((int) (batch * sb), 1f);
    compare(
        "gemmBatched "
            + batch
            + "x"
            + m
            + "x"
            + n
            + "x"
            + k
            + (ta ? " A^T" : "")
            + (tb ? " B^T" : ""),
        1e-5 * Math.sqrt(k),
        (be, scope, out) ->
            be.gemmBatched(
                ta,
                tb,
                m,
                n,
                k,
                1f,
                scope.upload(a),
                sa,
                lda,
                scope.upload(b),
                sb,
                ldb,
                0f,
                out,
                sc,
                n,
                batch),
        (int) (batch * sc));
  }

  private void reductionCase(String name, float[] a, int rows, int cols, boolean byRow) {
    int n = byRow ? rows : cols;
    int len = byRow ? cols : rows;
    compare(
        name,
        1e-6 * Math.max(1, Math.sqrt(len)) + len * 0x1p-24,
        (be, scope, out) -> {
          if (byRow) {
            be.sumRows(scope.upload(a), out, rows, cols);
          } else {
            be.sumCols(scope.upload(a), out, rows, cols);
          }
        },
        n);
  }

  /** max |got - want| / max |want| (0 when both are all zeros). */
  static double relErr(float[] got, float[] want) {
    double diff = 0;
    double scale = 0;
    for (int i = 0; i < want.length; i++) {
      if (Float.isNaN(got[i]) != Float.isNaN(want[i])) {
        return Double.POSITIVE_INFINITY;
      }
      diff = Math.max(diff, Math.abs((double) got[i] - want[i]));
      scale = Math.max(scale, Math.abs((double) want[i]));
    }
    return scale == 0 ? diff : diff / scale;
  }

  private float[] values(int n, float bound) {
    return KernelMlp.uniform(random, n, bound);
  }

  private float[] awayFromZero(int n) {
    float[] v = values(n, 2f);
    for (int i = 0; i < n; i++) {
      v[i] = v[i] < 0 ? v[i] - 0.5f : v[i] + 0.5f;
    }
    return v;
  }

  private static float[] abs(float[] v) {
    float[] out = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = Math.abs(v[i]);
    }
    return out;
  }

  private float[] domain(Unary op, int n) {
    return switch (op) {
      case LOG, SQRT, RSQRT -> {
        float[] v = abs(values(n, 10f));
        for (int i = 0; i < n; i++) {
          v[i] += 1e-3f;
        }
        yield v;
      }
      case RECIPROCAL -> awayFromZero(n);
      case EXP -> values(n, 20f);
      default -> values(n, 6f);
    };
  }

  /** One line per check and the summary line {@code N passed, N failed}. */
  public static String report(String backend, List<Result> results, Consumer<String> out) {
    int passed = 0;
    for (Result r : results) {
      out.accept(
          (r.passed() ? "PASS " : "FAIL ")
              + backend
              + " | "
              + r.name()
              + (r.detail().isEmpty() ? "" : " | " + r.detail()));
      if (r.passed()) {
        passed++;
      }
    }
    String summary = passed + " passed, " + (results.size() - passed) + " failed";
    out.accept(summary);
    return summary;
  }
}
