package dev.msjvm.engine.exec;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.context.AutoParallelContext;
import dev.msjvm.engine.parallel.search.CostModel;
import dev.msjvm.engine.parallel.search.StrategySearch;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The settings a parallel compile reads, frozen when it starts: what {@code
 * set_auto_parallel_context}, the cost-model context and {@code set_algo_parameters} said, and the
 * job's size. A compile depends on nothing else of the interpreter, so the same settings and the
 * same traced graph give the same plan in any rank or process ({@link ParallelCompiler}).
 *
 * <p>Example: {@code ParallelSettings.of(ctx, costModel, algo, 8).stageDevices()} is 8 without
 * pipeline stages, 4 with {@code pipeline_stages=2}.
 *
 * @param ranks the ranks of the job
 * @param stages {@code pipeline_stages} (1 without)
 * @param optimizer {@code enable_parallel_optimizer}'s settings, or null when it is off
 * @param onlyTrainable {@code stra_file_only_trainable_params}
 * @param costModel the cost-model context and {@code enable_alltoall}, as the search reads them
 * @param costModelValues the values {@code costModel} was made of, for {@link #describe}
 */
public record ParallelSettings(
    String parallelMode,
    String searchMode,
    int ranks,
    int stages,
    boolean allToAll,
    OptimizerShard.Config optimizer,
    boolean onlyTrainable,
    String pipelineScheduler,
    boolean pipelineResultBroadcast,
    CommFusion.Config fusion,
    CostModel costModel,
    Map<String, Object> costModelValues) {

  /** The {@code search_mode}s the engine searches with in {@code auto_parallel}. */
  private static final List<String> SEARCHED =
      List.of(
          StrategySearch.SHARDING_PROPAGATION,
          StrategySearch.DYNAMIC_PROGRAMMING,
          StrategySearch.RECURSIVE_PROGRAMMING);

  public ParallelSettings {
    if (ranks % stages != 0) {
      throw MsException.runtimeError(
          "The device_num " + ranks + " must be divisible by the pipeline_stages " + stages);
    }
    costModelValues = Collections.unmodifiableMap(new TreeMap<>(costModelValues));
  }

  /**
   * The settings of {@code ctx} with the cost-model context {@code costModel} and the algorithm
   * parameters {@code algo} ({@code Settings.asMap()} of each), for a job of {@code ranks} ranks.
   */
  public static ParallelSettings of(
      AutoParallelContext ctx, Map<String, Object> costModel, Map<String, Object> algo, int ranks) {
    boolean allToAll = Boolean.TRUE.equals(ctx.get("enable_alltoall"));
    OptimizerShard.Config optimizer = null;
    if (Boolean.TRUE.equals(ctx.get("enable_parallel_optimizer"))) {
      long thresholdKb = ((Number) ctx.get("parallel_optimizer_threshold")).longValue();
      optimizer =
          new OptimizerShard.Config(
              // MindSpore: -1 means the default of 64 KB.
              (thresholdKb < 0 ? 64 : thresholdKb) * 1024,
              (int) ((Number) ctx.get("optimizer_weight_shard_size")).longValue(),
              Boolean.TRUE.equals(ctx.get("zero3")));
    }
    Map<String, Object> values = new TreeMap<>();
    costModel.forEach((k, v) -> values.put("cost_model." + k, v));
    algo.forEach((k, v) -> values.put("algo." + k, v));
    return new ParallelSettings(
        ctx.parallelMode(),
        ctx.searchMode(),
        ranks,
        (int) Math.max(1, ctx.pipelineStages()),
        allToAll,
        optimizer,
        !Boolean.FALSE.equals(ctx.get("stra_file_only_trainable_params")),
        String.valueOf(ctx.get("pipeline_scheduler")),
        Boolean.TRUE.equals(ctx.get("pipeline_result_broadcast")),
        fusionConfig(ctx),
        CostModel.of(costModel, algo, allToAll),
        values);
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
        List.copyOf(indices),
        Boolean.TRUE.equals(ctx.get("enable_all_gather_fusion")),
        ((Number) ctx.get("allgather_fusion_threshold_mb")).longValue(),
        Boolean.TRUE.equals(ctx.get("enable_reduce_scatter_fusion")),
        ((Number) ctx.get("reducescatter_fusion_threshold_mb")).longValue(),
        Boolean.TRUE.equals(ctx.get("enable_parallel_optimizer")));
  }

  /** The devices of one pipeline stage: every strategy and layout is relative to them. */
  public int stageDevices() {
    return ranks / stages;
  }

  /** Whether the compile searches strategies ({@code auto_parallel} with a mode implemented). */
  public boolean searches() {
    return "auto_parallel".equals(parallelMode) && SEARCHED.contains(searchMode);
  }

  /** The settings as canonical text (part of a plan's description). */
  public String describe() {
    return "parallel_mode="
        + parallelMode
        + " search_mode="
        + searchMode
        + " ranks="
        + ranks
        + " pipeline_stages="
        + stages
        + " enable_alltoall="
        + allToAll
        + " optimizer="
        + optimizer
        + " stra_file_only_trainable_params="
        + onlyTrainable
        + " pipeline_scheduler="
        + pipelineScheduler
        + " pipeline_result_broadcast="
        + pipelineResultBroadcast
        + " fusion="
        + fusion
        + " "
        + costModelValues;
  }
}
