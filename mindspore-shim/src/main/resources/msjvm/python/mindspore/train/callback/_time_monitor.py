"""``TimeMonitor``: prints each epoch's time and the time per step."""
import time

from mindspore import _checkparam as validator
from mindspore.train.callback._callback import Callback


class TimeMonitor(Callback):
    """Prints ``Train epoch time: T ms, per step time: S ms`` after each epoch."""

    def __init__(self, data_size=None, data_time=False):
        super().__init__()
        self.data_size = data_size
        self.epoch_time = time.time()
        self.data_time = data_time
        self.data_time_sum = 0.0
        self.data_time_start = 0.0
        validator.check_bool(data_time, "data_time")

    def on_train_step_begin(self, run_context):
        if self.data_time and not run_context.original_args()["dataset_sink_mode"]:
            self.data_time_sum += time.time() - self.data_time_start

    def on_train_step_end(self, run_context):
        if self.data_time and not run_context.original_args()["dataset_sink_mode"]:
            self.data_time_start = time.time()

    def epoch_begin(self, run_context):
        self.epoch_time = time.time()
        if self.data_time and not run_context.original_args()["dataset_sink_mode"]:
            self.data_time_sum = 0.0
            self.data_time_start = time.time()

    def epoch_end(self, run_context):
        epoch_ms = (time.time() - self.epoch_time) * 1000
        step_size = self.data_size
        cb_params = run_context.original_args()
        mode = cb_params.get("mode", "")
        batch_num = cb_params.get("batch_num")
        if isinstance(batch_num, int) and batch_num > 0:
            step_size = batch_num
        validator.check_positive_int(step_size)
        line = "{} epoch time: {:5.3f} ms, per step time: {:5.3f} ms".format(
            mode.title(), epoch_ms, epoch_ms / step_size)
        if self.data_time and not cb_params["dataset_sink_mode"]:
            line += " (data time: {:5.3f} ms)".format(self.data_time_sum * 1000 / step_size)
        print(line, flush=True)
