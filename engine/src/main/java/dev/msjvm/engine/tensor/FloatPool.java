package dev.msjvm.engine.tensor;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Float arrays recycled from one replay of a graph to the next, so that a training step writes its
 * intermediates into memory the previous step used (still in cache) instead of fresh heap.
 *
 * <p>Why: the JVM hands out new memory for every allocation (a bump pointer through a young
 * generation of hundreds of MB), so each step's tensors land in cache-cold lines; on the MLP
 * benchmark every kernel ran 2-4x slower inside the step than in a tight loop over the same
 * tensors. A graph owns one pool, {@linkplain #enter() enters} it for the duration of a replay on
 * the replaying thread, and {@linkplain #recycle gives back} the storage its intermediates used
 * once the replay is over and nothing can reach them. Kernels allocate through {@link #zeroed(int)}
 * / {@link #uninitialized(int)} (and {@link Tensor#zeros}), which take from the pool the current
 * thread entered, or from the heap when there is none. The pool is per graph and per thread while
 * entered; it keeps at most one replay's worth of arrays. Example: {@code try (var scope =
 * pool.enter()) { ... FloatPool.zeroed(n) ... } pool.recycle(deadArrays);}
 */
public final class FloatPool {
  /** Smaller arrays come from the thread's allocation buffer at about the same cost. */
  static final int MIN_POOLED = 1024;

  private static final ThreadLocal<FloatPool> CURRENT = new ThreadLocal<>();

  private final Map<Integer, ArrayDeque<float[]>> free = new HashMap<>();

  /** Makes this pool the current thread's until the scope closes (scopes nest). */
  public Scope enter() {
    FloatPool previous = CURRENT.get();
    CURRENT.set(this);
    return () -> {
      if (previous == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(previous);
      }
    };
  }

  /** Restores the thread's previous pool. */
  @FunctionalInterface
  public interface Scope extends AutoCloseable {
    @Override
    void close();
  }

  /** An array of {@code n} zeros: from the current thread's pool when it has one that size. */
  public static float[] zeroed(int n) {
    float[] a = take(n);
    if (a == null) {
      return new float[n];
    }
    Arrays.fill(a, 0f);
    return a;
  }

  /**
   * An array of {@code n} floats with unspecified contents, for a kernel that writes every element
   * before anything reads it.
   */
  public static float[] uninitialized(int n) {
    float[] a = take(n);
    return a == null ? new float[n] : a;
  }

  private static float[] take(int n) {
    if (n < MIN_POOLED) {
      return null;
    }
    FloatPool pool = CURRENT.get();
    if (pool == null) {
      return null;
    }
    ArrayDeque<float[]> q = pool.free.get(n);
    return q == null ? null : q.poll();
  }

  /**
   * Gives back arrays nothing references any more (each at most once); they replace whatever the
   * pool still held, so it never keeps more than one replay's worth.
   */
  public void recycle(Iterable<float[]> arrays) {
    free.clear();
    for (float[] a : arrays) {
      if (a.length >= MIN_POOLED) {
        free.computeIfAbsent(a.length, k -> new ArrayDeque<>()).push(a);
      }
    }
  }

  /** The number of arrays held (for tests). */
  public int size() {
    return free.values().stream().mapToInt(ArrayDeque::size).sum();
  }
}
