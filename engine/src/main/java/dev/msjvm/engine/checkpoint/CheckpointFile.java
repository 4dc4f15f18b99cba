package dev.msjvm.engine.checkpoint;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ReadLimit;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.CheckedOutputStream;

/**
 * Reads and writes MindSpore's {@code .ckpt} files: a stream of serialized {@code Checkpoint}
 * messages (MindSpore's {@code checkpoint.proto}, proto2), one per value or value slice.
 *
 * <pre>
 * message Checkpoint {
 *   message Value { required string tag = 1;
 *                   oneof value { TensorProto tensor = 2; MapTensorProto maptensor = 3; } }
 *   repeated Value value = 1; }
 * message TensorProto { repeated int64 dims = 1; required string tensor_type = 2;
 *                       required bytes tensor_content = 3; }
 * </pre>
 *
 * <p>Concatenated messages parse as one {@code Checkpoint} whose {@code value} list is the
 * concatenation, which is how {@code _exec_save} in MindSpore's {@code train/serialization.py}
 * builds a file. A tensor larger than {@link #SLICE_BYTES} is written as several consecutive Values
 * with the same tag and full dims, each holding a part of the content (MindSpore's {@code
 * _write_parameter_bytes_data}); {@link #read} joins consecutive same-tag Values back, as {@code
 * _load_ckpt_into_param_dict} does. Writes go to a temporary file in the target's directory that is
 * then moved over the target, so a reader never sees half a file.
 *
 * <p>Reading checks every length the file declares (a value, a tag, a tensor's content) against the
 * bytes the file has left, and a tensor's content against a {@link ReadLimit}, before anything of
 * that size is allocated; a tensor's dims must then account for its content exactly. A file that
 * fails this is MindSpore's {@code ValueError} for a corrupt checkpoint, with the declared and
 * available sizes on a second line.
 *
 * <p>The three messages are encoded by hand with protobuf-java's {@link CodedOutputStream} and
 * {@link CodedInputStream} rather than with protoc-generated classes: the schema is this small and
 * fixed, and the build then needs no protoc binary.
 *
 * <p>Example: {@code write(p, List.of(new OfTensor("w", Tensor.of(INT32, Shape.of(2), List.of(1,
 * 2)))))} writes {@code 0a 18 0a 01 77 12 13 08 02 12 05 "Int32" 1a 08 01 00 00 00 02 00 00 00}.
 */
public final class CheckpointFile {
  /** MindSpore's slice size for one Value's content: 512 MiB ({@code 1024 * SLICE_SIZE}). */
  public static final int SLICE_BYTES = 512 * 1024 * 1024;

  static final String TEXT_TYPE = "str";
  static final Charset UTF_32LE = Charset.forName("UTF-32LE");

  private final int sliceBytes;
  private final ReadLimit limit;

  /** A reader/writer with MindSpore's slice size and the limit of {@link ReadLimit#PROPERTY}. */
  public CheckpointFile() {
    this(SLICE_BYTES);
  }

  /** A reader/writer that splits contents larger than {@code sliceBytes} (tests use small ones). */
  public CheckpointFile(int sliceBytes) {
    this(sliceBytes, ReadLimit.fromSystemProperty());
  }

  /**
   * As {@link #CheckpointFile(int)}; reading refuses a tensor whose content is over {@code limit}.
   */
  public CheckpointFile(int sliceBytes, ReadLimit limit) {
    if (sliceBytes <= 0) {
      throw new IllegalArgumentException("sliceBytes " + sliceBytes);
    }
    this.sliceBytes = sliceBytes;
    this.limit = limit;
  }

  /** Writes {@code entries} in order to {@code file}, atomically, and makes it owner-read-only. */
  public void write(Path file, List<CheckpointEntry> entries) {
    write(file, entries, false);
  }

  /**
   * As {@link #write(Path, List)}; with {@code crc}, the file ends with MindSpore's CRC trailer:
   * {@code "crc_num"} and the CRC-32 of everything before it as 10 big-endian bytes.
   */
  public void write(Path file, List<CheckpointEntry> entries, boolean crc) {
    write(file, entries.size(), entries::get, crc);
  }

  /**
   * As {@link #write(Path, List, boolean)}, entry {@code i} made by {@code entryAt} when it is
   * written, so only one is held at a time.
   */
  public void write(
      Path file, int count, java.util.function.IntFunction<CheckpointEntry> entryAt, boolean crc) {
    AtomicWrite.to(
        file,
        os -> {
          CheckedOutputStream checked = new CheckedOutputStream(os, new CRC32());
          CodedOutputStream out = CodedOutputStream.newInstance(checked, 1 << 16);
          for (int i = 0; i < count; i++) {
            writeEntry(out, entryAt.apply(i));
          }
          out.flush();
          if (crc) {
            os.write(crcTrailer(checked.getChecksum().getValue()));
          }
        });
  }

  /** The entries of {@code file} in file order, consecutive slices of one tag joined. */
  public List<CheckpointEntry> read(Path file) {
    return read(file, false);
  }

  /**
   * As {@link #read(Path)}; a CRC trailer is always skipped, and with {@code crcCheck} it must
   * match the content (a file without one is read unchecked, as MindSpore does after a warning).
   */
  public List<CheckpointEntry> read(Path file, boolean crcCheck) {
    List<CheckpointParser.RawValue> raw;
    try {
      long size = Files.size(file);
      long protoSize = hasCrc(file) ? size - CRC_TRAILER_BYTES : size;
      if (crcCheck && protoSize != size && crcOf(file, protoSize) != storedCrc(file)) {
        // _parse_ckpt_proto raises "the crc check is failed" inside its try, whose catch-all
        // turns it into the unreadable-file text below.
        throw new IOException("For 'load_checkpoint', the crc check is failed.");
      }
      try (InputStream in = new BoundedInputStream(Files.newInputStream(file), protoSize)) {
        raw =
            new CheckpointParser(CodedInputStream.newInstance(in, 1 << 16), protoSize, limit)
                .values();
      }
    } catch (IOException e) {
      throw readFailure(file, e);
    } catch (MsException e) {
      throw loadFailed(file, e);
    }
    try {
      return CheckpointParser.join(raw, limit);
    } catch (MsException e) {
      throw loadFailed(file, e);
    }
  }

  /**
   * MindSpore's error for a file that could not be parsed: its corrupt-file text (with what a
   * length declared, when one ran past the end), or its unreadable-file text.
   */
  static MsException readFailure(Path file, IOException e) {
    if (e instanceof CheckpointParser.Truncated) {
      // MindSpore's text (its protobuf parser fails the same way), then what was declared.
      return new MsException(MsException.Kind.VALUE_ERROR, corrupted(file) + "\n" + e.getMessage());
    }
    if (e instanceof InvalidProtocolBufferException) {
      return new MsException(MsException.Kind.VALUE_ERROR, corrupted(file), e);
    }
    return new MsException(
        MsException.Kind.VALUE_ERROR,
        "Failed to read the checkpoint file "
            + file
            + ". May not have permission to read it, please check the correct of the file.",
        e);
  }

  // Texts of _parse_ckpt_proto in MindSpore's train/serialization.py.
  static String corrupted(Path file) {
    return "Failed to read the checkpoint file "
        + file
        + ". The file may be corrupted, and the content cannot be parsed.";
  }

  /** _load_ckpt_into_param_dict wraps any failure while converting values this way. */
  private static MsException loadFailed(Path file, MsException e) {
    return new MsException(
        MsException.Kind.VALUE_ERROR,
        e.getMessage()
            + "\nFor 'load_checkpoint', failed to load the checkpoint file "
            + file
            + ".",
        e);
  }

  // ---- CRC trailer ----

  private static final byte[] CRC_MARK = "crc_num".getBytes(StandardCharsets.US_ASCII);
  private static final int CRC_TRAILER_BYTES = CRC_MARK.length + 10;

  /** The bytes of {@code file} before its CRC trailer, if it has one. */
  static long protoSize(Path file) throws IOException {
    long size = Files.size(file);
    return hasCrc(file) ? size - CRC_TRAILER_BYTES : size;
  }

  /** Whether {@code file} ends with MindSpore's CRC trailer ({@code pb_content[-17:-10]}). */
  public static boolean hasCrc(Path file) {
    byte[] tail = tail(file);
    return tail != null && Arrays.equals(tail, 0, CRC_MARK.length, CRC_MARK, 0, CRC_MARK.length);
  }

  private static byte[] crcTrailer(long crc) {
    ByteBuffer b = ByteBuffer.allocate(CRC_TRAILER_BYTES); // big-endian
    b.put(CRC_MARK).putShort((short) 0).putLong(crc);
    return b.array();
  }

  private static long storedCrc(Path file) {
    return ByteBuffer.wrap(tail(file), CRC_MARK.length + 2, 8).getLong();
  }

  private static byte[] tail(Path file) {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      if (ch.size() < CRC_TRAILER_BYTES) {
        return null;
      }
      ByteBuffer b = ByteBuffer.allocate(CRC_TRAILER_BYTES);
      long pos = ch.size() - CRC_TRAILER_BYTES;
      while (b.hasRemaining() && ch.read(b, pos + b.position()) >= 0) {
        // read until full
      }
      return b.array();
    } catch (IOException e) {
      return null;
    }
  }

  private static long crcOf(Path file, long length) throws IOException {
    CRC32 crc = new CRC32();
    try (InputStream in = new BoundedInputStream(Files.newInputStream(file), length)) {
      byte[] buf = new byte[1 << 16];
      for (int n = in.read(buf); n > 0; n = in.read(buf)) {
        crc.update(buf, 0, n);
      }
    }
    return crc.getValue();
  }

  /** The first {@code remaining} bytes of a stream. */
  static final class BoundedInputStream extends FilterInputStream {
    private long remaining;

    BoundedInputStream(InputStream in, long remaining) {
      super(in);
      this.remaining = remaining;
    }

    @Override
    public int read() throws IOException {
      if (remaining <= 0) {
        return -1;
      }
      int b = super.read();
      if (b >= 0) {
        remaining--;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (remaining <= 0) {
        return -1;
      }
      int n = super.read(b, off, (int) Math.min(len, remaining));
      if (n > 0) {
        remaining -= n;
      }
      return n;
    }
  }

  // ---- writing ----

  private void writeEntry(CodedOutputStream out, CheckpointEntry e) throws IOException {
    switch (e) {
      case CheckpointEntry.OfTensor t -> {
        List<Long> dims = new ArrayList<>();
        t.tensor().shape().dims().forEach(d -> dims.add((long) d));
        String type = t.tensor().dtype().mindsporeName();
        int item = t.tensor().dtype().itemSize();
        long total = (long) t.tensor().size() * item;
        // Values of at most sliceBytes (a whole number of elements), each content written a
        // chunk at a time: a large tensor's bytes are never held all at once.
        int perValue = Math.max(1, sliceBytes / item);
        int n = t.tensor().size();
        if (total == 0) {
          writeValue(out, e.tag(), dims, type, new byte[0], 0, 0);
        }
        for (int from = 0; from < n; from += perValue) {
          int count = Math.min(perValue, n - from);
          writeValueHeader(out, e.tag(), dims, type, count * item);
          for (int c = from; c < from + count; c += TensorBytes.CHUNK) {
            out.writeRawBytes(
                TensorBytes.of(t.tensor(), c, Math.min(TensorBytes.CHUNK, from + count - c)));
          }
        }
      }
      case CheckpointEntry.OfText s -> {
        // np.array(text).tobytes(): UTF-32LE code units; MindSpore writes dims [0].
        byte[] content = s.text().getBytes(UTF_32LE);
        List<Long> dims = List.of(0L);
        if (content.length == 0) {
          writeValue(out, e.tag(), dims, TEXT_TYPE, content, 0, 0);
        }
        for (int off = 0; off < content.length; off += sliceBytes) {
          writeValue(
              out,
              e.tag(),
              dims,
              TEXT_TYPE,
              content,
              off,
              Math.min(sliceBytes, content.length - off));
        }
      }
    }
  }

  /** One {@code Checkpoint} message holding one {@code Value} (fields in number order). */
  private static void writeValue(
      CodedOutputStream out,
      String tag,
      List<Long> dims,
      String type,
      byte[] content,
      int off,
      int len)
      throws IOException {
    writeValueHeader(out, tag, dims, type, len);
    out.writeRawBytes(content, off, len);
  }

  /**
   * A Value message up to its {@code len} content bytes, which the caller writes next (the tensor's
   * content is the message's last field).
   */
  private static void writeValueHeader(
      CodedOutputStream out, String tag, List<Long> dims, String type, int len) throws IOException {
    int tensorSize = 0;
    for (long d : dims) {
      tensorSize += CodedOutputStream.computeInt64Size(1, d); // proto2: not packed
    }
    tensorSize += CodedOutputStream.computeStringSize(2, type);
    tensorSize +=
        CodedOutputStream.computeTagSize(3) + CodedOutputStream.computeUInt32SizeNoTag(len) + len;
    int valueSize =
        CodedOutputStream.computeStringSize(1, tag)
            + CodedOutputStream.computeTagSize(2)
            + CodedOutputStream.computeUInt32SizeNoTag(tensorSize)
            + tensorSize;
    out.writeTag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED);
    out.writeUInt32NoTag(valueSize);
    out.writeString(1, tag);
    out.writeTag(2, WireFormat.WIRETYPE_LENGTH_DELIMITED);
    out.writeUInt32NoTag(tensorSize);
    for (long d : dims) {
      out.writeInt64(1, d);
    }
    out.writeString(2, type);
    out.writeTag(3, WireFormat.WIRETYPE_LENGTH_DELIMITED);
    out.writeUInt32NoTag(len);
  }
}
