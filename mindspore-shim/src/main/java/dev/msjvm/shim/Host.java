package dev.msjvm.shim;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.Blas;
import dev.msjvm.engine.checkpoint.TensorBytes;
import dev.msjvm.engine.comm.CollectiveOps;
import dev.msjvm.engine.comm.Communicator;
import dev.msjvm.engine.comm.SimulatedCommunicator;
import dev.msjvm.engine.comm.SubWorldCommunicator;
import dev.msjvm.engine.context.AutoParallelContext;
import dev.msjvm.engine.data.MnistBatches;
import dev.msjvm.engine.exec.Autodiff;
import dev.msjvm.engine.exec.CompileRequest;
import dev.msjvm.engine.exec.Graph;
import dev.msjvm.engine.exec.OptimizerShard;
import dev.msjvm.engine.exec.ParallelCompiler;
import dev.msjvm.engine.exec.ParallelPlan;
import dev.msjvm.engine.exec.ParallelSettings;
import dev.msjvm.engine.exec.Runtime;
import dev.msjvm.engine.exec.SharedCompile;
import dev.msjvm.engine.exec.SpmdPartitioner;
import dev.msjvm.engine.exec.StrategyCheckpointPass;
import dev.msjvm.engine.exec.StrategySearchPass;
import dev.msjvm.engine.exec.Tape;
import dev.msjvm.engine.exec.Timeline;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.job.CompileExchange;
import dev.msjvm.engine.job.Session;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.ops.OpDef;
import dev.msjvm.engine.ops.OpTable;
import dev.msjvm.engine.parallel.StrategyFile;
import dev.msjvm.engine.parallel.TensorLayout;
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

  /** Sliced variables showing their whole type to a compile's trace (see {@link #holdSlices}). */
  private final Map<Variable, Tensor> heldSlices = new java.util.LinkedHashMap<>();

  /** Variables stored as optimizer-parallel pieces of their slices (see {@link OptimizerShard}). */
  private final Map<Variable, OptimizerShard.Piece> pieces = new WeakHashMap<>();

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

  /** A complex tensor of {@code dtype} from the real and imaginary parts of its elements. */
  public Tensor tensorOfComplex(
      String dtype, List<Integer> shape, List<Double> real, List<Double> imag) {
    double[] re = new double[real.size()];
    double[] im = new double[imag.size()];
    for (int i = 0; i < re.length; i++) {
      re[i] = real.get(i);
      im[i] = imag.get(i);
    }
    return Tensor.ofComplex(DType.valueOf(dtype), new Shape(shape), re, im);
  }

  /**
   * A call of a primitive a script defined in Python (operator {@code PythonPrimitive}): its output
   * {@code shape} and {@code dtype} come from its {@code infer_shape}/{@code infer_dtype}; {@code
   * bprop} (or null) is a Python callable taking the engine tensors of the inputs, the output and
   * its gradient and returning one engine tensor (or None) per input.
   */
  public Tensor pythonPrimitive(
      String name, List<Integer> shape, String dtype, Value bprop, List<Object> inputs) {
    DType.valueOf(dtype);
    Attrs attrs = Attrs.of("primitive", name, "shape", shape, "dtype", dtype);
    if (bprop != null && !bprop.isNull()) {
      java.util.function.Function<Tensor[], Tensor[]> f =
          args -> {
            Value r = bprop.execute((Object[]) args);
            Tensor[] grads = new Tensor[(int) r.getArraySize()];
            for (int i = 0; i < grads.length; i++) {
              Value g = r.getArrayElement(i);
              grads[i] = g.isNull() ? null : g.asHostObject();
            }
            return grads;
          };
      attrs = attrs.with("bprop", f);
    }
    return run1("PythonPrimitive", attrs, inputs.toArray());
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
   * A collective primitive ({@code "AllReduce"}, {@code "AllGather"}, {@code "ReduceScatter"},
   * {@code "AlltoAll"}, {@code "Broadcast"}, {@code "NeighborExchangeV2"}) bound to this rank's
   * communicator (before {@code init()}: one whose every operation is the not-inited error, so a
   * graph holding it still compiles on shapes), with attributes given as alternating names and
   * values; it runs and traces like {@link #prepare}'s operators.
   */
  public BoundOp collective(String name, List<Object> attrs) {
    return new BoundOp(
        runtime, CollectiveOps.named(name, session.commOrUnjoined()), Attrs.ofList(attrs));
  }

  /** The storage of a new Parameter. */
  public Variable variable(String name, Object value) {
    return new Variable(name, value(value));
  }

  /**
   * The storage of a Parameter whose initializer has not run ({@link Variable#deferred}): {@code
   * fill(begin, length)} (a Python function) returns the block of its whole value a parallel
   * compile gives this rank, or the whole value when it is first read.
   */
  public Variable deferredVariable(String name, List<Integer> shape, String dtype, Value fill) {
    return Variable.deferred(
        name,
        new AbstractTensor(new Shape(shape), DType.valueOf(dtype)),
        (begin, length) -> {
          Value made =
              fill.execute(
                  java.util.Arrays.stream(begin).boxed().toList(),
                  java.util.Arrays.stream(length).boxed().toList());
          return value(made.isHostObject() ? made.asHostObject() : made.as(Object.class));
        });
  }

  /**
   * Kernels that write text (Print in a replayed graph) write it through {@code write}, the rank's
   * {@code sys.stdout.write}, so their lines keep their order with the script's own prints. Called
   * on the rank's thread, where its graphs run.
   */
  public void printTo(Value write) {
    runtime.printTo(text -> write.execute(text));
  }

  /** The tensor {@code t} holds now ({@code t} itself for a tensor). */
  public Tensor valueOf(Object t) {
    return value(t);
  }

  /**
   * {@code Parameter.value()}: the variable's current value; while a graph is traced, a Load step
   * of it, so a replay reads the parameter then (not the trace's value as a constant) and pipeline
   * planning sees which stages read it.
   */
  public Tensor read(Object t) {
    if (runtime.recording() && t instanceof Variable v) {
      return runtime.apply("Load", Attrs.EMPTY, v)[0];
    }
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
    tape.foldConstants();
    return tape;
  }

  /**
   * Starts recording a trace on shapes alone ({@link Runtime#pushAbstract}): no kernel runs and no
   * variable changes until it is popped; {@code leaves} are the inputs.
   */
  public Tape tapePushAbstract(List<Object> leaves) {
    Tape tape = runtime.pushAbstract();
    tape.addLeaves(leaves.stream().map(Host::value).toList());
    tape.foldConstants();
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

  /** The serial number of the innermost active tape, 0 when none records. */
  public long tapeSerial() {
    Tape tape = runtime.innermostTape();
    return tape == null ? 0 : tape.serial();
  }

  /** How many calls the innermost active tape has recorded (one must be active). */
  public int tapeSize() {
    return runtime.innermostTape().size();
  }

  /** The calls {@code from} to {@code to} (exclusive) of the innermost active tape, as a tape. */
  public Tape tapeSlice(int from, int to) {
    return runtime.innermostTape().slice(from, to);
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

  /** Whether operator calls now trace on shapes alone (a compile-only call, a dry run). */
  public boolean onShapes() {
    return runtime.onShapes();
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
   * A semi/auto-parallel compile of the network {@code network} for this rank, before anything is
   * traced (see {@link ParallelCompile}). {@code args}: per tensor argument {@code [global shape,
   * split]} where {@code split} says whether the ranks hold slices of it along dimension 0 (the
   * {@code data_parallel} dataset strategy) or all of it ({@code full_batch}). {@code parameters}:
   * the network's parameters (whole). {@code trainable}: triples of name, {@code
   * Parameter.parallel_optimizer} and {@code Parameter.comm_fusion} of the trainable parameters in
   * order. {@code parameterPlan}: {@code Cell.shard}'s parameter strategies, alternating parameter
   * names and strategies. {@code loadFile}/{@code saveFile}: the absolute paths of the strategy
   * checkpoints to read before planning and write after it, empty for none. {@code
   * opLoadFile}/{@code opSaveFile}: {@code AutoParallel}'s operator strategy files, used with
   * {@code sharding_propagation} only.
   */
  public ParallelCompile parallelCompile(
      String network,
      List<List<Object>> args,
      List<Variable> parameters,
      List<Object> trainable,
      List<Object> parameterPlan,
      String loadFile,
      String saveFile,
      String opLoadFile,
      String opSaveFile) {
    AutoParallelContext ctx = session.autoParallelContext();
    ParallelSettings settings =
        ParallelSettings.of(
            ctx,
            session.costModel().asMap(),
            session.algoParameters().asMap(),
            session.comm().size());
    List<CompileRequest.ArgSpec> specs = new ArrayList<>();
    for (List<Object> a : args) {
      int[] shape = ((List<?>) a.get(0)).stream().mapToInt(d -> ((Number) d).intValue()).toArray();
      List<Integer> strategy =
          a.size() > 2
              ? ((List<?>) a.get(2)).stream().map(d -> ((Number) d).intValue()).toList()
              : List.of();
      specs.add(
          new CompileRequest.ArgSpec(Shape.of(shape), Boolean.TRUE.equals(a.get(1)), strategy));
    }
    Map<String, Variable> byName = new java.util.LinkedHashMap<>();
    List<CompileRequest.ParamSpec> params = new ArrayList<>();
    Map<String, TensorLayout> placedByName = new java.util.HashMap<>();
    for (Variable v : parameters) {
      byName.putIfAbsent(v.name(), v);
      params.add(new CompileRequest.ParamSpec(v.name(), v.type().shape(), v.type().dtype()));
      TensorLayout l = placed.get(v);
      if (l != null) {
        placedByName.put(v.name(), l);
      }
    }
    List<CompileRequest.Trainable> train = new ArrayList<>();
    for (int i = 0; i + 2 < trainable.size(); i += 3) {
      train.add(
          new CompileRequest.Trainable(
              (String) trainable.get(i),
              Boolean.TRUE.equals(trainable.get(i + 1)),
              ((Number) trainable.get(i + 2)).intValue()));
    }
    Map<String, List<Integer>> plan = new java.util.HashMap<>();
    for (int i = 0; i + 1 < parameterPlan.size(); i += 2) {
      plan.put(
          (String) parameterPlan.get(i),
          ((List<?>) parameterPlan.get(i + 1)).stream().map(v -> ((Number) v).intValue()).toList());
    }
    boolean propagation =
        settings.searches() && StrategySearch.SHARDING_PROPAGATION.equals(settings.searchMode());
    CompileRequest request =
        new CompileRequest(
            settings,
            network,
            specs,
            params,
            plan,
            train,
            placedByName,
            loadFile.isEmpty() ? null : StrategyFile.read(files.read(loadFile)),
            propagation && !opLoadFile.isEmpty()
                ? StrategyFile.readOperators(files.read(opLoadFile))
                : null);
    String key = request.key();
    int occurrence = compileClaims.merge(key, 1, Integer::sum) - 1;
    return new ParallelCompile(
        request,
        session.job().compiles().claim(key, occurrence),
        byName.size() == parameters.size() ? byName : null,
        saveFile,
        propagation ? opSaveFile : "");
  }

  /** How many times this rank claimed each compile key (see {@link CompileExchange#claim}). */
  private final Map<String, Integer> compileClaims = new java.util.HashMap<>();

  /**
   * One semi/auto-parallel compile on this rank. The ranks of a job sharing this JVM make it once:
   * the first to get here {@link #traceHere traces} the network on global shapes and {@link #plan
   * plans} it ({@link ParallelCompiler}); the others wait for that plan and {@link #shared lower}
   * it with their own parameters, without tracing. A rank traces and plans on its own when the
   * leading rank could not share (its trace failed, or its graph holds something of its own: a
   * collective bound to its communicator, a random stream).
   */
  public final class ParallelCompile {
    private final CompileRequest request;
    private final CompileExchange.Claim<SharedCompile> claim;
    private final Map<String, Variable> variables;
    private final String saveFile;
    private final String opSaveFile;
    private SharedCompile shared;

    ParallelCompile(
        CompileRequest request,
        CompileExchange.Claim<SharedCompile> claim,
        Map<String, Variable> variables,
        String saveFile,
        String opSaveFile) {
      this.request = request;
      this.claim = claim;
      this.variables = variables;
      this.saveFile = saveFile;
      this.opSaveFile = opSaveFile;
    }

    /**
     * Whether this rank traces the network: it leads, or the leader could not share. Otherwise
     * waits (up to the job's timeout) for the leader's plan.
     */
    public boolean traceHere() {
      if (claim.leads()) {
        return true;
      }
      shared =
          claim.await(session.job().timeout().toNanos(), () -> session.job().world().isAborted());
      if (shared != null && variables == null) {
        shared = null; // parameters sharing a name: this rank cannot rebind the graph by name
      }
      return shared == null;
    }

    /** The leader's template of the traced results, after {@link #traceHere} said false. */
    public String outputs() {
      return shared.outputs();
    }

    /**
     * Plans {@code traced} (this rank's trace, whose results {@code outputs} describes) and lowers
     * the plan for this rank; the leader shares the plan first.
     */
    public SpmdPartitioner.Result plan(Graph traced, String outputs) {
      ParallelPlan plan;
      try {
        plan = ParallelCompiler.plan(withOtherVariables(traced), traced);
      } catch (RuntimeException e) {
        abandon();
        throw e;
      }
      tracedCompiles++;
      lastPlan = plan;
      if (claim.leads()) {
        if (plan.shareable()) {
          claim.publish(new SharedCompile(plan, outputs));
        } else {
          claim.abandon();
        }
      }
      return lower(plan, null);
    }

    /** Lowers the leader's plan for this rank, after {@link #traceHere} said false. */
    public SpmdPartitioner.Result shared() {
      lastPlan = shared.plan();
      return lower(shared.plan(), variables);
    }

    private ParallelPlan lastPlan;

    /**
     * The planned calls' strategies ({@link ParallelPlan#operatorStrategies}), after {@link #plan}
     * or {@link #shared}: what {@code _cell_graph_executor._get_shard_strategy} returns.
     */
    public Map<String, List<List<Integer>>> operatorStrategies() {
      return lastPlan.operatorStrategies();
    }

    /** This rank leads but cannot trace (its trace raised): the others trace on their own. */
    public void abandon() {
      if (claim.leads()) {
        claim.abandon();
      }
    }

    /**
     * The request with the layouts earlier compiles gave the variables {@code traced} uses beyond
     * the network's parameters (a graph using them is not shared).
     */
    private CompileRequest withOtherVariables(Graph traced) {
      Map<String, TensorLayout> more = new java.util.HashMap<>(request.placed());
      for (Variable v : traced.variables()) {
        TensorLayout l = placed.get(v);
        if (l != null) {
          more.putIfAbsent(v.name(), l);
        }
      }
      if (more.size() == request.placed().size()) {
        return request;
      }
      return new CompileRequest(
          request.settings(),
          request.network(),
          request.args(),
          request.parameters(),
          request.parameterPlan(),
          request.trainable(),
          more,
          request.loaded(),
          request.loadedOperators());
    }

    private SpmdPartitioner.Result lower(ParallelPlan plan, Map<String, Variable> vars) {
      restoreSlices();
      ParallelSettings settings = plan.request().settings();
      Communicator job = session.comm();
      int n = settings.stageDevices();
      layoutComm = SubWorldCommunicator.of(job, job.rank() / n * n, n);
      lastSearch = plan.search();
      if (lastSearch != null && !opSaveFile.isEmpty()) {
        StrategyFile.writeOperators(files.write(opSaveFile), lastSearch.operatorStrategies());
      }
      int level = session.simulationLevel();
      // A dry run below level 3 runs no kernel: the variables keep their slices' types alone.
      ParallelPlan.RankProgram program = plan.lower(job, vars, level < 0 || level == 3);
      placed.putAll(program.sharded().variableLayouts());
      pieces.putAll(program.pieces());
      lastTimeline = program.timeline();
      lastPlanDigest = plan.digest();
      lastShared = new PipelineShared(plan.sharedParameterStages(), program.stage(), n, job.rank());
      if (!saveFile.isEmpty()) {
        strategySaves++;
        StrategyFile.write(
            files.write(saveFile),
            StrategyCheckpointPass.toSave(
                program.global(),
                program.sharded(),
                strategySaves,
                settings.onlyTrainable(),
                program.stage(),
                program.onStage()));
      }
      return program.program();
    }
  }

  /**
   * The layouts {@code program} gave its parameters by name, each as {@code [device matrix, tensor
   * map, slice shape, [pipeline_shared, is_send, peer_rank, sr_tag]]} (the first three and the last
   * four fields of {@code parameter_layout_dict}'s tuples, see {@link PipelineShared}). An
   * optimizer state ({@code "accum.w"}, {@code "moment1.w"}...) with its parameter's slices is laid
   * out as the parameter (MindSpore clones the parameter's layout; the update's own device matrix
   * may order the axes differently).
   */
  public Map<String, List<List<?>>> parameterLayouts(SpmdPartitioner.Result program) {
    Map<String, List<List<?>>> byName = new java.util.LinkedHashMap<>();
    program
        .variableLayouts()
        .forEach(
            (v, l) ->
                byName.put(
                    v.name(),
                    l.declared() == null
                        ? List.of(
                            l.deviceMatrix().shape(),
                            l.tensorMap(),
                            l.sliceShape().dims(),
                            lastShared.fields(v.name()))
                        : List.of(
                            l.declared().deviceMatrix(),
                            declaredMap(l.declared()),
                            l.sliceShape().dims(),
                            lastShared.fields(v.name()))));
    Map<String, List<List<?>>> out = new java.util.LinkedHashMap<>(byName);
    byName.forEach(
        (name, l) -> {
          String param = stateOwner(name, byName.keySet());
          List<List<?>> owner = param == null ? null : byName.get(param);
          if (owner != null && owner.get(2).equals(l.get(2))) {
            out.put(name, owner);
          }
        });
    return java.util.Collections.unmodifiableMap(out);
  }

  /**
   * {@code os.rename} / {@code os.replace} for the launcher's {@code _msjvm_main}: GraalPy 25.0.3's
   * own stop the interpreter with an internal error when the target is a directory (pytest's ranks
   * race to rename a new {@code .pytest_cache} into place). This is POSIX {@code rename(2)} through
   * the JDK's atomic move, so an empty target directory is replaced and a non-empty one refused: ""
   * when done, else the system's reason ({@code "Directory not empty"}), which the caller raises as
   * {@code OSError} with its errno. Paths are absolute, checked by the job's file policy.
   */
  public String rename(String source, String target) {
    java.nio.file.Path from = files.write(source);
    java.nio.file.Path to = files.write(target);
    try {
      java.nio.file.Files.move(from, to, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      return "";
    } catch (java.nio.file.NoSuchFileException e) {
      return "No such file or directory";
    } catch (java.nio.file.FileAlreadyExistsException e) {
      return "File exists";
    } catch (java.nio.file.AccessDeniedException e) {
      return "Permission denied";
    } catch (java.nio.file.AtomicMoveNotSupportedException e) {
      return "Invalid cross-device link";
    } catch (java.nio.file.FileSystemException e) {
      return e.getReason() == null ? "Input/output error" : e.getReason();
    } catch (java.io.IOException e) {
      return "Input/output error";
    }
  }

  /**
   * MindSpore's {@code _transform_tensor_by_layout(from_layout, to_layout, device_list, rank_id)}
   * (its checkpoint transform's planner): the ops {@code rank} runs to turn its slice under {@code
   * from} into its slice under {@code to}, each as {@code [name, args]} of MindSpore's tuples.
   */
  public List<List<Object>> transformTensorByLayout(
      List<List<Integer>> from, List<List<Integer>> to, List<Integer> deviceList, int rank) {
    return dev.msjvm.engine.parallel.TensorRedistribution.transformTensorByLayout(
            from, to, deviceList, rank)
        .ops()
        .stream()
        .<List<Object>>map(op -> List.of(op.name(), op.args()))
        .toList();
  }

  /** A declared tensor map as MindSpore reports it: one axis as an int, several as a list. */
  private static List<Object> declaredMap(TensorLayout.Declared declared) {
    return declared.tensorMap().stream()
        .<Object>map(axes -> axes.size() == 1 ? axes.get(0) : axes)
        .toList();
  }

  /**
   * The parameter whose optimizer state {@code name} is, or null: MindSpore names a state after its
   * parameter with a prefix ({@code "moments.w"}, {@code "accum.w"}, {@code "adam_m.w"}).
   */
  private static String stateOwner(String name, java.util.Set<String> names) {
    int dot = name.indexOf('.');
    return dot > 0 && names.contains(name.substring(dot + 1)) ? name.substring(dot + 1) : null;
  }

  /**
   * The digest of the last parallel plan this rank lowered ({@link ParallelPlan#digest}), or null.
   */
  public String planDigest() {
    return lastPlanDigest;
  }

  private String lastPlanDigest;

  /**
   * The pipeline-shared parameters of the last parallel compile (see {@link #parameterLayouts}).
   */
  private PipelineShared lastShared = new PipelineShared(Map.of(), 0, 1, 0);

  /**
   * The parameters several pipeline stages read ({@code stages}: name -> stage bits), seen from the
   * rank {@code rank} of stage {@code stage} ({@code stageDevices} ranks per stage).
   */
  private record PipelineShared(Map<String, Long> stages, int stage, int stageDevices, int rank) {
    /**
     * MindSpore's last four layout fields of parameter {@code name}: {@code [pipeline_shared,
     * is_send, peer_rank, sr_tag]} (flags as 0/1). The lowest stage reading it sends to the same
     * position in the highest, which receives; a stage in between receives too. The tag numbers the
     * shared parameters in graph order.
     */
    List<Integer> fields(String name) {
      Long mask = stages.get(name);
      if (mask == null || (mask & (1L << stage)) == 0) {
        return List.of(0, 0, 0, 0);
      }
      int first = Long.numberOfTrailingZeros(mask);
      int last = 63 - Long.numberOfLeadingZeros(mask);
      int tag = new java.util.ArrayList<>(stages.keySet()).indexOf(name);
      boolean send = stage == first;
      int peer = rank + ((send ? last : first) - stage) * stageDevices;
      return List.of(1, send ? 1 : 0, peer, tag);
    }
  }

  /** How many parallel compiles this rank traced and planned itself (the others it lowered). */
  public int tracedCompiles() {
    return tracedCompiles;
  }

  private int tracedCompiles;

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
   * compile cut to its slice shows its whole type to the trace, which reads only types. A real
   * variable's slice is kept aside and comes back before the plan is lowered ({@link
   * #restoreSlices}); the earlier layout stays the variable's, so nothing is gathered whole or cut
   * again. A dry run's variable holds only its slice's type and gets its whole type back. An
   * optimizer-parallel piece is gathered to its slice first (AllGather, in list order: every rank
   * passes the same parameters); the new compile cuts it again. Returns the names of the variables
   * held as slices (a broadcast before the compile must skip them).
   */
  public List<String> holdSlices(List<Variable> vars) {
    List<String> held = new ArrayList<>();
    for (Variable v : vars) {
      if (v.deferred()) {
        continue; // nothing filled yet: whole by definition
      }
      TensorLayout layout = placed.get(v);
      if (v.current().isAbstract()) {
        pieces.remove(v);
        if (layout != null) {
          v.set(Tensor.abstractOf(new AbstractTensor(layout.shape(), v.type().dtype())));
        }
        continue;
      }
      OptimizerShard.Piece piece = pieces.remove(v);
      if (piece != null
          && v.current().shape().dim(0) * piece.parts() == piece.sliceShape().dim(0)) {
        v.set(piece.gather(layoutComm, v.current()));
      }
      Tensor now = v.current();
      if (layout != null
          && !now.shape().equals(layout.shape())
          && now.shape().equals(layout.sliceShape())
          && !heldSlices.containsKey(v)) {
        heldSlices.put(v, now);
        v.set(Tensor.abstractOf(new AbstractTensor(layout.shape(), now.dtype())));
        held.add(v.name());
      }
    }
    return held;
  }

  /**
   * The slices {@link #holdSlices} kept aside go back into their variables (idempotent: the
   * compile's lowering calls it, and the shim again when a compile fails).
   */
  public void restoreSlices() {
    heldSlices.forEach(Variable::set);
    heldSlices.clear();
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

  /**
   * {@code graph}'s nodes as MindSpore's {@code get_parallel_graph_info} lists them ({@link
   * Graph#nodeInfo}), its arguments named {@code argNames}.
   */
  public List<List<Object>> graphInfo(Graph graph, List<Object> argNames) {
    return graph.nodeInfo(argNames.stream().map(String::valueOf).toList());
  }

  /** Replays {@code graph} on {@code args}. */
  public List<Tensor> runGraph(Graph graph, List<Object> args) {
    lastRun = graph;
    return replay(graph, args.stream().map(Host::value).toList());
  }

  /**
   * One replay of {@code graph}, counted in this rank's memory ({@link #memoryAllocated}); in a dry
   * run below level 3 no kernel runs: the results are zeros of the types a replay would give, the
   * memory counted is what a replay would hold ({@link Graph#dryRun}), and the first dry replay of
   * a graph leaves its report for {@link #dryRunMemory}.
   */
  private List<Tensor> replay(Graph graph, List<Tensor> args) {
    int level = session.simulationLevel();
    if (level < 0) {
      List<Tensor> out = graph.run(runtime, args);
      if (!runtime.recording()) {
        // Under a tape the graph's nodes ran as the trace's own steps: nothing replayed to count.
        count(graph, graph.memory(), false);
      }
      return out;
    }
    if (level == 3) {
      // This rank's kernels run on its own shapes; the collectives move nothing and are timed on
      // the simulated cluster's links instead.
      SimulatedCommunicator sim = (SimulatedCommunicator) session.comm();
      double comm0 = sim.seconds();
      long calls0 = sim.calls();
      long bytes0 = sim.bytes();
      long t0 = System.nanoTime();
      List<Tensor> out = graph.run(runtime, args);
      double compute = (System.nanoTime() - t0) / 1e9;
      double comm = sim.seconds() - comm0;
      Counted counted = count(graph, graph.memory(), false);
      if (dryCounted.add(graph)) {
        pendingMemory = counted;
      }
      pendingTime =
          List.of(
              sim.rank(),
              sim.size(),
              compute * 1e3,
              comm * 1e3,
              sim.calls() - calls0,
              sim.bytes() - bytes0,
              (compute + comm) * 1e3,
              sim.link().spec());
      return out;
    }
    Graph.DryRun dry = graph.dryRun(args.stream().map(Tensor::type).toList());
    Counted counted = count(graph, dry.memory(), true);
    if (dryCounted.add(graph)) {
      pendingMemory = counted;
    }
    List<Tensor> out = new ArrayList<>(dry.outputs().size());
    for (AbstractTensor t : dry.outputs()) {
      out.add(Tensor.zeros(t.dtype(), t.shape()));
    }
    return out;
  }

  /**
   * Adds one step's {@code memory} to this rank's counts ({@link #maxMemoryAllocated}) and returns
   * it for a report ({@link #report}).
   */
  private Counted count(Graph graph, Graph.Memory memory, boolean dry) {
    maxAllocated = Math.max(maxAllocated, memory.peak());
    allocated = memory.end();
    lastMemory = new Counted(graph, memory, dry, session.simulationLevel());
    return lastMemory;
  }

  /** One step's memory as counted, for {@link #report}. */
  private record Counted(Graph graph, Graph.Memory memory, boolean dry, int level) {}

  /**
   * {@code c} as a report: {@code [rank, rank size, level (-1 outside a dry run), parameter bytes,
   * optimizer state bytes, input bytes, bytes of computed values at the peak, peak bytes]} (rank 0
   * of 1 without {@code init()}). Variables split into parameters and optimizer states ({@link
   * #stateOwner}) by their stored sizes: a dry run's types, a replay's tensors.
   */
  private List<Object> report(Counted c) {
    java.util.Set<String> names = new java.util.HashSet<>(c.graph().variableNames());
    long states = 0;
    for (Variable v : c.graph().variables()) {
      if (stateOwner(v.name(), names) != null) {
        AbstractTensor t = c.dry() ? v.type() : v.current().type();
        states += t.shape().size() * t.dtype().itemSize();
      }
    }
    Graph.Memory m = c.memory();
    boolean joined = session.commInited();
    return List.of(
        joined ? session.comm().rank() : 0,
        joined ? session.comm().size() : 1,
        c.level(),
        Math.max(m.variables() - states, 0),
        states,
        m.inputs(),
        m.values(),
        m.peak());
  }

  /** Graphs a dry run has counted (weak: dropped networks go). */
  private final java.util.Set<Graph> dryCounted =
      java.util.Collections.newSetFromMap(new WeakHashMap<>());

  private Counted pendingMemory;
  private List<Object> pendingTime;
  private Counted lastMemory;
  private long allocated;
  private long maxAllocated;

  /**
   * The memory report of the last graph a dry run replayed for the first time ({@link #count}),
   * once (null after, or when none is pending). Every variable is counted at the size this rank
   * stores (slice or optimizer-parallel piece).
   */
  public List<Object> dryRunMemory() {
    Counted m = pendingMemory;
    pendingMemory = null;
    return m == null ? null : report(m);
  }

  /**
   * The time of the last step a level-3 dry run ran, once (null after, or when none is pending):
   * {@code [rank, rank size, compute ms (the kernels measured), communication ms (the collectives
   * timed on the link model), collectives called, bytes they would send, predicted step ms (their
   * sum: no overlap), the link model's spec]}.
   */
  public List<Object> dryRunTime() {
    List<Object> t = pendingTime;
    pendingTime = null;
    return t;
  }

  /** The memory report ({@link #count}) of the last step this rank ran or dry-ran, or null. */
  public List<Object> lastStepMemory() {
    return lastMemory == null ? null : report(lastMemory);
  }

  /**
   * Bytes this rank's tensors hold after its last step (variables, the step's inputs and results),
   * each storage once ({@code mindspore.runtime.memory_allocated}); a dry run counts what a replay
   * would hold.
   */
  public long memoryAllocated() {
    return allocated;
  }

  /**
   * The most bytes this rank held at once during any step since the start or the last {@link
   * #resetPeakMemory} ({@code mindspore.runtime.max_memory_allocated}).
   */
  public long maxMemoryAllocated() {
    return maxAllocated;
  }

  /** The peak starts again from what is held now ({@code reset_peak_memory_stats}). */
  public void resetPeakMemory() {
    maxAllocated = allocated;
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
      last = replay(graph, batch);
      lastRun = graph;
      done++;
    }
    return new SinkResult(done, last, null);
  }

  /**
   * The stream of an operator whose own seeds are set (DropoutGenMask's {@code Seed0}/{@code
   * Seed1}): the same for every instance with those seeds, as MindSpore's kernels seed their
   * generator from them alone.
   */
  public java.util.random.RandomGenerator seededStream(long seed) {
    return new java.util.SplittableRandom(seed * 0x9E3779B97F4A7C15L);
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

  /**
   * What a rank that exhausted the heap says: which rank, the heap its JVM's ranks share, and how
   * to give it more ({@code MSJVM_HEAP}, read by bin/mspython and bin/msrun; README, "Memory").
   */
  static String outOfMemory(dev.msjvm.engine.job.Rank rank, long maxHeapBytes) {
    int ranks = rank.job().localWorkerNum();
    long mib = maxHeapBytes / (1024 * 1024);
    long more = Math.max(2, (mib * 2 + 1023) / 1024);
    return "The engine ran out of memory in rank "
        + rank.rank()
        + ": the JVM heap "
        + (ranks == 1 ? "of this process" : "the " + ranks + " ranks of this process share")
        + " is at most "
        + mib
        + " MiB. Give it more with the environment variable MSJVM_HEAP (e.g. MSJVM_HEAP="
        + more
        + "g)"
        + (ranks == 1 ? "" : ", or run fewer ranks per process")
        + ".";
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
      return outOfMemory(session.rank(), java.lang.Runtime.getRuntime().maxMemory());
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
