package dev.msjvm.engine.parallel.search;

/**
 * One cost of MindSpore's model ({@code Cost}, {@code
 * frontend/parallel/auto_parallel/costmodel.h}), in bytes: {@code computation}, total {@code
 * communication} (forward + backward), the forward part ({@code communicationForward}, MindSpore's
 * {@code communication_without_parameter_}), {@code communicationWithPartialPara} (forward +
 * γ·backward: the parameter-gradient part counted at γ, what the training objective weighs) and
 * {@code memory}. Costs add component-wise.
 */
public record Cost(
    double computation,
    double communication,
    double communicationForward,
    double communicationWithPartialPara,
    double memory) {

  public static final Cost ZERO = new Cost(0, 0, 0, 0, 0);

  /** A pair of strategies the model does not admit (an identity edge that would redistribute). */
  public static final Cost INFEASIBLE = new Cost(Double.POSITIVE_INFINITY, 0, 0, 0, 0);

  public Cost plus(Cost o) {
    return new Cost(
        computation + o.computation,
        communication + o.communication,
        communicationForward + o.communicationForward,
        communicationWithPartialPara + o.communicationWithPartialPara,
        memory + o.memory);
  }

  /** The training objective {@code α·computation + β·communicationWithPartialPara}. */
  public double objective(CostModel model) {
    return model.alpha() * computation + model.beta() * communicationWithPartialPara;
  }
}
