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


def _run(fn, args, positions, weights, sens=None, has_aux=False):
    """Runs ``fn(*args)`` under a tape; returns (output, input grads, weight grads)."""
    from mindspore.common.parameter import Parameter  # pylint: disable=import-outside-toplevel
    tensor = _tensor_cls()
    h = host()
    args = list(args)
    for p in positions:
        if p >= len(args) or p < -len(args):
            raise IndexError(f"For 'grad', the argument 'grad_position' {p} is out of range [0, {len(args)}).")
        if not isinstance(args[p], tensor):
            raise TypeError(f"For 'grad', the input at 'grad_position' {p} must be a Tensor, "
                            f"but got {type(args[p]).__name__}.")
    for i, a in enumerate(args):
        if isinstance(a, tensor) and not isinstance(a, Parameter):
            args[i] = tensor._wrap(h.alias(a._java).java)  # pylint: disable=protected-access
    leaves = [a._java for a in args if isinstance(a, tensor)]  # pylint: disable=protected-access
    tape = h.tapePush(leaves).java
    try:
        out = fn(*args)
    except BaseException:
        h.tapePop(tape)
        raise
    h.tapePop(tape)
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
