"""Automatic differentiation: ``GradOperation``, ``grad``, ``value_and_grad``.

The function runs once while the engine records every operator call on a tape; the engine then
walks the tape backwards with each operator's gradient rule (composed from registered operators,
so an enclosing GRAPH_MODE trace records the backward pass as well). Argument handling and error
texts follow MindSpore 2.10's ``mindspore/ops/composite/base.py`` and ``ops/functional`` grad.
"""
from mindspore._host import host


def _tensor_cls():
    from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
    return Tensor


def _flatten_tensors(value, into):
    """The tensors of a (nested) tuple/list output, in order."""
    if isinstance(value, _tensor_cls()):
        into.append(value)
    elif isinstance(value, (tuple, list)):
        for v in value:
            _flatten_tensors(v, into)
    return into


def _weights_list(weights):
    from mindspore.common.parameter import Parameter  # pylint: disable=import-outside-toplevel
    if weights is None:
        return []
    if isinstance(weights, Parameter):
        return [weights]
    if isinstance(weights, (tuple, list)) and all(isinstance(w, Parameter) for w in weights):
        return list(weights)
    raise TypeError(f"For 'grad', the argument 'weights' must be a Parameter, a ParameterTuple or a list of "
                    f"Parameters, but got {type(weights).__name__}.")


# Forwards kept for a gradient that may follow: id(cell) -> (cell, serial of the tape recording at
# the call (0: none), the arguments as given, the arguments to differentiate, output, tape or the
# (start, end) of the call's steps on the enclosing tape). One per cell, per interpreter.
_FORWARDS = {}


def _aliased(args):
    """``args`` with each tensor that is not a Parameter given its own identity, so that the same
    tensor passed twice is two inputs to differentiate."""
    from mindspore.common.parameter import Parameter  # pylint: disable=import-outside-toplevel
    tensor = _tensor_cls()
    h = host()
    return [tensor._wrap(h.alias(a._java).java)  # pylint: disable=protected-access
            if isinstance(a, tensor) and not isinstance(a, Parameter) else a for a in args]


def _taped(fn, args):
    """``fn(*args)`` recorded on a new tape: (output, tape). The forwards recorded under that tape
    (set_grad cells called by ``fn``) are forgotten when it ends: no gradient can take them."""
    h = host()
    leaves = [a._java for a in args if isinstance(a, _tensor_cls())]  # pylint: disable=protected-access
    tape = h.tapePush(leaves).java
    serial = h.tapeSerial()
    try:
        out = fn(*args)
    finally:
        h.tapePop(tape)
        for key in [k for k, rec in _FORWARDS.items() if rec[1] == serial]:
            del _FORWARDS[key]
    return out, tape


def forward_for_grad(cell, args):
    """``cell(*args)`` for a cell marked by ``set_grad()`` outside a GRAPH_MODE trace: runs it on a
    tape of its own and keeps the tape, so that a gradient of the same cell on the same arguments that
    follows (``TrainOneStepCell``: ``loss = network(*inputs)`` then ``grad(network, weights)(*inputs,
    sens)``) differentiates this forward instead of running the network again, as MindSpore's
    PYNATIVE grad executor does for a ``set_grad`` cell (the same input objects; the latest call;
    used once). Stateful operators in the forward (a BatchNorm's moving statistics) thus update once
    per step."""
    aliased = _aliased(args)
    out, tape = _taped(cell._run_construct, aliased)  # pylint: disable=protected-access
    _FORWARDS[id(cell)] = (cell, host().tapeSerial(), tuple(args), aliased, out, tape)
    return out


def traced_forward(cell, args):
    """``cell(*args)`` inside a GRAPH_MODE trace: notes where its calls lie on the trace, so that a
    gradient of the same cell on the same arguments later in the step differentiates them instead of
    tracing the network again: MindSpore compiles one forward for ``network(*inputs)`` followed by
    ``grad(network)(*inputs)`` in a graph, with or without ``set_grad``."""
    h = host()
    start = h.tapeSize()
    out = cell._run_construct(*args)  # pylint: disable=protected-access
    _FORWARDS[id(cell)] = (cell, h.tapeSerial(), tuple(args), list(args), out, (start, h.tapeSize()))
    return out


def drop_traced_forwards():
    """Forgets the forwards recorded inside a trace that has ended (they hold its tensors)."""
    for key in [k for k, rec in _FORWARDS.items() if rec[1] != 0]:
        del _FORWARDS[key]


def forget_forward(cell):
    """Forgets ``cell``'s recorded forward (``set_grad(False)``)."""
    _FORWARDS.pop(id(cell), None)


def _same_arguments(recorded, given):
    """Whether a gradient's arguments are those of the recorded forward: the same objects (equal
    values for plain Python scalars and strings)."""
    if len(recorded) != len(given):
        return False
    for r, g in zip(recorded, given):
        if r is g:
            continue
        if type(r) is not type(g):
            return False
        if isinstance(r, (tuple, list)):
            if not _same_arguments(r, g):
                return False
        elif not isinstance(r, (bool, int, float, str)) or r != g:
            return False
    return True


def _take_forward(fn, args, positions):
    """The recorded forward of ``fn`` on ``args`` under the current tape, if any: (arguments to
    differentiate, output, tape). Taking it forgets it."""
    h = host()
    rec = _FORWARDS.pop(id(fn), None)
    if rec is None or rec[0] is not fn or rec[1] != h.tapeSerial() or not _same_arguments(rec[2], args):
        return None
    _, _, _, inputs, out, tape = rec
    if isinstance(tape, tuple):
        if positions and len({id(args[p]) for p in positions}) < len(positions):
            return None  # the same tensor at two differentiated positions: traced again, aliased
        tape = h.tapeSlice(tape[0], tape[1]).java
    return inputs, out, tape


def _run(fn, args, positions, weights, sens=None, has_aux=False):
    """Runs ``fn(*args)`` under a tape (or takes the forward ``fn`` just recorded on the same arguments,
    ``forward_for_grad``); returns (output, input grads, weight grads)."""
    tensor = _tensor_cls()
    h = host()
    args = list(args)
    for p in positions:
        if p >= len(args) or p < -len(args):
            raise IndexError(f"For 'grad', the argument 'grad_position' {p} is out of range [0, {len(args)}).")
        if not isinstance(args[p], tensor):
            raise TypeError(f"For 'grad', the input at 'grad_position' {p} must be a Tensor, "
                            f"but got {type(args[p]).__name__}.")
    recorded = _take_forward(fn, args, positions) if _FORWARDS else None
    if recorded is not None:
        args, out, tape = recorded
    else:
        args = _aliased(args)
        out, tape = _taped(fn, args)
    if has_aux:
        if not isinstance(out, tuple) or len(out) < 2:
            raise ValueError("When has_aux is True, origin fn requires more than one outputs.")
        differentiated = [out[0]]
    else:
        differentiated = [out]
    outs = _flatten_tensors(differentiated, [])
    if not outs:
        raise TypeError("For 'grad', the output of the function must be a Tensor or a tuple of Tensors.")
    sens_list = None
    if sens is not None:
        sens_list = [s._java for s in _flatten_tensors(sens, [])]  # pylint: disable=protected-access
        if len(sens_list) != len(outs):
            raise ValueError(f"For 'GradOperation', the number of sens {len(sens_list)} does not match the "
                             f"number of outputs {len(outs)}.")
    wrt = [args[p]._java for p in positions] + [w._java for w in weights]  # pylint: disable=protected-access
    grads = h.gradients(tape, [o._java for o in outs], sens_list, wrt)  # pylint: disable=protected-access
    grads = [tensor._wrap(g.java) for g in grads]  # pylint: disable=protected-access
    return out, grads[:len(positions)], grads[len(positions):]


def _positions(grad_position, nargs=None):
    if grad_position is None:
        return []
    if isinstance(grad_position, bool) or not isinstance(grad_position, (int, tuple, list)):
        raise TypeError(f"For 'grad', the type of 'grad_position' must be int or tuple, "
                        f"but got {type(grad_position).__name__}.")
    positions = [grad_position] if isinstance(grad_position, int) else list(grad_position)
    if isinstance(grad_position, (tuple, list)) and not positions:
        raise ValueError("grad_position should not be empty when grad_position type is tuple")
    return positions


def _pack(grad_position, weights, in_grads, w_grads):
    if grad_position is None:
        return tuple(w_grads)
    inputs = in_grads[0] if isinstance(grad_position, int) else tuple(in_grads)
    if weights is None:
        return inputs
    return inputs, tuple(w_grads)


def grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False):
    """A function computing the gradients of ``fn`` (MindSpore's ``mindspore.grad``)."""
    if grad_position is None and weights is None:
        raise ValueError("`grad_position` and `weight` can not be None at the same time.")
    if return_ids:
        raise NotImplementedError("msjvm: grad(return_ids=True) is not supported yet.")
    positions = _positions(grad_position)
    wlist = _weights_list(weights)

    def grad_fn(*args):
        out, in_grads, w_grads = _run(fn, args, positions, wlist, has_aux=has_aux)
        grads = _pack(grad_position, weights, in_grads, w_grads)
        if has_aux:
            aux = out[1:]
            return grads, (aux[0] if len(aux) == 1 else aux)
        return grads

    return grad_fn


def value_and_grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False):
    """A function computing ``fn``'s value and gradients (MindSpore's ``mindspore.value_and_grad``)."""
    if grad_position is None and weights is None:
        raise ValueError("`grad_position` and `weight` can not be None at the same time.")
    if return_ids:
        raise NotImplementedError("msjvm: value_and_grad(return_ids=True) is not supported yet.")
    positions = _positions(grad_position)
    wlist = _weights_list(weights)

    def value_and_grad_fn(*args):
        out, in_grads, w_grads = _run(fn, args, positions, wlist, has_aux=has_aux)
        return out, _pack(grad_position, weights, in_grads, w_grads)

    return value_and_grad_fn


class GradOperation:
    """``GradOperation(get_all=False, get_by_list=False, sens_param=False)``: ``grad_op(net)(*inputs)``
    or ``grad_op(net, weights)(*inputs)``."""

    def __init__(self, get_all=False, get_by_list=False, sens_param=False):
        for name, value in (("get_all", get_all), ("get_by_list", get_by_list), ("sens_param", sens_param)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'GradOperation', the '{name}' should be bool, but got {type(value).__name__}.")
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param

    def __call__(self, fn, weights=None):
        if self.get_by_list and weights is None:
            raise TypeError("For 'GradOperation', the 'weights' should be a Parameter or a ParameterTuple "
                            "when 'get_by_list' is True.")
        wlist = _weights_list(weights) if self.get_by_list else []

        def grad_fn(*args):
            sens = None
            if self.sens_param:
                if not args:
                    raise ValueError("For 'GradOperation', 'sens_param' is True, but no sens was given.")
                args, sens = args[:-1], args[-1]
            tensor = _tensor_cls()
            tensor_positions = [i for i, a in enumerate(args) if isinstance(a, tensor)]
            if self.get_all:
                positions = tensor_positions
            elif self.get_by_list:
                positions = []
            else:
                positions = tensor_positions[:1]
            _, in_grads, w_grads = _run(fn, args, positions, wlist, sens=sens)
            if self.get_by_list:
                return (tuple(in_grads), tuple(w_grads)) if self.get_all else tuple(w_grads)
            if self.get_all:
                return tuple(in_grads)
            if not in_grads:
                raise ValueError("For 'GradOperation', the network has no Tensor input to differentiate.")
            return in_grads[0]

        return grad_fn
