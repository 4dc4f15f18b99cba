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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SafetensorsFileTest {
  @TempDir Path dir;

  @Test
  void theHeaderIsTheLibrarysAndEveryTypeComesBack() throws IOException {
    Map<String, Tensor> tensors = new LinkedHashMap<>();
    tensors.put("b", Tensor.ofFloats(Shape.of(2), new float[] {1.5f, -2f}));
    tensors.put(
        "a", Tensor.fromBytes(DType.INT64, Shape.of(), new byte[] {5, 0, 0, 0, 0, 0, 0, 0}));
    for (DType d : DType.values()) {
      if (!d.isComplex()) { // refused, below
        tensors.put("t_" + d.name(), Tensor.zeros(d, Shape.of(1, 3)));
      }
    }
    Path file = dir.resolve("x.safetensors");
    SafetensorsFile.write(file, tensors, Map.of("format", "ms"));
    byte[] raw = Files.readAllBytes(file);
    int length = (raw[0] & 0xff) | (raw[1] & 0xff) << 8;
    assertEquals(0, length % 8, "the header is padded to 8 bytes");
    String header = new String(raw, 8, length, StandardCharsets.UTF_8);
    // Widest types first in the library's enum order (I64 before F64 before F32), then by name.
    assertTrue(
        header.startsWith(
            "{\"__metadata__\":{\"format\":\"ms\"},\"a\":{\"dtype\":\"I64\",\"shape\":[],"
                + "\"data_offsets\":[0,8]},\"t_INT64\":{\"dtype\":\"I64\",\"shape\":[1,3],"
                + "\"data_offsets\":[8,32]},\"t_FLOAT64\":{\"dtype\":\"F64\""),
        header);
    assertTrue(header.indexOf("\"b\":{\"dtype\":\"F32\"") < header.indexOf("\"t_INT32\""), header);
    assertTrue(
        header
            .stripTrailing()
            .endsWith(
                "\"t_BOOL\":{\"dtype\":\"BOOL\",\"shape\":[1,3],"
                    + "\"data_offsets\":["
                    + (raw.length - 8 - length - 3)
                    + ","
                    + (raw.length - 8 - length)
                    + "]}}"),
        header);
    SafetensorsFile.Contents back = SafetensorsFile.read(file);
    assertEquals(Map.of("format", "ms"), back.metadata());
    Map<String, Tensor> read = new LinkedHashMap<>();
    back.tensors().forEach(e -> read.put(e.getKey(), e.getValue()));
    assertEquals(tensors.keySet(), read.keySet());
    for (String name : tensors.keySet()) {
      assertEquals(tensors.get(name).dtype(), read.get(name).dtype(), name);
      assertArrayEquals(TensorBytes.of(tensors.get(name)), TensorBytes.of(read.get(name)), name);
    }
  }

  @Test
  void complexTensorsAreRefusedByName() {
    Path file = dir.resolve("c.safetensors");
    MsException e =
        assertThrows(
            MsException.class,
            () ->
                SafetensorsFile.write(
                    file, Map.of("z", Tensor.zeros(DType.COMPLEX64, Shape.of(2))), Map.of()));
    assertEquals("msjvm does not save Complex64 tensors in safetensors files yet.", e.getMessage());
  }

  @Test
  void aDamagedFileIsMindSporesValueError() throws IOException {
    Path file = dir.resolve("bad.safetensors");
    byte[] raw = new byte[16];
    Arrays.fill(raw, (byte) 0x7f);
    Files.write(file, raw);
    MsException e = assertThrows(MsException.class, () -> SafetensorsFile.read(file));
    assertTrue(
        e.getMessage()
            .startsWith("Failed to read the checkpoint file " + file + ". The file may be"),
        e.getMessage());
  }
}
