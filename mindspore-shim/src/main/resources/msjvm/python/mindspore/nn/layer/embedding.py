"""``nn.Embedding`` as MindSpore 2.10: a ``[vocab_size, embedding_size]`` table (``embedding_table``,
initialized ``'normal'`` by default) looked up with Gather, or with a one-hot MatMul when
``use_one_hot``; ``padding_idx`` zeroes that row of the initial table."""
from mindspore import _checkparam as Validator
from mindspore.common import dtype as mstype
from mindspore.common.initializer import initializer
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.ops import operations as P

__all__ = ["Embedding"]


# MindSpore 2.10's ``mstype.number_type``, as its message lists it.
_NUMBER_TYPE_NAMES = ("Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Float16, Float32, Float64, BFloat16, "
                      "Complex64, Complex128, Int4, Float8E4M3FN, Float8E5M2, HiFloat8")


def _check_number_dtype(dtype, prim_name):
    if not any(dtype is t or dtype == t for t in mstype.number_type):
        raise TypeError(f"For '{prim_name}', the element of 'dtype' must be one of "
                        f"{_NUMBER_TYPE_NAMES}, but got {dtype}.The supported data "
                        f"types depend on the hardware that executes the operator, for more details, please refer "
                        f"to the MindSpore official website to get more information about the data type.")


class Embedding(Cell):
    """A lookup table of ``vocab_size`` vectors of ``embedding_size``."""

    def __init__(self, vocab_size, embedding_size, use_one_hot=False, embedding_table='normal',
                 dtype=mstype.float32, padding_idx=None):
        super().__init__()
        self.vocab_size = Validator.check_value_type('vocab_size', vocab_size, [int], self.cls_name)
        self.embedding_size = Validator.check_value_type('embedding_size', embedding_size, [int], self.cls_name)
        Validator.check_value_type('use_one_hot', use_one_hot, [bool], self.cls_name)
        _check_number_dtype(dtype, self.cls_name)
        self.use_one_hot = use_one_hot
        self.dtype = dtype
        self.init_tensor = initializer(embedding_table, [vocab_size, embedding_size])
        self.padding_idx = padding_idx
        if padding_idx is not None:
            self.padding_idx = Validator.check_int_range(padding_idx, 0, vocab_size, Validator.INC_LEFT,
                                                         "padding_idx", self.cls_name)
            if isinstance(self.init_tensor, Tensor) and self.init_tensor.has_init:
                self.init_tensor = self.init_tensor.init_data()
            table_type = self.init_tensor.dtype
            rows = self.init_tensor.tolist()
            rows[self.padding_idx] = [0] * embedding_size
            self.init_tensor = Tensor(rows, table_type)
        self.embedding_table = Parameter(self.init_tensor, name='embedding_table')
        self.reshape_flat = P.Reshape()
        self.shp_flat = (-1,)
        self.gather = P.Gather()
        self.one_hot = P.OneHot()
        self.on_value = Tensor(1.0, self.dtype)
        self.off_value = Tensor(0.0, self.dtype)
        self.array_mul = P.MatMul()
        self.reshape = P.Reshape()

    def construct(self, ids):
        out_shape = tuple(ids.shape) + (self.embedding_size,)
        flat_ids = self.reshape_flat(ids, self.shp_flat)
        if self.use_one_hot:
            one_hot_ids = self.one_hot(flat_ids, self.vocab_size, self.on_value, self.off_value)
            output_for_reshape = self.array_mul(one_hot_ids, self.embedding_table)
        else:
            output_for_reshape = self.gather(self.embedding_table, flat_ids, 0)
        return self.reshape(output_for_reshape, out_shape)

    def extend_repr(self):
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, "
                f"use_one_hot={self.use_one_hot}, embedding_table={self.embedding_table}, dtype={self.dtype}, "
                f"padding_idx={self.padding_idx}")
