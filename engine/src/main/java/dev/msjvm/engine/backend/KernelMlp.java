package dev.msjvm.engine.backend;

import java.util.SplittableRandom;

/**
 * The seed MLP (Dense 784-512-512-10 with ReLU, sparse softmax cross-entropy with mean reduction,
 * SGD) trained directly on a {@link DeviceBackend}'s kernels, without the graph engine: the kernel
 * sequence one MindSpore training step of that network runs (9 GEMMs, bias adds, ReLU and its
 * gradient, the loss and its gradient, bias-gradient reductions, the update). Weights are stored as
 * MindSpore's {@code nn.Dense} holds them, {@code [out, in]}. Parameters live on the device between
 * steps; each step's activations live in a {@link MemoryScope} closed at its end.
 */
public final class KernelMlp implements AutoCloseable {

  /** Layer widths of the seed MLP. */
  public static final int[] SEED_WIDTHS = {784, 512, 512, 10};

  private final DeviceBackend backend;
  private final int[] widths;
  private final DeviceBuffer[] weights;
  private final DeviceBuffer[] biases;
  private final DeviceBuffer[] weightAccum;
  private final DeviceBuffer[] biasAccum;
  private final float lr;

  /** Parameters drawn from {@code seed} (uniform in +-1/sqrt(fan_in)), copied to the device. */
  public KernelMlp(DeviceBackend backend, int[] widths, float lr, long seed) {
    this.backend = backend;
    this.widths = widths.clone();
    this.lr = lr;
    int layers = widths.length - 1;
    weights = new DeviceBuffer[layers];
    biases = new DeviceBuffer[layers];
    weightAccum = new DeviceBuffer[layers];
    biasAccum = new DeviceBuffer[layers];
    SplittableRandom random = new SplittableRandom(seed);
    for (int l = 0; l < layers; l++) {
      int in = widths[l];
      int out = widths[l + 1];
      float bound = (float) (1 / Math.sqrt(in));
      weights[l] = upload(uniform(random, out * in, bound));
      biases[l] = upload(uniform(random, out, bound));
      weightAccum[l] = backend.allocate((long) out * in);
      backend.fill(weightAccum[l], 0, (long) out * in, 0f);
      biasAccum[l] = backend.allocate(out);
      backend.fill(biasAccum[l], 0, out, 0f);
    }
  }

  /** {@code n} floats uniform in {@code [-bound, bound)}. */
  public static float[] uniform(SplittableRandom random, int n, float bound) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) ((random.nextDouble() * 2 - 1) * bound);
    }
    return v;
  }

  private DeviceBuffer upload(float[] values) {
    DeviceBuffer b = backend.allocate(values.length);
    backend.copyIn(values, 0, b, 0, values.length);
    return b;
  }

  /**
   * One training step on a batch already on the device ({@code x}: {@code batch x 784}, {@code
   * labels}: {@code batch} class indices as floats); returns the mean loss when {@code readLoss} (a
   * device-to-host copy, which waits for the step), else NaN.
   */
  public float step(DeviceBuffer x, DeviceBuffer labels, int batch, boolean readLoss) {
    int layers = widths.length - 1;
    try (MemoryScope scope = new MemoryScope(backend)) {
      DeviceBuffer[] acts = new DeviceBuffer[layers + 1];
      acts[0] = x;
      for (int l = 0; l < layers; l++) {
        int in = widths[l];
        int out = widths[l + 1];
        DeviceBuffer y = scope.allocate((long) batch * out);
        backend.gemm(
            false, true, batch, out, in, 1f, acts[l], 0, in, weights[l], 0, in, 0f, y, 0, out);
        backend.zipRow(Binary.ADD, y, biases[l], y, batch, out);
        if (l < layers - 1) {
          backend.map(Unary.RELU, y, y, (long) batch * out);
        }
        acts[l + 1] = y;
      }
      int classes = widths[layers];
      DeviceBuffer loss = scope.allocate(batch);
      DeviceBuffer grad = scope.allocate((long) batch * classes);
      backend.softmaxCrossEntropy(acts[layers], labels, loss, grad, batch, classes, 1f / batch);
      for (int l = layers - 1; l >= 0; l--) {
        int in = widths[l];
        int out = widths[l + 1];
        DeviceBuffer dw = scope.allocate((long) out * in);
        backend.gemm(true, false, out, in, batch, 1f, grad, 0, out, acts[l], 0, in, 0f, dw, 0, in);
        DeviceBuffer db = scope.allocate(out);
        backend.sumCols(grad, db, batch, out);
        if (l > 0) {
          DeviceBuffer dx = scope.allocate((long) batch * in);
          backend.gemm(
              false, false, batch, in, out, 1f, grad, 0, out, weights[l], 0, in, 0f, dx, 0, in);
          backend.zip(Binary.RELU_GRAD, dx, acts[l], dx, (long) batch * in);
          grad = dx;
        }
        backend.applyMomentum(weights[l], weightAccum[l], dw, lr, 0f, false, (long) out * in);
        backend.applyMomentum(biases[l], biasAccum[l], db, lr, 0f, false, out);
      }
      if (!readLoss) {
        return Float.NaN;
      }
      float[] host = new float[batch];
      backend.copyOut(loss, 0, host, 0, batch);
      double sum = 0;
      for (float v : host) {
        sum += v;
      }
      return (float) (sum / batch);
    }
  }

  /** Every parameter copied to the host, weights then bias of each layer in turn. */
  public float[][] parameters() {
    int layers = widths.length - 1;
    float[][] out = new float[2 * layers][];
    for (int l = 0; l < layers; l++) {
      out[2 * l] = download(weights[l]);
      out[2 * l + 1] = download(biases[l]);
    }
    return out;
  }

  private float[] download(DeviceBuffer b) {
    float[] host = new float[Math.toIntExact(b.length())];
    backend.copyOut(b, 0, host, 0, host.length);
    return host;
  }

  @Override
  public void close() {
    for (DeviceBuffer[] group : new DeviceBuffer[][] {weights, biases, weightAccum, biasAccum}) {
      for (DeviceBuffer b : group) {
        b.close();
      }
    }
  }
}
