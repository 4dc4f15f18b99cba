package dev.msjvm.engine.context;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small named store with fixed defaults: the Java side of {@code set_context}, {@code
 * set_algo_parameters} and the cost-model context.
 *
 * <p>The Python shim checks arguments as MindSpore does, then stores them here, so the engine reads
 * the same values the script set. Names outside the defaults are refused. Example: {@code
 * Settings.of(Map.of("mode", 1L))} then {@code set("mode", 0)} makes {@code get("mode")} answer
 * {@code 0L}; {@code reset()} brings back {@code 1L}.
 */
public final class Settings {
  private final Map<String, Object> defaults;
  private final Map<String, Object> values = new LinkedHashMap<>();

  private Settings(Map<String, Object> defaults) {
    this.defaults = defaults;
    reset();
  }

  /** A store whose defaults are {@code defaults}, kept in their iteration order. */
  public static Settings of(Map<String, ?> defaults) {
    Map<String, Object> copy = new LinkedHashMap<>();
    defaults.forEach((k, v) -> copy.put(k, Values.normalize(v)));
    return new Settings(copy);
  }

  public void reset() {
    values.clear();
    values.putAll(defaults);
  }

  public boolean has(String name) {
    return defaults.containsKey(name);
  }

  public void set(String name, Object value) {
    check(name);
    values.put(name, Values.like(defaults.get(name), value));
  }

  public Object get(String name) {
    check(name);
    return values.get(name);
  }

  public List<String> names() {
    return List.copyOf(defaults.keySet());
  }

  /** The current values, by name (a copy). */
  public Map<String, Object> asMap() {
    return new LinkedHashMap<>(values);
  }

  private void check(String name) {
    if (!defaults.containsKey(name)) {
      throw new IllegalArgumentException("unknown setting " + name);
    }
  }

  /** The defaults of MindSpore's {@code set_context} keys that the shim supports (CPU wheel). */
  public static Settings runContext() {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("mode", 1L); // PYNATIVE_MODE, the default since MindSpore 2.0
    d.put("device_target", "CPU");
    d.put("device_id", 0L);
    d.put("max_device_memory", 1024.0);
    d.put("variable_memory_max_size", "0");
    d.put("mempool_block_size", 1.0);
    d.put("memory_optimize_level", 0L);
    d.put("save_graphs", 0L);
    d.put("save_graphs_path", ".");
    d.put("jit_level", "");
    d.put("jit_syntax_level", 2L);
    d.put("max_call_depth", 1000L);
    d.put("deterministic", "OFF");
    d.put("enable_graph_kernel", false);
    d.put("graph_kernel_flags", "");
    d.put("pynative_synchronize", false);
    d.put("runtime_num_threads", 2L);
    d.put("inter_op_parallel_num", 0L);
    d.put("print_file_path", "");
    d.put("enable_reduce_precision", true);
    d.put("check_bprop", false);
    d.put("enable_compile_cache", null);
    d.put("compile_cache_path", "");
    d.put("debug_level", 0L);
    d.put("ascend_config", Map.of());
    d.put("gpu_config", Map.of());
    d.put("jit_config", Map.of());
    return of(d);
  }

  /** Defaults of {@code mindspore.runtime.set_memory} (sizes in GB). */
  public static Settings runtimeMemory() {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("configured", false);
    d.put("init_size", 2.0);
    d.put("increase_size", 2.0);
    d.put("max_size", 1024.0);
    d.put("optimize_level", 0L);
    d.put("huge_page_reserve_size", 0.0);
    return of(d);
  }

  /** Defaults of {@code set_algo_parameters} ({@code algo_parameter_config.py}). */
  public static Settings algoParameters() {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("fully_use_devices", false);
    d.put("elementwise_op_strategy_follow", false);
    d.put("tensor_slice_align_enable", false);
    d.put("tensor_slice_align_size", 16L);
    d.put("enable_algo_approxi", false);
    // C++ keeps epsilon as a float: 0.1f reads back as 0.10000000149011612.
    d.put("algo_approxi_epsilon", (double) 0.1f);
    return of(d);
  }

  /** Defaults of the cost-model context ({@code FP/costmodel_context.cc}, CPU/GPU values). */
  public static Settings costModel() {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("device_memory_capacity", 17179869184.0);
    d.put("costmodel_alpha", 1.0);
    d.put("costmodel_beta", 400.0);
    d.put("costmodel_gamma", (double) 0.001f); // a C++ float, like epsilon
    d.put("costmodel_communi_threshold", 2048.0);
    d.put("costmodel_communi_const", 3072.0);
    d.put("costmodel_communi_bias", 1024.0);
    d.put("costmodel_allreduce_fusion_algorithm", 0L);
    d.put("costmodel_allreduce_fusion_times", 0L);
    d.put("costmodel_allreduce_fusion_tail_percent", 0.1);
    d.put("costmodel_allreduce_fusion_tail_time", 0.1);
    d.put("costmodel_allreduce_fusion_allreduce_inherent_time", 0.1);
    d.put("costmodel_allreduce_fusion_allreduce_bandwidth", 0.1);
    d.put("costmodel_allreduce_fusion_computation_time_parameter", 0.1);
    d.put("rp_matmul_mem_coef", 0.1);
    d.put("simplify_cal", true);
    d.put("triangle_star_strategy_overwrite", true);
    d.put("run_phase", 0L);
    // One suite of operator infos for a for-loop's body; msjvm traces loops unrolled, so the plan
    // does not depend on it.
    d.put("dp_algo_single_loop", true);
    return of(d);
  }
}
