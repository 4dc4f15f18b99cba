package dev.msjvm.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

// Known answers: Philox from Random123's kat_vectors; the rest recorded from MindSpore 2.10.0
// (numpy's legacy RandomState and
// mindspore._c_expression._random_normal/_uniform/_truncated_normal).
class RandomTest {
  private static int[] philox(int[] counter, int key0, int key1) {
    int[] out = new int[4];
    RandomPhilox.block(counter, key0, key1, out);
    return out;
  }

  @Test
  void philoxMatchesTheKnownAnswerVectors() {
    assertArrayEquals(
        new int[] {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}, philox(new int[4], 0, 0));
    assertArrayEquals(
        new int[] {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
        philox(new int[] {-1, -1, -1, -1}, -1, -1));
    assertArrayEquals(
        new int[] {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1},
        philox(new int[] {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, 0xa4093822, 0x299f31d0));
  }

  @Test
  void philoxStreamStartsAtCounterZeroZeroSeedAndCountsUp() {
    long seed = 0x0123456789abcdefL;
    RandomPhilox g = new RandomPhilox(seed);
    int lo = (int) seed;
    int hi = (int) (seed >>> 32);
    int[] first = philox(new int[] {0, 0, lo, hi}, lo, hi);
    int[] second = philox(new int[] {1, 0, lo, hi}, lo, hi);
    for (int i = 0; i < 4; i++) {
      assertEquals(first[i], g.nextInt());
    }
    for (int i = 0; i < 4; i++) {
      assertEquals(second[i], g.nextInt());
    }
  }

  @Test
  void mersenneTwisterDrawsNumpysOpSeeds() {
    // numpy.random.seed(s); numpy.random.randint(low=1, high=1 << 63, dtype=numpy.int64) x 3
    RandomMt19937 mt = new RandomMt19937(42);
    assertEquals(6909045637428952500L, mt.nextOpSeed());
    assertEquals(8314211556539077903L, mt.nextOpSeed());
    assertEquals(4279532810384561224L, mt.nextOpSeed());
    mt = new RandomMt19937(4294967295L);
    assertEquals(1800993050274709795L, mt.nextOpSeed());
    mt = new RandomMt19937(0);
    assertEquals(900450186894289456L, mt.nextOpSeed());
  }

  @Test
  void normalAndUniformAreMindSporesValues() {
    // set_seed(42); initializer(Normal(), [2, 3]); initializer(Uniform(), [5])
    float[] normal = Initializers.normal(6909045637428952500L, 6, 0f, 0.01f);
    assertArrayEquals(
        new float[] {
          0.0013290621573105454f, -0.005789340939372778f, 0.0006480095908045769f,
          -0.01672189123928547f, -0.0004885069793090224f, 0.005502551794052124f
        },
        normal);
    float[] uniform = Initializers.uniform(8314211556539077903L, 5, -0.07f, 0.07f);
    assertArrayEquals(
        new float[] {
          0.05074035003781319f,
          -0.02881626971065998f,
          0.052540022879838943f,
          -0.011317453347146511f,
          -0.025342106819152832f
        },
        uniform);
    // _truncated_normal(12345, buf, a, b, mean, sigma)
    assertArrayEquals(
        new float[] {0.3626837730407715f, -0.7747876048088074f, -0.2847786247730255f},
        Arrays.copyOf(Initializers.truncatedNormal(12345L, 2000, -2f, 2f, 0f, 1f), 3));
    assertArrayEquals(
        new float[] {0.4431832730770111f, -0.17348366975784302f, 0.07664383947849274f},
        Arrays.copyOf(Initializers.truncatedNormal(12345L, 5, -0.5f, 1f, 0.2f, 1f), 3));
  }

  @Test
  void momentsMatchTheDistributions() {
    int n = 200_000;
    double[] m = moments(Initializers.normal(7, n, 1.5f, 2f));
    assertEquals(1.5, m[0], 0.02);
    assertEquals(2.0, m[1], 0.02);
    m = moments(Initializers.uniform(7, n, -1f, 3f));
    assertEquals(1.0, m[0], 0.02);
    assertEquals(4 / Math.sqrt(12), m[1], 0.02);
    float[] t = Initializers.truncatedNormal(7, n, -1f, 1f, 0f, 1f);
    m = moments(t);
    assertEquals(0.0, m[0], 0.01);
    assertEquals(Math.sqrt(0.29112509), m[1], 0.01); // variance of N(0,1) truncated to [-1, 1]
    for (float v : t) {
      assertTrue(v >= -1f && v <= 1f, "out of [-1, 1]: " + v);
    }
  }

  @Test
  void sameSeedSameValuesOtherSeedOtherValues() {
    assertArrayEquals(Initializers.normal(99, 1000, 0f, 1f), Initializers.normal(99, 1000, 0f, 1f));
    assertFalse(
        Arrays.equals(
            Initializers.normal(99, 1000, 0f, 1f), Initializers.normal(100, 1000, 0f, 1f)));
    RandomMt19937 a = new RandomMt19937(5);
    RandomMt19937 b = new RandomMt19937(5);
    long first = a.nextOpSeed();
    assertEquals(first, b.nextOpSeed());
    assertTrue(first != a.nextOpSeed());
  }

  @Test
  void erfcAndItsInverseAreAccurate() {
    assertEquals(1.0, ErrorFunction.erfc(0), 1e-16);
    assertEquals(0.004677734981047266, ErrorFunction.erfc(2), 1e-16);
    assertEquals(1.5374597944280349e-12, ErrorFunction.erfc(5), 1e-24);
    assertEquals(1.9953222650189528, ErrorFunction.erfc(-2), 1e-15);
    for (double x : new double[] {-4, -1.3, -0.2, 0.1, 0.7, 1.9, 2.5, 6}) {
      assertEquals(x, Initializers.erfcInv(ErrorFunction.erfc(x)), 1e-9 * Math.max(1, Math.abs(x)));
    }
  }

  private static double[] moments(float[] v) {
    double s = 0;
    double s2 = 0;
    for (float x : v) {
      s += x;
      s2 += (double) x * x;
    }
    double mean = s / v.length;
    return new double[] {mean, Math.sqrt(s2 / v.length - mean * mean)};
  }
}
