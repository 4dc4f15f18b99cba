# Optimizers on a tiny network (matmul + bias, mean squared error) through WithLossCell and
# TrainOneStepCell in PYNATIVE mode: losses and parameter values after each step, for Momentum,
# SGD, Adam and AdamWeightDecay with their options, dynamic learning rates, loss scale, sens and
# parameter groups; parameter names of the optimizer state.
import mindspore  # noqa: F401  pylint: disable=unused-import  (PYNATIVE_MODE is the default)
import _optim_train  # noqa: F401  pylint: disable=unused-import  (runs the steps)
