package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.TensorLayout;
import dev.msjvm.engine.tensor.FlashAttention;
import java.util.ArrayList;
import java.util.List;

/**
 * Sharding of FlashAttentionScore and its gradient (MindSpore's FlashAttentionScoreInfo), in
 * letters: {@code b} batch, {@code s} the query's sequence, {@code t} the key's (never split),
 * {@code n} heads (in BSH/SBH the hidden dim carries them), head sizes unsplit. Query, key and
 * value split alike along batch and heads; key and value keep their heads whole where they have one
 * (MQA); the query's sequence may split (sequence parallel: each rank's kernel places its block in
 * the whole sequence through {@code q_offset}, so a causal or band mask stays the whole one). The
 * real_shift, drop_mask and attn_mask split as the scores they apply to (their broadcast dims and a
 * compressed mask whole). Per rank, {@code head_num} is the rank's heads. The gradient's key, value
 * and real_shift gradients are partial sums over the query's sequence (and over the heads for MQA,
 * over the batch for a real_shift of batch 1).
 */
public final class AttentionRules {
  private AttentionRules() {}

  /** Which optional inputs a call has (its {@code has_*} attributes). */
  public static FlashAttention.Present present(Attrs a) {
    return new FlashAttention.Present(
        a.bool("has_real_shift", false),
        a.bool("has_drop_mask", false),
        a.bool("has_attn_mask", false),
        a.bool("has_seq_lens", false));
  }

  /** Letters of query, key, value, attention_out (the tensors the layout orders). */
  private static String[] qkvo(FlashAttention.Layout layout, boolean kvHeads) {
    String g = kvHeads ? "n" : "_";
    return switch (layout) {
      case BSH -> new String[] {"bsn", "bt" + g, "bt" + g, "bsn"};
      case SBH -> new String[] {"sbn", "tb" + g, "tb" + g, "sbn"};
      case BNSD -> new String[] {"bnsd", "b" + g + "td", "b" + g + "tf", "bnsf"};
      case BSND -> new String[] {"bsnd", "bt" + g + "d", "bt" + g + "f", "bsnf"};
      case TND -> new String[] {"bnd", "b" + g + "d", "b" + g + "f", "bnf"};
    };
  }

  /** The letters of the optional inputs present, in input order. */
  private static List<String> optional(
      FlashAttention.Present p, Attrs a, List<Shape> shapes, int first) {
    List<String> out = new ArrayList<>();
    int i = first;
    if (p.realShift()) {
      Shape s = shapes.get(i++);
      out.add((s.dim(0) == 1 ? "_" : "b") + "n" + (s.dim(2) == 1 ? "_" : "s") + "t");
    }
    if (p.dropMask()) {
      i++;
      out.add("bns_");
    }
    if (p.attnMask()) {
      Shape m = shapes.get(i++);
      int mode = a.integer("sparse_mode", 0);
      if (mode >= 2) {
        out.add("_".repeat(m.rank()));
      } else {
        StringBuilder sb = new StringBuilder();
        for (int d = 0; d < m.rank() - 2; d++) {
          sb.append(m.dim(d) == 1 ? '_' : d == 0 && m.rank() == 4 || m.rank() == 3 ? 'b' : 'n');
        }
        sb.append(m.dim(m.rank() - 2) == 1 ? '_' : 's').append('t');
        out.add(sb.toString());
      }
    }
    if (p.seqLens()) {
      // The cumulative ends split as T (each rank's block holds whole sequences).
      out.add("b");
      out.add("b");
    }
    return out;
  }

  /** A call's {@code input_layout} (MindSpore's default BSH). */
  public static FlashAttention.Layout layout(Attrs a) {
    return FlashAttention.Layout.of(a.has("input_layout") ? a.string("input_layout") : "BSH");
  }

  /** Whether key and value have more than one head (else theirs stays whole). */
  private static boolean kvHeads(FlashAttention.Layout l, Attrs a, Shape q, Shape k) {
    if (l.merged()) {
      int d = q.dim(2) / Math.max(1, a.integer("head_num"));
      return d > 0 && k.dim(2) / d > 1;
    }
    return k.dim(l.headDim()) > 1;
  }

  /** FlashAttentionScore(query, key, value, [real_shift], [drop_mask], [attn_mask], [lens...]). */
  public static ShardingRule flashAttentionScore() {
    return ShardingRule.of(
            (a, shapes) -> {
              FlashAttention.Layout l = layout(a);
              String[] t = qkvo(l, kvHeads(l, a, shapes.get(0), shapes.get(1)));
              List<String> in = new ArrayList<>(List.of(t[0], t[1], t[2]));
              in.addAll(optional(present(a), a, shapes, 3));
              String stats = l == FlashAttention.Layout.TND ? "bn_" : "bns_";
              String form = String.join(",", in) + "->" + stats + "," + stats + ",_," + t[3];
              // softmax_out is a placeholder of shape [1]: the same (unused) on every rank.
              EinsumSpec spec =
                  EinsumSpec.parse(form).unsplit(unsplit(form)).reduce("bsn", PartialOp.NONE);
              Shape q = shapes.get(0);
              Shape statShape =
                  l == FlashAttention.Layout.TND
                      ? Shape.of(q.dim(0), a.integer("head_num"), 8)
                      : Shape.of(q.dim(l.batchDim()), a.integer("head_num"), q.dim(l.seqDim()), 8);
              return spec.outputShapes(
                      List.of(statShape, statShape, Shape.of(1), outShape(l, a, shapes)))
                  .batch('b');
            })
        .checking(AttentionRules::check)
        .localizing(AttentionRules::localize);
  }

  /**
   * FlashAttentionScoreGrad(query, key, value, dy, [real_shift], [drop_mask], [attn_mask],
   * [lens...]) -> dq, dk, dv, [dpse].
   */
  public static ShardingRule flashAttentionScoreGrad() {
    return ShardingRule.of(
            (a, shapes) -> {
              FlashAttention.Layout l = layout(a);
              String[] t = qkvo(l, kvHeads(l, a, shapes.get(0), shapes.get(1)));
              List<String> in = new ArrayList<>(List.of(t[0], t[1], t[2], t[3]));
              List<String> opt = optional(present(a), a, shapes, 4);
              in.addAll(opt);
              List<String> out = new ArrayList<>(List.of(t[0], t[1], t[2]));
              List<Shape> outShapes =
                  new ArrayList<>(List.of(shapes.get(0), shapes.get(1), shapes.get(2)));
              if (present(a).realShift()) {
                out.add(opt.get(0));
                outShapes.add(shapes.get(4));
              }
              String form = String.join(",", in) + "->" + String.join(",", out);
              return EinsumSpec.parse(form)
                  .unsplit(unsplit(form))
                  .reduce("bns", PartialOp.SUM)
                  .outputShapes(outShapes)
                  .batch('b');
            })
        .checking(AttentionRules::check)
        .localizing(AttentionRules::localize);
  }

  /** The letters of {@code form} that never split: sequences of keys, head sizes, TND's T. */
  private static String unsplit(String form) {
    StringBuilder sb = new StringBuilder();
    for (char c : "tdefxy".toCharArray()) {
      if (form.indexOf(c) >= 0) {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  private static Shape outShape(FlashAttention.Layout l, Attrs a, List<Shape> shapes) {
    Shape q = shapes.get(0);
    Shape v = shapes.get(2);
    List<Integer> dims = new ArrayList<>(q.dims());
    int last = dims.size() - 1;
    if (l.merged()) {
      int n1 = a.integer("head_num");
      int d = q.dim(2) / Math.max(1, n1);
      int n2 = d == 0 ? 1 : Math.max(1, shapes.get(1).dim(2) / d);
      dims.set(last, n1 * (v.dim(2) / n2));
    } else {
      dims.set(last, v.dim(last));
    }
    return new Shape(dims);
  }

  /** The query's head split, which must divide both head numbers. */
  private static String check(
      Attrs a, EinsumSpec spec, List<List<Integer>> strategy, List<Shape> shapes, int devices) {
    FlashAttention.Layout l = layout(a);
    int split = strategy.get(0).get(l.headDim());
    int n1 = a.integer("head_num");
    if (n1 % split != 0) {
      return "CheckStrategy: head_num " + n1 + " can not be divided by its split " + split + ".";
    }
    Shape q = shapes.get(0);
    Shape k = shapes.get(1);
    if (kvHeads(l, a, q, k)) {
      int n2 = l.merged() ? k.dim(2) / (q.dim(2) / n1) : k.dim(l.headDim());
      if (n2 % split != 0) {
        return "CheckStrategy: the head number of key and value "
            + n2
            + " can not be divided by the split of heads "
            + split
            + ".";
      }
    }
    return null;
  }

  /** A rank's head_num (its heads) and the place of its query rows in the whole sequence. */
  private static Attrs localize(Attrs a, OpSharding s, int rank) {
    FlashAttention.Layout l = layout(a);
    TensorLayout q = s.inputLayouts().get(0);
    Attrs out = a.with("head_num", a.integer("head_num") / q.splitCount(l.headDim()));
    int sd = l.seqDim();
    out = out.with("q_offset", q.sliceRanges(rank).get(sd).begin());
    if (l == FlashAttention.Layout.TND) {
      // T is packed sequences: the blocks of query and key place their sequences' ends.
      return out.with("kv_offset", s.inputLayouts().get(1).sliceRanges(rank).get(0).begin());
    }
    return out.with("q_whole", q.shape().dim(sd));
  }
}
