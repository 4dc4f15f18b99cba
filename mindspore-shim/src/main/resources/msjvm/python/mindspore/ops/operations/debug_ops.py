"""``Print``, ``TensorDump`` and ``Depend``: operators about the outside world and about order, not values.

``Print`` writes its inputs to standard output, one per line, as MindSpore 2.10 does: run eagerly,
a tensor as its ``repr`` and anything else as ``print`` writes it; inside a traced graph it becomes
the engine's ``Print`` operator, which writes each time the graph runs in MindSpore's graph-mode
text (no commas in tensors, a 0-d tensor as its value, ``True`` as ``1``), and a compile on shapes
writes nothing. ``Depend(value, expr)`` is ``value``: the engine keeps every operator with an effect
in the order the script called it, so there is no order to impose. ``TensorDump`` saves a tensor
as a ``.npy`` file when run eagerly; inside a graph it is MindSpore's CPU refusal (it has no CPU
kernel there).
"""
import io
import itertools
import os

from mindspore._dirs import makedirs
from mindspore.ops.primitive import Primitive

# The dump files' sequence number: MindSpore numbers every dump of the process; a job's shim
# modules are its own, so this counts the job's dumps.
_DUMP_IDS = itertools.count()


def _graph_text(value):
    """How MindSpore's graph-mode Print writes a non-tensor item."""
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


class Print(Primitive):
    """``Print()(*items)``: writes tensors, strings, numbers and bools, one per line; returns None."""

    def __init__(self):
        super().__init__("Print")
        self.add_prim_attr("side_effect_io", True)

    def _engine_attrs(self):
        # The engine operator takes only what it prints.
        return []

    def __call__(self, *args):
        from mindspore._host import host  # pylint: disable=import-outside-toplevel
        from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
        if not host().recording():
            for arg in args:
                print(repr(arg) if isinstance(arg, Tensor) else arg)
            return None
        tensors = [a for a in args if isinstance(a, Tensor)]
        items = "".join("T" if isinstance(a, Tensor) else "S" for a in args)
        texts = [_graph_text(a) for a in args if not isinstance(a, Tensor)]
        self._run_engine(*tensors, extra=("items", items, "texts", texts))
        return None


class Depend(Primitive):
    """``Depend()(value, expr)``: ``value`` (MindSpore orders ``expr`` before the uses of ``value``)."""

    def __init__(self):
        super().__init__("Depend")

    def __call__(self, value, expr):  # pylint: disable=unused-argument
        return value


class TensorDump(Primitive):
    """``TensorDump(input_output='out')(file, input_x)``: saves ``input_x`` as
    ``<file without .npy>_<dtype>_<n>.npy`` (``n`` counts the dumps of the run; bfloat16 saved as
    float32, as MindSpore does), the file read-only to its owner, missing directories made with mode
    700; returns None."""

    def __init__(self, input_output="out"):
        super().__init__("TensorDump")
        if input_output not in ("in", "out"):
            raise ValueError(f"The 'input_output' argument should be one of ['in', 'out'], but got: {input_output}")
        self.add_prim_attr("input_output", input_output)
        self.add_prim_attr("side_effect_io", True)
        self.add_prim_attr("channel_name", "ms_tensor_dump")

    def __call__(self, file, input_x):
        from mindspore._host import host  # pylint: disable=import-outside-toplevel
        from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
        if not isinstance(file, str):
            raise TypeError(f"For 'TensorDump', the type of 'file' should be 'str', but got type "
                            f"'{type(file).__name__}'.")
        if not isinstance(input_x, Tensor):
            raise TypeError(f"For 'TensorDump', the type of 'input_x' should be 'Tensor', but got type "
                            f"'{type(input_x).__name__}'.")
        if host().recording():
            raise RuntimeError("\n----------------------------------------------------\n- Kernel select failed:\n"
                               "----------------------------------------------------\n"
                               "Unsupported op [TensorDump] on CPU, Please confirm whether the device target "
                               "setting is correct, or refer to 'mindspore.ops' at https://www.mindspore.cn to "
                               "query the operator support list.")
        import numpy as np  # pylint: disable=import-outside-toplevel
        dtype = str(input_x.dtype).lower()
        stem = file[:-4] if file.endswith(".npy") else file
        path = f"{stem}_{dtype}_{next(_DUMP_IDS)}.npy"
        makedirs(os.path.dirname(path), 0o700, 0o700)
        value = input_x.asnumpy()
        if dtype == "bfloat16":
            value = value.astype(np.float32)
        # numpy writes a real file with tofile(), which GraalPy's Java file backend lacks: the bytes
        # of np.save are written through Python's own file object.
        buffer = io.BytesIO()
        np.save(buffer, value)
        with open(path, "wb") as f:
            f.write(buffer.getvalue())
        os.chmod(path, 0o400)
        return None
