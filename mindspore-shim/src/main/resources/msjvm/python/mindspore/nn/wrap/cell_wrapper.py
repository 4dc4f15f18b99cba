"""``mindspore.nn`` training wrappers: ``WithLossCell``, ``TrainOneStepCell``, ``WithEvalCell``.

Follow MindSpore 2.10's ``mindspore/nn/wrap/cell_wrapper.py``: the wrappers do not prefix names
(``auto_prefix=False``), so a network's parameters keep their names; ``TrainOneStepCell`` takes the
gradients of the loss with respect to ``optimizer.parameters`` (``GradOperation(get_by_list=True,
sens_param=True)``, ``sens`` 1.0 unless given), lets the optimizer update them and returns the loss.
In GRAPH_MODE the whole step (forward, backward, update) is traced once and replayed.
``AllreduceGraph`` is ``parameter_broadcast``'s SUM AllReduce of parameters over a group.

Micro-batch wrappers (``PipelineCell``, ``GradAccumulationCell``, ``MicroBatchInterleaved``) cut every
input along dimension 0 into equal pieces (``_MicroBatch``: one StridedSlice per input), run the
network on each piece and sum the outputs with an ``Add`` tagged as MindSpore tags it
(``pipeline_end``/``forward_end``/``micro_interleaved_add_flag``); the pieces' calls are labelled
with their micro-batch index while a graph is traced, which pipeline scheduling reads.
``_TrainGradAccuStepCell`` is the training step ``build_train_network`` chooses with pipeline stages or
gradient accumulation: the loss returned is the sum over micro-batches, the gradient applied is that
sum's gradient divided by the micro-batch count (MindSpore's ``sens = 1 / micro_size``). MindSpore
accumulates it micro-batch by micro-batch into ``accu_grads`` parameters; the traced step here
computes the same sum directly, so no ``accu_grads`` parameters exist.
"""
from mindspore.nn.cell import Cell
from mindspore.ops.composite import GradOperation

__all__ = ["WithLossCell", "WithGradCell", "ForwardValueAndGrad", "TrainOneStepCell", "WithEvalCell",
           "AllreduceGraph", "PipelineCell", "GradAccumulationCell", "MicroBatchInterleaved"]


class WithLossCell(Cell):
    """``loss_fn(backbone(data), label)``."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        out = self._backbone(data)
        return self._loss_fn(out, label)

    @property
    def backbone_network(self):
        return self._backbone


class WithGradCell(Cell):
    """``WithGradCell(network, loss_fn=None, sens=None)``: the gradients of ``network`` (with
    ``loss_fn`` applied, if given) with respect to its trainable parameters."""

    def __init__(self, network, loss_fn=None, sens=None):
        super().__init__(auto_prefix=False)
        from mindspore.common._parameter_tuple import ParameterTuple  # pylint: disable=import-outside-toplevel
        self.network = network
        self.loss_fn = loss_fn
        self.weights = ParameterTuple(network.trainable_params())
        self.grad = GradOperation(get_by_list=True, sens_param=(sens is not None))
        self.sens = sens
        self.network_with_loss = network if loss_fn is None else WithLossCell(self.network, self.loss_fn)
        self.network_with_loss.set_train()

    def construct(self, *inputs):
        if self.sens is None:
            return self.grad(self.network_with_loss, self.weights)(*inputs)
        return self.grad(self.network_with_loss, self.weights)(*inputs, self.sens)


class ForwardValueAndGrad(Cell):
    """``ForwardValueAndGrad(network, weights=None, get_all=False, get_by_list=False,
    sens_param=False)``: ``(network(*inputs), gradients)``, the gradients as ``GradOperation`` with
    the same flags gives them; the forward runs once (``set_grad``)."""

    def __init__(self, network, weights=None, get_all=False, get_by_list=False, sens_param=False):
        super().__init__(auto_prefix=False)
        import types  # pylint: disable=import-outside-toplevel
        from mindspore.common._parameter_tuple import ParameterTuple  # pylint: disable=import-outside-toplevel
        if not isinstance(network, (Cell, types.FunctionType, types.MethodType)):
            raise TypeError(f"For 'ForwardValueAndGrad', the argument 'network' must be cell, function type or "
                            f"method type, but got '{type(network)}'")
        if not isinstance(get_all, bool):
            raise TypeError(f"For 'ForwardValueAndGrad', the type of 'get_all' must be bool, but got "
                            f"'{type(get_all)}'")
        if not isinstance(get_by_list, bool):
            raise TypeError(f"For 'ForwardValueAndGrad', the type of 'get_by_list' must be bool, but got "
                            f"'{type(get_by_list)}'")
        if get_by_list and not isinstance(weights, (ParameterTuple, tuple, list)):
            raise TypeError(f"For 'ForwardValueAndGrad', when 'get_by_list' is set to True, the argument "
                            f"'weights' must be Parameters array, but got '{type(weights)}'")
        self.network = network
        if isinstance(network, Cell):
            self.network.set_grad()
        self.weights = weights
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param
        self.grad = GradOperation(get_all=get_all, get_by_list=get_by_list, sens_param=sens_param)

    def construct(self, *inputs):
        grad_inputs = inputs
        if self.sens_param:
            inputs = inputs[:-1]
        loss = self.network(*inputs)
        if self.get_by_list:
            grads = self.grad(self.network, self.weights)(*grad_inputs)
        else:
            grads = self.grad(self.network)(*grad_inputs)
        return loss, grads


class TrainOneStepCell(Cell):
    """``TrainOneStepCell(network, optimizer, sens=None, return_grad=False)``: one training step."""

    def __init__(self, network, optimizer, sens=None, return_grad=False):
        super().__init__(auto_prefix=False)
        self.network = network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = self.optimizer.parameters
        self.grad = GradOperation(get_by_list=True, sens_param=True)
        self.grad_no_sens = GradOperation(get_by_list=True)
        self.sens = sens
        if self.sens == 0:
            raise ValueError("The input argument of 'sens' can not be 0.")
        self.sense_flag = True
        if self.sens is None:
            self.sense_flag = False
            self.sens = 1.0
        from mindspore.nn.layer.basic import Identity  # pylint: disable=import-outside-toplevel
        from mindspore.parallel import _utils  # pylint: disable=import-outside-toplevel
        self.grad_reducer = Identity()
        self.parallel_mode = _utils._get_parallel_mode()  # pylint: disable=protected-access
        self.reducer_flag = self.parallel_mode in ("data_parallel", "hybrid_parallel")
        if self.reducer_flag:
            from mindspore.nn.wrap.grad_reducer import DistributedGradReducer  # pylint: disable=import-outside-toplevel
            self.mean = _utils._get_gradients_mean()  # pylint: disable=protected-access
            self.degree = _utils._get_device_num()  # pylint: disable=protected-access
            self.grad_reducer = DistributedGradReducer(self.weights, self.mean, self.degree)
        self.return_grad = return_grad
        if return_grad:
            self.weights_name = [i.name for i in self.optimizer.parameters]

    def construct(self, *inputs):
        loss = self.network(*inputs)
        if self.sense_flag:
            # MindSpore's F.fill(dtype, shape, sens): a constant, not a function of the loss, so a
            # pipeline's first micro-batch can start its backward before the last one's forward.
            from mindspore.ops.function import fill  # pylint: disable=import-outside-toplevel
            sens = fill(loss.dtype, loss.shape, float(self.sens))
            grads = self.grad(self.network, self.weights)(*inputs, sens)
        else:
            grads = self.grad_no_sens(self.network, self.weights)(*inputs)
        grads = self.grad_reducer(grads)
        self.optimizer(grads)
        if self.return_grad:
            return loss, {name: g for name, g in zip(self.weights_name, grads)}
        return loss


class WithEvalCell(Cell):
    """``(loss, outputs, label)`` of ``network(data)``; ``add_cast_fp32`` casts outputs and label."""

    def __init__(self, network, loss_fn, add_cast_fp32=False):
        super().__init__(auto_prefix=False)
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = add_cast_fp32

    def construct(self, data, label):
        outputs = self._network(data)
        if self.add_cast_fp32:
            from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
            from mindspore.nn.cell import _mixed_cast  # pylint: disable=import-outside-toplevel
            label = _mixed_cast(label, mstype.float32)
            outputs = outputs.astype(mstype.float32)
        loss = self._loss_fn(outputs, label)
        return loss, outputs, label


class AllreduceGraph(Cell):
    """``AllreduceGraph(inputs, group_name)``: calling it replaces every parameter of ``inputs`` by
    its SUM AllReduce over ``group_name`` (``parameter_broadcast``'s step); returns ``inputs``."""

    def __init__(self, inputs, group_name):
        super().__init__()
        from mindspore import ops  # pylint: disable=import-outside-toplevel
        self.input_num = len(inputs)
        self.inputs = inputs
        self.allreduces = [ops.AllReduce(op="sum", group=group_name) for _ in range(self.input_num)]
        self.assigns = [ops.Assign() for _ in range(self.input_num)]

    def construct(self):
        for i in range(self.input_num):
            self.assigns[i](self.inputs[i], self.allreduces[i](self.inputs[i]))
        return self.inputs


class _MicroBatch(Cell):
    """Piece ``i`` of ``micro_size`` equal pieces of every input along dimension 0."""

    def __init__(self, micro_size):
        super().__init__()
        from mindspore.ops import operations as P  # pylint: disable=import-outside-toplevel
        self.micro_size = micro_size
        self.strided_slice = P.StridedSlice()

    def construct(self, i, *inputs):
        pieces = ()
        for x in inputs:
            shape = tuple(x.shape)
            if shape[0] % self.micro_size != 0:
                raise ValueError(f"For micro batch initialization, the 0th dimension shape of input({shape[0]}) "
                                 f"must be divided by micro size({self.micro_size})")
            step = shape[0] // self.micro_size
            begin = (step * i,) + (0,) * (len(shape) - 1)
            end = (step * (i + 1),) + shape[1:]
            pieces += (self.strided_slice(x, begin, end, (1,) * len(shape)),)
        return pieces


def _check_count(cls_name, arg, value):
    """A micro-batch wrapper's piece count: an int above 0 (MindSpore's texts)."""
    if not isinstance(value, int):
        raise TypeError(f"For '{cls_name}', the argument '{arg}' must be integer, but got the type : "
                        f"{type(value)}.")
    if value <= 0:
        raise ValueError(f"For '{cls_name}', the argument '{arg}' must be large than 0, but got {value}.")


class _MicroBatchSum(Cell):
    """The network run on each of ``micro_size`` micro-batches, outputs summed (``tag`` marks each Add)."""

    def __init__(self, cls_name, network, micro_size, tag, slice_attr=None):
        super().__init__(auto_prefix=False)
        from mindspore.ops import operations as P  # pylint: disable=import-outside-toplevel
        if not isinstance(network, Cell):
            raise TypeError(f"For '{cls_name}', the argument 'network' must cell type, but got the type : "
                            f"{type(network)}.")
        _check_count(cls_name, "micro_size", micro_size)
        self.network = network
        self.micro_size = micro_size
        self.micro_inputs = [_MicroBatch(micro_size) for _ in range(micro_size)]
        if slice_attr is not None:
            for m in self.micro_inputs:
                m.strided_slice.add_prim_attr(slice_attr, micro_size)
        self.add_list = [P.Add().add_prim_attr(tag, i) for i in range(micro_size)]

    def construct(self, *inputs):
        from mindspore.common._graph import _micro_batch  # pylint: disable=import-outside-toplevel
        ret = None
        for i in range(self.micro_size):
            with _micro_batch(i):
                output = self.network(*self.micro_inputs[i](i, *inputs))
            ret = output if ret is None else self.add_list[i](ret, output)
        return ret


class PipelineCell(_MicroBatchSum):
    """``PipelineCell(network, micro_size, stage_config=None)``: micro-batches for pipeline parallel;
    ``stage_config`` maps names from ``network.cells_and_names()`` (or ``str(network)``) to the
    ``pipeline_stage`` of that cell; a name matching nothing is MindSpore's ``KeyError``."""

    def __init__(self, network, micro_size, stage_config=None):
        super().__init__("PipelineCell", network, micro_size, "pipeline_end")
        if stage_config is not None:
            _apply_stage_config("PipelineCell", network, stage_config)


def _apply_stage_config(cls_name, network, stage_config):
    from mindspore import log as logger  # pylint: disable=import-outside-toplevel
    left = dict(stage_config.items())
    for name, cell in network.cells_and_names():
        if name and name in left:
            cell.pipeline_stage = left.pop(name)
    if str(network) in left:
        network.pipeline_stage = left.pop(str(network))
    if left:
        for name, stage in left.items():
            logger.error("pipeline_cell stage_config set pipeline_stage fail!")
            logger.warning("config cell name:" + str(name) + " config stage num:" + str(stage))
        logger.warning("network:" + str(network))
        logger.warning("cell name available:")
        for name, _ in network.cells_and_names():
            logger.warning(name)
        raise KeyError(f"For '{cls_name}', the argument 'stage_config' : {left} is not found in 'network' : "
                       f"{network}")


class GradAccumulationCell(_MicroBatchSum):
    """``GradAccumulationCell(network, micro_size)``: micro-batches whose gradients accumulate."""

    def __init__(self, network, micro_size):
        super().__init__(type(self).__name__, network, micro_size, "forward_end", "grad_accu_num")


class MicroBatchInterleaved(Cell):
    """``MicroBatchInterleaved(network, interleave_num=2)``: the batch cut in ``interleave_num``
    pieces along dimension 0, the network run on each, outputs summed."""

    def __init__(self, network, interleave_num=2):
        super().__init__(auto_prefix=False)
        from mindspore.ops import operations as P  # pylint: disable=import-outside-toplevel
        _check_count("MicroBatchInterleaved", "interleave_num", interleave_num)
        self.network = network
        self.interleave_num = interleave_num
        self.add = P.Add().add_prim_attr("micro_interleaved_add_flag", True)
        self.interleave_inputs = [_MicroBatch(interleave_num) for _ in range(interleave_num)]
        for m in self.interleave_inputs:
            m.strided_slice.add_prim_attr("strided_slice_flag", True)
            m.strided_slice.add_prim_attr("interleave_num", interleave_num)

    def construct(self, *inputs):
        output = None
        for i in range(self.interleave_num):
            out = self.network(*self.interleave_inputs[i](i, *inputs))
            output = out if output is None else self.add(output, out)
        return output


def _micro_size_of(network):
    for _, cell in network.cells_and_names():
        if isinstance(cell, _MicroBatchSum):
            return cell.micro_size
    return 1


class _TrainGradAccuStepCell(TrainOneStepCell):
    """The training step with pipeline stages or gradient accumulation: the summed micro-batch loss,
    its gradient scaled by ``1 / micro_size`` unless ``sens`` is given."""

    def __init__(self, network, optimizer, sens=None):
        super().__init__(network, optimizer, sens)
        if not self.sense_flag:
            self.sense_flag = True
            self.sens = 1.0 / _micro_size_of(network)


class _VirtualDatasetCell(Cell):
    """Wraps ``backbone`` so its inputs pass ``_VirtualDataset`` first: in MindSpore the marker of the
    dataset inputs whose data-parallel layout the planner redistributes. The planner here lays out
    the network's arguments by the dataset strategy itself, so the marker passes them through."""

    def __init__(self, backbone):
        super().__init__(auto_prefix=False)
        from mindspore.ops.operations.comm_ops import _VirtualDataset  # pylint: disable=import-outside-toplevel
        self._backbone = backbone
        self._virtual_dataset = _VirtualDataset()

    def construct(self, *inputs):
        output = self._virtual_dataset(*inputs)
        return self._backbone(*output)
