package dev.msjvm.engine.tensor;

/**
 * The Philox4x32-10 counter-based generator (Salmon et al., "Parallel random numbers: as easy as 1,
 * 2, 3", SC 2011) with the seeding and output order of MindSpore's initializers.
 *
 * <p>A 64-bit seed {@code s} gives the key {@code (lo(s), hi(s))} and the first counter {@code (0,
 * 0, lo(s), hi(s))}; each block of four 32-bit outputs is the ten-round bijection of the counter,
 * after which the 128-bit counter is incremented. The state lives in the instance only. Example:
 * {@code new RandomPhilox(42).nextInt()} is the first of the words MindSpore 2.10's {@code
 * _random_normal(42, ...)} consumes.
 */
public final class RandomPhilox {
  private static final int MAGIC0 = 0xD2511F53;
  private static final int MAGIC1 = 0xCD9E8D57;
  private static final int KEY_STEP0 = 0x9E3779B9;
  private static final int KEY_STEP1 = 0xBB67AE85;

  private final int key0;
  private final int key1;
  private final int[] counter = new int[4];
  private final int[] results = new int[4];
  private int index = 4;

  public RandomPhilox(long seed) {
    key0 = (int) seed;
    key1 = (int) (seed >>> 32);
    counter[2] = (int) seed;
    counter[3] = (int) (seed >>> 32);
  }

  /**
   * Moves to output {@code word} (counted from 0 for this seed): the next {@link #nextInt} is the
   * one a fresh generator would give after {@code word} others. Philox is counter-based, so any
   * block of a random fill can be made on its own.
   */
  public void skipTo(long word) {
    if (word < 0) {
      throw new IllegalArgumentException("word must be >= 0, got " + word);
    }
    long block = word >>> 2;
    // The 128-bit counter starts at (0, 0, seed): block numbers below 2^62 only reach the low half.
    counter[0] = (int) block;
    counter[1] = (int) (block >>> 32);
    index = 4;
    int skip = (int) (word & 3);
    for (int i = 0; i < skip; i++) {
      nextInt();
    }
  }

  /** The next 32-bit output (read it unsigned: {@link Integer#toUnsignedLong}). */
  public int nextInt() {
    if (index == 4) {
      block(counter, key0, key1, results);
      increment();
      index = 0;
    }
    return results[index++];
  }

  /** Philox4x32-10 of {@code counter} under {@code (key0, key1)}, written into {@code out}. */
  public static void block(int[] counter, int key0, int key1, int[] out) {
    int c0 = counter[0];
    int c1 = counter[1];
    int c2 = counter[2];
    int c3 = counter[3];
    int k0 = key0;
    int k1 = key1;
    for (int round = 0; round < 10; round++) {
      long p0 = Integer.toUnsignedLong(MAGIC0) * Integer.toUnsignedLong(c0);
      long p1 = Integer.toUnsignedLong(MAGIC1) * Integer.toUnsignedLong(c2);
      int n0 = (int) (p1 >>> 32) ^ c1 ^ k0;
      int n2 = (int) (p0 >>> 32) ^ c3 ^ k1;
      c0 = n0;
      c1 = (int) p1;
      c2 = n2;
      c3 = (int) p0;
      k0 += KEY_STEP0;
      k1 += KEY_STEP1;
    }
    out[0] = c0;
    out[1] = c1;
    out[2] = c2;
    out[3] = c3;
  }

  private void increment() {
    for (int i = 0; i < 4; i++) {
      if (++counter[i] != 0) {
        return;
      }
    }
  }
}
