"""``LambdaCallback`` and the ``SummaryCollector`` stand-in."""
from mindspore import log as logger
from mindspore.train.callback._callback import Callback

_LAMBDA_HOOKS = ("on_train_epoch_begin", "on_train_epoch_end", "on_train_step_begin", "on_train_step_end",
                 "on_train_begin", "on_train_end", "on_eval_epoch_begin", "on_eval_epoch_end",
                 "on_eval_step_begin", "on_eval_step_end", "on_eval_begin", "on_eval_end")


class LambdaCallback(Callback):
    """A callback whose hooks are the given functions (each taking ``run_context``)."""

    def __init__(self, **hooks):
        super().__init__()
        for name, fn in hooks.items():
            if name not in _LAMBDA_HOOKS:
                raise TypeError(f"LambdaCallback.__init__() got an unexpected keyword argument '{name}'")
            if fn is not None:
                setattr(self, name, fn)


class SummaryCollector(Callback):
    """Accepted for scripts that pass one; collects nothing (no MindInsight summary writer here)."""

    def __init__(self, summary_dir, *args, **kwargs):
        super().__init__()
        del args, kwargs
        self.summary_dir = summary_dir
        logger.warning("SummaryCollector collects nothing on msjvm: summary files for MindInsight are not "
                       "written (directory '%s').", summary_dir)
