# ranks: 8
# Pipeline-parallel inference as MindSpore's guide writes it: 4 stages of 2 ranks, a wrapper that
# slices the batch into micro-batches itself (no PipelineCell: the planner numbers the micro-batches
# by the StridedSlices of the input, as MindSpore's LabelMicroBatch does), and an embedding table
# tied between the first stage's lookup and the last stage's head, so stages 0 and 3 each hold a
# copy. The copies start different here (every rank past stage 0 overwrites its copy after the
# compile): the first call then differs from the stand-alone result, and after
# sync_pipeline_shared_parameters (Send from stage 0, Receive on stage 3, by the layout's
# pipeline-shared fields) the result equals the stand-alone one on every rank (pipeline_result_broadcast).
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter, sync_pipeline_shared_parameters
from mindspore.communication import init, get_rank

ms.set_context(mode=ms.GRAPH_MODE)
init()
rank = get_rank()


def table(shape, phase):
    return Tensor((np.cos(np.arange(int(np.prod(shape)), dtype=np.float32) * 0.37 + phase) * 0.3).reshape(shape))


class Embedding(nn.Cell):
    def __init__(self):
        super().__init__()
        self.embedding_table = Parameter(table((16, 8), 0.0), name="embedding_table")
        self.gather = ops.Gather()

    def construct(self, x):
        return self.gather(self.embedding_table, x, 0).squeeze(1), self.embedding_table.value()


class Head(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul(transpose_b=True)

    def construct(self, state, embed):
        return self.matmul(state, embed)


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.word_embedding = Embedding()
        self.layer1 = nn.Dense(8, 8, weight_init=table((8, 8), 1.0), bias_init=table((8,), 2.0))
        self.layer2 = nn.Dense(8, 8, weight_init=table((8, 8), 3.0), bias_init=table((8,), 4.0),
                               activation="tanh")
        self.head = Head()

    def construct(self, x):
        x, embed = self.word_embedding(x)
        return self.head(self.layer2(self.layer1(x)), embed)


class MicroBatches(nn.Cell):
    def __init__(self, network, micro_batch_num):
        super().__init__()
        self.network = network
        self.micro_batch_num = micro_batch_num
        self.concat = ops.Concat()

    def construct(self, x):
        ret = ()
        for i in range(self.micro_batch_num):
            size = x.shape[0] // self.micro_batch_num
            ret = ret + (self.network(x[size * i:size * (i + 1)]),)
        return self.concat(ret)


ids = Tensor(np.array([[3], [0], [15], [7], [7], [1], [9], [12]], np.int32))
ms.set_auto_parallel_context(parallel_mode="stand_alone")
expected = MicroBatches(Network(), 4)(ids).asnumpy()

ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch", pipeline_stages=4,
                             pipeline_result_broadcast=True)
net = Network()
net.word_embedding.pipeline_stage = 0
net.layer1.pipeline_stage = 1
net.layer2.pipeline_stage = 2
net.head.pipeline_stage = 3
inference = MicroBatches(net, 4)
inference.set_train(False)
inference.compile(ids)
layout = inference.parameter_layout_dict
print("embedding_table pipeline-shared fields:", layout["network.word_embedding.embedding_table"][8:])
print("layer1.weight pipeline-shared fields:", layout["network.layer1.weight"][8:])
if rank >= 2:
    net.word_embedding.embedding_table.set_data(table((16, 8), 5.0 + rank))
before = inference(ids).asnumpy()
print("before the sync == stand-alone:", bool(np.allclose(before, expected, rtol=1e-5, atol=1e-6)))
sync_pipeline_shared_parameters(inference)
after = inference(ids).asnumpy()
print("after the sync == stand-alone:", bool(np.allclose(after, expected, rtol=1e-5, atol=1e-6)))
print("output shape:", after.shape)
try:
    sync_pipeline_shared_parameters(net.word_embedding.gather)
except TypeError as e:
    print("TypeError:", e)
