package dev.msjvm.engine.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.ops.GradCheck;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PipelineStagesTest {
  private final Runtime rt = new Runtime(NaiveBlas::new);

  /**
   * A training step of two layers over {@code micros} micro-batches: layer 1 (MatMul, ReLU) under
   * {@code first}, layer 2 (MatMul, Square, ReduceSum) under {@code second} (null = no label).
   */
  private Graph step(Integer first, Integer second, int micros) {
    Variable w = new Variable("w", GradCheck.random(2, -1, 1, 3, 3));
    Variable v = new Variable("v", GradCheck.random(3, -1, 1, 3, 2));
    Tensor x = GradCheck.random(1, -1, 1, 4 * micros, 3);
    Tape tape = rt.push();
    Tensor loss = null;
    for (int m = 0; m < micros; m++) {
      rt.pushLabels(Attrs.of("micro", m));
      Tensor xm =
          rt.apply(
                  "StridedSlice",
                  Attrs.of(
                      "begin",
                      List.of(4 * m, 0),
                      "end",
                      List.of(4 * m + 4, 3),
                      "strides",
                      List.of(1, 1),
                      "begin_mask",
                      0,
                      "end_mask",
                      0,
                      "ellipsis_mask",
                      0,
                      "new_axis_mask",
                      0,
                      "shrink_axis_mask",
                      0),
                  x)[0];
      Tensor h =
          under(
              first,
              () -> rt.apply("ReLU", Attrs.EMPTY, rt.apply("MatMul", Attrs.EMPTY, xm, w)[0])[0]);
      Tensor l =
          under(
              second,
              () ->
                  rt.apply(
                          "ReduceSum",
                          Attrs.of("axis", List.of(), "keep_dims", false),
                          rt.apply("Square", Attrs.EMPTY, rt.apply("MatMul", Attrs.EMPTY, h, v)[0])[
                              0])[0]);
      rt.popLabels();
      loss = loss == null ? l : rt.apply("Add", Attrs.EMPTY, loss, l)[0];
    }
    List<Tensor> results = new ArrayList<>();
    results.add(loss);
    results.addAll(Autodiff.gradients(rt, tape, List.of(loss), null, List.of(w, v)));
    rt.pop(tape);
    return Graph.compile(tape, List.of(x), results);
  }

  private Tensor under(Integer stage, java.util.function.Supplier<Tensor> body) {
    if (stage == null) {
      return body.get();
    }
    rt.pushLabels(Attrs.of("pipeline_stage", stage));
    try {
      return body.get();
    } finally {
      rt.popLabels();
    }
  }

  @Test
  void stagesFollowTheCellsAndTheirGradients() {
    Graph g = step(0, 1, 4);
    PipelineStages p = PipelineStages.of(g, 2);
    assertEquals(4, p.microBatches());
    List<String> ops = g.opNames();
    for (int n = 0; n < g.size(); n++) {
      String op = ops.get(n);
      if (op.equals("ReLU") || op.equals("ReluGrad")) {
        assertEquals(0, p.stage(n), op + " #" + n);
      }
      if (op.equals("Square") || op.equals("ReduceSum")) {
        assertEquals(1, p.stage(n), op + " #" + n);
      }
    }
    int[] per = p.nodesPerStage();
    assertEquals(g.size(), per[0] + per[1]);
  }

  @Test
  void unlabelledLayersTakeTheLargestStageOfTheirProducers() {
    // Layer 2 is unlabelled: it follows layer 1 to stage 1 (its gradients too).
    Graph g = step(0, null, 2);
    PipelineStages p = PipelineStages.of(step(0, 1, 2), 2);
    assertEquals(2, p.stages());
    MsException e = assertThrows(MsException.class, () -> PipelineStages.of(g, 2));
    assertEquals("Stage num is 2 is not equal to stage used: 1", e.getMessage());
  }

  /**
   * The micro-batch slices of the input read no staged node: they float to the stage that uses them
   * (layer 1's), and the parameter Loads outside every cell float to their users' stages.
   */
  @Test
  void nodesReadingNoStagedNodeRunOnTheStagesUsingThem() {
    Graph g = step(1, 1, 2);
    assertThrows(MsException.class, () -> PipelineStages.of(g, 2));
    Graph two = step(0, 1, 2);
    PipelineStages p = PipelineStages.of(two, 2);
    List<String> ops = two.opNames();
    boolean sawSlice = false;
    for (int n = 0; n < two.size(); n++) {
      if (ops.get(n).equals("StridedSlice")) {
        sawSlice = true;
        assertTrue(p.floating(n));
        assertTrue(p.runsOn(n, 0));
        assertFalse(p.runsOn(n, 1), "only layer 1 (stage 0) reads the slices");
      }
      if (!p.floating(n)) {
        assertTrue(p.runsOn(n, p.stage(n)));
        assertFalse(p.runsOn(n, 1 - p.stage(n)));
      }
    }
    assertTrue(sawSlice);
  }

  @Test
  void mindSporesErrors() {
    MsException e = assertThrows(MsException.class, () -> PipelineStages.of(step(1, 0, 2), 2));
    assertEquals(
        "The stage setting is incorrect. PreNode's stage:1 is larger than NextNode's stage:0",
        e.getMessage());
    e = assertThrows(MsException.class, () -> PipelineStages.of(step(0, 0, 4), 2));
    assertEquals("Stage num is 2 is not equal to stage used: 1", e.getMessage());
    e = assertThrows(MsException.class, () -> PipelineStages.of(step(0, 1, 1), 2));
    assertEquals("MicroBatch num must be larger or equal than StageNum", e.getMessage());
  }
}
