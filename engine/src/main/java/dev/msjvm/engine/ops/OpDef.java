package dev.msjvm.engine.ops;

import dev.msjvm.engine.parallel.rules.ShardingRule;
import java.util.List;
import java.util.Objects;

/**
 * One operator, declared once: its MindSpore primitive name, its reference kernel, its shape and
 * dtype inference, its gradient, its sharding rule and its role in the strategy search. {@code
 * OpDeclarationsTest} fails when a registered operator lacks any part.
 *
 * <p>{@code grad} is {@link GradRule#UNDEFINED} when no gradient is defined (differentiating
 * through it is an error naming the operator), {@link GradRule#NONE} when its inputs get none.
 * {@code stateful} marks operators that update variables or draw random numbers: a traced graph
 * keeps them even when nothing reads their outputs; {@code written} lists the inputs such an
 * operator may write (null: any variable input). {@code infer} and {@code role} are null only for
 * the operators the compiler makes itself (collectives, redistribution steps), which are never
 * traced from Python. {@code aliases.get(j)}, where given, is the input whose storage output {@code
 * j} is (a Load's value is its variable's storage; an optimizer's outputs are the variables it
 * updated): what a dry run needs to count memory as a replay holds it (null: every output is new
 * storage). {@code sharding} is the operator's rule, bound to its name (the families in {@code
 * dev.msjvm.engine.parallel.rules} make the rules: {@code ElementwiseRules.pointwise()}...).
 * Example: {@code OpDef.of("Neg", kernel, g -> new Tensor[] {g.op("Neg", Attrs.EMPTY,
 * g.dout(0))}).infers(Infer.like(0)).role(CostRole.ELEMENTWISE).shards(ElementwiseRules.pointwise())}.
 */
public record OpDef(
    String name,
    Kernel kernel,
    GradRule grad,
    boolean stateful,
    List<Integer> written,
    Infer infer,
    CostRole costRole,
    List<Integer> aliases,
    ShardingRule sharding) {
  public OpDef {
    Objects.requireNonNull(name);
    Objects.requireNonNull(kernel);
    written = written == null ? null : List.copyOf(written);
    aliases = aliases == null ? List.of() : List.copyOf(aliases);
  }

  /** An operator whose {@code written} inputs, if {@code stateful}, may be written. */
  public OpDef(String name, Kernel kernel, GradRule grad, boolean stateful, List<Integer> written) {
    this(name, kernel, grad, stateful, written, null, null, null, null);
  }

  /** An operator whose variable inputs, if {@code stateful}, may all be written. */
  public OpDef(String name, Kernel kernel, GradRule grad, boolean stateful) {
    this(name, kernel, grad, stateful, null);
  }

  /**
   * Whether input {@code i} may be a variable the kernel writes (then it is passed as the variable
   * itself); other variable inputs are read through a traced Load like any operator's.
   */
  public boolean writes(int i) {
    return stateful && (written == null || written.contains(i));
  }

  /**
   * Whether the operator computes from its first input and writes only other, listed inputs
   * (BatchNorm's moving statistics): a strategy search shards it as any operator.
   */
  public boolean updatesSideState() {
    return stateful && written != null && !written.isEmpty() && !written.contains(0);
  }

  public static OpDef of(String name, Kernel kernel, GradRule grad) {
    return new OpDef(name, kernel, grad, false);
  }

  /** This operator with its shape and dtype inference. */
  public OpDef infers(Infer f) {
    return new OpDef(name, kernel, grad, stateful, written, f, costRole, aliases, sharding);
  }

  /** This operator with its role in the strategy search. */
  public OpDef role(CostRole r) {
    return new OpDef(name, kernel, grad, stateful, written, infer, r, aliases, sharding);
  }

  /** This operator, whose output {@code j} is the storage of input {@code inputs[j]}. */
  public OpDef aliases(Integer... inputs) {
    return new OpDef(
        name, kernel, grad, stateful, written, infer, costRole, List.of(inputs), sharding);
  }

  /** This operator with its sharding rule, bound to its name. */
  public OpDef shards(ShardingRule rule) {
    return new OpDef(
        name, kernel, grad, stateful, written, infer, costRole, aliases, rule.named(name));
  }

  /**
   * The operators whose kernels take complex tensors: the conversions (Real, Imag, Complex, Cast)
   * and those that only move or reshape storage. Every other operator refuses a complex input with
   * a TypeError naming itself (see {@link #checkReal}).
   */
  private static final java.util.Set<String> COMPLEX_OPERATORS =
      java.util.Set.of(
          "Real",
          "Imag",
          "Complex",
          "Cast",
          "Reshape",
          "ExpandDims",
          "Squeeze",
          "Flatten",
          "Identity",
          "Load",
          "StopGradient");

  /** Whether this operator's kernel takes complex tensors. */
  public boolean acceptsComplex() {
    return COMPLEX_OPERATORS.contains(name);
  }

  /**
   * A TypeError when input {@code type} is complex and this operator does not take complex tensors
   * (its kernel reads elements as real numbers).
   */
  public void checkReal(dev.msjvm.engine.ir.DType type) {
    if (type.isComplex() && !acceptsComplex()) {
      throw dev.msjvm.engine.MsException.typeError(
          "For '" + name + "', " + type + " tensors are not supported by msjvm yet.");
    }
  }

  /** The input whose storage output {@code j} is, or -1 for new storage. */
  public int aliasOf(int j) {
    return j < aliases.size() ? aliases.get(j) : -1;
  }
}
