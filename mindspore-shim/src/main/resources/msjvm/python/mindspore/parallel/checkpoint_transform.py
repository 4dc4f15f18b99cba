"""Distributed-checkpoint tools of ``mindspore.parallel`` (MindSpore 2.10's
``mindspore/parallel/checkpoint_transform.py``): ``build_searched_strategy`` reads the parameter
layouts of a strategy file (protobuf or JSON, the files ``strategy_ckpt_config`` saves) and
``merge_sliced_parameter`` joins the slices of one parameter, in rank order, into the whole
parameter (along axis 0, or by a strategy's device matrix and tensor map).

Still missing here: ``transform_checkpoints``, ``transform_checkpoint_by_rank``,
``rank_list_for_transform``, ``load_distributed_checkpoint``, ``merge_pipeline_strategys``,
``load_segmented_checkpoints`` (README, issue 21).
"""
import os

from mindspore._host import host
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.parallel._tensor import (_get_tensor_slice_index, _get_tensor_strategy, _join_slices,
                                        _reshape_param_data, _reshape_param_data_with_weight)

__all__ = ["build_searched_strategy", "merge_sliced_parameter"]


class _Dims:
    """A repeated-int protobuf message of node_strategy.proto (DevMatrix, TensorMap, ...): ``.dim``."""

    def __init__(self, dims):
        self.dim = list(dims)

    def __repr__(self):
        return "dim: " + str(self.dim)


class ParallelLayouts:
    """One parameter's layout as MindSpore's ``node_strategy_pb2.ParallelLayouts`` exposes it:
    repeated ``dev_matrix``, ``tensor_map``, ``param_split_shape``, ``indices_offset`` (each with
    ``.dim``), and ``field``, ``opt_weight_shard_step``, ``opt_weight_shard_size``."""

    def __init__(self, dev_matrix, tensor_map, field=0, opt_weight_shard_step=0, opt_weight_shard_size=0,
                 param_split_shape=(), indices_offset=()):
        self.dev_matrix = [_Dims(dev_matrix)]
        self.tensor_map = [_Dims(tensor_map)]
        self.param_split_shape = [_Dims(param_split_shape)]
        self.indices_offset = [_Dims(indices_offset)]
        self.field = field
        self.opt_weight_shard_step = opt_weight_shard_step
        self.opt_weight_shard_size = opt_weight_shard_size


def build_searched_strategy(strategy_filename):
    """{parameter name: ParallelLayouts} of a strategy file; None for None."""
    if strategy_filename is None:
        return strategy_filename
    if not isinstance(strategy_filename, str):
        raise TypeError(f"For 'build_searched_strategy', the argument 'strategy_filename' should be string, "
                        f"but got {type(strategy_filename)}.")
    if not os.path.isfile(strategy_filename):
        raise ValueError(f"For 'build_searched_strategy', no such strategy file: {strategy_filename}. "
                         f"Please check whether the 'strategy_filename' exists.")
    if os.path.getsize(strategy_filename) == 0:
        raise ValueError(f"For 'build_searched_strategy', the strategy file {strategy_filename} should not "
                         f"be empty. Please check whether the 'strategy_filename' is correct.")
    try:
        layouts = host().strategyFileLayouts(strategy_filename)
    except ValueError as e:
        if strategy_filename.endswith(".json"):
            raise
        raise TypeError("The strategy file type should be one of json or protobuf. "
                        "When the file name extension is not '.json', "
                        "the file is considered as a protobuf file.") from e
    strategy = {}
    for name, (dev_matrix, tensor_map, _, extra) in layouts.items():
        strategy[name] = ParallelLayouts(dev_matrix, tensor_map, *extra)
    return strategy


def _concatenate(parts, axis=0):
    import numpy  # pylint: disable=import-outside-toplevel
    return numpy.concatenate(parts, axis=axis)


def _merge_param_with_strategy(sliced_data, parameter_name, strategy, is_even):
    """The whole tensor from the slices of every device, by the parameter's layout in ``strategy``."""
    import numpy as np  # pylint: disable=import-outside-toplevel
    layout = strategy.get(parameter_name)
    try:
        dev_mat = list(layout.dev_matrix[0].dim)
        tensor_map = list(layout.tensor_map[0].dim)
        param_split_shape = list(layout.param_split_shape[0].dim)
        field_size = int(layout.field)
    except BaseException as e:
        raise ValueError(f"{e.__str__()}. For 'merge_sliced_parameter'"
                         ", please make sure that 'strategy' is correct.") from e
    device_count = 1
    for size in dev_mat:
        device_count *= size
    if len(sliced_data) != device_count:
        raise ValueError("For 'merge_sliced_parameter', the length of 'sliced_parameters' should be equal to "
                         f"device_count. The length of 'sliced_parameters' is {len(sliced_data)}, but "
                         f"device_count is {device_count}.")
    if not param_split_shape:
        if not is_even:
            raise ValueError("For 'merge_sliced_parameter', the shape of every parameter in 'sliced_parameters' "
                             "should be the same when slice manner is even.")
        gathered = Tensor(np.concatenate(sliced_data))
        if field_size > 0:
            return _reshape_param_data_with_weight(gathered, dev_mat, field_size)
        return _reshape_param_data(gathered, dev_mat, tensor_map)
    tensor_strategy = _get_tensor_strategy(dev_mat, tensor_map)
    slice_count = 1
    for parts in tensor_strategy:
        slice_count *= parts
    if len(param_split_shape) != slice_count:
        raise ValueError("For 'merge_sliced_parameter', the param_split_shape length in 'strategy' should be "
                         f"{slice_count}, but got {len(param_split_shape)}.")
    slices = list(range(slice_count))
    for device in range(device_count):
        index = int(_get_tensor_slice_index(dev_mat, tensor_strategy, tensor_map, device))
        if sliced_data[device].shape[0] != param_split_shape[index]:
            raise ValueError(f"For 'merge_sliced_parameter', the slice {index} should be "
                             f"{param_split_shape[index]} in 0 axis, but got {sliced_data[device].shape[0]}.")
        slices[index] = np.array(sliced_data[device])
    return Tensor(_join_slices(slices, tensor_strategy))


def merge_sliced_parameter(sliced_parameters, strategy=None):
    """One Parameter with the whole data of ``sliced_parameters`` (slices in rank order)."""
    if not isinstance(sliced_parameters, list):
        raise TypeError("For 'merge_sliced_parameter', the argument 'sliced_parameters' should be list, "
                        f"but got {type(sliced_parameters)}.")
    if not sliced_parameters:
        raise ValueError("For 'merge_sliced_parameter', the argument 'sliced_parameters' should not be empty.")
    if strategy and not isinstance(strategy, dict):
        raise TypeError("For 'merge_sliced_parameter', the argument 'strategy' should be dict, "
                        f"but got {type(strategy)}.")
    try:
        name = sliced_parameters[0].name
        shape = sliced_parameters[0].data.shape
        rank = len(shape)
    except BaseException as e:
        raise TypeError(e.__str__() + " For 'merge_sliced_parameter', the element in 'sliced_parameters' should be "
                                      f"'Parameter', but got {type(sliced_parameters[0])} at index 0.") from e
    is_even = True
    for index, parameter in enumerate(sliced_parameters):
        if not isinstance(parameter, Parameter):
            raise TypeError("For 'merge_sliced_parameter', the element in 'sliced_parameters' should be 'Parameter', "
                            f"but got {type(parameter)} at index {index}.")
        if parameter.name != name or len(parameter.data.shape) != rank or parameter.data.shape[1:] != shape[1:]:
            raise ValueError("For 'merge_sliced_parameter', please make sure that the elements in 'slice_parameters'"
                             " have the same name, dimension length and shape except 0 axis. The name, dimension "
                             f"length, shape except 0 axis should be {name}, {rank}, "
                             f"{shape[1:]}, but got name: {parameter.name}, dimension length: "
                             f"{len(parameter.data.shape)}, shape except 0 axis: {parameter.data.shape[1:]} "
                             f"at index {index}.")
        if parameter.data.shape != shape:
            is_even = False
    layerwise_parallel = sliced_parameters[0].layerwise_parallel
    requires_grad = sliced_parameters[0].requires_grad
    sliced_data = []
    for parameter in sliced_parameters:
        data = parameter.data
        if data.dtype == mstype.bfloat16:
            data = data.astype(mstype.float32)
        sliced_data.append(data.asnumpy())
    if not strategy:
        merged = Tensor(_concatenate(sliced_data))
    else:
        if name not in strategy.keys():
            raise KeyError(f"For 'merge_sliced_parameter', the parameter name {name} should be a key in "
                           "the 'strategy'. Please check 'sliced_parameter' and 'strategy'.")
        merged = _merge_param_with_strategy(sliced_data, name, strategy, is_even)
    return Parameter(merged, name, requires_grad, layerwise_parallel)
