# Seed 001 (r1.2 programming guide), snippet "all_reduce_fusion_config".
from mindspore import context

context.set_auto_parallel_context(all_reduce_fusion_config=[20, 35])
print(repr(context.get_auto_parallel_context("all_reduce_fusion_config")))
