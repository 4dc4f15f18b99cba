# save_checkpoint/load_checkpoint with format="safetensors": the file's bytes (header layout: tensors
# ordered by type then name, compact JSON, padding; raw little-endian data), metadata
# (format, remove_redundancy, crc_num), every dtype, scalars, append_dict, choice_func, the CRC check
# and its failure, loading into a network, and the argument checks. Needs numpy (the values).
import hashlib
import os
import struct
import tempfile

import numpy as np
import mindspore as ms
from mindspore import nn


class Net(nn.Cell):
    def __init__(self, bf16=True):
        super().__init__()
        self.b = ms.Parameter(ms.Tensor(np.arange(3, dtype=np.float16)), name="b")
        self.a = ms.Parameter(ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) / 7), name="a")
        self.c = ms.Parameter(ms.Tensor(np.array([1, -2], dtype=np.int64)), name="c")
        self.d = ms.Parameter(ms.Tensor(np.array([True, False])), name="d")
        if bf16:
            self.e = ms.Parameter(ms.Tensor(np.array([1.5, -0.25], dtype=np.float32), ms.bfloat16), name="e")
        self.f = ms.Parameter(ms.Tensor(np.array(7, dtype=np.int8)), name="f")
        self.g = ms.Parameter(ms.Tensor(np.array([3.25], dtype=np.float64)), name="g")
        self.h = ms.Parameter(ms.Tensor(np.array([[1, 2]], dtype=np.int32)), name="h")
        self.i = ms.Parameter(ms.Tensor(np.array([200], dtype=np.uint8)), name="i")
        self.j = ms.Parameter(ms.Tensor(np.array([-300], dtype=np.int16)), name="j")


def show(path):
    raw = open(path, "rb").read()
    n = struct.unpack("<Q", raw[:8])[0]
    header = raw[8:8 + n].decode()
    print(os.path.basename(path), len(raw), n, header.rstrip(" ") if header.count('"') < 60 else "",
          hashlib.sha256(raw[8 + n:]).hexdigest()[:16])
    return header


def values(d):
    return {k: (str(v.dtype), v.shape, (v.astype(ms.float32) if v.dtype == ms.bfloat16 else v).asnumpy().tolist())
            for k, v in d.items()}


work = tempfile.mkdtemp()
os.chdir(work)
net = Net()
ms.save_checkpoint(net, "net", format="safetensors")
header = show("net.safetensors")
print(header.rstrip(" "))
loaded = ms.load_checkpoint("net.safetensors", format="safetensors")
print(sorted(loaded), values(loaded))
print(oct(os.stat("net.safetensors").st_mode & 0o777))

# remove_redundancy and crc_check (metadata with several keys: compare it as a dict).
ms.save_checkpoint(Net(bf16=False), "crc.safetensors", format="safetensors", crc_check=True,
                   remove_redundancy=False)
import json
header = show("crc.safetensors")
meta = json.loads(header)["__metadata__"]
print(sorted(meta.items()))
print(sorted(ms.load_checkpoint("crc.safetensors", format="safetensors", crc_check=True)))
raw = bytearray(open("crc.safetensors", "rb").read())
raw[-1] ^= 1
os.chmod("crc.safetensors", 0o600)
with open("crc.safetensors", "wb") as f:
    f.write(raw)
try:
    ms.load_checkpoint("crc.safetensors", format="safetensors", crc_check=True)
except ValueError as e:
    print("ValueError", e)
print(len(ms.load_checkpoint("crc.safetensors", format="safetensors")))

# A list of dicts, append_dict, choice_func; the empty checkpoint.
ms.save_checkpoint([{"name": "x", "data": ms.Tensor([1.0, 2.0])}, {"name": "w", "data": ms.Tensor([[3]])}],
                   "list.safetensors", format="safetensors", append_dict={"epoch_num": 3, "lr": 0.5, "ok": True})
print(show("list.safetensors").rstrip(" "))
print(values(ms.load_checkpoint("list.safetensors", format="safetensors", choice_func=lambda n: n != "w")))
ms.save_checkpoint([], "empty.safetensors", format="safetensors")
print(repr(show("empty.safetensors")))

# Into a network: load_checkpoint(net=...) and load_param_into_net.
fresh = Net()
for p in fresh.trainable_params():
    p.set_data(ms.ops.zeros_like(p))
print(ms.load_checkpoint("net.safetensors", net=fresh, format="safetensors") is not None,
      fresh.a.asnumpy().tolist() == net.a.asnumpy().tolist(), fresh.e.astype(ms.float32).asnumpy().tolist())

for bad in [lambda: ms.save_checkpoint(net, "x", format="safetensors", enc_key=b"0123456789abcdef"),
            lambda: ms.save_checkpoint({"n": ms.Parameter(ms.Tensor(np.array(-1, np.int32)), name="n")}, "neg",
                                       format="safetensors", crc_check=True),
            lambda: ms.load_checkpoint("net.safetensors", format="ckpt"),
            lambda: ms.load_checkpoint("nothere.safetensors", format="safetensors"),
            lambda: ms.load_checkpoint("net.safetensors", format="safetensors", dec_key=b"0123456789abcdef"),
            lambda: ms.load_checkpoint("net.safetensors", format="safetensors", choice_func=lambda n: False)]:
    try:
        bad()
        print("no error")
    except Exception as e:  # pylint: disable=broad-except
        print(type(e).__name__, str(e).replace(work, "<work>"))
