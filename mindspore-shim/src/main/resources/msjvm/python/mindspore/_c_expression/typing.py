"""``mindspore._c_expression.typing``: MindSpore's numeric type ids (its ``TypeId`` enum values) and the
conversions between them and ``mindspore.dtype`` types, for the types the engine implements."""
from mindspore.common import dtype as mstype

# MindSpore 2.10's TypeId values (``mindspore/core/include/ir/dtype/type_id.h``).
_BY_ID = {
    30: mstype.bool_, 32: mstype.int8, 33: mstype.int16, 34: mstype.int32, 35: mstype.int64,
    37: mstype.uint8, 42: mstype.float16, 43: mstype.float32, 44: mstype.float64, 45: mstype.bfloat16,
}
_ID_OF = {t: i for i, t in _BY_ID.items()}


def type_id_to_type(type_id):
    """The ``mindspore.dtype`` type of a TypeId value."""
    if not isinstance(type_id, int) or isinstance(type_id, bool):
        raise TypeError("type_id_to_type(): incompatible function arguments. The following argument types are "
                        f"supported:\n    1. (arg0: int) -> mindspore::Type\n\nInvoked with: {type_id!r}")
    if type_id not in _BY_ID:
        raise RuntimeError(f"Not support the type: {type_id}")
    return _BY_ID[type_id]


def type_to_type_id(type_):
    """The TypeId value of a ``mindspore.dtype`` type."""
    if type_ not in _ID_OF:
        raise TypeError(f"Not support the type: {type_}")
    return _ID_OF[type_]
