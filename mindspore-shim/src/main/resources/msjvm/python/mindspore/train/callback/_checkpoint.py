"""``CheckpointConfig`` and ``ModelCheckpoint``: MindSpore's checkpoint policy and file naming.

Files are ``<prefix>-<epoch>_<step in epoch>.ckpt`` in ``directory`` (the working directory by
default); a prefix already used there by earlier files gets ``_1``, ``_2``... as MindSpore does.
The ``<prefix>-graph.meta`` file MindSpore also writes (its compiled graph in MindIR) is not
written: there is no MindIR here.
"""
import os
import time

from mindspore import _checkparam as validator
from mindspore import log as logger
from mindspore.train.callback._callback import Callback

_INFO_LIST = ["epoch_num", "step_num"]


def _check_non_negative_or_none(value):
    return None if value is None else validator.check_non_negative_int(value)


def _make_directory(path):
    if path is None or not isinstance(path, str) or path.strip() == "":
        raise ValueError(f"For 'context.set_context', the 'path' is invalid type, "
                         f"it should be Non-empty string, but got '{path}'.")
    path = os.path.realpath(path)
    os.makedirs(path, exist_ok=True)
    return path


class CheckpointConfig:
    """When to save checkpoints and how many to keep (MindSpore's arguments and checks)."""

    def __init__(self, save_checkpoint_steps=1, save_checkpoint_seconds=0, keep_checkpoint_max=5,
                 keep_checkpoint_per_n_minutes=0, integrated_save=True, async_save=False, saved_network=None,
                 append_info=None, enc_key=None, enc_mode='AES-GCM', exception_save=False, crc_check=False,
                 remove_redundancy=False, format="ckpt", **kwargs):  # pylint: disable=redefined-builtin
        from mindspore.nn.cell import Cell  # pylint: disable=import-outside-toplevel
        save_checkpoint_steps = _check_non_negative_or_none(save_checkpoint_steps)
        save_checkpoint_seconds = _check_non_negative_or_none(save_checkpoint_seconds)
        keep_checkpoint_max = _check_non_negative_or_none(keep_checkpoint_max)
        keep_checkpoint_per_n_minutes = _check_non_negative_or_none(keep_checkpoint_per_n_minutes)
        if saved_network is not None and not isinstance(saved_network, Cell):
            raise TypeError("For 'CheckpointConfig', the type of 'saved_network' must be None or Cell, "
                            f"but got {str(type(saved_network))}.")
        if not save_checkpoint_steps and not save_checkpoint_seconds and \
                not keep_checkpoint_max and not keep_checkpoint_per_n_minutes:
            raise ValueError("For 'CheckpointConfig', the input arguments 'save_checkpoint_steps', "
                             "'save_checkpoint_seconds', "
                             "'keep_checkpoint_max' and 'keep_checkpoint_per_n_minutes' can't be all None or 0.")
        validator.check_bool(exception_save)
        self.exception_save = exception_save
        self._save_checkpoint_steps = save_checkpoint_steps
        self._save_checkpoint_seconds = save_checkpoint_seconds
        if self._save_checkpoint_steps and self._save_checkpoint_steps > 0:
            self._save_checkpoint_seconds = None
        self._keep_checkpoint_max = keep_checkpoint_max
        self._keep_checkpoint_per_n_minutes = keep_checkpoint_per_n_minutes
        if self._keep_checkpoint_max and self._keep_checkpoint_max > 0:
            self._keep_checkpoint_per_n_minutes = None
        elif not self._keep_checkpoint_per_n_minutes:
            self._keep_checkpoint_max = 1
        self._integrated_save = validator.check_bool(integrated_save)
        self._async_save = validator.check_bool(async_save)
        self._saved_network = saved_network
        self._append_dict = self._handle_append_info(append_info)
        for name, value, types in (("enc_key", enc_key, (type(None), bytes)), ("enc_mode", enc_mode, str),
                                   ("crc_check", crc_check, bool), ("format", format, str),
                                   ("remove_redundancy", remove_redundancy, bool)):
            validator.check_value_type(name, value, types)
        self._enc_key = enc_key
        self._enc_mode = enc_mode
        self._crc_check = crc_check
        self._format = format
        self._map_param_inc = kwargs.get('incremental', False)
        self.remove_redundancy = remove_redundancy

    save_checkpoint_steps = property(lambda self: self._save_checkpoint_steps)
    save_checkpoint_seconds = property(lambda self: self._save_checkpoint_seconds)
    keep_checkpoint_max = property(lambda self: self._keep_checkpoint_max)
    keep_checkpoint_per_n_minutes = property(lambda self: self._keep_checkpoint_per_n_minutes)
    integrated_save = property(lambda self: self._integrated_save)
    async_save = property(lambda self: self._async_save)
    saved_network = property(lambda self: self._saved_network)
    enc_key = property(lambda self: self._enc_key)
    enc_mode = property(lambda self: self._enc_mode)
    crc_check = property(lambda self: self._crc_check)
    format = property(lambda self: self._format)
    append_dict = property(lambda self: self._append_dict)
    map_param_inc = property(lambda self: self._map_param_inc)

    def get_checkpoint_policy(self):
        """The policy as a dict (MindSpore's keys)."""
        return {'save_checkpoint_steps': self.save_checkpoint_steps,
                'save_checkpoint_seconds': self.save_checkpoint_seconds,
                'keep_checkpoint_max': self.keep_checkpoint_max,
                'keep_checkpoint_per_n_minutes': self.keep_checkpoint_per_n_minutes,
                'saved_network': self.saved_network}

    @staticmethod
    def _handle_append_info(append_info):
        from mindspore.common.parameter import Parameter  # pylint: disable=import-outside-toplevel
        from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
        if append_info is None or append_info == []:
            return None
        if not isinstance(append_info, list):
            raise TypeError("For 'CheckpointConfig', the type of 'append_info' must be list,"
                            f"but got {str(type(append_info))}.")
        handled = {}
        if "epoch_num" in append_info:
            handled["epoch_num"] = 0
        if "step_num" in append_info:
            handled["step_num"] = 0
        dict_num = 0
        for element in append_info:
            if not isinstance(element, (str, dict)):
                raise TypeError("For 'CheckpointConfig', the type of 'append_info' element must be str or dict,"
                                f"but got {str(type(element))}.")
            if isinstance(element, str) and element not in _INFO_LIST:
                raise ValueError("For 'CheckpointConfig', the value of element in the argument 'append_info' "
                                 f"must be in {_INFO_LIST}, "
                                 f"but got {element}.")
            if isinstance(element, dict):
                dict_num += 1
                if dict_num > 1:
                    raise TypeError("For 'CheckpointConfig', the element of 'append_info' must has only one dict, "
                                    "but got {dict_num}")
                for key, value in element.items():
                    if isinstance(key, str) and isinstance(value, (int, float, bool, str, Parameter, Tensor)):
                        handled[key] = value
                    else:
                        raise TypeError("For 'CheckpointConfig', the key type of the dict 'append_info' "
                                        "must be string, the value type must be int or float or bool, "
                                        f"but got key type {type(key)}, value type {type(value)}")
        return handled


def _unused_prefix(directory, prefix):
    """``prefix``, or ``prefix_N`` when checkpoint files with that prefix already exist."""
    suffix_num = 0
    pre_len = len(prefix)
    for filename in os.listdir(directory):
        if os.path.splitext(filename)[-1] not in (".ckpt", ".safetensors") or filename.endswith("_breakpoint.ckpt"):
            continue
        if filename.find(prefix) == 0 and not filename[pre_len].isalpha():
            index = filename[pre_len:].find("-")
            if index == 0:
                suffix_num = max(suffix_num, 1)
            elif index != -1:
                num = filename[pre_len + 1:pre_len + index]
                if num.isdigit():
                    suffix_num = max(suffix_num, int(num) + 1)
    return f'{prefix}_{suffix_num}' if suffix_num else prefix


class ModelCheckpoint(Callback):
    """Saves the training network's parameters as the ``CheckpointConfig`` says."""

    def __init__(self, prefix='CKP', directory=None, config=None):
        super().__init__()
        self._latest_ckpt_file_name = ""
        self._last_time = time.time()
        self._last_time_for_keep = time.time()
        self._last_triggered_step = 0
        self._prefix_func = None
        self._directory_func = None
        if not callable(prefix) and (not isinstance(prefix, str) or prefix.find('/') >= 0):
            raise ValueError("For 'ModelCheckpoint', the argument 'prefix' "
                             "for checkpoint file name is invalid, it must be "
                             "callable or string that does not contain '/', but got {}.".format(prefix))
        self._prefix = prefix
        if directory is not None and callable(directory):
            self._directory_func = directory
            self._directory = None
        else:
            self._directory = _make_directory(directory) if directory is not None else os.getcwd()
        if callable(prefix):
            self._prefix_func = prefix
        if config is None:
            self._config = CheckpointConfig()
        elif not isinstance(config, CheckpointConfig):
            raise TypeError("For 'ModelCheckpoint', the type of argument 'config' should be "
                            "'CheckpointConfig', "
                            "but got {}.".format(type(config)))
        else:
            self._config = config
        if not callable(directory) and not callable(prefix):
            self._prefix = _unused_prefix(self._directory, self._prefix)
        self._append_dict = self._config.append_dict or {}
        self._append_epoch_num = self._append_dict.get("epoch_num", 0)
        self._append_step_num = self._append_dict.get("step_num", 0)
        self._files = []

    @property
    def latest_ckpt_file_name(self):
        """The path of the last checkpoint written."""
        return self._latest_ckpt_file_name

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        if self._prefix_func:
            self._prefix = self._prefix_func(cb_params)
            if not isinstance(self._prefix, str) or self._prefix.find('/') >= 0:
                raise ValueError("For 'ModelCheckpoint', the argument 'prefix' "
                                 "for checkpoint file name is callable, it must return a "
                                 "string that does not contain '/', but got {}.".format(self._prefix))
        if self._directory_func:
            self._directory = _make_directory(self._directory_func(cb_params))
        self._save_ckpt(cb_params)

    def end(self, run_context):
        self._save_ckpt(run_context.original_args(), force_to_save=True)

    def _check_save_ckpt(self, cb_params, force_to_save):
        config = self._config
        if config.save_checkpoint_steps and config.save_checkpoint_steps > 0:
            return cb_params.cur_step_num >= self._last_triggered_step + config.save_checkpoint_steps \
                or force_to_save is True
        if config.save_checkpoint_seconds and config.save_checkpoint_seconds > 0:
            now = time.time()
            if (now - self._last_time) > config.save_checkpoint_seconds or force_to_save:
                self._last_time = now
                return True
        return False

    def _existing_files(self):
        fmt = self._config.format
        found = []
        for filename in os.listdir(self._directory):
            if os.path.splitext(filename)[-1] == f".{fmt}" and filename.startswith(self._prefix + "-"):
                middle = filename[len(self._prefix):-(len(fmt) + 1)]
                if not any(ch.isalpha() for ch in middle):
                    found.append(os.path.join(self._directory, filename))
        return found

    def _save_ckpt(self, cb_params, force_to_save=False):
        from mindspore.train.serialization import save_checkpoint  # pylint: disable=import-outside-toplevel
        if cb_params.cur_step_num == self._last_triggered_step:
            return
        if not self._check_save_ckpt(cb_params, force_to_save):
            return
        step_in_epoch = int((cb_params.cur_step_num - 1) % cb_params.batch_num + 1)
        fmt = self._config.format
        if self._prefix_func:
            name = self._prefix + f".{fmt}"
        else:
            name = f"{self._prefix}-{cb_params.cur_epoch_num}_{step_in_epoch}.{fmt}"
        files = self._existing_files()
        keep_max = self._config.keep_checkpoint_max
        if keep_max and 0 < keep_max <= len(files):
            oldest = sorted(files, key=os.path.getmtime)[0]
            try:
                os.remove(oldest)
            except OSError:
                logger.warning("OSError, failed to remove the older ckpt file %s.", oldest)
        elif self._config.keep_checkpoint_per_n_minutes and self._config.keep_checkpoint_per_n_minutes > 0:
            now = time.time()
            window = self._config.keep_checkpoint_per_n_minutes * 60
            if now - self._last_time_for_keep < window:
                recent = [f for f in files if now - os.path.getmtime(f) < window]
                if recent:
                    keep = min(recent, key=os.path.getmtime)
                    for f in recent:
                        if f != keep:
                            os.remove(f)
        path = os.path.join(self._directory, name)
        self._last_time_for_keep = time.time()
        self._last_triggered_step = cb_params.cur_step_num
        if "epoch_num" in self._append_dict:
            self._append_dict["epoch_num"] = self._append_epoch_num + cb_params.cur_epoch_num
        if "step_num" in self._append_dict:
            self._append_dict["step_num"] = self._append_step_num + cb_params.cur_step_num
        network = self._config.saved_network if self._config.saved_network is not None else cb_params.train_network
        save_checkpoint(network, path, self._config.integrated_save, self._config.async_save,
                        self._append_dict or None, self._config.enc_key, self._config.enc_mode,
                        crc_check=self._config.crc_check, format=fmt)
        self._latest_ckpt_file_name = path
