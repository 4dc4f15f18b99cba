"""``nn.BatchNorm1d``, ``nn.BatchNorm2d`` and ``nn.LayerNorm`` as MindSpore 2.10.

BatchNorm keeps MindSpore's parameters — ``gamma``/``beta`` (trainable when ``affine``) and the
moving statistics ``moving_mean``/``moving_variance`` (named ``mean``/``variance``, never trainable) —
and its momentum convention: the layer's ``momentum=0.9`` weighs the old moving statistics, so the
BatchNorm primitive gets ``1 - momentum`` (``moving = momentum * moving + (1 - momentum) * batch``).
In training (``set_train()``, or ``use_batch_statistics=True``) it normalizes with the batch statistics
and updates the moving ones in place; otherwise it normalizes with the moving statistics.

``SyncBatchNorm`` takes the training statistics over the batch blocks of the ranks of its sync group
(``process_groups``: lists of world ranks; ``None``: every rank). A rank alone in its group, or a
world of one rank, runs plain BatchNorm. Group names are MindSpore's: the world group's, or
``"<size>_<sha256 of the ranks joined by '_'>"`` created once per rank list.
"""
import hashlib
import itertools

from mindspore import _checkparam as validator
from mindspore.common import dtype as mstype
from mindspore.common.initializer import initializer
from mindspore.common.parameter import Parameter
from mindspore.nn.cell import Cell
from mindspore.ops import operations as P

__all__ = ["BatchNorm1d", "BatchNorm2d", "SyncBatchNorm", "LayerNorm"]


class _BatchNorm(Cell):
    """Batch normalization base class."""

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init='ones', beta_init='zeros',
                 moving_mean_init='zeros', moving_var_init='ones', use_batch_statistics=None, data_format='NCHW',
                 dtype=mstype.float32):
        super().__init__()
        validator.check_value_type('num_features', num_features, [int], self.cls_name)
        if num_features < 1:
            raise ValueError(f"For '{self.cls_name}', the 'num_features' must be at least 1, but got {num_features}.")
        if momentum < 0 or momentum > 1:
            raise ValueError(f"For '{self.cls_name}', the 'momentum' must be a number in range [0, 1], "
                             f"but got {momentum}.")
        self.format = validator.check_string(data_format, ['NCHW', 'NHWC'], 'format', self.cls_name)
        if self.format == "NHWC":
            raise ValueError(f"For '{self.cls_name}', the 'NHWC' format only support in GPU target, but got device "
                             f"target CPU.")
        self.use_batch_statistics = use_batch_statistics
        if use_batch_statistics is not None and not isinstance(use_batch_statistics, bool):
            raise ValueError(f"For '{self.cls_name}', the 'use_batch_statistics' must be a boolean value or None,"
                             f" but got {use_batch_statistics}.")
        self.num_features = num_features
        self.eps = eps
        self.beta_init = beta_init
        self.gamma_init = gamma_init
        self.moving_mean_init = moving_mean_init
        self.moving_var_init = moving_var_init
        self.moving_mean = Parameter(initializer(moving_mean_init, num_features, dtype=dtype), name="mean",
                                     requires_grad=False)
        self.moving_variance = Parameter(initializer(moving_var_init, num_features, dtype=dtype), name="variance",
                                         requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, num_features, dtype=dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_features, dtype=dtype), name="beta", requires_grad=affine)
        self.reshape = P.Reshape()
        self.momentum = 1.0 - momentum
        self.bn_train = P.BatchNorm(is_training=True, epsilon=self.eps, momentum=self.momentum,
                                    data_format=self.format)
        self.bn_infer = P.BatchNorm(is_training=False, epsilon=self.eps, data_format=self.format)

    @staticmethod
    def _check_input_dim(shape, cls_name):
        raise NotImplementedError

    def construct(self, x):
        x_shape = tuple(x.shape)
        self._check_input_dim(x_shape, self.cls_name)
        use_batch = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        if use_batch:
            return self.bn_train(x, self.gamma, self.beta, self.moving_mean, self.moving_variance)[0]
        reshaped_x = x
        if len(x_shape) == 2:
            reshaped_x = self.reshape(x, (x_shape[0], x_shape[1], 1, 1))
        elif len(x_shape) == 3:
            reshaped_x = self.reshape(x, (x_shape[0], x_shape[1], x_shape[2], 1))
        bn_out = self.bn_infer(reshaped_x, self.gamma, self.beta, self.moving_mean, self.moving_variance)[0]
        if len(x_shape) < 4:
            bn_out = self.reshape(bn_out, x_shape)
        return bn_out

    def extend_repr(self):
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={1.0 - self.momentum}, "
                f"gamma={self.gamma}, beta={self.beta}, moving_mean={self.moving_mean}, "
                f"moving_variance={self.moving_variance}")


class BatchNorm1d(_BatchNorm):
    """Batch normalization over a 2-D ``(N, C)`` or 3-D ``(N, C, L)`` input."""

    @staticmethod
    def _check_input_dim(shape, cls_name):
        dim = len(shape)
        if dim not in (2, 3):
            raise ValueError(f"For '{cls_name}', the must have 2 dims or 3 dims, but got {dim}.")


class BatchNorm2d(_BatchNorm):
    """Batch normalization over a 4-D ``(N, C, H, W)`` input."""

    @staticmethod
    def _check_input_dim(shape, cls_name):
        dim = len(shape)
        if dim != 4:
            raise ValueError(f"For '{cls_name}', the in_shape must have 4 dims, but got {dim}.")


_SYNCBN_GROUPS = {}  # rank list joined by '_' -> its group's name (per interpreter, as MindSpore's)


class SyncBatchNorm(_BatchNorm):
    """Batch normalization whose training statistics span the ranks of a sync group; 2-D ``(N, C)``
    or 4-D ``(N, C, H, W)`` input."""

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init='ones', beta_init='zeros',
                 moving_mean_init='zeros', moving_var_init='ones', use_batch_statistics=None, process_groups=None,
                 dtype=mstype.float32):
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
                         moving_var_init, use_batch_statistics, dtype=dtype)
        from mindspore.communication.management import get_group_size, get_rank  # pylint: disable=import-outside-toplevel
        self.is_global = False
        self.group_name = None
        self.process_groups = process_groups
        if self.process_groups != 0:
            self.rank_id = get_rank()
            self.rank_size = get_group_size()
            if self.process_groups is not None:
                validator.check_isinstance("process_groups", self.process_groups, list)
                self._check_rank_ids(self.process_groups, self.rank_size)
                self._create_sync_groups()
            elif self.rank_size > 1:
                self.is_global = True
                self.group_device_num = self.rank_size
                self.group_name = _world_group_name()
        if self.is_global:
            from mindspore.ops.operations import _inner_ops  # pylint: disable=import-outside-toplevel
            self.bn_train = _inner_ops.SyncBatchNorm(epsilon=self.eps, momentum=self.momentum,
                                                     group=self.group_name, device_num=self.group_device_num)

    def _create_sync_groups(self):
        """Creates the sync group this rank belongs to (once per rank list)."""
        from mindspore.communication import management  # pylint: disable=import-outside-toplevel
        for sub_group in self.process_groups:
            validator.check_isinstance("sub group", sub_group, list)
            if self.rank_id in sub_group:
                # This rank's group's size (MindSpore's loop leaves the last group's size).
                self.group_device_num = len(sub_group)
            if self.rank_id in sub_group and self.group_device_num > 1:
                self.is_global = True
                rank_list_name = '_'.join(str(r) for r in sub_group)
                if rank_list_name not in _SYNCBN_GROUPS:
                    hash_name = hashlib.sha256(rank_list_name.encode('utf-8')).hexdigest()
                    self.group_name = str(self.group_device_num) + '_' + hash_name
                    _SYNCBN_GROUPS[rank_list_name] = self.group_name
                    management.create_group(self.group_name, sub_group)
                else:
                    self.group_name = _SYNCBN_GROUPS[rank_list_name]

    def _check_rank_ids(self, process_groups, rank_size):
        seen = set()
        for rid in itertools.chain(*process_groups):
            validator.check_int_range(rid, 0, rank_size, validator.INC_LEFT, "rank id in process_groups", self.cls_name)
            if rid in seen:
                raise ValueError(f"For '{self.cls_name}', rank id in 'process_groups' must not be duplicated, "
                                 f"but got {process_groups}.")
            seen.add(rid)

    @staticmethod
    def _check_input_dim(shape, cls_name):
        dim = len(shape)
        if dim not in (2, 4):
            raise ValueError(f"For '{cls_name}', the must have 2 dims or 4 dims, but got {dim}.")


def _world_group_name():
    """The world group's name for the device target (MindSpore's ``hccl_world_group`` on Ascend,
    ``nccl_world_group`` on GPU); the world group of the communicator otherwise."""
    from mindspore import context  # pylint: disable=import-outside-toplevel
    from mindspore.communication import _comm_helper  # pylint: disable=import-outside-toplevel
    target = context.get_context("device_target")
    if target == "Ascend":
        return _comm_helper.HCCL_WORLD_COMM_GROUP
    if target == "GPU":
        return _comm_helper.NCCL_WORLD_COMM_GROUP
    return _comm_helper.GlobalComm.WORLD_COMM_GROUP


class LayerNorm(Cell):
    """Layer normalization over the dimensions from ``begin_norm_axis``, scaled by ``gamma``/``beta``."""

    def __init__(self, normalized_shape, begin_norm_axis=-1, begin_params_axis=-1, gamma_init='ones',
                 beta_init='zeros', epsilon=1e-7, dtype=mstype.float32):
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(f"For '{self.cls_name}', the type of 'normalized_shape' must be tuple[int] or list[int], "
                            f"but got {normalized_shape} and the type is {type(normalized_shape)}.")
        if not normalized_shape:
            raise ValueError(f"Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
                             f"least one element, but got normalized_shape = {normalized_shape}")
        self.normalized_shape = normalized_shape
        self.begin_norm_axis = begin_norm_axis
        self.begin_params_axis = begin_params_axis
        self.epsilon = epsilon
        self.gamma = Parameter(initializer(gamma_init, normalized_shape, dtype=dtype), name="gamma")
        self.beta = Parameter(initializer(beta_init, normalized_shape, dtype=dtype), name="beta")
        self.layer_norm = P.LayerNorm(begin_norm_axis=self.begin_norm_axis,
                                      begin_params_axis=self.begin_params_axis, epsilon=self.epsilon)
        self.cast = P.Cast()

    def construct(self, input_x):
        gamma, beta = self.gamma, self.beta
        if gamma.dtype != input_x.dtype:
            gamma = self.cast(gamma, input_x.dtype)
            beta = self.cast(beta, input_x.dtype)
        y, _, _ = self.layer_norm(input_x, gamma, beta)
        return y

    def extend_repr(self):
        return (f"normalized_shape={self.normalized_shape}, begin_norm_axis={self.begin_norm_axis}, "
                f"begin_params_axis={self.begin_params_axis}, gamma{self.gamma}, beta={self.beta}")
