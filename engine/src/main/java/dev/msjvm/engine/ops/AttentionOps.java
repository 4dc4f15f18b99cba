package dev.msjvm.engine.ops;

import static dev.msjvm.engine.ops.ElementwiseOps.one;

import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.parallel.rules.AttentionRules;
import dev.msjvm.engine.parallel.rules.EinsumSpec;
import dev.msjvm.engine.parallel.rules.ShardingRule;
import dev.msjvm.engine.tensor.FlashAttention;
import dev.msjvm.engine.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * FlashAttentionScore (MindSpore's fused attention: {@link FlashAttention}), its gradient
 * FlashAttentionScoreGrad, and DropoutGenMask, which makes the drop_mask bits a FlashAttentionScore
 * with {@code keep_prob < 1} reads.
 *
 * <p>The optional inputs a call passes (real_shift, drop_mask, attn_mask, actual_seq_qlen with
 * actual_seq_kvlen) are the node's inputs after query, key and value, in that order; attributes
 * {@code has_real_shift}, {@code has_drop_mask}, {@code has_attn_mask} and {@code has_seq_lens} say
 * which. The gradient recomputes the probabilities from query and key (as the fused kernel's
 * backward does from its saved row statistics).
 */
final class AttentionOps {
  private AttentionOps() {}

  /**
   * A call's options; the whole query sequence ({@code q_whole}, set per rank when the sequence is
   * split) defaults to the call's own.
   */
  private static FlashAttention.Options options(Attrs a, Shape query) {
    FlashAttention.Layout layout = AttentionRules.layout(a);
    return new FlashAttention.Options(
        a.integer("head_num"),
        a.has("keep_prob") ? a.real("keep_prob") : 1.0,
        a.has("scale_value") ? a.real("scale_value") : 1.0,
        a.integer("pre_tokens", Integer.MAX_VALUE),
        a.integer("next_tokens", Integer.MAX_VALUE),
        layout,
        a.integer("sparse_mode", 0),
        a.integer("q_offset", 0),
        a.integer("q_whole", query.dim(layout.seqDim())),
        a.integer("kv_offset", 0));
  }

  private static List<Tensor> inputs(Kernel.Call c) {
    List<Tensor> in = new ArrayList<>();
    for (int i = 0; i < c.arity(); i++) {
      in.add(c.in(i));
    }
    return in;
  }

  static List<OpDef> defs() {
    List<OpDef> defs = new ArrayList<>();
    defs.add(
        OpDef.of(
                "FlashAttentionScore",
                c ->
                    FlashAttention.forward(
                        options(c.attrs(), c.in(0).shape()),
                        AttentionRules.present(c.attrs()),
                        inputs(c)),
                g -> {
                  FlashAttention.Present p = AttentionRules.present(g.attrs());
                  List<Object> in = new ArrayList<>(List.of(g.in(0), g.in(1), g.in(2), g.dout(3)));
                  for (int i = 3; i < p.count(); i++) {
                    in.add(g.in(i));
                  }
                  Tensor[] d = g.ops("FlashAttentionScoreGrad", g.attrs(), in.toArray());
                  Tensor[] grads = new Tensor[p.count()];
                  grads[0] = d[0];
                  grads[1] = d[1];
                  grads[2] = d[2];
                  if (p.realShift()) {
                    grads[p.realShiftIndex()] = d[3];
                  }
                  return grads;
                })
            .infers(
                (a, in) ->
                    FlashAttention.type(
                        options(a, in.get(0).shape()), AttentionRules.present(a), in))
            .role(CostRole.GENERAL)
            .shards(AttentionRules.flashAttentionScore()));
    defs.add(
        OpDef.of(
                "FlashAttentionScoreGrad",
                c ->
                    FlashAttention.backward(
                        options(c.attrs(), c.in(0).shape()),
                        AttentionRules.present(c.attrs()),
                        inputs(c)),
                GradRule.UNDEFINED)
            .infers(
                (a, in) -> {
                  List<AbstractTensor> fwd = new ArrayList<>(in);
                  fwd.remove(3);
                  FlashAttention.type(
                      options(a, in.get(0).shape()), AttentionRules.present(a), fwd);
                  return FlashAttention.gradType(AttentionRules.present(a), in);
                })
            .role(CostRole.GENERAL)
            .shards(AttentionRules.flashAttentionScoreGrad()));
    // DropoutGenMask(keep_prob) (attribute shape): the bits, ceil(count / 128) * 16 bytes; every
    // rank draws the same ones (the same seeded stream), so a split consumer reads its block.
    defs.add(
        new OpDef(
                "DropoutGenMask",
                c ->
                    one(
                        FlashAttention.dropoutGenMask(
                            c.attrs().ints("shape"),
                            c.in(0).getDouble(0),
                            ((RandomGenerator) c.attrs().get("rng"))::nextDouble)),
                g -> new Tensor[] {null},
                true,
                List.of())
            .infers(
                Infer.one(
                    (a, in) ->
                        new AbstractTensor(
                            Shape.of(FlashAttention.maskBytes(a.ints("shape"))), DType.UINT8)))
            .role(CostRole.GENERAL)
            .shards(
                ShardingRule.of(
                    (a, shapes) ->
                        EinsumSpec.parse("_".repeat(shapes.get(0).rank()) + "->_")
                            .outputShapes(
                                List.of(Shape.of(FlashAttention.maskBytes(a.ints("shape"))))))));
    return defs;
  }
}
