package dev.msjvm.engine.comm.bench;

import dev.msjvm.engine.comm.Communicator;
import dev.msjvm.engine.comm.InJvmWorld;
import dev.msjvm.engine.comm.ReduceOp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CyclicBarrier;

/**
 * Bandwidth harness (not a test) for the in-JVM communicator: AllReduce(SUM) and AllGather on 8
 * ranks in one JVM against plain {@code System.arraycopy} bandwidth, printed as a markdown table.
 *
 * <p>Conventions follow nccl-tests: {@code size} is each rank's input in bytes; AllReduce algbw =
 * size / time, busbw = algbw * 2(n-1)/n; AllGather algbw = n * size (the output) / time, busbw =
 * algbw * (n-1)/n; memcpy GB/s = bytes copied / time. "delivered" = bytes written into all ranks'
 * outputs / time (n * size for AllReduce, n * n * size for AllGather): the number to hold against
 * memcpy, since 8 rank threads share the machine's cores and memory bandwidth. GB = 1e9 bytes. Time
 * is the median over repetitions of the mean per call within a repetition. Run:
 *
 * <pre>
 * MAVEN_OPTS=-Xmx12g JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 mvn -q -B -pl engine \
 *   test-compile exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=dev.msjvm.engine.comm.bench.CollectiveBench
 * </pre>
 */
public final class CollectiveBench {

  private static final int RANKS = 8;
  private static final String WORLD = InJvmWorld.HCCL_WORLD_GROUP;
  private static final long[] SIZES = {
    1L << 10, 4L << 10, 16L << 10, 64L << 10, 256L << 10, 1L << 20, 4L << 20, 16L << 20, 64L << 20
  };

  private CollectiveBench() {}

  /** Calls per repetition: enough to amortise the two timing barriers, capped for big sizes. */
  static int iterations(long bytes) {
    return (int) Math.max(1, Math.min(100, (16L << 20) / bytes));
  }

  static int repetitions(long bytes) {
    return bytes >= (16L << 20) ? 3 : 5;
  }

  public static void main(String[] args) throws Exception {
    long start = System.nanoTime();
    System.out.printf(
        "# In-JVM collectives, %d ranks (threads), %d cores, %s, max heap %d MiB%n%n",
        RANKS,
        Runtime.getRuntime().availableProcessors(),
        Runtime.version(),
        Runtime.getRuntime().maxMemory() >> 20);
    InJvmWorld world = new InJvmWorld(RANKS, Duration.ofMinutes(5));
    // JIT warm-up on small sizes, results discarded.
    runRanks(world, comm -> measure(comm, new long[] {1 << 10, 64 << 10, 256 << 10}));

    double[][] coll = runRanks(world, comm -> measure(comm, SIZES));
    System.out.println(
        "| size | allreduce time (us) | allreduce algbw GB/s | allreduce busbw GB/s"
            + " | allgather time (us) | allgather algbw GB/s | allgather busbw GB/s"
            + " | memcpy 1 thread GB/s | memcpy 2 threads GB/s"
            + " | allreduce delivered GB/s | allgather delivered GB/s |");
    System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    double n = RANKS;
    for (int i = 0; i < SIZES.length; i++) {
      long bytes = SIZES[i];
      double arNs = coll[i][0];
      double agNs = coll[i][1];
      double arAlg = bytes / arNs;
      double agAlg = n * bytes / agNs;
      System.out.printf(
          "| %s | %s | %s | %s | %s | %s | %s | %.2f | %.2f | %s | %s |%n",
          human(bytes),
          us(arNs),
          gbs(arAlg),
          gbs(arAlg * 2 * (n - 1) / n),
          us(agNs),
          gbs(agAlg),
          gbs(agAlg * (n - 1) / n),
          bytes / memcpy(bytes, 1),
          bytes / memcpy(bytes, 2),
          gbs(arAlg * n),
          gbs(agAlg * n));
    }
    System.out.printf("%nLink model (a level-3 dry run's MSJVM_SIM_LINK): %s%n", calibrate(coll));
    System.out.printf("%nTotal %.1f s%n", (System.nanoTime() - start) / 1e9);
  }

  /**
   * The {@link dev.msjvm.engine.comm.LinkModel} these AllReduce times give: alpha the smallest
   * size's time over its 2(n-1) ring steps, the bus bandwidth the median from 256 KB up.
   */
  static String calibrate(double[][] coll) {
    double n = RANKS;
    double alphaUs = coll[0][0] / 1e3 / (2 * (n - 1));
    List<Double> busbw = new ArrayList<>();
    for (int i = 0; i < SIZES.length; i++) {
      if (SIZES[i] >= 256L << 10 && !Double.isNaN(coll[i][0])) {
        busbw.add(SIZES[i] / coll[i][0] * 2 * (n - 1) / n);
      }
    }
    double[] sorted = busbw.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return String.format(
        "alpha_us=%.1f,busbw_gbps=%.2f", alphaUs, sorted.length == 0 ? Double.NaN : median(sorted));
  }

  /** Per size: {allreduce ns, allgather ns} median per call, NaN where the heap is too small. */
  private static double[][] measure(Communicator comm, long[] sizes) {
    double[][] out = new double[sizes.length][];
    for (int i = 0; i < sizes.length; i++) {
      // Every rank must take the same decision, so rank 0's view of the heap is broadcast.
      float[] fits = {comm.rank() == 0 && fits(sizes[i]) ? 1 : 0};
      comm.broadcast(fits, 0, WORLD);
      out[i] = fits[0] == 1 ? measureOne(comm, sizes[i]) : new double[] {Double.NaN, Double.NaN};
    }
    return out;
  }

  /** A method of its own so that the buffers are garbage once it returns. */
  private static double[] measureOne(Communicator comm, long bytes) {
    int count = (int) (bytes / Float.BYTES);
    int iters = iterations(bytes);
    int reps = repetitions(bytes);
    float[] buf = new float[count];
    Arrays.fill(buf, comm.rank() + 1);
    double allReduce = time(comm, iters, reps, () -> comm.allReduce(buf, ReduceOp.SUM, WORLD));
    float[] recv = new float[count * RANKS];
    double allGather = time(comm, iters, reps, () -> comm.allGather(buf, recv, WORLD));
    return new double[] {allReduce, allGather};
  }

  /** Whether 8 ranks' AllGather buffers (in + 8x out) and AllReduce scratch fit the heap. */
  private static boolean fits(long bytes) {
    long need = RANKS * bytes * (RANKS + 1) + 4 * bytes;
    Runtime rt = Runtime.getRuntime();
    System.gc();
    return need < 0.85 * (rt.maxMemory() - (rt.totalMemory() - rt.freeMemory()));
  }

  private static double time(Communicator comm, int iters, int reps, Runnable op) {
    op.run(); // warm-up: first touch of every page and scratch growth
    double[] perCall = new double[reps];
    for (int r = 0; r < reps; r++) {
      comm.barrier(WORLD);
      long t0 = System.nanoTime();
      for (int k = 0; k < iters; k++) {
        op.run();
      }
      comm.barrier(WORLD); // the slowest rank's finish ends the repetition
      perCall[r] = (System.nanoTime() - t0) / (double) iters;
    }
    return median(perCall);
  }

  /** Median ns to copy {@code bytes} with {@code threads} threads, each copying its share. */
  private static double memcpy(long bytes, int threads) throws Exception {
    int count = (int) (bytes / Float.BYTES);
    float[] src = new float[count];
    float[] dst = new float[count];
    Arrays.fill(src, 1f);
    Arrays.fill(dst, 2f);
    int iters = iterations(bytes);
    int reps = repetitions(bytes) + 1;
    CyclicBarrier gate = new CyclicBarrier(threads);
    double[][] times = new double[threads][reps];
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      int lo = (int) ((long) count * t / threads);
      int hi = (int) ((long) count * (t + 1) / threads);
      Thread w =
          new Thread(
              () -> {
                try {
                  for (int r = 0; r < reps; r++) {
                    gate.await();
                    long t0 = System.nanoTime();
                    for (int k = 0; k < iters; k++) {
                      System.arraycopy(src, lo, dst, lo, hi - lo);
                    }
                    gate.await();
                    times[id][r] = (System.nanoTime() - t0) / (double) iters;
                  }
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      workers.add(w);
      w.start();
    }
    for (Thread w : workers) {
      w.join();
    }
    // Repetition 0 is the warm-up; a repetition lasts as long as its slower thread.
    double[] perRep = new double[reps - 1];
    for (int r = 1; r < reps; r++) {
      for (int t = 0; t < threads; t++) {
        perRep[r - 1] = Math.max(perRep[r - 1], times[t][r]);
      }
    }
    return median(perRep);
  }

  /** Runs {@code body} on one thread per rank and returns rank 0's result. */
  private static double[][] runRanks(InJvmWorld world, RankBody body) throws Exception {
    double[][][] results = new double[RANKS][][];
    Throwable[] errors = new Throwable[RANKS];
    List<Thread> threads = new ArrayList<>();
    for (int r = 0; r < RANKS; r++) {
      int rank = r;
      Thread t =
          new Thread(
              () -> {
                try {
                  results[rank] = body.run(world.communicator(rank));
                } catch (Throwable e) {
                  errors[rank] = e;
                  world.abort(rank, e); // as the launcher does: nobody hangs
                }
              },
              "rank-" + r);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    for (Throwable e : errors) {
      if (e != null) {
        throw new IllegalStateException("benchmark rank failed", e);
      }
    }
    return results[0];
  }

  private interface RankBody {
    double[][] run(Communicator comm) throws Exception;
  }

  private static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  private static String us(double ns) {
    return Double.isNaN(ns) ? "skipped (heap)" : String.format("%.1f", ns / 1e3);
  }

  private static String gbs(double bytesPerNs) {
    return Double.isNaN(bytesPerNs) ? "-" : String.format("%.2f", bytesPerNs);
  }

  private static String human(long bytes) {
    return bytes >= 1 << 20 ? (bytes >> 20) + " MB" : (bytes >> 10) + " KB";
  }
}
