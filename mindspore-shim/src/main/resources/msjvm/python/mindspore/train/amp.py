"""Automatic mixed precision (MindSpore 2.10's ``mindspore/train/amp.py``).

Levels, as MindSpore defines them:

* ``O0``: unchanged.
* ``O1``: the white-listed cells (Dense, Conv2d) run in float16 with float32 outputs; the
  white-listed primitives (MatMul, BatchMatMul, Conv2D, ReLU...) anywhere else likewise. MindSpore
  rewrites the network's source to insert these casts; here the same casts are made at the cell
  and primitive boundaries, which gives the same numbers (a cast pair between two float16
  operators is dropped by MindSpore's rewrite, and never made here).
* ``O2``: the network in float16 except the black-listed cells (BatchNorm, LayerNorm), which run
  in float32; with ``build_train_network`` the default loss scale manager is dynamic.
* ``O3``: the whole network in float16.
* ``auto``: while the network runs, the ``AMP_AUTO_WHITE_LIST`` primitives compute in float16, the
  ``AMP_AUTO_BLACK_LIST`` ones in float32, and any other primitive given floating-point inputs of
  different widths computes in the widest.

Parameters keep their float32 storage; a cell running in float16 casts them as it reads them, so the
optimizer updates float32 master weights.
"""
from mindspore import _checkparam as validator
from mindspore import nn
from mindspore.common import dtype as mstype
from mindspore.nn.cell import Cell
from mindspore.ops import operations as P
from mindspore.ops import primitive as _primitive
from mindspore.ops.primitive import Primitive
from mindspore.train.loss_scale_manager import DynamicLossScaleManager, LossScaleManager

__all__ = ["auto_mixed_precision", "build_train_network", "get_white_list", "get_black_list",
           "custom_mixed_precision"]

# Cells and primitive names of MindSpore 2.10's lists that exist in msjvm.
_WHITE_CELLS = ("Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose",
                "Dense", "LSTMCell", "RNNCell", "GRUCell")
_WHITE_PRIMS = ("Conv2D", "Conv3D", "Conv2DTranspose", "Conv3DTranspose", "Conv2DBackpropInput", "MatMul",
                "BatchMatMul", "PReLU", "ReLU", "Ger")
_BLACK_CELLS = ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm")
_AUTO_WHITE_PRIMS = frozenset((
    "Conv2D", "Conv3D", "Conv2DExt", "Conv3DExt", "ConvTranspose2D", "Conv2DTranspose", "Conv3DTranspose",
    "Convolution", "MatMul", "MatMulExt", "BatchMatMul", "BatchMatMulExt", "PReLU", "Einsum", "Dense", "Addmm",
    "Addbmm", "Addmv", "Baddbmm", "Mv"))
_AUTO_BLACK_PRIMS = frozenset((
    "Pow", "ACos", "Asin", "Cosh", "Erfinv", "Exp", "Expm1", "Log", "Log10", "Log1p", "Log2", "Reciprocal",
    "Rsqrt", "Sinh", "Tan", "Softplus", "SoftplusExt", "LayerNorm", "LayerNormExt", "BatchNorm", "BatchNormExt",
    "GroupNorm", "Norm", "KLDivLoss", "SmoothL1Loss", "MultilabelMarginLoss", "SoftMarginLoss",
    "TripletMarginLoss", "MultiMarginLoss", "BCEWithLogitsLoss", "Pdist", "Cdist", "Renorm", "ReduceProd",
    "Softmax", "LogSoftmax", "LogSoftmaxExt", "CumProd", "CumSum", "CumsumExt", "ProdExt", "SumExt",
    "L1LossExt", "MSELossExt", "NLLLoss", "NLLLoss2d"))
_WIDTH = {mstype.float16: 1, mstype.bfloat16: 1, mstype.float32: 2, mstype.float64: 3}


def _is_a(obj, names):
    """``obj`` is an instance of a class named in ``names`` (by name: the lists name classes msjvm
    may not define)."""
    return any(k.__name__ in names for k in type(obj).__mro__)


class _OutputTo16(Cell):
    """Runs ``backbone`` and casts its output to float16 (a float32 island in a float16 net)."""

    def __init__(self, backbone, dtype=mstype.float16):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self.dtype = dtype

    def construct(self, *args, **kwargs):
        return P.Cast()(self._backbone(*args, **kwargs), self.dtype)


class _OutputTo32(Cell):
    """Runs ``backbone`` and casts its floating-point outputs to float32."""

    def __init__(self, backbone):
        super().__init__(auto_prefix=False)
        self._backbone = backbone

    def construct(self, *args, **kwargs):
        return _primitive._amp_cast_all(self._backbone(*args, **kwargs), mstype.float32)  # pylint: disable=protected-access


def _precision_set_by_user(cell):
    return any(getattr(cell, flag, False) for flag in ("fp32", "fp16", "bf16"))


def _o1(network, dtype, inside_white=False):
    """O1: white-listed cells compute in ``dtype`` with float32 outputs; white-listed primitives
    held by other cells likewise (a cell whose precision the user set is left alone)."""
    for cell in network.name_cells().values():
        if _precision_set_by_user(cell):
            continue
        if not inside_white and _is_a(cell, _WHITE_CELLS):
            for _, sub in cell.cells_and_names():
                object.__setattr__(sub, "_float_dtype", dtype)
            object.__setattr__(cell, "_amp_output_dtype", mstype.float32)
            continue
        _o1(cell, dtype, inside_white)
    if not inside_white:
        for value in network.__dict__.values():
            if isinstance(value, Primitive) and value.name in _WHITE_PRIMS:
                value.__dict__["_amp_cast"] = (dtype, mstype.float32)
    return network


def _auto_black_list(network, dtype):
    """O2 without rewrite: the network in ``dtype``, black-listed cells back in float32 with their
    output cast to ``dtype``."""
    network.to_float(dtype)
    _keep_black_cells_fp32(network, dtype)
    return network


def _keep_black_cells_fp32(network, dtype=mstype.float16):
    for name, cell in list(network.name_cells().items()):
        if cell is network:
            continue
        if _is_a(cell, _BLACK_CELLS):
            network._cells[name] = _OutputTo16(cell.to_float(mstype.float32), dtype)  # pylint: disable=protected-access
        else:
            _keep_black_cells_fp32(cell, dtype)
    if isinstance(network, nn.SequentialCell):
        network.cell_list = list(network.cells())


def _auto_strategy(dtype):
    def choose(prim, args):
        if prim.name in _AUTO_WHITE_PRIMS:
            return dtype, None
        if prim.name in _AUTO_BLACK_PRIMS:
            return mstype.float32, None
        widths = {a.dtype for a in _flat_tensors(args) if a.dtype in _WIDTH}
        if len(widths) > 1:
            return max(widths, key=_WIDTH.get), None
        return None
    return choose


def _flat_tensors(values):
    from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
    for v in values:
        if isinstance(v, Tensor):
            yield v
        elif isinstance(v, (tuple, list)):
            yield from _flat_tensors(v)


def _with_auto_strategy(network, dtype):
    construct = network.construct
    strategy = _auto_strategy(dtype)

    def amp_construct(*args, **kwargs):
        _primitive._AMP_STACK.append(strategy)  # pylint: disable=protected-access
        try:
            return construct(*args, **kwargs)
        finally:
            _primitive._AMP_STACK.pop()  # pylint: disable=protected-access
    object.__setattr__(network, "construct", amp_construct)
    return network


def auto_mixed_precision(network, amp_level="O0", dtype=mstype.float16):
    """Returns ``network`` set up for mixed precision at ``amp_level`` (see the module doc)."""
    if not isinstance(network, Cell):
        raise TypeError(f"For amp_level '{amp_level}', the network type should be Cell or function, bot got "
                        f"{type(network)}.")
    if dtype not in (mstype.float16, mstype.bfloat16):
        raise ValueError(f"The dtype should be one of (mstype.float16, mstype.bfloat16), but got {dtype}.")
    if amp_level == "O0":
        return network
    if getattr(network, "_amp_level", None) in ("O1", "O2", "O3", "auto"):
        from mindspore import log as logger  # pylint: disable=import-outside-toplevel
        logger.warning(f"The network's auto mixed-precision level is adjusted from {getattr(network, '_amp_level')} "
                       f"to {amp_level}, and repeated calls to mixed-precision interfaces can cause performance "
                       f"degradation.")
    if amp_level == "O1":
        network = _o1(network, dtype)
    elif amp_level == "O2":
        network = _OutputTo32(_auto_black_list(network, dtype))
    elif amp_level == "O3":
        network = _OutputTo32(network.to_float(dtype))
    elif amp_level == "auto":
        network = _with_auto_strategy(network, dtype)
    else:
        raise ValueError(f"The amp level {amp_level} is not supported")
    object.__setattr__(network, "_amp_level", amp_level)
    return network


_CONFIG_LEVEL = {
    "O0": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None},
    "O1": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None},
    "O2": {"keep_batchnorm_fp32": True, "cast_model_type": mstype.float16, "loss_scale_manager": "dynamic"},
    "O3": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float16, "loss_scale_manager": None},
    "auto": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None}}


def _check_kwargs(key_words):
    for arg in key_words:
        if arg not in ['cast_model_type', 'keep_batchnorm_fp32', 'loss_scale_manager']:
            raise ValueError(f"Unsupported arg '{arg}'")
    if 'cast_model_type' in key_words and key_words['cast_model_type'] not in (mstype.float16, mstype.float32):
        raise TypeError(f"The type of 'cast_model_type' should be in ['Float16', 'Float32'], but got "
                        f"'{key_words['cast_model_type']}'.")
    if 'keep_batchnorm_fp32' in key_words:
        validator.check_value_type('keep_batchnorm_fp32', key_words['keep_batchnorm_fp32'], bool)
    if key_words.get('loss_scale_manager'):
        validator.check_value_type('loss_scale_manager', key_words['loss_scale_manager'], [LossScaleManager])


def _check_level(level, boost_level):
    if not isinstance(level, str):
        raise TypeError(f"The argument `level` must be a string in ['O0', 'O1', 'O2', 'O3', 'auto'],"
                        f"but got type {type(level)}.")
    if level not in ('O0', 'O1', 'O2', 'O3', 'auto'):
        raise ValueError(f"The 'level' should be in : ['O0', 'O1', 'O2', 'O3', 'auto'], but got {level}.")
    if boost_level not in ('O0', 'O1', 'O2'):
        raise ValueError(f"The 'boost_level' should be in : ['O0', 'O1', 'O2'], but got {boost_level}.")


class WithLossCell(nn.WithLossCell):
    """``loss_fn(float32(backbone(data)), float32(label))``: the loss of a float16 network in float32
    (MindSpore's amp names this cell ``WithLossCell`` too)."""

    def construct(self, data, label):
        out = self._backbone(data)
        label = _primitive._amp_cast_all(label, mstype.float32)  # pylint: disable=protected-access
        return self._loss_fn(_primitive._amp_cast_all(out, mstype.float32), label)  # pylint: disable=protected-access


def _add_loss_network(network, loss_fn, cast_model_type):
    validator.check_value_type('loss_fn', loss_fn, nn.Cell)
    if cast_model_type in (mstype.float16, mstype.bfloat16) or \
            getattr(network, "_amp_level", None) in ("O2", "O3", "auto"):
        return WithLossCell(network, loss_fn)
    return nn.WithLossCell(network, loss_fn)


def _mixed_precision_process(network, config, level):
    if config["cast_model_type"] == mstype.float16:
        network.to_float(mstype.float16)
        if config["keep_batchnorm_fp32"]:
            _keep_black_cells_fp32(network)
    elif not config["keep_batchnorm_fp32"] and level == "O2":
        network.to_float(mstype.float16)
    elif config["cast_model_type"] == mstype.float32 and level in ("O2", "O3"):
        pass
    else:
        network = auto_mixed_precision(network, level)
    return network


def build_train_network(network, optimizer, loss_fn=None, level='O0', boost_level='O0', **kwargs):
    """The training cell of ``network`` at mixed-precision ``level`` (MindSpore's
    ``amp.build_train_network``): ``TrainOneStepCell``, or ``TrainOneStepWithLossScaleCell`` when the
    loss scale manager has an update cell (not allowed on the CPU target, as in MindSpore)."""
    validator.check_value_type('optimizer', optimizer, (nn.Optimizer,))
    _check_level(level, boost_level)
    _check_kwargs(kwargs)
    config = dict(_CONFIG_LEVEL[level], **kwargs)
    if config["loss_scale_manager"] == "dynamic":
        config["loss_scale_manager"] = DynamicLossScaleManager()
    network = _mixed_precision_process(network, config, level)
    if loss_fn:
        network = _add_loss_network(network, loss_fn, config["cast_model_type"])
    loss_scale = None
    manager = config["loss_scale_manager"]
    if manager is not None:
        loss_scale = manager.get_loss_scale()
        update_cell = manager.get_update_cell()
        if update_cell is not None:
            from mindspore.context import get_context  # pylint: disable=import-outside-toplevel
            if get_context("device_target") == "CPU":
                raise ValueError("Only `loss_scale_manager=None` or "
                                 "`loss_scale_manager=FixedLossScaleManager(drop_overflow_update=False)`"
                                 "are supported on device `CPU`. ")
            return nn.TrainOneStepWithLossScaleCell(network, optimizer, scale_sense=update_cell).set_train()
    if _pipeline_stages(network) > 1 or _is_grad_accumulation(network):
        from mindspore.nn.wrap.cell_wrapper import _TrainGradAccuStepCell  # pylint: disable=import-outside-toplevel
        return _TrainGradAccuStepCell(network, optimizer).set_train()
    return nn.TrainOneStepCell(network, optimizer, loss_scale).set_train()


def _pipeline_stages(network):
    """The pipeline stage count of an ``AutoParallel`` wrapper inside ``network``, else the context's."""
    from mindspore.parallel.auto_parallel import AutoParallel  # pylint: disable=import-outside-toplevel
    for _, cell in network.cells_and_names():
        if isinstance(cell, AutoParallel):
            return cell.get_pipeline_stages()
    from mindspore.context import get_auto_parallel_context  # pylint: disable=import-outside-toplevel
    return get_auto_parallel_context("pipeline_stages")


def _is_grad_accumulation(network):
    """Whether ``network`` contains a ``GradAccumulationCell`` (MindSpore tests the class name)."""
    return any(type(cell).__name__ in ("GradAccumulationCell", "GradAccumulation")
               for _, cell in network.cells_and_names())


def get_white_list():
    """The cells and primitives that ``amp_level="O1"`` runs in low precision (a copy)."""
    return _class_list(_WHITE_CELLS, _WHITE_PRIMS)


def get_black_list():
    """The cells that ``amp_level="O2"`` keeps in float32 (a copy)."""
    return _class_list(_BLACK_CELLS, ())


def _class_list(cell_names, prim_names):
    from mindspore.ops import operations as ops_p  # pylint: disable=import-outside-toplevel
    return [getattr(nn, n) for n in cell_names if hasattr(nn, n)] + \
        [getattr(ops_p, n) for n in prim_names if hasattr(ops_p, n)]


def custom_mixed_precision(network, *, white_list=None, black_list=None, dtype=mstype.float16):
    """Mixed precision with the caller's lists: cells of ``white_list`` in ``dtype`` (float32
    outputs), or the whole network in ``dtype`` but the cells of ``black_list``."""
    if white_list is None and black_list is None:
        raise ValueError("For custom_mixed_precision, one of white_list and black_list must be provided.")
    if white_list is not None and black_list is not None:
        raise ValueError("For custom_mixed_precision, the white_list or black_list cannot be provided "
                         "at the same time, please provide one or the other.")
    if white_list is not None:
        names = tuple(c.__name__ for c in white_list)
        for _, cell in network.cells_and_names():
            if cell is not network and _is_a(cell, names) and not _precision_set_by_user(cell):
                for _, sub in cell.cells_and_names():
                    object.__setattr__(sub, "_float_dtype", dtype)
                object.__setattr__(cell, "_amp_output_dtype", mstype.float32)
        return network
    names = tuple(c.__name__ for c in black_list)
    network.to_float(dtype)
    for _, cell in network.cells_and_names():
        if cell is not network and _is_a(cell, names):
            cell.to_float(mstype.float32)
            object.__setattr__(cell, "_amp_output_dtype", dtype)
    return _OutputTo32(network)
