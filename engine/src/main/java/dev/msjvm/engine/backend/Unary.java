package dev.msjvm.engine.backend;

/**
 * Elementwise single-input kernels a {@link DeviceBackend} provides, each declared once: its
 * reference value in Java (float arithmetic where float has the function, else double rounded once)
 * and its CUDA C expression over {@code x}, from which device backends generate their kernels.
 */
public enum Unary {
  NEG("-x") {
    @Override
    public float apply(float x) {
      return -x;
    }
  },
  ABS("fabsf(x)") {
    @Override
    public float apply(float x) {
      return Math.abs(x);
    }
  },
  SQUARE("x * x") {
    @Override
    public float apply(float x) {
      return x * x;
    }
  },
  RECIPROCAL("1.0f / x") {
    @Override
    public float apply(float x) {
      return 1f / x;
    }
  },
  SQRT("sqrtf(x)") {
    @Override
    public float apply(float x) {
      return (float) Math.sqrt(x);
    }
  },
  RSQRT("1.0f / sqrtf(x)") {
    @Override
    public float apply(float x) {
      return 1f / (float) Math.sqrt(x);
    }
  },
  EXP("expf(x)") {
    @Override
    public float apply(float x) {
      return (float) Math.exp(x);
    }
  },
  LOG("logf(x)") {
    @Override
    public float apply(float x) {
      return (float) Math.log(x);
    }
  },
  TANH("tanhf(x)") {
    @Override
    public float apply(float x) {
      return (float) Math.tanh(x);
    }
  },
  SIGMOID("1.0f / (1.0f + expf(-x))") {
    @Override
    public float apply(float x) {
      return (float) (1.0 / (1.0 + Math.exp(-x)));
    }
  },
  RELU("fmaxf(x, 0.0f)") {
    @Override
    public float apply(float x) {
      return x > 0f ? x : 0f;
    }
  },
  /** MindSpore's GeLU (the tanh approximation): 0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3))). */
  GELU("0.5f * x * (1.0f + tanhf(0.7978845608028654f * (x + 0.044715f * x * x * x)))") {
    @Override
    public float apply(float x) {
      return (float) (0.5 * x * (1 + Math.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))));
    }
  };

  private final String cuda;

  Unary(String cuda) {
    this.cuda = cuda;
  }

  /** The reference result for one element. */
  public abstract float apply(float x);

  /** The CUDA C expression of this function of the float {@code x}. */
  public String cudaExpression() {
    return cuda;
  }
}
