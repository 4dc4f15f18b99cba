# ranks: 8
# MatMul's 2D tensor parallel (enable_nd_tp), as MindSpore's high-dimension tensor parallel guide
# writes it: Layout((2, 4), ("x", "y")); matmul1 takes its activations split 8 ways along the
# reduction dimension (("x", "y")) and its weight (x, y); relu (None, ("y", "x")); matmul2 the
# activations (None, ("y", "x")) and its weight (y, x). The activations are gathered over the second
# axis, each rank multiplies its blocks, and a ReduceScatter over the first axis along the last
# dimension leaves the output split (y, x) (matmul1) and (x, y) (matmul2): rank r holds columns
# [4r, 4r + 4) of the result. Checked against the stand-alone network: the forward output, then
# two SGD steps of a TrainOneStepCell through both (the losses, the weights' slices after them).
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter
from mindspore.communication import init, get_rank
from mindspore.parallel import Layout
from mindspore.parallel.auto_parallel import AutoParallel

ms.set_context(mode=ms.GRAPH_MODE)
init()
rank = get_rank()


def table(shape, phase):
    size = int(np.prod(shape))
    return Tensor((np.sin(np.arange(size, dtype=np.float32) * 0.13 + phase) * 0.2).reshape(shape))


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1_weight = Parameter(table((32, 64), 0.5), name="fc1_weight")
        self.fc2_weight = Parameter(table((64, 32), 1.5), name="fc2_weight")
        self.matmul1 = ops.MatMul()
        self.relu = ops.ReLU()
        self.matmul2 = ops.MatMul()

    def construct(self, x):
        return self.matmul2(self.relu(self.matmul1(x, self.fc1_weight)), self.fc2_weight)


def sharded(net):
    layout = Layout((2, 4), ("x", "y"))
    net.matmul1.add_prim_attr("enable_nd_tp", True)
    net.matmul1.shard(in_strategy=(layout("None", ("x", "y")), layout("x", "y")))
    net.relu.shard(in_strategy=(layout("None", ("y", "x")),))
    net.matmul2.add_prim_attr("enable_nd_tp", True)
    net.matmul2.shard(in_strategy=(layout("None", ("y", "x")), layout("y", "x")))
    return net


x = table((16, 32), 2.5)
columns = slice(4 * rank, 4 * rank + 4)
expected = Network()(x).asnumpy()

net = sharded(Network())
forward = AutoParallel(net)
forward.dataset_strategy("full_batch")
out = forward(x)
print("output shape:", out.shape)
print("output == stand-alone columns [4r, 4r + 4):", bool(np.allclose(out.asnumpy(), expected[:, columns],
                                                                      rtol=1e-5, atol=1e-6)))
layouts = net.parameter_layout_dict
print("fc1_weight layout:", layouts["fc1_weight"][:3])
print("fc2_weight layout:", layouts["fc2_weight"][:3])


class SquareMean(nn.Cell):
    def __init__(self, network):
        super().__init__()
        self.network = network

    def construct(self, data):
        return (self.network(data) ** 2).mean()


def train(network, wrap):
    step = nn.TrainOneStepCell(SquareMean(network), nn.SGD(network.trainable_params(), 0.5))
    if wrap:
        step = AutoParallel(step, parallel_mode="semi_auto")
        step.dataset_strategy("full_batch")
    return [float(step(table((16, 32), 3.0 + k)).asnumpy()) for k in range(2)]


ref_net = Network()
ref = train(ref_net, False)
net = sharded(Network())
got = train(net, True)
print("losses == stand-alone:", bool(np.allclose(got, ref, rtol=1e-5)))
fc1 = ref_net.fc1_weight.asnumpy()  # (x, y): rank r = 4 * rx + ry holds rows block rx, columns block ry
fc2 = ref_net.fc2_weight.asnumpy()  # (y, x): rows block ry, columns block rx
rx, ry = rank // 4, rank % 4
print("fc1_weight slice == stand-alone:",
      bool(np.allclose(net.fc1_weight.asnumpy(), fc1[16 * rx:16 * rx + 16, 16 * ry:16 * ry + 16], rtol=1e-5,
                       atol=1e-6)))
print("fc2_weight slice == stand-alone:",
      bool(np.allclose(net.fc2_weight.asnumpy(), fc2[16 * ry:16 * ry + 16, 16 * rx:16 * rx + 16], rtol=1e-5,
                       atol=1e-6)))
