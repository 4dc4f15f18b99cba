package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.TensorLayout;
import dev.msjvm.engine.tensor.FlashAttention;
import dev.msjvm.engine.tensor.InferAttention;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

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

  // ---- PromptFlashAttention (MindSpore's PromptFlashAttentionInfo) ----

  /** The optional inputs a call passes, in its input order (attribute {@code present}). */
  public static List<String> passed(Attrs a) {
    String p = a.has("present") ? a.string("present") : "";
    return p.isEmpty() ? List.of() : List.of(p.split(","));
  }

  /** The inputs of an inference attention call by role (the names MindSpore gives them). */
  public static <T> InferAttention.Inputs<T> inferInputs(Attrs a, List<T> in) {
    List<String> names = passed(a);
    T pse = null;
    T mask = null;
    T qLens = null;
    T kvLens = null;
    Set<String> others = new LinkedHashSet<>();
    for (int i = 0; i < names.size(); i++) {
      T x = in.get(3 + i);
      switch (names.get(i)) {
        case "pse_shift" -> pse = x;
        case "attn_mask", "atten_mask" -> mask = x;
        case "actual_seq_lengths" -> qLens = x;
        case "actual_seq_lengths_kv" -> kvLens = x;
        default -> others.add(names.get(i));
      }
    }
    return new InferAttention.Inputs<>(
        in.get(0), in.get(1), in.get(2), pse, mask, qLens, kvLens, others);
  }

  /** A call's attributes; {@code q_whole} (set per rank) defaults to the call's own sequence. */
  public static InferAttention.Options inferOptions(String op, Attrs a, Shape query) {
    FlashAttention.Layout l = layout(a);
    return new InferAttention.Options(
        op,
        a.integer("num_heads"),
        a.integer("num_key_value_heads", 0),
        a.has("scale_value") ? a.real("scale_value") : 1.0,
        a.integer("pre_tokens", Integer.MAX_VALUE),
        a.integer("next_tokens", 0),
        l,
        a.integer("sparse_mode", 0),
        a.integer("q_offset", 0),
        a.integer("q_whole", query.dim(l.seqDim())),
        a.integer("head_offset", 0),
        a.integer("batch_offset", 0));
  }

  /**
   * Letters of the optional inputs of an inference call, in input order; {@code incremental}: one
   * query row per sequence, whose masks are (B, KV_S), (B, 1, KV_S) or (B, 1, 1, KV_S).
   */
  private static List<String> inferOptional(Attrs a, List<Shape> shapes, boolean incremental) {
    return inferOptional(a, shapes, incremental, false);
  }

  /**
   * {@link #inferOptional}; {@code increOp}: IncreFlashAttention's (lengths whole, antiquant scales
   * split with the heads, as its checks require).
   */
  private static List<String> inferOptional(
      Attrs a, List<Shape> shapes, boolean incremental, boolean increOp) {
    List<String> out = new ArrayList<>();
    List<String> names = passed(a);
    for (int i = 0; i < names.size(); i++) {
      Shape s = shapes.get(3 + i);
      String batch = s.rank() > 0 && s.dim(0) != 1 ? "b" : "_";
      out.add(
          switch (names.get(i)) {
            case "attn_mask", "atten_mask" -> {
              if (incremental && s.rank() >= 2) {
                yield batch + "_".repeat(s.rank() - 2) + "t";
              }
              if (a.integer("sparse_mode", 0) >= 2 || s.rank() < 2) {
                yield "_".repeat(s.rank());
              }
              // (S1, S2), (B|1, S1, S2), (B|1, 1, S1, S2): split as the scores' rows.
              String rows = s.dim(s.rank() - 2) == 1 ? "_" : "s";
              yield switch (s.rank()) {
                case 2 -> rows + "t";
                case 3 -> batch + rows + "t";
                default -> batch + "_".repeat(s.rank() - 3) + rows + "t";
              };
            }
            // Per batch (IncreFlashAttention keeps them whole: each rank reads its part).
            case "actual_seq_lengths", "actual_seq_lengths_kv" -> increOp ? "_" : batch;
            case "antiquant_scale", "antiquant_offset" ->
                increOp ? "_" + (s.rank() == 2 ? "n" : "n__") : "_".repeat(s.rank());
            // Whole along heads and rows (each rank reads its part).
            case "pse_shift" -> batch + "_".repeat(Math.max(0, s.rank() - 1));
            default -> "_".repeat(s.rank());
          });
    }
    return out;
  }

  /**
   * PromptFlashAttention(query, key, value, [optional inputs]) -> attention_out: batch, heads and
   * the query's sequence split (MindSpore's dev matrix (dp, sp, mp) for BSH, (dp, mp, sp) for
   * BNSD); key and value split with the query's heads, their sequence whole.
   */
  public static ShardingRule promptFlashAttention() {
    return ShardingRule.of(
            (a, shapes) -> {
              FlashAttention.Layout l = layout(a);
              String[] t =
                  l == FlashAttention.Layout.BSH
                      ? new String[] {"bsn", "btn", "btn", "bsn"}
                      : new String[] {"bnsd", "bntd", "bntd", "bnsd"};
              List<String> in = new ArrayList<>(List.of(t[0], t[1], t[2]));
              in.addAll(inferOptional(a, shapes, false));
              String form = String.join(",", in) + "->" + t[3];
              return EinsumSpec.parse(form)
                  .unsplit(unsplit(form))
                  .outputShapes(List.of(shapes.get(0)))
                  .batch('b');
            })
        .checking(checkInfer("PromptFlashAttention"))
        .localizing(AttentionRules::localizeInfer);
  }

  /**
   * FusedInferAttentionScore(query, key, value, [optional inputs]) -> attention_out, softmax_lse
   * (MindSpore's FusedInferAttentionScoreInfo): as PromptFlashAttention for prompts; a one-row
   * query (the incremental branch) splits batch and heads. softmax_lse ({@code [B, N, S1, 1]} with
   * softmax_lse_flag, else a placeholder {@code [1]}) splits as the scores' rows. The optional
   * inputs split as their letters say whatever their strategies (MindSpore derives their tensor
   * maps from the device matrix: a compressed mask stays whole, a mask's key dim too). The
   * key/value sequence stays whole: a strategy splitting it (MindSpore's incremental branch then
   * combines the blocks' partial results by their softmax_lse) runs with it gathered.
   */
  public static ShardingRule fusedInferAttentionScore() {
    return inferRule("FusedInferAttentionScore", true);
  }

  /**
   * IncreFlashAttention(query, key, value, [optional inputs]) -> attention_out (MindSpore's
   * IncreFlashAttentionInfo): FusedInferAttentionScore's incremental branch, without softmax_lse.
   */
  public static ShardingRule increFlashAttention() {
    return inferRule("IncreFlashAttention", false);
  }

  private static ShardingRule inferRule(String op, boolean lseOutput) {
    ShardingRule rule =
        ShardingRule.of(
                (a, shapes) -> {
                  FlashAttention.Layout l = layout(a);
                  String[] t =
                      switch (l) {
                        case BSH -> new String[] {"bsn", "btn", "btn"};
                        case BSND -> new String[] {"bsnd", "btnd", "btnd"};
                        default -> new String[] {"bnsd", "bntd", "bntd"};
                      };
                  Shape q = shapes.get(0);
                  boolean incremental = q.dim(l.seqDim()) == 1;
                  List<String> in = new ArrayList<>(List.of(t[0], t[1], t[2]));
                  in.addAll(inferOptional(a, shapes, incremental, !lseOutput));
                  if (!lseOutput) {
                    String form = String.join(",", in) + "->" + t[0];
                    return EinsumSpec.parse(form)
                        .unsplit(unsplit(form))
                        .outputShapes(List.of(q))
                        .batch('b');
                  }
                  boolean lse = a.bool("softmax_lse_flag", false);
                  String form = String.join(",", in) + "->" + t[0] + "," + (lse ? "bns_" : "_");
                  int heads = a.integer("num_heads");
                  Shape lseShape =
                      lse ? Shape.of(q.dim(0), heads, q.dim(l.seqDim()), 1) : Shape.of(1);
                  return EinsumSpec.parse(form)
                      .unsplit(unsplit(form))
                      .reduce("bsn", PartialOp.NONE)
                      .outputShapes(List.of(q, lseShape))
                      .batch('b');
                })
            .checking(checkInfer(op))
            .localizing(AttentionRules::localizeInfer);
    // FusedInferAttentionScoreInfo derives its optional inputs' layouts; IncreFlashAttentionInfo
    // checks their strategies.
    return lseOutput ? rule.deriving(AttentionRules::fusedStrategy) : rule;
  }

  /**
   * FusedInferAttentionScore's strategy: the optional inputs' follow the letters of query, key and
   * value; a key/value sequence split (MindSpore's incremental branch combines the partial
   * attentions of the blocks by their softmax_lse) is run with the sequence gathered whole, which
   * gives the same result without the memory saving.
   */
  private static List<List<Integer>> fusedStrategy(EinsumSpec spec, List<List<Integer>> given) {
    List<List<Integer>> out = new ArrayList<>(given);
    for (int i = 1; i < 3 && i < out.size(); i++) {
      List<Integer> sub = new ArrayList<>(out.get(i));
      String letters = spec.inputs().get(i);
      for (int d = 0; d < letters.length(); d++) {
        if (letters.charAt(d) == 't') {
          sub.set(d, 1);
        }
      }
      out.set(i, List.copyOf(sub));
    }
    return ShardingRule.Deriver.following(3).strategy(spec, out);
  }

  /** MindSpore's check: the head split divides num_heads and num_key_value_heads. */
  private static ShardingRule.Checker checkInfer(String op) {
    return (a, spec, strategy, shapes, devices) -> {
      FlashAttention.Layout l = layout(a);
      int mp = strategy.get(0).get(l.headDim());
      int heads = a.integer("num_heads");
      int kvHeads = a.integer("num_key_value_heads", 0);
      if (heads % mp != 0 || kvHeads % mp != 0) {
        return "For '"
            + op
            + "', 'head_num' and 'kv_head_num' must be divisible by mp, but got 'head_num': "
            + heads
            + ", 'kv_head_num': "
            + kvHeads
            + ", mp: "
            + mp;
      }
      return null;
    };
  }

  /** A rank's heads, and the place of its heads and query rows in the whole call. */
  private static Attrs localizeInfer(Attrs a, OpSharding s, int rank) {
    FlashAttention.Layout l = layout(a);
    TensorLayout q = s.inputLayouts().get(0);
    int mp = q.splitCount(l.headDim());
    int heads = a.integer("num_heads");
    int begin = q.sliceRanges(rank).get(l.headDim()).begin();
    int headOffset = l.merged() ? begin / (q.shape().dim(l.headDim()) / heads) : begin;
    return a.with("num_heads", heads / mp)
        .with("num_key_value_heads", a.integer("num_key_value_heads", 0) / mp)
        .with("head_offset", headOffset)
        .with("batch_offset", q.sliceRanges(rank).get(l.batchDim()).begin())
        .with("q_offset", q.sliceRanges(rank).get(l.seqDim()).begin())
        .with("q_whole", q.shape().dim(l.seqDim()));
  }

  // ---- PagedAttention, PagedAttentionMask (MindSpore's PagedAttentionInfo) ----

  /**
   * PagedAttention(query, key_cache, value_cache, block_tables, context_lens, [optional inputs]):
   * batch and heads split (the query's hidden dim and the caches' heads alike); the caches' blocks
   * and block size, block_tables' blocks and context_lens whole (a rank reads its tokens' lengths
   * at its batch offset).
   */
  public static ShardingRule pagedAttention() {
    return paged(false);
  }

  /**
   * PagedAttentionMask (MindSpore's PagedAttentionMaskInfo): as PagedAttention, with context_lens
   * split by the batch, and the last input (MindSpore's Info takes it by position) an alibi mask
   * (batch, heads, seq_len, seq_len) split by batch and heads.
   */
  public static ShardingRule pagedAttentionMask() {
    return paged(true);
  }

  private static ShardingRule paged(boolean maskOp) {
    return ShardingRule.of(
            (a, shapes) -> {
              Shape q = shapes.get(0);
              int heads = a.integer("head_num");
              boolean perHead =
                  q.dim(1) == heads
                      && shapes.get(1).rank() == 4
                      && q.dim(2) == shapes.get(1).dim(3);
              String query = perHead ? "bn_" : "b_n";
              String cache = shapes.get(1).rank() == 4 ? "__n_" : "__n";
              List<String> in =
                  new ArrayList<>(List.of(query, cache, cache, "b_", maskOp ? "b" : "_"));
              List<String> names = passed(a);
              for (int i = 0; i < names.size(); i++) {
                Shape x = shapes.get(5 + i);
                boolean alibi = maskOp && i == names.size() - 1 && x.rank() == 4;
                in.add(
                    switch (alibi ? "alibi_mask" : names.get(i)) {
                      case "antiquant_scale", "antiquant_offset" ->
                          x.rank() == 2 ? "_n" : "_".repeat(x.rank());
                      case "alibi_mask" ->
                          x.rank() == 4
                              ? (x.dim(0) == 1 ? "_" : "b") + "n__"
                              : "_".repeat(x.rank());
                      default -> "_".repeat(x.rank());
                    });
              }
              String form = String.join(",", in) + "->" + query;
              return EinsumSpec.parse(form).outputShapes(List.of(q)).batch('b');
            })
        .localizing(
            (a, s, rank) -> {
              TensorLayout q = s.inputLayouts().get(0);
              TensorLayout cache = s.inputLayouts().get(1);
              int mp = cache.splitCount(2);
              int kvHeads = a.integer("kv_head_num", 0);
              return a.with("head_num", a.integer("head_num") / mp)
                  .with("kv_head_num", kvHeads / mp)
                  .with("batch_offset", q.sliceRanges(rank).get(0).begin());
            });
  }
}
