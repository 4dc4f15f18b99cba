"""Shared by ckpt_read_mindspore_file and ckpt_read_msjvm_file: loads the two files one writer
made (tools/make_ckpt_files.py) and prints what is in them, then uses them in a network."""
import os

import mindspore as ms
from mindspore import Tensor, nn

HERE = os.path.dirname(os.path.abspath(__file__))


class Mlp(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 3)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(3, 2)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def rounded(values):
    if isinstance(values, list):
        return [rounded(v) for v in values]
    return float(f"{values:.5g}") if isinstance(values, float) else values


def describe(name, value):
    if isinstance(value, str):
        return f"{name}: str {value!r}"
    data = value.astype(ms.float32) if value.dtype in (ms.float16, ms.bfloat16, ms.float64) else value
    return (f"{name}: {type(value).__name__} {value.name} {value.dtype} {value.shape} "
            f"{rounded(data.tolist())}")


def show_file(who):
    dense = os.path.join(HERE, f"{who}_dense.ckpt")
    params = ms.load_checkpoint(dense)
    print("dense keys", list(params.keys()))
    for name, value in params.items():
        print(describe(name, value))
    net = Mlp()
    print("not loaded", ms.load_param_into_net(net, params))
    x = Tensor([[1.0, -2.0, 0.5, 3.0], [0.25, 0.5, -1.0, 2.0]], ms.float32)
    print("forward", rounded(net(x).tolist()))
    fresh = Mlp()
    ms.load_checkpoint(dense, net=fresh, specify_prefix="fc2")
    print("fc2 only", rounded(fresh.fc2.bias.tolist()), rounded(fresh.fc1.bias.tolist()) == rounded(
        params["fc1.bias"].tolist()))
    for name, value in ms.load_checkpoint(os.path.join(HERE, f"{who}_dtypes.ckpt")).items():
        print(describe(name, value))
    for name, value in ms.load_checkpoint(os.path.join(HERE, f"{who}_crc.ckpt"), crc_check=True).items():
        print("crc checked", describe(name, value))
