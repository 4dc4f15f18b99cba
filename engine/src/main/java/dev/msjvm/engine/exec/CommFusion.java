package dev.msjvm.engine.exec;

import dev.msjvm.engine.comm.Communicator;
import dev.msjvm.engine.comm.ReduceOp;
import dev.msjvm.engine.exec.Graph.Node;
import dev.msjvm.engine.exec.Graph.Out;
import dev.msjvm.engine.exec.Graph.Ref;
import dev.msjvm.engine.exec.Graph.Var;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.ops.OpDef;
import dev.msjvm.engine.parallel.RedistributionExecutor;
import dev.msjvm.engine.tensor.Tensor;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;

/**
 * MindSpore's communication fusion (reference §5.4) on a rank's partitioned step: the collectives
 * that move a parameter's data (the gradient AllReduce, MindSpore's Mirror; the optimizer-parallel
 * AllGather of a weight and ReduceScatter of its gradient) get fusion ids, and the ones sharing an
 * id, a group and a reduction run as one collective over one concatenated buffer.
 *
 * <p>Ids: with the fusion of that kind on ({@code comm_fusion} or {@code
 * all_reduce_fusion_config}), mode {@code auto}/{@code size} buckets greedily in program order (the
 * order this engine's backward emits them: last layer first), MindSpore's rule: an op joins the
 * open bucket if it is the first or its element count is below the budget left (the budget then
 * shrinks by it), else it opens the next bucket with a full budget of {@code MB × 262144} elements;
 * mode {@code index} splits the parameters, in their trainable order, at the configured indices.
 * With the fusion off, each op takes its parameter's {@code comm_fusion} (default 1: MindSpore's
 * backend then fuses all of them; 0: never fused).
 *
 * <p>A fused AllReduce or ReduceScatter runs where its last member ran and a fused AllGather where
 * its first did (its inputs are variables, ready at any point before their update); a member one of
 * whose readers would run before that point is left alone.
 */
public final class CommFusion {

  /** The three fusion switches, thresholds (MB) and MindSpore's shared {@code fusion_mode}. */
  public record Config(
      boolean allReduce,
      long allReduceMb,
      String mode,
      List<Long> splitIndices,
      boolean allGather,
      long allGatherMb,
      boolean reduceScatter,
      long reduceScatterMb,
      boolean parallelOptimizer) {}

  /** One fusable collective: its node, kind, parameter, element count and fusion id. */
  private record Member(int node, String kind, String parameter, long elements, int fusion) {}

  private CommFusion() {}

  private static final List<String> KINDS = List.of("AllReduce", "AllGather", "ReduceScatter");

  /**
   * Fuses the parameter collectives of {@code part} (over {@code comm}'s world). {@code
   * parameters}: the trainable parameters in order with their {@code comm_fusion}; {@code stageOf}:
   * a key no bucket crosses (a node's pipeline stage, or 0).
   */
  public static SpmdPartitioner.Result apply(
      SpmdPartitioner.Result part,
      Config config,
      LinkedHashMap<String, Integer> parameters,
      Communicator comm,
      IntUnaryOperator stageOf) {
    List<Node> nodes = part.graph().nodes();
    List<List<Integer>> readers = readers(nodes, part.graph().outputRefs());
    List<String> plan = new ArrayList<>(part.plan());
    Map<String, List<Member>> byKind = new LinkedHashMap<>();
    for (int k = 0; k < nodes.size(); k++) {
      Node node = nodes.get(k);
      String kind = node.op().name();
      if (!KINDS.contains(kind) || !node.attrs().has("group")) {
        continue;
      }
      String parameter =
          node.attrs().has("parameter")
              ? node.attrs().string("parameter")
              : parameterUpdatedFrom(k, nodes, readers);
      if (parameter == null || !parameters.containsKey(parameter)) {
        continue; // not a parameter's collective (an activation's, in model parallel)
      }
      byKind
          .computeIfAbsent(kind, x -> new ArrayList<>())
          .add(new Member(k, kind, parameter, node.inShapes()[0].size(), 0));
    }
    List<Member> all = new ArrayList<>();
    for (Map.Entry<String, List<Member>> e : byKind.entrySet()) {
      all.addAll(ids(e.getKey(), e.getValue(), config, parameters));
    }
    // Buckets: same kind, fusion id, group, reduction and stage.
    Map<List<Object>, List<Member>> buckets = new LinkedHashMap<>();
    for (Member m : all) {
      Node node = nodes.get(m.node());
      plan.add(
          "comm fusion: "
              + m.kind()
              + " of '"
              + m.parameter()
              + "' ("
              + m.elements()
              + " elements) fusion "
              + m.fusion());
      if (m.fusion() <= 0) {
        continue;
      }
      buckets
          .computeIfAbsent(
              List.of(
                  m.kind(),
                  m.fusion(),
                  node.attrs().ints("group"),
                  node.attrs().has("reduce") ? node.attrs().string("reduce") : "",
                  stageOf.applyAsInt(m.node())),
              x -> new ArrayList<>())
          .add(m);
    }
    Map<Integer, List<Member>> fusedAt = new HashMap<>();
    Map<Integer, Boolean> member = new HashMap<>();
    for (Map.Entry<List<Object>, List<Member>> e : buckets.entrySet()) {
      List<Member> bucket = new ArrayList<>(e.getValue());
      boolean gather = bucket.get(0).kind().equals("AllGather");
      int at = gather ? bucket.get(0).node() : bucket.get(bucket.size() - 1).node();
      bucket.removeIf(m -> readers.get(m.node()).stream().anyMatch(r -> r < at));
      if (bucket.size() < 2) {
        continue;
      }
      int place = gather ? bucket.get(0).node() : bucket.get(bucket.size() - 1).node();
      fusedAt.put(place, bucket);
      bucket.forEach(m -> member.put(m.node(), true));
      long elements = bucket.stream().mapToLong(Member::elements).sum();
      plan.add(
          "comm fusion: "
              + bucket.size()
              + " "
              + bucket.get(0).kind()
              + " fused into one call over group "
              + e.getKey().get(2)
              + " (fusion "
              + e.getKey().get(1)
              + ", "
              + elements
              + " elements, "
              + 4 * elements
              + " bytes): "
              + bucket.stream().map(Member::parameter).toList());
    }
    if (fusedAt.isEmpty()) {
      return new SpmdPartitioner.Result(
          part.graph(), part.variableLayouts(), plan, part.strategies(), part.origins());
    }
    return rebuild(part, fusedAt, member, comm, plan);
  }

  /** For each node, the nodes reading one of its outputs (a graph result counts as MAX_VALUE). */
  private static List<List<Integer>> readers(List<Node> nodes, Ref[] outputs) {
    List<List<Integer>> readers = new ArrayList<>();
    for (int k = 0; k < nodes.size(); k++) {
      readers.add(new ArrayList<>());
    }
    for (int k = 0; k < nodes.size(); k++) {
      for (Ref r : nodes.get(k).inputs()) {
        if (r instanceof Out o) {
          readers.get(o.node()).add(k);
        }
      }
    }
    for (Ref r : outputs) {
      if (r instanceof Out o) {
        readers.get(o.node()).add(Integer.MAX_VALUE);
      }
    }
    return readers;
  }

  /**
   * The parameter whose update reads (through at most a few operators: accumulation, scaling) the
   * output of node {@code k}, or null.
   */
  private static String parameterUpdatedFrom(int k, List<Node> nodes, List<List<Integer>> readers) {
    ArrayDeque<int[]> queue = new ArrayDeque<>();
    queue.add(new int[] {k, 0});
    java.util.Set<Integer> seen = new java.util.HashSet<>();
    while (!queue.isEmpty()) {
      int[] at = queue.poll();
      for (int r : readers.get(at[0])) {
        if (r == Integer.MAX_VALUE || !seen.add(r)) {
          continue;
        }
        Node node = nodes.get(r);
        for (int i = 0; i < node.inputs().length; i++) {
          if (node.inputs()[i] instanceof Var v && node.op().writes(i)) {
            return v.variable().name();
          }
        }
        if (at[1] < 6) {
          queue.add(new int[] {r, at[1] + 1});
        }
      }
    }
    return null;
  }

  /** The members of one kind with their fusion ids. */
  private static List<Member> ids(
      String kind, List<Member> members, Config c, LinkedHashMap<String, Integer> parameters) {
    boolean on =
        switch (kind) {
          case "AllReduce" -> c.allReduce();
          case "AllGather" -> c.allGather();
          default -> c.reduceScatter();
        };
    List<Member> out = new ArrayList<>();
    if (!on) {
      for (Member m : members) {
        out.add(
            new Member(m.node(), kind, m.parameter(), m.elements(), parameters.get(m.parameter())));
      }
      return out;
    }
    if (kind.equals("AllReduce") && !c.splitIndices().isEmpty() && !c.parallelOptimizer()) {
      // MindSpore's backend (CommunicationOpFusion::GetSplitSegments): each index is the last op
      // (in execution order) of a segment; indices past the end are skipped; the rest is one more.
      List<Integer> ends = new ArrayList<>();
      for (long index : c.splitIndices()) {
        if (index < members.size() && (ends.isEmpty() || index > ends.getLast())) {
          ends.add((int) index);
        }
      }
      int fusion = 1;
      for (int i = 0; i < members.size(); i++) {
        Member m = members.get(i);
        out.add(new Member(m.node(), kind, m.parameter(), m.elements(), fusion));
        if (ends.contains(i)) {
          fusion++;
        }
      }
      return out;
    }
    long mb =
        switch (kind) {
          case "AllReduce" -> c.allReduceMb();
          case "AllGather" -> c.allGatherMb();
          default -> c.reduceScatterMb();
        };
    long threshold = mb * 262144L;
    long budget = threshold;
    int fusion = 1;
    boolean first = true;
    for (Member m : members) {
      if (first || m.elements() < budget) {
        budget -= m.elements();
      } else {
        budget = threshold;
        fusion++;
      }
      first = false;
      out.add(new Member(m.node(), kind, m.parameter(), m.elements(), fusion));
    }
    return out;
  }

  private static SpmdPartitioner.Result rebuild(
      SpmdPartitioner.Result part,
      Map<Integer, List<Member>> fusedAt,
      Map<Integer, Boolean> member,
      Communicator comm,
      List<String> plan) {
    List<Node> nodes = part.graph().nodes();
    List<Node> out = new ArrayList<>();
    List<Integer> origins = new ArrayList<>();
    Ref[][] moved = new Ref[nodes.size()][];
    for (int k = 0; k < nodes.size(); k++) {
      Node node = nodes.get(k);
      List<Member> bucket = fusedAt.get(k);
      if (bucket != null) {
        int id = out.size();
        out.add(fused(bucket, nodes, moved, comm));
        origins.add(part.origin(k));
        for (int i = 0; i < bucket.size(); i++) {
          moved[bucket.get(i).node()] = new Ref[] {new Out(id, i)};
        }
        continue;
      }
      if (member.containsKey(k)) {
        continue; // runs inside its bucket's fused call
      }
      Ref[] in = node.inputs().clone();
      for (int i = 0; i < in.length; i++) {
        if (in[i] instanceof Out o) {
          in[i] = remap(o, moved);
        }
      }
      int id = out.size();
      out.add(node.with(in));
      origins.add(part.origin(k));
      moved[k] = new Ref[node.outputs()];
      for (int j = 0; j < node.outputs(); j++) {
        moved[k][j] = new Out(id, j);
      }
    }
    Ref[] outputs = part.graph().outputRefs();
    for (int i = 0; i < outputs.length; i++) {
      if (outputs[i] instanceof Out o) {
        outputs[i] = remap(o, moved);
      }
    }
    return new SpmdPartitioner.Result(
        Graph.sequence(out, outputs, part.graph().arity(), 0),
        part.variableLayouts(),
        plan,
        part.strategies(),
        origins.stream().mapToInt(Integer::intValue).toArray());
  }

  private static Ref remap(Out o, Ref[][] moved) {
    return moved[o.node()][o.index()];
  }

  /** One node running the bucket's collectives as a single call; output i is member i's result. */
  private static Node fused(
      List<Member> bucket, List<Node> nodes, Ref[][] moved, Communicator comm) {
    int n = bucket.size();
    Node first = nodes.get(bucket.get(0).node());
    List<Integer> ranks = first.attrs().ints("group");
    String group = RedistributionExecutor.groupName(ranks);
    comm.createGroup(group, ranks);
    String reduce = first.attrs().has("reduce") ? first.attrs().string("reduce") : "sum";
    Ref[] in = new Ref[n];
    Shape[] inShapes = new Shape[n];
    Shape[] outShapes = new Shape[n];
    for (int i = 0; i < n; i++) {
      Node node = nodes.get(bucket.get(i).node());
      Ref r = node.inputs()[0];
      in[i] = r instanceof Out o ? remap(o, moved) : r;
      inShapes[i] = node.inShapes()[0];
      outShapes[i] = node.outShapes()[0];
    }
    String kind = bucket.get(0).kind();
    int size = ranks.size();
    Kernel3 body =
        switch (kind) {
          case "AllReduce" -> (xs, outs) -> allReduce(comm, group, reduce, size, xs, outs);
          case "AllGather" -> (xs, outs) -> allGather(comm, group, size, xs, outs);
          default -> (xs, outs) -> reduceScatter(comm, group, reduce, size, xs, outs);
        };
    OpDef op =
        new OpDef(
            "Fused" + kind,
            c -> {
              Tensor[] xs = new Tensor[c.arity()];
              for (int i = 0; i < xs.length; i++) {
                Tensor t = c.in(i);
                xs[i] = t.dtype() == DType.FLOAT32 ? t : t.astype(DType.FLOAT32);
              }
              float[][] results = body.run(xs, outShapes);
              Tensor[] outs = new Tensor[xs.length];
              for (int i = 0; i < outs.length; i++) {
                Tensor t = Tensor.ofFloats(outShapes[i], results[i]);
                outs[i] = c.in(i).dtype() == DType.FLOAT32 ? t : t.astype(c.in(i).dtype());
              }
              return outs;
            },
            null,
            true,
            List.of());
    return new Node(
        op,
        Attrs.of(
            "group",
            ranks,
            "parameters",
            bucket.stream().map(Member::parameter).toList(),
            "fusion",
            bucket.get(0).fusion()),
        in,
        n,
        inShapes,
        outShapes);
  }

  /** A fused collective's body: the float32 inputs in, each member's result out. */
  private interface Kernel3 {
    float[][] run(Tensor[] xs, Shape[] outShapes);
  }

  private static ReduceOp op(String reduce) {
    return switch (reduce) {
      case "max" -> ReduceOp.MAX;
      case "min" -> ReduceOp.MIN;
      case "prod" -> ReduceOp.PROD;
      default -> ReduceOp.SUM;
    };
  }

  private static float[][] allReduce(
      Communicator comm, String group, String reduce, int size, Tensor[] xs, Shape[] outShapes) {
    float[] buf = concat(xs);
    comm.allReduce(buf, op(reduce), group);
    float[][] out = new float[xs.length][];
    int at = 0;
    for (int i = 0; i < xs.length; i++) {
      out[i] = java.util.Arrays.copyOfRange(buf, at, at + xs[i].size());
      at += xs[i].size();
      scaleForMean(out[i], reduce, size);
    }
    return out;
  }

  /** The inputs' values one after another. */
  private static float[] concat(Tensor[] xs) {
    int total = 0;
    for (Tensor x : xs) {
      total += x.size();
    }
    float[] buf = new float[total];
    int at = 0;
    for (Tensor x : xs) {
      System.arraycopy(x.floats(), 0, buf, at, x.size());
      at += x.size();
    }
    return buf;
  }

  /** Pieces concatenated, gathered once; member i's whole is its piece from every rank in order. */
  private static float[][] allGather(
      Communicator comm, String group, int size, Tensor[] xs, Shape[] outShapes) {
    float[] send = concat(xs);
    int total = send.length;
    float[] recv = new float[total * size];
    comm.allGather(send, recv, group);
    float[][] out = new float[xs.length][];
    int offset = 0;
    for (int i = 0; i < xs.length; i++) {
      int piece = xs[i].size();
      out[i] = new float[piece * size];
      for (int r = 0; r < size; r++) {
        System.arraycopy(recv, r * total + offset, out[i], r * piece, piece);
      }
      offset += piece;
    }
    return out;
  }

  /** Block r of every member laid out rank-major, reduced and scattered once. */
  private static float[][] reduceScatter(
      Communicator comm, String group, String reduce, int size, Tensor[] xs, Shape[] outShapes) {
    int total = 0;
    for (Tensor x : xs) {
      total += x.size() / size;
    }
    float[] send = new float[total * size];
    int at = 0;
    for (int r = 0; r < size; r++) {
      for (Tensor x : xs) {
        int block = x.size() / size;
        System.arraycopy(x.floats(), r * block, send, at, block);
        at += block;
      }
    }
    float[] recv = new float[total];
    comm.reduceScatter(send, recv, op(reduce), group);
    float[][] out = new float[xs.length][];
    at = 0;
    for (int i = 0; i < xs.length; i++) {
      int block = xs[i].size() / size;
      out[i] = java.util.Arrays.copyOfRange(recv, at, at + block);
      at += block;
      scaleForMean(out[i], reduce, size);
    }
    return out;
  }

  private static void scaleForMean(float[] data, String reduce, int size) {
    if (reduce.equals("mean")) {
      float inv = 1.0f / size;
      for (int k = 0; k < data.length; k++) {
        data[k] *= inv;
      }
    }
  }
}
