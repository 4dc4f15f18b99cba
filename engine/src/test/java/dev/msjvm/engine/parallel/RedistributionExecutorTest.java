package dev.msjvm.engine.parallel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.comm.InJvmRanks;
import dev.msjvm.engine.ir.Shape;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs redistribution plans on real data, one thread per rank over an in-JVM world, and checks
 * every rank's result against slicing the full tensor by the target layout.
 */
class RedistributionExecutorTest {

  /** Runs every rank's plan on its own thread; results indexed by rank. */
  static List<RedistributionExecutor.Result> runAll(
      TensorLayout from, TensorLayout to, boolean allToAll, IntFunction<float[]> localOf)
      throws Exception {
    int n = from.deviceMatrix().size();
    return InJvmRanks.run(
        n,
        Duration.ofSeconds(20),
        Duration.ofSeconds(30),
        (rank, comm) ->
            RedistributionExecutor.run(
                comm, TensorRedistribution.plan(from, to, rank, allToAll), localOf.apply(rank)));
  }

  private static float[] iota(long n) {
    float[] a = new float[(int) n];
    for (int i = 0; i < a.length; i++) {
      a[i] = i;
    }
    return a;
  }

  private static TensorLayout layout(int[] dev, int[] map, int... shape) {
    return TensorLayout.of(DeviceMatrix.of(dev), map, shape);
  }

  private static void assertAll(float[] data, float value, String what) {
    for (float v : data) {
      assertEquals(value, v, what);
    }
  }

  // The four test_apply_tensor_transform_operators_* cases of MindSpore's test_transform_tensor.py.

  @Test
  void allConcatToOneDevice() throws Exception {
    TensorLayout from = layout(new int[] {8, 1, 1}, new int[] {2, 1, 0}, 8, 8, 8);
    TensorLayout to = layout(new int[] {1, 1, 1, 8}, new int[] {-1, -1, -1}, 8, 8, 8);
    var out = runAll(from, to, false, r -> filled(64, r)).get(0);
    assertEquals(Shape.of(8, 8, 8), out.shape());
    for (int r = 0; r < 8; r++) {
      assertAll(Arrays.copyOfRange(out.data(), r * 64, (r + 1) * 64), r, "block " + r);
    }
  }

  @Test
  void allSplitLastDim() throws Exception {
    TensorLayout from = layout(new int[] {8}, new int[] {-1, -1, -1}, 8, 8, 8);
    TensorLayout to = layout(new int[] {8}, new int[] {-1, -1, 0}, 8, 8, 8);
    float[] full = new float[512];
    for (int i = 0; i < 512; i++) {
      full[i] = i / 64;
    }
    var out = runAll(from, to, false, r -> full.clone()).get(0);
    assertEquals(Shape.of(8, 8, 1), out.shape());
    for (int r = 0; r < 8; r++) {
      assertAll(Arrays.copyOfRange(out.data(), r * 8, (r + 1) * 8), r, "row " + r);
    }
  }

  @Test
  void mixedConcatAndSplit() throws Exception {
    TensorLayout from = layout(new int[] {8, 1, 1}, new int[] {2, 1, 0}, 8, 8, 8);
    TensorLayout to = layout(new int[] {2, 2, 2}, new int[] {2, 1, 0}, 8, 8, 8);
    var out = runAll(from, to, false, r -> filled(64, r)).get(0);
    assertEquals(Shape.of(4, 4, 4), out.shape());
    for (int r = 0; r < 4; r++) {
      assertAll(Arrays.copyOfRange(out.data(), r * 16, (r + 1) * 16), r, "block " + r);
    }
  }

  @Test
  void noTransformKeepsTheSlice() throws Exception {
    TensorLayout same = layout(new int[] {8, 1, 1}, new int[] {2, -1, -1}, 8, 8, 8);
    var out = runAll(same, same, false, r -> filled(64, r));
    assertEquals(Shape.of(1, 8, 8), out.get(0).shape());
    assertAll(out.get(0).data(), 0, "rank 0");
    assertEquals(0, out.get(0).bytesSent());
  }

  private static float[] filled(int n, float v) {
    float[] a = new float[n];
    Arrays.fill(a, v);
    return a;
  }

  @Test
  void allToAllSendsLessThanAllGatherForAPermute() throws Exception {
    TensorLayout from = layout(new int[] {8, 1}, new int[] {1, -1}, 32, 64);
    TensorLayout to = layout(new int[] {1, 8}, new int[] {-1, 0}, 32, 64);
    assertEquals(
        "[('AlltoAll', [0, 1, 2, 3, 4, 5, 6, 7, 1, 0])]",
        TensorRedistribution.plan(from, to, 0, true).toString());
    float[] full = iota(32 * 64);
    var withAllToAll = runAll(from, to, true, r -> from.sliceOf(full, r));
    var withoutAllToAll = runAll(from, to, false, r -> from.sliceOf(full, r));
    for (int r = 0; r < 8; r++) {
      assertArrayEquals(to.sliceOf(full, r), withAllToAll.get(r).data(), "rank " + r);
      assertArrayEquals(to.sliceOf(full, r), withoutAllToAll.get(r).data(), "rank " + r);
      // a [4, 64] slice: AllToAll keeps 1/8 and sends 7 pieces of 32; AllGather sends all 7 times
      assertEquals(7L * 32 * 4, withAllToAll.get(r).bytesSent());
      assertEquals(7L * 256 * 4, withoutAllToAll.get(r).bytesSent());
      assertTrue(withAllToAll.get(r).bytesSent() < withoutAllToAll.get(r).bytesSent());
    }
  }

  /** A random valid layout of {@code shape} on {@code dev}: each dim takes a free axis or not. */
  private static int[] randomMap(SplittableRandom rnd, int[] dev, int[] shape) {
    List<Integer> free = new ArrayList<>(IntStream.range(0, dev.length).boxed().toList());
    java.util.Collections.shuffle(free, new java.util.Random(rnd.nextLong()));
    int[] map = new int[shape.length];
    for (int d = 0; d < shape.length; d++) {
      map[d] = -1;
      if (!free.isEmpty() && rnd.nextInt(10) < 7) {
        int v = free.get(free.size() - 1);
        if (shape[d] % dev[dev.length - 1 - v] == 0) {
          map[d] = free.remove(free.size() - 1);
        }
      }
    }
    return map;
  }

  /** A random ordered factorization of {@code n}, with an axis of size 1 now and then. */
  private static int[] randomDeviceMatrix(SplittableRandom rnd, int n) {
    List<Integer> axes = new ArrayList<>();
    int rest = n;
    while (rest > 1) {
      int f = rnd.nextInt(3) == 0 ? rest : (rnd.nextBoolean() ? 2 : Math.min(rest, 4));
      while (rest % f != 0) {
        f--;
      }
      axes.add(f);
      rest /= f;
    }
    if (axes.isEmpty() || rnd.nextInt(5) == 0) {
      axes.add(rnd.nextInt(axes.size() + 1), 1);
    }
    return axes.stream().mapToInt(Integer::intValue).toArray();
  }

  /** (seed, devices): 60 pairs each on 2, 4 and 8 ranks. */
  static Stream<Arguments> randomCases() {
    return Stream.of(2, 4, 8)
        .flatMap(n -> IntStream.range(0, 60).mapToObj(seed -> Arguments.of(seed, n)));
  }

  /** The random pair of layouts for {@code seed} on {@code devices} ranks: [from, to]. */
  private static TensorLayout[] randomPair(int seed, int devices) {
    SplittableRandom rnd = new SplittableRandom(seed * 31L + devices);
    int[] fromDev = randomDeviceMatrix(rnd, devices);
    int[] toDev = randomDeviceMatrix(rnd, devices);
    int rank = 1 + rnd.nextInt(4);
    int[] shape = new int[rank];
    for (int d = 0; d < rank; d++) {
      shape[d] = new int[] {1, 2, 3, 4, 6, 8, 12, 16}[rnd.nextInt(8)];
    }
    int[] toShape = rnd.nextInt(4) == 0 ? reshaped(rnd, shape) : shape;
    return new TensorLayout[] {
      layout(fromDev, randomMap(rnd, fromDev, shape), shape),
      layout(toDev, randomMap(rnd, toDev, toShape), toShape)
    };
  }

  @ParameterizedTest(name = "seed {0} on {1} ranks")
  @MethodSource("randomCases")
  void everyRankGetsItsTargetSlice(int seed, int devices) throws Exception {
    TensorLayout[] pair = randomPair(seed, devices);
    TensorLayout from = pair[0];
    TensorLayout to = pair[1];
    float[] full = iota(from.shape().size());
    for (boolean allToAll : new boolean[] {false, true}) {
      var out = runAll(from, to, allToAll, r -> from.sliceOf(full, r));
      for (int r = 0; r < devices; r++) {
        String what = from + " -> " + to + " rank " + r + (allToAll ? " with AllToAll" : "");
        assertEquals(to.sliceShape(), out.get(r).shape(), what);
        assertArrayEquals(to.sliceOf(full, r), out.get(r).data(), what);
      }
    }
  }

  /** The random cases above exercise every op and both planning paths, not just easy ones. */
  @Test
  void randomCasesCoverEveryKindOfStep() {
    java.util.Map<String, Integer> seen = new java.util.TreeMap<>();
    randomCases()
        .forEach(
            a -> {
              TensorLayout[] p = randomPair((int) a.get()[0], (int) a.get()[1]);
              ExpandedLayout f =
                  ExpandedLayout.init(
                      LayoutAlgebra.toArray(p[0].deviceMatrix().shape()),
                      LayoutAlgebra.toArray(p[0].tensorMap()),
                      p[0].shape().toArray());
              ExpandedLayout t =
                  ExpandedLayout.init(
                      LayoutAlgebra.toArray(p[1].deviceMatrix().shape()),
                      LayoutAlgebra.toArray(p[1].tensorMap()),
                      p[1].shape().toArray());
              if (!LayoutTransfer.unify(f.squeezeShape(), t.squeezeShape()).expandable()) {
                seen.merge("gather-all path", 1, Integer::sum);
              }
              for (RedistributionOp op : TensorRedistribution.plan(p[0], p[1], 0, true).ops()) {
                String kind = op.getClass().getSimpleName();
                if (op instanceof RedistributionOp.AllConcat c && c.axis() != 0) {
                  kind = "AllConcat on a dim other than 0";
                }
                seen.merge(kind, 1, Integer::sum);
              }
            });
    for (String kind :
        List.of(
            "gather-all path",
            "AllConcat",
            "AllConcat on a dim other than 0",
            "AllToAll",
            "StridedSlice",
            "Reshape")) {
      assertTrue(seen.getOrDefault(kind, 0) >= 3, kind + " too rare: " + seen);
    }
  }

  /**
   * The same elements in another shape: the dims reversed (often not a refinement of the original,
   * e.g. [6, 4] and [4, 6]), two neighbouring dims merged, or one dim split.
   */
  private static int[] reshaped(SplittableRandom rnd, int[] shape) {
    if (rnd.nextInt(3) == 0) {
      int[] out = new int[shape.length];
      for (int k = 0; k < shape.length; k++) {
        out[k] = shape[shape.length - 1 - k];
      }
      return out;
    }
    if (shape.length >= 2 && rnd.nextBoolean()) {
      int i = rnd.nextInt(shape.length - 1);
      int[] out = new int[shape.length - 1];
      for (int k = 0; k < out.length; k++) {
        out[k] = k < i ? shape[k] : k == i ? shape[i] * shape[i + 1] : shape[k + 1];
      }
      return out;
    }
    int i = rnd.nextInt(shape.length);
    if (shape[i] % 2 != 0 || shape[i] == 2) {
      return shape;
    }
    int[] out = new int[shape.length + 1];
    for (int k = 0, j = 0; k < shape.length; k++) {
      if (k == i) {
        out[j++] = 2;
        out[j++] = shape[k] / 2;
      } else {
        out[j++] = shape[k];
      }
    }
    return out;
  }
}
