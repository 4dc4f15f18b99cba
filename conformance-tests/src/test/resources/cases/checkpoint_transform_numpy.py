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
from _strategy_files import cut, error, random_pair, write_strategy


rnd = random.Random(2026)
root = tempfile.mkdtemp()
full = {"w": np.arange(16 * 24, dtype=np.float32).reshape(16, 24) / 7,
        "b": (np.arange(16, dtype=np.float16) - 3) / 2}
pairs = 50
exact = 0
for p in range(pairs):
    src_dev, dst_dev, src, dst = random_pair(rnd, full)
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
