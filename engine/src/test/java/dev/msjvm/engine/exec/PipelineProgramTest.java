package dev.msjvm.engine.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.comm.Communicator;
import dev.msjvm.engine.comm.InJvmRanks;
import dev.msjvm.engine.comm.InJvmWorld;
import dev.msjvm.engine.comm.SubWorldCommunicator;
import dev.msjvm.engine.parallel.DeviceMatrix;
import dev.msjvm.engine.parallel.TensorLayout;
import dev.msjvm.engine.parallel.rules.RulesOracle;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A 4-layer training step (MatMul + ReLU layers, squared-sum loss summed over micro-batches, SGD
 * through Assign) cut into pipeline stages and run on in-JVM ranks: every rank's loss and every
 * stage's trained weights equal the stand-alone replay of the same step, for 2 stages of 2 ranks
 * and 4 stages of 1 rank, under 1F1B and GPipe.
 */
class PipelineProgramTest {
  private static final int LAYERS = 4;
  private static final int WIDTH = 8;
  private static final int ROWS = 4;
  private static final int STEPS = 3;

  private static final PipelineFixture FIXTURE = new PipelineFixture(LAYERS, WIDTH, ROWS);

  private static Tensor input(int micros) {
    return FIXTURE.input(micros);
  }

  private static PipelineFixture.Traced trace(
      Runtime rt, int stages, int micros, boolean constantSens) {
    return FIXTURE.trace(rt, stages, micros, constantSens);
  }

  /** Losses of STEPS stand-alone steps, then the final weights. */
  private static List<float[]> standAlone(int stages, int micros) {
    return standAlone(stages, micros, 1);
  }

  private static List<float[]> standAlone(int stages, int micros, int chunks) {
    Runtime rt = new Runtime(NaiveBlas::new);
    PipelineFixture.Traced t = FIXTURE.trace(rt, stages, micros, true, chunks);
    List<float[]> out = new ArrayList<>();
    float[] losses = new float[STEPS];
    for (int s = 0; s < STEPS; s++) {
      losses[s] = (float) t.graph().run(rt, List.of(input(micros))).get(0).getDouble(0);
    }
    out.add(losses);
    for (Variable w : t.weights()) {
      out.add(w.current().floats().clone());
    }
    return out;
  }

  /** Per rank: the losses, then for each layer its whole trained weight (null if not its stage). */
  private static List<List<float[]>> pipelined(
      int ranks,
      int stages,
      int micros,
      String scheduler,
      boolean broadcast,
      List<Timeline> timelines,
      int chunks)
      throws Exception {
    int per = ranks / stages;
    return InJvmRanks.run(
        ranks,
        Duration.ofSeconds(20),
        Duration.ofSeconds(60),
        (rank, job) -> {
          Runtime rt = new Runtime(NaiveBlas::new);
          PipelineFixture.Traced t = FIXTURE.trace(rt, stages, micros, true, chunks);
          PipelineFixture.Built b = FIXTURE.build(t, job, stages, micros, scheduler, broadcast);
          if (timelines != null) {
            timelines.set(rank, b.program().timeline());
          }
          float[] losses = new float[STEPS];
          for (int k = 0; k < STEPS; k++) {
            losses[k] =
                (float) b.program().graph().run(rt, List.of(input(micros))).get(0).getDouble(0);
          }
          List<float[]> out = new ArrayList<>();
          out.add(losses);
          int s = rank / per;
          for (int l = 0; l < LAYERS; l++) {
            Variable w = t.weights().get(l);
            if (l * stages * chunks / LAYERS % stages != s) {
              out.add(null);
              continue;
            }
            TensorLayout layout = b.partitioned().variableLayouts().get(w);
            out.add(SpmdPartitioner.gatherWhole(b.stage(), w.current(), layout).floats());
          }
          return out;
        });
  }

  private static void assertClose(float[] expected, float[] got, String what) {
    assertEquals(expected.length, got.length, what);
    for (int i = 0; i < expected.length; i++) {
      assertEquals(expected[i], got[i], 1e-5 + 1e-5 * Math.abs(expected[i]), what + " [" + i + "]");
    }
  }

  private static void checkEquivalence(int ranks, int stages, int micros, String scheduler)
      throws Exception {
    checkEquivalence(ranks, stages, micros, scheduler, 1);
  }

  private static void checkEquivalence(
      int ranks, int stages, int micros, String scheduler, int chunks) throws Exception {
    List<float[]> ref = standAlone(stages, micros, chunks);
    List<List<float[]>> got = pipelined(ranks, stages, micros, scheduler, true, null, chunks);
    Set<Integer> checkedLayers = new HashSet<>();
    for (int r = 0; r < ranks; r++) {
      assertClose(ref.get(0), got.get(r).get(0), "losses of rank " + r);
      for (int l = 0; l < LAYERS; l++) {
        if (got.get(r).get(l + 1) != null) {
          assertClose(ref.get(l + 1), got.get(r).get(l + 1), "w" + l + " on rank " + r);
          checkedLayers.add(l);
        }
      }
    }
    assertEquals(LAYERS, checkedLayers.size(), "every layer was trained by some stage");
    assertTrue(ref.get(0)[STEPS - 1] < ref.get(0)[0], "the step learns");
  }

  @Test
  void twoStagesOfTwoRanksUnder1f1bEqualStandAlone() throws Exception {
    checkEquivalence(4, 2, 4, "1f1b");
  }

  @Test
  void fourStagesOfOneRankUnder1f1bAndGpipeEqualStandAlone() throws Exception {
    checkEquivalence(4, 4, 4, "1f1b");
    checkEquivalence(4, 4, 6, "gpipe");
  }

  /**
   * Two chunks per stage (layers 0 and 2 on stage 0, 1 and 3 on stage 1, pipeline_segment 0 then
   * 1): the interleaved schedules train like stand-alone, on one and on two ranks per stage.
   */
  @Test
  void interleavedChunksEqualStandAlone() throws Exception {
    checkEquivalence(2, 2, 4, "1f1b", 2);
    checkEquivalence(4, 2, 4, "1f1b", 2);
    checkEquivalence(2, 2, 4, "gpipe", 2);
  }

  @Test
  void interleavedBlockOrderIsMegatrons() {
    // Block (micro m, chunk c, F/B) is (2m + c)·2 + B. Units go by groups of p = 2 micro-batches,
    // chunk by chunk; backward chunks reversed. Stage 0 warms up with (2-0-1)*2 + (2-1)*2 = 4
    // forwards: F0c0 F1c0 F0c1 F1c1, then F2c0 B0c1 F3c0 B1c1 F2c1 B0c0 F3c1 B1c0, then the rest.
    assertEquals(
        List.of(0, 4, 2, 6, 8, 3, 12, 7, 10, 1, 14, 5, 11, 15, 9, 13),
        PipelineProgram.blockOrder("1f1b", 2, 4, 2, 0));
    assertEquals(
        List.of(0, 4, 2, 3, 6, 7, 8, 1, 12, 5, 10, 11, 14, 15, 9, 13),
        PipelineProgram.blockOrder("1f1b", 2, 4, 2, 1));
    assertEquals(
        4, PipelineProgram.peakInFlight(PipelineProgram.blockOrder("1f1b", 2, 4, 2, 0), 2));
    assertEquals(
        3, PipelineProgram.peakInFlight(PipelineProgram.blockOrder("1f1b", 2, 4, 2, 1), 2));
  }

  @Test
  void blockOrdersAndInFlightMicroBatches() {
    assertEquals(
        List.of(0, 2, 4, 1, 6, 3, 5, 7), PipelineProgram.blockOrder("1f1b", 3, 4, 0), "stage 0");
    assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), PipelineProgram.blockOrder("1f1b", 3, 4, 2));
    for (int s = 0; s < 4; s++) {
      assertEquals(
          4 - s, PipelineProgram.peakInFlight(PipelineProgram.blockOrder("1f1b", 4, 8, s)));
      assertEquals(8, PipelineProgram.peakInFlight(PipelineProgram.blockOrder("gpipe", 4, 8, s)));
    }
  }

  @Test
  void theTimelineRecordsTheExecutedSchedule() throws Exception {
    List<Timeline> timelines = new ArrayList<>(java.util.Collections.nCopies(2, null));
    List<List<float[]>> got =
        pipelined(2, 2, 4, "1f1b", false, java.util.Collections.synchronizedList(timelines), 1);
    // Without pipeline_result_broadcast the first stage's loss is zeros (MindSpore's
    // GetZeroOutputs); the last stage's is the stand-alone loss.
    assertClose(new float[STEPS], got.get(0).get(0), "rank 0's losses");
    assertClose(standAlone(2, 4).get(0), got.get(1).get(0), "rank 1's losses");
    for (int r = 0; r < 2; r++) {
      Timeline t = timelines.get(r);
      Timeline.Step step = t.lastStep();
      assertNotNull(step);
      assertEquals(STEPS, t.steps());
      assertEquals(2 - r, step.peakInFlight(), "1F1B keeps at most p - s in flight");
      assertTrue(step.bubble() >= 0 && step.bubble() < 1, "bubble " + step.bubble());
      JsonNode trace = new ObjectMapper().readTree(t.chromeTrace(step));
      List<String> names = new ArrayList<>();
      for (JsonNode e : trace.get("traceEvents")) {
        if (e.get("ph").asText().equals("X")) {
          names.add(e.get("name").asText());
          assertTrue(e.get("dur").asDouble() >= 0);
        }
      }
      List<String> compute = names.stream().filter(n -> n.matches("[FB]\\d")).distinct().toList();
      assertEquals(
          r == 0
              ? List.of("F0", "F1", "B0", "F2", "B1", "F3", "B2", "B3")
              : List.of("F0", "B0", "F1", "B1", "F2", "B2", "F3", "B3"),
          compute,
          "blocks in schedule order on rank " + r);
      assertTrue(names.contains(r == 0 ? "send" : "recv"), names.toString());
      assertEquals(1.0 / 5, trace.get("otherData").get("ideal_bubble").asDouble(), 1e-12);
    }
  }

  /**
   * With a gradient seed computed from the summed loss, the first backward waits for the last
   * forward on the last stage: 1F1B cannot run (refused at build), GPipe can. (A step without a
   * seed gets a constant one, which 1F1B can run.)
   */
  @Test
  void aScheduleTheGraphCannotFollowIsRefused() {
    Runtime rt = new Runtime(NaiveBlas::new);
    PipelineFixture.Traced t = trace(rt, 2, 4, false);
    PipelineStages colours = PipelineStages.of(t.graph(), 2);
    InJvmWorld world = new InJvmWorld(2, Duration.ofSeconds(5));
    Communicator job = world.communicator(0);
    SpmdPartitioner.Result part =
        SpmdPartitioner.partition(
            t.graph(),
            List.of(TensorLayout.of(DeviceMatrix.of(1), new int[] {-1, -1}, ROWS * 4, WIDTH)),
            Map.of(),
            RulesOracle.INSTANCE,
            SubWorldCommunicator.of(job, 0, 1),
            1,
            false);
    MsException e =
        assertThrows(
            MsException.class,
            () -> PipelineProgram.build(t.graph(), colours, part, job, "1f1b", false));
    assertTrue(e.getMessage().startsWith("The pipeline schedule '1f1b' cannot run this graph"));
    assertNotNull(PipelineProgram.build(t.graph(), colours, part, job, "gpipe", false).graph());
    e =
        assertThrows(
            MsException.class,
            () -> PipelineProgram.build(t.graph(), colours, part, job, "seq", false));
    assertTrue(e.getMessage().contains("'seq' is not supported"), e.getMessage());
  }
}
