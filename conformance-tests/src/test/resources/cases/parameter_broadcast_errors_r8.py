# ranks: 8
# mindspore.parallel.parameter_broadcast on 8 ranks: its ValueErrors (cur_rank not this rank,
# initial_rank not the first rank of a stage, a layout name the net does not have: raised after the
# mode was switched to hybrid_parallel, which stays), an empty layout (no-op), then a good call.
import mindspore as ms
from mindspore import nn, Parameter, Tensor
from mindspore.communication import init, get_rank
from mindspore.parallel import parameter_broadcast
from _case_util import attempt

ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel")
init()
rank = get_rank()


def lay(tensor_map):
    return ([2, 4], tensor_map, [1, 4], 0, True, "", [], [], False, False, 0, 0)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        for n in "abcd":
            setattr(self, n, Parameter(Tensor([1.0, 2.0, 3.0]) * (rank + 1), name=n))


net = Net()
layout = {n: lay([1, -1]) for n in "abcd"}


def sums():
    return [sum(p.tolist()) for p in net.get_parameters()]


attempt("cur_rank of another rank", lambda: parameter_broadcast(net, layout, (rank + 1) % 8, 0))
attempt("initial_rank 3", lambda: parameter_broadcast(net, layout, rank, 3))
attempt("initial_rank 4", lambda: parameter_broadcast(net, layout, rank, 4))
attempt("initial_rank -8", lambda: parameter_broadcast(net, layout, rank, -8))
attempt("empty layout", lambda: parameter_broadcast(net, {}, rank + 1, 3))
print("mode", ms.get_auto_parallel_context("parallel_mode"), "sums", sums())
missing = dict(layout, aaa=lay([-1, -1]))
attempt("unknown parameter", lambda: parameter_broadcast(net, missing, rank, 0))
print("mode after", ms.get_auto_parallel_context("parallel_mode"), "sums", sums())
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel")
attempt("good call", lambda: parameter_broadcast(net, layout, rank, 0))
print("mode", ms.get_auto_parallel_context("parallel_mode"), "sums", sums())
