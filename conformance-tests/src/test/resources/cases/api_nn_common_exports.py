# Names the docs' samples import from mindspore.nn and mindspore.common (the pipeline samples'
# nn.PipelineCell / nn.PipelineGradReducer, the recompute sample's `from mindspore.common import Parameter`).
import mindspore as ms
from mindspore import nn
from mindspore.common import Parameter, ParameterTuple, Tensor

print([n for n in ["PipelineCell", "PipelineGradReducer", "MicroBatchInterleaved", "GradAccumulationCell"]
       if isinstance(getattr(nn, n, None), type) and issubclass(getattr(nn, n), nn.Cell)])
print(Parameter is ms.Parameter, ParameterTuple is ms.ParameterTuple, Tensor is ms.Tensor)
