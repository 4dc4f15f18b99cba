package dev.msjvm.engine.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.ops.GradCheck;
import dev.msjvm.engine.tensor.Tensor;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Pipeline labels: operators recorded under {@link Runtime#pushLabels} carry them, an inner label
 * wins, and the gradient operators of a step carry that step's labels (backward mirrors forward).
 */
class LabelsTest {
  private final Runtime rt = new Runtime(NaiveBlas::new);

  @Test
  void forwardAndGradientOperatorsCarryTheirStageAndMicroBatch() {
    Tensor x = GradCheck.random(1, -1, 1, 4, 3);
    Tensor w = GradCheck.random(2, -1, 1, 3, 3);
    Tensor v = GradCheck.random(3, -1, 1, 3, 2);
    Tape tape = rt.push();
    Tensor loss = null;
    for (int micro = 0; micro < 2; micro++) {
      rt.pushLabels(Attrs.of("micro", micro));
      rt.pushLabels(Attrs.of("pipeline_stage", 0));
      Tensor h = rt.apply("ReLU", Attrs.EMPTY, rt.apply("MatMul", Attrs.EMPTY, x, w)[0])[0];
      rt.popLabels();
      rt.pushLabels(Attrs.of("pipeline_stage", 1));
      Tensor out = rt.apply("MatMul", Attrs.EMPTY, h, v)[0];
      Tensor l =
          rt.apply(
                  "ReduceSum",
                  Attrs.of("axis", List.of(), "keep_dims", false),
                  rt.apply("Square", Attrs.EMPTY, out)[0])[0];
      rt.popLabels();
      rt.popLabels();
      loss = loss == null ? l : rt.apply("Add", Attrs.EMPTY, loss, l)[0];
    }
    int forward = tape.steps().size();
    Autodiff.gradients(rt, tape, List.of(loss), null, List.of(w, v));
    rt.pop(tape);

    Map<String, Integer> backwardPerLabel = new HashMap<>();
    for (int s = 0; s < tape.steps().size(); s++) {
      Tape.Step step = tape.steps().get(s);
      Map<String, Object> a = step.attrs().asMap();
      if (s < forward) {
        String op = step.op().name();
        if (op.equals("ReLU")) {
          assertEquals(0L, a.get("pipeline_stage"));
        } else if (op.equals("Square") || op.equals("ReduceSum")) {
          assertEquals(1L, a.get("pipeline_stage"));
        }
        continue;
      }
      assertTrue(step.backward());
      if (a.containsKey("pipeline_stage")) {
        backwardPerLabel.merge(a.get("pipeline_stage") + "/" + a.get("micro"), 1, Integer::sum);
        if (step.op().name().equals("ReluGrad")) {
          assertEquals(0L, a.get("pipeline_stage"), "ReluGrad mirrors Relu's stage");
        }
      }
    }
    // Both stages of both micro-batches have gradient operators of their own; the sums of a
    // weight's gradients over the micro-batches (one per weight) carry the stage but micro -1.
    assertEquals(1, backwardPerLabel.get("0/-1"), "w's gradient sum");
    assertEquals(1, backwardPerLabel.get("1/-1"), "v's gradient sum");
    assertEquals(
        java.util.Set.of("0/0", "1/0", "0/1", "1/1", "0/-1", "1/-1"),
        backwardPerLabel.keySet(),
        backwardPerLabel.toString());
  }

  @Test
  void onlyPipelineLabelsAreAccepted() {
    assertThrows(
        IllegalArgumentException.class, () -> rt.pushLabels(Attrs.of("in_strategy", List.of())));
  }
}
