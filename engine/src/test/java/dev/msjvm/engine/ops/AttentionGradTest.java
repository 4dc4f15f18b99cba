package dev.msjvm.engine.ops;

import static dev.msjvm.engine.ops.GradCheck.random;

import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * FlashAttentionScore's gradient (FlashAttentionScoreGrad, wired by its GradRule) against central
 * finite differences of attention_out, in float32 (the op takes no float64): grouped key/value
 * heads, query and key sequences of different lengths, value's head size differing from the
 * query's, a real_shift broadcast over the batch, the causal, band and explicit masks and dropout
 * bits.
 */
class AttentionGradTest {
  private static Tensor f32(long seed, int... dims) {
    return random(seed, -1, 1, dims).astype(DType.FLOAT32);
  }

  private static Tensor bits(long seed, int... dims) {
    SplittableRandom r = new SplittableRandom(seed);
    return Tensor.ofDoubles(DType.UINT8, Shape.of(dims), i -> r.nextInt(256));
  }

  @Test
  void groupedHeadsRightDownCausalWithRealShift() {
    // BNSD: 4 query heads reading 2 key/value heads, S1 = 3 queries over S2 = 5 keys, Dv = 3.
    Attrs a =
        Attrs.of(
            "head_num",
            4,
            "input_layout",
            "BNSD",
            "sparse_mode",
            3,
            "scale_value",
            0.7,
            "has_real_shift",
            true);
    List<Tensor> in =
        List.of(f32(1, 2, 4, 3, 2), f32(2, 2, 2, 5, 2), f32(3, 2, 2, 5, 3), f32(4, 1, 4, 3, 5));
    GradCheck.check("FlashAttentionScore", a, in, 1e-2, 3e-3, 0, 1, 2, 3);
  }

  @Test
  void bandWithMaskAndDropout() {
    // BSH, 2 heads of size 2 over one key/value head (MQA), band pre 2 / next 1, a (B, 1, S1, S2)
    // mask and drop_mask bits with keep_prob 0.5.
    Attrs a =
        Attrs.of(
            "head_num",
            2,
            "input_layout",
            "BSH",
            "sparse_mode",
            0,
            "pre_tokens",
            2,
            "next_tokens",
            1,
            "keep_prob",
            0.5,
            "has_drop_mask",
            true,
            "has_attn_mask",
            true);
    Tensor mask =
        Tensor.ofDoubles(DType.UINT8, Shape.of(2, 1, 4, 8), i -> (i * 7) % 5 == 0 ? 1 : 0);
    List<Tensor> in =
        List.of(f32(5, 2, 4, 4), f32(6, 2, 8, 2), f32(7, 2, 8, 2), bits(8, 2, 2, 4, 1), mask);
    GradCheck.check("FlashAttentionScore", a, in, 1e-2, 3e-3, 0, 1, 2);
  }

  @Test
  void sbhLeftUpCausal() {
    Attrs a = Attrs.of("head_num", 2, "input_layout", "SBH", "sparse_mode", 2);
    List<Tensor> in = List.of(f32(9, 4, 2, 4), f32(10, 4, 2, 4), f32(11, 4, 2, 4));
    GradCheck.check("FlashAttentionScore", a, in, 1e-2, 3e-3, 0, 1, 2);
  }
}
