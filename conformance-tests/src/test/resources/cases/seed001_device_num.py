# Seed 001 (r1.2 programming guide), snippet "device_num".
from mindspore import context

context.set_auto_parallel_context(device_num=8)
print(repr(context.get_auto_parallel_context("device_num")))
