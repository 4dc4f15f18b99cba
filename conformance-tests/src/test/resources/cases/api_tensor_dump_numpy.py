# ops.TensorDump and ops.tensordump run eagerly: each call saves its tensor as
# <file without .npy>_<dtype>_<n>.npy (n counts the run's dumps; bfloat16 saved as float32), read-only
# to its owner, in directories made with mode 700; MindSpore's errors for the arguments; inside a
# GRAPH_MODE cell it is MindSpore's CPU refusal (no CPU kernel).
import io
import os
import shutil
import stat
import tempfile

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops
from _case_util import attempt

work = tempfile.mkdtemp()
os.chdir(work)
dump = ops.TensorDump()
print("attrs", sorted((k, v) for k, v in dump.attrs.items() if k in ("input_output", "channel_name")))
print("returns", dump("a", Tensor([[1.0, 2.0]], ms.float32)))
dump("x.npy", Tensor([1.5], ms.float16))
ops.TensorDump("in")("x", Tensor(True))
ops.tensordump("deep/sub/y", Tensor([[1, 2]], ms.int64), mode="in")
ops.tensordump("deep/sub/z", Tensor([0.5, 2.0], ms.bfloat16))
for folder in (".", "deep", "deep/sub"):
    print(folder, "mode", oct(stat.S_IMODE(os.stat(folder).st_mode)) if folder != "." else "-")
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.endswith(".npy"):
            with open(path, "rb") as f:  # GraalPy's file backend: numpy reads from memory
                value = np.load(io.BytesIO(f.read()))
            print(" ", name, oct(stat.S_IMODE(os.stat(path).st_mode)), value.dtype, value.shape, value.tolist())

attempt("file not str", lambda: dump(1, Tensor([1.0])))
attempt("input not Tensor", lambda: dump("x", [1.0]))
attempt("input_output bad", lambda: ops.TensorDump("bad"))
attempt("tensordump file_name", lambda: ops.tensordump(3, Tensor([1.0])))
attempt("tensordump tensor", lambda: ops.tensordump("f", 3))
attempt("tensordump mode all", lambda: ops.tensordump("f", Tensor([1.0]), mode="all"))
attempt("tensordump mode bad", lambda: ops.tensordump("f", Tensor([1.0]), mode="x"))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dump = ops.TensorDump()

    def construct(self, x):
        y = x * 2
        self.dump("g", y)
        return y


ms.set_context(mode=ms.GRAPH_MODE)
attempt("graph mode", lambda: Net()(Tensor([3.0, 4.0])))

os.chdir(os.path.dirname(work))
shutil.rmtree(work)
