# ranks: 8
# mindspore.reshard (MindSpore 2.10's mindspore/parallel/function/reshard_func.py): a tensor pinned
# to a Layout is a configured node sharding propagation starts from. The documented example (ReLU,
# reshard to Layout((4, 2), ("dp", "mp"))("dp", "mp"), MatMul) with the weight resharded to
# ("mp", "None") trains on 8 ranks (auto_parallel, sharding_propagation, Momentum) to the
# stand-alone losses; the MatMul takes ((4, 2), (2, 1)) from the two reshards, the ReLU before it
# the first one's layout; every rank's weight slice equals the stand-alone weight's. Semi-auto
# (no propagation) trains through the reshards to the same losses, the weight laid out as its
# reshard. Refused arguments get MindSpore's TypeErrors; ms.ops.reshard and
# mindspore.parallel.function.reshard are the same function. A Layout in Cell.shard's
# parameter_plan that places the parameter as a tuple strategy does configures it as that strategy
# (MindSpore inserts an Identity with the Layout after the parameter's Load): the weight takes it,
# the losses equal stand-alone.
import mindspore as ms
from mindspore import nn, ops, Parameter, Tensor, Layout
from mindspore.common.api import _cell_graph_executor
from mindspore.communication import init, get_rank
from mindspore.parallel.function import reshard
from _equiv import losses_match, rank_slice, slice_matches

ms.set_context(mode=ms.GRAPH_MODE)
init()
layout = Layout((4, 2), ("dp", "mp"))


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul()
        self.relu = ops.ReLU()
        self.w = Parameter(Tensor([[((k * 7 + c * 3) % 11 - 5) / 11.0 for c in range(16)] for k in range(16)],
                                  ms.float32), name="w")
        self.loss = nn.MSELoss()

    def construct(self, x, target):
        x = self.relu(x)
        x_reshard = ms.reshard(x, layout("dp", "mp"))
        w = reshard(self.w, layout("mp", "None"))
        return self.loss(self.matmul(x_reshard, w), target)


def run():
    net = Network()
    step = nn.TrainOneStepCell(net, nn.Momentum(net.trainable_params(), 0.05, 0.9))
    step.set_train()
    x = Tensor([[((n * 5 + k * 3) % 13 - 6) / 6.0 for k in range(16)] for n in range(32)], ms.float32)
    target = Tensor([[((n + c) % 5 - 2) / 2.0 for c in range(16)] for n in range(32)], ms.float32)
    losses = [step(x, target).item() for _ in range(5)]
    strategies = {k.split("/")[-1]: v for k, v in _cell_graph_executor._get_shard_strategy(step).items()}
    return losses, net.w, step.parameter_layout_dict.get("w"), strategies


ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref, ref_w, _, _ = run()
for mode in ("auto_parallel", "semi_auto_parallel"):
    ms.set_auto_parallel_context(parallel_mode=mode, search_mode="sharding_propagation", dataset_strategy="full_batch")
    losses, w, w_layout, strategies = run()
    ms.reset_auto_parallel_context()
    print(mode, "losses == stand-alone within 1e-5 relative:", losses_match(losses, ref),
          "loss falls:", losses[-1] < losses[0])
    if mode == "auto_parallel":
        print(" ", "MatMul", strategies.get("MatMul-op0"), "ReLU", strategies.get("ReLU-op0"))
    print(" ", "w layout", w_layout[:3], "slice == stand-alone slice within 1e-5:",
          slice_matches(w, rank_slice(ref_w, w_layout, get_rank())))

ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel")
for title, args in [("a tuple strategy", (Tensor([1.0]), ((2, 1),))), ("a list", ([1.0], layout("dp", "mp")))]:
    try:
        reshard(*args)
        print(title, "-> accepted")
    except TypeError as e:
        print(title, "->", type(e).__name__, e)
ms.reset_auto_parallel_context()
print("ops.reshard is mindspore.reshard:", ops.reshard is ms.reshard is reshard)


class Planned(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor([[((k * 5 + c) % 7 - 3) / 7.0 for c in range(16)] for k in range(32)],
                                  ms.float32), name="w")
        self.relu = ops.ReLU()
        self.mul = ops.Mul()
        self.mean = ops.ReduceMean()

    def construct(self, x):
        return self.mean(self.mul(x, self.relu(self.w)))


def run_planned(plan, sharded=True):
    net = Planned()
    if sharded:
        net.shard(in_strategy=(layout("dp", "None"),), parameter_plan={"self.w": plan} if plan else None)
    step = nn.TrainOneStepCell(net, nn.Momentum(net.trainable_params(), 0.1, 0.9))
    step.set_train()
    x = Tensor([[((n * 3 + c) % 5 - 2) / 2.0 for c in range(16)] for n in range(32)], ms.float32)
    losses = [step(x).item() for _ in range(5)]
    return losses, step.parameter_layout_dict.get("w")


ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref, _ = run_planned(None, sharded=False)
for title, plan in [("no parameter_plan", None), ("parameter_plan Layout('dp', 'mp')", layout("dp", "mp"))]:
    ms.set_auto_parallel_context(parallel_mode="auto_parallel", search_mode="sharding_propagation",
                                 dataset_strategy="full_batch")
    losses, w_layout = run_planned(plan)
    ms.reset_auto_parallel_context()
    print(title, "losses == stand-alone within 1e-5 relative:", losses_match(losses, ref), "w layout", w_layout[:3])
