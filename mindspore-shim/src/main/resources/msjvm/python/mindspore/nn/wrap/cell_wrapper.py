"""``mindspore.nn`` training wrappers: ``WithLossCell``, ``TrainOneStepCell``, ``WithEvalCell``.

Follow MindSpore 2.10's ``mindspore/nn/wrap/cell_wrapper.py``: the wrappers do not prefix names
(``auto_prefix=False``), so a network's parameters keep their names; ``TrainOneStepCell`` takes the
gradients of the loss with respect to ``optimizer.parameters`` (``GradOperation(get_by_list=True,
sens_param=True)``, ``sens`` 1.0 unless given), lets the optimizer update them and returns the loss.
In GRAPH_MODE the whole step (forward, backward, update) is traced once and replayed.
``AllreduceGraph`` is ``parameter_broadcast``'s SUM AllReduce of parameters over a group.
"""
from mindspore.nn.cell import Cell
from mindspore.ops.composite import GradOperation

__all__ = ["WithLossCell", "TrainOneStepCell", "WithEvalCell", "AllreduceGraph"]


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


class TrainOneStepCell(Cell):
    """``TrainOneStepCell(network, optimizer, sens=None, return_grad=False)``: one training step."""

    def __init__(self, network, optimizer, sens=None, return_grad=False):
        super().__init__(auto_prefix=False)
        self.network = network
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
            from mindspore.ops import operations as P  # pylint: disable=import-outside-toplevel
            sens = P.OnesLike()(loss) * float(self.sens)
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
