# Seed 001 (r1.2 programming guide), snippet "pipeline_stages". The snippet uses the key
# 'parallel_stages', which is not a context key: both the set and the get raise ValueError.
from mindspore import context

try:
    context.set_auto_parallel_context(parallel_stages=4)
except ValueError as e:
    print(f"{type(e).__name__}: {e}")
try:
    context.get_auto_parallel_context("parallel_stages")
except ValueError as e:
    print(f"{type(e).__name__}: {e}")
# the intended key
context.set_auto_parallel_context(pipeline_stages=4)
print(repr(context.get_auto_parallel_context("pipeline_stages")))
