# Seed 001 (r1.2 programming guide), snippet "parameter_broadcast".
from mindspore import context

context.set_auto_parallel_context(parameter_broadcast=True)
print(repr(context.get_auto_parallel_context("parameter_broadcast")))
