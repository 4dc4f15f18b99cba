package dev.msjvm.engine.parallel.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
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
          Map.entry("Conv2D valid", "nihw,oi__->nohw matrix=nihwo reduce={i:SUM} unsplit=hw"),
          Map.entry(
              "Conv2DBackpropInput same stride=2",
              "nohw,oi__->nihw matrix=nohwi reduce={o:SUM} unsplit=hw"),
          Map.entry(
              "Conv2DBackpropFilter valid",
              "nohw,nihw->oi__ matrix=nohwi reduce={n:SUM} unsplit=hw"),
          Map.entry("MaxPool", "nchw->nchw matrix=nchw unsplit=hw"),
          Map.entry("AvgPoolGrad", "nchw,nchw->nchw matrix=nchw unsplit=hw"),
          Map.entry(
              "LayerNormGrad norm=1 params=1",
              "ab,ab,a_,a_,b->ab,b,b matrix=ab reduce={a:SUM} unsplit=b"),
          Map.entry(
              "LayerNormGrad norm=1 params=0", "ab,ab,a_,a_,ab->ab,ab,ab matrix=ab unsplit=b"),
          Map.entry(
              "BatchNormGrad training=false",
              "abc,abc,b,b,b->abc,b,b matrix=abc reduce={a:SUM,c:SUM}"),
          Map.entry("BatchNormGrad training=true", "abc,abc,b,b,b->abc,b,b matrix=abc unsplit=ac"),
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
   * an unsplit letter where MindSpore would split (H/W of non-overlapping windows) and for Lamb.
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
            "Do not support to split w dimension when out_shape of w dimension is not divisible by"
                + " strategy of w dimension"),
        refusal(
            "Conv2D",
            valid,
            x6w3,
            splitH,
            "The 'valid' mode do not support to split H or W when kernel_size_use_dilation_ >"
                + " stride"),
        refusal(
            "Conv2D",
            conv("pad", 1),
            List.of(Shape.of(4, 4, 6, 5), Shape.of(4, 4, 3, 3)),
            splitH,
            "The 'pad' mode do not support to split H or W"),
        refusal(
            "Conv2D",
            conv("valid", 2),
            List.of(Shape.of(4, 4, 8, 8), Shape.of(4, 4, 2, 2)),
            splitH,
            "The strategy is ((1, 1, 2, 1), (1, 1, 1, 1)), dimension 2 of input 0 can not be split"
                + " (rule nihw,oi__->nohw matrix=nihwo reduce={i:SUM} unsplit=hw), but its strategy"
                + " value is 2"),
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
            "Do not support the pad mode 2 when split H or W dimension"),
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
            "MaxPool",
            RuleCases.pool("VALID", 2, 2),
            List.of(Shape.of(4, 4, 8, 8)),
            List.of(List.of(1, 1, 2, 1)),
            "The strategy is ((1, 1, 2, 1),), dimension 2 of input 0 can not be split (rule"
                + " nchw->nchw matrix=nchw unsplit=hw), but its strategy value is 2"),
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
  void tileDealsOutWholeTiles() {
    Attrs attrs = Attrs.of("multiples", List.of(4, 1));
    OpSharding s =
        Rules.of("Tile").shard(attrs, List.of(Shape.of(3, 2)), List.of(List.of(2, 2)), 4);
    assertEquals(List.of(-1, 0), s.inputLayouts().get(0).tensorMap(), "x whole along the tiles");
    assertEquals(List.of(6, 1), s.outputLayouts().get(0).sliceShape().dims());
    assertEquals(List.of(2, 1), Rules.of("Tile").localAttrs(attrs, s, 3).ints("multiples"));
  }
}
