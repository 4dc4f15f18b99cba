package dev.msjvm.engine.checkpoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ReadLimit;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The safetensors format, as MindSpore's {@code save_checkpoint(..., format="safetensors")} writes
 * it through the safetensors library: an 8-byte little-endian header length, a JSON header padded
 * with spaces to a multiple of 8 bytes, then the tensors' raw little-endian bytes.
 *
 * <p>The header is compact JSON: {@code "__metadata__"} (string to string) first when there is
 * metadata, then one entry per tensor {@code {"dtype":"F32","shape":[2,3],"data_offsets":[b,e]}}.
 * Tensors are laid out in the library's order: by type, widest first in its enum order (I64 before
 * F64 before F32 before I32, BF16 before F16, BOOL last), then by name; the header lists them in
 * that order. A file written here for the same tensors and metadata is byte for byte MindSpore's
 * (for metadata of more than one key the library's order is a hash map's, so only the bytes of the
 * tensors and of each entry match).
 *
 * <p>Example: {@code write(p, [("a", F32 [2, 3])], {"format": "ms"})} writes a 64-byte header
 * {@code {"__metadata__":{"format":"ms"},"a":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]}}}
 * plus spaces, then 24 bytes.
 */
public final class SafetensorsFile {

  /** A file's tensors in header order, and its metadata (empty when it has none). */
  public record Contents(List<Map.Entry<String, Tensor>> tensors, Map<String, String> metadata) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  private SafetensorsFile() {}

  /** The safetensors type name of {@code dtype}. */
  static String typeName(DType dtype) {
    return switch (dtype) {
      case BOOL -> "BOOL";
      case UINT8 -> "U8";
      case INT8 -> "I8";
      case INT16 -> "I16";
      case INT32 -> "I32";
      case INT64 -> "I64";
      case FLOAT16 -> "F16";
      case BFLOAT16 -> "BF16";
      case FLOAT32 -> "F32";
      case FLOAT64 -> "F64";
      case COMPLEX64, COMPLEX128 -> throw unsupported(dtype);
    };
  }

  /** The position of a type in the safetensors library's Dtype enum (the layout order). */
  private static int enumOrder(DType dtype) {
    return switch (dtype) {
      case BOOL -> 0;
      case UINT8 -> 4;
      case INT8 -> 5;
      case INT16 -> 9;
      case FLOAT16 -> 11;
      case BFLOAT16 -> 12;
      case INT32 -> 13;
      case FLOAT32 -> 15;
      case FLOAT64 -> 17;
      case INT64 -> 18;
      case COMPLEX64, COMPLEX128 -> throw unsupported(dtype);
    };
  }

  private static MsException unsupported(DType dtype) {
    return MsException.typeError(
        "msjvm does not save " + dtype + " tensors in safetensors files yet.");
  }

  private static DType typeOf(String name, String tensor) {
    for (DType d : DType.values()) {
      if (!d.isComplex() && typeName(d).equals(name)) {
        return d;
      }
    }
    throw MsException.valueError(
        "The safetensors entry '"
            + tensor
            + "' has the type "
            + name
            + ", which msjvm cannot hold.");
  }

  /** A tensor to be written: its name, type and shape, before its data exists. */
  public record Declared(String name, DType dtype, Shape shape) {}

  /**
   * Writes {@code tensors} (name to tensor, any order) and {@code metadata} (null: no {@code
   * __metadata__} key) to {@code file} atomically, leaving it owner-read-only as MindSpore does.
   */
  public static void write(Path file, Map<String, Tensor> tensors, Map<String, String> metadata) {
    List<Declared> declared = new ArrayList<>();
    tensors.forEach((n, t) -> declared.add(new Declared(n, t.dtype(), t.shape())));
    write(file, declared, tensors::get, metadata);
  }

  /**
   * As {@link #write(Path, Map, Map)}, each tensor made by {@code tensorOf} when its data is
   * written (in the file's order), so only one is held at a time; it must have its declared type
   * and shape.
   */
  public static void write(
      Path file,
      List<Declared> tensors,
      java.util.function.Function<String, Tensor> tensorOf,
      Map<String, String> metadata) {
    List<Declared> order = new ArrayList<>(tensors);
    order.sort(
        Comparator.<Declared>comparingInt(d -> -enumOrder(d.dtype()))
            .thenComparing(Declared::name));
    StringBuilder header = new StringBuilder("{");
    boolean first = true;
    if (metadata != null) {
      header.append("\"__metadata__\":{");
      boolean firstKey = true;
      for (Map.Entry<String, String> m : metadata.entrySet()) {
        header.append(firstKey ? "" : ",");
        string(header, m.getKey()).append(':');
        string(header, m.getValue());
        firstKey = false;
      }
      header.append('}');
      first = false;
    }
    long offset = 0;
    for (Declared d : order) {
      header.append(first ? "" : ",");
      first = false;
      string(header, d.name()).append(":{\"dtype\":\"").append(typeName(d.dtype()));
      header.append("\",\"shape\":[");
      List<Integer> dims = d.shape().dims();
      for (int i = 0; i < dims.size(); i++) {
        header.append(i == 0 ? "" : ",").append(dims.get(i));
      }
      header.append("],\"data_offsets\":[").append(offset).append(',');
      offset += ReadLimit.byteSize(dims, d.dtype().itemSize());
      header.append(offset).append("]}");
    }
    header.append('}');
    byte[] json = header.toString().getBytes(StandardCharsets.UTF_8);
    int padded = (json.length + 7) / 8 * 8;
    AtomicWrite.to(
        file,
        os -> {
          OutputStream out = new java.io.BufferedOutputStream(os, 1 << 16);
          out.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(padded).array());
          out.write(json);
          for (int i = json.length; i < padded; i++) {
            out.write(' ');
          }
          for (Declared d : order) {
            Tensor t = tensorOf.apply(d.name());
            if (t.dtype() != d.dtype() || !t.shape().equals(d.shape())) {
              throw new IllegalStateException(
                  d.name()
                      + " was declared "
                      + d.dtype()
                      + d.shape()
                      + " but is "
                      + t.dtype()
                      + t.shape());
            }
            TensorBytes.write(t, out);
          }
          out.flush();
        });
  }

  /** serde_json's string form: quotes, backslash and control characters escaped. */
  private static StringBuilder string(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"');
  }

  /** One tensor a header declares: its data lies {@code [begin, end)} after the header. */
  record Entry(String name, DType dtype, Shape shape, long begin, long end) {}

  /** A file's header: its entries in header order, its metadata, where its data starts. */
  record Header(List<Entry> entries, Map<String, String> metadata, long dataStart) {}

  /**
   * The header of {@code file}, every entry's data checked to lie inside the file without
   * overlapping another's.
   */
  static Header header(Path file) {
    try (InputStream in = new java.io.BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
      long size = Files.size(file);
      byte[] lengthBytes = in.readNBytes(8);
      long length =
          lengthBytes.length < 8
              ? -1
              : ByteBuffer.wrap(lengthBytes).order(ByteOrder.LITTLE_ENDIAN).getLong();
      if (length < 2 || length > size - 8) {
        throw corrupt(file, "its header length " + length + " does not fit its " + size + " bytes");
      }
      JsonNode header = JSON.readTree(in.readNBytes((int) length));
      Map<String, String> metadata = new LinkedHashMap<>();
      List<Entry> entries = new ArrayList<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = header.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> f = it.next();
        if (f.getKey().equals("__metadata__")) {
          f.getValue()
              .fields()
              .forEachRemaining(m -> metadata.put(m.getKey(), m.getValue().asText()));
          continue;
        }
        JsonNode e = f.getValue();
        JsonNode dims = e.get("shape");
        JsonNode offsets = e.get("data_offsets");
        if (e.get("dtype") == null || dims == null || offsets == null || offsets.size() != 2) {
          throw corrupt(file, "its entry '" + f.getKey() + "' lacks dtype, shape or data_offsets");
        }
        int[] shape = new int[dims.size()];
        for (int i = 0; i < shape.length; i++) {
          shape[i] = dims.get(i).asInt();
        }
        entries.add(
            new Entry(
                f.getKey(),
                typeOf(e.get("dtype").asText(), f.getKey()),
                Shape.of(shape),
                offsets.get(0).asLong(),
                offsets.get(1).asLong()));
      }
      List<Entry> byOffset = new ArrayList<>(entries);
      byOffset.sort(Comparator.comparingLong(Entry::begin));
      long at = 0;
      long dataBytes = size - 8 - length;
      for (Entry e : byOffset) {
        if (e.begin() < at || e.end() < e.begin() || e.end() > dataBytes) {
          throw corrupt(file, "the data of '" + e.name() + "' lies outside the file or overlaps");
        }
        at = e.end();
      }
      return new Header(
          List.copyOf(entries), java.util.Collections.unmodifiableMap(metadata), 8 + length);
    } catch (IOException e) {
      throw corrupt(file, e.getMessage());
    }
  }

  /** The tensors of {@code file} in header order and its metadata. */
  public static Contents read(Path file) {
    Header h = header(file);
    // Data in offset order, read once front to back.
    List<Entry> byOffset = new ArrayList<>(h.entries());
    byOffset.sort(Comparator.comparingLong(Entry::begin));
    Map<String, Tensor> tensors = new LinkedHashMap<>();
    try (InputStream in = new java.io.BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
      in.skipNBytes(h.dataStart());
      long at = 0;
      for (Entry e : byOffset) {
        in.skipNBytes(e.begin() - at);
        byte[] bytes = in.readNBytes((int) (e.end() - e.begin()));
        at = e.end();
        tensors.put(e.name(), Tensor.fromBytes(e.dtype(), e.shape(), bytes));
      }
    } catch (IOException e) {
      throw corrupt(file, e.getMessage());
    }
    List<Map.Entry<String, Tensor>> inOrder = new ArrayList<>();
    for (Entry e : h.entries()) {
      inOrder.add(Map.entry(e.name(), tensors.get(e.name())));
    }
    return new Contents(List.copyOf(inOrder), h.metadata());
  }

  static MsException corrupt(Path file, String why) {
    return MsException.valueError(
        "Failed to read the checkpoint file "
            + file
            + ". The file may be corrupted, and the content cannot be parsed.\n"
            + "The safetensors file: "
            + why
            + ".");
  }
}
