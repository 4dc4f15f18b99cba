# ranks: 8
# Resuming a sharded training from per-rank checkpoints, as MindSpore's fault-recovery guide does it:
# semi_auto_parallel with the seed's shard strategies and the optimizer parallel on, Momentum, each
# rank saving its own slices (ModelCheckpoint with integrated_save=False). A second run makes a fresh
# network and Model, loads its rank's checkpoint, calls Model.infer_train_layout (which compiles the
# train step without running it, so the parameters take their slice shapes and the checkpoint loads)
# and trains on. Its losses must equal those of one uninterrupted run over both halves, and the
# weights and momenta at the end each rank's slices of that run's. Also MindSpore's argument checks,
# and a Model of an AutoParallel-wrapped network under a stand-alone context.
import os
import shutil
import tempfile

from _equiv import losses_match
import mindspore as ms
from mindspore import nn, train
from mindspore.communication import init, get_rank
from mindspore.parallel.auto_parallel import AutoParallel
from _par_common import seeded_net, samples, dataset, LossLog, max_abs_diff, show, SEED_STRATEGIES

ms.set_context(mode=ms.GRAPH_MODE)
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", enable_parallel_optimizer=True)
init()
rank = get_rank()
xs, ys = samples(32 * 6)
first, second = (xs[:96], ys[:96]), (xs[96:], ys[96:])
out = os.path.join(tempfile.gettempdir(), f"msjvm-infer-train-layout-{os.getpid()}", f"rank_{rank}")


def model_of(net):
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    return ms.Model(net, loss_fn=nn.CrossEntropyLoss(), optimizer=opt), opt


# One run over both halves.
whole_net = seeded_net(SEED_STRATEGIES)
whole, whole_opt = model_of(whole_net)
whole_log = LossLog()
whole.train(1, dataset(*first, 32), callbacks=[whole_log])
whole.train(1, dataset(*second, 32), callbacks=[whole_log])

# The first half, saving this rank's slices at the end.
net = seeded_net(SEED_STRATEGIES)
model, _ = model_of(net)
log = LossLog()
config = train.CheckpointConfig(save_checkpoint_steps=1000, integrated_save=False)
model.train(1, dataset(*first, 32), callbacks=[log, train.ModelCheckpoint(prefix="ckpt", directory=out, config=config)])
print("saved:", sorted(os.listdir(out)))

# Resume: a fresh network (other initial weights), the checkpoint loaded after the pre-compile.
resumed_net = seeded_net(SEED_STRATEGIES, seed=5)
resumed, resumed_opt = model_of(resumed_net)
params = ms.load_checkpoint(os.path.join(out, "ckpt-1_3.ckpt"))
data = dataset(*second, 32)
layout = resumed.infer_train_layout(data)
print("weights in the layout:", [name in layout for name in ("fc1_weight", "fc2_weight", "fc3_weight")])
print("fc1_weight layout:", layout["fc1_weight"][:3])
print("fc1_weight now holds the slice:", tuple(resumed_net.fc1_weight.shape))
not_loaded, _ = ms.load_param_into_net(resumed_net, params)
ms.load_param_into_net(resumed_opt, params)
print("parameters not loaded:", not_loaded)
resumed_log = LossLog()
resumed.train(1, data, callbacks=[resumed_log])
print("first half losses == the whole run's:", losses_match(log.losses, whole_log.losses[:3]))
print("resumed losses == the whole run's:", losses_match(resumed_log.losses, whole_log.losses[3:]))
same = all(max_abs_diff(p, q) <= 1e-5
           for p, q in zip(resumed_net.trainable_params() + list(resumed_opt.moments),
                           whole_net.trainable_params() + list(whole_opt.moments)))
print("weights and momenta == the whole run's:", same)

# MindSpore's checks
for call in (lambda: resumed.infer_train_layout(dataset(*first, 32), dataset_sink_mode=False),
             lambda: resumed.infer_train_layout(dataset(*first, 32), sink_size=0),
             lambda: resumed.infer_train_layout(dataset(*first, 32), sink_size=1.5)):
    try:
        call()
        print("no error")
    except (TypeError, ValueError, RuntimeError) as e:
        show(e)
ms.set_context(mode=ms.PYNATIVE_MODE)
try:
    resumed.infer_train_layout(dataset(*first, 32))
except RuntimeError as e:
    show(e)
ms.set_context(mode=ms.GRAPH_MODE)
ms.set_auto_parallel_context(parallel_mode="data_parallel")
try:
    resumed.infer_train_layout(dataset(*first, 32))
except RuntimeError as e:
    show(e)
# The settings of an AutoParallel wrapper count, as MindSpore's _init_auto_parallel_context makes them.
ms.reset_auto_parallel_context()
wrapped_net = seeded_net(SEED_STRATEGIES)
wrapped = ms.Model(AutoParallel(wrapped_net, parallel_mode="semi_auto"), loss_fn=nn.CrossEntropyLoss(),
                   optimizer=nn.SGD(wrapped_net.trainable_params(), 0.01))
wrapped_layout = wrapped.infer_train_layout(dataset(*first, 32))
print("AutoParallel: fc1_weight layout", wrapped_layout["fc1_weight"][:3], "holds", tuple(wrapped_net.fc1_weight.shape))
shutil.rmtree(out, ignore_errors=True)
