# Seed 001 (r1.2 programming guide), snippets "strategy_ckpt_load_file" and "strategy_ckpt_save_file".
from mindspore import context

context.set_auto_parallel_context(strategy_ckpt_load_file="./")
print(repr(context.get_auto_parallel_context("strategy_ckpt_load_file")))

context.set_auto_parallel_context(strategy_ckpt_save_file="./")
print(repr(context.get_auto_parallel_context("strategy_ckpt_save_file")))
