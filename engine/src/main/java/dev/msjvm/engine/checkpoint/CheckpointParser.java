package dev.msjvm.engine.checkpoint;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ReadLimit;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The reading half of {@link CheckpointFile}: parses a stream of {@code Checkpoint} messages into
 * raw Values, checking every length the file declares (a value, a tag, a tensor's content) against
 * the bytes left, in the file and in the enclosing message, before reading it, and a tensor's
 * content against a {@link ReadLimit}; then {@link #join} makes entries, checking that a tensor's
 * dims account for its content before its elements are allocated.
 *
 * <p>Example: a 28-byte file whose one Value declares dims {@code [300000000]} of Float32 and holds
 * 4 bytes parses to one RawValue, and {@code join} refuses it with "declares shape [300000000] of
 * Float32 (1200000000 bytes) but holds 4 bytes" without allocating the 1.2 GB.
 */
final class CheckpointParser {
  /**
   * A parsed {@code Value}: a tensor slice, or a map tensor ({@code type == null}). An indexing
   * parser leaves {@code content} null and records where it lies: {@code length} bytes from byte
   * {@code offset} of the file.
   */
  record RawValue(
      String tag, List<Long> dims, String type, byte[] content, long offset, int length) {
    RawValue(String tag, List<Long> dims, String type, byte[] content) {
      this(tag, dims, type, content, -1, content == null ? 0 : content.length);
    }
  }

  /** numpy's most dims of one array (NPY_MAXDIMS), past which MindSpore's reshape fails. */
  private static final int MAX_DIMS = 64;

  private final CodedInputStream in;
  private final long size;
  private final ReadLimit limit;
  private final boolean index;
  private long retired; // bytes read before the last resetSizeCounter

  /** A parser of the {@code size} bytes {@code in} reads, tensor contents within {@code limit}. */
  CheckpointParser(CodedInputStream in, long size, ReadLimit limit) {
    this(in, size, limit, false);
  }

  /** As the other constructor; with {@code index}, tensor contents are skipped, not read. */
  CheckpointParser(CodedInputStream in, long size, ReadLimit limit, boolean index) {
    this.in = in;
    this.size = size;
    this.limit = limit;
    this.index = index;
    in.setSizeLimit(Integer.MAX_VALUE);
  }

  /** A length the file declares that runs past the bytes it has left: the file is corrupt. */
  static final class Truncated extends IOException {
    Truncated(String message) {
      super(message);
    }
  }

  private long offset() {
    return retired + in.getTotalBytesRead();
  }

  private long available() {
    long left = size - offset();
    int untilLimit = in.getBytesUntilLimit();
    return untilLimit < 0 ? left : Math.min(left, untilLimit);
  }

  /**
   * Reads the length prefix of {@code what}; refuses it when it runs past the bytes left or, for a
   * tensor's {@code content}, when it is over the limit.
   */
  private int length(String what, boolean content) throws IOException {
    long declared = in.readRawVarint64();
    long available = available();
    String why = (content ? limit : ReadLimit.none()).refusal(declared, available);
    if (why == null) {
      return (int) declared;
    }
    String text = what + " declares " + why + ".";
    if (declared < 0 || declared > available) {
      throw new Truncated(text);
    }
    throw MsException.valueError(text);
  }

  private String string(String what) throws IOException {
    return new String(in.readRawBytes(length(what, false)), StandardCharsets.UTF_8);
  }

  List<RawValue> values() throws IOException {
    List<RawValue> values = new ArrayList<>();
    for (long at = offset(); ; at = offset()) {
      int t = in.readTag();
      if (t == 0) {
        return values;
      }
      if (t == 10) { // field 1 (value), length-delimited
        int outer = in.pushLimit(length("The checkpoint value at byte " + at, false));
        values.add(value());
        in.popLimit(outer);
      } else if (!in.skipField(t)) {
        throw unexpectedEndGroup();
      }
      // Files over 2 GiB: the stream's size counter restarts after each value.
      retired += in.getTotalBytesRead();
      in.resetSizeCounter();
    }
  }

  private RawValue value() throws IOException {
    String tag = null;
    RawValue tensor = null;
    boolean map = false;
    for (int t = in.readTag(); t != 0; t = in.readTag()) {
      String name = tag == null ? "a checkpoint value" : "'" + tag + "'";
      switch (t) {
        case 10 -> tag = string("The tag of " + name);
        case 18 -> {
          int outer = in.pushLimit(length("The tensor of " + name, false));
          tensor = tensor(name);
          in.popLimit(outer);
          map = false;
        }
        case 26 -> {
          in.skipField(t); // MapTensorProto: recognised, not supported (see join)
          map = true;
          tensor = null;
        }
        default -> {
          if (!in.skipField(t)) {
            throw unexpectedEndGroup();
          }
        }
      }
    }
    if (tag == null) {
      throw new InvalidProtocolBufferException("Message missing required fields: value[].tag");
    }
    if (map) {
      return new RawValue(tag, List.of(), null, new byte[0]);
    }
    if (tensor == null) {
      // Neither member of the oneof: MindSpore would treat it as a map tensor and fail.
      throw new InvalidProtocolBufferException("Checkpoint value " + tag + " has no tensor");
    }
    return new RawValue(
        tag, tensor.dims(), tensor.type(), tensor.content(), tensor.offset(), tensor.length());
  }

  private RawValue tensor(String name) throws IOException {
    List<Long> dims = new ArrayList<>();
    String type = null;
    byte[] content = null;
    long offset = -1;
    int length = -1;
    for (int t = in.readTag(); t != 0; t = in.readTag()) {
      switch (t) {
        case 8 -> dims.add(in.readInt64());
        case 10 -> { // packed dims, also valid proto2 input
          int outer = in.pushLimit(length("The dims of " + name, false));
          while (in.getBytesUntilLimit() > 0 && dims.size() <= MAX_DIMS) {
            dims.add(in.readInt64());
          }
          in.popLimit(outer);
        }
        case 18 -> type = string("The tensor type of " + name);
        case 26 -> {
          length = length("The tensor content of " + name, true);
          offset = offset();
          if (index) {
            in.skipRawBytes(length);
          } else {
            content = in.readRawBytes(length);
          }
        }
        default -> {
          if (!in.skipField(t)) {
            throw unexpectedEndGroup();
          }
        }
      }
      if (dims.size() > MAX_DIMS) {
        throw MsException.valueError(
            capitalized(name) + " declares more than " + MAX_DIMS + " dims, numpy's limit.");
      }
    }
    if (type == null || length < 0) {
      throw new InvalidProtocolBufferException(
          "Message missing required fields: value[].tensor.tensor_type, tensor_content");
    }
    return new RawValue(null, dims, type, content, offset, length);
  }

  private static String capitalized(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  private static InvalidProtocolBufferException unexpectedEndGroup() {
    return new InvalidProtocolBufferException("Protocol message end-group tag did not match.");
  }

  /**
   * Consecutive Values with one tag are one value cut in slices; later duplicates win. The joined
   * size is checked against the limit before the slices are copied together.
   */
  static List<CheckpointEntry> join(List<RawValue> raw, ReadLimit limit) {
    List<CheckpointEntry> out = new ArrayList<>();
    int start = 0;
    long total = 0;
    for (int i = 0; i < raw.size(); i++) {
      RawValue v = raw.get(i);
      if (v.type() == null) {
        throw new MsException(
            MsException.Kind.NOT_IMPLEMENTED_ERROR,
            "The checkpoint entry '" + v.tag() + "' is a MapParameter, which is not supported.");
      }
      total += v.content().length;
      boolean last = i == raw.size() - 1 || !raw.get(i + 1).tag().equals(v.tag());
      if (!last) {
        continue;
      }
      String why = limit.refusal(total, total);
      if (why != null) {
        throw MsException.valueError(
            "The tensor content of '"
                + v.tag()
                + (i == start ? "'" : "', joined from " + (i + 1 - start) + " values,")
                + " declares "
                + why
                + ".");
      }
      out.add(entry(v.tag(), v.dims(), v.type(), joined(raw.subList(start, i + 1), (int) total)));
      start = i + 1;
      total = 0;
    }
    return out;
  }

  private static byte[] joined(List<RawValue> slices, int total) {
    if (slices.size() == 1) {
      return slices.get(0).content();
    }
    byte[] out = new byte[total];
    int at = 0;
    for (RawValue v : slices) {
      System.arraycopy(v.content(), 0, out, at, v.content().length);
      at += v.content().length;
    }
    return out;
  }

  static CheckpointEntry entry(String tag, List<Long> dims, String type, byte[] content) {
    if (type.equals(CheckpointFile.TEXT_TYPE)) {
      // numpy's str of a 'U' array drops trailing NULs.
      String s = new String(content, CheckpointFile.UTF_32LE);
      int end = s.length();
      while (end > 0 && s.charAt(end - 1) == '\0') {
        end--;
      }
      return new CheckpointEntry.OfText(tag, s.substring(0, end));
    }
    DType dtype = dtypeOf(type);
    List<Integer> shape = new ArrayList<>();
    if (!(dims.size() == 1 && dims.get(0) == 0)) { // MindSpore reads dims [0] as a scalar
      for (long d : dims) {
        if (d < 0 || d > Integer.MAX_VALUE) {
          throw MsException.valueError("The checkpoint entry '" + tag + "' has dims " + dims + ".");
        }
        shape.add((int) d);
      }
    }
    // Checked before Tensor.fromBytes allocates the dims' worth of elements.
    long declared = ReadLimit.byteSize(shape, dtype.itemSize());
    if (declared != content.length) {
      throw MsException.valueError(
          "The checkpoint entry '"
              + tag
              + "' declares shape "
              + shape
              + " of "
              + type
              + (declared < 0 ? ", too many bytes to count," : " (" + declared + " bytes)")
              + " but holds "
              + content.length
              + " bytes.");
    }
    return new CheckpointEntry.OfTensor(tag, Tensor.fromBytes(dtype, new Shape(shape), content));
  }

  static DType dtypeOf(String type) {
    for (DType d : DType.values()) {
      if (d.mindsporeName().equals(type)) {
        return d;
      }
    }
    // MindSpore also stores UInt16/UInt32/UInt64 and Int4, which this engine has no type for.
    throw MsException.valueError("The checkpoint tensor type '" + type + "' is not supported.");
  }
}
