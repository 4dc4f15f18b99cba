# Seed 001 (r1.2 programming guide), snippet "cross_batch".
import mindspore.ops as ops

mul = ops.Mul().add_prim_attr("cross_batch", True)
print(type(mul).__name__, mul.name)
print("cross_batch =", mul.attrs["cross_batch"])
