package dev.msjvm.shim;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.Blas;
import dev.msjvm.engine.checkpoint.TensorBytes;
import dev.msjvm.engine.comm.CollectiveOps;
import dev.msjvm.engine.comm.Communicator;
import dev.msjvm.engine.comm.SubWorldCommunicator;
import dev.msjvm.engine.context.AutoParallelContext;
import dev.msjvm.engine.data.MnistBatches;
import dev.msjvm.engine.exec.Autodiff;
import dev.msjvm.engine.exec.CommFusion;
import dev.msjvm.engine.exec.Graph;
import dev.msjvm.engine.exec.OptimizerShard;
import dev.msjvm.engine.exec.PipelineProgram;
import dev.msjvm.engine.exec.PipelineStages;
import dev.msjvm.engine.exec.Runtime;
import dev.msjvm.engine.exec.SpmdPartitioner;
import dev.msjvm.engine.exec.StrategyCheckpointPass;
import dev.msjvm.engine.exec.StrategySearchPass;
import dev.msjvm.engine.exec.Tape;
import dev.msjvm.engine.exec.Timeline;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.job.Session;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.ops.OpDef;
import dev.msjvm.engine.ops.OpTable;
import dev.msjvm.engine.parallel.DeviceMatrix;
import dev.msjvm.engine.parallel.ShardingOracle;
import dev.msjvm.engine.parallel.StrategyFile;
import dev.msjvm.engine.parallel.TensorLayout;
import dev.msjvm.engine.parallel.rules.RulesOracle;
import dev.msjvm.engine.parallel.search.CostModel;
import dev.msjvm.engine.parallel.search.StrategySearch;
import dev.msjvm.engine.tensor.Elementwise;
import dev.msjvm.engine.tensor.Reductions;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.TensorFormat;
import dev.msjvm.engine.tensor.Variable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.graalvm.polyglot.Value;

/**
 * The narrow Java API that the Python package {@code mindspore} calls: one instance per
 * interpreter.
 *
 * <p>The JVM hands it to the interpreter's bootstrap module ({@code _msjvm_main.bind_host}), and
 * the single private module {@code mindspore/_host.py} takes it from there; only plain data and
 * engine objects cross, and Python sees only the members {@link ShimAccess} allows. Example: the
 * shim's {@code set_auto_parallel_context(device_num=8)} checks the argument in Python, then calls
 * {@code host.session().autoParallelContext().set("device_num", 8)}.
 */
public final class Host {
  /** The {@code search_mode}s the engine searches with in {@code auto_parallel}. */
  private static final List<String> SEARCHED =
      List.of(
          StrategySearch.SHARDING_PROPAGATION,
          StrategySearch.DYNAMIC_PROGRAMMING,
          StrategySearch.RECURSIVE_PROGRAMMING);

  private final Session session;

  /** How many strategy checkpoints this interpreter saved (their {@code current_stage}). */
  private int strategySaves;

  /** The strategy search of the last partitioned compile, if it searched. */
  private StrategySearchPass.Result lastSearch;

  /**
   * The layout a partitioned compile gave each parameter of this rank (weak: a dropped network's
   * parameters go); later compiles of other graphs keep them.
   */
  private final Map<Variable, TensorLayout> placed = new WeakHashMap<>();

  /**
   * The communicator the placed layouts are relative to: the job's, or with pipeline stages this
   * rank's stage (layouts there are over a stage's devices).
   */
  private Communicator layoutComm;

  /** Variables stored as optimizer-parallel pieces of their slices (see {@link OptimizerShard}). */
  private final Map<Variable, OptimizerShard.Piece> pieces = new WeakHashMap<>();

  /** The trainable parameters in order with their comm_fusion ids (see trainableParameters). */
  private java.util.LinkedHashMap<String, Integer> fusionIds = new java.util.LinkedHashMap<>();

  /** Names of the parameters the next compile may shard (trainable, parallel_optimizer True). */
  private java.util.Set<String> shardable = java.util.Set.of();

  /** The last graph a step replayed (runGraph or sink). */
  private Graph lastRun;

  /** The timeline of the last pipelined compile, or null. */
  private Timeline lastTimeline;

  private final DeviceProbe devices;
  private final Runtime runtime;
  private long randomStreams;

  public Host(Session session, DeviceProbe devices, Supplier<Blas> blas) {
    this(session, devices, blas, FilePolicy.unrestricted(Path.of("")));
  }

  /** A host whose file accesses go through {@code files} (a server job's sandbox). */
  public Host(Session session, DeviceProbe devices, Supplier<Blas> blas, FilePolicy files) {
    this.session = Objects.requireNonNull(session);
    this.devices = Objects.requireNonNull(devices);
    this.runtime = new Runtime(Objects.requireNonNull(blas));
    this.files = Objects.requireNonNull(files);
  }

  private final FilePolicy files;

  public Session session() {
    return session;
  }

  /** Milliseconds this rank has spent inside collectives so far (-1: not measured). */
  public double collectiveMillis() {
    long ns = session.comm().collectiveNanos();
    return ns < 0 ? -1 : ns / 1e6;
  }

  /**
   * A new fill and seed-stream host for {@code mindspore.common.initializer} (one per interpreter).
   */
  public InitHost initializers() {
    return new InitHost(session);
  }

  /** The {@code .ckpt} reader/writer for {@code mindspore.train.serialization}. */
  public CheckpointHost checkpoints() {
    return new CheckpointHost(files);
  }

  /** The Java side of {@code mindspore.dataset}: idx files, samplers, transforms, batching. */
  public DataHost datasets() {
    return new DataHost(files);
  }

  /** Whether hardware for a MindSpore {@code device_target} ("CPU", "GPU", "Ascend") is present. */
  public boolean deviceAvailable(String deviceTarget) {
    return devices.available(deviceTarget);
  }

  /** A tensor of {@code dtype} (a {@link DType} name) from row-major Python numbers. */
  public Tensor tensorOf(String dtype, List<Integer> shape, List<Object> values) {
    return Tensor.of(DType.valueOf(dtype), new Shape(shape), values);
  }

  /** A tensor of zeros. */
  public Tensor tensorZeros(String dtype, List<Integer> shape) {
    return Tensor.zeros(DType.valueOf(dtype), new Shape(shape));
  }

  /**
   * A tensor from little-endian raw bytes ({@code numpy.ndarray.tobytes()}); {@code bytes} is the
   * Python {@code bytes} object, read in one bulk copy where the guest exposes it as a buffer.
   */
  public Tensor tensorFromBytes(String dtype, List<Integer> shape, Value bytes) {
    byte[] raw;
    if (bytes.hasBufferElements()) {
      raw = new byte[(int) bytes.getBufferSize()];
      bytes.readBuffer(0, raw, 0, raw.length);
    } else {
      raw = new byte[(int) bytes.getArraySize()];
      for (int i = 0; i < raw.length; i++) {
        raw[i] = (byte) bytes.getArrayElement(i).asInt();
      }
    }
    return Tensor.fromBytes(DType.valueOf(dtype), new Shape(shape), raw);
  }

  /**
   * {@link #tensorFromBytes} converted to {@code target} (numpy's {@code astype}): how the shim
   * turns plain nested Python lists, packed into an {@code array.array}, into a tensor of the dtype
   * MindSpore gives them.
   */
  public Tensor tensorFromBytesAs(String dtype, List<Integer> shape, Value bytes, String target) {
    Tensor t = tensorFromBytes(dtype, shape, bytes);
    DType to = DType.valueOf(target);
    return t.dtype() == to ? t : t.astype(to);
  }

  /** {@code t} converted to {@code dtype} (a {@link DType} name), as MindSpore's {@code Cast}. */
  public Tensor tensorAstype(Object t, String dtype) {
    DType.valueOf(dtype);
    return run1("Cast", Attrs.of("dtype", dtype), t);
  }

  /** The {@link DType} name of {@code t}. */
  public String tensorDtype(Object t) {
    return value(t).dtype().name();
  }

  /** MindSpore's 2-D {@code MatMul} of {@code x} and {@code y}, with optional transposes. */
  public Tensor matmul(Object x, Object y, boolean transposeA, boolean transposeB) {
    return run1("MatMul", Attrs.of("transpose_a", transposeA, "transpose_b", transposeB), x, y);
  }

  /** {@code str(tensor)}: numpy's {@code str} of its values, as MindSpore prints it. */
  public String tensorStr(Object t) {
    return TensorFormat.str(read(t, "print"));
  }

  /** {@code repr(tensor)}: MindSpore's {@code Tensor(shape=..., dtype=..., value=...)}. */
  public String tensorRepr(Object t) {
    return TensorFormat.repr(read(t, "print"));
  }

  /**
   * {@code t}'s values as little-endian bytes carried in a Latin-1 string (one char per byte: a
   * string crosses into Python in one piece, where {@code .encode("latin-1")} gives the bytes), in
   * the dtype's layout, float16/bfloat16 widened to float32 (exact). For {@code Tensor.tolist}.
   */
  public String tensorBytesLatin1(Object t) {
    Tensor v = read(t, "tolist");
    if (v.dtype() == DType.FLOAT16 || v.dtype() == DType.BFLOAT16) {
      v = v.astype(DType.FLOAT32);
    }
    return new String(TensorBytes.of(v), java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  /** The values of {@code t} as nested lists ({@code tolist}, {@code item}, {@code asnumpy}). */
  public Object tensorToList(Object t) {
    return read(t, "tolist").toList();
  }

  /** Whether {@code set_context(mode=GRAPH_MODE)} is in effect (one call per cell call). */
  public boolean graphMode() {
    return session.runContext().get("mode") instanceof Number n && n.intValue() == 0;
  }

  /** The dtypes and shapes of {@code tensors} as one string (a GRAPH_MODE cache key), one call. */
  public String signatureOf(List<Object> tensors) {
    StringBuilder b = new StringBuilder();
    for (Object t : tensors) {
      Tensor v = value(t);
      b.append(v.dtype().name()).append(v.shape()).append(';');
    }
    return b.toString();
  }

  /** The dimensions of {@code t}. */
  public List<Integer> tensorShape(Object t) {
    return value(t).shape().dims();
  }

  /**
   * {@code x op y} for a MindSpore elementwise primitive name ({@code "Add"}, {@code "Less"}...).
   */
  public Tensor binary(String op, Object x, Object y) {
    return run1(op, Attrs.EMPTY, x, y);
  }

  /**
   * {@code x op scalar}, or {@code scalar op x} when {@code scalarOnLeft}; a Python bool/int/float.
   */
  public Tensor binaryScalar(String op, Object x, Object scalar, boolean scalarOnLeft) {
    return run1("ScalarOp", Attrs.of("op", op, "scalar", scalar, "left", scalarOnLeft), x);
  }

  /**
   * {@code op(x)} for a MindSpore elementwise primitive name ({@code "Neg"}, {@code "Sqrt"}...).
   */
  public Tensor unary(String op, Object x) {
    Elementwise.Unary.of(op);
    return run1(op, Attrs.EMPTY, x);
  }

  /**
   * A MindSpore reduction ({@code "ReduceSum"}, {@code "ReduceMean"}, {@code "ReduceMax"}, {@code
   * "ReduceMin"}) of {@code x} over {@code axes} (empty: all), with errors naming {@code
   * primitive}.
   */
  public Tensor reduce(
      String op, String primitive, Object x, List<Integer> axes, boolean keepDims) {
    Reductions.Op.of(op);
    return run1(op, Attrs.of("axis", axes, "keep_dims", keepDims, "primitive", primitive), x);
  }

  /** MindSpore's {@code Reshape}: {@code x} with shape {@code shape} (one -1 inferred). */
  public Tensor reshape(Object x, List<Integer> shape) {
    return run1("Reshape", Attrs.of("shape", shape), x);
  }

  /** MindSpore's {@code ExpandDims}. */
  public Tensor expandDims(Object x, int axis) {
    return run1("ExpandDims", Attrs.of("axis", axis), x);
  }

  /** MindSpore's {@code Squeeze} over {@code axes} (empty: every size-1 dimension). */
  public Tensor squeeze(Object x, List<Integer> axes) {
    return run1("Squeeze", Attrs.of("axis", axes), x);
  }

  /** MindSpore's {@code Transpose} with permutation {@code perm}. */
  public Tensor transpose(Object x, List<Integer> perm) {
    return run1("Transpose", Attrs.of("perm", perm), x);
  }

  /** MindSpore's {@code Flatten}: {@code [dim0, rest]}. */
  public Tensor flatten(Object x) {
    return run1("Flatten", Attrs.EMPTY, x);
  }

  /** MindSpore's {@code Softmax} ({@code log} false) or {@code LogSoftmax} along {@code axis}. */
  public Tensor softmax(String primitive, Object x, int axis, boolean log) {
    return run1(log ? "LogSoftmax" : "Softmax", Attrs.of("axis", axis), x);
  }

  /** MindSpore's {@code ZerosLike}. */
  public Tensor zerosLike(Object x) {
    return run1("ZerosLike", Attrs.EMPTY, x);
  }

  /** MindSpore's {@code OnesLike}. */
  public Tensor onesLike(Object x) {
    return run1("OnesLike", Attrs.EMPTY, x);
  }

  // ---- Generic operators, variables, autodiff and graphs -----------------------------------

  /** Operator {@code name} with attributes given as alternating names and values, bound once. */
  public BoundOp prepare(String name, List<Object> attrs) {
    return new BoundOp(runtime, OpTable.get(name), Attrs.ofList(attrs));
  }

  /**
   * A collective primitive ({@code "AllReduce"}, {@code "AllGather"}, {@code "Broadcast"}) bound to
   * this rank's communicator (after {@code init()}), with attributes given as alternating names and
   * values; it runs and traces like {@link #prepare}'s operators.
   */
  public BoundOp collective(String name, List<Object> attrs) {
    OpDef op =
        switch (name) {
          case "AllReduce" -> CollectiveOps.allReduce(session.comm());
          case "AllGather" -> CollectiveOps.allGather(session.comm());
          case "Broadcast" -> CollectiveOps.broadcast(session.comm());
          default -> throw MsException.valueError("Unknown collective operator " + name + ".");
        };
    return new BoundOp(runtime, op, Attrs.ofList(attrs));
  }

  /** The storage of a new Parameter. */
  public Variable variable(String name, Object value) {
    return new Variable(name, value(value));
  }

  /** The tensor {@code t} holds now ({@code t} itself for a tensor). */
  public Tensor valueOf(Object t) {
    return value(t);
  }

  /** A tensor with {@code t}'s values and its own identity (for differentiated arguments). */
  public Tensor alias(Object t) {
    if (runtime.recording()) {
      // Inside a trace (grad within a GRAPH_MODE step) the alias must be a step of the trace, or
      // the graph would capture the first call's input as a constant.
      return runtime.apply("Load", Attrs.EMPTY, value(t))[0];
    }
    return value(t).alias();
  }

  /** Starts recording operator calls (grad, GRAPH_MODE tracing); {@code leaves} are the inputs. */
  public Tape tapePush(List<Object> leaves) {
    Tape tape = runtime.push();
    tape.addLeaves(leaves.stream().map(Host::value).toList());
    return tape;
  }

  /**
   * Starts recording a trace on shapes alone ({@link Runtime#pushAbstract}): no kernel runs and no
   * variable changes until it is popped; {@code leaves} are the inputs.
   */
  public Tape tapePushAbstract(List<Object> leaves) {
    Tape tape = runtime.pushAbstract();
    tape.addLeaves(leaves.stream().map(Host::value).toList());
    return tape;
  }

  /**
   * A tensor of {@code shape} in {@code like}'s dtype with no values: an argument of a trace on
   * shapes ({@link #tapePushAbstract}).
   */
  public Tensor abstractTensor(List<Integer> shape, Object like) {
    return Tensor.abstractOf(
        new dev.msjvm.engine.ir.AbstractTensor(new Shape(shape), value(like).dtype()));
  }

  /** How many kernels this interpreter has run (a compile on shapes runs none). */
  public long kernelCalls() {
    return runtime.kernelCalls();
  }

  public void tapePop(Tape tape) {
    runtime.pop(tape);
  }

  /** Drops every tape (a traced Python function raised). */
  public void tapeReset() {
    runtime.reset();
  }

  public boolean recording() {
    return runtime.recording();
  }

  /**
   * Gradients of {@code outputs} (weighted by {@code sens}: a list with nulls for ones, or null)
   * with respect to {@code wrt} (tensors given to the function, or variables).
   */
  public List<Tensor> gradients(
      Tape tape, List<Object> outputs, List<Object> sens, List<Object> wrt) {
    List<Tensor> outs = outputs.stream().map(Host::value).toList();
    List<Tensor> s = null;
    if (sens != null) {
      s = new java.util.ArrayList<>();
      for (Object o : sens) {
        s.add(o == null ? null : value(o));
      }
    }
    return Autodiff.gradients(runtime, tape, outs, s, wrt);
  }

  /** The graph of a finished trace whose inputs were {@code args} and results {@code results}. */
  public Graph compile(Tape tape, List<Object> args, List<Object> results) {
    return Graph.compile(
        tape, args.stream().map(Host::value).toList(), results.stream().map(Host::value).toList());
  }

  /**
   * A semi/auto-parallel compile: {@code graph} was traced on global shapes; each argument is
   * {@code [global shape, split]} where {@code split} says whether the ranks hold slices of it
   * along dimension 0 (the {@code data_parallel} dataset strategy) or all of it ({@code
   * full_batch}). Returns this rank's program and the parameter layouts it chose.
   */
  public SpmdPartitioner.Result partition(
      Graph graph, List<List<Object>> args, ShardingOracle oracle) {
    return partition(graph, args, oracle, List.of(), "", "", "", "");
  }

  /**
   * {@link #partition(Graph, List, ShardingOracle)}; in {@code auto_parallel} with a search mode
   * the engine implements, the forward calls without a strategy first get the searched ones ({@link
   * StrategySearchPass}). {@code parameterPlan}: {@code Cell.shard}'s parameter strategies,
   * alternating parameter names and strategies. {@code loadFile}/{@code saveFile}: the absolute
   * paths of the strategy checkpoints to read before planning and write after it ({@link
   * StrategyCheckpointPass}), empty for none. {@code opLoadFile}/{@code opSaveFile}: {@code
   * AutoParallel}'s operator strategy files, used with {@code sharding_propagation} only.
   */
  public SpmdPartitioner.Result partition(
      Graph graph,
      List<List<Object>> args,
      ShardingOracle oracle,
      List<Object> parameterPlan,
      String loadFile,
      String saveFile,
      String opLoadFile,
      String opSaveFile) {
    AutoParallelContext ctx = session.autoParallelContext();
    Communicator job = session.comm();
    int stages = (int) Math.max(1, ctx.pipelineStages());
    if (job.size() % stages != 0) {
      throw MsException.runtimeError(
          "The device_num " + job.size() + " must be divisible by the pipeline_stages " + stages);
    }
    // With pipeline stages every strategy, layout and collective is relative to the stage's
    // devices (reference §5.1): stage s owns world ranks [s·per, (s+1)·per).
    int n = job.size() / stages;
    Communicator comm = SubWorldCommunicator.of(job, job.rank() / n * n, n);
    layoutComm = comm;
    lastTimeline = null;
    List<TensorLayout> layouts = new ArrayList<>();
    for (List<Object> a : args) {
      int[] shape = ((List<?>) a.get(0)).stream().mapToInt(d -> ((Number) d).intValue()).toArray();
      int[] map = new int[shape.length];
      java.util.Arrays.fill(map, -1);
      if (Boolean.TRUE.equals(a.get(1)) && map.length > 0) {
        map[0] = 0;
      }
      layouts.add(TensorLayout.of(DeviceMatrix.of(n), map, shape));
    }
    boolean allToAll = Boolean.TRUE.equals(ctx.get("enable_alltoall"));
    lastSearch = null;
    PipelineStages colours = stages > 1 ? PipelineStages.of(graph, stages) : null;
    if (!loadFile.isEmpty()) {
      graph = StrategyCheckpointPass.applyLoaded(graph, StrategyFile.read(files.read(loadFile)));
    }
    if ("auto_parallel".equals(ctx.parallelMode()) && SEARCHED.contains(ctx.searchMode())) {
      Map<String, List<Integer>> plan = new java.util.HashMap<>();
      for (int i = 0; i + 1 < parameterPlan.size(); i += 2) {
        plan.put(
            (String) parameterPlan.get(i),
            ((List<?>) parameterPlan.get(i + 1))
                .stream().map(v -> ((Number) v).intValue()).toList());
      }
      boolean propagation = StrategySearch.SHARDING_PROPAGATION.equals(ctx.searchMode());
      StrategySearchPass.Result searched =
          StrategySearchPass.search(
              graph,
              layouts,
              ctx.searchMode(),
              CostModel.of(session.costModel().asMap(), session.algoParameters().asMap(), allToAll),
              n,
              plan,
              propagation && !opLoadFile.isEmpty()
                  ? StrategyFile.readOperators(files.read(opLoadFile))
                  : null);
      if (propagation && !opSaveFile.isEmpty()) {
        StrategyFile.writeOperators(files.write(opSaveFile), searched.operatorStrategies());
      }
      graph = searched.graph();
      searched.paramLayouts().forEach(placed::putIfAbsent);
      lastSearch = searched;
    }
    SpmdPartitioner.Result result =
        SpmdPartitioner.partition(graph, layouts, placed, oracle, comm, n, allToAll);
    placed.putAll(result.variableLayouts());
    if (Boolean.TRUE.equals(ctx.get("enable_parallel_optimizer"))) {
      SpmdPartitioner.Result partitioned = result;
      long thresholdKb = ((Number) ctx.get("parallel_optimizer_threshold")).longValue();
      OptimizerShard.Result sharded =
          OptimizerShard.apply(
              result,
              shardable,
              new OptimizerShard.Config(
                  // MindSpore: -1 means the default of 64 KB.
                  (thresholdKb < 0 ? 64 : thresholdKb) * 1024,
                  (int) ((Number) ctx.get("optimizer_weight_shard_size")).longValue(),
                  Boolean.TRUE.equals(ctx.get("zero3"))),
              comm,
              graph.forwardNodes(),
              colours == null
                  ? k -> true
                  : k -> colours.runsOn(partitioned.origin(k), job.rank() / n));
      result = sharded.program();
      pieces.putAll(sharded.pieces());
    }
    if (!saveFile.isEmpty()) {
      strategySaves++;
      StrategyFile.write(
          files.write(saveFile),
          StrategyCheckpointPass.toSave(
              graph,
              result,
              strategySaves,
              !Boolean.FALSE.equals(ctx.get("stra_file_only_trainable_params"))));
    }
    SpmdPartitioner.Result unfused = result;
    result =
        CommFusion.apply(
            unfused,
            fusionConfig(ctx),
            fusionIds,
            comm,
            colours == null ? k -> 0 : k -> colours.stage(unfused.origin(k)));
    if (colours != null) {
      PipelineProgram.Result prog =
          PipelineProgram.build(
              graph,
              colours,
              result,
              job,
              String.valueOf(ctx.get("pipeline_scheduler")),
              Boolean.TRUE.equals(ctx.get("pipeline_result_broadcast")));
      lastTimeline = prog.timeline();
      List<String> plan = new ArrayList<>(result.plan());
      plan.addAll(prog.plan());
      result =
          new SpmdPartitioner.Result(
              prog.graph(), result.variableLayouts(), plan, result.strategies(), new int[0]);
    }
    return result;
  }

  /** MindSpore's fusion settings of {@code ctx} (reference §5.4). */
  private static CommFusion.Config fusionConfig(AutoParallelContext ctx) {
    List<Long> indices = ctx.allReduceFusionSplitIndices("hccl_world_groupsum1");
    if (indices.isEmpty()) {
      indices = ctx.allReduceFusionSplitIndices("nccl_world_groupsum1");
    }
    return new CommFusion.Config(
        Boolean.TRUE.equals(ctx.get("enable_all_reduce_fusion")),
        ((Number) ctx.get("fusion_threshold_mb")).longValue(),
        String.valueOf(ctx.get("fusion_mode")),
        indices,
        Boolean.TRUE.equals(ctx.get("enable_all_gather_fusion")),
        ((Number) ctx.get("allgather_fusion_threshold_mb")).longValue(),
        Boolean.TRUE.equals(ctx.get("enable_reduce_scatter_fusion")),
        ((Number) ctx.get("reducescatter_fusion_threshold_mb")).longValue(),
        Boolean.TRUE.equals(ctx.get("enable_parallel_optimizer")));
  }

  /**
   * The trainable parameters of the next compile in order, as triples of name, {@code
   * Parameter.parallel_optimizer} and {@code Parameter.comm_fusion}: which ones optimizer parallel
   * may store as pieces, and communication fusion's parameter order and default ids.
   */
  public void trainableParameters(List<Object> nameShardableFusion) {
    fusionIds = new java.util.LinkedHashMap<>();
    java.util.Set<String> mayShard = new java.util.HashSet<>();
    for (int i = 0; i + 2 < nameShardableFusion.size(); i += 3) {
      String name = (String) nameShardableFusion.get(i);
      if (Boolean.TRUE.equals(nameShardableFusion.get(i + 1))) {
        mayShard.add(name);
      }
      fusionIds.put(name, ((Number) nameShardableFusion.get(i + 2)).intValue());
    }
    shardable = java.util.Set.copyOf(mayShard);
  }

  /**
   * Bytes this rank stores for {@code vars} (their current tensors): after an optimizer-parallel
   * compile the pieces, else the slices.
   */
  public long storedBytes(List<Variable> vars) {
    long total = 0;
    for (Variable v : vars) {
      total += (long) v.current().size() * v.current().dtype().itemSize();
    }
    return total;
  }

  /**
   * From now on the last pipelined compile's rank rewrites {@code path} with the Chrome trace of
   * each step it runs; false if the last compile had no pipeline stages.
   */
  public boolean pipelineTimeline(String path) {
    if (lastTimeline == null) {
      return false;
    }
    lastTimeline.writeTo(files.write(path));
    return true;
  }

  /**
   * The last pipelined compile's last step: {@code [stage, bubble, ideal bubble, peak in-flight
   * micro-batches, steps]}, or null.
   */
  public List<Object> pipelineStats() {
    if (lastTimeline == null || lastTimeline.lastStep() == null) {
      return null;
    }
    Timeline.Step s = lastTimeline.lastStep();
    return List.of(
        lastTimeline.stage(),
        s.bubble(),
        lastTimeline.idealBubble(),
        s.peakInFlight(),
        lastTimeline.steps());
  }

  /**
   * The last partitioned compile's search report ({@code json} or text), or null if it did not
   * search or built no cost graph.
   */
  public String searchReport(boolean json) {
    if (lastSearch == null) {
      return null;
    }
    return json ? lastSearch.reportJson() : lastSearch.reportText();
  }

  /**
   * Before a partitioned compile traces on global shapes: each of {@code vars} that an earlier
   * compile cut to its slice gets its whole value back (AllGather, in list order: every rank passes
   * the same parameters). The partition cuts them again.
   */
  public void wholeParameters(List<Variable> vars) {
    for (Variable v : vars) {
      TensorLayout layout = placed.get(v);
      OptimizerShard.Piece piece = pieces.remove(v);
      if (piece != null
          && v.current().shape().dim(0) * piece.parts() == piece.sliceShape().dim(0)) {
        v.set(piece.gather(layoutComm, v.current()));
      }
      Tensor now = v.current();
      if (layout != null
          && !now.shape().equals(layout.shape())
          && now.shape().equals(layout.sliceShape())) {
        v.set(SpmdPartitioner.gatherWhole(layoutComm, now, layout));
      }
    }
  }

  /**
   * While a sharded primitive runs: the engine operators it records under one of {@code ops} carry
   * {@code attrs} (alternating names and values: its {@code in_strategy}/{@code out_strategy}).
   */
  public void pushCallAttrs(List<String> ops, List<Object> attrs) {
    runtime.pushCallAttrs(ops, Attrs.ofList(attrs));
  }

  public void popCallAttrs() {
    runtime.popCallAttrs();
  }

  /**
   * While a cell with a {@code pipeline_stage} or a micro-batch runs: every recorded engine
   * operator (and its gradient) carries {@code labels} (alternating names and values, names from
   * {@code Runtime.LABEL_KEYS}).
   */
  public void pushLabels(List<Object> labels) {
    runtime.pushLabels(Attrs.ofList(labels));
  }

  /** {@link Runtime#keepForBackward}: {@code outputs} (tensors) are kept, not recomputed. */
  public void keepForBackward(List<Object> outputs) {
    runtime.keepForBackward(outputs.stream().map(Host::value).toList());
  }

  public void popLabels() {
    runtime.popLabels();
  }

  /** The partitioner's oracle over the operator sharding rules (MindSpore's strategies). */
  public ShardingOracle shardingOracle() {
    return RulesOracle.INSTANCE;
  }

  /** Replays {@code graph} on {@code args}. */
  public List<Tensor> runGraph(Graph graph, List<Object> args) {
    lastRun = graph;
    return graph.run(runtime, args.stream().map(Host::value).toList());
  }

  /**
   * Peak bytes of intermediate values alive at once in the last step this rank replayed ({@link
   * Graph#peakBytes}), 0 before any: what the benchmarks report as activation memory.
   */
  public long peakBytes() {
    return lastRun == null ? 0 : lastRun.peakBytes();
  }

  /**
   * What {@link #sink} did: the number of steps run, the last step's outputs (null if none ran),
   * and a batch it pulled but did not run because its shapes differ from {@code signature} (null if
   * none).
   */
  public record SinkResult(int steps, List<Tensor> outputs, List<Tensor> pending) {}

  /**
   * Dataset sink mode: up to {@code steps} replays of a training step's graph, each on the next
   * batch of a Java pipeline, with no Python between steps. Stops early when the pipeline ends or a
   * batch's dtypes/shapes differ from {@code signature} (as {@link #signatureOf} writes it; the
   * graph was traced for those), handing that batch back.
   */
  public SinkResult sink(Graph graph, MnistBatches batches, String signature, int steps) {
    List<Tensor> last = null;
    int done = 0;
    while (done < steps) {
      List<Tensor> batch = batches.next();
      if (batch == null) {
        break;
      }
      if (!signatureOf(List.<Object>copyOf(batch)).equals(signature)) {
        return new SinkResult(done, last, batch);
      }
      last = graph.run(runtime, batch);
      lastRun = graph;
      done++;
    }
    return new SinkResult(done, last, null);
  }

  /**
   * A random stream for one random operator (Dropout): seeded from {@code seed} and the number of
   * streams this interpreter made before, so reruns of a seeded script draw the same masks; from
   * entropy when {@code seed} is negative (no {@code set_seed}).
   */
  public java.util.random.RandomGenerator randomStream(long seed) {
    long n = randomStreams++;
    return seed < 0
        ? new java.util.SplittableRandom()
        : new java.util.SplittableRandom(seed * 0x9E3779B97F4A7C15L + n);
  }

  /** Sets a Parameter's value outside any graph ({@code set_data}). */
  public void setVariable(Variable v, Object value) {
    v.set(value(value));
  }

  private Tensor run1(String op, Attrs attrs, Object... inputs) {
    return runtime.apply(op, attrs, inputs)[0];
  }

  private Tensor read(Object t, String how) {
    Tensor v = value(t);
    if (runtime.recording()) {
      runtime.noteValueRead(v, how);
    }
    if (v.isAbstract()) {
      // A trace on shapes has no values to give: the compile reports the read (Tape#valueRead).
      throw MsException.runtimeError(
          "The value of a tensor is not known while the network compiles (" + how + ").");
    }
    return v;
  }

  private static Tensor value(Object t) {
    return switch (t) {
      case Tensor x -> x;
      case Variable v -> v.value();
      default ->
          throw MsException.typeError(
              "Expected a Tensor, but got " + (t == null ? "None" : t.getClass().getSimpleName()));
    };
  }

  /** An operator with its attributes, called from Python with tensors or variables. */
  public static final class BoundOp {
    private final Runtime runtime;
    private long randomStreams;
    private final OpDef op;
    private final Attrs attrs;

    BoundOp(Runtime runtime, OpDef op, Attrs attrs) {
      this.runtime = runtime;
      this.op = op;
      this.attrs = attrs;
    }

    /** The first output. */
    public Tensor call(Object... inputs) {
      return runtime.apply(op, attrs, inputs)[0];
    }

    /** All outputs. */
    public List<Tensor> callAll(Object... inputs) {
      return List.of(runtime.apply(op, attrs, inputs));
    }
  }

  /**
   * The Python exception class a Java throwable becomes: an engine error's own, PermissionError for
   * a sandbox refusal, MemoryError for an exhausted heap, RuntimeError for anything else.
   */
  public String pythonTypeOf(Object t) {
    return switch (t) {
      case null -> null;
      case MsException e -> e.pythonType();
      case SecurityException e -> "PermissionError"; // a sandboxed job's file access outside it
      case OutOfMemoryError e -> "MemoryError";
      default -> "RuntimeError";
    };
  }

  /** Qualified Java class names in a message, shortened to their simple names. */
  private static final Pattern JAVA_CLASS =
      Pattern.compile(
          "\\b(?:java|javax|jdk|sun|com\\.sun|com\\.google|com\\.fasterxml|org\\.graalvm"
              + "|com\\.oracle|dev\\.msjvm)\\.(?:[a-z_$][\\w$]*\\.)*([A-Z][\\w$]*)");

  /**
   * The message of a Java throwable, for re-raising it in Python, with no qualified Java class name
   * in it (scripts and users read it; an I/O cause's name becomes its simple name).
   */
  public String messageOf(Object t) {
    if (t instanceof OutOfMemoryError) {
      return "The engine ran out of memory: the JVM's heap (at most "
          + java.lang.Runtime.getRuntime().maxMemory() / (1024 * 1024)
          + " MiB) cannot hold what this call needs.";
    }
    if (t instanceof Throwable e) {
      String m = e.getMessage();
      if (m == null || m.isBlank()) {
        return "Internal error in the engine (" + e.getClass().getSimpleName() + ").";
      }
      return JAVA_CLASS.matcher(m).replaceAll("$1");
    }
    return String.valueOf(t);
  }
}
