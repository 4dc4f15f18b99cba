# Seed 001 (r1.2 programming guide), snippet "fusion" with add_prim_attr on ops.AllReduce
# (no init(): the primitives are only constructed, never executed).
import mindspore.ops as ops

allreduce1 = ops.AllReduce().add_prim_attr("fusion", 1)
allreduce2 = ops.AllReduce().add_prim_attr("fusion", 1)
for p in (allreduce1, allreduce2):
    print(type(p).__name__, "fusion =", p.attrs["fusion"], "op =", p.attrs["op"], "group =", p.attrs["group"])
