"""``mindspore.parallel.auto_parallel.AutoParallel``: a network wrapped with its own parallel
configuration, applied while the network compiles and cleared afterwards.

Checks, messages and defaults follow MindSpore 2.10's ``mindspore/parallel/auto_parallel.py``; every
method only records its setting. When a graph containing the wrapper compiles (``mindspore.common._graph``),
``_compile_context`` maps the recorded settings onto the auto-parallel context exactly as MindSpore's
``_init_auto_parallel_context`` does (one rank: ``stand_alone``; ``sharding_propagation`` and
``recursive_programming``: ``auto_parallel`` with that search mode; ``semi_auto``:
``semi_auto_parallel``), and resets the context when the compile ends.
"""
import contextlib
import os

from mindspore.communication.management import get_rank, get_group_size
from mindspore.nn.cell import Cell
from mindspore.parallel.shard import Layout

_SCHEDULERS = ("1f1b", "gpipe", "seqpipe", "seqvpp", "seqsmartvpp", "zero_bubble_v")


def _check_path(file_path):
    if not isinstance(file_path, str):
        raise TypeError("the argument 'file_path' must be str, but got the type : {} .".format(type(file_path)))


def _check_json_path(file_path):
    _check_path(file_path)
    if not os.path.isabs(file_path):
        raise KeyError("the argument 'file_path' must be an absolute path.")
    if os.path.splitext(file_path)[1] != ".json":
        raise KeyError("File type must be .json")


class AutoParallel(Cell):
    """Wraps the top-level network (or network with loss) of a parallel job; see the module text."""

    def __init__(self, network, parallel_mode="semi_auto"):
        super().__init__(auto_prefix=False)
        self.network = network
        if parallel_mode not in ["semi_auto", "sharding_propagation", "recursive_programming"]:
            raise ValueError("the argument 'parallel_mode' must be one of ['semi_auto', 'sharding_propagation',"
                             " 'recursive_programming'], but got the value : {} .".format(parallel_mode))
        self._parallel_mode = parallel_mode
        self._global_rank = get_rank()
        self._device_num = get_group_size()
        self._init_param_in_compile = True
        self._load_strategy_file_path = ""
        self._save_strategy_file_path = ""
        self._only_trainable_params = True
        self._load_operator_strategy_file = ""
        self._save_operator_strategy_file = ""
        self._dataset_strategy_config = "data_parallel"
        self._full_batch = False
        self._enable_parallel_optimizer = False
        self._optimizer_weight_shard_size = -1
        self._parallel_optimizer_threshold = 64
        self._optimizer_level = "level1"
        self._pipeline_stages = 1
        self._pipeline_result_broadcast = False
        self._pipeline_interleave = False
        self._pipeline_scheduler = "1f1b"
        self._comm_fusion_config = {}
        self._force_fp32_communication = False
        self._enable_alltoall = True
        self._parameter_broadcast = False
        self._group_ckpt_save_file = ""
        self._dump_local_norm = False
        self._dump_local_norm_path = ""
        self._dump_device_local_norm = False
        self._gradients_mean = False
        self._gradient_fp32_sync = True
        self._loss_repeated_mean = True
        self._transformer_opt_config = None

    def construct(self, *args, **kwargs):
        return self.network(*args, **kwargs)

    def no_init_parameters_in_compile(self):
        """Parameters are not initialised while compiling (recorded; ours are initialised eagerly)."""
        self._init_param_in_compile = False

    def load_param_strategy_file(self, file_path):
        """The strategy checkpoint to load when compiling (``strategy_ckpt_load_file``)."""
        _check_path(file_path)
        self._load_strategy_file_path = file_path

    def save_param_strategy_file(self, file_path):
        """The strategy checkpoint to save when compiling (``strategy_ckpt_save_file``)."""
        _check_path(file_path)
        self._save_strategy_file_path = file_path

    def disable_strategy_file_only_for_trainable_params(self):
        """Strategy checkpoints also cover non-trainable parameters."""
        self._only_trainable_params = False

    def save_operator_strategy_file(self, file_path):
        """The operator strategy JSON to save with sharding_propagation (absolute ``.json`` path)."""
        _check_json_path(file_path)
        self._save_operator_strategy_file = file_path

    def load_operator_strategy_file(self, file_path):
        """The operator strategy JSON to load with sharding_propagation (absolute ``.json`` path)."""
        _check_json_path(file_path)
        self._load_operator_strategy_file = file_path

    def dataset_strategy(self, config):
        """``"data_parallel"``, ``"full_batch"`` or a tuple of per-input strategies/Layouts."""
        if config is None:
            raise ValueError("dataset_strategy is none in config!")
        if isinstance(config, str):
            if config not in ("full_batch", "data_parallel"):
                raise ValueError("For 'AutoParallel.dataset_strategy', the argument "
                                 "'config' must be 'full_batch' or 'data_parallel', but got the value : {}."
                                 .format(config))
            self._full_batch = config == "full_batch"
            self._dataset_strategy_config = config
            return
        if not isinstance(config, tuple):
            raise TypeError("For 'AutoParallel.dataset_strategy', the argument 'config' "
                            "must be str or tuple type, but got the type : {}.".format(type(config)))
        for ele in config:
            if isinstance(ele, tuple):
                for dim in ele:
                    if not isinstance(dim, int):
                        raise TypeError("For 'AutoParallel.dataset_strategy', the element of argument "
                                        "'config' must be int type, but got the type : {} .".format(type(dim)))
            elif not isinstance(ele, Layout):
                raise TypeError("For 'AutoParallel.dataset_strategy', the element of argument "
                                "'config' must be tuple or Layout, but got the type : {} .".format(type(ele)))
        self._dataset_strategy_config = config

    def hsdp(self, shard_size=-1, threshold=64, optimizer_level="level1"):
        """Optimizer parallel (weights and optimizer state sharded across the data-parallel group)."""
        self._enable_parallel_optimizer = True
        if not isinstance(shard_size, int) or (shard_size <= 0 and shard_size != -1):
            raise ValueError("shard_size must be a positive integer or -1, but got {}.".format(shard_size))
        self._optimizer_weight_shard_size = shard_size
        if not isinstance(threshold, int) or threshold < 0:
            raise ValueError("threshold must be a positive integer or 0, but got {}.".format(threshold))
        self._parallel_optimizer_threshold = threshold
        if optimizer_level not in ["level1", "level2", "level3"]:
            raise ValueError("Optimizer level should in ['level1', 'level2', 'level3'], but got {}"
                             .format(optimizer_level))
        self._optimizer_level = optimizer_level

    def pipeline(self, stages=1, output_broadcast=False, interleave=False, scheduler="1f1b"):
        """Pipeline stages, result broadcast, interleaving and scheduler."""
        if not isinstance(stages, int):
            raise TypeError("For 'AutoParallel.pipeline', the argument 'stages' "
                            "must be int type, but got the type : {}.".format(type(stages)))
        if stages <= 0:
            raise ValueError("For 'AutoParallel.pipeline', the argument 'stages' "
                             "must be larger than zero, but got value: {}.".format(stages))
        if not isinstance(output_broadcast, bool):
            raise TypeError("For 'AutoParallel.pipeline', the argument 'output_broadcast' "
                            "must be bool type, but got the type : {}.".format(type(output_broadcast)))
        if not isinstance(interleave, bool):
            raise TypeError("For 'AutoParallel.pipeline', the argument 'interleave' "
                            "must be bool type, but got the type : {}.".format(type(interleave)))
        if not isinstance(scheduler, str):
            raise TypeError("For 'AutoParallel.pipeline', the argument 'scheduler' "
                            "must be str type, but got the type : {}.".format(type(scheduler)))
        if scheduler not in _SCHEDULERS:
            raise ValueError("For 'AutoParallel.pipeline', the argument "
                             "'scheduler' must be '1f1b'/'gpipe'/'seqpipe'/'seqvpp'/'seqsmartvpp'/'zero_bubble_v' ,"
                             " but got the value : {}.".format(scheduler))
        self._pipeline_stages = stages
        self._pipeline_result_broadcast = output_broadcast
        self._pipeline_interleave = interleave
        self._pipeline_scheduler = scheduler

    def comm_fusion(self, config):
        """Communication fusion configuration (as ``set_auto_parallel_context(comm_fusion=...)``)."""
        if config is not None and not isinstance(config, dict):
            raise TypeError(f"The parameter '{config}' must be {dict}, but got {type(config)}.")
        self._comm_fusion_config = config

    def enable_fp32_communication(self):
        """AllReduce/ReduceScatter communicate in float32."""
        self._force_fp32_communication = True

    def set_group_ckpt_save_file(self, file_path):
        """Where to save the communication groups."""
        _check_path(file_path)
        self._group_ckpt_save_file = file_path

    def print_local_norm(self):
        """Print local norms (recorded)."""
        self._dump_local_norm = True

    def dump_local_norm(self, file_path):
        """Dump local norms to ``file_path`` (recorded)."""
        _check_path(file_path)
        self._dump_local_norm = True
        self._dump_local_norm_path = file_path

    def enable_device_local_norm(self):
        """Device local norms (recorded)."""
        self._dump_device_local_norm = True

    def enable_gradients_mean(self):
        """Mean instead of sum after the gradient AllReduce."""
        self._gradients_mean = True

    def disable_gradient_fp32_sync(self):
        """Gradients are not cast to float32 before their AllReduce."""
        self._gradient_fp32_sync = False

    def disable_loss_repeated_mean(self):
        """No mean in backward for repeated loss calculation."""
        self._loss_repeated_mean = False

    def get_pipeline_stages(self):
        """The configured number of pipeline stages."""
        return self._pipeline_stages

    def transformer_opt(self, file_path):
        """The parallel speed-up JSON (recorded; None or "" disables it)."""
        self._transformer_opt_config = file_path or None

    def _context(self):
        """The auto-parallel context settings this wrapper stands for (MindSpore's
        ``_init_auto_parallel_context`` mapping)."""
        if self._device_num == 1:
            return {"parallel_mode": "stand_alone"}
        ctx = {"device_num": self._device_num, "global_rank": self._global_rank}
        if self._parallel_mode in ("recursive_programming", "sharding_propagation"):
            ctx.update(parallel_mode="auto_parallel", search_mode=self._parallel_mode)
        else:
            ctx.update(parallel_mode="semi_auto_parallel")
        ctx.update(comm_fusion=self._comm_fusion_config or {},
                   strategy_ckpt_config={"load_file": self._load_strategy_file_path,
                                         "save_file": self._save_strategy_file_path,
                                         "only_trainable_params": self._only_trainable_params},
                   dataset_strategy=self._dataset_strategy_config,
                   force_fp32_communication=self._force_fp32_communication,
                   enable_alltoall=self._enable_alltoall,
                   parameter_broadcast=self._parameter_broadcast,
                   group_ckpt_save_file=self._group_ckpt_save_file,
                   gradients_mean=self._gradients_mean,
                   gradient_fp32_sync=self._gradient_fp32_sync,
                   loss_repeated_mean=self._loss_repeated_mean)
        if self._enable_parallel_optimizer:
            config = {"parallel_optimizer_threshold": self._parallel_optimizer_threshold,
                      "optimizer_level": self._optimizer_level}
            if self._optimizer_weight_shard_size != -1:
                config["optimizer_weight_shard_size"] = self._optimizer_weight_shard_size
            ctx.update(enable_parallel_optimizer=True, parallel_optimizer_config=config)
        ctx["pipeline_stages"] = self._pipeline_stages
        if self._pipeline_stages > 1:
            ctx.update(pipeline_result_broadcast=self._pipeline_result_broadcast,
                       pipeline_config={"pipeline_interleave": self._pipeline_interleave,
                                        "pipeline_scheduler": self._pipeline_scheduler})
        return ctx

    @contextlib.contextmanager
    def _compile_context(self):
        """The wrapper's settings in the auto-parallel context while a graph containing it compiles;
        the context is reset afterwards, as MindSpore's ``_clear_auto_parallel_context`` does."""
        from mindspore import context  # pylint: disable=import-outside-toplevel
        context.set_auto_parallel_context(**self._context())
        try:
            yield
        finally:
            context.reset_auto_parallel_context()
