package dev.msjvm.engine.job;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.comm.Communicator;
import dev.msjvm.engine.comm.SimulatedCommunicator;
import dev.msjvm.engine.context.AutoParallelContext;
import dev.msjvm.engine.context.Settings;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Everything MindSpore keeps as process-global state, held once per Python interpreter (one rank).
 *
 * <p>MindSpore's "global" contexts are global per process; here many ranks and jobs share one JVM,
 * so each interpreter gets its own Session and nothing lives in statics. Example: two ranks of one
 * job each call {@code set_auto_parallel_context(device_num=8)} on their own Session.
 */
public final class Session {
  private final Rank rank;
  private final AutoParallelContext autoParallel = new AutoParallelContext();
  private final Settings runContext = Settings.runContext();
  private final Settings algoParameters = Settings.algoParameters();
  private final Settings costModel = Settings.costModel();
  private final Settings runtimeMemory = Settings.runtimeMemory();
  private Long seed;
  private Communicator comm;

  public Session(Rank rank) {
    this.rank = Objects.requireNonNull(rank);
  }

  public Rank rank() {
    return rank;
  }

  public Job job() {
    return rank.job();
  }

  /** The store behind {@code set_auto_parallel_context}. */
  public AutoParallelContext autoParallelContext() {
    return autoParallel;
  }

  /** The store behind {@code set_context}. */
  public Settings runContext() {
    return runContext;
  }

  /** The store behind {@code set_algo_parameters}. */
  public Settings algoParameters() {
    return algoParameters;
  }

  /** The store behind the cost-model context. */
  public Settings costModel() {
    return costModel;
  }

  /** The store behind {@code mindspore.runtime.set_memory}. */
  public Settings runtimeMemory() {
    return runtimeMemory;
  }

  /** The global seed of {@code set_seed}, or null when none was set. */
  public Long seed() {
    return seed;
  }

  public void setSeed(Long seed) {
    this.seed = seed;
  }

  /**
   * Joins the job's communicator ({@code init()}); {@code worldGroup} names the backend's world.
   */
  public void commInit(String worldGroup) {
    Communicator c = job().world().communicator(rank.rank());
    c.groupRanks(worldGroup); // fails for an unknown world name before anything is recorded
    comm = c;
  }

  /**
   * Joins a simulated cluster instead ({@code init()} under MindSpore's {@code
   * MS_SIMULATION_LEVEL}): rank {@code rank} of {@code size}, with a communicator that moves
   * nothing ({@link SimulatedCommunicator}); {@code level} is the simulation level (0 to 3).
   */
  public void commSimulate(String worldGroup, int level, int size, int rank) {
    commSimulate(worldGroup, level, size, rank, null);
  }

  /**
   * {@link #commSimulate(String, int, int, int)} on links {@code link} describes ({@link
   * dev.msjvm.engine.comm.LinkModel#parse}: null for the in-JVM communicator's), which time the
   * collectives a level-3 dry run predicts a step with.
   */
  public void commSimulate(String worldGroup, int level, int size, int rank, String link) {
    if (level < 0 || level > 3) {
      throw MsException.valueError(
          "The simulation level MS_SIMULATION_LEVEL must be 0, 1, 2 or 3, but got " + level);
    }
    if (size < 1 || rank < 0 || rank >= size) {
      throw MsException.valueError(
          "For a dry run RANK_ID must be in [0, RANK_SIZE), but got RANK_ID "
              + rank
              + " and RANK_SIZE "
              + size);
    }
    List<String> aliases = new ArrayList<>(WORLD_GROUPS);
    aliases.remove(worldGroup);
    comm =
        SimulatedCommunicator.of(
            size,
            rank,
            dev.msjvm.engine.comm.LinkModel.parse(link),
            worldGroup,
            aliases.toArray(new String[0]));
    simulationLevel = level;
  }

  /** The world group names a backend may init with. */
  private static final List<String> WORLD_GROUPS =
      List.of("hccl_world_group", "nccl_world_group", "mccl_world_group");

  /** The simulation level of a dry run ({@link #commSimulate}), or -1 when the ranks are real. */
  public int simulationLevel() {
    return simulationLevel;
  }

  private int simulationLevel = -1;

  /** Leaves the communicator ({@code release()}). */
  public void commRelease() {
    comm = null;
    simulationLevel = -1;
  }

  /** Whether this rank has joined a communicator ({@code init()}, real or simulated). */
  public boolean commInited() {
    return comm != null;
  }

  /** This rank's communicator; only after {@link #commInit}. */
  public Communicator comm() {
    if (comm == null) {
      throw notInited();
    }
    return comm;
  }

  private static MsException notInited() {
    return MsException.runtimeError(
        "Distributed Communication has not been inited."
            + "You can't invoke this interface yet. Please call `init()` method first.");
  }

  /**
   * Stands for the communicator before {@code init()}: every operation is the not-inited error. A
   * communication operator made before {@code init()} binds to it, so a graph holding one compiles
   * on shapes (MindSpore's compile-only tests do that); running it needs {@code init()}.
   */
  private static final Communicator UNJOINED =
      (Communicator)
          java.lang.reflect.Proxy.newProxyInstance(
              Communicator.class.getClassLoader(),
              new Class<?>[] {Communicator.class},
              (proxy, method, args) ->
                  switch (method.getName()) {
                    case "toString" -> "the communicator before init()";
                    case "hashCode" -> 0;
                    case "equals" -> proxy == args[0];
                    default -> throw notInited();
                  });

  /** This rank's communicator, or before {@code init()} one whose every operation fails so. */
  public Communicator commOrUnjoined() {
    return comm != null ? comm : UNJOINED;
  }

  /** This rank's index among the members of {@code group} that run on its node. */
  public int localRank(String group) {
    int perNode = devicesPerNode();
    int me = comm().rank();
    int node = me / perNode;
    int index = 0;
    for (int r : comm().groupRanks(group)) {
      if (r == me) {
        return index;
      }
      if (r / perNode == node) {
        index++;
      }
    }
    throw MsException.valueError("rank " + me + " is not a member of group " + group);
  }

  /** How many members of {@code group} run on this rank's node. */
  public int localGroupSize(String group) {
    int perNode = devicesPerNode();
    int node = comm().rank() / perNode;
    int count = 0;
    for (int r : comm().groupRanks(group)) {
      if (r / perNode == node) {
        count++;
      }
    }
    return count;
  }

  /**
   * The ranks per node: the job's local workers, or in a dry run 8 (a simulated cluster's nodes
   * hold 8 devices, as MindSpore's dry run counts local ranks).
   */
  private int devicesPerNode() {
    return simulationLevel >= 0 ? Math.min(8, comm().size()) : job().localWorkerNum();
  }
}
