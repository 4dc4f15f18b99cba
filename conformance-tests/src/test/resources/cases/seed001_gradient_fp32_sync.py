# Seed 001 (r1.2 programming guide), snippet "gradient_fp32_sync".
from mindspore import context

context.set_auto_parallel_context(gradient_fp32_sync=False)
print(repr(context.get_auto_parallel_context("gradient_fp32_sync")))
