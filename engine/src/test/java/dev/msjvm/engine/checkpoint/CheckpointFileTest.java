package dev.msjvm.engine.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

// Expected bytes: Checkpoint messages serialized by MindSpore 2.10's checkpoint_pb2 (python
// protobuf 7.36) for the same values, e.g. for "w" = Int32 [1, 2]:
//   c = Checkpoint(); v = c.value.add(); v.tag = "w"; v.tensor.dims.extend([2])
//   v.tensor.tensor_type = "Int32"; v.tensor.tensor_content = np.array([1, 2], np.int32).tobytes()
//   c.SerializeToString().hex()
class CheckpointFileTest {
  private static final String INT32_W = "0a180a0177121308021205496e7433321a080100000002000000";
  private static final String TEXT_S = "0a160a01731211080012037374721a0868000000e9000000";
  private static final String SCALAR_X = "0a140a0178120f1207466c6f617433321a040000c03f";

  // save_checkpoint({"a": Parameter(Tensor([1.0, 2.0]))}, f, crc_check=True): "crc_num" + CRC-32.
  private static final String CRC_A =
      "0a1a0a0161121508021207466c6f617433321a080000803f00000040"
          + "6372635f6e756d000000000000de23b49d";

  @TempDir Path dir;

  private static Tensor tensor(DType dtype, Shape shape, Object... values) {
    return Tensor.of(dtype, shape, Arrays.asList(values));
  }

  private static Tensor only(List<CheckpointEntry> entries, String tag) {
    return entries.stream()
        .filter(e -> e.tag().equals(tag))
        .map(e -> ((CheckpointEntry.OfTensor) e).tensor())
        .findFirst()
        .orElseThrow();
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void everyDtypeRoundTrips(DType dtype) {
    Tensor t = tensor(dtype, Shape.of(2, 3), 0, 1, -2, 3.5, 100, -0.25).astype(dtype);
    Tensor scalar = tensor(dtype, Shape.scalar(), 7);
    Path p = dir.resolve("t.ckpt");
    new CheckpointFile().write(p, List.of(ofTensor("a", t), ofTensor("b", scalar)));
    List<CheckpointEntry> back = new CheckpointFile().read(p);
    assertEquals(List.of("a", "b"), back.stream().map(CheckpointEntry::tag).toList());
    Tensor a = only(back, "a");
    assertEquals(dtype, a.dtype());
    assertEquals(Shape.of(2, 3), a.shape());
    assertEquals(t.toList(), a.toList());
    assertArrayEquals(TensorBytes.of(t), TensorBytes.of(a));
    Tensor b = only(back, "b");
    assertEquals(Shape.scalar(), b.shape());
    assertEquals(scalar.toList(), b.toList());
  }

  @Test
  void bytesAreMindSporesLayoutFieldByField() throws IOException {
    Path p = dir.resolve("w.ckpt");
    new CheckpointFile()
        .write(
            p,
            List.of(
                ofTensor("w", tensor(DType.INT32, Shape.of(2), 1, 2)),
                new CheckpointEntry.OfText("s", "hé"),
                ofTensor("x", tensor(DType.FLOAT32, Shape.scalar(), 1.5))));
    assertEquals(INT32_W + TEXT_S + SCALAR_X, HexFormat.of().formatHex(Files.readAllBytes(p)));
  }

  @Test
  void readsMindSporesBytes() throws IOException {
    Path p = dir.resolve("ms.ckpt");
    Files.write(p, HexFormat.of().parseHex(SCALAR_X + TEXT_S + INT32_W));
    List<CheckpointEntry> back = new CheckpointFile().read(p);
    assertEquals(1.5, only(back, "x").getDouble(0));
    assertEquals(Shape.scalar(), only(back, "x").shape());
    assertEquals(new CheckpointEntry.OfText("s", "hé"), back.get(1));
    assertEquals(List.of(1L, 2L), only(back, "w").toList());
  }

  @Test
  void bigTensorsAreSlicedAndJoined() throws IOException {
    Tensor big = tensor(DType.INT32, Shape.of(5, 2), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    Tensor other = tensor(DType.FLOAT64, Shape.of(1), 2.5);
    Path p = dir.resolve("s.ckpt");
    new CheckpointFile(12).write(p, List.of(ofTensor("big", big), ofTensor("o", other)));
    byte[] bytes = Files.readAllBytes(p);
    // 40 bytes of content in slices of 12, 12, 12, 4: four Values tagged "big", then "o".
    int bigValues = countOccurrences(bytes, HexFormat.of().parseHex("0a03626967"));
    assertEquals(4, bigValues);
    List<CheckpointEntry> back = new CheckpointFile().read(p);
    assertEquals(2, back.size());
    assertEquals(big.toList(), only(back, "big").toList());
    assertEquals(other.toList(), only(back, "o").toList());
  }

  @Test
  void corruptOrTruncatedFilesAreValueErrors() throws IOException {
    Path good = dir.resolve("g.ckpt");
    new CheckpointFile()
        .write(good, List.of(ofTensor("w", Tensor.zeros(DType.FLOAT32, Shape.of(64)))));
    byte[] bytes = Files.readAllBytes(good);
    Path cut = dir.resolve("cut.ckpt");
    Files.write(cut, Arrays.copyOf(bytes, bytes.length - 10));
    Path junk = dir.resolve("junk.ckpt");
    Files.write(junk, "not a checkpoint at all, just text\n".getBytes());
    for (Path p : List.of(cut, junk)) {
      MsException e = assertThrows(MsException.class, () -> new CheckpointFile().read(p));
      assertEquals(MsException.Kind.VALUE_ERROR, e.kind());
      assertEquals(
          "Failed to read the checkpoint file "
              + p
              + ". The file may be corrupted, and the content cannot be parsed.",
          e.getMessage());
    }
  }

  @Test
  void contentThatDoesNotFitItsDimsIsAValueError() throws IOException {
    // "w" with dims [3] but 8 bytes of Int32 content.
    Path p = dir.resolve("bad.ckpt");
    Files.write(p, HexFormat.of().parseHex(INT32_W.replace("0802", "0803")));
    MsException e = assertThrows(MsException.class, () -> new CheckpointFile().read(p));
    assertEquals(MsException.Kind.VALUE_ERROR, e.kind());
    assertTrue(
        e.getMessage()
            .endsWith("\nFor 'load_checkpoint', failed to load the checkpoint file " + p + "."),
        e.getMessage());
  }

  @Test
  void writesAreAtomicAndLeaveNoTemporaryFile() throws IOException {
    Path p = dir.resolve("net.ckpt");
    new CheckpointFile().write(p, List.of(ofTensor("a", tensor(DType.INT64, Shape.of(1), 1))));
    // The target is read-only after a save (as MindSpore's chmod S_IRUSR); saving again replaces
    // it.
    new CheckpointFile().write(p, List.of(ofTensor("a", tensor(DType.INT64, Shape.of(1), 2))));
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(List.of(p), files.toList());
    }
    assertEquals(List.of(2L), only(new CheckpointFile().read(p), "a").toList());
    Path missingDir = dir.resolve("no/such/dir/x.ckpt");
    MsException e =
        assertThrows(
            MsException.class,
            () ->
                new CheckpointFile()
                    .write(missingDir, List.of(new CheckpointEntry.OfText("t", "x"))));
    assertTrue(e.getMessage().startsWith("Failed to save the checkpoint file " + missingDir));
  }

  @Test
  void crcTrailerIsMindSporesAndIsChecked() throws IOException {
    Path p = dir.resolve("crc.ckpt");
    new CheckpointFile()
        .write(p, List.of(ofTensor("a", tensor(DType.FLOAT32, Shape.of(2), 1.0, 2.0))), true);
    assertEquals(CRC_A, HexFormat.of().formatHex(Files.readAllBytes(p)));
    assertTrue(CheckpointFile.hasCrc(p));
    assertEquals(List.of(1.0, 2.0), only(new CheckpointFile().read(p, true), "a").toList());
    assertEquals(List.of(1.0, 2.0), only(new CheckpointFile().read(p), "a").toList());

    byte[] damaged = HexFormat.of().parseHex(CRC_A);
    damaged[damaged.length - 20] ^= 1; // last byte of the content
    Path d = dir.resolve("damaged.ckpt");
    Files.write(d, damaged);
    // Unchecked, the damaged value loads (as on MindSpore); checked, it is MindSpore's error text.
    assertEquals(2.00006103515625, only(new CheckpointFile().read(d), "a").getDouble(1));
    MsException e = assertThrows(MsException.class, () -> new CheckpointFile().read(d, true));
    assertEquals(MsException.Kind.VALUE_ERROR, e.kind());
    assertEquals(
        "Failed to read the checkpoint file "
            + d
            + ". May not have permission to read it, please check the correct of the file.",
        e.getMessage());
    Path plain = dir.resolve("plain.ckpt");
    Files.write(plain, HexFormat.of().parseHex(INT32_W));
    assertEquals(false, CheckpointFile.hasCrc(plain));
    assertEquals(List.of(1L, 2L), only(new CheckpointFile().read(plain, true), "w").toList());
  }

  private static CheckpointEntry ofTensor(String tag, Tensor t) {
    return new CheckpointEntry.OfTensor(tag, t);
  }

  private static int countOccurrences(byte[] haystack, byte[] needle) {
    int n = 0;
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
        n++;
      }
    }
    return n;
  }
}
