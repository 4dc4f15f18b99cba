package dev.msjvm.engine.checkpoint;

import com.google.protobuf.CodedInputStream;
import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ReadLimit;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Random access to the entries of a {@code .ckpt} or {@code .safetensors} file. Opening indexes the
 * file (names, types, shapes and where each entry's bytes lie; a {@code .ckpt} is parsed with its
 * tensor contents skipped, a safetensors file has its header read), and {@link #read} then reads
 * one entry. The distributed-checkpoint tools go through the slices of one parameter at a time this
 * way, so a transform holds a parameter's slices, not whole files.
 *
 * <p>The checks are those of {@link CheckpointFile#read} and {@link SafetensorsFile#read}: every
 * declared length against the bytes left, a tensor's content against the {@link ReadLimit}, dims
 * against content; a {@code .ckpt} tensor cut into several same-tag values is one entry, and a
 * later duplicate wins.
 */
public final class CheckpointReader {
  /** Where one entry's bytes lie: one range per stored piece, in order. */
  private record Located(
      String type, DType dtype, List<Long> dims, long[] offsets, int[] lengths) {}

  private final Path file;
  private final ReadLimit limit;
  private final Map<String, Located> entries;
  private final Map<String, String> metadata;

  private CheckpointReader(
      Path file, ReadLimit limit, Map<String, Located> entries, Map<String, String> metadata) {
    this.file = file;
    this.limit = limit;
    this.entries = entries;
    this.metadata = metadata;
  }

  /** Indexes {@code file}: safetensors when its name ends in {@code .safetensors}, else .ckpt. */
  public static CheckpointReader open(Path file, ReadLimit limit) {
    return file.getFileName().toString().endsWith(".safetensors")
        ? safetensors(file, limit)
        : ckpt(file, limit);
  }

  private static CheckpointReader safetensors(Path file, ReadLimit limit) {
    SafetensorsFile.Header h = SafetensorsFile.header(file);
    Map<String, Located> entries = new LinkedHashMap<>();
    for (SafetensorsFile.Entry e : h.entries()) {
      List<Long> dims = new ArrayList<>();
      e.shape().dims().forEach(d -> dims.add((long) d));
      long length = e.end() - e.begin();
      if (length > Integer.MAX_VALUE) {
        throw SafetensorsFile.corrupt(file, "'" + e.name() + "' is over 2 GiB");
      }
      entries.put(
          e.name(),
          new Located(
              e.dtype().mindsporeName(),
              e.dtype(),
              dims,
              new long[] {h.dataStart() + e.begin()},
              new int[] {(int) length}));
    }
    return new CheckpointReader(file, limit, entries, h.metadata());
  }

  private static CheckpointReader ckpt(Path file, ReadLimit limit) {
    List<CheckpointParser.RawValue> raw;
    try {
      long protoSize = CheckpointFile.protoSize(file);
      try (InputStream in =
          new CheckpointFile.BoundedInputStream(Files.newInputStream(file), protoSize)) {
        raw =
            new CheckpointParser(CodedInputStream.newInstance(in, 1 << 16), protoSize, limit, true)
                .values();
      }
    } catch (IOException e) {
      throw CheckpointFile.readFailure(file, e);
    }
    Map<String, Located> entries = new LinkedHashMap<>();
    int start = 0;
    for (int i = 0; i < raw.size(); i++) {
      CheckpointParser.RawValue v = raw.get(i);
      boolean last = i == raw.size() - 1 || !raw.get(i + 1).tag().equals(v.tag());
      if (!last) {
        continue;
      }
      List<CheckpointParser.RawValue> pieces = raw.subList(start, i + 1);
      long[] offsets = new long[pieces.size()];
      int[] lengths = new int[pieces.size()];
      for (int k = 0; k < offsets.length; k++) {
        offsets[k] = pieces.get(k).offset();
        lengths[k] = pieces.get(k).length();
      }
      // A later duplicate wins, in the first one's place (a Python dict's update, as MindSpore).
      entries.put(v.tag(), new Located(v.type(), null, v.dims(), offsets, lengths));
      start = i + 1;
    }
    return new CheckpointReader(file, limit, entries, Map.of());
  }

  /** The entries' names in file order. */
  public List<String> names() {
    return List.copyOf(entries.keySet());
  }

  /** Whether the file has an entry {@code name}. */
  public boolean has(String name) {
    return entries.containsKey(name);
  }

  /** The type MindSpore names entry {@code name}'s ("Float32", "str" for a text entry...). */
  public String type(String name) {
    return located(name).type();
  }

  /**
   * The engine type of entry {@code name} (a {@link DType} constant's name), null for a text entry.
   */
  public String engineType(String name) {
    Located l = located(name);
    if (l.type() == null || l.type().equals(CheckpointFile.TEXT_TYPE)) {
      return null;
    }
    return tensorType(l).name();
  }

  /**
   * The shape entry {@code name} is read with: its dims, except that MindSpore reads a .ckpt's dims
   * {@code [0]} as a scalar.
   */
  public List<Integer> shape(String name) {
    Located l = located(name);
    List<Integer> shape = new ArrayList<>();
    if (l.dtype() == null && l.dims().size() == 1 && l.dims().get(0) == 0) {
      return shape;
    }
    l.dims().forEach(d -> shape.add(d.intValue()));
    return shape;
  }

  /** The bytes of one element of entry {@code name} (4 for a text entry's UTF-32 units). */
  public int itemSize(String name) {
    String engine = engineType(name);
    return engine == null ? 4 : DType.valueOf(engine).itemSize();
  }

  /** The dims the file declares for entry {@code name}. */
  public List<Long> dims(String name) {
    return located(name).dims();
  }

  /** A safetensors file's metadata; empty for a .ckpt. */
  public Map<String, String> metadata() {
    return metadata;
  }

  /** Entry {@code name}, read from the file now. */
  public CheckpointEntry read(String name) {
    Located l = located(name);
    if (l.type() == null) {
      throw new MsException(
          MsException.Kind.NOT_IMPLEMENTED_ERROR,
          "The checkpoint entry '" + name + "' is a MapParameter, which is not supported.");
    }
    long total = 0;
    for (int n : l.lengths()) {
      total += n;
    }
    String why = limit.refusal(total, total);
    if (why != null) {
      throw MsException.valueError("The tensor content of '" + name + "' declares " + why + ".");
    }
    List<Integer> shape = shape(name);
    if (l.type().equals(CheckpointFile.TEXT_TYPE)
        || ReadLimit.byteSize(shape, tensorType(l).itemSize()) != total) {
      // A text entry, or one the whole-entry checks of a .ckpt value refuse.
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
        return CheckpointParser.entry(name, l.dims(), l.type(), readAll(ch, l, (int) total));
      } catch (IOException e) {
        throw new MsException(
            MsException.Kind.VALUE_ERROR,
            CheckpointFile.corrupted(file) + "\n" + e.getMessage(),
            e);
      }
    }
    List<Integer> origin = new ArrayList<>(java.util.Collections.nCopies(shape.size(), 0));
    return new CheckpointEntry.OfTensor(name, readBox(name, origin, shape));
  }

  private static DType tensorType(Located l) {
    return l.dtype() != null ? l.dtype() : CheckpointParser.dtypeOf(l.type());
  }

  /**
   * The box {@code [begin[d], end[d])} of tensor entry {@code name}, reading only its bytes: runs
   * of consecutive elements (the box's last dimensions where it spans them whole, and its extent
   * along the next one), located through the Values the content is stored in.
   */
  public Tensor readBox(String name, List<Integer> begin, List<Integer> end) {
    Located l = located(name);
    if (l.type() == null) {
      read(name); // a map tensor: refused there
    }
    List<Integer> extent = new ArrayList<>();
    for (int d = 0; d < Math.min(begin.size(), end.size()); d++) {
      extent.add(Math.max(end.get(d) - begin.get(d), 0));
    }
    Tensor out = Tensor.zeros(tensorType(l), new Shape(extent));
    readBoxInto(name, begin, end, out, java.util.Collections.nCopies(extent.size(), 0));
    return out;
  }

  /**
   * Reads the box {@code [begin[d], end[d])} of tensor entry {@code name} straight into {@code dst}
   * (its dtype) at {@code at}: the distributed-checkpoint tools assemble a destination slice from
   * the overlapping pieces of several files this way, holding only the slice and a chunk.
   */
  public void readBoxInto(
      String name, List<Integer> begin, List<Integer> end, Tensor dst, List<Integer> at) {
    Located l = located(name);
    if (l.type() == null) {
      read(name); // a map tensor: refused there
    }
    DType dtype = tensorType(l);
    List<Integer> shape = shape(name);
    int rank = shape.size();
    if (begin.size() != rank || end.size() != rank) {
      throw new IllegalArgumentException(name + " has " + rank + " dims, the box " + begin.size());
    }
    List<Integer> extent = new ArrayList<>();
    for (int d = 0; d < rank; d++) {
      if (begin.get(d) < 0 || begin.get(d) > end.get(d) || end.get(d) > shape.get(d)) {
        throw new IllegalArgumentException(name + " " + shape + " has no box " + begin + " " + end);
      }
      extent.add(end.get(d) - begin.get(d));
    }
    List<Integer> dstShape = dst.shape().dims();
    if (dst.dtype() != dtype || dstShape.size() != rank || at.size() != rank) {
      throw new IllegalArgumentException(
          name + " (" + dtype + ") does not go into " + dst.type() + " at " + at);
    }
    for (int d = 0; d < rank; d++) {
      if (at.get(d) < 0 || at.get(d) + extent.get(d) > dstShape.get(d)) {
        throw new IllegalArgumentException(
            "the box " + extent + " does not fit " + dst.type() + " at " + at);
      }
    }
    long declared = ReadLimit.byteSize(shape, dtype.itemSize());
    long stored = 0;
    for (int n : l.lengths()) {
      stored += n;
    }
    if (declared != stored) {
      read(name); // the whole-entry checks refuse it with their message
    }
    // The run: the innermost dims the box spans whole in the file and in dst, times its extent
    // along the next one: consecutive in both.
    int inner = rank;
    long run = 1;
    while (inner > 0
        && extent.get(inner - 1).equals(shape.get(inner - 1))
        && extent.get(inner - 1).equals(dstShape.get(inner - 1))) {
      inner--;
      run *= shape.get(inner);
    }
    int outer = Math.max(inner - 1, 0);
    if (inner > 0) {
      run *= extent.get(inner - 1);
    }
    long[] strides = new long[rank];
    long[] dstStrides = new long[rank];
    long stride = 1;
    long dstStride = 1;
    for (int d = rank - 1; d >= 0; d--) {
      strides[d] = stride;
      dstStrides[d] = dstStride;
      stride *= shape.get(d);
      dstStride *= dstShape.get(d);
    }
    if (extent.stream().anyMatch(e -> e == 0)) {
      return;
    }
    // The box is read a chunk at a time: its bytes are never held all at once.
    int item = dtype.itemSize();
    ByteBuffer chunk = ByteBuffer.allocate((int) Math.min(run, TensorBytes.CHUNK) * item);
    int[] index = new int[outer];
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      while (true) {
        long first = 0;
        long target = 0;
        for (int d = 0; d < outer; d++) {
          first += (long) (begin.get(d) + index[d]) * strides[d];
          target += (long) (at.get(d) + index[d]) * dstStrides[d];
        }
        if (inner > 0) {
          first += (long) begin.get(inner - 1) * strides[inner - 1];
          target += (long) at.get(inner - 1) * dstStrides[inner - 1];
        }
        for (long done = 0; done < run; ) {
          int count = (int) Math.min(run - done, chunk.capacity() / item);
          chunk.clear().limit(count * item);
          readContent(ch, l, (first + done) * item, chunk);
          chunk.flip();
          dst.putBytes(Math.toIntExact(target + done), chunk);
          done += count;
        }
        int d = outer - 1;
        while (d >= 0 && ++index[d] == extent.get(d)) {
          index[d--] = 0;
        }
        if (d < 0) {
          return;
        }
      }
    } catch (IOException e) {
      throw new MsException(
          MsException.Kind.VALUE_ERROR, CheckpointFile.corrupted(file) + "\n" + e.getMessage(), e);
    }
  }

  /** Fills {@code into} from byte {@code at} of an entry's content, across its stored Values. */
  private static void readContent(FileChannel ch, Located l, long at, ByteBuffer into)
      throws IOException {
    long pieceStart = 0;
    for (int k = 0; k < l.offsets().length && into.hasRemaining(); k++) {
      long pieceEnd = pieceStart + l.lengths()[k];
      while (into.hasRemaining() && at >= pieceStart && at < pieceEnd) {
        int want = (int) Math.min(into.remaining(), pieceEnd - at);
        ByteBuffer part = into.slice(into.position(), want);
        long pos = l.offsets()[k] + (at - pieceStart);
        while (part.hasRemaining()) {
          if (ch.read(part, pos + part.position()) < 0) {
            throw new IOException("the file ended inside an entry");
          }
        }
        into.position(into.position() + want);
        at += want;
      }
      pieceStart = pieceEnd;
    }
    if (into.hasRemaining()) {
      throw new IOException("an entry's content ended early");
    }
  }

  /** All the bytes of an entry (a text entry, or one whose dims do not match its content). */
  private static byte[] readAll(FileChannel ch, Located l, int total) throws IOException {
    byte[] bytes = new byte[total];
    int at = 0;
    for (int k = 0; k < l.offsets().length; k++) {
      ByteBuffer b = ByteBuffer.wrap(bytes, at, l.lengths()[k]);
      long pos = l.offsets()[k];
      while (b.hasRemaining()) {
        int n = ch.read(b, pos);
        if (n < 0) {
          throw new IOException("the file ended");
        }
        pos += n;
      }
      at += l.lengths()[k];
    }
    return bytes;
  }

  private Located located(String name) {
    Located l = entries.get(name);
    if (l == null) {
      throw MsException.valueError("The checkpoint file " + file + " has no entry '" + name + "'.");
    }
    return l;
  }
}
