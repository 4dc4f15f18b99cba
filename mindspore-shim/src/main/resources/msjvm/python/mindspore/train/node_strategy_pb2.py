"""The messages of MindSpore's ``node_strategy.proto`` (package ``mindspore.straspb``, proto2): a
strategy file (``ParallelStrategyMap``) and a group-info file (``ParallelGroupMap``), as MindSpore's
generated ``mindspore.train.node_strategy_pb2`` exposes them (see ``_proto2``)."""
from mindspore.train._proto2 import DecodeError, EncodeError, Message, repeated, required

__all__ = ["ParallelStrategy", "ParallelStrategys", "ParallelStrategyItem", "DevMatrix", "TensorMap",
           "ParamSplitShape", "IndicesOffset", "ParallelLayouts", "ParallelLayoutItem", "ParallelGroupRanks",
           "ParallelGroupItem", "ParallelGroupMap", "ParallelStrategyMap", "DecodeError", "EncodeError"]

_PACKAGE = "mindspore.straspb."


class ParallelStrategy(Message):
    _FULL_NAME = _PACKAGE + "ParallelStrategy"
    _FIELDS = (repeated(1, "dim", "uint32"),)


class ParallelStrategys(Message):
    _FULL_NAME = _PACKAGE + "ParallelStrategys"
    _FIELDS = (required(1, "stage", "uint32"), repeated(2, "parallel_strategy", ParallelStrategy))


class ParallelStrategyItem(Message):
    _FULL_NAME = _PACKAGE + "ParallelStrategyItem"
    _FIELDS = (required(1, "node_name", "string"), required(2, "parallel_strategys", ParallelStrategys))


class DevMatrix(Message):
    _FULL_NAME = _PACKAGE + "DevMatrix"
    _FIELDS = (repeated(1, "dim", "uint32"),)


class TensorMap(Message):
    _FULL_NAME = _PACKAGE + "TensorMap"
    _FIELDS = (repeated(1, "dim", "int32"),)


class ParamSplitShape(Message):
    _FULL_NAME = _PACKAGE + "ParamSplitShape"
    _FIELDS = (repeated(1, "dim", "int64"),)


class IndicesOffset(Message):
    _FULL_NAME = _PACKAGE + "IndicesOffset"
    _FIELDS = (repeated(1, "dim", "int64"),)


class ParallelLayouts(Message):
    _FULL_NAME = _PACKAGE + "ParallelLayouts"
    _FIELDS = (repeated(1, "dev_matrix", DevMatrix), repeated(2, "tensor_map", TensorMap),
               repeated(3, "param_split_shape", ParamSplitShape), repeated(4, "indices_offset", IndicesOffset),
               required(5, "field", "int32"), required(6, "opt_weight_shard_step", "int32"),
               required(7, "opt_weight_shard_size", "int32"))


class ParallelLayoutItem(Message):
    _FULL_NAME = _PACKAGE + "ParallelLayoutItem"
    _FIELDS = (required(1, "param_name", "string"), required(2, "parallel_layouts", ParallelLayouts))


class ParallelGroupRanks(Message):
    _FULL_NAME = _PACKAGE + "ParallelGroupRanks"
    _FIELDS = (repeated(1, "dim", "uint32"),)


class ParallelGroupItem(Message):
    _FULL_NAME = _PACKAGE + "ParallelGroupItem"
    _FIELDS = (required(1, "group_name", "string"), required(2, "parallel_group_ranks", ParallelGroupRanks))


class ParallelGroupMap(Message):
    _FULL_NAME = _PACKAGE + "ParallelGroupMap"
    _FIELDS = (repeated(1, "parallel_group_item", ParallelGroupItem),
               required(2, "ckpt_restore_rank_list", ParallelGroupRanks))


class ParallelStrategyMap(Message):
    _FULL_NAME = _PACKAGE + "ParallelStrategyMap"
    _FIELDS = (required(1, "current_stage", "uint32"), repeated(2, "parallel_strategy_item", ParallelStrategyItem),
               repeated(3, "parallel_layout_item", ParallelLayoutItem))
