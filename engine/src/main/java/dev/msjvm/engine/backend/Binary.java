package dev.msjvm.engine.backend;

/**
 * Elementwise two-input kernels a {@link DeviceBackend} provides, each declared once: its reference
 * value in Java and its CUDA C expression over {@code a} and {@code b}, from which device backends
 * generate their kernels.
 */
public enum Binary {
  ADD("a + b") {
    @Override
    public float apply(float a, float b) {
      return a + b;
    }
  },
  SUB("a - b") {
    @Override
    public float apply(float a, float b) {
      return a - b;
    }
  },
  MUL("a * b") {
    @Override
    public float apply(float a, float b) {
      return a * b;
    }
  },
  DIV("a / b") {
    @Override
    public float apply(float a, float b) {
      return a / b;
    }
  },
  MAXIMUM("fmaxf(a, b)") {
    @Override
    public float apply(float a, float b) {
      return Math.max(a, b);
    }
  },
  MINIMUM("fminf(a, b)") {
    @Override
    public float apply(float a, float b) {
      return Math.min(a, b);
    }
  },
  /** MindSpore's ReluGrad(dy, y): {@code a} is the incoming gradient, {@code b} the ReLU output. */
  RELU_GRAD("b > 0.0f ? a : 0.0f") {
    @Override
    public float apply(float a, float b) {
      return b > 0f ? a : 0f;
    }
  };

  private final String cuda;

  Binary(String cuda) {
    this.cuda = cuda;
  }

  /** The reference result for one pair of elements. */
  public abstract float apply(float a, float b);

  /** The CUDA C expression of this function of the floats {@code a} and {@code b}. */
  public String cudaExpression() {
    return cuda;
  }
}
