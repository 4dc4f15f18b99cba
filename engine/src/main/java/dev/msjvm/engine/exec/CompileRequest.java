package dev.msjvm.engine.exec;

import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.parallel.StrategyFile;
import dev.msjvm.engine.parallel.TensorLayout;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything a parallel compile of one network depends on besides its traced graph, frozen: the
 * settings, the network's arguments and parameters, the strategies the user gave outside the
 * operators, the layouts earlier compiles gave parameters and the strategy files to read. Every
 * rank of an SPMD job makes the same request for the same compile, and {@link #key} says so before
 * anything is traced: the ranks of a job sharing a JVM trace and plan it once ({@code
 * CompileExchange}).
 *
 * @param network the network's name (its cell class), for the key only
 * @param args each tensor argument's global shape and whether the ranks hold slices of it along
 *     dimension 0 (the {@code data_parallel} dataset strategy) or all of it ({@code full_batch})
 * @param parameters the network's parameters (whole shapes), in {@code get_parameters()} order
 * @param parameterPlan {@code Cell.shard}'s parameter strategies by parameter name
 * @param trainable the trainable parameters in order: which ones optimizer parallel may store as
 *     pieces, and communication fusion's parameter order and default ids
 * @param placed the layouts earlier compiles gave parameters, by name
 * @param loaded the strategy checkpoint to apply ({@code strategy_ckpt_load_file}), or null
 * @param loadedOperators {@code AutoParallel}'s operator strategy file, or null
 */
public record CompileRequest(
    ParallelSettings settings,
    String network,
    List<ArgSpec> args,
    List<ParamSpec> parameters,
    Map<String, List<Integer>> parameterPlan,
    List<Trainable> trainable,
    Map<String, TensorLayout> placed,
    StrategyFile.Contents loaded,
    StrategyFile.OperatorStrategies loadedOperators) {

  /**
   * A tensor argument of the compiled network, by its global shape: split along dimension 0 over
   * the devices ({@code batchSplit}), whole, or (a non-empty {@code strategy}, the argument's entry
   * of a tuple {@code dataset_strategy}) split {@code strategy[d]} ways along each dimension d.
   */
  public record ArgSpec(Shape shape, boolean batchSplit, List<Integer> strategy) {
    public ArgSpec {
      strategy = List.copyOf(strategy);
    }

    public ArgSpec(Shape shape, boolean batchSplit) {
      this(shape, batchSplit, List.of());
    }
  }

  /** A parameter of the compiled network. */
  public record ParamSpec(String name, Shape shape, DType dtype) {}

  /** A trainable parameter: its name, {@code parallel_optimizer} and {@code comm_fusion}. */
  public record Trainable(String name, boolean shardable, int fusion) {}

  public CompileRequest {
    args = List.copyOf(args);
    parameters = List.copyOf(parameters);
    parameterPlan = Collections.unmodifiableMap(new TreeMap<>(parameterPlan));
    trainable = List.copyOf(trainable);
    placed = Collections.unmodifiableMap(new TreeMap<>(placed));
  }

  /** The names of {@link #trainable} that optimizer parallel may shard. */
  java.util.Set<String> shardable() {
    java.util.Set<String> names = new java.util.HashSet<>();
    for (Trainable t : trainable) {
      if (t.shardable()) {
        names.add(t.name());
      }
    }
    return names;
  }

  /** The trainable parameters in order with their fusion ids. */
  LinkedHashMap<String, Integer> fusionIds() {
    LinkedHashMap<String, Integer> ids = new LinkedHashMap<>();
    trainable.forEach(t -> ids.put(t.name(), t.fusion()));
    return ids;
  }

  /** The request as canonical text: equal for equal requests, in any process. */
  public String describe() {
    StringBuilder s = new StringBuilder();
    s.append("network ").append(network).append('\n');
    s.append("settings ").append(settings.describe()).append('\n');
    args.forEach(
        a ->
            s.append("arg ")
                .append(a.shape())
                .append(a.batchSplit() ? " split" : "")
                .append(a.strategy().isEmpty() ? "" : " strategy " + a.strategy())
                .append('\n'));
    parameters.forEach(
        p ->
            s.append("parameter ")
                .append(p.name())
                .append(' ')
                .append(p.dtype())
                .append(p.shape())
                .append('\n'));
    parameterPlan.forEach(
        (k, v) -> s.append("parameter_plan ").append(k).append(' ').append(v).append('\n'));
    trainable.forEach(
        t ->
            s.append("trainable ")
                .append(t.name())
                .append(' ')
                .append(t.shardable())
                .append(' ')
                .append(t.fusion())
                .append('\n'));
    placed.forEach(
        (k, v) ->
            s.append("placed ")
                .append(k)
                .append(' ')
                .append(v.deviceMatrix())
                .append(' ')
                .append(v)
                .append('\n'));
    if (loaded != null) {
      s.append("loaded ").append(loaded).append('\n');
    }
    if (loadedOperators != null) {
      s.append("loaded_operators ").append(loadedOperators).append('\n');
    }
    return s.toString();
  }

  /** A digest of {@link #describe}: the ranks making equal requests share one compile. */
  public String key() {
    return sha256(describe());
  }

  static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
