package dev.msjvm.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link TensorFormat} against goldens recorded from numpy 2.4.6 and MindSpore 2.10 by {@code
 * src/test/tools/gen_tensor_format_goldens.py}.
 */
class TensorFormatTest {
  private static final String GOLDENS = "/tensor-format/goldens.txt";

  /** Complex tensors' goldens: repr only is checked (the shim prints their str through numpy). */
  private static final String COMPLEX_GOLDENS = "/tensor-format/complex-goldens.txt";

  record Case(String name, DType dtype, Shape shape, byte[] bytes, String str, String repr) {
    Tensor tensor() {
      return Tensor.fromBytes(dtype, shape, bytes);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static List<Case> cases() throws IOException {
    return cases(GOLDENS);
  }

  static List<Case> cases(String resource) throws IOException {
    String text;
    try (InputStream in = TensorFormatTest.class.getResourceAsStream(resource)) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<Case> cases = new ArrayList<>();
    Map<String, String> fields = new HashMap<>();
    for (String line : (text + "\n").split("\n", -1)) {
      if (line.startsWith("#")) {
        continue;
      }
      if (line.isEmpty()) {
        if (!fields.isEmpty()) {
          cases.add(toCase(fields));
          fields.clear();
        }
        continue;
      }
      int space = line.indexOf(' ');
      fields.put(line.substring(0, space), line.substring(space + 1));
    }
    return cases;
  }

  private static Case toCase(Map<String, String> f) {
    DType dtype =
        Stream.of(DType.values())
            .filter(d -> d.mindsporeName().equals(f.get("dtype")))
            .findFirst()
            .orElseThrow();
    String dims = f.get("shape").trim();
    Shape shape =
        dims.isEmpty()
            ? Shape.scalar()
            : Shape.of(Stream.of(dims.split(" ")).mapToInt(Integer::parseInt).toArray());
    return new Case(
        f.get("case"),
        dtype,
        shape,
        HexFormat.of().parseHex(f.get("bytes")),
        unescape(f.get("str")),
        unescape(f.get("repr")));
  }

  private static String unescape(String s) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\') {
        char next = s.charAt(++i);
        out.append(next == 'n' ? '\n' : next);
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  static Stream<Arguments> goldens() throws IOException {
    return cases().stream().map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void strMatchesNumpy(Case c) {
    assertEquals(c.str(), TensorFormat.str(c.tensor()));
  }

  static Stream<Arguments> allGoldens() throws IOException {
    return Stream.concat(cases().stream(), cases(COMPLEX_GOLDENS).stream()).map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("allGoldens")
  void reprMatchesMindSpore(Case c) {
    assertEquals(c.repr(), TensorFormat.repr(c.tensor()));
  }

  @Test
  void goldenFileCoversEveryDtype() throws IOException {
    List<Case> all = new ArrayList<>(cases());
    all.addAll(cases(COMPLEX_GOLDENS));
    assertTrue(all.size() >= 150, "only " + all.size() + " cases");
    for (DType d : DType.values()) {
      assertTrue(all.stream().anyMatch(c -> c.dtype() == d), "no case for " + d);
    }
  }

  @Test
  void documentedExamples() {
    Tensor t = Tensor.of(DType.INT64, Shape.of(3), List.of(1, 2, 3));
    assertEquals("Tensor(shape=[3], dtype=Int64, value= [1, 2, 3])", TensorFormat.repr(t));
    assertEquals("[1 2 3]", TensorFormat.str(t));
    Tensor f = Tensor.of(DType.FLOAT32, Shape.of(2, 2), List.of(1.5, 2.0, 3.0, 4.0));
    assertEquals("[[1.5 2. ]\n [3.  4. ]]", TensorFormat.str(f));
    assertEquals(
        "Tensor(shape=[2, 2], dtype=Float32, value=\n"
            + "[[ 1.50000000e+00,  2.00000000e+00],\n"
            + " [ 3.00000000e+00,  4.00000000e+00]])",
        TensorFormat.repr(f));
  }
}
