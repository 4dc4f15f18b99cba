package dev.msjvm.engine.parallel;

import dev.msjvm.engine.ops.Attrs;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * How one operator call runs sharded: its strategy, the layout each input must have, the layout of
 * each output and, per output, whether the local results are partial (to be reduced over some
 * device axes before anyone reads them).
 *
 * <p>Example: MatMul {@code ((2, 4), (4, 1))} on 8 devices has device matrix {@code [2, 4, 1]},
 * inputs {@code x: map [2, 1]} and {@code w: map [1, 0]}, output {@code map [2, 0]} partial ({@link
 * Partial#SUM}) over device axis 1 (the 4 devices splitting the reduction dimension).
 *
 * @param strategy the strategy as MindSpore prints it, one list per input
 * @param inputs the layout each input must have when the operator runs
 * @param outputs the layout of each output once its partial sums (if any) are reduced
 * @param partial per output: the reduction still to do, or null
 */
public record NodeSharding(
    List<List<Integer>> strategy,
    List<TensorLayout> inputs,
    List<TensorLayout> outputs,
    List<Partial> partial,
    Localizer localizer,
    Lowerer lowerer) {

  public NodeSharding {
    strategy = List.copyOf(strategy);
    inputs = List.copyOf(inputs);
    outputs = List.copyOf(outputs);
    partial = Collections.unmodifiableList(new ArrayList<>(partial));
    if (partial.size() != outputs.size()) {
      throw new IllegalArgumentException("one partial entry per output");
    }
    localizer = localizer == null ? Localizer.SAME : localizer;
    lowerer = lowerer == null ? Lowerer.NONE : lowerer;
  }

  /** A sharding whose kernel needs no neighbour exchange. */
  public NodeSharding(
      List<List<Integer>> strategy,
      List<TensorLayout> inputs,
      List<TensorLayout> outputs,
      List<Partial> partial,
      Localizer localizer) {
    this(strategy, inputs, outputs, partial, localizer, Lowerer.NONE);
  }

  /** A sharding whose kernel runs with the call's own attributes on every rank. */
  public NodeSharding(
      List<List<Integer>> strategy,
      List<TensorLayout> inputs,
      List<TensorLayout> outputs,
      List<Partial> partial) {
    this(strategy, inputs, outputs, partial, Localizer.SAME, Lowerer.NONE);
  }

  /**
   * The attributes a rank's kernel runs with on its slices (e.g. the global batch size a loss
   * divides by, a Reshape's local shape); output-shape attributes are localised by the partitioner
   * in any case.
   */
  @FunctionalInterface
  public interface Localizer {
    Attrs local(Attrs attrs, int rank);

    Localizer SAME = (attrs, rank) -> attrs;
  }

  /**
   * How one rank runs the node besides its kernel on its slices (attributes without the group,
   * which the partitioner adds): {@code inputs} maps an input index to the halo exchange
   * (MindSpore's NeighborExchangeV2) its slice goes through before the kernel reads it; {@code
   * outputs} maps an output index to the exchange whose gradient turns the kernel's framed result
   * into the output's slice; {@code replacement}, when not null, is the communicating operator the
   * rank runs instead of the node's own (MindSpore's replace_op: SyncBatchNorm for a training
   * BatchNorm whose batch is split), over the ranks of its group.
   */
  public record Lowering(
      Map<Integer, Attrs> inputs, Map<Integer, Attrs> outputs, Replacement replacement) {
    public static final Lowering NONE = new Lowering(Map.of(), Map.of(), null);

    public Lowering {
      inputs = Map.copyOf(inputs);
      outputs = Map.copyOf(outputs);
    }

    /** Input {@code i} exchanged with {@code attrs}; NONE when {@code attrs} is null. */
    public static Lowering input(int i, Attrs attrs) {
      return attrs == null ? NONE : new Lowering(Map.of(i, attrs), Map.of(), null);
    }

    /** Output {@code o} framed by the exchange {@code attrs}; NONE when {@code attrs} is null. */
    public static Lowering output(int o, Attrs attrs) {
      return attrs == null ? NONE : new Lowering(Map.of(), Map.of(o, attrs), null);
    }

    /** The node run as the communicating operator {@code op} over {@code group} (world ranks). */
    public static Lowering replaced(String op, List<Integer> group) {
      return new Lowering(Map.of(), Map.of(), new Replacement(op, group));
    }
  }

  /**
   * A communicating operator (made for the rank's communicator by name: {@code
   * CollectiveOps.named}) run with the node's attributes plus {@code group}, the world ranks it
   * combines values with.
   */
  public record Replacement(String op, List<Integer> group) {
    public Replacement {
      group = List.copyOf(group);
    }
  }

  /** The lowering of a node on each rank. */
  @FunctionalInterface
  public interface Lowerer {
    Lowering at(int rank);

    Lowerer NONE = rank -> Lowering.NONE;
  }

  /**
   * Local results still to be reduced over the devices that differ only along {@code deviceAxes}
   * (indices into {@code devices}, counted from the left; null {@code devices}: the output layout's
   * device matrix): {@code "sum"}, {@code "max"}, {@code "min"}, or {@code "mean"} (sum, then
   * divided by the number of those devices). {@code scatterDim} is -1 for an AllReduce, or the
   * output dimension a ReduceScatter splits among the group (the local result then has that
   * dimension group-size times larger than the output layout's slice).
   */
  public record Partial(
      List<Integer> deviceAxes, String reduce, int scatterDim, DeviceMatrix devices) {
    public static final String SUM = "sum";
    public static final String MEAN = "mean";

    public Partial {
      deviceAxes = List.copyOf(deviceAxes);
    }

    /** An AllReduce over the output layout's device axes {@code deviceAxes}. */
    public Partial(List<Integer> deviceAxes, String reduce) {
      this(deviceAxes, reduce, -1, null);
    }

    public boolean reduceScatter() {
      return scatterDim >= 0;
    }

    /** The ranks combining their partial results with {@code rank}, in group-rank order. */
    public List<Integer> group(DeviceMatrix outputDevices, int rank) {
      return (devices == null ? outputDevices : devices).devicesVaryingOnly(rank, deviceAxes);
    }
  }
}
