# ranks: 8
# mindspore.parallel.parameter_broadcast on 8 ranks with a hand-written parameter_layout_dict (the
# 12-tuples compile would give; device matrix [2, 4], rank = 4a + b) in semi_auto_parallel mode.
# Every rank first gives its parameters rank-dependent values; afterwards every rank of a redundancy
# group holds the values of the rank that owns the parameter (remove_param_redundancy). Parameter
# "h" has an optimizer-shard group of 4 ranks. Each of the 8 ranks owns at least one parameter:
# MindSpore returns early on a rank that owns nothing, without joining its groups' AllReduces.
import mindspore as ms
from mindspore import nn, Parameter, Tensor
from mindspore.communication import init, get_rank, create_group, get_group_size
from mindspore.parallel import parameter_broadcast
from mindspore.train._utils import get_parameter_redundancy, remove_param_redundancy

ms.set_context(mode=ms.GRAPH_MODE)
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel")
init()
rank = get_rank()
first = rank // 4 * 4
opt_group = "4-%d" % (rank // 4)
create_group(opt_group, list(range(first, first + 4)))


def lay(tensor_map, opt=""):
    return ([2, 4], tensor_map, [1, 4], 0, True, opt, [], [], False, False, 0, 0)


layout = {"a": lay([1, -1]), "b": lay([1, -1]), "c": lay([1, -1]), "d": lay([1, -1]), "e": lay([0, -1]),
          "f": lay([-1, -1]), "g": lay([1, 0]), "h": lay([-1, -1], opt_group)}
redundancy = get_parameter_redundancy(layout)
for name, groups in redundancy.items():
    print(name, groups)
owners = remove_param_redundancy(redundancy)
print({r: sorted(names) for r, names in sorted(owners.items())})


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        for n in "abcdefgh":
            setattr(self, n, Parameter(Tensor([[0.0] * 4] * 2, ms.float32), name=n))


net = Net()
for i, p in enumerate(net.get_parameters()):
    p.set_data(Tensor([[float(rank * 10 + i + 1)] * 4] * 2, ms.float32))
parameter_broadcast(net, layout, rank, 0)
for p in net.get_parameters():
    values = p.tolist()
    print(p.name, sum(sum(row) for row in values), values[0][0])
print("parallel_mode", ms.get_auto_parallel_context("parallel_mode"))
