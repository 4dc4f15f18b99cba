"""The auto-parallel context: MindSpore's argument checks, values stored in the Java Session.

Behaviour (keys, checks, exception classes and texts, order of application) follows MindSpore's
``mindspore/parallel/_auto_parallel_context.py``; the values live in this rank's Java
``AutoParallelContext`` so the engine plans with exactly what the script set. Where the seed
documents state a rule they win over MindSpore master: ``device_num`` must be in [1, 4096].
"""
import copy
import os

from mindspore import _checkparam as Validator
from mindspore import log as logger
from mindspore._checkparam import args_type_check
from mindspore._dirs import makedirs
from mindspore._host import session

_MAX_GROUP_NAME_LEN = 127
_DEFAULT_HCCL_FUSION_GROUP_NAME = "hccl_world_groupsum1"
_DEFAULT_NCCL_FUSION_GROUP_NAME = "nccl_world_groupsum1"
# As MindSpore 2.10 lists them (seqsmartvpp twice); the list appears in an error message.
_PIPELINE_SCHEDULERS = ["1f1b", "gpipe", "seqpipe", "seqvpp", "seqsmartvpp", "zero_bubble_v", "seqsmartvpp"]
_OPTIMIZER_CONFIG_KEYS = ["gradient_accumulation_shard", "parallel_optimizer_threshold",
                          "optimizer_weight_shard_size", "optimizer_level"]
_SEARCH_MODES_TEXT = "'recursive_programming', 'dynamic_programming' and 'sharding_propagation'"


def _default_fusion_config():
    return {"openstate": True,
            "allreduce": {"mode": "auto", "config": None},
            "allgather": {"mode": "auto", "config": None},
            "reducescatter": {"mode": "auto", "config": None}}


def _device_target():
    return session().runContext().get("device_target")


class _AutoParallelContext:
    """Checks as MindSpore does, then stores in the Java context of this interpreter."""

    def __init__(self):
        self._handle = session().autoParallelContext()
        self._dataset_strategy_using_str = True
        self._dataset_layout = None
        self._fusion_config = _default_fusion_config()

    # --- plain values -------------------------------------------------------------------------

    def set_device_num(self, device_num):
        if device_num < 1:
            raise ValueError("The context configuration parameter 'device_num' must be a positive integer, "
                             "but got the value of device_num : {}.".format(device_num))
        if device_num > 4096:
            # The seed documents bound device_num to [1, 4096] (MindSpore 2.0's check and text).
            raise ValueError("The context configuration parameter 'device_num' must be in [1, 4096], "
                             "but got the value of device_num : {}.".format(device_num))
        self._handle.set("device_num", device_num)

    def get_device_num(self):
        return self._handle.get("device_num")

    def set_global_rank(self, global_rank):
        if global_rank < 0 or global_rank > 4095:
            raise ValueError("The context configuration parameter 'global_rank' must be in [0, 4095], "
                             "but got the value of global_rank : {}.".format(global_rank))
        self._handle.set("global_rank", global_rank)

    def get_global_rank(self):
        return self._handle.get("global_rank")

    def set_gradients_mean(self, gradients_mean):
        self._handle.set("gradients_mean", gradients_mean)

    def set_gradient_fp32_sync(self, gradient_fp32_sync):
        self._handle.set("gradient_fp32_sync", gradient_fp32_sync)

    def set_loss_repeated_mean(self, loss_repeated_mean):
        if not isinstance(loss_repeated_mean, bool):
            raise TypeError("For 'set_auto_parallel_context', the argument 'loss_repeated_mean' "
                            "must be bool, but got the type : {}.".format(type(loss_repeated_mean)))
        self._handle.set("loss_repeated_mean", loss_repeated_mean)

    def _set_stage_like(self, key, name, what, value):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"For 'set_auto_parallel_context', the argument '{name}' "
                            f"must be int, but got the type : {type(value)}.")
        if value < 1:
            raise ValueError(f"For 'set_auto_parallel_context', the argument '{name}' "
                             f"should be greater or equal 1, but got the value of {what} : {value}.")
        self._handle.set(key, value)

    def set_pipeline_stages(self, stages):
        self._set_stage_like("pipeline_stage_split_num", "pipeline_stages", "stages", stages)

    def set_pipeline_segments(self, segments):
        self._set_stage_like("pipeline_segment_split_num", "pipeline_segments", "segments", segments)

    def set_auto_pipeline(self, auto_pipeline):
        if not isinstance(auto_pipeline, bool):
            raise TypeError("For 'set_auto_parallel_context', the argument 'auto_pipeline' "
                            "must be bool, but got the type : {}.".format(type(auto_pipeline)))
        self._handle.set("auto_pipeline", auto_pipeline)

    def set_pipeline_result_broadcast(self, pipeline_result_broadcast):
        if not isinstance(pipeline_result_broadcast, bool):
            raise TypeError("For 'set_auto_parallel_context().set_pipeline_result_broadcast', the argument "
                            "'pipeline_result_broadcast' must be bool, but got the type : {}."
                            .format(type(pipeline_result_broadcast)))
        self._handle.set("pipeline_result_broadcast", pipeline_result_broadcast)

    def set_parallel_mode(self, parallel_mode):
        # MindSpore's source also has a PyNative-mode restriction here, but MindSpore 2.10 never
        # applies it (semi_auto_parallel is accepted in the default PyNative mode); we match that.
        if not self._handle.setParallelMode(parallel_mode):
            raise ValueError("The context configuration parameter 'parallel_mode' only support 'stand_alone', "
                             "'data_parallel', 'hybrid_parallel', 'semi_auto_parallel' and 'auto_parallel', "
                             "but got the value : {}.".format(parallel_mode))

    def set_strategy_search_mode(self, search_mode):
        # MindSpore's text names the deprecated key here and the new key in the alias (kept as is).
        if not self._handle.setStrategySearchMode(search_mode):
            raise ValueError("The context configuration parameter 'auto_parallel_search_mode' only support "
                             f"{_SEARCH_MODES_TEXT}, but got the value: {search_mode}.")

    def set_auto_parallel_search_mode(self, search_mode):
        _warn_search_mode_alias()
        if not self._handle.setStrategySearchMode(search_mode):
            raise ValueError("The context configuration parameter 'search_mode' only support "
                             f"{_SEARCH_MODES_TEXT}, but got the value: {search_mode}.")

    def get_auto_parallel_search_mode(self):
        _warn_search_mode_alias()
        return self._handle.get("strategy_search_mode")

    def set_sharding_propagation(self, sharding_propagation):
        logger.warning("This attribute is replaced by "
                       "context.set_auto_parallel_context(search_mode='sharding_propagation'), and this attribute will"
                       " be deleted in a future MindSpore version.")
        if not isinstance(sharding_propagation, bool):
            raise TypeError("For 'set_auto_parallel_context().set_sharding_propagation', "
                            "the argument 'sharding_propagation' must be bool, but got the type : {}."
                            .format(type(sharding_propagation)))
        self._handle.set("sharding_propagation", sharding_propagation)

    def set_parameter_broadcast(self, parameter_broadcast):
        self._handle.set("parameter_broadcast", parameter_broadcast)

    def set_strategy_ckpt_load_file(self, strategy_ckpt_load_file):
        self._handle.set("strategy_ckpt_load_file", strategy_ckpt_load_file)

    def set_strategy_ckpt_save_file(self, strategy_ckpt_save_file):
        _make_parent_dir(strategy_ckpt_save_file)
        self._handle.set("strategy_ckpt_save_file", strategy_ckpt_save_file)

    def set_group_ckpt_save_file(self, group_ckpt_save_file):
        _make_parent_dir(group_ckpt_save_file)
        self._handle.set("group_ckpt_save_file", group_ckpt_save_file)

    def set_full_batch(self, full_batch):
        self._handle.set("full_batch", full_batch)

    def set_enable_parallel_optimizer(self, enable_parallel_optimizer):
        if not isinstance(enable_parallel_optimizer, bool):
            raise TypeError("For 'set_auto_parallel_context', "
                            "the argument 'enable_parallel_optimizer' must be bool, but got the type : {}."
                            .format(type(enable_parallel_optimizer)))
        self._handle.set("enable_parallel_optimizer", enable_parallel_optimizer)

    def set_force_fp32_communication(self, force_fp32_communication):
        if not isinstance(force_fp32_communication, bool):
            raise TypeError("For 'set_auto_parallel_context', "
                            "the argument 'force_fp32_communication' must be bool, but got the type : {}."
                            .format(type(force_fp32_communication)))
        self._handle.set("force_fp32_communication", force_fp32_communication)

    def set_enable_alltoall(self, enable_a2a):
        if not isinstance(enable_a2a, bool):
            raise TypeError("For 'set_auto_parallel_context().set_enable_alltoall', the argument 'enable_a2a' "
                            "must be bool, but got the type : {}.".format(type(enable_a2a)))
        self._handle.set("enable_alltoall", enable_a2a)

    def set_grad_accumulation_step(self, grad_accumulation_step):
        if grad_accumulation_step > 1:
            raise ValueError("The interface is deprecated. To use gradient accumulation, "
                             "please use GradAccumulationCell in mindspore.nn.wrap.cell_wrapper.")
        Validator.check_positive_int(grad_accumulation_step, prim_name="grad_accumulation_step")
        self._handle.set("grad_accumulation_step", grad_accumulation_step)

    def set_communi_parallel_mode(self, communi_parallel_mode):
        if not isinstance(communi_parallel_mode, str):
            raise TypeError("For 'set_auto_parallel_context().set_communi_parallel_mode', "
                            "the argument 'communi_parallel_mode' must be str, but got the type : {}."
                            .format(type(communi_parallel_mode)))
        if not self._handle.setCommuniParallelMode(communi_parallel_mode):
            raise ValueError("For 'set_auto_parallel_context().set_communi_parallel_mode', "
                             "the argument 'communi_parallel_mode' only support 'ALL_GROUP_PARALLEL', "
                             "'SAME_SEVER_GROUP_PARALLEL' and 'NO_GROUP_PARALLEL', "
                             "but got the value : {}.".format(communi_parallel_mode))

    def set_optimizer_weight_shard_size(self, optimizer_weight_shard_size):
        if not isinstance(optimizer_weight_shard_size, int) or isinstance(optimizer_weight_shard_size, bool):
            raise TypeError(f"The type of optimizer_weight_shard_size must be int, \
                but got {type(optimizer_weight_shard_size)}.")
        if optimizer_weight_shard_size <= 1:
            logger.warning("The setting 'optimizer_weight_shard_size' is invalid. "
                           "Please use the integer larger than 1.")
            return
        self._handle.set("optimizer_weight_shard_size", optimizer_weight_shard_size)

    def set_optimizer_weight_shard_aggregated_save(self, optimizer_weight_shard_aggregated_save):
        if not isinstance(optimizer_weight_shard_aggregated_save, bool):
            raise TypeError('optimizer_weight_shard_aggregated_save is invalid type')
        self._handle.set("optimizer_weight_shard_aggregated_save", optimizer_weight_shard_aggregated_save)

    def set_dump_local_norm(self, dump_local_norm):
        self._handle.set("dump_local_norm", dump_local_norm)

    def set_dump_local_norm_path(self, dump_local_norm_path):
        self._handle.set("dump_local_norm_path", dump_local_norm_path)

    def set_dump_device_local_norm(self, dump_device_local_norm):
        self._handle.set("dump_device_local_norm", dump_device_local_norm)

    def set_auto_parallel_new_interface(self, auto_parallel_new_interface):
        self._handle.set("auto_parallel_new_interface", auto_parallel_new_interface)

    def set_init_param_in_compile(self, init_param_in_compile):
        self._handle.set("init_param_in_compile", init_param_in_compile)

    # --- structured values --------------------------------------------------------------------

    def set_dataset_strategy(self, dataset_strategy):
        if isinstance(dataset_strategy, str):
            if dataset_strategy not in ("full_batch", "data_parallel"):
                raise ValueError("For 'set_auto_parallel_context', the argument "
                                 "'dataset_strategy' must be 'full_batch' or 'data_parallel', but got the value : {}."
                                 .format(dataset_strategy))
            self._handle.set("full_batch", dataset_strategy == "full_batch")
            self._dataset_strategy_using_str = True
            return
        if not isinstance(dataset_strategy, tuple):
            raise TypeError("For 'set_auto_parallel_context', the argument 'dataset_strategy' "
                            "must be str or tuple type, but got the type : {}.".format(type(dataset_strategy)))
        if dataset_strategy and _is_layout(dataset_strategy[0]):
            self._set_dataset_strategy_layout(dataset_strategy)
            return
        for ele in dataset_strategy:
            if not isinstance(ele, tuple):
                raise TypeError("For 'set_auto_parallel_context', the element of argument "
                                "'dataset_strategy' must be tuple, but got the type : {} .".format(type(ele)))
            for dim in ele:
                if not isinstance(dim, int):
                    raise TypeError("For 'set_auto_parallel_context', the element of argument "
                                    "'dataset_strategy' must be int type, but got the type : {} .".format(type(dim)))
        self._dataset_strategy_using_str = False
        self._handle.set("dataset_strategy", [list(ele) for ele in dataset_strategy])

    def _set_dataset_strategy_layout(self, dataset_strategy):
        for ele in dataset_strategy:
            if not _is_layout(ele):
                raise TypeError(f"All the dataset_strategy elements should be Layout, but got {type(ele)}")
            if ele.to_dict()["interleaved_parallel"]:
                raise ValueError("For dataset_strategy, layout does not support interleaved_parallel")
        self._dataset_layout = dataset_strategy
        self._handle.set("dataset_strategy", [])

    def get_dataset_strategy(self):
        if self._dataset_layout is not None:
            return self._dataset_layout
        if self._dataset_strategy_using_str:
            return "full_batch" if self._handle.get("full_batch") else "data_parallel"
        return self._handle.get("dataset_strategy")

    def get_full_batch(self):
        return self._handle.get("full_batch")

    def set_strategy_ckpt_config(self, strategy_ckpt_config):
        if not isinstance(strategy_ckpt_config, dict):
            raise TypeError("For 'set_auto_parallel_context', the argument 'strategy_ckpt_config' "
                            "must be dict, but got the type : {}.".format(type(strategy_ckpt_config)))
        for name in strategy_ckpt_config:
            if name not in ["load_file", "save_file", "only_trainable_params"]:
                raise ValueError("Unknown config: {}".format([name]))
        for name, key in (("load_file", "strategy_ckpt_load_file"), ("save_file", "strategy_ckpt_save_file")):
            if name in strategy_ckpt_config:
                value = strategy_ckpt_config.get(name)
                if not isinstance(value, str):
                    raise TypeError("For 'set_auto_parallel_context().set_strategy_ckpt_config', "
                                    f"the argument '{name}' must be str, but got the type : {type(value)} .")
                self._handle.set(key, value)
        if "only_trainable_params" in strategy_ckpt_config:
            value = strategy_ckpt_config.get("only_trainable_params")
            if not isinstance(value, bool):
                raise TypeError("For 'set_auto_parallel_context().set_strategy_ckpt_config', "
                                "the argument 'only_trainable_params' must be bool,"
                                " but got the type : {} .".format(type(value)))
            self._handle.set("stra_file_only_trainable_params", value)

    def get_strategy_ckpt_config(self):
        return {"load_file": self._handle.get("strategy_ckpt_load_file"),
                "save_file": self._handle.get("strategy_ckpt_save_file"),
                "only_trainable_params": self._handle.get("stra_file_only_trainable_params")}

    def set_pipeline_config(self, pipeline_config):
        if not isinstance(pipeline_config, dict):
            raise TypeError("For 'set_pipeline_config', the argument 'pipeine_config' "
                            "must be dict, but got the type : {}.".format(type(pipeline_config)))
        for name in pipeline_config:
            if name not in ["pipeline_interleave", "pipeline_scheduler"]:
                raise ValueError("Unknown config: {}".format([name]))
        Validator.check_bool(pipeline_config["pipeline_interleave"], "pipeline_interleave", "pipeline_interleave")
        self._handle.set("pipeline_interleave", pipeline_config["pipeline_interleave"])
        Validator.check_string(pipeline_config["pipeline_scheduler"], _PIPELINE_SCHEDULERS)
        scheduler = pipeline_config["pipeline_scheduler"]
        if not pipeline_config["pipeline_interleave"] and scheduler != "1f1b":
            raise TypeError(f"When pipeline_interleave is False, {scheduler!r} is not supported, "
                            "only '1f1b' is allowed.")
        self._handle.set("pipeline_scheduler", pipeline_config["pipeline_scheduler"])

    def set_parallel_optimizer_config(self, parallel_optimizer_config):
        for name in parallel_optimizer_config:
            if name not in _OPTIMIZER_CONFIG_KEYS:
                raise ValueError("Unknown config: {}".format([name]))
        if "gradient_accumulation_shard" in parallel_optimizer_config:
            value = parallel_optimizer_config["gradient_accumulation_shard"]
            Validator.check_bool(value, "gradient_accumulation_shard", "gradient_accumulation_shard")
            self._handle.set("grad_accumulation_shard", value)
            if "optimizer_level" in parallel_optimizer_config and parallel_optimizer_config["optimizer_level"] != "level2":
                raise ValueError(f"The optimizer_level is set as {parallel_optimizer_config['optimizer_level']}, "
                                 "thus cannot set grad_accumulation_shard as True.")
        if "parallel_optimizer_threshold" in parallel_optimizer_config:
            Validator.check_non_negative_int(parallel_optimizer_config["parallel_optimizer_threshold"],
                                             prim_name="parallel_optimizer_threshold")
            self._handle.set("parallel_optimizer_threshold", parallel_optimizer_config["parallel_optimizer_threshold"])
        if "optimizer_weight_shard_size" in parallel_optimizer_config:
            value = parallel_optimizer_config["optimizer_weight_shard_size"]
            if value != -1:
                Validator.check_positive_int(value, prim_name="optimizer_weight_shard_size")
                self.set_optimizer_weight_shard_size(value)
        if "optimizer_level" in parallel_optimizer_config:
            level = parallel_optimizer_config["optimizer_level"]
            if level not in ["level1", "level2", "level3"]:
                raise ValueError("Optimizer level should in ['level1', 'level2', 'level3'], but got {}"
                                 .format(level))
            if self._handle.get("grad_accumulation_shard") and level != "level2":
                raise ValueError("The grad_accumulation shard is set, thus cannot set optimizer_level != 'level2'")
            if level == "level2":
                self._handle.set("grad_accumulation_shard", True)
            if level == "level3":
                self._handle.set("zero3", True)
                self._handle.set("grad_accumulation_shard", False)

    # --- communication fusion -----------------------------------------------------------------

    def set_all_reduce_fusion_split_indices(self, indices, group=""):
        if not indices:
            raise ValueError("For 'set_auto_parallel_context().set_all_reduce_fusion_split_indices', "
                             "the argument 'indices' can not be empty")
        if isinstance(indices, list):
            for index in indices:
                if not isinstance(index, int) or isinstance(index, bool):
                    raise TypeError("For 'set_auto_parallel_context().set_all_reduce_fusion_split_indices', "
                                    "the argument 'index' must be int, but got the type : {} .".format(type(index)))
        else:
            raise TypeError("For 'set_auto_parallel_context().set_all_reduce_fusion_split_indices', "
                            "the argument 'indices' must be list, but got the type : {} .".format(type(indices)))
        if len(set(indices)) != len(indices):
            raise ValueError("The indices has duplicate elements")
        if sorted(indices) != indices:
            raise ValueError("For 'set_auto_parallel_context().set_all_reduce_fusion_split_indices', "
                             "the elements in argument 'indices' must be sorted in ascending order")
        self._handle.setAllReduceFusionSplitIndices(indices, _check_and_default_group(group))

    def get_all_reduce_fusion_split_indices(self, group=""):
        return self._handle.allReduceFusionSplitIndices(_check_and_default_group(group))

    def set_all_reduce_fusion_split_sizes(self, sizes, group=""):
        if isinstance(sizes, list):
            for size in sizes:
                if not isinstance(size, int) or isinstance(size, bool):
                    raise TypeError("For 'set_auto_parallel_context().set_all_reduce_fusion_split_sizes', "
                                    "the argument 'sizes' must be int, but got the type : {}.".format(type(size)))
        else:
            raise TypeError("For 'set_auto_parallel_context().set_all_reduce_fusion_split_sizes', "
                            "the argument 'sizes' must be list, but got the type : {}.".format(type(sizes)))
        self._handle.setAllReduceFusionSplitSizes(sizes, _check_and_default_group(group))

    def get_all_reduce_fusion_split_sizes(self, group=""):
        return self._handle.allReduceFusionSplitSizes(_check_and_default_group(group))

    def _set_fusion_flag(self, key, method, value):
        if not isinstance(value, bool):
            raise TypeError(f"For 'set_auto_parallel_context().{method}', "
                            "the argument 'enable_fusion' must be bool, but got the type : {}.".format(type(value)))
        self._handle.set(key, value)

    def set_enable_all_reduce_fusion(self, enable_all_reduce_fusion):
        self._set_fusion_flag("enable_all_reduce_fusion", "set_enable_all_reduce_fusion", enable_all_reduce_fusion)

    def set_enable_all_gather_fusion(self, enable_all_gather_fusion):
        self._set_fusion_flag("enable_all_gather_fusion", "set_enable_all_gather_fusion", enable_all_gather_fusion)

    def set_enable_reduce_scatter_fusion(self, enable_reduce_scatter_fusion):
        self._set_fusion_flag("enable_reduce_scatter_fusion", "set_enable_reduce_scatter_fusion", enable_reduce_scatter_fusion)

    def set_fusion_threshold_mb(self, fusion_threshold=64, comm_type="allreduce"):
        if fusion_threshold < 0:
            raise ValueError("fusion threshold must be larger than 0, but got {}".format(fusion_threshold))
        key = {"allreduce": "fusion_threshold_mb", "allgather": "allgather_fusion_threshold_mb",
               "reducescatter": "reducescatter_fusion_threshold_mb"}.get(comm_type)
        if key is not None:
            self._handle.set(key, fusion_threshold)

    def set_comm_fusion(self, config):
        config = copy.deepcopy(config)
        if "openstate" not in config:
            config["openstate"] = True
        for key in list(config.keys()):
            if key == "allreduce":
                self._set_allreduce_comm_fusion(config[key])
            elif key in ("allgather", "reducescatter"):
                self._set_allgather_comm_fusion(config[key], key)
            elif key == "openstate":
                self._set_openstate_comm_fusion(config[key])
            else:
                raise KeyError("comm fusion type must be openstate,"
                               "allreduce, allgather or reducescatter, but got {}".format(key))
            if key in self._fusion_config:
                self._fusion_config[key] = config[key]

    def get_comm_fusion(self):
        return self._fusion_config

    def _check_fusion_entry(self, comm_fusion, what):
        if not isinstance(comm_fusion, dict):
            raise TypeError("For 'comm_fusion', {} config must be dict, but got the type : {}.".format(
                what, type(comm_fusion)))
        if "mode" not in comm_fusion:
            raise KeyError("For 'comm_fusion', the key 'mode' should be contained.")
        if "config" not in comm_fusion:
            raise KeyError("For 'comm_fusion', the key 'config' should be contained.")

    def _set_allgather_comm_fusion(self, comm_fusion, comm_type):
        flag = "enable_all_gather_fusion" if comm_type == "allgather" else "enable_reduce_scatter_fusion"
        if not self._handle.get(flag):
            self._handle.set(flag, True)
        self._check_fusion_entry(comm_fusion, comm_type)
        if comm_fusion["mode"] not in ("auto", "size"):
            raise KeyError("fusion method mode must be auto or size, but got {}".format(comm_fusion["mode"]))
        self._handle.set("fusion_mode", comm_fusion["mode"])
        threshold = 64 if comm_fusion["mode"] == "auto" else comm_fusion["config"]
        self.set_fusion_threshold_mb(threshold, comm_type)

    def _set_allreduce_comm_fusion(self, comm_fusion):
        if not self._handle.get("enable_all_reduce_fusion"):
            self._handle.set("enable_all_reduce_fusion", True)
        self._check_fusion_entry(comm_fusion, "the 'allreduce'")
        mode = comm_fusion["mode"]
        if mode not in ("auto", "index", "size"):
            raise KeyError("fusion method mode must be auto, index or size, but got {}".format(mode))
        self._handle.set("fusion_mode", mode)
        if mode == "auto":
            self.set_fusion_threshold_mb(fusion_threshold=64)
        elif mode == "size":
            self.set_fusion_threshold_mb(comm_fusion["config"])
        else:
            self.set_all_reduce_fusion_split_indices(comm_fusion["config"])

    def _set_openstate_comm_fusion(self, openstate):
        if not isinstance(openstate, bool):
            raise TypeError("For 'comm_fusion', the 'openstate' must be bool, but got the type : {}.".format(
                type(openstate)))
        if not openstate:
            for key in ("enable_all_reduce_fusion", "enable_all_gather_fusion", "enable_reduce_scatter_fusion"):
                self._handle.set(key, False)

    # --- getters (MindSpore's names) ------------------------------------------------------------

    def check_context_handle(self):
        """The Java context always exists for this interpreter (MindSpore checks its C++ handle)."""

    def _value(self, key):
        return self._handle.get(key)

    def get_parallel_mode(self):
        return self._value("parallel_mode")

    def get_pipeline_stages(self):
        return self._value("pipeline_stage_split_num")

    def get_pipeline_segments(self):
        return self._value("pipeline_segment_split_num")

    def get_strategy_search_mode(self):
        return self._value("strategy_search_mode")

    def get_enable_fold_pipeline(self):
        return False

    def fusion_threshold_mb(self):
        return self._value("fusion_threshold_mb")

    def allgather_fusion_threshold_mb(self):
        return self._value("allgather_fusion_threshold_mb")

    def reducescatter_fusion_threshold_mb(self):
        return self._value("reducescatter_fusion_threshold_mb")

    def get_auto_pipeline(self):
        return self._value("auto_pipeline")

    def get_pipeline_result_broadcast(self):
        return self._value("pipeline_result_broadcast")

    def get_pipeline_interleave(self):
        return self._value("pipeline_interleave")

    def get_pipeline_scheduler(self):
        return self._value("pipeline_scheduler")

    def get_gradients_mean(self):
        return self._value("gradients_mean")

    def get_gradient_fp32_sync(self):
        return self._value("gradient_fp32_sync")

    def get_loss_repeated_mean(self):
        return self._value("loss_repeated_mean")

    def get_sharding_propagation(self):
        return self._value("sharding_propagation")

    def get_parameter_broadcast(self):
        return self._value("parameter_broadcast")

    def get_strategy_ckpt_load_file(self):
        return self._value("strategy_ckpt_load_file")

    def get_grad_accumulation_step(self):
        return self._value("grad_accumulation_step")

    def get_strategy_ckpt_save_file(self):
        return self._value("strategy_ckpt_save_file")

    def get_parameter_broadcast_is_set(self):
        return self._value("parameter_broadcast_is_set")

    def get_enable_all_reduce_fusion(self):
        return self._value("enable_all_reduce_fusion")

    def get_enable_all_gather_fusion(self):
        return self._value("enable_all_gather_fusion")

    def get_enable_reduce_scatter_fusion(self):
        return self._value("enable_reduce_scatter_fusion")

    def get_device_num_is_set(self):
        return self._value("device_num_is_set")

    def get_global_rank_is_set(self):
        return self._value("global_rank_is_set")

    def get_enable_parallel_optimizer(self):
        return self._value("enable_parallel_optimizer")

    def get_force_fp32_communication(self):
        return self._value("force_fp32_communication")

    def get_grad_accumulation_shard(self):
        return self._value("grad_accumulation_shard")

    def get_parallel_optimizer_threshold(self):
        return self._value("parallel_optimizer_threshold")

    def get_enable_alltoall(self):
        return self._value("enable_alltoall")

    def get_communi_parallel_mode(self):
        return self._value("communi_parallel_mode")

    def get_optimizer_weight_shard_size(self):
        return self._value("optimizer_weight_shard_size")

    def get_optimizer_weight_shard_aggregated_save(self):
        return self._value("optimizer_weight_shard_aggregated_save")

    def get_full_batch_is_set(self):
        return self._value("full_batch_is_set")

    def get_auto_parallel_new_interface(self):
        return self._value("auto_parallel_new_interface")

    def get_init_param_in_compile(self):
        return self._value("init_param_in_compile")

    def get_dump_local_norm(self):
        return self._value("dump_local_norm")

    def get_dump_local_norm_path(self):
        return self._value("dump_local_norm_path")

    def get_dump_device_local_norm(self):
        return self._value("dump_device_local_norm")

    def reset(self):
        self._handle.reset()
        self._fusion_config = _default_fusion_config()
        self._dataset_layout = None
        self._dataset_strategy_using_str = True


def _warn_search_mode_alias():
    logger.warning("The attribute 'auto_parallel_search_mode' is currently replaced by 'search_mode'. "
                   "The attribute 'auto_parallel_search_mode' will be deleted in a future MindSpore version.")


def _make_parent_dir(path):
    dir_path = os.path.dirname(path)
    if dir_path and not os.path.exists(dir_path):
        makedirs(dir_path, 0o700)


def _is_layout(value):
    return type(value).__name__ == "Layout" and hasattr(value, "to_dict")


def _check_and_default_group(group):
    if isinstance(group, str):
        if len(group) > _MAX_GROUP_NAME_LEN:
            raise ValueError('Group name len is out of range {_MAX_GROUP_NAME_LEN}')
    else:
        raise TypeError('Group must be a python str')
    if group == "":
        return _DEFAULT_HCCL_FUSION_GROUP_NAME if _device_target() == "Ascend" else _DEFAULT_NCCL_FUSION_GROUP_NAME
    return group


_CONTEXT = None


def auto_parallel_context():
    """This interpreter's auto-parallel context (created on first use)."""
    global _CONTEXT  # pylint: disable=global-statement
    if _CONTEXT is None:
        _CONTEXT = _AutoParallelContext()
    return _CONTEXT


def _plain_getter(key):
    return lambda: auto_parallel_context()._handle.get(key)  # pylint: disable=protected-access


_SETTERS = {
    "device_num": "set_device_num", "global_rank": "set_global_rank",
    "gradients_mean": "set_gradients_mean", "gradient_fp32_sync": "set_gradient_fp32_sync",
    "loss_repeated_mean": "set_loss_repeated_mean", "pipeline_stages": "set_pipeline_stages",
    "auto_pipeline": "set_auto_pipeline", "pipeline_result_broadcast": "set_pipeline_result_broadcast",
    "pipeline_segments": "set_pipeline_segments", "parallel_mode": "set_parallel_mode",
    "search_mode": "set_strategy_search_mode", "auto_parallel_search_mode": "set_auto_parallel_search_mode",
    "parameter_broadcast": "set_parameter_broadcast", "strategy_ckpt_load_file": "set_strategy_ckpt_load_file",
    "strategy_ckpt_save_file": "set_strategy_ckpt_save_file", "group_ckpt_save_file": "set_group_ckpt_save_file",
    "full_batch": "set_full_batch", "dataset_strategy": "set_dataset_strategy",
    "enable_parallel_optimizer": "set_enable_parallel_optimizer",
    "force_fp32_communication": "set_force_fp32_communication",
    "parallel_optimizer_config": "set_parallel_optimizer_config", "pipeline_config": "set_pipeline_config",
    "grad_accumulation_step": "set_grad_accumulation_step",
    "all_reduce_fusion_config": "set_all_reduce_fusion_split_indices",
    "communi_parallel_mode": "set_communi_parallel_mode",
    "optimizer_weight_shard_size": "set_optimizer_weight_shard_size",
    "optimizer_weight_shard_aggregated_save": "set_optimizer_weight_shard_aggregated_save",
    "sharding_propagation": "set_sharding_propagation", "enable_alltoall": "set_enable_alltoall",
    "strategy_ckpt_config": "set_strategy_ckpt_config", "comm_fusion": "set_comm_fusion",
    "dump_local_norm": "set_dump_local_norm", "dump_local_norm_path": "set_dump_local_norm_path",
    "dump_device_local_norm": "set_dump_device_local_norm",
    "auto_parallel_new_interface": "set_auto_parallel_new_interface",
    "init_param_in_compile": "set_init_param_in_compile",
}

# Gettable keys: a method of the context, or the name of the stored Java value.
_GETTERS = {
    "device_num": "device_num", "global_rank": "global_rank", "gradients_mean": "gradients_mean",
    "gradient_fp32_sync": "gradient_fp32_sync", "loss_repeated_mean": "loss_repeated_mean",
    "pipeline_stages": "pipeline_stage_split_num", "auto_pipeline": "auto_pipeline",
    "pipeline_result_broadcast": "pipeline_result_broadcast", "pipeline_interleave": "pipeline_interleave",
    "pipeline_scheduler": "pipeline_scheduler", "parallel_mode": "parallel_mode",
    "search_mode": "strategy_search_mode", "auto_parallel_search_mode": "get_auto_parallel_search_mode",
    "parameter_broadcast": "parameter_broadcast", "strategy_ckpt_load_file": "strategy_ckpt_load_file",
    "strategy_ckpt_save_file": "strategy_ckpt_save_file", "full_batch": "get_full_batch",
    "dataset_strategy": "get_dataset_strategy", "enable_parallel_optimizer": "enable_parallel_optimizer",
    "force_fp32_communication": "force_fp32_communication", "grad_accumulation_step": "grad_accumulation_step",
    "all_reduce_fusion_config": "get_all_reduce_fusion_split_indices",
    "communi_parallel_mode": "communi_parallel_mode", "optimizer_weight_shard_size": "optimizer_weight_shard_size",
    "optimizer_weight_shard_aggregated_save": "optimizer_weight_shard_aggregated_save",
    "sharding_propagation": "sharding_propagation", "enable_alltoall": "enable_alltoall",
    "comm_fusion": "get_comm_fusion", "strategy_ckpt_config": "get_strategy_ckpt_config",
    "full_batch_is_set": "full_batch_is_set", "dump_local_norm": "dump_local_norm",
    "dump_local_norm_path": "dump_local_norm_path", "dump_device_local_norm": "dump_device_local_norm",
    "auto_parallel_new_interface": "auto_parallel_new_interface", "init_param_in_compile": "init_param_in_compile",
}


@args_type_check(device_num=int, global_rank=int, gradients_mean=bool, gradient_fp32_sync=bool,
                 loss_repeated_mean=bool, parallel_mode=str, search_mode=str, auto_parallel_search_mode=str,
                 parameter_broadcast=bool, strategy_ckpt_load_file=str,
                 strategy_ckpt_save_file=str, full_batch=bool, enable_parallel_optimizer=bool,
                 grad_accumulation_step=int, all_reduce_fusion_config=list, group_ckpt_save_file=str,
                 communi_parallel_mode=str, optimizer_weight_shard_size=int, sharding_propagation=bool,
                 optimizer_weight_shard_aggregated_save=bool, enable_alltoall=bool, comm_fusion=dict,
                 strategy_ckpt_config=dict, force_fp32_communication=bool)
def _set_auto_parallel_context(**kwargs):
    """Applies each key in the order given; a failing key raises and earlier keys stay set."""
    ctx = auto_parallel_context()
    for key, value in kwargs.items():
        if key not in _SETTERS:
            raise ValueError("Set context keyword %s is not recognized!" % key)
        getattr(ctx, _SETTERS[key])(value)


def _get_auto_parallel_context(attr_key):
    if attr_key not in _GETTERS:
        raise ValueError("Get context keyword %s is not recognized!" % attr_key)
    ctx = auto_parallel_context()
    getter = _GETTERS[attr_key]
    if getter.startswith("get_"):
        return getattr(ctx, getter)()
    return ctx._handle.get(getter)  # pylint: disable=protected-access


def _reset_auto_parallel_context():
    auto_parallel_context().reset()
