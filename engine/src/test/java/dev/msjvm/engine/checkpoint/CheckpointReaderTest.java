package dev.msjvm.engine.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ReadLimit;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointReaderTest {
  @TempDir Path dir;

  private static Tensor counting(DType dtype, int... dims) {
    Shape shape = Shape.of(dims);
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < shape.size(); i++) {
      values.add(dtype == DType.FLOAT32 ? (Object) (i / 4.0) : (Object) (long) i);
    }
    return Tensor.of(dtype, shape, values);
  }

  @Test
  void aCkptIsIndexedThenReadEntryByEntryEqualToAWholeRead() {
    Tensor big = counting(DType.FLOAT32, 7, 5);
    Tensor ints = counting(DType.INT64, 3);
    Tensor scalar = counting(DType.INT32);
    Path p = dir.resolve("a.ckpt");
    // Values of 12 bytes: "big" is stored as 12 Values (140 bytes), each read back in order.
    new CheckpointFile(12)
        .write(
            p,
            List.of(
                new CheckpointEntry.OfTensor("big", big),
                new CheckpointEntry.OfText("note", "héllo"),
                new CheckpointEntry.OfTensor("ints", ints),
                new CheckpointEntry.OfTensor("s", scalar)),
            true);
    CheckpointReader r = CheckpointReader.open(p, ReadLimit.none());
    assertEquals(List.of("big", "note", "ints", "s"), r.names());
    assertEquals(List.of(7, 5), r.shape("big"));
    assertEquals("FLOAT32", r.engineType("big"));
    assertEquals(null, r.engineType("note"));
    assertEquals(List.of(), r.shape("s"));
    assertEquals(8, r.itemSize("ints"));
    assertEquals(big.toList(), ((CheckpointEntry.OfTensor) r.read("big")).tensor().toList());
    assertEquals("héllo", ((CheckpointEntry.OfText) r.read("note")).text());
    assertEquals(ints.toList(), ((CheckpointEntry.OfTensor) r.read("ints")).tensor().toList());
    assertEquals(scalar.toList(), ((CheckpointEntry.OfTensor) r.read("s")).tensor().toList());
    MsException e = assertThrows(MsException.class, () -> r.read("missing"));
    assertEquals("ValueError", e.pythonType());
  }

  @Test
  void aTensorLargerThanAChunkIsFilledChunkByChunk() {
    // 2.5 chunks of float32 in Values of 3 MiB: chunk and Value boundaries fall apart.
    int n = TensorBytes.CHUNK * 5 / 2;
    Tensor big = counting(DType.FLOAT32, n);
    Path p = dir.resolve("big.ckpt");
    new CheckpointFile(3 << 20).write(p, List.of(new CheckpointEntry.OfTensor("w", big)));
    Tensor back =
        ((CheckpointEntry.OfTensor) CheckpointReader.open(p, ReadLimit.none()).read("w")).tensor();
    assertEquals(big.toList(), back.toList());
    assertEquals(new CheckpointFile().read(p).get(0).tag(), "w");
  }

  @Test
  void aSafetensorsFileIsReadEntryByEntryAndItsStreamingWriteEqualsTheWholeWrite()
      throws Exception {
    Map<String, Tensor> tensors = new LinkedHashMap<>();
    tensors.put("b", counting(DType.INT32, 4));
    tensors.put("a", counting(DType.FLOAT32, 2, 3));
    Path whole = dir.resolve("whole.safetensors");
    SafetensorsFile.write(whole, tensors, Map.of("format", "ms"));
    Path streamed = dir.resolve("streamed.safetensors");
    List<SafetensorsFile.Declared> declared = new ArrayList<>();
    tensors.forEach((k, t) -> declared.add(new SafetensorsFile.Declared(k, t.dtype(), t.shape())));
    SafetensorsFile.write(streamed, declared, tensors::get, Map.of("format", "ms"));
    assertEquals(-1, Files.mismatch(whole, streamed));
    CheckpointReader r = CheckpointReader.open(streamed, ReadLimit.none());
    assertEquals(Map.of("format", "ms"), r.metadata());
    assertEquals(List.of(2, 3), r.shape("a"));
    assertEquals(
        tensors.get("a").toList(), ((CheckpointEntry.OfTensor) r.read("a")).tensor().toList());
    assertEquals(
        tensors.get("b").toList(), ((CheckpointEntry.OfTensor) r.read("b")).tensor().toList());
    // A tensor made with another shape than declared stops the write.
    assertThrows(
        RuntimeException.class,
        () ->
            SafetensorsFile.write(
                dir.resolve("bad.safetensors"),
                declared,
                name -> counting(DType.INT32, 5),
                Map.of()));
  }

  @Test
  void aLaterDuplicateTagWinsInTheFirstOnesPlace() {
    Path p = dir.resolve("d.ckpt");
    new CheckpointFile()
        .write(
            p,
            List.of(
                new CheckpointEntry.OfTensor("x", counting(DType.INT32, 2)),
                new CheckpointEntry.OfTensor("y", counting(DType.INT32, 1)),
                new CheckpointEntry.OfTensor("x", counting(DType.INT32, 3))));
    CheckpointReader r = CheckpointReader.open(p, ReadLimit.none());
    assertEquals(List.of("x", "y"), r.names());
    assertEquals(List.of(3), r.shape("x"));
  }

  @Test
  void aBoxIsReadWithoutTheRestOfTheTensorAcrossValueBoundaries() {
    Tensor t = counting(DType.INT32, 4, 5, 6);
    Path p = dir.resolve("box.ckpt");
    new CheckpointFile(20)
        .write(p, List.of(new CheckpointEntry.OfTensor("t", t))); // 5 ints a Value
    CheckpointReader r = CheckpointReader.open(p, ReadLimit.none());
    java.util.Random random = new java.util.Random(7);
    for (int trial = 0; trial < 200; trial++) {
      List<Integer> begin = new ArrayList<>();
      List<Integer> end = new ArrayList<>();
      for (int size : List.of(4, 5, 6)) {
        int b = random.nextInt(size + 1);
        begin.add(b);
        end.add(b + random.nextInt(size - b + 1));
      }
      Tensor box = r.readBox("t", begin, end);
      List<Object> expect = new ArrayList<>();
      for (int i = begin.get(0); i < end.get(0); i++) {
        for (int j = begin.get(1); j < end.get(1); j++) {
          for (int k = begin.get(2); k < end.get(2); k++) {
            expect.add((long) (i * 30 + j * 6 + k));
          }
        }
      }
      assertEquals(
          List.of(end.get(0) - begin.get(0), end.get(1) - begin.get(1), end.get(2) - begin.get(2)),
          box.shape().dims());
      List<Object> got = new ArrayList<>();
      for (int i = 0; i < box.size(); i++) {
        got.add(box.getLong(i));
      }
      assertEquals(expect, got, "box " + begin + " " + end);
    }
  }

  @Test
  void piecesReadIntoOneSliceEqualTheSliceReadWhole() {
    // Two files each holding half of a 6x8 tensor's rows; a destination slice (rows 1..5,
    // columns 2..7) is assembled from the overlap of each, read straight into place.
    Tensor whole = counting(DType.INT32, 6, 8);
    Path whole6x8 = dir.resolve("whole.ckpt");
    new CheckpointFile(7).write(whole6x8, List.of(new CheckpointEntry.OfTensor("t", whole)));
    CheckpointReader all = CheckpointReader.open(whole6x8, ReadLimit.none());
    List<CheckpointReader> halves = new ArrayList<>();
    for (int h = 0; h < 2; h++) {
      Path p = dir.resolve("half" + h + ".ckpt");
      new CheckpointFile(7)
          .write(
              p,
              List.of(
                  new CheckpointEntry.OfTensor(
                      "t", all.readBox("t", List.of(3 * h, 0), List.of(3 * h + 3, 8)))));
      halves.add(CheckpointReader.open(p, ReadLimit.none()));
    }
    Tensor slice = Tensor.zeros(DType.INT32, Shape.of(4, 5));
    halves.get(0).readBoxInto("t", List.of(1, 2), List.of(3, 7), slice, List.of(0, 0));
    halves.get(1).readBoxInto("t", List.of(0, 2), List.of(2, 7), slice, List.of(2, 0));
    Tensor expect = all.readBox("t", List.of(1, 2), List.of(5, 7));
    for (int i = 0; i < expect.size(); i++) {
      assertEquals(expect.getLong(i), slice.getLong(i), "element " + i);
    }
    assertEquals(1 * 8 + 2, slice.getLong(0)); // row 1, column 2 of the counting tensor
    // A box that does not fit the destination, or of another dtype, is refused.
    assertThrows(
        IllegalArgumentException.class,
        () -> halves.get(0).readBoxInto("t", List.of(0, 0), List.of(3, 8), slice, List.of(0, 0)));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            halves
                .get(0)
                .readBoxInto(
                    "t",
                    List.of(0, 0),
                    List.of(1, 1),
                    Tensor.zeros(DType.FLOAT32, Shape.of(4, 5)),
                    List.of(0, 0)));
  }
}
