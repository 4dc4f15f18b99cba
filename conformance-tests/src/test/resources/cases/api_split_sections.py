# ops.split and mint.split (MindSpore 2.10) by a list of section sizes and by a size that does not divide the
# dimension, their gradient, and MindSpore's checks of the sections.
import mindspore as ms
from mindspore import ops, mint, Tensor
x = Tensor([[1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0]], ms.float32)


def second_sum(a):
    return ops.split(a, [2, 3], 1)[1].sum()


for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    print([t for t in ops.split(x, [1, 4], 1)])
    print([t.shape for t in ops.split(x, 2, axis=1)], [t for t in ops.split(x, (2, 3), axis=-1)])
    print([t.shape for t in mint.split(x, [3, 2], dim=1)], [t.shape for t in mint.split(x, 1)])
    print(ms.grad(second_sum)(x))
for bad in ([1, 2], [2, -1, 4], 0, 2.5):
    try:
        ops.split(x, bad, 1)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])
