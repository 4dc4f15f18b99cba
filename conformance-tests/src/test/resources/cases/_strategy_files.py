"""Shared by the checkpoint-transform cases: strategy files written in MindSpore's formats (the
protobuf wire format of node_strategy.proto, and its JSON variant), random layouts and strategy
pairs, the slice of a whole tensor a rank holds under a layout (dev_matrix, tensor_map,
opt_weight_shard_step, opt_weight_shard_size), and the error a call raises as one line."""
import json

import numpy as np


def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def field(number, wire, payload):
    if wire == 0:
        return varint(number << 3) + varint(payload)
    return varint((number << 3) | 2) + varint(len(payload)) + payload


def dims(values):
    return b"".join(field(1, 0, v) for v in values)


def write_strategy(path, layouts, stage=0, strategies=None):
    """A protobuf strategy file: current_stage 1 with operator strategies, else 0 without; the
    strategies {name: [[dims] per input]} of ``stage`` and the layouts {name: (dm, tm, step, size)}."""
    body = field(1, 0, 1 if strategies else 0)
    for name, inputs in (strategies or {}).items():
        ps = field(1, 0, stage) + b"".join(field(2, 2, dims(i)) for i in inputs)
        body += field(2, 2, field(1, 2, name.encode()) + field(2, 2, ps))
    for name, (dm, tm, step, size) in layouts.items():
        pl = (field(1, 2, dims(dm)) + field(2, 2, dims(tm)) + field(3, 2, b"") + field(4, 2, b"")
              + field(5, 0, 0) + field(6, 0, step) + field(7, 0, size))
        body += field(3, 2, field(1, 2, name.encode()) + field(2, 2, pl))
    with open(path, "wb") as f:
        f.write(body)


def write_json_strategy(path, stage, strategies, layouts):
    content = {"current_stage": 1,
               "parallel_strategy_item": {n: {"stage": stage, "parallel_strategy": s} for n, s in strategies.items()},
               "parallel_layout_item": {n: {"dev_matrix": dm, "tensor_map": tm, "tensor_shape": [], "field": 0,
                                            "opt_weight_shard_step": step, "opt_weight_shard_size": size}
                                        for n, (dm, tm, step, size) in layouts.items()}}
    with open(path, "w") as f:
        json.dump(content, f)


def factor(rnd, n, axes):
    out = [1] * axes
    for _ in range(int(np.log2(n))):
        out[rnd.randrange(axes)] *= 2
    return out


def random_layout(rnd, devices, ndim):
    """A layout over ``devices`` devices: 1-3 device axes, each tensor dimension split by a distinct
    axis (70%) or not, optimizer sharding (half the time) where exactly one axis repeats the data."""
    axes = rnd.randint(1, 3)
    dm = factor(rnd, devices, axes)
    free = list(range(axes))
    rnd.shuffle(free)
    tm = [free.pop() if free and rnd.random() < 0.7 else -1 for _ in range(ndim)]
    step = size = 0
    used = {axes - 1 - t for t in tm if t != -1}
    repeated = [d for d in range(axes) if d not in used and dm[d] > 1]
    natural = [t for t in tm if t != -1] == sorted([t for t in tm if t != -1], reverse=True)
    if len(repeated) == 1 and natural and rnd.random() < 0.5:
        step = int(np.prod(dm[repeated[0] + 1:]))
        size = -1
    return dm, tm, step, size


def random_pair(rnd, full):
    """(source devices, destination devices, source layouts, destination layouts) for the tensors
    of ``full``, each side on 1, 2, 4 or 8 devices."""
    src_dev, dst_dev = rnd.choice([1, 2, 4, 8]), rnd.choice([1, 2, 4, 8])
    src = {name: random_layout(rnd, src_dev, v.ndim) for name, v in full.items()}
    dst = {name: random_layout(rnd, dst_dev, v.ndim) for name, v in full.items()}
    return src_dev, dst_dev, src, dst


def error(call, root=None):
    """``Type: message`` of what ``call()`` raises (``root`` shown as ROOT), or "no error"."""
    try:
        call()
    except Exception as e:  # pylint: disable=broad-except
        text = "%s: %s" % (type(e).__name__, e)
        return text.replace(root, "ROOT") if root else text
    return "no error"


def box(shape, layout, rank):
    """[(begin, end)] per dimension of ``rank``'s slice of a tensor of ``shape``."""
    dm, tm, step, _ = layout
    n = len(dm)
    coord = [0] * n
    r = rank
    for k in range(n - 1, -1, -1):
        coord[k] = r % dm[k]
        r //= dm[k]
    out = []
    for s, t in zip(shape, tm):
        parts = 1 if t == -1 else dm[n - 1 - t]
        index = 0 if t == -1 else coord[n - 1 - t]
        out.append((index * s // parts, (index + 1) * s // parts))
    if step:
        used = {n - 1 - t for t in tm if t != -1}
        d = [k for k in range(n) if k not in used and dm[k] > 1][0]
        b, e = out[0]
        piece = (e - b) // dm[d]
        out[0] = (b + coord[d] * piece, b + (coord[d] + 1) * piece)
    return out


def cut(full, layout, rank):
    return full[tuple(slice(b, e) for b, e in box(full.shape, layout, rank))]
