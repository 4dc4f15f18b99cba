package dev.msjvm.engine.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.CodedOutputStream;
import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ReadLimit;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
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
    // MindSpore's text; where a declared length runs past the end, the sizes on a second line.
    for (Path p : List.of(cut, junk)) {
      MsException e = assertThrows(MsException.class, () -> new CheckpointFile().read(p));
      assertEquals(MsException.Kind.VALUE_ERROR, e.kind());
      assertEquals(
          "Failed to read the checkpoint file "
              + p
              + ". The file may be corrupted, and the content cannot be parsed."
              + (p == cut
                  ? "\nThe checkpoint value at byte 0 declares 276 bytes, but only 266 are left."
                  : ""),
          e.getMessage());
    }
  }

  /** One {@code Checkpoint} message of one tensor Value, dims not packed, as MindSpore writes. */
  private static byte[] crafted(String tag, long[] dims, String type, byte[] content)
      throws IOException {
    ByteArrayOutputStream tensor = new ByteArrayOutputStream();
    CodedOutputStream t = CodedOutputStream.newInstance(tensor);
    for (long d : dims) {
      t.writeInt64(1, d);
    }
    t.writeString(2, type);
    t.writeByteArray(3, content);
    t.flush();
    ByteArrayOutputStream value = new ByteArrayOutputStream();
    CodedOutputStream v = CodedOutputStream.newInstance(value);
    v.writeString(1, tag);
    v.writeByteArray(2, tensor.toByteArray());
    v.flush();
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    CodedOutputStream f = CodedOutputStream.newInstance(file);
    f.writeByteArray(1, value.toByteArray());
    f.flush();
    return file.toByteArray();
  }

  /**
   * The MsException {@code read} throws, asserting that this thread allocated under 16 MiB on the
   * way (HotSpot's per-thread allocation counter): the declared size was refused, not allocated.
   */
  private static MsException refusedCheaply(Executable read) {
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = mx.getCurrentThreadAllocatedBytes();
    MsException e = assertThrows(MsException.class, read);
    long allocated = mx.getCurrentThreadAllocatedBytes() - before;
    assertTrue(allocated < 16 << 20, "allocated " + allocated + " bytes before refusing");
    return e;
  }

  private String loadFailed(Path p) {
    return "\nFor 'load_checkpoint', failed to load the checkpoint file " + p + ".";
  }

  @Test
  void aTinyFileDeclaringAHugeFloat32TensorIsRefusedBeforeAllocating() throws IOException {
    // 300 million floats (1.2 GB) declared by a 28-byte file holding one float.
    Path p = dir.resolve("huge32.ckpt");
    Files.write(p, crafted("w", new long[] {300_000_000}, "Float32", new byte[4]));
    assertEquals(28, Files.size(p));
    MsException e = refusedCheaply(() -> new CheckpointFile().read(p));
    assertEquals(MsException.Kind.VALUE_ERROR, e.kind());
    assertEquals(
        "The checkpoint entry 'w' declares shape [300000000] of Float32 (1200000000 bytes) but"
            + " holds 4 bytes."
            + loadFailed(p),
        e.getMessage());
  }

  @Test
  void aTinyFileDeclaringMoreFloat64sThanTheHeapHoldsIsTheSizedErrorNotOutOfMemory()
      throws IOException {
    long elements = Runtime.getRuntime().maxMemory() / 8 + 1;
    assumeTrue(elements < ReadLimit.MAX_ARRAY, "a heap too large to overflow with one array");
    Path p = dir.resolve("huge64.ckpt");
    Files.write(p, crafted("w", new long[] {elements}, "Float64", new byte[8]));
    MsException e = refusedCheaply(() -> new CheckpointFile().read(p));
    assertEquals(MsException.Kind.VALUE_ERROR, e.kind());
    assertEquals(
        "The checkpoint entry 'w' declares shape ["
            + elements
            + "] of Float64 ("
            + elements * 8
            + " bytes) but holds 8 bytes."
            + loadFailed(p),
        e.getMessage());
  }

  @Test
  void dimsWhoseProductOverflowsAreRefused() throws IOException {
    long d = Integer.MAX_VALUE;
    Path p = dir.resolve("overflow.ckpt");
    Files.write(p, crafted("w", new long[] {d, d, d}, "Float64", new byte[8]));
    MsException e = refusedCheaply(() -> new CheckpointFile().read(p));
    assertEquals(
        "The checkpoint entry 'w' declares shape [2147483647, 2147483647, 2147483647] of Float64,"
            + " too many bytes to count, but holds 8 bytes."
            + loadFailed(p),
        e.getMessage());
  }

  @Test
  void aContentLengthPastTheEndOfTheFileIsTheCorruptFileErrorWithTheSizes() throws IOException {
    // The Value and Tensor lengths fit the file; the content's length prefix says 1.2 GB.
    byte[] ok = crafted("w", new long[] {300_000_000}, "Float32", new byte[4]);
    byte[] lying = Arrays.copyOf(ok, ok.length + 4);
    int at = ok.length - 5; // the content's length byte (0x04), then its 4 bytes
    assertEquals(4, lying[at]);
    byte[] varint = HexFormat.of().parseHex("80989abc04"); // 1200000000
    System.arraycopy(varint, 0, lying, at, 5);
    System.arraycopy(ok, at + 1, lying, at + 5, 4);
    lying[1] += 4; // Value length
    lying[6] += 4; // Tensor length
    Path p = dir.resolve("lying.ckpt");
    Files.write(p, lying);
    MsException e = refusedCheaply(() -> new CheckpointFile().read(p));
    assertEquals(MsException.Kind.VALUE_ERROR, e.kind());
    assertEquals(
        "Failed to read the checkpoint file "
            + p
            + ". The file may be corrupted, and the content cannot be parsed.\nThe tensor content"
            + " of 'w' declares 1200000000 bytes, but only 4 are left.",
        e.getMessage());
  }

  @Test
  void aTensorOverTheReadLimitIsRefusedWholeOrJoinedFromSlices() throws IOException {
    Tensor t = Tensor.zeros(DType.FLOAT32, Shape.of(64)); // 256 bytes
    Path whole = dir.resolve("whole.ckpt");
    new CheckpointFile().write(whole, List.of(ofTensor("w", t)));
    Path sliced = dir.resolve("sliced.ckpt");
    new CheckpointFile(64).write(sliced, List.of(ofTensor("w", t)));
    CheckpointFile limited = new CheckpointFile(CheckpointFile.SLICE_BYTES, new ReadLimit(100));
    MsException e = assertThrows(MsException.class, () -> limited.read(whole));
    assertEquals(MsException.Kind.VALUE_ERROR, e.kind());
    assertEquals(
        "The tensor content of 'w' declares 256 bytes, over the limit of 100 bytes set by"
            + " msjvm.maxReadBytes."
            + loadFailed(whole),
        e.getMessage());
    e = assertThrows(MsException.class, () -> limited.read(sliced));
    assertEquals(
        "The tensor content of 'w', joined from 4 values, declares 256 bytes, over the limit of"
            + " 100 bytes set by msjvm.maxReadBytes."
            + loadFailed(sliced),
        e.getMessage());
    CheckpointFile enough = new CheckpointFile(CheckpointFile.SLICE_BYTES, new ReadLimit(256));
    assertEquals(t.toList(), only(enough.read(sliced), "w").toList());
  }

  @Test
  void moreDimsThanNumpyAllowsAreRefused() throws IOException {
    long[] dims = new long[65];
    Arrays.fill(dims, 1);
    Path p = dir.resolve("rank65.ckpt");
    Files.write(p, crafted("w", dims, "Float32", new byte[4]));
    MsException e = assertThrows(MsException.class, () -> new CheckpointFile().read(p));
    assertEquals(MsException.Kind.VALUE_ERROR, e.kind());
    assertEquals("'w' declares more than 64 dims, numpy's limit." + loadFailed(p), e.getMessage());
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
