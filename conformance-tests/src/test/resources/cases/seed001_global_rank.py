# Seed 001 (r1.2 programming guide), snippet "global_rank".
from mindspore import context

context.set_auto_parallel_context(global_rank=0)
print(repr(context.get_auto_parallel_context("global_rank")))
