# Seed 001 (r1.2 programming guide), snippet "grad_accumulation_step" (=4).
# Current MindSpore rejects values > 1 (the context interface is deprecated).
from mindspore import context

try:
    context.set_auto_parallel_context(grad_accumulation_step=4)
except ValueError as e:
    print(f"{type(e).__name__}: {e}")
print(repr(context.get_auto_parallel_context("grad_accumulation_step")))
context.set_auto_parallel_context(grad_accumulation_step=1)
print(repr(context.get_auto_parallel_context("grad_accumulation_step")))
