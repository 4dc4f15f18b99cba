# Seed 001 (r1.2 programming guide), snippet "parallel_mode" with ops.Mul().shard(...).
from mindspore import context
import mindspore.ops as ops

context.set_auto_parallel_context(parallel_mode="semi_auto_parallel")
mul = ops.Mul().shard(((2, 1), (2, 1)))
print(repr(context.get_auto_parallel_context("parallel_mode")))
print(type(mul).__name__, mul.attrs["in_strategy"], mul.attrs.get("out_strategy"))
