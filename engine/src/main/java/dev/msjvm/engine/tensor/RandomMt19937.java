package dev.msjvm.engine.tensor;

/**
 * The Mersenne Twister MT19937 as numpy's legacy {@code RandomState} uses it: {@code
 * numpy.random.seed(s)} for an int {@code s} is {@code init_genrand(s)}, and {@code randint(low=1,
 * high=1 << 63, dtype=int64)} — how MindSpore 2.10's initializers draw the seed of each Philox
 * stream — is {@link #nextOpSeed()}. One instance per owner; nothing is shared.
 */
public final class RandomMt19937 {
  private static final int N = 624;
  private static final int M = 397;

  private final int[] mt = new int[N];
  private int index = N;

  public RandomMt19937(long seed) {
    mt[0] = (int) seed;
    for (int i = 1; i < N; i++) {
      mt[i] = 1812433253 * (mt[i - 1] ^ (mt[i - 1] >>> 30)) + i;
    }
  }

  /** The next 32-bit output (numpy's {@code genrand_int32}). */
  public int nextInt() {
    if (index >= N) {
      twist();
    }
    int y = mt[index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y;
  }

  /** numpy's {@code next_uint64}: two outputs, the first in the high half. */
  public long nextLong() {
    long hi = Integer.toUnsignedLong(nextInt());
    long lo = Integer.toUnsignedLong(nextInt());
    return (hi << 32) | lo;
  }

  /**
   * {@code RandomState.randint(low=1, high=1 << 63, dtype=numpy.int64)}: masked rejection sampling
   * of {@code [0, 2^63 - 2]}, plus one.
   */
  public long nextOpSeed() {
    long range = Long.MAX_VALUE - 1;
    long v;
    do {
      v = nextLong() & Long.MAX_VALUE;
    } while (v > range);
    return v + 1;
  }

  private void twist() {
    for (int k = 0; k < N; k++) {
      int y = (mt[k] & 0x80000000) | (mt[(k + 1) % N] & 0x7fffffff);
      mt[k] = mt[(k + M) % N] ^ (y >>> 1) ^ ((y & 1) != 0 ? 0x9908b0df : 0);
    }
    index = 0;
  }
}
