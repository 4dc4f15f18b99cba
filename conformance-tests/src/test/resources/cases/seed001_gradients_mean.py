# Seed 001 (r1.2 programming guide), snippet "gradients_mean".
from mindspore import context

context.set_auto_parallel_context(gradients_mean=False)
print(repr(context.get_auto_parallel_context("gradients_mean")))
