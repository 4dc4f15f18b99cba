# Primitive.shard() argument checks (single process, no init, stand_alone): only the Python-side
# structure is checked when shard() is called (tuple of tuples of ints, out_strategy needs
# in_strategy); values (0, negative, not dividing a shape, not a power of 2, wrong number of inputs)
# are accepted here and checked only when a semi_auto/auto_parallel graph is compiled.
from mindspore import ops
from _par_common import show


def shard(label, *args, **kwargs):
    prim = ops.MatMul()
    try:
        r = prim.shard(*args, **kwargs)
        print(label, "->", r is prim, repr(prim), prim.attrs.get("in_strategy"), prim.attrs.get("out_strategy"))
    except Exception as e:  # pylint: disable=broad-except
        print(label, "-> ", end="")
        show(e)


shard("seed strategy", ((2, 4), (4, 1)))
shard("with out_strategy", ((2, 4), (4, 1)), ((8, 1),))
shard("none", None)
shard("empty", ())
shard("list outer", [(2, 4), (4, 1)])
shard("list inner", ((2, 4), [4, 1]))
shard("int", 8)
shard("float value", ((2.0, 4), (4, 1)))
shard("bool value", ((True, 4), (4, 1)))
shard("nested tuple value", ((2, (4,)), (4, 1)))
shard("out only", out_strategy=((8, 1),))
shard("out list", ((2, 4), (4, 1)), [(8, 1)])
shard("zero value", ((0, 4), (4, 1)))
shard("negative value", ((-2, 4), (4, 1)))
shard("value 3", ((3, 1), (1, 1)))
shard("one input", ((2, 4),))
shard("three inputs", ((2, 4), (4, 1), (1, 1)))
shard("empty inner", ((), (4, 1)))
relu = ops.ReLU().shard(((4, 1),))
print("relu", repr(relu), relu.attrs["in_strategy"])
