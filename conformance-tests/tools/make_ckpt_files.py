"""Writes the .ckpt files the ckpt_* conformance cases read, with whichever MindSpore runs it.

Usage (from the repository root):
    ~/.cache/msjvm-goldens/venv/bin/python conformance-tests/tools/make_ckpt_files.py mindspore
    MSJVM_JIT=0 bin/mspython conformance-tests/tools/make_ckpt_files.py msjvm

writes conformance-tests/src/test/resources/cases/ckpt_data/<who>_dense.ckpt (a two-layer Dense net
with fixed values, plus append_dict entries) and <who>_dtypes.ckpt (one tensor of each dtype, from a
list of {"name", "data"} dicts) and <who>_crc.ckpt (fc2 saved with crc_check=True). Every value is fixed by a formula, so both writers save the same
numbers; ckpt_read_mindspore_file / ckpt_read_msjvm_file load them and print the values.
"""
import os
import sys

import mindspore as ms
from mindspore import Tensor

CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "test", "resources", "cases")
OUT = os.path.join(CASES, "ckpt_data")
sys.path.insert(0, CASES)
from ckpt_data.show import Mlp  # noqa: E402  pylint: disable=wrong-import-position  (the cases' network)


def fixed(shape, scale, offset):
    n = 1
    for d in shape:
        n *= d
    flat = [round((i * scale + offset) % 1.0 - 0.5, 4) for i in range(n)]
    rows = flat
    for d in reversed(shape[1:]):
        rows = [rows[i:i + d] for i in range(0, len(rows), d)]
    return rows


def main(who):
    net = Mlp()
    net.fc1.weight.set_data(Tensor(fixed([3, 4], 0.37, 0.11), ms.float32))
    net.fc1.bias.set_data(Tensor(fixed([3], 0.29, 0.05), ms.float32))
    net.fc2.weight.set_data(Tensor(fixed([2, 3], 0.43, 0.21), ms.float32))
    net.fc2.bias.set_data(Tensor(fixed([2], 0.31, 0.17), ms.float32))
    ms.save_checkpoint(net, os.path.join(OUT, f"{who}_dense.ckpt"),
                       append_dict={"epoch_num": 7, "step_num": 70, "learning_rate": 0.125, "is_last": False,
                                    "writer": who, "momentum": Tensor([0.9, 0.99], ms.float32)})
    values = fixed([2, 3], 0.41, 0.07)
    items = [{"name": "t." + str(t).lower(), "data": Tensor(values, t)}
             for t in (ms.float16, ms.bfloat16, ms.float32, ms.float64)]
    ints = [[1, -2, 3], [-4, 5, 127]]
    items += [{"name": "t." + str(t).lower(), "data": Tensor(ints, t)} for t in (ms.int8, ms.int16, ms.int32, ms.int64)]
    items.append({"name": "t.uint8", "data": Tensor([[1, 2, 3], [4, 5, 255]], ms.uint8)})
    items.append({"name": "t.bool", "data": Tensor([[True, False, True], [False, False, True]], ms.bool_)})
    items.append({"name": "t.scalar", "data": Tensor(2.5, ms.float32)})
    items.append({"name": "t.row", "data": Tensor([[1.5, 2.5, 3.5]], ms.float32)})
    ms.save_checkpoint(items, os.path.join(OUT, f"{who}_dtypes.ckpt"))
    ms.save_checkpoint(net, os.path.join(OUT, f"{who}_crc.ckpt"), crc_check=True, choice_func=lambda n: "fc2" in n)


if __name__ == "__main__":
    main(sys.argv[1])
