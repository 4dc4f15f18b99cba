# Seed 001 (r1.2 programming guide), snippet "auto_parallel_search_mode".
from mindspore import context

context.set_auto_parallel_context(auto_parallel_search_mode="dynamic_programming")
print(repr(context.get_auto_parallel_context("auto_parallel_search_mode")))
