package dev.msjvm.engine.parallel.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.NodeSharding;
import dev.msjvm.engine.tensor.Tensor;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rules of convolution, pooling, the normalisation gradients, Tile and Lamb as one-line specs,
 * the MindSpore texts of the strategies they refuse, and their localised attributes. The rule
 * validator proves their numbers; this pins what they allow.
 */
class NnShapeOptimizerRulesTest {

  private static final Map<String, String> SPECS =
      Map.ofEntries(
          Map.entry("Conv2D valid", "nihw,oi__->nohw matrix=nihwo reduce={i:SUM}"),
          Map.entry(
              "Conv2DBackpropInput same stride=2", "nohw,oi__->nihw matrix=nohwi reduce={o:SUM}"),
          Map.entry(
              "Conv2DBackpropFilter valid",
              "nohw,nihw->oi__ matrix=nohwi reduce={n:SUM,h:SUM,w:SUM}"),
          Map.entry("MaxPool", "nchw->nchw matrix=nchw"),
          Map.entry("AvgPoolGrad", "nchw,nchw->nchw matrix=nchw"),
          Map.entry(
              "LayerNormGrad norm=1 params=1",
              "ab,ab,a_,a_,b->ab,b,b matrix=ab reduce={a:SUM} unsplit=b"),
          Map.entry(
              "LayerNormGrad norm=1 params=0", "ab,ab,a_,a_,ab->ab,ab,ab matrix=ab unsplit=b"),
          Map.entry(
              "BatchNormGrad training=false",
              "abc,abc,b,b,b->abc,b,b matrix=abc reduce={a:SUM,c:SUM}"),
          Map.entry(
              "BatchNormGrad training=true",
              "abc,abc,b,b,b->abc,b,b matrix=abc reduce={a:NONE,c:NONE}"),
          Map.entry("Tile [2,4] x (2,1,2)", "abc->abc layouts=b_ matrix=abc"),
          Map.entry("TileGrad [2,2,8] to [2,4]", "abc->b_ matrix=abc reduce={a:SUM,c:SUM}"),
          Map.entry("Lamb", "ab,ab,ab,,,,,,,ab->ab,ab,ab matrix=ab unsplit=ab"),
          Map.entry("LearningRateSchedule", "_->_ matrix="));

  @Test
  void specsPrintAsOneLine() {
    Map<String, String> got = new TreeMap<>();
    for (RuleCases.Case c : RuleCases.all()) {
      if (SPECS.containsKey(c.name())) {
        got.put(c.name(), Rules.of(c.op()).specFor(c.attrs(), shapes(c.inputs())).toString());
      }
    }
    assertEquals(new TreeMap<>(SPECS), got);
  }

  private static List<Shape> shapes(List<Tensor> inputs) {
    return inputs.stream().map(Tensor::shape).toList();
  }

  private static Attrs conv(String padMode, int stride) {
    return RuleCases.conv(padMode, List.of(1, 1, 0, 1), stride, 1);
  }

  private static Arguments refusal(
      String op, Attrs attrs, List<Shape> shapes, List<List<Integer>> strategy, String text) {
    return Arguments.of(op, attrs, shapes, strategy, text);
  }

  /**
   * Refused strategies: MindSpore's texts where its Info refuses them too; the generic refusal of
   * an unsplit letter for Lamb.
   */
  static Stream<Arguments> refusals() {
    List<Shape> x6w3 = List.of(Shape.of(4, 4, 6, 6), Shape.of(4, 4, 3, 3));
    List<Shape> dx6 = List.of(Shape.of(4, 4, 4, 4), Shape.of(4, 4, 3, 3));
    List<List<Integer>> splitH = List.of(List.of(1, 1, 2, 1), List.of(1, 1, 1, 1));
    Attrs valid = conv("valid", 1);
    Shape p = Shape.of(8, 4);
    Shape one = Shape.scalar();
    List<Integer> none = List.of();
    List<Integer> rows = List.of(2, 1);
    return Stream.of(
        refusal(
            "Conv2D",
            valid,
            List.of(Shape.of(4, 4, 6, 6), Shape.of(4, 4, 2, 2)),
            List.of(List.of(1, 1, 1, 1), List.of(1, 1, 2, 1)),
            "The kernel size can not be split, but the strategy for kernel size is (2, 1)"),
        refusal(
            "Conv2D",
            valid,
            x6w3,
            List.of(List.of(1, 2, 1, 1), List.of(1, 1, 1, 1)),
            "The shard num of c-in for input strategy is 2, but the shard num of c-in for weight"
                + " strategy is 1"),
        refusal(
            "Conv2D",
            valid,
            List.of(Shape.of(4, 4, 5, 6), Shape.of(4, 4, 3, 2)),
            List.of(List.of(1, 1, 1, 2), List.of(1, 1, 1, 1)),
            "Do not support to split 3th dimension when out_shape of 3th dimension is not divisible"
                + " by strategy of 3th dimension"),
        refusal(
            "Conv2D",
            valid,
            x6w3,
            splitH,
            "The 'valid' mode do not support to split 2th or 3th dimension when"
                + " kernel_size_use_dilation_ > stride"),
        refusal(
            "Conv2D",
            conv("pad", 2),
            List.of(Shape.of(4, 4, 10, 8), Shape.of(4, 4, 2, 2)),
            splitH,
            "The 'pad' or 'same' mode do not support to split 2th dimension when kernel_size <="
                + " stride and pad != 0"),
        refusal(
            "Conv2D",
            RuleCases.conv("pad", List.of(3, 0, 0, 0), 2, 1),
            List.of(Shape.of(1, 2, 14, 6), Shape.of(2, 2, 3, 3)),
            splitH,
            "The bottom overlap size of 2th dimension rank bias 0 must be positive, but it is -1"),
        refusal(
            "Conv2D",
            RuleCases.conv("same", List.of(0, 0, 0, 0), 1, 1),
            List.of(Shape.of(1, 2, 8, 8), Shape.of(2, 2, 5, 5)),
            List.of(List.of(1, 1, 1, 8), List.of(1, 1, 1, 1)),
            "The send or recv len larger than slice shape of 3th dimension 1"),
        refusal(
            "Conv2DBackpropInput",
            valid.with("input_shape", List.of(4, 4, 6, 6)),
            dx6,
            List.of(List.of(1, 2, 1, 1), List.of(1, 1, 1, 1)),
            "The shard num of c-out for input strategy is 2, but the shard num of c-out for weight"
                + " strategy is 1"),
        refusal(
            "Conv2DBackpropInput",
            valid.with("input_shape", List.of(4, 4, 6, 6)),
            dx6,
            splitH,
            "The 'valid' mode do not support to split 2th or 3th dimension when"
                + " kernel_size_use_dilation_ > stride"),
        refusal(
            "MaxPool",
            RuleCases.pool("SAME", 3, 2),
            List.of(Shape.of(4, 4, 8, 8)),
            List.of(List.of(1, 1, 2, 1)),
            "It does not support to split H dimension when kernel_size > stride"),
        refusal(
            "AvgPool",
            RuleCases.pool("VALID", 1, 4),
            List.of(Shape.of(4, 4, 6, 6)),
            List.of(List.of(1, 1, 1, 2)),
            "It does not support to split W dimension when kernel_size <= stride but slice shape"
                + " is not divisible by stride "),
        refusal(
            "AvgPoolGrad",
            RuleCases.pool("SAME", 3, 2),
            List.of(Shape.of(4, 4, 8, 8), Shape.of(4, 4, 4, 4)),
            List.of(List.of(1, 1, 2, 1), List.of(1, 1, 2, 1)),
            "It does not support to split H dimension when kernel_size > stride"),
        refusal(
            "Tile",
            Attrs.of("multiples", List.of(2, 1)),
            List.of(Shape.of(4, 2)),
            List.of(List.of(4, 1)),
            "Input index 0, the strategy is ((4, 1),), shape is [2, 2], shape value 2 at dim index 0"
                + " cannot be divisible by strategy value 4"),
        refusal(
            "Lamb",
            Attrs.EMPTY,
            List.of(p, p, p, one, one, one, one, one, one, p),
            List.of(rows, rows, rows, none, none, none, none, none, none, rows),
            "The strategy is ((2, 1), (2, 1), (2, 1), (), (), (), (), (), (), (2, 1)), dimension 0"
                + " of input 0 can not be split (rule ab,ab,ab,,,,,,,ab->ab,ab,ab matrix=ab"
                + " unsplit=ab), but its strategy value is 2"));
  }

  @ParameterizedTest(name = "{0} {3}")
  @MethodSource("refusals")
  void refusesWithMindSporesText(
      String op, Attrs attrs, List<Shape> shapes, List<List<Integer>> strategy, String text) {
    ShardingException e =
        assertThrows(ShardingException.class, () -> Rules.of(op).shard(attrs, shapes, strategy, 8));
    assertEquals(text, e.detail());
  }

  @Test
  void splitChannelsAndImagesLeaveSums() {
    List<Shape> conv = List.of(Shape.of(4, 4, 6, 6), Shape.of(4, 4, 3, 3));
    OpSharding s =
        Rules.of("Conv2D")
            .shard(conv("valid", 1), conv, List.of(List.of(2, 2, 1, 1), List.of(2, 2, 1, 1)), 8);
    assertEquals(List.of(2, 2, 1, 1, 2), s.deviceMatrix().shape(), "MindSpore's (n, i, h, w, o)");
    assertEquals("AllReduce(SUM over axes [1])", s.partial(0).orElseThrow().toString());

    Attrs filter = conv("valid", 1).with("filter_shape", List.of(4, 4, 3, 3));
    List<Shape> grads = List.of(Shape.of(4, 4, 4, 4), Shape.of(4, 4, 6, 6));
    OpSharding f =
        Rules.of("Conv2DBackpropFilter")
            .shard(filter, grads, List.of(List.of(2, 2, 1, 1), List.of(2, 1, 1, 1)), 4);
    assertEquals("AllReduce(SUM over axes [0])", f.partial(0).orElseThrow().toString());
    assertEquals(
        List.of(2, 4, 3, 3),
        Rules.of("Conv2DBackpropFilter").localAttrs(filter, f, 0).ints("filter_shape"));
  }

  @Test
  void splitImagesExchangeHalosWithTheirNeighbours() {
    // 'same' 3x3 on 8x8 split 2 (H) x 4 (W): every slice overlaps each neighbour by one row or
    // column. Rank 5 is (h 1, w 1): neighbours 1 above, 4 and 6 beside, 0 and 2 diagonally above.
    Attrs same = RuleCases.conv("same", List.of(0, 0, 0, 0), 1, 1);
    List<Shape> shapes = List.of(Shape.of(1, 1, 8, 8), Shape.of(1, 1, 3, 3));
    ShardingRule rule = Rules.of("Conv2D");
    OpSharding s = rule.shard(same, shapes, List.of(List.of(1, 1, 2, 4), List.of(1, 1, 1, 1)), 8);
    Attrs ex = rule.lowering(same, s, 5).inputs().get(0);
    assertEquals(List.of(1, 2, 6, -1, -1, -1, 4, 0), ex.ints("send_rank_ids"));
    assertEquals(List.of(1, 0, 1, 1), ex.ints("send_lens"));
    assertEquals(List.of(1, 2, 6, -1, -1, -1, 4, 0), ex.ints("recv_rank_ids"));
    assertEquals(List.of(1, 0, 1, 1), ex.ints("recv_lens"));
    Attrs local = rule.localAttrs(same, s, 5);
    assertEquals("pad", local.string("pad_mode"));
    assertEquals(
        List.of(0, 1, 0, 0), local.ints("pad"), "the last row of slices keeps its bottom pad");
    assertEquals(List.of(1, 0, 1, 0), rule.localAttrs(same, s, 0).ints("pad"));

    // Kernel 2 = stride 2, 'valid': windows do not overlap, nothing is exchanged.
    Attrs valid = conv("valid", 2);
    List<Shape> even = List.of(Shape.of(4, 4, 8, 8), Shape.of(4, 4, 2, 2));
    OpSharding v = rule.shard(valid, even, List.of(List.of(1, 1, 2, 2), List.of(1, 1, 1, 1)), 8);
    assertEquals(NodeSharding.Lowering.NONE, rule.lowering(valid, v, 3));
    assertEquals(
        valid.with("pad_list", List.of(0, 0, 0, 0)),
        rule.localAttrs(valid, v, 3),
        "unchanged but for pad_list, the pads the op uses (shown as MindSpore shows them)");

    // The search is offered no H/W split (MindSpore generates them for sharding propagation only).
    assertTrue(
        rule.candidates(same, shapes, 8, false).stream()
            .allMatch(c -> c.get(0).get(2) == 1 && c.get(0).get(3) == 1));
  }

  @Test
  void trainingBatchNormSplitAlongTheBatchSumsItsStatisticsOverItsGroup() {
    // ((2, 1, 2, 1), ...) on 8 devices: device matrix [2, 1, 2, 1] plus the repeated axis 2 on the
    // right; rank 0's batch and H blocks are on ranks 0, 2, 4, 6 (the repeated copies apart).
    Attrs training = Attrs.of("is_training", true, "epsilon", 1e-5, "momentum", 0.1);
    Shape c = Shape.of(4);
    List<Shape> shapes = List.of(Shape.of(4, 4, 6, 6), c, c, c, c);
    List<Integer> ch = List.of(1);
    OpSharding s =
        Rules.of("BatchNorm")
            .shard(training, shapes, List.of(List.of(2, 1, 2, 1), ch, ch, ch, ch), 8);
    NodeSharding.Replacement r0 = Rules.of("BatchNorm").lowering(training, s, 0).replacement();
    assertEquals("SyncBatchNorm", r0.op());
    assertEquals(List.of(0, 2, 4, 6), r0.group());
    assertEquals(
        List.of(1, 3, 5, 7), Rules.of("BatchNorm").lowering(training, s, 1).replacement().group());
    assertTrue(s.partial(1).isEmpty(), "the batch mean comes out whole");
    Attrs inference = training.with("is_training", false);
    OpSharding i =
        Rules.of("BatchNorm")
            .shard(inference, shapes, List.of(List.of(2, 1, 2, 1), ch, ch, ch, ch), 8);
    assertEquals(NodeSharding.Lowering.NONE, Rules.of("BatchNorm").lowering(inference, i, 0));
  }

  @Test
  void tileDealsOutWholeTiles() {
    Attrs attrs = Attrs.of("multiples", List.of(4, 1));
    OpSharding s =
        Rules.of("Tile").shard(attrs, List.of(Shape.of(3, 2)), List.of(List.of(2, 2)), 4);
    assertEquals(List.of(-1, 0), s.inputLayouts().get(0).tensorMap(), "x whole along the tiles");
    assertEquals(List.of(6, 1), s.outputLayouts().get(0).sliceShape().dims());
    assertEquals(List.of(2, 1), Rules.of("Tile").localAttrs(attrs, s, 3).ints("multiples"));
  }
}
