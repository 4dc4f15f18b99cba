package dev.msjvm.engine.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Redistribution plans against MindSpore's {@code _transform_tensor_by_layout}: the cases of its
 * {@code tests/ut/python/parallel/test_transform_tensor.py} (layouts and expected op lists carried
 * over), cases probed on MindSpore 2.10 for the visiting order, and 400 random cases recorded from
 * MindSpore 2.10 by {@code src/test/tools/gen_transform_goldens.py}.
 */
class TransformTensorOracleTest {

  private static List<Integer> ranks(int n) {
    return IntStream.range(0, n).boxed().toList();
  }

  /** Parses {@code "1,8|1,0|32,256"}: device matrix, tensor map, full shape. */
  static List<List<Integer>> layout(String text) {
    List<List<Integer>> out = new ArrayList<>();
    for (String part : text.split("\\|", -1)) {
      out.add(Arrays.stream(part.split(",")).map(String::trim).map(Integer::valueOf).toList());
    }
    return out;
  }

  private static String transform(String from, String to, int devices, int rank) {
    return TensorRedistribution.transformTensorByLayout(
            layout(from), layout(to), ranks(devices), rank)
        .toString();
  }

  static Stream<Arguments> unitTests() {
    return Stream.of(
        // test_transform_tensor_by_layout_allconcat_axis_1
        Arguments.of(
            "1,8|1,0|32,256",
            "1,4,2|2,1|32,256",
            8,
            0,
            "[('Reshape', [32, 1, 32]), ('AllConcat', [0, 1, 2]), ('Reshape', [32, 64])]"),
        // test_transform_tensor_by_layout_allconcat_axis_1_using_none_map
        Arguments.of(
            "8|0,-1|32,256",
            "4,2|1,-1|32,256",
            8,
            0,
            "[('Reshape', [1, 4, 256]), ('AllConcat', [0, 1, 1]), ('Reshape', [8, 256])]"),
        // test_transform_tensor_by_layout_allconcat_to_single
        Arguments.of(
            "4,2|1,0|32,256",
            "1,8|-1,-1|32,256",
            8,
            0,
            "[('AllConcat', [0, 2, 4, 6, 0]), ('AllConcat', [0, 1, 1])]"),
        // test_transform_tensor_by_layout_allconcat_axis_0
        Arguments.of(
            "8,1|1,0|32,256",
            "2,1,4|2,1|32,256",
            8,
            0,
            "[('Reshape', [1, 4, 256]), ('AllConcat', [0, 1, 2, 3, 1]), ('Reshape', [16, 256])]"),
        // test_transform_tensor_by_layout_all_to_all
        Arguments.of(
            "8,1|1,-1|32,64",
            "1,8|-1,0|32,64",
            8,
            0,
            "[('AllConcat', [0, 1, 2, 3, 4, 5, 6, 7, 0]), ('StridedSlice', [0, 0, 32, 8, 1, 1])]"),
        // test_transform_tensor_by_layout_mix
        Arguments.of(
            "2,2,2|2,1,0|32,64,128",
            "8,1,1|2,1,0|32,64,128",
            8,
            1,
            "[('Reshape', [1, 2, 8, 32, 64]), ('AllConcat', [1, 3, 3]), "
                + "('StridedSlice', [0, 0, 0, 0, 0, 1, 1, 8, 64, 64, 1, 1, 1, 1, 1]), "
                + "('AllConcat', [0, 1, 4]), "
                + "('StridedSlice', [0, 0, 4, 0, 0, 1, 1, 8, 64, 128, 1, 1, 1, 1, 1]), "
                + "('Reshape', [4, 64, 128])]"),
        // test_generate_transform_operator_stack_1 (rank 0's list)
        Arguments.of(
            "8,1,8|2,1,-1|32,64,128",
            "8,8,1|2,1,0|32,64,128",
            64,
            0,
            "[('StridedSlice', [0, 0, 0, 4, 8, 128, 1, 1, 1])]"),
        // test_generate_transform_operator_stack_2 (rank 1's list)
        Arguments.of(
            "8,1|1,-1|32,64",
            "1,8|-1,0|32,64",
            8,
            1,
            "[('AllConcat', [0, 1, 2, 3, 4, 5, 6, 7, 0]), ('StridedSlice', [0, 8, 32, 16, 1, 1])]"),
        // test_generate_transform_operator_stack_4 shows rank 0's first three ops; the rest as
        // MindSpore 2.10 returns them
        Arguments.of(
            "2,2,2|2,1,0|32,64,128",
            "8,1,1|2,1,0|32,64,128",
            8,
            0,
            "[('Reshape', [1, 2, 8, 32, 64]), ('AllConcat', [0, 2, 3]), "
                + "('StridedSlice', [0, 0, 0, 0, 0, 1, 1, 8, 64, 64, 1, 1, 1, 1, 1]), "
                + "('AllConcat', [0, 1, 4]), "
                + "('StridedSlice', [0, 0, 0, 0, 0, 1, 1, 4, 64, 128, 1, 1, 1, 1, 1]), "
                + "('Reshape', [4, 64, 128])]"),
        // test_apply_tensor_transform_operators_no_need_transform
        Arguments.of("8,1,1|2,-1,-1|8,8,8", "8,1,1|2,-1,-1|8,8,8", 8, 0, "[]"));
  }

  @ParameterizedTest(name = "{0} -> {1} on {2}, rank {3}")
  @MethodSource("unitTests")
  void matchesMindSporeUnitTests(String from, String to, int devices, int rank, String expected) {
    assertEquals(expected, transform(from, to, devices, rank));
  }

  /** Probed on MindSpore 2.10: these orders come from its robin-hood map, not from dim order. */
  static Stream<Arguments> visitingOrder() {
    return Stream.of(
        Arguments.of(
            "2,2,2,2|3,2,1,0|4,4,4,4",
            "2,2,2,2|-1,-1,-1,-1|4,4,4,4",
            "[('AllConcat', [0, 8, 0]), ('AllConcat', [0, 4, 1]), ('AllConcat', [0, 1, 3]),"
                + " ('AllConcat', [0, 2, 2])]"),
        Arguments.of(
            "2,2,2,2,2|4,3,2,1,0|4,4,4,4,4",
            "2,2,2,2,2|-1,-1,-1,-1,-1|4,4,4,4,4",
            "[('AllConcat', [0, 16, 0]), ('AllConcat', [0, 8, 1]), ('AllConcat', [0, 1, 4]),"
                + " ('AllConcat', [0, 2, 3]), ('AllConcat', [0, 4, 2])]"),
        Arguments.of(
            "2,2,2|2,1,0|8,8,8",
            "2,2,2|0,2,1|8,8,8",
            "[('AllConcat', [0, 4, 0]), ('AllConcat', [0, 1, 2]), ('StridedSlice', [0, 0, 0, 4, 4,"
                + " 8, 1, 1, 1]), ('AllConcat', [0, 2, 1]), ('StridedSlice', [0, 0, 0, 4, 8, 4, 1,"
                + " 1, 1]), ('StridedSlice', [0, 0, 0, 4, 4, 4, 1, 1, 1])]"));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("visitingOrder")
  void visitsDimsInMindSporesOrder(String from, String to, String expected) {
    int devices = layout(from).get(0).stream().reduce(1, (a, b) -> a * b);
    assertEquals(expected, transform(from, to, devices, 0));
  }

  /** One line of transform-goldens.txt: from ; to ; devices ; rank ; result. */
  static Stream<Arguments> goldens() throws IOException {
    List<Arguments> out = new ArrayList<>();
    try (InputStream in =
            TransformTensorOracleTest.class.getResourceAsStream("/parallel/transform-goldens.txt");
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.split(" ; ", 5);
        out.add(Arguments.of(f[0], f[1], Integer.parseInt(f[2]), Integer.parseInt(f[3]), f[4]));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} -> {1} on {2}, rank {3}")
  @MethodSource("goldens")
  void matchesRecordedMindSpore(String from, String to, int devices, int rank, String expected) {
    assertEquals(expected, transform(from, to, devices, rank));
  }

  private static ExpandedLayout internal(String layout) {
    List<List<Integer>> t = layout(layout);
    return ExpandedLayout.init(
            LayoutAlgebra.toArray(t.get(0)),
            LayoutAlgebra.toArray(t.get(1)),
            LayoutAlgebra.toArray(t.get(2)))
        .squeezeShape();
  }

  @Test
  void goldenFileIsCompleteAndCoversTheGatherAllPath() throws IOException {
    List<Arguments> all = goldens().toList();
    assertEquals(400, all.size());
    long gatherAll =
        all.stream()
            .filter(
                a ->
                    !LayoutTransfer.unify(
                            internal((String) a.get()[0]), internal((String) a.get()[1]))
                        .expandable())
            .count();
    assertTrue(gatherAll >= 5, gatherAll + " cases take the gather-all path");
  }
}
