# Seed 001 (r1.2 programming guide), snippet "full_batch".
from mindspore import context

context.set_auto_parallel_context(full_batch=False)
print(repr(context.get_auto_parallel_context("full_batch")))
