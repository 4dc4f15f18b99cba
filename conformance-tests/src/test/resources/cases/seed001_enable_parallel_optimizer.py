# Seed 001 (r1.2 programming guide), snippet "enable_parallel_optimizer".
from mindspore import context

context.set_auto_parallel_context(enable_parallel_optimizer=True)
print(repr(context.get_auto_parallel_context("enable_parallel_optimizer")))
