package dev.msjvm.shim;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.Blas;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.job.Session;
import dev.msjvm.engine.tensor.Activations;
import dev.msjvm.engine.tensor.Elementwise;
import dev.msjvm.engine.tensor.MatMul;
import dev.msjvm.engine.tensor.Reductions;
import dev.msjvm.engine.tensor.ShapeOps;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.TensorFormat;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.graalvm.polyglot.Value;

/**
 * The narrow Java API that the Python package {@code mindspore} calls: one instance per
 * interpreter.
 *
 * <p>Python reaches it as {@code polyglot.import_value("msjvm_host")} from the single private
 * module {@code mindspore/_host.py}; only plain data and engine objects cross. Example: the shim's
 * {@code set_auto_parallel_context(device_num=8)} checks the argument in Python, then calls {@code
 * host.session().autoParallelContext().set("device_num", 8)}.
 */
public final class Host {
  private final Session session;
  private final DeviceProbe devices;
  private final Supplier<Blas> blas;

  public Host(Session session, DeviceProbe devices, Supplier<Blas> blas) {
    this.session = Objects.requireNonNull(session);
    this.devices = Objects.requireNonNull(devices);
    this.blas = Objects.requireNonNull(blas);
  }

  public Session session() {
    return session;
  }

  /**
   * A new fill and seed-stream host for {@code mindspore.common.initializer} (one per interpreter).
   */
  public InitHost initializers() {
    return new InitHost(session);
  }

  /** Whether hardware for a MindSpore {@code device_target} ("CPU", "GPU", "Ascend") is present. */
  public boolean deviceAvailable(String deviceTarget) {
    return devices.available(deviceTarget);
  }

  /** A tensor of {@code dtype} (a {@link DType} name) from row-major Python numbers. */
  public Tensor tensorOf(String dtype, List<Integer> shape, List<Object> values) {
    return Tensor.of(DType.valueOf(dtype), new Shape(shape), values);
  }

  /** A tensor of zeros. */
  public Tensor tensorZeros(String dtype, List<Integer> shape) {
    return Tensor.zeros(DType.valueOf(dtype), new Shape(shape));
  }

  /**
   * A tensor from little-endian raw bytes ({@code numpy.ndarray.tobytes()}); {@code bytes} is the
   * Python {@code bytes} object, read in one bulk copy where the guest exposes it as a buffer.
   */
  public Tensor tensorFromBytes(String dtype, List<Integer> shape, Value bytes) {
    byte[] raw;
    if (bytes.hasBufferElements()) {
      raw = new byte[(int) bytes.getBufferSize()];
      bytes.readBuffer(0, raw, 0, raw.length);
    } else {
      raw = new byte[(int) bytes.getArraySize()];
      for (int i = 0; i < raw.length; i++) {
        raw[i] = (byte) bytes.getArrayElement(i).asInt();
      }
    }
    return Tensor.fromBytes(DType.valueOf(dtype), new Shape(shape), raw);
  }

  /** {@code t} converted to {@code dtype} (a {@link DType} name). */
  public Tensor tensorAstype(Tensor t, String dtype) {
    return t.astype(DType.valueOf(dtype));
  }

  /** The {@link DType} name of {@code t}. */
  public String tensorDtype(Tensor t) {
    return t.dtype().name();
  }

  /** MindSpore's 2-D {@code MatMul} of {@code x} and {@code y}, with optional transposes. */
  public Tensor matmul(Tensor x, Tensor y, boolean transposeA, boolean transposeB) {
    return MatMul.matmul(x, y, transposeA, transposeB, blas.get());
  }

  /** {@code str(tensor)}: numpy's {@code str} of its values, as MindSpore prints it. */
  public String tensorStr(Tensor t) {
    return TensorFormat.str(t);
  }

  /** {@code repr(tensor)}: MindSpore's {@code Tensor(shape=..., dtype=..., value=...)}. */
  public String tensorRepr(Tensor t) {
    return TensorFormat.repr(t);
  }

  /** The dimensions of {@code t}. */
  public List<Integer> tensorShape(Tensor t) {
    return t.shape().dims();
  }

  /**
   * {@code x op y} for a MindSpore elementwise primitive name ({@code "Add"}, {@code "Less"}...).
   */
  public Tensor binary(String op, Tensor x, Tensor y) {
    return Elementwise.binary(op, x, y);
  }

  /**
   * {@code x op scalar}, or {@code scalar op x} when {@code scalarOnLeft}; a Python bool/int/float.
   */
  public Tensor binaryScalar(String op, Tensor x, Object scalar, boolean scalarOnLeft) {
    return Elementwise.binaryScalar(Elementwise.Binary.of(op), x, scalar, scalarOnLeft);
  }

  /**
   * {@code op(x)} for a MindSpore elementwise primitive name ({@code "Neg"}, {@code "Sqrt"}...).
   */
  public Tensor unary(String op, Tensor x) {
    return Elementwise.unary(Elementwise.Unary.of(op), x);
  }

  /**
   * A MindSpore reduction ({@code "ReduceSum"}, {@code "ReduceMean"}, {@code "ReduceMax"}, {@code
   * "ReduceMin"}) of {@code x} over {@code axes} (empty: all), with errors naming {@code
   * primitive}.
   */
  public Tensor reduce(
      String op, String primitive, Tensor x, List<Integer> axes, boolean keepDims) {
    return Reductions.reduce(Reductions.Op.of(op), primitive, x, axes, keepDims);
  }

  /** MindSpore's {@code Reshape}: {@code x} with shape {@code shape} (one -1 inferred). */
  public Tensor reshape(Tensor x, List<Integer> shape) {
    return ShapeOps.reshape(x, shape);
  }

  /** MindSpore's {@code ExpandDims}. */
  public Tensor expandDims(Tensor x, int axis) {
    return ShapeOps.expandDims(x, axis);
  }

  /** MindSpore's {@code Squeeze} over {@code axes} (empty: every size-1 dimension). */
  public Tensor squeeze(Tensor x, List<Integer> axes) {
    return ShapeOps.squeeze(x, axes);
  }

  /** MindSpore's {@code Transpose} with permutation {@code perm}. */
  public Tensor transpose(Tensor x, List<Integer> perm) {
    return ShapeOps.transpose(x, perm);
  }

  /** MindSpore's {@code Flatten}: {@code [dim0, rest]}. */
  public Tensor flatten(Tensor x) {
    return ShapeOps.flatten(x);
  }

  /** MindSpore's {@code Softmax} ({@code log} false) or {@code LogSoftmax} along {@code axis}. */
  public Tensor softmax(String primitive, Tensor x, int axis, boolean log) {
    return Activations.softmax(primitive, x, axis, log);
  }

  /** MindSpore's {@code ZerosLike}. */
  public Tensor zerosLike(Tensor x) {
    return Activations.zerosLike(x);
  }

  /** MindSpore's {@code OnesLike}. */
  public Tensor onesLike(Tensor x) {
    return Activations.onesLike(x);
  }

  /** If {@code t} is an engine error, the Python exception class name it maps to; else null. */
  public String pythonTypeOf(Object t) {
    return t instanceof MsException e ? e.pythonType() : null;
  }

  /** The message of a Java throwable, for re-raising it in Python. */
  public String messageOf(Object t) {
    if (t instanceof Throwable e) {
      return e.getMessage() == null ? e.getClass().getName() : e.getMessage();
    }
    return String.valueOf(t);
  }
}
