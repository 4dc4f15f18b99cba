package dev.msjvm.engine.ops;

import static dev.msjvm.engine.ops.ElementwiseOps.one;

import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.parallel.rules.AttentionRules;
import dev.msjvm.engine.parallel.rules.EinsumSpec;
import dev.msjvm.engine.parallel.rules.ShardingRule;
import dev.msjvm.engine.tensor.FlashAttention;
import dev.msjvm.engine.tensor.InferAttention;
import dev.msjvm.engine.tensor.PagedAttention;
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
    // Sparse mode 0 without a mask ignores pre/next_tokens (MindSpore sets them to INT_MAX).
    boolean band = a.integer("sparse_mode", 0) != 0 || a.bool("has_attn_mask", false);
    return new FlashAttention.Options(
        a.integer("head_num"),
        a.has("keep_prob") ? a.real("keep_prob") : 1.0,
        a.has("scale_value") ? a.real("scale_value") : 1.0,
        band ? a.integer("pre_tokens", Integer.MAX_VALUE) : Integer.MAX_VALUE,
        band ? a.integer("next_tokens", Integer.MAX_VALUE) : Integer.MAX_VALUE,
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

  /** An inference attention op's output types from its options and inputs by role. */
  private interface InferType {
    List<AbstractTensor> of(
        InferAttention.Options o, InferAttention.Inputs<AbstractTensor> in, Attrs attrs);
  }

  private static boolean lse(Attrs a) {
    return a.bool("softmax_lse_flag", false);
  }

  /**
   * One of the inference attention ops: its kernel checks the types first (an eager call is not
   * type-inferred) and returns attention_out, with softmax_lse where the types have it.
   */
  private static OpDef inference(String op, InferType type, ShardingRule rule) {
    return OpDef.of(
            op,
            c -> {
              InferAttention.Options o =
                  AttentionRules.inferOptions(op, c.attrs(), c.in(0).shape());
              InferAttention.Inputs<Tensor> in = AttentionRules.inferInputs(c.attrs(), inputs(c));
              int outputs = type.of(o, in.map(Tensor::type), c.attrs()).size();
              InferAttention.Result r = InferAttention.forward(o, in, lse(c.attrs()));
              return outputs == 1 ? one(r.out()) : new Tensor[] {r.out(), r.lse()};
            },
            GradRule.UNDEFINED)
        .infers(
            (a, in) ->
                type.of(
                    AttentionRules.inferOptions(op, a, in.get(0).shape()),
                    AttentionRules.inferInputs(a, in),
                    a))
        .role(CostRole.GENERAL)
        .shards(rule);
  }

  private static PagedAttention.Options paged(String op, Attrs a) {
    return new PagedAttention.Options(
        op,
        a.integer("head_num"),
        a.has("scale_value") ? a.real("scale_value") : 1.0,
        a.integer("kv_head_num", 0),
        a.integer("batch_offset", 0));
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
    // The inference ops (no gradient in MindSpore): query, key, value, then the optional inputs the
    // call passes (attribute present names them).
    defs.add(
        inference(
            "PromptFlashAttention",
            (o, in, a) -> List.of(InferAttention.promptType(o, in)),
            AttentionRules.promptFlashAttention()));
    // attention_out, softmax_lse: PromptFlashAttention's or, for one query row,
    // IncreFlashAttention's.
    defs.add(
        inference(
            "FusedInferAttentionScore",
            (o, in, a) -> InferAttention.fusedType(o, in, lse(a)),
            AttentionRules.fusedInferAttentionScore()));
    // One query row per sequence against its key/value cache.
    defs.add(
        inference(
            "IncreFlashAttention",
            (o, in, a) -> List.of(InferAttention.increType(o, in)),
            AttentionRules.increFlashAttention()));
    // PagedAttention / PagedAttentionMask(query, key_cache, value_cache, block_tables,
    // context_lens, [optional inputs, attribute present]).
    for (String op : List.of("PagedAttention", "PagedAttentionMask")) {
      defs.add(
          OpDef.of(
                  op,
                  c -> {
                    List<Tensor> in = inputs(c);
                    PagedAttention.Options o = paged(op, c.attrs());
                    PagedAttention.type(o, in.stream().map(Tensor::type).toList());
                    return one(PagedAttention.forward(o, in, AttentionRules.passed(c.attrs())));
                  },
                  GradRule.UNDEFINED)
              .infers(Infer.one((a, in) -> PagedAttention.type(paged(op, a), in)))
              .role(CostRole.GENERAL)
              .shards(
                  op.equals("PagedAttention")
                      ? AttentionRules.pagedAttention()
                      : AttentionRules.pagedAttentionMask()));
    }
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
