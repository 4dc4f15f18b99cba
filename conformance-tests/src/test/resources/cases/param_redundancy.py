# mindspore.train._utils.get_parameter_redundancy / remove_param_redundancy on hand-written
# parameter_layout_dict values (device_matrix, tensor_map, slice_shape, field_size, uniform_split,
# opt_shard_group, ...): which ranks hold identical data, and which rank owns each parameter.
# One rank, no init(): get_rank() is 0 and every group size is 1.
from mindspore import nn
from mindspore.train._utils import get_parameter_redundancy, remove_param_redundancy
from _case_util import attempt


def lay(dev, tensor_map, opt=""):
    return (dev, tensor_map, [1], 0, True, opt, [], [], False, False, 0, 0)


def owners(redundancy, keep=1):
    return [(rank, sorted(names)) for rank, names in remove_param_redundancy(redundancy, keep).items()]


worked = {"w1": lay([2, 4], [1, -1]), "w2": lay([2, 4], [0, -1]), "w3": lay([2, 4], [-1, -1]),
          "w4": lay([2, 4], [1, 0]), "w0": lay([2, 4], [0, 1])}
redundancy = get_parameter_redundancy(worked, 0)
print("names in order:", list(redundancy))
for name, groups in redundancy.items():
    print(name, groups)
print("owners:", owners({k: redundancy[k] for k in ("w1", "w2", "w3")}))
print("owners all:", owners(redundancy))
print("keep 2:", owners({k: redundancy[k] for k in ("w1", "w2", "w3")}, 2))
print("keep 5:", owners({"x": ((0, 1, 2),), "y": ((0, 1, 2),)}, 5))
print("keep 0:", owners(redundancy, 0))

print(get_parameter_redundancy({"p": lay([2, 2, 2], [2, 0])}, 0))
print(get_parameter_redundancy({"p": lay([2, 2, 2], [1])}, 0))
print(get_parameter_redundancy({"p": lay([2, 2, 2], [0, 0])}, 0))
print(get_parameter_redundancy({"p": lay([4, 2], [-1, 1])}, 8))
print(get_parameter_redundancy({"p": lay([8], [0, -1]), "q": lay([8], [-1])}))
print(get_parameter_redundancy({"p": lay([2, 4], [1, -1], "4-0123")}, 16))
print(get_parameter_redundancy({}, 0), remove_param_redundancy({}))
print(get_parameter_redundancy({"p": ([4], [0], [1], 0, True, "")}, 0))

many = {f"p{i}": lay([2, 2], [-1, -1]) for i in range(5)}
many.update({f"q{i}": lay([2, 2], [0, -1]) for i in range(3)})
print("round robin:", owners(get_parameter_redundancy(many, 0)))

attempt("two-element layout", lambda: get_parameter_redundancy({"p": ([2, 4], [1, -1])}, 0))
attempt("two-element list layout", lambda: get_parameter_redundancy({"p": [[2, 4], [1, -1]]}, 0))
attempt("tuple device matrix", lambda: get_parameter_redundancy({"p": lay((2, 4), [1, -1])}, 0))
attempt("tensor map past matrix", lambda: get_parameter_redundancy({"p": lay([2, 4], [2, -1])}, 0))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(2, 2)


attempt("a Cell", lambda: get_parameter_redundancy(Net()))
