package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ReadLimit;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A dense tensor value on the host: element type, shape and row-major data.
 *
 * <p>Storage by type: {@code float[]} for float32, float16 and bfloat16 (values are kept rounded to
 * the type's precision, so a float16 tensor never holds a value float16 cannot represent), {@code
 * double[]} for float64, {@code int[]} for int8/int16/int32/uint8 (wrapped to the type's range),
 * {@code long[]} for int64, {@code boolean[]} for bool, {@link Complex} (real and imaginary parts,
 * complex64's rounded to float) for complex64/complex128; element reads and writes as double or
 * long refuse complex tensors ({@link #real}, {@link #imag}, {@link #setComplex} read and write
 * them). Tensors are immutable once built: kernels write only into the arrays of tensors they
 * create, with one exception: an optimizer kernel may overwrite the tensor a {@link Variable} owns
 * exclusively ({@link Variable#writable}). Example: {@code Tensor.of(DType.INT32, Shape.of(2),
 * List.of(1, 2)).toList()} is {@code [1, 2]}.
 */
public final class Tensor {
  private final DType dtype;
  private final Shape shape;
  private final Object data;

  private Tensor(DType dtype, Shape shape, Object data) {
    this.dtype = Objects.requireNonNull(dtype);
    this.shape = Objects.requireNonNull(shape);
    this.data = data;
  }

  /**
   * A tensor with a type and no values: what a compile on shapes traces with. Reading or writing
   * its elements is an IllegalStateException; operators on it give abstract tensors (their kernels
   * do not run while a shape-only trace records).
   */
  public static Tensor abstractOf(AbstractTensor type) {
    return new Tensor(type.dtype(), type.shape(), null);
  }

  /** Whether this tensor is only a type ({@link #abstractOf}). */
  public boolean isAbstract() {
    return data == null;
  }

  private Object values() {
    if (data == null) {
      throw new IllegalStateException(
          "a tensor traced on shapes alone has no values (" + type() + ")");
    }
    return data;
  }

  /** A tensor of zeros (false for bool). */
  public static Tensor zeros(DType dtype, Shape shape) {
    int n = checkedSize(shape);
    Object data =
        switch (storage(dtype)) {
          case FLOAT -> FloatPool.zeroed(n);
          case DOUBLE -> new double[n];
          case INT -> new int[n];
          case LONG -> new long[n];
          case BOOL -> new boolean[n];
          case COMPLEX -> new Complex(new double[n], new double[n]);
        };
    return new Tensor(dtype, shape, data);
  }

  /** The storage of a complex tensor: real and imaginary parts, one array each. */
  private record Complex(double[] re, double[] im) {
    Complex copy() {
      return new Complex(re.clone(), im.clone());
    }
  }

  private Complex complex() {
    if (values() instanceof Complex c) {
      return c;
    }
    throw new IllegalStateException(dtype + " tensor is not complex");
  }

  /** The real part of element {@code i} (the value itself for a real tensor). */
  public double real(int i) {
    return values() instanceof Complex c ? c.re[i] : getDouble(i);
  }

  /** The imaginary part of element {@code i} (0 for a real tensor). */
  public double imag(int i) {
    return values() instanceof Complex c ? c.im[i] : 0;
  }

  /** Sets element {@code i} of a complex tensor (complex64 rounds both parts to float). */
  void setComplex(int i, double re, double im) {
    Complex c = complex();
    boolean narrow = dtype == DType.COMPLEX64;
    c.re[i] = narrow ? (float) re : re;
    c.im[i] = narrow ? (float) im : im;
  }

  /** A tensor of {@code dtype} whose element {@code i} is {@code f(i)}, rounded as a cast does. */
  public static Tensor ofDoubles(
      DType dtype, Shape shape, java.util.function.IntToDoubleFunction f) {
    Tensor t = zeros(dtype, shape);
    for (int i = 0; i < t.size(); i++) {
      t.setDouble(i, f.applyAsDouble(i));
    }
    return t;
  }

  /** Wraps {@code values} (taken over, not copied) as a float32 tensor. */
  public static Tensor ofFloats(Shape shape, float[] values) {
    if (values.length != checkedSize(shape)) {
      throw new IllegalArgumentException(values.length + " values for shape " + shape);
    }
    return new Tensor(DType.FLOAT32, shape, values);
  }

  /**
   * A tensor from row-major values given as Java numbers or booleans (as they arrive from Python),
   * converted to {@code dtype} the way a cast does: floats to integers truncate toward zero,
   * integers wrap to the type's width, anything non-zero is true.
   */
  public static Tensor of(DType dtype, Shape shape, List<?> values) {
    Tensor t = zeros(dtype, shape);
    if (values.size() != t.size()) {
      throw MsException.valueError(
          "The number of values " + values.size() + " does not match the shape " + shape + ".");
    }
    for (int i = 0; i < values.size(); i++) {
      Object v = values.get(i);
      if (dtype.isComplex() && v instanceof Number n) {
        t.setComplex(i, n.doubleValue(), 0); // a real value, imaginary part 0
      } else if (v instanceof Boolean b) {
        t.setLong(i, b ? 1 : 0);
      } else if (v instanceof Double || v instanceof Float) {
        t.setDouble(i, ((Number) v).doubleValue());
      } else if (v instanceof Number n) {
        t.setLong(i, n.longValue());
      } else {
        throw MsException.typeError(
            "For 'Tensor', the value must be a number or bool, but got "
                + (v == null ? "None" : v.getClass().getSimpleName())
                + ".");
      }
    }
    return t;
  }

  /** A complex tensor from the real and imaginary parts of its row-major elements. */
  public static Tensor ofComplex(DType dtype, Shape shape, double[] re, double[] im) {
    if (!dtype.isComplex() || re.length != im.length) {
      throw new IllegalArgumentException(dtype + " from " + re.length + "/" + im.length + " parts");
    }
    Tensor t = zeros(dtype, shape);
    if (re.length != t.size()) {
      throw MsException.valueError(
          "The number of values " + re.length + " does not match the shape " + shape + ".");
    }
    for (int i = 0; i < re.length; i++) {
      t.setComplex(i, re[i], im[i]);
    }
    return t;
  }

  /**
   * A tensor of this one's type and {@code shape} whose element {@code i} is this one's element
   * {@code index.applyAsInt(i)}: an exact copy of values for every storage type, complex included
   * (slices, gathers).
   */
  public Tensor take(Shape shape, java.util.function.IntUnaryOperator index) {
    Tensor t = zeros(dtype, shape);
    int n = t.size();
    switch (values()) {
      case float[] a -> {
        float[] o = (float[]) t.data;
        for (int i = 0; i < n; i++) {
          o[i] = a[index.applyAsInt(i)];
        }
      }
      case double[] a -> {
        double[] o = (double[]) t.data;
        for (int i = 0; i < n; i++) {
          o[i] = a[index.applyAsInt(i)];
        }
      }
      case int[] a -> {
        int[] o = (int[]) t.data;
        for (int i = 0; i < n; i++) {
          o[i] = a[index.applyAsInt(i)];
        }
      }
      case long[] a -> {
        long[] o = (long[]) t.data;
        for (int i = 0; i < n; i++) {
          o[i] = a[index.applyAsInt(i)];
        }
      }
      case boolean[] a -> {
        boolean[] o = (boolean[]) t.data;
        for (int i = 0; i < n; i++) {
          o[i] = a[index.applyAsInt(i)];
        }
      }
      case Complex a -> {
        Complex o = (Complex) t.data;
        for (int i = 0; i < n; i++) {
          int j = index.applyAsInt(i);
          o.re[i] = a.re[j];
          o.im[i] = a.im[j];
        }
      }
      default -> throw new IllegalStateException("unknown storage " + data.getClass());
    }
    return t;
  }

  /** A tensor from little-endian raw bytes in {@code dtype}'s layout (NumPy's {@code tobytes}). */
  public static Tensor fromBytes(DType dtype, Shape shape, byte[] bytes) {
    // Checked before anything is allocated: the shape may come from a file (a checkpoint).
    if (bytes.length != ReadLimit.byteSize(shape.dims(), dtype.itemSize())) {
      throw MsException.valueError(
          "For 'Tensor', " + bytes.length + " bytes do not hold " + shape + " of " + dtype + ".");
    }
    Tensor t = zeros(dtype, shape);
    t.putBytes(0, ByteBuffer.wrap(bytes));
    return t;
  }

  /**
   * Sets elements {@code from, from + 1, ...} from the remaining bytes of {@code bytes} (raw
   * little-endian values in this tensor's type's layout, a whole number of them): how a reader
   * fills a tensor a chunk at a time.
   */
  public void putBytes(int from, ByteBuffer bytes) {
    ByteBuffer b = bytes.slice().order(ByteOrder.LITTLE_ENDIAN);
    int n = b.remaining() / dtype.itemSize();
    for (int i = from; i < from + n; i++) {
      switch (dtype) {
        case BOOL -> setLong(i, b.get() != 0 ? 1 : 0);
        case UINT8 -> setLong(i, b.get() & 0xff);
        case INT8 -> setLong(i, b.get());
        case INT16 -> setLong(i, b.getShort());
        case INT32 -> setLong(i, b.getInt());
        case INT64 -> setLong(i, b.getLong());
        case FLOAT16 -> setDouble(i, Float.float16ToFloat(b.getShort()));
        case BFLOAT16 -> setDouble(i, Float.intBitsToFloat((b.getShort() & 0xffff) << 16));
        case FLOAT32 -> setDouble(i, b.getFloat());
        case FLOAT64 -> setDouble(i, b.getDouble());
        case COMPLEX64 -> setComplex(i, b.getFloat(), b.getFloat());
        case COMPLEX128 -> setComplex(i, b.getDouble(), b.getDouble());
      }
    }
  }

  /** A tensor with the same values and storage but its own identity. */
  public Tensor alias() {
    return new Tensor(dtype, shape, data);
  }

  /** The float array behind a float32/float16/bfloat16 tensor, else null (for recycling). */
  public float[] floatStorage() {
    return data instanceof float[] f ? f : null;
  }

  /**
   * An object that is the same for exactly the tensors sharing this one's storage (null for an
   * abstract tensor): what memory counts tell storage apart by. Not to be written through.
   */
  public Object storageKey() {
    return data;
  }

  /** Whether this tensor and {@code other} are views of the same storage. */
  public boolean sharesStorage(Tensor other) {
    return data != null && data == other.data;
  }

  /** A tensor with the same values in storage of its own. */
  public Tensor copy() {
    if (data == null) {
      return alias();
    }
    Object copied =
        switch (data) {
          case float[] f -> f.clone();
          case double[] d -> d.clone();
          case int[] i -> i.clone();
          case long[] l -> l.clone();
          case boolean[] b -> b.clone();
          case Complex c -> c.copy();
          default -> throw new IllegalStateException("unknown storage " + data.getClass());
        };
    return new Tensor(dtype, shape, copied);
  }

  /** The same storage under another shape with as many elements (what Reshape computes). */
  public Tensor withShape(Shape newShape) {
    if (checkedSize(newShape) != size()) {
      throw new IllegalArgumentException(newShape + " does not hold " + size() + " elements");
    }
    return new Tensor(dtype, newShape, data);
  }

  public DType dtype() {
    return dtype;
  }

  /** Its shape and dtype, without its values. */
  public AbstractTensor type() {
    return new AbstractTensor(shape, dtype);
  }

  public Shape shape() {
    return shape;
  }

  /** Number of elements. */
  public int size() {
    if (data instanceof Complex c) {
      return c.re.length;
    }
    return data == null ? checkedSize(shape) : java.lang.reflect.Array.getLength(data);
  }

  /** The float storage of a float32/float16/bfloat16 tensor; kernels must not write to it. */
  public float[] floats() {
    if (values() instanceof float[] f) {
      return f;
    }
    throw new IllegalStateException(dtype + " tensor has no float storage");
  }

  /** Element {@code i} (row-major) as a double. */
  public double getDouble(int i) {
    return switch (values()) {
      case float[] f -> f[i];
      case double[] d -> d[i];
      case int[] a -> a[i];
      case long[] a -> a[i];
      case boolean[] a -> a[i] ? 1 : 0;
      default -> throw new IllegalStateException();
    };
  }

  /** Element {@code i} as a long (floats truncate toward zero). */
  public long getLong(int i) {
    return switch (values()) {
      case float[] f -> (long) f[i];
      case double[] d -> (long) d[i];
      case int[] a -> a[i];
      case long[] a -> a[i];
      case boolean[] a -> a[i] ? 1 : 0;
      default -> throw new IllegalStateException();
    };
  }

  /**
   * Element {@code i} as the Java value Python should see: Boolean, Long or Double, or for a
   * complex tensor a two-element list of its real and imaginary parts.
   */
  public Object get(int i) {
    if (dtype.isComplex()) {
      return List.of(real(i), imag(i));
    }
    if (dtype == DType.BOOL) {
      return ((boolean[]) values())[i];
    }
    return dtype.isFloat() ? (Object) getDouble(i) : (Object) getLong(i);
  }

  /** This tensor's values converted to {@code target}, as {@code Tensor.astype} does. */
  public Tensor astype(DType target) {
    if (values() instanceof float[] f && target == DType.FLOAT32) {
      // float32 from float32/float16/bfloat16: every value is exact in float32 (the common Cast
      // of a traced step, which the element-wise loop below made the hottest kernel).
      return new Tensor(target, shape, f.clone());
    }
    if (data instanceof float[] f && target == DType.FLOAT64) {
      double[] d = new double[f.length];
      for (int i = 0; i < f.length; i++) {
        d[i] = f[i];
      }
      return new Tensor(target, shape, d);
    }
    Tensor t = zeros(target, shape);
    int n = size();
    if (target.isComplex()) {
      for (int i = 0; i < n; i++) {
        t.setComplex(i, real(i), imag(i));
      }
      return t;
    }
    for (int i = 0; i < n; i++) {
      if (dtype.isComplex()) {
        t.setDouble(i, real(i)); // complex to real keeps the real part, as MindSpore's Cast
      } else if (dtype.isFloat()) {
        t.setDouble(i, getDouble(i));
      } else {
        t.setLong(i, getLong(i));
      }
    }
    return t;
  }

  /** Nested lists of Boolean/Long/Double, as {@code Tensor.tolist()} returns; a scalar's value. */
  public Object toList() {
    if (shape.rank() == 0) {
      return get(0);
    }
    return nest(0, 0);
  }

  private Object nest(int axis, int offset) {
    int dim = shape.dim(axis);
    List<Object> out = new ArrayList<>(dim);
    if (axis == shape.rank() - 1) {
      for (int i = 0; i < dim; i++) {
        out.add(get(offset + i));
      }
      return out;
    }
    int stride = 1; // elements per index of this axis: the product of the later dimensions
    for (int a = axis + 1; a < shape.rank(); a++) {
      stride *= shape.dim(a);
    }
    for (int i = 0; i < dim; i++) {
      out.add(nest(axis + 1, offset + i * stride));
    }
    return out;
  }

  void setDouble(int i, double v) {
    switch (values()) {
      case float[] f -> f[i] = roundFloat(dtype, v);
      case double[] d -> d[i] = v;
      case int[] a -> a[i] = wrapInt(dtype, (long) v);
      case long[] a -> a[i] = (long) v;
      case boolean[] a -> a[i] = v != 0;
      default -> throw new IllegalStateException();
    }
  }

  void setLong(int i, long v) {
    switch (values()) {
      case float[] f -> f[i] = roundFloat(dtype, v);
      case double[] d -> d[i] = v;
      case int[] a -> a[i] = wrapInt(dtype, v);
      case long[] a -> a[i] = v;
      case boolean[] a -> a[i] = v != 0;
      default -> throw new IllegalStateException();
    }
  }

  /** {@code v} rounded to float32, float16 or bfloat16 (round to nearest even), as a float. */
  static float roundFloat(DType dtype, double v) {
    float f = (float) v;
    return switch (dtype) {
      case FLOAT16 -> Float.float16ToFloat(Float.floatToFloat16(f));
      case BFLOAT16 -> toBfloat16(f);
      default -> f;
    };
  }

  private static float toBfloat16(float f) {
    if (Float.isNaN(f)) {
      return f;
    }
    int bits = Float.floatToRawIntBits(f);
    int rounded = bits + 0x7fff + ((bits >>> 16) & 1);
    return Float.intBitsToFloat(rounded & 0xffff0000);
  }

  private static int wrapInt(DType dtype, long v) {
    return switch (dtype) {
      case INT8 -> (byte) v;
      case UINT8 -> (int) (v & 0xff);
      case INT16 -> (short) v;
      default -> (int) v;
    };
  }

  private enum Storage {
    FLOAT,
    DOUBLE,
    INT,
    LONG,
    BOOL,
    COMPLEX
  }

  private static Storage storage(DType dtype) {
    return switch (dtype) {
      case FLOAT32, FLOAT16, BFLOAT16 -> Storage.FLOAT;
      case FLOAT64 -> Storage.DOUBLE;
      case INT8, INT16, INT32, UINT8 -> Storage.INT;
      case INT64 -> Storage.LONG;
      case BOOL -> Storage.BOOL;
      case COMPLEX64, COMPLEX128 -> Storage.COMPLEX;
    };
  }

  private static int checkedSize(Shape shape) {
    long n = shape.size();
    if (n > Integer.MAX_VALUE - 8) {
      throw MsException.valueError("A tensor of shape " + shape + " is too large for one array.");
    }
    return (int) n;
  }

  @Override
  public String toString() {
    return "Tensor(shape=" + shape + ", dtype=" + dtype + (data == null ? ", abstract)" : ")");
  }
}
