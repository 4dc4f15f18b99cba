# mindspore.jit (MindSpore 2.10): the function form and the decorator, with and without options, on a
# function, on Cell.construct, on a Cell instance and class, nested (the inner one inlined), under
# grad, in both execution modes; the argument checks and their texts.
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter, jit

x = Tensor([[1.0, 2.0], [3.0, 4.0]], ms.float32)


def tensor_add(a, b):
    return a + b


@jit
def scaled(a, scale=2.0):
    return ops.relu(a) * scale


@jit(capture_mode="ast", jit_level="O1", backend="ms_backend")
def matmul_sum(a, b):
    return ops.matmul(a, b).sum()


@jit
def nested(a):
    return scaled(a) + tensor_add(a, a)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor([[0.5, -1.0], [1.5, 2.0]], ms.float32), name="w")

    @jit
    def construct(self, a):
        return ops.matmul(a, self.w)


class Plain(nn.Cell):
    def construct(self, a):
        return a * 3


for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    print("mode", mode)
    add_graph = jit(function=tensor_add)
    print("function form", add_graph(x, x))
    print("decorator", scaled(x), scaled(x, scale=3.0), scaled(-x), scaled(x))
    print("options", matmul_sum(x, x))
    print("nested", nested(x))
    print("construct", Net()(x))
    print("cell instance", jit(Plain())(x))
    print("grad", ms.grad(scaled)(x))

for kw in ({"capture_mode": "graph"}, {"jit_level": "O2"}, {"dynamic": 2}, {"fullgraph": 1},
           {"exec_order": "xfs"}, {"disable_format_transform": 1}, {"auto_offload": 3},
           {"ge_options": {"local": {}}}):
    try:
        jit(tensor_add, **kw)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
