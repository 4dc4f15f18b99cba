package dev.msjvm.engine.parallel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ReadLimit;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * MindSpore's strategy checkpoint ({@code strategy_ckpt_save_file} / {@code
 * strategy_ckpt_load_file}): the strategy of every operator that reads a parameter, keyed {@code
 * <Prim>_<first parameter name>}, and the layout of every parameter. A name ending in {@code .json}
 * is the JSON variant, anything else the protobuf {@code ParallelStrategyMap} of MindSpore's {@code
 * node_strategy.proto} (proto2):
 *
 * <pre>
 * ParallelStrategyMap { required uint32 current_stage = 1;
 *   repeated ParallelStrategyItem parallel_strategy_item = 2;
 *   repeated ParallelLayoutItem parallel_layout_item = 3; }
 * ParallelStrategyItem { required string node_name = 1; required ParallelStrategys parallel_strategys = 2; }
 * ParallelStrategys { required uint32 stage = 1; repeated ParallelStrategy parallel_strategy = 2; }
 * ParallelStrategy { repeated uint32 dim = 1; }
 * ParallelLayoutItem { required string param_name = 1; required ParallelLayouts parallel_layouts = 2; }
 * ParallelLayouts { repeated DevMatrix dev_matrix = 1; repeated TensorMap tensor_map = 2;
 *   repeated ParamSplitShape param_split_shape = 3; repeated IndicesOffset indices_offset = 4;
 *   required int32 field = 5; required int32 opt_weight_shard_step = 6;
 *   required int32 opt_weight_shard_size = 7; }
 * DevMatrix { repeated uint32 dim = 1; }  TensorMap { repeated int32 dim = 1; }
 * ParamSplitShape { repeated int64 dim = 1; }  IndicesOffset { repeated int64 dim = 1; }
 * </pre>
 *
 * Messages are encoded with protobuf-java's coded streams, as {@link
 * dev.msjvm.engine.checkpoint.CheckpointFile} does (no protoc in the build). Entries are written
 * sorted by name, so equal inputs give byte-identical files; a file is written to a temporary
 * sibling, made owner-only (0600, as MindSpore does) and moved into place. Reading checks the
 * file's size against a {@link ReadLimit} before reading it, and every length a message declares
 * against the bytes left before reading what it declares.
 */
public final class StrategyFile {

  /** The strategy of one operator: per input, the split of each dimension. */
  public record StrategyEntry(int stage, List<List<Integer>> strategy) {}

  /** The layout of one parameter. */
  public record LayoutEntry(
      List<Integer> devMatrix,
      List<Integer> tensorMap,
      List<Integer> tensorShape,
      int field,
      int optWeightShardStep,
      int optWeightShardSize) {}

  /** A whole file's contents. */
  public record Contents(
      int currentStage, Map<String, StrategyEntry> strategies, Map<String, LayoutEntry> layouts) {

    public Contents {
      strategies = new TreeMap<>(strategies);
      layouts = new TreeMap<>(layouts);
    }
  }

  /**
   * The operator strategy file of {@code AutoParallel.save/load_operator_strategy_file}
   * (MindSpore's {@code StrategyJsonInfo}, sharding_propagation only): per operator name its
   * in_strategy ({@code parallel_strategy_item}) and out_strategy ({@code
   * parallel_out_strategy_item}).
   */
  public record OperatorStrategies(Map<String, StrategyEntry> in, Map<String, StrategyEntry> out) {

    public OperatorStrategies {
      in = new TreeMap<>(in);
      out = new TreeMap<>(out);
    }
  }

  /** Writes an operator strategy file (JSON). */
  public static void writeOperators(Path path, OperatorStrategies ops) {
    ObjectNode root = JSON.createObjectNode();
    strategyItems(root.putObject("parallel_strategy_item"), ops.in());
    strategyItems(root.putObject("parallel_out_strategy_item"), ops.out());
    try {
      writeAtomically(path, JSON.writeValueAsBytes(root));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads an operator strategy file; a missing file is MindSpore's RuntimeError. */
  public static OperatorStrategies readOperators(Path path) {
    return readOperators(path, ReadLimit.fromSystemProperty());
  }

  /** As {@link #readOperators(Path)}, the file within {@code limit}. */
  public static OperatorStrategies readOperators(Path path, ReadLimit limit) {
    if (!Files.isRegularFile(path)) {
      throw MsException.runtimeError("CheckPoint file is not found");
    }
    try {
      JsonNode root = JSON.readTree(readAllBytes(path, limit));
      return new OperatorStrategies(
          readStrategyItems(root.path("parallel_strategy_item")),
          readStrategyItems(root.path("parallel_out_strategy_item")));
    } catch (IOException e) {
      throw MsException.runtimeError("Load strategy file failed: " + e.getMessage());
    }
  }

  private static void strategyItems(ObjectNode items, Map<String, StrategyEntry> entries) {
    entries.forEach(
        (name, e) -> {
          ObjectNode item = items.putObject(name);
          item.put("stage", e.stage());
          ArrayNode all = item.putArray("parallel_strategy");
          for (List<Integer> input : e.strategy()) {
            ArrayNode dims = all.addArray();
            input.forEach(dims::add);
          }
        });
  }

  private static Map<String, StrategyEntry> readStrategyItems(JsonNode items) {
    Map<String, StrategyEntry> out = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = items.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      List<List<Integer>> strategy = new ArrayList<>();
      for (JsonNode input : e.getValue().path("parallel_strategy")) {
        strategy.add(ints(input));
      }
      out.put(e.getKey(), new StrategyEntry(e.getValue().path("stage").asInt(), strategy));
    }
    return out;
  }

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private StrategyFile() {}

  /** Whether {@code path} names the JSON variant. */
  public static boolean isJson(Path path) {
    return path.getFileName().toString().endsWith(".json");
  }

  /** Writes {@code contents} to {@code path} in the format its name asks for. */
  public static void write(Path path, Contents contents) {
    writeAtomically(path, isJson(path) ? toJson(contents) : toProtobuf(contents));
  }

  /** {@code bytes} to a temporary sibling of {@code path}, made owner-only and moved into place. */
  private static void writeAtomically(Path path, byte[] bytes) {
    try {
      Path dir = path.toAbsolutePath().getParent();
      Files.createDirectories(dir);
      Path tmp = Files.createTempFile(dir, ".strategy", ".tmp");
      Files.write(tmp, bytes);
      try {
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException e) {
        // a file system without POSIX permissions keeps its default
      }
      Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads {@code path}; a missing file is MindSpore's RuntimeError. */
  public static Contents read(Path path) {
    return read(path, ReadLimit.fromSystemProperty());
  }

  /** As {@link #read(Path)}, the file within {@code limit}. */
  public static Contents read(Path path, ReadLimit limit) {
    if (!Files.isRegularFile(path)) {
      throw MsException.runtimeError("CheckPoint file is not found");
    }
    try {
      byte[] bytes = readAllBytes(path, limit);
      return isJson(path) ? fromJson(bytes) : fromProtobuf(bytes);
    } catch (Refused e) {
      throw MsException.runtimeError("Load strategy file failed: " + path + ": " + e.getMessage());
    } catch (IOException e) {
      throw MsException.runtimeError("Load strategy file failed: " + e.getMessage());
    }
  }

  /** The bytes of {@code path}, its size checked against {@code limit} first. */
  private static byte[] readAllBytes(Path path, ReadLimit limit) throws IOException {
    long size = Files.size(path);
    String why = limit.refusal(size, size);
    if (why != null) {
      throw MsException.runtimeError("Load strategy file failed: " + path + " is " + why + ".");
    }
    return Files.readAllBytes(path);
  }

  /** A length that runs past the bytes its message has left. */
  private static final class Refused extends IOException {
    Refused(String message) {
      super(message);
    }
  }

  /**
   * The bytes of a length-delimited field of {@code in} (a byte-array decoder), its declared length
   * checked against the bytes left before anything is allocated.
   */
  private static byte[] field(CodedInputStream in, int size, String what) throws IOException {
    long declared = in.readRawVarint64();
    long left = size - in.getTotalBytesRead();
    String why = ReadLimit.none().refusal(declared, left);
    if (why != null) {
      throw new Refused(what + " declares " + why);
    }
    return in.readRawBytes((int) declared);
  }

  // -- protobuf

  static byte[] toProtobuf(Contents c) {
    return message(
        out -> {
          out.writeUInt32(1, c.currentStage());
          for (Map.Entry<String, StrategyEntry> e : c.strategies().entrySet()) {
            StrategyEntry st = e.getValue();
            out.writeByteArray(
                2,
                namedItem(
                    e.getKey(),
                    s -> {
                      s.writeUInt32(1, st.stage());
                      for (List<Integer> input : st.strategy()) {
                        s.writeByteArray(2, dims(input, false));
                      }
                    }));
          }
          for (Map.Entry<String, LayoutEntry> e : c.layouts().entrySet()) {
            LayoutEntry l = e.getValue();
            out.writeByteArray(
                3,
                namedItem(
                    e.getKey(),
                    p -> {
                      p.writeByteArray(1, dims(l.devMatrix(), false));
                      p.writeByteArray(2, dims(l.tensorMap(), true));
                      p.writeByteArray(3, new byte[0]);
                      p.writeByteArray(4, new byte[0]);
                      p.writeInt32(5, l.field());
                      p.writeInt32(6, l.optWeightShardStep());
                      p.writeInt32(7, l.optWeightShardSize());
                    }));
          }
        });
  }

  /** An item message: its name (field 1) and the message {@code body} writes (field 2). */
  private static byte[] namedItem(String name, Body body) {
    return message(
        item -> {
          item.writeString(1, name);
          item.writeByteArray(2, message(body));
        });
  }

  @FunctionalInterface
  private interface Body {
    void write(CodedOutputStream out) throws IOException;
  }

  private static byte[] message(Body body) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      CodedOutputStream out = CodedOutputStream.newInstance(bytes);
      body.write(out);
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A {@code repeated uint32/int32 dim = 1} message (proto2: one tag per element). */
  private static byte[] dims(List<Integer> values, boolean signed) {
    return message(
        out -> {
          for (int v : values) {
            if (signed) {
              out.writeInt32(1, v);
            } else {
              out.writeUInt32(1, v);
            }
          }
        });
  }

  static Contents fromProtobuf(byte[] bytes) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(bytes);
    int stage = 0;
    Map<String, StrategyEntry> strategies = new LinkedHashMap<>();
    Map<String, LayoutEntry> layouts = new LinkedHashMap<>();
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      int at = in.getTotalBytesRead() - 1;
      if (tag >>> 3 == 1) {
        stage = in.readUInt32();
      } else if (tag == 18) {
        readStrategyItem(field(in, bytes.length, "The strategy item at byte " + at), strategies);
      } else if (tag == 26) {
        readLayoutItem(field(in, bytes.length, "The layout item at byte " + at), layouts);
      } else {
        in.skipField(tag);
      }
    }
    return new Contents(stage, strategies, layouts);
  }

  private static void readStrategyItem(byte[] bytes, Map<String, StrategyEntry> out)
      throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(bytes);
    String name = "";
    int stage = 0;
    List<List<Integer>> strategy = new ArrayList<>();
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      if (tag == 10) {
        name = string(in, bytes.length, "The name of a strategy item");
      } else if (tag == 18) {
        byte[] body = field(in, bytes.length, "The strategies of '" + name + "'");
        CodedInputStream s = CodedInputStream.newInstance(body);
        for (int t = s.readTag(); t != 0; t = s.readTag()) {
          if (t >>> 3 == 1) {
            stage = s.readUInt32();
          } else if (t == 18) {
            strategy.add(readDims(field(s, body.length, "A strategy of '" + name + "'")));
          } else {
            s.skipField(t);
          }
        }
      } else {
        in.skipField(tag);
      }
    }
    out.put(name, new StrategyEntry(stage, strategy));
  }

  private static void readLayoutItem(byte[] bytes, Map<String, LayoutEntry> out)
      throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(bytes);
    String name = "";
    List<Integer> dev = List.of();
    List<Integer> map = List.of();
    int[] ints = new int[3];
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      if (tag == 10) {
        name = string(in, bytes.length, "The name of a layout item");
      } else if (tag == 18) {
        byte[] body = field(in, bytes.length, "The layouts of '" + name + "'");
        CodedInputStream p = CodedInputStream.newInstance(body);
        boolean firstDev = true;
        boolean firstMap = true;
        for (int t = p.readTag(); t != 0; t = p.readTag()) {
          int number = t >>> 3;
          if (t == 10 && firstDev) {
            dev = readDims(field(p, body.length, "The device matrix of '" + name + "'"));
            firstDev = false;
          } else if (t == 18 && firstMap) {
            map = readDims(field(p, body.length, "The tensor map of '" + name + "'"));
            firstMap = false;
          } else if (number >= 5 && number <= 7) {
            ints[number - 5] = p.readInt32();
          } else {
            p.skipField(t);
          }
        }
      } else {
        in.skipField(tag);
      }
    }
    out.put(name, new LayoutEntry(dev, map, List.of(), ints[0], ints[1], ints[2]));
  }

  private static String string(CodedInputStream in, int size, String what) throws IOException {
    return new String(field(in, size, what), StandardCharsets.UTF_8);
  }

  /** {@code repeated (u)int32/int64 dim = 1}, packed or not. */
  private static List<Integer> readDims(byte[] bytes) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(bytes);
    List<Integer> out = new ArrayList<>();
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      if (tag == (1 << 3)) {
        out.add((int) in.readInt64());
      } else if (tag == ((1 << 3) | 2)) {
        byte[] packed = field(in, bytes.length, "A packed list of dims");
        CodedInputStream p = CodedInputStream.newInstance(packed);
        while (!p.isAtEnd()) {
          out.add((int) p.readInt64());
        }
      } else {
        in.skipField(tag);
      }
    }
    return out;
  }

  // -- JSON

  static byte[] toJson(Contents c) {
    ObjectNode root = JSON.createObjectNode();
    root.put("current_stage", c.currentStage());
    strategyItems(root.putObject("parallel_strategy_item"), c.strategies());
    ObjectNode layouts = root.putObject("parallel_layout_item");
    c.layouts()
        .forEach(
            (name, l) -> {
              ObjectNode item = layouts.putObject(name);
              l.devMatrix().forEach(item.putArray("dev_matrix")::add);
              l.tensorMap().forEach(item.putArray("tensor_map")::add);
              l.tensorShape().forEach(item.putArray("tensor_shape")::add);
              item.put("field", l.field());
              item.put("opt_weight_shard_step", l.optWeightShardStep());
              item.put("opt_weight_shard_size", l.optWeightShardSize());
            });
    try {
      return JSON.writeValueAsBytes(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Contents fromJson(byte[] bytes) throws IOException {
    JsonNode root = JSON.readTree(bytes);
    Map<String, StrategyEntry> strategies = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = root.path("parallel_strategy_item").fields();
        it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      List<List<Integer>> strategy = new ArrayList<>();
      for (JsonNode input : e.getValue().path("parallel_strategy")) {
        strategy.add(ints(input));
      }
      strategies.put(e.getKey(), new StrategyEntry(e.getValue().path("stage").asInt(), strategy));
    }
    Map<String, LayoutEntry> layouts = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = root.path("parallel_layout_item").fields();
        it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode l = e.getValue();
      layouts.put(
          e.getKey(),
          new LayoutEntry(
              ints(l.path("dev_matrix")),
              ints(l.path("tensor_map")),
              ints(l.path("tensor_shape")),
              l.path("field").asInt(),
              l.path("opt_weight_shard_step").asInt(),
              l.path("opt_weight_shard_size").asInt()));
    }
    return new Contents(root.path("current_stage").asInt(), strategies, layouts);
  }

  private static List<Integer> ints(JsonNode array) {
    List<Integer> out = new ArrayList<>();
    for (JsonNode v : array) {
      out.add(v.asInt());
    }
    return out;
  }
}
