"""``LossMonitor``: prints ``epoch: E step: S, loss is L`` as MindSpore does."""
import math

from mindspore import _checkparam as validator
from mindspore.train.callback._callback import Callback, _handle_loss


class LossMonitor(Callback):
    """Prints the loss every ``per_print_times`` steps (0: never); stops on a NaN or Inf loss."""

    def __init__(self, per_print_times=1):
        super().__init__()
        validator.check_non_negative_int(per_print_times)
        self._per_print_times = per_print_times
        self._last_print_time = 0

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        cur_epoch_num = cb_params.get("cur_epoch_num", 1)
        loss = _handle_loss(cb_params.net_outputs)
        cur_step_in_epoch = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
        if isinstance(loss, float) and (math.isnan(loss) or math.isinf(loss)):
            raise ValueError("In epoch: {} step: {}, loss is NAN or INF, training process cannot continue, "
                             "terminating training.".format(cur_epoch_num, cur_step_in_epoch))
        if self._per_print_times != 0 and cb_params.cur_step_num <= self._last_print_time:
            while cb_params.cur_step_num <= self._last_print_time:
                self._last_print_time -= max(self._per_print_times,
                                             cb_params.batch_num if cb_params.dataset_sink_mode else 1)
        if self._per_print_times != 0 and (cb_params.cur_step_num - self._last_print_time) >= self._per_print_times:
            self._last_print_time = cb_params.cur_step_num
            print("epoch: %s step: %s, loss is %s" % (cur_epoch_num, cur_step_in_epoch, loss), flush=True)

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        metrics = cb_params.get("metrics")
        if metrics:
            print("Eval result: epoch %d, metrics: %s" % (cb_params.cur_epoch_num, metrics))
