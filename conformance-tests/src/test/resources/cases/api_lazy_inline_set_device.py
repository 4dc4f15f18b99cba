# MindSpore 2.10 API used by published scripts: mindspore.__version__, mindspore.lazy_inline on a Cell's
# __init__ (attributes recorded, results unchanged, MindSpore's checks), Primitive.set_device. PyNative
# only: MindSpore's CPU backend refuses a lazy_inline cell in GRAPH_MODE (an Ascend-only feature: "Input[0]
# must be a Primitive ValueNode"); here such a cell traces flat in either mode.
import mindspore as ms
from mindspore import nn, ops, Tensor, lazy_inline

print("version", ms.__version__)


class Block(nn.Cell):
    @lazy_inline
    def __init__(self, width, scale=2.0):
        super().__init__()
        self.scale = scale
        self.dense = nn.Dense(width, width, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        return self.dense(x) * self.scale


class Named(nn.Cell):
    @lazy_inline(attrs=["width", "missing"], policy="front")
    def __init__(self, width):
        super().__init__()
        self.width = width

    def construct(self, x):
        return x + self.width


class One(nn.Cell):
    @lazy_inline(attrs="width")
    def __init__(self, width):
        super().__init__()
        self.width = width

    def construct(self, x):
        return x


x = Tensor([[1.0, 2.0, 3.0]], ms.float32)
ms.set_context(mode=ms.PYNATIVE_MODE)
block = Block(3)
print("out", block(x), "args", block.cell_init_args)
named = Named(4)
print("named", named(x), named.cell_init_args, named.no_inline)
print("one", One(5).cell_init_args)

for bad in ("class", "function", "policy", "attrs", "attr"):
    try:
        if bad == "class":
            lazy_inline(Block)
        elif bad == "function":
            def build(self):
                return self
            lazy_inline(build)
        elif bad == "policy":
            class P(nn.Cell):
                @lazy_inline(policy="back")
                def __init__(self):
                    super().__init__()
            P()
        elif bad == "attrs":
            class A(nn.Cell):
                @lazy_inline(attrs=3)
                def __init__(self):
                    super().__init__()
            A()
        else:
            class B(nn.Cell):
                @lazy_inline(attrs=[3])
                def __init__(self):
                    super().__init__()
            B()
    except ValueError as e:
        print(bad, "ValueError", str(e).split(" File:")[0].split(" line:")[0])

add = ops.Add()
same = add.set_device("CPU")
print("set_device", same is add, add.primitive_target, add(x, x))
print("matmul", ops.MatMul().set_device("GPU").primitive_target)
