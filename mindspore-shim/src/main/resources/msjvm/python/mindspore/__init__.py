"""MindSpore on the JVM: the ``mindspore`` package, running on GraalPy over the msjvm engine.

Mirrors MindSpore's import paths; every call checks its arguments as MindSpore does and forwards
to the Java engine through ``mindspore._host``.
"""
from mindspore import context, log
from mindspore.common import dtype
from mindspore.common.dtype import (bfloat16, bool_, byte, complex64, complex128, double, float16, float32, float64, half, int8, int16,
                                    int32, int64, intc, intp, long, short, single, ubyte, uint8)
from mindspore.common.tensor import Tensor
from mindspore.graph.symbol import Symbol
from mindspore.common.parameter import Parameter
from mindspore.common._parameter_tuple import ParameterTuple
from mindspore.common.seed import get_seed, set_seed
from mindspore.context import (COMPATIBLE, GRAPH_MODE, LAX, PYNATIVE_MODE, STRICT, ParallelMode,
                               get_auto_parallel_context, get_context, get_ps_context,
                               reset_auto_parallel_context, reset_ps_context, set_auto_parallel_context,
                               set_context, set_ps_context)
from mindspore.parallel import (Layout, get_algo_parameters, parameter_broadcast, reset_algo_parameters,
                                set_algo_parameters, shard)
from mindspore import nn, ops, parallel, runtime, communication
from mindspore.parallel.function import reshard
from mindspore import dataset
from mindspore.ops.composite import GradOperation, grad, value_and_grad
from mindspore import train
from mindspore.train import *  # noqa: F401,F403  (MindSpore exports mindspore.train's names at the top)
from mindspore.train import __all__ as _train_all
from mindspore.parallel import (build_searched_strategy, load_distributed_checkpoint, load_segmented_checkpoints,
                                merge_pipeline_strategys, merge_sliced_parameter, rank_list_for_transform,
                                restore_group_info_list, sync_pipeline_shared_parameters,
                                transform_checkpoint_by_rank, transform_checkpoints, unified_safetensors)
from mindspore import amp
from mindspore.amp import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager
from mindspore.common.lazy_inline import lazy_inline
from mindspore.common.api import jit
from mindspore import mint

__version__ = "2.10.0"

__all__ = ["context", "log", "dtype", "Tensor", "Symbol", "Parameter", "ParameterTuple", "nn", "bool_", "int8", "int16", "int32", "int64", "uint8",
           "float16", "float32", "float64", "bfloat16", "complex64", "complex128", "byte", "short", "intc", "long", "intp", "ubyte",
           "half", "single", "double", "set_seed", "get_seed", "GRAPH_MODE", "PYNATIVE_MODE", "STRICT", "COMPATIBLE",
           "LAX", "ParallelMode", "set_context", "get_context", "set_auto_parallel_context",
           "get_auto_parallel_context", "reset_auto_parallel_context", "set_ps_context", "get_ps_context",
           "reset_ps_context", "set_algo_parameters", "get_algo_parameters", "reset_algo_parameters",
           "ops", "parallel", "runtime", "communication", "dataset", "grad", "value_and_grad", "train", "amp",
           "Layout", "parameter_broadcast", "lazy_inline", "jit", "mint"]
__all__ += [n for n in _train_all if n not in __all__]
__all__ += ["shard", "reshard"]
__all__ += ["build_searched_strategy", "merge_sliced_parameter", "rank_list_for_transform",
            "transform_checkpoint_by_rank", "transform_checkpoints", "merge_pipeline_strategys",
            "load_distributed_checkpoint", "load_segmented_checkpoints", "unified_safetensors",
            "sync_pipeline_shared_parameters", "restore_group_info_list"]
