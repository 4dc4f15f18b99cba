# ms.transform_checkpoints between random pairs of strategies (device counts 1-8, device matrices of
# 1-3 axes, any tensor maps, optimizer sharding): every destination slice must equal the slice of the
# whole tensor, byte for byte. Strategy files are written here in MindSpore's protobuf wire format.
import hashlib
import os
import random
import shutil
import tempfile

import numpy as np
import mindspore as ms


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


def write_strategy(path, layouts):
    body = field(1, 0, 0)
    for name, (dm, tm, step, size) in layouts.items():
        pl = (field(1, 2, dims(dm)) + field(2, 2, dims(tm)) + field(3, 2, b"") + field(4, 2, b"")
              + field(5, 0, 0) + field(6, 0, step) + field(7, 0, size))
        body += field(3, 2, field(1, 2, name.encode()) + field(2, 2, pl))
    with open(path, "wb") as f:
        f.write(body)


def factor(n, axes):
    out = [1] * axes
    for _ in range(int(np.log2(n))):
        out[rnd.randrange(axes)] *= 2
    return out


def random_layout(devices, ndim):
    axes = rnd.randint(1, 3)
    dm = factor(devices, axes)
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


def box(shape, layout, rank):
    dm, tm, step, size = layout
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


rnd = random.Random(2026)
root = tempfile.mkdtemp()
full = {"w": np.arange(16 * 24, dtype=np.float32).reshape(16, 24) / 7,
        "b": (np.arange(16, dtype=np.float16) - 3) / 2}
pairs = 50
exact = 0
for p in range(pairs):
    src_dev, dst_dev = rnd.choice([1, 2, 4, 8]), rnd.choice([1, 2, 4, 8])
    src = {name: random_layout(src_dev, v.ndim) for name, v in full.items()}
    dst = {name: random_layout(dst_dev, v.ndim) for name, v in full.items()}
    work = os.path.join(root, "p%d" % p)
    os.makedirs(work)
    write_strategy(os.path.join(work, "src.ckpt"), src)
    write_strategy(os.path.join(work, "dst.ckpt"), dst)
    for r in range(src_dev):
        os.makedirs(os.path.join(work, "in", "rank_%d" % r))
        items = [{"name": n, "data": ms.Tensor(cut(v, src[n], r))} for n, v in full.items()]
        items.append({"name": "global_step", "data": ms.Tensor(np.array([100 + r], np.int32))})
        ms.save_checkpoint(items, os.path.join(work, "in", "rank_%d" % r, "net_%d.ckpt" % r))
    ms.transform_checkpoints(os.path.join(work, "in"), os.path.join(work, "out"), "dst_",
                             os.path.join(work, "src.ckpt"), os.path.join(work, "dst.ckpt"))
    digest = hashlib.sha1()
    ok = True
    for r in range(dst_dev):
        got = ms.load_checkpoint(os.path.join(work, "out", "rank_%d" % r, "dst_%d.ckpt" % r))
        for n, v in full.items():
            a = got[n].asnumpy()
            ok &= a.dtype == v.dtype and np.array_equal(a, cut(v, dst[n], r))
            digest.update(n.encode() + str(a.shape).encode() + a.tobytes())
        digest.update(str(got["global_step"].asnumpy().tolist()).encode())
        digest.update(",".join(got.keys()).encode())
    exact += ok
    print(p, src_dev, "->", dst_dev, "w", src["w"], "->", dst["w"], "b", src["b"], "->", dst["b"],
          "exact" if ok else "DIFFERENT", digest.hexdigest()[:16])
print("exact", exact, "of", pairs)

# One destination rank at a time, from the files rank_list_for_transform names.
work = os.path.join(root, "p0")
src_file, dst_file = os.path.join(work, "src.ckpt"), os.path.join(work, "dst.ckpt")
ranks = ms.rank_list_for_transform(0, src_file, dst_file)
files = {r: os.path.join(work, "in", "rank_%d" % r, "net_%d.ckpt" % r) for r in ranks}
one = os.path.join(root, "one_rank0.ckpt")
ms.transform_checkpoint_by_rank(0, files, one, src_file, dst_file)
a = ms.load_checkpoint(one)
b = ms.load_checkpoint(os.path.join(work, "out", "rank_0", "dst_0.ckpt"))
print("by rank equals transform_checkpoints:", list(a) == list(b) and all(
    np.array_equal(a[k].asnumpy(), b[k].asnumpy()) for k in a))
print("no src strategy:", ms.rank_list_for_transform(3, None, dst_file))


def error(call):
    try:
        call()
    except Exception as e:  # pylint: disable=broad-except
        return "%s: %s" % (type(e).__name__, e)
    return "no error"


print(error(lambda: ms.rank_list_for_transform("0", src_file, dst_file)))
print(error(lambda: ms.transform_checkpoint_by_rank(0, [], one, src_file, dst_file)))
print(error(lambda: ms.transform_checkpoint_by_rank(0, files, os.path.join(root, "x.bin"), src_file,
                                                    dst_file)).replace(root, "ROOT"))
print(error(lambda: ms.transform_checkpoint_by_rank(0, {0: os.path.join(root, "none.ckpt")}, one, src_file,
                                                    dst_file)).replace(root, "ROOT"))
print(error(lambda: ms.transform_checkpoints(os.path.join(root, "empty"), os.path.join(root, "o"), "x_", src_file,
                                             dst_file)))
print(error(lambda: ms.transform_checkpoints(os.path.join(work, "in"), os.path.join(root, "o2"), "a..b", src_file,
                                             dst_file)))
print(error(lambda: ms.transform_checkpoints(os.path.join(work, "in"), os.path.join(root, "o3"), "x_", src_file,
                                             dst_file, output_format="safetensors")))
shutil.rmtree(root)
