"""``mindspore.train.Model``: the high-level train/eval/predict loop with callbacks and metrics.

Follows MindSpore 2.10's CPU behaviour: ``dataset_sink_mode=True`` runs the same per-step loop as
non-sink mode (MindSpore's CPU backend cannot sink datasets either), so callbacks see every step.
"""
import sys
import time
from collections.abc import Iterable

from mindspore import _checkparam as validator
from mindspore import nn
from mindspore.common.tensor import Tensor
from mindspore.train import amp
from mindspore.train.callback._callback import RunContext, _CallbackManager, _InternalCallbackParam
from mindspore.train.metrics import Loss, get_metric_fn, get_metrics

# Callbacks that already report progress: no progress bar next to them.
_REPORTING_CALLBACKS = ("LossMonitor", "TimeMonitor")
_KWARGS = ['loss_scale_manager', 'keep_batchnorm_fp32', 'boost_config_dict', 'acc_level']


def _as_tuple(inputs):
    return (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)


class _Epochs:
    """A dataset's batches, one epoch per ``iter()`` (what MindSpore's DatasetHelper gives).

    One iterator spans every epoch (it ends each epoch with one ``StopIteration`` and goes on with
    the next, reshuffled, on the following call), so the dataset sees each epoch number once.
    """

    def __init__(self, dataset, epochs):
        self._dataset = dataset
        self._iterator = dataset.create_tuple_iterator(num_epochs=epochs)
        self._size = dataset.get_dataset_size()
        self._started = False
        self._ended = False  # the iterator ended the last epoch itself (before its size)

    def __iter__(self):
        if self._started:
            if not self._ended:
                # The previous epoch consumed exactly its batches: pass the epoch's end.
                for _ in self._iterator:
                    pass
            # A dataset of the script's own with a reset() (MindSpore's Model calls it after each
            # epoch; the test mocks' iterators start over there).
            if hasattr(self._dataset, "reset"):
                self._dataset.reset()
        self._started = True
        self._ended = False
        for _ in range(self._size):
            try:
                batch = next(self._iterator)
            except StopIteration:
                # A dataset whose iterator stops before get_dataset_size() batches (a script's
                # own): the epoch ends there, as MindSpore's loop over the dataset ends.
                self._ended = True
                return
            yield batch


class _SinkFeed:
    """The batches of sink mode, ``sink_size`` per call, across dataset epochs (the dataset is one
    endless stream, as MindSpore's sink sees it). Where the pipeline runs in Java (MnistDataset ->
    built-in maps -> batch) the steps run in a Java loop (``host().sink``) that pulls batches itself;
    a sink may end inside a dataset epoch or span two. Everything else steps from Python."""

    def __init__(self, dataset, network, sink_size):
        self._dataset = dataset
        self._network = network
        self._size = dataset.get_dataset_size()
        self._java = hasattr(dataset, "_java_batches")
        self._epoch = 0
        self._source = None  # this dataset epoch's Java batch source
        self._pending = None  # a batch taken from the source but not run yet (Java tensors)
        self._stream = None
        self.java_steps = 0  # steps run by the Java loop (for tests and reports)

    def run(self, steps):
        """Runs ``steps`` training steps; the last step's outputs."""
        outputs, done = None, 0
        while done < steps:
            fresh = self._source is None
            if fresh and self._java:
                batches = self._dataset._java_batches(self._epoch)  # pylint: disable=protected-access
                if batches is None:
                    self._java = False
                else:
                    self._epoch += 1
                    self._source = batches.java
            if self._source is None:
                return self._run_python(steps - done) or outputs
            ran, out = self._run_java(steps - done)
            if ran == 0 and fresh:
                break  # an empty dataset epoch
            done += ran
            outputs = out if out is not None else outputs
        return outputs

    def _run_java(self, steps):
        """Up to ``steps`` steps from the current Java source: the first from Python (it traces the
        graph or checks the signature), the rest in Java. Drops the source when it runs dry."""
        from mindspore._host import host  # pylint: disable=import-outside-toplevel
        from mindspore.common import _graph  # pylint: disable=import-outside-toplevel
        outputs, done = None, 0
        while done < steps:
            batch = self._pending if self._pending is not None else self._source.next()
            self._pending = None
            if batch is None:
                self._source = None
                break
            args = [Tensor._wrap(t) for t in batch]  # pylint: disable=protected-access
            outputs = self._network(*args)  # traces on first use, or a new shape
            done += 1
            entry = _graph.compiled(self._network, args)
            if entry is None or done == steps:
                continue
            graph, template, signature = entry
            result = host().sink(graph, self._source, signature, steps - done)
            _graph.report_dry_run()
            done += result.steps()
            self.java_steps += result.steps()
            if result.outputs() is not None:
                outputs = _graph.rebuild(template, result.outputs())
            pending = result.pending()
            if pending is not None:
                self._pending = [t.java for t in pending]
            elif done < steps:
                self._source = None
                break
        return done, outputs

    def _run_python(self, steps):
        outputs = None
        for _ in range(steps):
            if self._stream is None:
                # One iterator over endless epochs: it ends each epoch with one StopIteration.
                self._stream = self._dataset.create_tuple_iterator(num_epochs=-1)
            try:
                batch = next(self._stream)
            except StopIteration:
                batch = next(self._stream)
            outputs = self._network(*_as_tuple(batch))
        return outputs


class _ProgressBar:
    """A one-line progress bar on a terminal's stderr, for training without a loss printer."""

    def __init__(self, total):
        self._total = max(total, 1)
        self._start = time.time()
        self._last = 0.0

    def update(self, step, loss):
        now = time.time()
        if now - self._last < 0.2 and step != self._total:
            return
        self._last = now
        width = 30
        done = int(width * step / self._total)
        rate = step / max(now - self._start, 1e-9)
        sys.stderr.write("\r[%s%s] %d/%d steps, %.1f steps/s, loss %s" % (
            "#" * done, "." * (width - done), step, self._total, rate, loss))
        if step == self._total:
            sys.stderr.write("\n")
        sys.stderr.flush()



def _check_input_data(predict_data):
    """MindSpore's ``check_input_data`` for prediction: Tensors (not empty), None, int, float, str."""
    for item in predict_data:
        if item is None:
            continue
        if isinstance(item, Tensor):
            if item.size == 0:
                raise ValueError("The input data can not be empty.")
            continue
        if not isinstance(item, (int, float, str)):
            data_class_str = "Tensor, None, int, float, str"
            raise TypeError(f'The types of input data must be in the Union({data_class_str}, '
                            f'tuple[{data_class_str}], list[{data_class_str}], dict[{data_class_str}]), '
                            f'but got type {type(item).__name__}.')

class Model:
    """Wraps a network with its loss, optimizer and metrics for ``train``, ``eval`` and ``predict``."""

    def __init__(self, network, loss_fn=None, optimizer=None, metrics=None, eval_network=None, eval_indexes=None,
                 amp_level="O0", boost_level="O0", **kwargs):
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        for arg in kwargs:
            if arg not in _KWARGS:
                raise ValueError(f"The argument in 'kwargs' should be 'loss_scale_manager' or "
                                 f"'keep_batchnorm_fp32' or 'boost_config_dict' or 'acc_level', but got '{arg}'.")
        self._loss_scale_manager = kwargs.get('loss_scale_manager')
        self._loss_scale_manager_set = 'loss_scale_manager' in kwargs
        self._keep_bn_fp32 = kwargs.get('keep_batchnorm_fp32')
        self._amp_level = amp_level
        self._boost_level = boost_level
        if optimizer is None and amp_level != "O0":
            raise ValueError(
                "Auto mixed precision will not work because 'optimizer' is None.Please set amp_level='O0' "
                "to disable auto mixed precision or set 'optimizer' not be None to use auto mixed precision.")
        self._metrics = metrics
        self._train_network = self._build_train_network()
        self._eval_network = eval_network
        self._eval_indexes = None
        self._build_eval_network(metrics, eval_network, eval_indexes)
        self._predict_network = self._network
        self._current_epoch_num = 0
        self._current_step_num = 0
        self.epoch_iter = 0
        self.batch_num = -1
        self._sink_feed = None

    def _build_train_network(self):
        network = self._network
        validator.check_value_type('network', network, nn.Cell)
        if self._loss_scale_manager is not None and self._optimizer is None:
            raise ValueError("The argument 'optimizer' can not be None when set 'loss_scale_manager'.")
        if self._optimizer:
            amp_config = {}
            if self._loss_scale_manager_set:
                amp_config['loss_scale_manager'] = self._loss_scale_manager
            if self._keep_bn_fp32 is not None:
                amp_config['keep_batchnorm_fp32'] = self._keep_bn_fp32
            network = amp.build_train_network(network, self._optimizer, self._loss_fn, level=self._amp_level,
                                              boost_level=self._boost_level, **amp_config)
        elif self._loss_fn:
            network = nn.WithLossCell(network, self._loss_fn)
        return network

    def _update_loss_scale(self, outputs):
        """A manager that drops overflowing updates learns of each step's overflow flag."""
        manager = self._loss_scale_manager
        if manager is not None and getattr(manager, "get_drop_overflow_update", lambda: False)():
            manager.update_loss_scale(bool(outputs[1]))

    def _build_eval_network(self, metrics, eval_network, eval_indexes):
        self._metric_fns = get_metrics(metrics)
        if not self._metric_fns:
            return
        if eval_network is not None:
            if eval_indexes is not None and not (isinstance(eval_indexes, list) and len(eval_indexes) == 3):
                raise ValueError("The argument 'eval_indexes' must be a list or None. If 'eval_indexes' is a list, "
                                 "length of it must be three. But got 'eval_indexes' {}".format(eval_indexes))
            self._eval_network = eval_network
            self._eval_indexes = eval_indexes
            return
        if self._loss_fn is None:
            raise ValueError("If `metrics` is set, `eval_network` must not be None. Do not set `metrics` if you"
                             " don't want an evaluation.\n"
                             "If evaluation is required, you need to specify `eval_network`, which will be used in"
                             " the framework to evaluate the model.\n"
                             "For the simple scenarios with one data, one label and one logits, `eval_network` is"
                             " optional, and then you can set `eval_network` or `loss_fn`. For the latter case,"
                             " framework will automatically build an evaluation network with `network` and"
                             " `loss_fn`.")
        self._eval_network = nn.WithEvalCell(self._network, self._loss_fn, self._amp_level in ["O2", "O3", "auto"])
        self._eval_indexes = [0, 1, 2]

    def _clear_metrics(self):
        for metric in self._metric_fns.values():
            metric.clear()

    def _update_metrics(self, outputs):
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        if not isinstance(outputs, tuple):
            raise ValueError(f"The argument 'outputs' should be tuple, but got {type(outputs)}.")
        if self._eval_indexes is not None and len(outputs) < 3:
            raise ValueError("The length of 'outputs' must be >= 3, but got {}".format(len(outputs)))
        for metric in self._metric_fns.values():
            if self._eval_indexes is None:
                metric.update(*outputs)
            elif isinstance(metric, Loss):
                metric.update(outputs[self._eval_indexes[0]])
            else:
                metric.update(outputs[self._eval_indexes[1]], outputs[self._eval_indexes[2]])

    def _get_metrics(self):
        return {key: value.eval() for key, value in self._metric_fns.items()}

    @staticmethod
    def _transform_callbacks(callbacks):
        if callbacks is None:
            return []
        if isinstance(callbacks, Iterable):
            return list(callbacks)
        return [callbacks]

    def _check_reuse_dataset(self, dataset):
        if not hasattr(dataset, '__model_hash__'):
            dataset.__model_hash__ = hash(self)
        if dataset.__model_hash__ != hash(self):
            raise RuntimeError("The dataset object had been used in other model by model.train(...), "
                               "please create a new dataset.")

    def train(self, epoch, train_dataset, callbacks=None, dataset_sink_mode=False, sink_size=-1, initial_epoch=0):
        """Trains ``epoch`` epochs over ``train_dataset`` (batches of ``(data, label)`` with a loss_fn)."""
        validator.check_bool(dataset_sink_mode)
        validator.check_value_type('sink_size', sink_size, int)
        validator.check_positive_int(epoch)
        validator.check_non_negative_int(initial_epoch)
        if initial_epoch >= epoch:
            raise ValueError(f"For 'Model.train', the parameter 'epoch' must bigger than parameter 'initial_epoch',"
                             f" but got the parameter 'epoch' is {epoch}, 'initial_epoch' is {initial_epoch}.")
        dataset_size = train_dataset.get_dataset_size()
        if dataset_size == 0:
            raise ValueError("There is no valid data in dataset, please check dataset file firstly.")
        if sink_size == -1:
            sink_size = dataset_size
        if sink_size < -1 or sink_size == 0:
            raise ValueError("For 'Model.train', The argument 'sink_size' must be -1 or positive, "
                             "but got {}.".format(sink_size))
        self._train(epoch, train_dataset, callbacks, initial_epoch,
                    sink_size=sink_size if _sinks(dataset_sink_mode) else None)

    def build(self, train_dataset=None, valid_dataset=None, sink_size=-1, epoch=1):  # pylint: disable=unused-argument
        """Compiles the train network (and with ``valid_dataset`` the eval network) for the shapes of
        the dataset's first batch without running a step, as MindSpore's ``Model.build``: in
        semi_auto/auto_parallel the parameters then have their layouts and slices (a dry run's way
        of planning a cluster). ``train`` later replays the compiled graphs."""
        if not train_dataset and not valid_dataset:
            raise ValueError("The argument 'train_dataset' and 'valid_dataset' can not both be None or empty.")
        from mindspore.common.api import _cell_graph_executor  # pylint: disable=import-outside-toplevel
        if train_dataset:
            validator.check_value_type('sink_size', sink_size, int)
            if train_dataset.get_dataset_size() == 0:
                raise ValueError("There is no valid data in dataset, please check dataset file firstly.")
            self._train_network.set_train(True)
            first = next(iter(train_dataset.create_tuple_iterator(num_epochs=1)))
            _cell_graph_executor.compile(self._train_network, *first)
        if valid_dataset:
            if not self._metric_fns:
                raise ValueError("For Model.build, the model argument 'metrics' can not be None or empty, "
                                 "you should set the argument 'metrics' for model.")
            self._eval_network.set_train(False)
            first = next(iter(valid_dataset.create_tuple_iterator(num_epochs=1)))
            _cell_graph_executor.compile(self._eval_network, *first)

    def fit(self, epoch, train_dataset, valid_dataset=None, valid_frequency=1, callbacks=None,
            dataset_sink_mode=False, valid_dataset_sink_mode=False, sink_size=-1, initial_epoch=0):
        """Trains and evaluates on ``valid_dataset`` every ``valid_frequency`` epochs."""
        validator.check_bool(dataset_sink_mode)
        validator.check_bool(valid_dataset_sink_mode)
        validator.check_positive_int(epoch)
        validator.check_non_negative_int(initial_epoch)
        if initial_epoch >= epoch:
            raise ValueError(f"For 'Model.fit', the parameter 'epoch' must bigger than parameter 'initial_epoch',"
                             f" but got the parameter 'epoch' is {epoch}, 'initial_epoch' is {initial_epoch}.")
        if not isinstance(valid_frequency, (int, list)):
            raise TypeError(f"For 'Model.fit', the type of 'valid_frequency' must be a list or an integer, but got "
                            f"type {type(valid_frequency)}.")
        if valid_dataset and not self._metric_fns:
            raise ValueError("For 'Model.fit', if valid_dataset is not None, the model argument 'metrics' can not be"
                             "None or empty, you should set the argument 'metrics' for model.")
        self._train(epoch, train_dataset, callbacks, initial_epoch, valid=(valid_dataset, valid_frequency))

    def _train(self, epoch, train_dataset, callbacks, initial_epoch, valid=(None, 1), sink_size=None):
        cb_params = _InternalCallbackParam()
        cb_params.cur_step_num = 0
        cb_params.train_network = self._train_network
        cb_params.epoch_num = epoch - initial_epoch
        cb_params.batch_num = sink_size or train_dataset.get_dataset_size()
        self.batch_num = cb_params.batch_num
        cb_params.mode = "train"
        cb_params.loss_fn = self._loss_fn
        cb_params.optimizer = self._optimizer
        cb_params.parallel_mode = _parallel_mode()
        cb_params.device_number = _device_num()
        cb_params.train_dataset = train_dataset
        cb_params.list_callback = self._transform_callbacks(callbacks)
        cb_params.train_dataset_element = None
        cb_params.network = self._network
        cb_params.last_save_ckpt_step = None
        cb_params.latest_ckpt_file = None
        cb_params.loss_scale_mananger = self._loss_scale_manager
        progress = None
        if sys.stderr.isatty() and not any(type(cb).__name__ in _REPORTING_CALLBACKS
                                           for cb in cb_params.list_callback):
            progress = _ProgressBar(cb_params.batch_num * (epoch - initial_epoch))
        with _CallbackManager(cb_params.list_callback) as list_callback:
            self._check_reuse_dataset(train_dataset)
            if sink_size:
                self._train_sink_process(epoch, train_dataset, list_callback, cb_params, initial_epoch, sink_size)
            else:
                self._train_process(epoch, train_dataset, list_callback, cb_params, initial_epoch, valid, progress)

    def _train_sink_process(self, epoch, train_dataset, list_callback, cb_params, initial_epoch, sink_size):
        """MindSpore's dataset sink mode (GRAPH_MODE on Ascend/GPU): each epoch of the loop runs
        ``sink_size`` steps as one network call, so callbacks see one step of ``sink_size`` batches.
        Here the steps of a sink run as a loop in Java where the pipeline runs in Java."""
        cb_params.sink_size = sink_size
        cb_params.dataset_sink_mode = True
        run_context = RunContext(cb_params)
        self._train_network.set_train(True)
        feed = self._sink_feed = _SinkFeed(train_dataset, self._train_network, sink_size)
        list_callback.on_train_begin(run_context)
        for i in range(initial_epoch, epoch):
            cb_params.cur_epoch_num = i + 1
            self._current_epoch_num = cb_params.cur_epoch_num
            list_callback.on_train_epoch_begin(run_context)
            cb_params.cur_step_num += sink_size
            self._current_step_num = sink_size
            list_callback.on_train_step_begin(run_context)
            cb_params.net_outputs = feed.run(sink_size)
            list_callback.on_train_step_end(run_context)
            list_callback.on_train_epoch_end(run_context)
            if run_context.get_stop_requested():
                break
        list_callback.on_train_end(run_context)

    def _train_process(self, epoch, train_dataset, list_callback, cb_params, initial_epoch, valid, progress):
        batches = _Epochs(train_dataset, epoch - initial_epoch)
        self._train_network.set_train(True)
        cb_params.dataset_sink_mode = False
        run_context = RunContext(cb_params)
        list_callback.on_train_begin(run_context)
        done = 0
        for i in range(initial_epoch, epoch):
            cb_params.cur_epoch_num = i + 1
            self._current_epoch_num = cb_params.cur_epoch_num
            self._current_step_num = 0
            list_callback.on_train_epoch_begin(run_context)
            for next_element in batches:
                len_element = len(next_element)
                next_element = _as_tuple(next_element)
                if self._loss_fn and len_element != 2:
                    raise ValueError("When 'loss_fn' is not None, 'train_dataset' should return "
                                     "two elements, but got {}, please check the number of elements "
                                     "returned by 'train_dataset'".format(len_element))
                cb_params.cur_step_num += 1
                self._current_step_num = int((cb_params.cur_step_num - 1) % cb_params.batch_num + 1)
                cb_params.train_dataset_element = next_element
                list_callback.on_train_step_begin(run_context)
                outputs = self._train_network(*next_element)
                cb_params.net_outputs = outputs
                self._update_loss_scale(outputs)
                list_callback.on_train_step_end(run_context)
                done += 1
                if progress is not None:
                    progress.update(done, outputs)
                if run_context.get_stop_requested():
                    break
            valid_dataset, valid_frequency = valid
            if valid_dataset is not None and _should_eval(cb_params.cur_epoch_num, valid_frequency):
                saved = (cb_params.cur_step_num, cb_params.batch_num, cb_params.net_outputs)
                cb_params.metrics = self._eval_process(valid_dataset, list_callback, cb_params)
                cb_params.mode = "train"
                cb_params.cur_step_num, cb_params.batch_num, cb_params.net_outputs = saved
                self._train_network.set_train(True)
            list_callback.on_train_epoch_end(run_context)
            cb_params.pop("metrics", None)
            cb_params.pop("eval_results", None)
            if run_context.get_stop_requested():
                break
        list_callback.on_train_end(run_context)

    def eval(self, valid_dataset, callbacks=None, dataset_sink_mode=False):
        """The metrics over ``valid_dataset``, as a dict name -> value."""
        validator.check_bool(dataset_sink_mode)
        if not self._metric_fns:
            raise ValueError("For Model.eval, the model argument 'metrics' can not be None or empty, "
                             "you should set the argument 'metrics' for model.")
        cb_params = _InternalCallbackParam()
        cb_params.eval_network = self._eval_network
        cb_params.valid_dataset = valid_dataset
        cb_params.mode = "eval"
        cb_params.list_callback = self._transform_callbacks(callbacks)
        cb_params.network = self._network
        with _CallbackManager(cb_params.list_callback) as list_callback:
            return self._eval_process(valid_dataset, list_callback, cb_params)

    def _eval_process(self, valid_dataset, list_callback, cb_params):
        self._clear_metrics()
        cb_params.mode = "eval"
        cb_params.batch_num = valid_dataset.get_dataset_size()
        cb_params.cur_step_num = 0
        cb_params.dataset_sink_mode = False
        run_context = RunContext(cb_params)
        list_callback.on_eval_begin(run_context)
        self._eval_network.set_train(False)
        list_callback.on_eval_epoch_begin(run_context)
        for next_element in _Epochs(valid_dataset, 1):
            cb_params.cur_step_num += 1
            next_element = _as_tuple(next_element)
            cb_params.eval_dataset_element = next_element
            list_callback.on_eval_step_begin(run_context)
            outputs = self._eval_network(*next_element)
            cb_params.net_outputs = outputs
            list_callback.on_eval_step_end(run_context)
            self._update_metrics(outputs)
            if run_context.get_stop_requested():
                break
        list_callback.on_eval_epoch_end(run_context)
        metrics = self._get_metrics()
        cb_params.metrics = metrics
        list_callback.on_eval_end(run_context)
        return metrics

    def predict(self, *predict_data, backend=None, config=None):
        """The network's output on ``predict_data`` (evaluation mode)."""
        del config
        if backend not in ['lite', None]:
            raise ValueError(f"For Model.predict, `backend` should be 'lite' or None, but got {backend}")
        _check_input_data(predict_data)
        self._predict_network.set_train(False)
        return self._predict_network(*predict_data)

    def _infer_train_check(self, train_dataset, dataset_sink_mode, sink_size):
        """MindSpore's checks of ``infer_train_layout``'s arguments, in its order and words."""
        from mindspore import context  # pylint: disable=import-outside-toplevel
        if context.get_context("mode") != context.GRAPH_MODE:
            raise RuntimeError("Pre-compile process that generate parameter layout for the train network "
                               "only supports GRAPH MODE and Ascend target currently.")
        mode = _wrapper_settings(self._network).get("parallel_mode", _parallel_mode())
        if mode not in ("semi_auto_parallel", "auto_parallel"):
            raise RuntimeError("'infer_train_layout' only supports 'semi_auto_parallel' and 'auto_parallel' "
                               "mode, but got {}.".format(mode))
        dataset_sink_mode = validator.check_bool(dataset_sink_mode)
        if not dataset_sink_mode:
            raise ValueError("Only dataset sink mode is supported for now.")
        if type(self._train_network).__name__ == "GraphCell":
            raise ValueError("Dataset sink mode is currently not supported when training with a GraphCell.")
        validator.check_is_int(sink_size)
        if train_dataset.get_dataset_size() == 0:
            raise ValueError("There is no valid data in dataset, please check dataset file firstly.")
        if sink_size < -1 or sink_size == 0:
            raise ValueError("For 'infer_train_layout', the argument 'sink_size' must be -1 or positive, "
                             "but got sink_size {}.".format(sink_size))

    def infer_train_layout(self, train_dataset, dataset_sink_mode=True, sink_size=-1):
        """{parameter name: layout} of the train network compiled (not run) for the shapes of
        ``train_dataset``'s first batch in semi_auto/auto_parallel, as MindSpore's pre-compile: the
        parameters then hold this rank's slices, so a checkpoint saved per rank
        (``integrated_save=False``) loads into them, and ``train`` on the same dataset reuses the
        compiled step."""
        self._infer_train_check(train_dataset, dataset_sink_mode, sink_size)
        from mindspore.common.api import _cell_graph_executor  # pylint: disable=import-outside-toplevel
        network = self._train_network
        network.set_train(True)
        first = next(iter(train_dataset.create_tuple_iterator(num_epochs=1)))
        _cell_graph_executor.compile(network, *first)
        train_dataset.__model_hash__ = hash(self)
        return network.parameter_layout_dict

    def infer_predict_layout(self, *predict_data, skip_backend_compile=False):
        """{parameter name: layout} of the predict network compiled for ``predict_data`` under
        semi_auto/auto parallel (``load_distributed_checkpoint``'s ``predict_strategy``). The compile
        runs the network once on ``predict_data``, as every compile here does; the parameters then
        hold this rank's slices. In PYNATIVE_MODE nothing is compiled here and the dict is empty."""
        del skip_backend_compile
        from mindspore import context  # pylint: disable=import-outside-toplevel
        from mindspore import log as logger  # pylint: disable=import-outside-toplevel
        settings = _wrapper_settings(self._network)
        mode = settings.get("parallel_mode", context.get_auto_parallel_context("parallel_mode"))
        if mode not in ("semi_auto_parallel", "auto_parallel"):
            raise RuntimeError('Infer predict layout only supports semi auto parallel and auto parallel mode.')
        strategy = settings.get("dataset_strategy", context.get_auto_parallel_context("dataset_strategy"))
        full_batch = strategy == "full_batch" if settings else context.get_auto_parallel_context("full_batch")
        if not full_batch and not (strategy and strategy not in ("data_parallel", "full_batch")):
            logger.warning('Using non full-batch dataset in model prediction may lead to incorrect data.')
        _check_input_data(predict_data)
        predict_net = self._predict_network
        predict_net.set_train(False)
        predict_net(*predict_data)
        return predict_net.parameter_layout_dict

    @property
    def train_network(self):
        """The network ``train`` runs (with loss and optimizer)."""
        return self._train_network

    @property
    def predict_network(self):
        """The network ``predict`` runs."""
        return self._predict_network

    @property
    def eval_network(self):
        """The network ``eval`` runs."""
        return self._eval_network


def _sinks(dataset_sink_mode):
    """Whether MindSpore would sink: GRAPH_MODE on a device target that supports it (on CPU it runs
    the per-step loop, as MindSpore's CPU backend does)."""
    from mindspore import context  # pylint: disable=import-outside-toplevel
    return dataset_sink_mode and context.get_context("mode") == context.GRAPH_MODE and \
        context.get_context("device_target") in ("Ascend", "GPU")


def _should_eval(epoch, validation_freq):
    return epoch % validation_freq == 0 if isinstance(validation_freq, int) else epoch in validation_freq


def _wrapper_settings(network):
    """The auto-parallel settings of an ``AutoParallel`` cell in ``network`` (what it puts in the
    context while it compiles, as MindSpore's ``_init_auto_parallel_context``), or {} without one."""
    for _, cell in network.cells_and_names():
        if type(cell).__name__ == "AutoParallel":
            return cell._context()  # pylint: disable=protected-access
    return {}


def _parallel_mode():
    from mindspore import context  # pylint: disable=import-outside-toplevel
    return context.get_auto_parallel_context("parallel_mode")


def _device_num():
    from mindspore import context  # pylint: disable=import-outside-toplevel
    return context.get_auto_parallel_context("device_num")


__all__ = ["Model", "get_metric_fn"]
