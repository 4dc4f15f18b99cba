package dev.msjvm.engine.parallel.search;

import java.util.Map;

/**
 * The parameters of the strategy search: MindSpore's cost-model context ({@code
 * costmodel_context.h}: α, β, γ, the communication threshold/constant/bias, the device memory
 * capacity, SAPP's {@code rp_matmul_mem_coef}) and the algorithm parameters of {@code
 * set_algo_parameters}.
 *
 * <p>{@link #refine} is MindSpore's {@code RefineForPracticalCost} for one communication amount: a
 * message up to the threshold costs the constant (latency dominates), a larger one its size plus
 * the bias.
 */
public record CostModel(
    double alpha,
    double beta,
    double gamma,
    double communiThreshold,
    double communiConst,
    double communiBias,
    double deviceMemoryCapacity,
    boolean fullyUseDevices,
    boolean elementwiseOpStrategyFollow,
    boolean enableAlgoApproxi,
    double algoApproxiEpsilon,
    boolean enableAllToAll,
    double rpMatmulMemCoef) {

  /** MindSpore's defaults (β as for Ascend). */
  public static CostModel defaults() {
    return new CostModel(
        1.0,
        400.0,
        0.001,
        2048,
        3072,
        1024,
        16.0 * 1024 * 1024 * 1024,
        false,
        false,
        false,
        0.1,
        false,
        0.1);
  }

  /**
   * The model of a session's settings: {@code costModel} holds the cost-model context's keys
   * ({@code costmodel_alpha}...), {@code algo} the algorithm parameters; missing keys keep their
   * defaults.
   */
  public static CostModel of(
      Map<String, Object> costModel, Map<String, Object> algo, boolean enableAllToAll) {
    CostModel d = defaults();
    return new CostModel(
        num(costModel, "costmodel_alpha", d.alpha),
        num(costModel, "costmodel_beta", d.beta),
        num(costModel, "costmodel_gamma", d.gamma),
        num(costModel, "costmodel_communi_threshold", d.communiThreshold),
        num(costModel, "costmodel_communi_const", d.communiConst),
        num(costModel, "costmodel_communi_bias", d.communiBias),
        num(costModel, "device_memory_capacity", d.deviceMemoryCapacity),
        flag(algo, "fully_use_devices", d.fullyUseDevices),
        flag(algo, "elementwise_op_strategy_follow", d.elementwiseOpStrategyFollow),
        flag(algo, "enable_algo_approxi", d.enableAlgoApproxi),
        num(algo, "algo_approxi_epsilon", d.algoApproxiEpsilon),
        enableAllToAll,
        num(costModel, "rp_matmul_mem_coef", d.rpMatmulMemCoef));
  }

  private static double num(Map<String, Object> m, String key, double fallback) {
    return m.get(key) instanceof Number n ? n.doubleValue() : fallback;
  }

  private static boolean flag(Map<String, Object> m, String key, boolean fallback) {
    return m.get(key) instanceof Boolean b ? b : fallback;
  }

  /** {@code RefineForPracticalCost} of one communication amount in bytes. */
  public double refine(double bytes) {
    if (bytes <= 0) {
      return 0;
    }
    return bytes <= communiThreshold ? communiConst : bytes + communiBias;
  }
}
