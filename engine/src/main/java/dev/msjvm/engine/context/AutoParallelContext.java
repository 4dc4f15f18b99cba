package dev.msjvm.engine.context;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The parallel settings of one interpreter: the store behind {@code set_auto_parallel_context}.
 *
 * <p>Plays the part of MindSpore's C++ {@code ParallelContext} ({@code
 * mindspore/ccsrc/utils/parallel_context.cc}): the Python shim does MindSpore's Python-side
 * argument checks and then stores values here; this class keeps the C++-side rules (which names are
 * valid modes, which flags a setter also marks as "set", the defaults of {@code Reset()}). One
 * instance per {@link dev.msjvm.engine.job.Session}, never shared between ranks. Example: {@code
 * setParallelMode("semi_auto_parallel")} returns true and {@code parallelMode()} then answers it;
 * {@code setParallelMode("x")} returns false and changes nothing.
 */
public final class AutoParallelContext {

  /** Valid parallel modes ({@code kParallelModeList}). */
  public static final List<String> PARALLEL_MODES =
      List.of(
          "stand_alone", "data_parallel", "hybrid_parallel", "semi_auto_parallel", "auto_parallel");

  /** Valid strategy search modes. */
  public static final List<String> SEARCH_MODES =
      List.of("recursive_programming", "dynamic_programming", "sharding_propagation");

  /** Valid communication parallel modes ({@code kCommunicationParallelModeList}). */
  public static final List<String> COMMUNI_PARALLEL_MODES =
      List.of("all_group_parallel", "same_server_group_parallel", "no_group_parallel");

  /** Pipeline schedulers MindSpore knows. */
  public static final List<String> PIPELINE_SCHEDULERS =
      List.of("1f1b", "gpipe", "seqpipe", "seqvpp", "seqsmartvpp");

  /**
   * Defaults after {@code Reset()}. Where the seed documents state a value they win over MindSpore
   * master: the default search mode is {@code dynamic_programming} (the set_auto_parallel_context
   * reference), where master has {@code recursive_programming}.
   */
  private static final Map<String, Object> DEFAULTS = defaults();

  private static Map<String, Object> defaults() {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("device_num", 1L);
    d.put("device_num_is_set", false);
    d.put("global_rank", 0L);
    d.put("global_rank_is_set", false);
    d.put("gradients_mean", false);
    d.put("gradient_fp32_sync", true);
    d.put("loss_repeated_mean", true);
    d.put("parallel_mode", "stand_alone");
    d.put("strategy_search_mode", "dynamic_programming");
    d.put("sharding_propagation", false);
    d.put("parameter_broadcast", false);
    d.put("parameter_broadcast_is_set", false);
    d.put("strategy_ckpt_load_file", "");
    d.put("strategy_ckpt_save_file", "");
    d.put("stra_file_only_trainable_params", true);
    d.put("group_ckpt_save_file", "");
    d.put("full_batch", false);
    d.put("full_batch_is_set", false);
    d.put("dataset_strategy", List.of());
    d.put("enable_parallel_optimizer", false);
    d.put("force_fp32_communication", false);
    d.put("grad_accumulation_shard", false);
    d.put("parallel_optimizer_threshold", -1L);
    d.put("optimizer_weight_shard_size", -1L);
    d.put("optimizer_weight_shard_aggregated_save", false);
    d.put("zero3", false);
    d.put("enable_alltoall", false);
    d.put("enable_all_reduce_fusion", false);
    d.put("enable_all_gather_fusion", false);
    d.put("enable_reduce_scatter_fusion", false);
    d.put("fusion_threshold_mb", 64L);
    d.put("allgather_fusion_threshold_mb", 64L);
    d.put("reducescatter_fusion_threshold_mb", 64L);
    d.put("fusion_mode", "auto");
    d.put("pipeline_stage_split_num", 1L);
    d.put("pipeline_segment_split_num", 1L);
    d.put("auto_pipeline", false);
    d.put("pipeline_result_broadcast", false);
    d.put("pipeline_interleave", false);
    d.put("pipeline_scheduler", "1f1b");
    d.put("grad_accumulation_step", 1L);
    d.put("communi_parallel_mode", "all_group_parallel");
    d.put("dump_local_norm", false);
    d.put("dump_local_norm_path", "");
    d.put("dump_device_local_norm", false);
    d.put("auto_parallel_new_interface", false);
    d.put("init_param_in_compile", true);
    d.put("hccl_test_available", false);
    return Map.copyOf(d);
  }

  /** Setters whose value also marks a "<name>_is_set" flag, as the C++ setters do. */
  private static final Set<String> MARKS_IS_SET =
      Set.of("device_num", "global_rank", "parameter_broadcast", "full_batch");

  private final Map<String, Object> values = new LinkedHashMap<>();
  private final Map<String, List<Long>> allReduceFusionSplitIndices = new LinkedHashMap<>();
  private final Map<String, List<Long>> allReduceFusionSplitSizes = new LinkedHashMap<>();

  public AutoParallelContext() {
    reset();
  }

  /** Restores every default ({@code ParallelContext::Reset}). */
  public void reset() {
    values.clear();
    values.putAll(DEFAULTS);
    allReduceFusionSplitIndices.clear();
    allReduceFusionSplitSizes.clear();
  }

  /** Names of all stored values, in a fixed order. */
  public List<String> names() {
    return List.copyOf(DEFAULTS.keySet());
  }

  /**
   * Stores one value by its C++ name after the Python-side checks ran.
   *
   * @throws IllegalArgumentException for a name this store does not know (a shim bug, not user
   *     input)
   */
  public void set(String name, Object value) {
    Object def = DEFAULTS.get(name);
    if (def == null) {
      throw new IllegalArgumentException("unknown parallel context value " + name);
    }
    values.put(name, Values.like(def, value));
    if (MARKS_IS_SET.contains(name)) {
      values.put(name + "_is_set", true);
    }
    if (name.equals("fusion_threshold_mb")) {
      values.put("enable_all_reduce_fusion", true);
    } else if (name.equals("allgather_fusion_threshold_mb")) {
      values.put("enable_all_gather_fusion", true);
    } else if (name.equals("reducescatter_fusion_threshold_mb")) {
      values.put("enable_reduce_scatter_fusion", true);
    }
  }

  /** The stored value of a C++ name (immutable Java data: Boolean, Long, Double, String, List). */
  public Object get(String name) {
    if (!values.containsKey(name)) {
      throw new IllegalArgumentException("unknown parallel context value " + name);
    }
    return values.get(name);
  }

  /** Sets the mode if it is one of {@link #PARALLEL_MODES}; false (and no change) otherwise. */
  public boolean setParallelMode(String mode) {
    return setIfValid("parallel_mode", mode, PARALLEL_MODES);
  }

  /** Sets the search mode if valid; false (and no change) otherwise. */
  public boolean setStrategySearchMode(String mode) {
    return setIfValid("strategy_search_mode", mode, SEARCH_MODES);
  }

  /** Sets the communication parallel mode if valid; false (and no change) otherwise. */
  public boolean setCommuniParallelMode(String mode) {
    return setIfValid("communi_parallel_mode", mode, COMMUNI_PARALLEL_MODES);
  }

  private boolean setIfValid(String name, String value, List<String> valid) {
    if (!valid.contains(value)) {
      return false;
    }
    values.put(name, value);
    return true;
  }

  /** Records all-reduce fusion split indices for a group and turns all-reduce fusion on. */
  public void setAllReduceFusionSplitIndices(List<?> indices, String group) {
    allReduceFusionSplitIndices.put(group, Values.longList(indices));
    values.put("enable_all_reduce_fusion", true);
  }

  public List<Long> allReduceFusionSplitIndices(String group) {
    return allReduceFusionSplitIndices.getOrDefault(group, List.of());
  }

  /** Records all-reduce fusion split sizes for a group and turns all-reduce fusion on. */
  public void setAllReduceFusionSplitSizes(List<?> sizes, String group) {
    allReduceFusionSplitSizes.put(group, Values.longList(sizes));
    values.put("enable_all_reduce_fusion", true);
  }

  public List<Long> allReduceFusionSplitSizes(String group) {
    return allReduceFusionSplitSizes.getOrDefault(group, List.of());
  }

  // Typed views used by the engine.

  public String parallelMode() {
    return (String) values.get("parallel_mode");
  }

  public String searchMode() {
    return Boolean.TRUE.equals(values.get("sharding_propagation"))
        ? "sharding_propagation"
        : (String) values.get("strategy_search_mode");
  }

  public long deviceNum() {
    return (Long) values.get("device_num");
  }

  public boolean deviceNumIsSet() {
    return (Boolean) values.get("device_num_is_set");
  }

  public long globalRank() {
    return (Long) values.get("global_rank");
  }

  public boolean gradientsMean() {
    return (Boolean) values.get("gradients_mean");
  }

  public long pipelineStages() {
    return (Long) values.get("pipeline_stage_split_num");
  }

  public boolean fullBatch() {
    return (Boolean) values.get("full_batch");
  }

  /** A snapshot of every stored value, for plan reports and debugging. */
  public Map<String, Object> snapshot() {
    Map<String, Object> copy = new LinkedHashMap<>(values);
    copy.put("all_reduce_fusion_split_indices", new LinkedHashMap<>(allReduceFusionSplitIndices));
    copy.put("all_reduce_fusion_split_sizes", new LinkedHashMap<>(allReduceFusionSplitSizes));
    return copy;
  }
}
