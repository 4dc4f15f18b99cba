"""The tutorial's "Multi-dimensional Hybrid Parallel Case Based on Double Recursive Search" as its sample
code runs it: recompute on the ReLUs, ``Pipeline`` with 4 micro-batches and a ``stage_config``,
``AutoParallel(..., "recursive_programming")`` with ``hsdp()``, ``full_batch`` and
``pipeline(stages=2, scheduler="1f1b")``, and the ``AutoParallel`` wrapper handed to ``ms.Model``.

On 8 ranks: ranks 0-3 run stage 0 (layer1, relu1), ranks 4-7 stage 1 (layer2, relu2, layer3, the
loss), each stage's operators sharded over its 4 ranks by the recursive-programming search, the
micro-batches in 1F1B order with Send/Recv between the stages. As in MindSpore, the loss a rank of
stage 0 reports is 0 (only the last stage computes it). With MS_DEV_SAVE_GRAPHS set (as here) each rank
writes its plan and its pipeline timeline (Chrome trace) under ./rank_<r>/.
Run: bin/msrun --worker_num=8 --local_worker_num=8 examples/hybrid_parallel.py
(data: ./MNIST_Data/train, made by tools/mnist-to-idx)
"""
import os
import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn, train
from mindspore.communication import init
from mindspore.nn.utils import no_init_parameters
from mindspore.parallel.auto_parallel import AutoParallel

os.environ['MS_DEV_SAVE_GRAPHS'] = '2'
ms.set_context(mode=ms.GRAPH_MODE)
ms.runtime.set_memory(max_size="25GB")
init()
ms.set_seed(1)


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.layer1 = nn.Dense(28*28, 512)
        self.relu1 = nn.ReLU()
        self.layer2 = nn.Dense(512, 512)
        self.relu2 = nn.ReLU()
        self.layer3 = nn.Dense(512, 1)

    def construct(self, x):
        x = self.flatten(x)
        x = self.layer1(x)
        x = self.relu1(x)
        x = self.layer2(x)
        x = self.relu2(x)
        logits = self.layer3(x)
        return logits


with no_init_parameters():
    net = Network()
    optimizer = nn.SGD(net.trainable_params(), 1e-2)
# Configure recomputation of relu operators
net.relu1.recompute()
net.relu2.recompute()


def create_dataset(batch_size):
    """create dataset"""
    dataset_path = "./MNIST_Data/train"
    dataset = ds.MnistDataset(dataset_path)
    image_transforms = [
        ds.vision.Rescale(1.0 / 255.0, 0),
        ds.vision.Normalize(mean=(0.1307,), std=(0.3081,)),
        ds.vision.HWC2CHW()
    ]
    label_transform = ds.transforms.TypeCast(ms.int32)
    dataset = dataset.map(image_transforms, 'image')
    dataset = dataset.map(label_transform, 'label')
    dataset = dataset.batch(batch_size)
    return dataset


data_set = create_dataset(32)

loss_fn = nn.MAELoss()
loss_cb = train.LossMonitor()
# Configure the pipeline_stage number for each layer in pipeline parallelism
net_with_grads = ms.parallel.nn.Pipeline(nn.WithLossCell(net, loss_fn), 4,
                                         stage_config={"_backbone.layer1": 0,
                                                       "_backbone.relu1": 0,
                                                       "_backbone.layer2": 1,
                                                       "_backbone.relu2": 1,
                                                       "_backbone.layer3": 1,})
net_with_grads_new = AutoParallel(net_with_grads, parallel_mode="recursive_programming")
net_with_grads_new.hsdp()
net_with_grads_new.full_batch = True
net_with_grads_new.pipeline(stages=2, scheduler="1f1b")
model = ms.Model(net_with_grads_new, optimizer=optimizer)
model.train(10, data_set, callbacks=[loss_cb], dataset_sink_mode=True)
