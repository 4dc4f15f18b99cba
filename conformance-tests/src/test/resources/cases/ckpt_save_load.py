# save_checkpoint / load_checkpoint / load_param_into_net on this product's own files: save_obj kinds,
# append_dict, choice_func, filter_prefix / specify_prefix, strict_load, name prefixes, type and shape
# mismatches, and the argument errors. Files go to the working directory.
import os

import mindspore as ms
from mindspore import Parameter, Tensor, nn
from _case_util import attempt

CWD = os.path.realpath(os.getcwd())


class Mlp(nn.Cell):
    def __init__(self, dtype=ms.float32):
        super().__init__()
        self.fc1 = nn.Dense(4, 3, dtype=dtype) if dtype != ms.float32 else nn.Dense(4, 3)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(3, 2)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def values(shape, k):
    n = 1
    for d in shape:
        n *= d
    flat = [round((i * 0.37 + k) % 1.0 - 0.5, 4) for i in range(n)]
    return [flat[i:i + shape[1]] for i in range(0, n, shape[1])] if len(shape) == 2 else flat


def fill(net, k):
    for i, p in enumerate(net.get_parameters()):
        p.set_data(Tensor(values(list(p.shape), k + 0.1 * i), p.dtype))
    return net


def show(label, fn):
    """Like attempt, but with the working directory shown as <cwd> in messages (first line only)."""
    try:
        r = fn()
        print(f"{label} -> ok" + ("" if r is None else f" {r!r}"))
    except Exception as e:  # pylint: disable=broad-except
        print(f"{label} -> {type(e).__name__}: {str(e).strip().splitlines()[0].replace(CWD, '<cwd>')}")


def keys(name, **kw):
    return list(ms.load_checkpoint(name, **kw).keys())


def ckpts():
    return sorted(f for f in os.listdir(".") if f.endswith(".ckpt") or f.endswith(".tmp"))


net = fill(Mlp(), 0.11)
ms.save_checkpoint(net, "net")
ms.save_checkpoint(net, "net.ckpt", append_dict={"epoch": 3, "lr": 0.5, "ok": True, "note": "run 1",
                                                 "extra": Tensor([1, 2], ms.int32)})
print("files", ckpts())
loaded = ms.load_checkpoint("net.ckpt")
for k, v in loaded.items():
    print(k, repr(v) if isinstance(v, str) else (str(v.dtype), v.shape, v.tolist() if v.ndim < 2 else "..."))
print("same fc1.weight", loaded["fc1.weight"].tolist() == net.fc1.weight.tolist())

# save_obj kinds
ms.save_checkpoint(net, "fc1_only.ckpt", choice_func=lambda name: name.startswith("fc1"))
print("choice_func save", keys("fc1_only.ckpt"))
ms.save_checkpoint([{"name": "a", "data": Tensor([1.5], ms.float16)}, {"name": "b", "data": net.fc2.bias}],
                   "dicts.ckpt")
print("list of dicts", {k: (str(v.dtype), v.tolist()) for k, v in ms.load_checkpoint("dicts.ckpt").items()})
ms.save_checkpoint([net.fc2.weight, net.fc2.bias], "params.ckpt", choice_func=lambda name: "bias" in name)
print("list of parameters", keys("params.ckpt"))
ms.save_checkpoint({"w": net.fc1.weight, "text": "hello"}, "mapping.ckpt")
print("dict", {k: v if isinstance(v, str) else v.shape for k, v in ms.load_checkpoint("mapping.ckpt").items()})
ms.save_checkpoint([], "empty.ckpt")
print("empty list saved", ckpts())
show("load empty", lambda: keys("empty.ckpt"))

# load_checkpoint filters
print("filter fc1", keys("net.ckpt", filter_prefix="fc1"))
print("specify fc2.w + fc1.b", keys("net.ckpt", specify_prefix=["fc2.w", "fc1.b"]))
print("specify fc with filter fc2", keys("net.ckpt", specify_prefix=("fc",), filter_prefix="fc2"))
print("choice_func", keys("net.ckpt", choice_func=lambda n: n.endswith("bias")))
print("prefix beats choice_func", keys("net.ckpt", filter_prefix="e", choice_func=lambda n: n == "lr"))
show("filter everything", lambda: keys("net.ckpt", specify_prefix="zzz"))

# load_param_into_net
target = fill(Mlp(), 0.6)
print("into net", ms.load_param_into_net(target, loaded))
print("target fc2.bias", target.fc2.bias.tolist() == net.fc2.bias.tolist())
partial = ms.load_checkpoint("net.ckpt", filter_prefix="fc2")
print("partial", ms.load_param_into_net(fill(Mlp(), 0.6), partial))
print("partial strict", ms.load_param_into_net(fill(Mlp(), 0.6), partial, strict_load=True))
renamed = [{"name": "backbone." + k, "data": v} for k, v in loaded.items() if not isinstance(v, str)]
ms.save_checkpoint(renamed, "renamed.ckpt")
by_prefix = fill(Mlp(), 0.6)
print("prefix", ms.load_param_into_net(by_prefix, ms.load_checkpoint("renamed.ckpt")))
print("prefix loaded", by_prefix.fc1.weight.tolist() == net.fc1.weight.tolist())
print("prefix strict", ms.load_param_into_net(fill(Mlp(), 0.6), ms.load_checkpoint("renamed.ckpt"),
                                              strict_load=True))
half = {"fc1.weight": Parameter(Tensor(values([3, 4], 0.2), ms.float16), name="fc1.weight")}
converted = fill(Mlp(), 0.6)
print("float16 into float32", ms.load_param_into_net(converted, half)[0])
print("converted", str(converted.fc1.weight.dtype), converted.fc1.weight.tolist()[0])
show("float16 strict", lambda: ms.load_param_into_net(fill(Mlp(), 0.6), half, strict_load=True))
ints = {"fc2.bias": Parameter(Tensor([1, 2], ms.int32), name="fc2.bias")}
show("int32 into float32", lambda: ms.load_param_into_net(fill(Mlp(), 0.6), ints))
wide = {"fc2.bias": Parameter(Tensor([1.0, 2.0, 3.0], ms.float32), name="fc2.bias")}
show("shape mismatch", lambda: ms.load_param_into_net(fill(Mlp(), 0.6), wide))
fresh = fill(Mlp(), 0.6)
print("load with net", sorted(ms.load_checkpoint("net.ckpt", net=fresh, filter_prefix="fc1").keys()),
      fresh.fc2.bias.tolist() == net.fc2.bias.tolist(), fresh.fc1.bias.tolist() == net.fc1.bias.tolist())

# CRC trailer
ms.save_checkpoint(net, "crc.ckpt", crc_check=True, choice_func=lambda n: n == "fc2.bias")
print("crc", keys("crc.ckpt", crc_check=True), keys("crc.ckpt"))
with open("crc.ckpt", "rb") as f:
    damaged = bytearray(f.read())
damaged[-18] ^= 0x40
with open("damaged.ckpt", "wb") as f:
    f.write(bytes(damaged))
print("damaged unchecked", ms.load_checkpoint("damaged.ckpt")["fc2.bias"].tolist() != net.fc2.bias.tolist())
show("damaged checked", lambda: keys("damaged.ckpt", crc_check=True))
print("no crc, checked", keys("fc1_only.ckpt", crc_check=True))

# overwriting a saved (read-only) file
ms.save_checkpoint({"w": Parameter(Tensor([7.0]), name="w")}, "net.ckpt")
print("overwritten", keys("net.ckpt"), ckpts())

# errors
os.mkdir("a_dir")
with open("junk.ckpt", "wb") as f:
    f.write(b"\x0a\x50this is not a checkpoint")
show("missing file", lambda: ms.load_checkpoint("missing.ckpt"))
show("corrupt file", lambda: ms.load_checkpoint("junk.ckpt"))
show("name not str", lambda: ms.load_checkpoint(123))
show("wrong suffix", lambda: ms.load_checkpoint("net.txt"))
show("bad format", lambda: ms.load_checkpoint("net.ckpt", format="bin"))
show("filter_prefix int", lambda: ms.load_checkpoint("net.ckpt", filter_prefix=1))
show("filter_prefix []", lambda: ms.load_checkpoint("net.ckpt", filter_prefix=[]))
show("filter_prefix ['']", lambda: ms.load_checkpoint("net.ckpt", filter_prefix=[""]))
show("specify_prefix [1]", lambda: ms.load_checkpoint("net.ckpt", specify_prefix=["w", 1]))
show("dec_key str", lambda: ms.load_checkpoint("net.ckpt", dec_key="k"))
show("dec_mode int", lambda: ms.load_checkpoint("net.ckpt", dec_mode=1))
show("crc_check str", lambda: ms.load_checkpoint("net.ckpt", crc_check="no"))
show("remove_redundancy int", lambda: ms.load_checkpoint("net.ckpt", remove_redundancy=1))
show("strict_load str", lambda: ms.load_checkpoint("net.ckpt", net=Mlp(), strict_load="yes"))
show("save int", lambda: ms.save_checkpoint(5, "x.ckpt"))
show("save name int", lambda: ms.save_checkpoint(net, 5))
show("save into dir", lambda: ms.save_checkpoint(net, "a_dir"))
show("save bad format", lambda: ms.save_checkpoint(net, "x.ckpt", format="bin"))
show("integrated_save int", lambda: ms.save_checkpoint(net, "x.ckpt", integrated_save=1))
show("async_save int", lambda: ms.save_checkpoint(net, "x.ckpt", async_save=1))
show("async_save fork", lambda: ms.save_checkpoint(net, "x.ckpt", async_save="fork"))
show("append_dict list", lambda: ms.save_checkpoint(net, "x.ckpt", append_dict=[1]))
show("append_dict None value", lambda: ms.save_checkpoint(net, "x.ckpt", append_dict={"a": None}))
show("append_dict int key", lambda: ms.save_checkpoint(net, "x.ckpt", append_dict={1: 2}))
show("enc_key str", lambda: ms.save_checkpoint(net, "x.ckpt", enc_key="k"))
show("enc_mode int", lambda: ms.save_checkpoint(net, "x.ckpt", enc_mode=1))
show("crc_check int", lambda: ms.save_checkpoint(net, "x.ckpt", crc_check=1))
show("list of ints", lambda: ms.save_checkpoint([1, 2], "x.ckpt"))
show("list of dicts without data", lambda: ms.save_checkpoint([{"name": "a"}], "x.ckpt"))
show("list of dicts int name", lambda: ms.save_checkpoint([{"name": 1, "data": Tensor([1])}], "x.ckpt"))
show("list of dicts int data", lambda: ms.save_checkpoint([{"name": "a", "data": 1}], "x.ckpt"))
show("dict int key", lambda: ms.save_checkpoint({1: "text"}, "x.ckpt"))
show("safetensors with enc_key", lambda: ms.save_checkpoint(net, "x.ckpt", enc_key=b"0123456789abcdef",
                                                            format="safetensors"))
show("into_net not a cell", lambda: ms.load_param_into_net(1, {}))
show("into_net list", lambda: ms.load_param_into_net(net, []))
show("into_net int value", lambda: ms.load_param_into_net(net, {"a": 1}))
show("into_net strict_load str", lambda: ms.load_param_into_net(net, {}, strict_load="yes"))
show("into_net remove_redundancy int", lambda: ms.load_param_into_net(net, {}, remove_redundancy=1))
print("files at the end", ckpts())
