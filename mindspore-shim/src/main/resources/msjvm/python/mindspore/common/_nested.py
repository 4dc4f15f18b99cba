"""Plain nested lists to tensors and back in a few bulk steps.

``Tensor([[...], ...])`` and dataset columns of Python lists are common and large (an MNIST-shaped
sample is 784 floats). Checking and converting every element with Python code costs tens of
microseconds per element without the JIT (``isinstance`` against the ``numbers`` ABCs dominates), so
plain data (lists/tuples nested to a fixed depth, leaves exactly ``bool``, ``int`` or ``float``) is
flattened with builtins (``itertools.chain``, ``map(type, ...)``), packed into an ``array.array``
and handed to Java as bytes. Anything else returns None and takes the caller's element-wise path,
which owns every error message. The way back (``Tensor.tolist``, ``asnumpy``) likewise decodes the
tensor's bytes with ``array.array`` and nests the flat list by slicing, instead of converting a
Java list element by element.
"""
import array
import itertools
import math
import sys

_SEQUENCES = {list, tuple}
_LEAVES = {bool, int, float}


def plain_tensor(data, dtype, float_dtype):
    """The engine tensor (a Java object) for plain nested ``data``, or None.

    ``dtype`` is the engine dtype name asked for, or None to infer it as the element-wise paths do:
    ``float_dtype`` if any leaf is a float, bool if all are bools, int64 otherwise.
    """
    from mindspore._host import host  # pylint: disable=import-outside-toplevel
    dims = []
    level = [data]
    while True:
        kinds = set(map(type, level))
        if kinds <= _SEQUENCES:
            lengths = set(map(len, level))
            if len(lengths) != 1 or 0 in lengths:
                return None
            dims.append(lengths.pop())
            level = list(itertools.chain.from_iterable(level))
        elif kinds <= _LEAVES:
            break
        else:
            return None
    if float in kinds:
        code, source, inferred = "d", "FLOAT64", float_dtype
    elif int in kinds:
        code, source, inferred = "q", "INT64", "INT64"
    else:
        code, source, inferred = "b", "BOOL", "BOOL"
    try:
        packed = array.array(code, level)
    except OverflowError:  # an int beyond int64: the caller raises MindSpore's error
        return None
    return host().tensorFromBytesAs(source, dims, packed.tobytes(), dtype or inferred).java


# Tensors with fewer elements take the element-wise path (loss values, metrics: one Java call).
_BULK = 64

# array.array type codes of the engine dtypes tolist decodes from bytes (float16/bfloat16 arrive
# widened to float32).
_CODES = {"FLOAT16": "f", "BFLOAT16": "f", "FLOAT32": "f", "FLOAT64": "d", "INT8": "b", "UINT8": "B",
          "INT16": "h", "INT32": "i", "INT64": "q", "BOOL": "b"}


def bulk_bytes(java, dtype, shape):
    """``(array.array type code, raw little-endian bytes)`` of the engine tensor ``java``
    (float16/bfloat16 widened to float32), crossing in one piece; None for small (or empty)
    tensors, where one call converting the Java list is cheaper than decoding, and for types the
    bytes cannot be decoded from here."""
    from mindspore._host import host  # pylint: disable=import-outside-toplevel
    code = _CODES.get(dtype)
    if code is None or sys.byteorder != "little" or array.array(code).itemsize * 8 != _bits(code) \
            or math.prod(shape) < _BULK:
        return None
    return code, host().tensorBytesLatin1(java).encode("latin-1")


def nested_list(java, dtype, shape):
    """``Tensor.tolist()`` of the engine tensor ``java``: nested lists of bool/int/float, or the
    scalar of a 0-d tensor."""
    from mindspore._host import host  # pylint: disable=import-outside-toplevel
    if dtype in ("COMPLEX64", "COMPLEX128"):
        return _complex_pairs(host().tensorToList(java), len(shape))
    bulk = bulk_bytes(java, dtype, shape)
    if bulk is None:
        return host().tensorToList(java)
    flat = array.array(*bulk).tolist()
    if dtype == "BOOL":
        flat = list(map(bool, flat))
    if not shape:
        return flat[0]
    for dim in reversed(shape[1:]):
        flat = [flat[i:i + dim] for i in range(0, len(flat), dim)]
    return flat


def _bits(code):
    return {"f": 32, "d": 64, "b": 8, "B": 8, "h": 16, "i": 32, "q": 64}[code]


def _complex_pairs(value, depth):
    """The engine's complex elements, [real, imag] pairs ``depth`` lists deep, as Python complex."""
    if depth == 0:
        return complex(value[0], value[1])
    return [_complex_pairs(v, depth - 1) for v in value]

