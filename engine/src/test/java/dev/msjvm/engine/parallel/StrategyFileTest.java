package dev.msjvm.engine.parallel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.UnknownFieldSet;
import dev.msjvm.engine.MsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StrategyFileTest {

  private static StrategyFile.Contents seed() {
    return new StrategyFile.Contents(
        1,
        Map.of(
            "MatMul_fc2_weight",
            new StrategyFile.StrategyEntry(0, List.of(List.of(1, 8), List.of(8, 1))),
            "MatMul_fc1_weight",
            new StrategyFile.StrategyEntry(0, List.of(List.of(2, 4), List.of(4, 1)))),
        Map.of(
            "fc1_weight",
            new StrategyFile.LayoutEntry(
                List.of(2, 4, 1), List.of(1, -1), List.of(784, 512), 0, 0, 0)));
  }

  @Test
  void theProtobufHasNodeStrategyProtosFieldsAndReadsBack(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("s.ckpt");
    StrategyFile.write(file, seed());
    byte[] bytes = Files.readAllBytes(file);
    // Read with protobuf-java's schema-less parser: field numbers and wire types as in
    // node_strategy.proto.
    UnknownFieldSet root = UnknownFieldSet.parseFrom(bytes);
    assertEquals(List.of(1L), root.getField(1).getVarintList());
    assertEquals(2, root.getField(2).getLengthDelimitedList().size());
    UnknownFieldSet first =
        UnknownFieldSet.parseFrom(root.getField(2).getLengthDelimitedList().get(0));
    assertEquals(
        "MatMul_fc1_weight", first.getField(1).getLengthDelimitedList().get(0).toStringUtf8());
    UnknownFieldSet strategys =
        UnknownFieldSet.parseFrom(first.getField(2).getLengthDelimitedList().get(0));
    UnknownFieldSet input0 =
        UnknownFieldSet.parseFrom(strategys.getField(2).getLengthDelimitedList().get(0));
    assertEquals(List.of(2L, 4L), input0.getField(1).getVarintList());
    UnknownFieldSet layouts =
        UnknownFieldSet.parseFrom(
            UnknownFieldSet.parseFrom(root.getField(3).getLengthDelimitedList().get(0))
                .getField(2)
                .getLengthDelimitedList()
                .get(0));
    UnknownFieldSet map =
        UnknownFieldSet.parseFrom(layouts.getField(2).getLengthDelimitedList().get(0));
    assertEquals(-1, map.getField(1).getVarintList().get(1).intValue(), "int32 -1 sign-extended");
    assertEquals(1, layouts.getField(3).getLengthDelimitedList().size(), "empty param_split_shape");

    StrategyFile.Contents back = StrategyFile.read(file);
    assertEquals(seed().strategies(), back.strategies());
    assertEquals(List.of(2, 4, 1), back.layouts().get("fc1_weight").devMatrix());
    assertEquals(List.of(1, -1), back.layouts().get("fc1_weight").tensorMap());
  }

  @Test
  void equalContentsGiveEqualBytesWhateverTheInsertionOrder(@TempDir Path dir) throws Exception {
    StrategyFile.write(dir.resolve("a.ckpt"), seed());
    StrategyFile.Contents reordered =
        new StrategyFile.Contents(
            1, new java.util.LinkedHashMap<>(seed().strategies()).reversed(), seed().layouts());
    StrategyFile.write(dir.resolve("b.ckpt"), reordered);
    assertArrayEquals(
        Files.readAllBytes(dir.resolve("a.ckpt")), Files.readAllBytes(dir.resolve("b.ckpt")));
  }

  @Test
  void theJsonVariantRoundTrips(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("s.json");
    StrategyFile.write(file, seed());
    String text = Files.readString(file);
    assertEquals(true, text.contains("\"parallel_strategy_item\""), text);
    StrategyFile.Contents back = StrategyFile.read(file);
    assertEquals(seed().strategies(), back.strategies());
    assertEquals(seed().layouts(), back.layouts());
  }

  @Test
  void aMissingFileIsMindSporesRuntimeError(@TempDir Path dir) {
    MsException e =
        assertThrows(MsException.class, () -> StrategyFile.read(dir.resolve("none.ckpt")));
    assertEquals("CheckPoint file is not found", e.getMessage());
  }

  @Test
  void operatorStrategiesRoundTripWithMindSporesItemNames(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("ops.json");
    StrategyFile.OperatorStrategies ops =
        new StrategyFile.OperatorStrategies(
            Map.of(
                "Default/MatMul-op1",
                new StrategyFile.StrategyEntry(0, List.of(List.of(2, 4), List.of(4, 1)))),
            Map.of(
                "Default/MatMul-op1", new StrategyFile.StrategyEntry(0, List.of(List.of(8, 1)))));
    StrategyFile.writeOperators(file, ops);
    String text = Files.readString(file);
    assertEquals(true, text.contains("\"parallel_out_strategy_item\""), text);
    StrategyFile.OperatorStrategies back = StrategyFile.readOperators(file);
    assertEquals(ops.in(), back.in());
    assertEquals(ops.out(), back.out());
  }
}
