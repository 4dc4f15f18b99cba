package dev.msjvm.engine.comm;

import static dev.msjvm.engine.comm.RankThreads.data;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every collective on 1, 2, 3 and 8 ranks against a serial computation of the same result. */
class CollectivesTest {

  private static final String WORLD = InJvmWorld.HCCL_WORLD_GROUP;

  private static InJvmWorld world(int n) {
    return new InJvmWorld(n, Duration.ofSeconds(10));
  }

  /** (ranks, per-rank count): odd counts make uneven reduce-scatter shares. */
  static Stream<Arguments> shapes() {
    List<Arguments> out = new ArrayList<>();
    for (int n : new int[] {1, 2, 3, 8}) {
      for (int count : new int[] {0, 1, 7, 4099}) {
        out.add(Arguments.of(n, count));
      }
    }
    return out.stream();
  }

  static Stream<Arguments> shapesAndOps() {
    return shapes()
        .flatMap(
            a ->
                Arrays.stream(ReduceOp.values())
                    .map(op -> Arguments.of(a.get()[0], a.get()[1], op)));
  }

  /** Left fold in rank order: the order the communicator promises. */
  private static float[] serialReduce(float[][] inputs, int from, int len, ReduceOp op) {
    float[] out = Arrays.copyOfRange(inputs[0], from, from + len);
    for (int q = 1; q < inputs.length; q++) {
      for (int i = 0; i < len; i++) {
        out[i] = op.apply(out[i], inputs[q][from + i]);
      }
    }
    return out;
  }

  private static float[][] inputs(int n, int count, long seed) {
    float[][] in = new float[n][];
    for (int r = 0; r < n; r++) {
      in[r] = data(seed, r, count);
    }
    return in;
  }

  @ParameterizedTest(name = "{2} on {0} ranks, {1} elements")
  @MethodSource("shapesAndOps")
  void allReduceEqualsSerialFold(int n, int count, ReduceOp op) {
    float[][] in = inputs(n, count, 1);
    float[] expected = serialReduce(in, 0, count, op);
    List<float[]> got =
        RankThreads.runAll(
            world(n),
            comm -> {
              float[] buf = in[comm.rank()].clone();
              comm.allReduce(buf, op, WORLD);
              return buf;
            });
    for (int r = 0; r < n; r++) {
      assertArrayEquals(expected, got.get(r), "rank " + r);
    }
  }

  /**
   * Out of place (odd ranks) and in place (even ranks) in one call: every output holds the fold,
   * the out-of-place inputs are untouched, and offsets are honoured.
   */
  @ParameterizedTest(name = "{2} on {0} ranks, {1} elements")
  @MethodSource("shapesAndOps")
  void allReduceOutOfPlaceLeavesTheInput(int n, int count, ReduceOp op) {
    float[][] in = inputs(n, count, 5);
    float[] expected = serialReduce(in, 0, count, op);
    List<float[][]> got =
        RankThreads.runAll(
            world(n),
            comm -> {
              float[] send = new float[count + 2];
              System.arraycopy(in[comm.rank()], 0, send, 1, count);
              if (comm.rank() % 2 == 0) {
                comm.allReduce(send, 1, send, 1, count, op, WORLD);
                return new float[][] {Arrays.copyOfRange(send, 1, count + 1), null};
              }
              float[] recv = new float[count + 3];
              comm.allReduce(send, 1, recv, 3, count, op, WORLD);
              return new float[][] {
                Arrays.copyOfRange(recv, 3, count + 3), Arrays.copyOfRange(send, 1, count + 1)
              };
            });
    for (int r = 0; r < n; r++) {
      assertArrayEquals(expected, got.get(r)[0], "rank " + r);
      if (got.get(r)[1] != null) {
        assertArrayEquals(in[r], got.get(r)[1], "rank " + r + "'s input");
      }
    }
  }

  @ParameterizedTest(name = "{2} on {0} ranks, {1} elements")
  @MethodSource("shapesAndOps")
  void reduceScatterGivesEachRankItsReducedChunk(int n, int count, ReduceOp op) {
    float[][] in = inputs(n, n * count, 2);
    List<float[]> got =
        RankThreads.runAll(
            world(n),
            comm -> {
              float[] recv = new float[count];
              comm.reduceScatter(in[comm.rank()].clone(), recv, op, WORLD);
              return recv;
            });
    for (int r = 0; r < n; r++) {
      assertArrayEquals(serialReduce(in, r * count, count, op), got.get(r), "rank " + r);
    }
  }

  @ParameterizedTest(name = "{0} ranks, {1} elements")
  @MethodSource("shapes")
  void allGatherConcatenatesInRankOrder(int n, int count) {
    float[][] in = inputs(n, count, 3);
    float[] expected = new float[n * count];
    for (int r = 0; r < n; r++) {
      System.arraycopy(in[r], 0, expected, r * count, count);
    }
    List<float[]> got =
        RankThreads.runAll(
            world(n),
            comm -> {
              float[] recv = new float[n * count];
              comm.allGather(in[comm.rank()], recv, WORLD);
              return recv;
            });
    for (int r = 0; r < n; r++) {
      assertArrayEquals(expected, got.get(r), "rank " + r);
    }
  }

  @ParameterizedTest(name = "{0} ranks, chunk {1}")
  @MethodSource("shapes")
  void allToAllTransposesChunks(int n, int chunk) {
    float[][] in = inputs(n, n * chunk, 4);
    List<float[]> got =
        RankThreads.runAll(
            world(n),
            comm -> {
              float[] recv = new float[n * chunk];
              comm.allToAll(in[comm.rank()], recv, WORLD);
              return recv;
            });
    for (int r = 0; r < n; r++) {
      float[] expected = new float[n * chunk];
      for (int q = 0; q < n; q++) {
        System.arraycopy(in[q], r * chunk, expected, q * chunk, chunk);
      }
      assertArrayEquals(expected, got.get(r), "rank " + r);
    }
  }

  @ParameterizedTest(name = "{0} ranks, {1} elements")
  @MethodSource("shapes")
  void broadcastFromEveryRoot(int n, int count) {
    float[][] in = inputs(n, count, 5);
    for (int root = 0; root < n; root++) {
      int rt = root;
      List<float[]> got =
          RankThreads.runAll(
              world(n),
              comm -> {
                float[] buf = in[comm.rank()].clone();
                comm.broadcast(buf, rt, WORLD);
                return buf;
              });
      for (int r = 0; r < n; r++) {
        assertArrayEquals(in[root], got.get(r), "root " + root + ", rank " + r);
      }
    }
  }

  @Test
  void offsetsLeaveTheRestOfTheBufferAlone() {
    int n = 3;
    List<float[]> got =
        RankThreads.runAll(
            world(n),
            comm -> {
              float[] buf = {-1, comm.rank() + 1, 10 * (comm.rank() + 1), -1};
              comm.allReduce(buf, 1, 2, ReduceOp.SUM, WORLD);
              float[] gathered = {-7, -7, -7, -7, -7};
              comm.allGather(buf, 1, 1, gathered, 1, WORLD);
              return concat(buf, gathered);
            });
    for (float[] g : got) {
      assertArrayEquals(new float[] {-1, 6, 60, -1, -7, 6, 6, 6, -7}, g);
    }
  }

  @Test
  void inPlaceAllGatherAndReduceScatterUseTheirOwnSlice() {
    int n = 4;
    List<float[]> got =
        RankThreads.runAll(
            world(n),
            comm -> {
              int r = comm.rank();
              float[] buf = new float[n];
              buf[r] = r + 1; // NCCL-style in place: send is this rank's slot of recv
              comm.allGather(buf, r, 1, buf, 0, WORLD);
              float[] rs = buf.clone();
              comm.reduceScatter(rs, 0, rs, r, 1, ReduceOp.SUM, WORLD);
              return concat(buf, new float[] {rs[r]});
            });
    for (int r = 0; r < n; r++) {
      assertArrayEquals(new float[] {1, 2, 3, 4, 4 * (r + 1)}, got.get(r), "rank " + r);
    }
  }

  @Test
  void manyCallsInARowReuseSlotsCorrectly() {
    int n = 8;
    int calls = 200;
    List<float[]> got =
        RankThreads.runAll(
            world(n),
            comm -> {
              float[] trace = new float[calls];
              for (int c = 0; c < calls; c++) {
                // Varying sizes so a stale slot or scratch would show up as a wrong sum.
                float[] buf = new float[1 + (c % 5) * 3];
                Arrays.fill(buf, comm.rank() + c);
                if (c % 3 == 0) {
                  comm.barrier(WORLD);
                }
                comm.allReduce(buf, ReduceOp.SUM, WORLD);
                trace[c] = buf[buf.length - 1];
              }
              return trace;
            });
    float[] expected = new float[calls];
    for (int c = 0; c < calls; c++) {
      expected[c] = 28 + 8f * c;
    }
    for (int r = 0; r < n; r++) {
      assertArrayEquals(expected, got.get(r), "rank " + r);
    }
  }

  @Test
  void sumIsDeterministicAcrossRepeatedRuns() {
    int n = 8;
    float[][] in = inputs(n, 1000, 6);
    float[] first = null;
    for (int run = 0; run < 5; run++) {
      List<float[]> got =
          RankThreads.runAll(
              world(n),
              comm -> {
                float[] buf = in[comm.rank()].clone();
                comm.allReduce(buf, ReduceOp.SUM, WORLD);
                return buf;
              });
      first = first == null ? got.get(0) : first;
      for (float[] g : got) {
        assertArrayEquals(first, g);
      }
    }
    assertEquals(Arrays.toString(serialReduce(in, 0, 1000, ReduceOp.SUM)), Arrays.toString(first));
  }

  @Test
  void barrierHoldsEveryoneUntilTheLastArrives() {
    int n = 8;
    java.util.concurrent.atomic.AtomicInteger entered =
        new java.util.concurrent.atomic.AtomicInteger();
    List<Integer> seen =
        RankThreads.runAll(
            world(n),
            comm -> {
              if (comm.rank() == n - 1) {
                Thread.sleep(50); // the others must wait for this rank
              }
              entered.incrementAndGet();
              comm.barrier(WORLD);
              return entered.get();
            });
    for (int s : seen) {
      assertEquals(n, s);
    }
  }

  private static float[] concat(float[] a, float[] b) {
    float[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }
}
