"""``Callback``, ``RunContext`` and the callback list ``Model`` drives (MindSpore's hook order)."""
from contextlib import ExitStack

from mindspore import log as logger


class Callback:
    """Base class of training and evaluation callbacks: override the hooks you need.

    The ``on_train_*``/``on_eval_*`` hooks call the older names (``begin``, ``epoch_begin``,
    ``epoch_end``, ``step_begin``, ``step_end``, ``end``) by default, as MindSpore does, so a
    callback written against either set works.
    """

    def __enter__(self):
        return self

    def __exit__(self, *err):
        """Release resources here if you have any."""

    def begin(self, run_context):
        """Called once before the network executes."""

    def epoch_begin(self, run_context):
        """Called before each epoch."""

    def epoch_end(self, run_context):
        """Called after each epoch."""

    def step_begin(self, run_context):
        """Called before each step."""

    def step_end(self, run_context):
        """Called after each step."""

    def end(self, run_context):
        """Called once after the network ran."""

    def on_train_begin(self, run_context):
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_train_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_train_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_train_step_end(self, run_context):
        self.step_end(run_context)

    def on_train_end(self, run_context):
        self.end(run_context)

    def on_eval_begin(self, run_context):
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_eval_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context):
        self.step_end(run_context)

    def on_eval_end(self, run_context):
        self.end(run_context)


_HOOKS = ("begin", "epoch_begin", "epoch_end", "step_begin", "step_end", "end",
          "on_train_begin", "on_train_epoch_begin", "on_train_epoch_end", "on_train_step_begin",
          "on_train_step_end", "on_train_end", "on_eval_begin", "on_eval_epoch_begin",
          "on_eval_epoch_end", "on_eval_step_begin", "on_eval_step_end", "on_eval_end")


class _CallbackManager(Callback):
    """Runs each hook on every callback in order; entered as a context (each callback entered)."""

    def __init__(self, callbacks):
        super().__init__()
        self._callbacks, self._stack = [], None
        if isinstance(callbacks, Callback):
            self._callbacks.append(callbacks)
        elif isinstance(callbacks, list):
            for cb in callbacks:
                if not isinstance(cb, Callback):
                    raise TypeError("When the 'callbacks' is a list, the elements in "
                                    "'callbacks' must be Callback functions.")
                self._callbacks.append(cb)
        elif callbacks is not None:
            raise TypeError("The 'callbacks' is not a Callback or a list of Callback.")

    def __enter__(self):
        if self._stack is None:
            entered, self._stack = [], ExitStack().__enter__()
            for callback in self._callbacks:
                target = self._stack.enter_context(callback)
                if not isinstance(target, Callback):
                    logger.warning("Please return 'self' or a Callback as the enter target.")
                    entered.append(callback)
                else:
                    entered.append(target)
            self._callbacks = entered
        return self

    def __exit__(self, *err):
        return self._stack.__exit__(*err)


def _fan_out(name):
    def hook(self, run_context):
        for cb in self._callbacks:  # pylint: disable=protected-access
            getattr(cb, name)(run_context)
    hook.__name__ = name
    return hook


for _name in _HOOKS:
    setattr(_CallbackManager, _name, _fan_out(_name))


class _InternalCallbackParam(dict):
    """The model's state handed to callbacks: a dict whose keys are also attributes."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None

    def __setattr__(self, key, value):
        self[key] = value


InternalCallbackParam = _InternalCallbackParam


class RunContext:
    """What ``Model`` shares with callbacks: ``original_args()`` and a stop request."""

    def __init__(self, original_args):
        if not isinstance(original_args, dict):
            raise TypeError("The argument 'original_args' of RunContext should be dict type, "
                            "but got {}.".format(type(original_args)))
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self):
        """The dict of model information (``cur_epoch_num``, ``cur_step_num``, ``net_outputs``...)."""
        return self._original_args

    def request_stop(self):
        """Asks ``Model`` to stop after the current step."""
        self._stop_requested = True

    def get_stop_requested(self):
        """Whether a callback asked to stop."""
        return self._stop_requested


def _handle_loss(loss):
    """The loss to print: the first element of a tuple, the mean of a tensor as a float."""
    from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
    if isinstance(loss, (tuple, list)):
        if isinstance(loss[0], Tensor):
            loss = loss[0]
    if isinstance(loss, Tensor):
        values = loss.reshape(-1).tolist() if loss.shape else [loss.item()]
        loss = float(sum(values) / len(values)) if values else float("nan")
    return loss
