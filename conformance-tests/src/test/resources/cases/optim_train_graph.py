# Optimizers on a tiny network (matmul + bias, mean squared error) through WithLossCell and
# TrainOneStepCell in GRAPH_MODE (the step traced once, then replayed): losses and parameter values after each step, for Momentum,
# SGD, Adam and AdamWeightDecay with their options, dynamic learning rates, loss scale, sens and
# parameter groups; parameter names of the optimizer state.
import mindspore as ms

ms.set_context(mode=ms.GRAPH_MODE)
import _optim_train  # noqa: E402,F401  pylint: disable=wrong-import-position,unused-import  (runs the steps)
