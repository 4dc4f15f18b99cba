package dev.msjvm.shim;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.job.Session;
import dev.msjvm.engine.tensor.Initializers;
import dev.msjvm.engine.tensor.RandomMt19937;
import dev.msjvm.engine.tensor.Tensor;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What {@code mindspore.common.initializer} calls: tensor fills and the seed stream of one
 * interpreter.
 *
 * <p>MindSpore 2.10 seeds every random initializer call with {@code numpy.random.randint(1, 2**63)}
 * from numpy's global generator, which {@code set_seed(s)} re-seeds with {@code s}. Here that
 * generator is this object's {@link RandomMt19937}; the shim keeps one InitHost per interpreter (so
 * ranks never share it) and calls {@link #reseed} from {@code set_seed}. Without a seed it starts
 * from OS entropy, as numpy does. Example: after {@code reseed(42L)}, {@code normal(List.of(2, 3),
 * 0.0, 0.01)} holds the values of MindSpore's {@code initializer(Normal(), [2, 3]).init_data()}
 * after {@code set_seed(42)}.
 */
public final class InitHost {
  private final Session session;
  private RandomMt19937 seeds;

  /** The seed the next random fill uses instead of the stream's next one ({@link #pinNext}). */
  private Long pinned;

  public InitHost(Session session) {
    this.session = Objects.requireNonNull(session);
    Long seed = session.seed();
    reseed(seed);
  }

  /** Restarts the seed stream at {@code seed} ({@code numpy.random.seed}); null: OS entropy. */
  public void reseed(Long seed) {
    long s = seed != null ? seed : new SecureRandom().nextInt() & 0xffffffffL;
    seeds = new RandomMt19937(s);
  }

  /** The Session this fills for. */
  public Session session() {
    return session;
  }

  /**
   * The next per-call seed (numpy's {@code randint(low=1, high=1 << 63, dtype=int64)}), or the one
   * {@link #pinNext} set.
   */
  public long nextSeed() {
    if (pinned != null) {
      long s = pinned;
      pinned = null;
      return s;
    }
    return seeds.nextOpSeed();
  }

  /**
   * Makes the next random fill use {@code seed} instead of the stream's next one: a Parameter
   * deferred by a parallel mode drew its seed when it was created (stand-alone order) and fills
   * later with it.
   */
  public void pinNext(long seed) {
    pinned = seed;
  }

  /** Drops a pinned seed no fill used (a fill that draws none), and a pinned block. */
  public void clearPin() {
    pinned = null;
    block = null;
  }

  /**
   * Makes the fills until {@link #clearPin} make only the block of their tensor starting at {@code
   * begin} with {@code length} elements per dimension, bit-identical to that block of the whole
   * fill: how a rank of a parallel job fills only its slice of a deferred Parameter.
   */
  public void pinBlock(List<Integer> begin, List<Integer> length) {
    block = new int[][] {toInts(begin), toInts(length)};
  }

  /** The block the next fills make ({@link #pinBlock}), or null for whole tensors. */
  private int[][] block;

  private static int[] toInts(List<Integer> values) {
    return values.stream().mapToInt(Integer::intValue).toArray();
  }

  /** The shape of what a fill of {@code s} makes: the pinned block's, or {@code s}. */
  private Shape made(Shape s) {
    if (block == null) {
      return s;
    }
    if (block[0].length != s.rank()) {
      throw MsException.valueError(
          "A block of rank " + block[0].length + " for a tensor of shape " + s.dims());
    }
    return Shape.of(block[1]);
  }

  /** Normal values as float32, then cast to {@code dtype} (a DType name). */
  public Tensor normal(String dtype, List<Integer> shape, double mean, double sigma) {
    if (sigma < 0) {
      throw MsException.valueError("sigma < 0");
    }
    float m = (float) mean;
    float sg = (float) sigma;
    return random(
        "normal " + mean + " " + sigma,
        dtype,
        shape,
        (seed, n) -> Initializers.normal(seed, n, m, sg),
        (seed, whole, begin, length) -> Initializers.normal(seed, whole, begin, length, m, sg));
  }

  /** Uniform values in [a, b) as float32, then cast to {@code dtype}. */
  public Tensor uniform(String dtype, List<Integer> shape, double a, double b) {
    float lo = (float) a;
    float hi = (float) b;
    return random(
        "uniform " + a + " " + b,
        dtype,
        shape,
        (seed, n) -> Initializers.uniform(seed, n, lo, hi),
        (seed, whole, begin, length) -> Initializers.uniform(seed, whole, begin, length, lo, hi));
  }

  /** Truncated normal values as float32, then cast to {@code dtype}. */
  public Tensor truncatedNormal(
      String dtype, List<Integer> shape, double a, double b, double mean, double sigma) {
    if (sigma < 0) {
      throw MsException.valueError("sigma < 0");
    }
    if (sigma == 0) {
      throw MsException.runtimeError("TruncatedNormal: invalid sigma " + (float) sigma + ".");
    }
    float lo = (float) a;
    float hi = (float) b;
    float m = (float) mean;
    float sg = (float) sigma;
    return random(
        "truncated_normal " + a + " " + b + " " + mean + " " + sigma,
        dtype,
        shape,
        (seed, n) -> Initializers.truncatedNormal(seed, n, lo, hi, m, sg),
        (seed, whole, begin, length) ->
            Initializers.truncatedNormal(seed, whole, begin, length, lo, hi, m, sg));
  }

  /** A random fill of a whole tensor of {@code n} elements from {@code seed}. */
  @FunctionalInterface
  private interface WholeDraw {
    float[] values(long seed, int n);
  }

  /** The block from {@code begin} with {@code length} per dimension of a fill of {@code whole}. */
  @FunctionalInterface
  private interface BlockDraw {
    float[] values(long seed, int[] whole, int[] begin, int[] length);
  }

  /**
   * A random fill of {@code shape} as float32 cast to {@code dtype}, from the next seed: the whole
   * tensor, or the pinned block of it ({@link #pinBlock}); shared with the job's other ranks
   * ({@link #shared}).
   */
  private Tensor random(
      String what, String dtype, List<Integer> shape, WholeDraw whole, BlockDraw part) {
    Shape s = new Shape(shape);
    long seed = nextSeed();
    int[][] b = block;
    return shared(
        what,
        seed,
        s,
        dtype,
        () -> {
          float[] values =
              b == null ? whole.values(seed, size(s)) : part.values(seed, s.toArray(), b[0], b[1]);
          return cast(Tensor.ofFloats(made(s), values), dtype);
        });
  }

  /** Every element {@code value} (a Python bool, int or float), converted as numpy's fill does. */
  public Tensor filled(String dtype, List<Integer> shape, Object value) {
    Shape s = made(new Shape(shape));
    DType type = DType.valueOf(dtype);
    if (value instanceof Number n && Double.doubleToRawLongBits(n.doubleValue()) == 0L) {
      return Tensor.zeros(type, s); // zero in every dtype (optimizer states: no boxed values)
    }
    if (type == DType.FLOAT32 && value instanceof Number n) {
      float[] values = new float[size(s)];
      java.util.Arrays.fill(values, (float) n.doubleValue());
      return Tensor.ofFloats(s, values);
    }
    return Tensor.of(type, s, Collections.nCopies(size(s), value));
  }

  /**
   * What {@code make} fills for a random fill of {@code s} ({@code what}: the initializer and its
   * parameters) from {@code seed}, shared with the job's other local ranks making the same one
   * ({@link dev.msjvm.engine.job.SharedFills}: replicated parameters are drawn once); small fills
   * are made here.
   */
  private Tensor shared(String what, long seed, Shape s, String dtype, Supplier<Tensor> make) {
    Shape out = made(s);
    if (out.size() < SHARED_FILL_ELEMENTS) {
      return make.get();
    }
    String part =
        block == null ? "whole" : Arrays.toString(block[0]) + "+" + Arrays.toString(block[1]);
    return session.job().fills().fill(what + " " + seed + " " + s + " " + part + " " + dtype, make);
  }

  /** The fills shared between ranks are at least this many elements (smaller ones cost less). */
  private static final long SHARED_FILL_ELEMENTS = 4096;

  private static Tensor cast(Tensor t, String dtype) {
    DType target = DType.valueOf(dtype);
    return t.dtype() == target ? t : t.astype(target);
  }

  private static int size(Shape s) {
    long n = 1;
    for (int d : s.dims()) {
      n *= d;
    }
    if (n > Integer.MAX_VALUE) {
      throw MsException.valueError("Error shape=" + s.dims());
    }
    return (int) n;
  }
}
