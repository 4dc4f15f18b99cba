# Parameter attributes and checks; Cell registration and naming of parameters and sub-cells.
from mindspore import Tensor, Parameter, nn
from _case_util import show

p = Parameter(Tensor([[1.0, 1.0], [1.0, 1.0]]), name="w")
print(repr(p))
print(p.name, p.requires_grad, p.layerwise_parallel, p.comm_fusion, p.parallel_optimizer, p.shape, p.dtype)
print(Parameter(Tensor([1.0])).name.startswith("Parameter#"), Parameter(2.0).shape, Parameter(2.0).dtype)
for bad in [dict(layerwise_parallel=1), dict(name=3), dict(requires_grad="x"), dict(parallel_optimizer=None)]:
    try:
        Parameter(Tensor([1.0]), **bad)
        print(bad, "ok")
    except Exception as e:  # pylint: disable=broad-except
        print(bad, end=" ")
        show(e)
for v in [0, 3, -1, 1.5, True]:
    try:
        p.comm_fusion = v
        print("comm_fusion", v, "ok", p.comm_fusion)
    except Exception as e:  # pylint: disable=broad-except
        print("comm_fusion", v, end=" ")
        show(e)
try:
    Parameter("abc")
except Exception as e:  # pylint: disable=broad-except
    show(e)
p.set_data(Tensor([[2.0, 3.0], [4.0, 5.0]]))
print("set_data", p.tolist(), p.clone().name, p.clone().tolist())


class Inner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = Parameter(Tensor([1.0, 2.0]), name="weight")
        self.b = Parameter(Tensor([0.5]))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layer1 = Inner()
        self.p = Parameter(Tensor([1.0]), name="p0")
        self.q = Parameter(Tensor([1.0]), requires_grad=False)
        self.layer2 = Inner()

    def construct(self, x):
        return x


net = Net()
print([x.name for x in net.get_parameters()])
print([x.name for x in net.trainable_params()])
print([n for n, _ in net.cells_and_names()], [n for n, _ in net.parameters_and_names()])
print(list(net.parameters_dict().keys()), list(net.name_cells().keys()))
print(net.set_comm_fusion(2) is net, [x.comm_fusion for x in net.get_parameters()])
print(net)
print(net(7), net.layer1.weight.name, net.set_train() is net, net.training, net.layer1.training)
try:
    net.missing
except AttributeError as e:
    print("AttributeError", e)
