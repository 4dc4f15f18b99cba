package dev.msjvm.engine.parallel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.UnknownFieldSet;
import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ReadLimit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
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

  private static MsException refused(Path file) {
    MsException e = assertThrows(MsException.class, () -> StrategyFile.read(file));
    assertEquals(MsException.Kind.RUNTIME_ERROR, e.kind());
    return e;
  }

  @Test
  void aLengthPastTheEndIsRefusedWithTheDeclaredAndAvailableSizes(@TempDir Path dir)
      throws Exception {
    // current_stage 1, then a strategy item declaring 2^31 - 1 bytes followed by 3.
    Path file = dir.resolve("huge.ckpt");
    Files.write(file, HexFormat.of().parseHex("0801" + "12ffffffff07" + "0a0141"));
    assertEquals(
        "Load strategy file failed: "
            + file
            + ": The strategy item at byte 2 declares 2147483647 bytes, but only 3 are left",
        refused(file).getMessage());
    // Inside an item that fits: its name declares 100 bytes of the 1 left in the item.
    Files.write(file, HexFormat.of().parseHex("0801" + "1203" + "0a6441"));
    assertEquals(
        "Load strategy file failed: "
            + file
            + ": The name of a strategy item declares 100 bytes, but only 1 are left",
        refused(file).getMessage());
    // A length of 2^64 - 1: ten varint bytes.
    Files.write(file, HexFormat.of().parseHex("1a" + "ffffffffffffffffff01"));
    assertEquals(
        "Load strategy file failed: "
            + file
            + ": The layout item at byte 0 declares a size that does not fit in 63 bits",
        refused(file).getMessage());
  }

  @Test
  void aFileOverTheReadLimitIsRefusedBeforeItIsRead(@TempDir Path dir) throws Exception {
    for (String name : List.of("s.ckpt", "s.json")) {
      Path file = dir.resolve(name);
      StrategyFile.write(file, seed());
      long size = Files.size(file);
      MsException e =
          assertThrows(MsException.class, () -> StrategyFile.read(file, new ReadLimit(size - 1)));
      assertEquals(MsException.Kind.RUNTIME_ERROR, e.kind());
      assertEquals(
          "Load strategy file failed: "
              + file
              + " is "
              + size
              + " bytes, over the limit of "
              + (size - 1)
              + " bytes set by msjvm.maxReadBytes.",
          e.getMessage());
      assertEquals(seed().strategies(), StrategyFile.read(file, new ReadLimit(size)).strategies());
    }
  }
}
