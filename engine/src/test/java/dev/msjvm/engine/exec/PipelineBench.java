package dev.msjvm.engine.exec;

import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.comm.InJvmRanks;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * Measured pipeline bubble on equal-cost stages against (p−1)/(m+p−1): p ranks (one per stage, one
 * thread each, single-threaded Java GEMM), each stage the same MatMul layers, for 1F1B and GPipe
 * over several micro-batch counts. Per step the bubble is the mean over stages of the share of the
 * pipeline section spent blocked in Recv ({@link Timeline}); the table gives the median over the
 * measured steps, with the wall time per step and the peak in-flight micro-batches of stage 0.
 *
 * <p>Run: {@code bench/pipeline/run.sh [STAGES=2] [WIDTH=256] [ROWS=64]}. Stages beyond the
 * machine's cores share cores, which shortens the waits the formula counts: keep p ≤ cores.
 */
public final class PipelineBench {
  private PipelineBench() {}

  public static void main(String[] args) throws Exception {
    int stages = args.length > 0 ? Integer.parseInt(args[0]) : 2;
    int width = args.length > 1 ? Integer.parseInt(args[1]) : 256;
    int rows = args.length > 2 ? Integer.parseInt(args[2]) : 64;
    int layersPerStage = 3;
    System.out.printf(
        "p=%d stages x %d MatMul layers of %dx%d, %d rows per micro-batch, %d cores%n%n",
        stages, layersPerStage, width, width, rows, cores());
    System.out.println(
        "| scheduler | micro-batches | ideal bubble | measured bubble (median) | per stage | step ms | peak in-flight (stage 0) |");
    System.out.println("|---|---:|---:|---:|---|---:|---:|");
    for (String scheduler : List.of("1f1b", "gpipe")) {
      for (int micros : new int[] {2, 4, 8, 16}) {
        if (micros < stages) {
          continue;
        }
        run(stages, layersPerStage, width, rows, micros, scheduler);
      }
    }
  }

  private static int cores() {
    return java.lang.Runtime.getRuntime().availableProcessors();
  }

  private static void run(
      int stages, int layersPerStage, int width, int rows, int micros, String scheduler)
      throws Exception {
    int warmup = 3;
    int measured = 12;
    PipelineFixture fixture = new PipelineFixture(stages * layersPerStage, width, rows);
    double[][] bubbles = new double[stages][measured];
    long[][] stepNanos = new long[stages][measured];
    int[] peak = new int[stages];
    InJvmRanks.run(
        stages,
        Duration.ofSeconds(120),
        Duration.ofHours(1),
        (rank, job) -> {
          Runtime rt = new Runtime(NaiveBlas::new);
          PipelineFixture.Built b =
              fixture.build(
                  fixture.trace(rt, stages, micros, true), job, stages, micros, scheduler, false);
          PipelineProgram.Result prog = b.program();
          var x = List.of(fixture.input(micros));
          for (int k = 0; k < warmup + measured; k++) {
            long t0 = System.nanoTime();
            prog.graph().run(rt, x);
            if (k >= warmup) {
              stepNanos[rank][k - warmup] = System.nanoTime() - t0;
              bubbles[rank][k - warmup] = prog.timeline().lastStep().bubble();
            }
          }
          peak[rank] = prog.timeline().lastStep().peakInFlight();
          return null;
        });
    double[] perStep = new double[measured];
    double[] wall = new double[measured];
    for (int k = 0; k < measured; k++) {
      for (int r = 0; r < stages; r++) {
        perStep[k] += bubbles[r][k] / stages;
        wall[k] = Math.max(wall[k], stepNanos[r][k] / 1e6);
      }
    }
    StringBuilder perStage = new StringBuilder();
    for (int r = 0; r < stages; r++) {
      perStage.append(r == 0 ? "" : " / ").append(String.format("%.3f", median(bubbles[r])));
    }
    System.out.printf(
        "| %s | %d | %.3f | %.3f | %s | %.1f | %d |%n",
        scheduler,
        micros,
        (double) (stages - 1) / (micros + stages - 1),
        median(perStep),
        perStage,
        median(wall),
        peak[0]);
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
