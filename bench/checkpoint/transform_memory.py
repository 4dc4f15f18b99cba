"""How much memory transform_checkpoints needs: 8 source ranks holding row slices of one float32
weight, 8 destination ranks holding its column slices, so every destination slice takes a piece of
every source file. Run it under a small heap (MSJVM_HEAP) to see whether the transform holds a
parameter's slices or whole files:

    MSJVM_HEAP=1g bin/mspython bench/checkpoint/transform_memory.py [MiB per slice, default 64]

It prints the slice size, the bytes of the 8 source files, the seconds the transform took and
whether every destination slice is exact. Strategy files are written in MindSpore's protobuf format
(the conformance cases' _strategy_files)."""
import os
import shutil
import sys
import tempfile
import time

import numpy as np
import mindspore as ms


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "conformance-tests", "src",
                                "test", "resources", "cases"))
from _strategy_files import write_strategy  # noqa: E402  pylint: disable=wrong-import-position


mib = int(sys.argv[1]) if len(sys.argv) > 1 else 64
rows = 8 * 1024
cols = mib * 1024 * 1024 // 4 * 8 // rows  # 8 slices of `mib` MiB
root = tempfile.mkdtemp()
write_strategy(os.path.join(root, "src.ckpt"), {"w": ([8, 1], [1, -1], 0, 0)})  # rows over 8
write_strategy(os.path.join(root, "dst.ckpt"), {"w": ([8, 1], [-1, 1], 0, 0)})  # columns over 8
step = rows // 8
for r in range(8):
    os.makedirs(os.path.join(root, "in", "rank_%d" % r))
    block = (np.arange(step * cols, dtype=np.float32).reshape(step, cols) + r * step * cols)
    ms.save_checkpoint([{"name": "w", "data": ms.Tensor(block)}], os.path.join(root, "in", "rank_%d" % r, "w.ckpt"))
    del block
source_bytes = sum(os.path.getsize(os.path.join(root, "in", "rank_%d" % r, "w.ckpt")) for r in range(8))
start = time.time()
ms.transform_checkpoints(os.path.join(root, "in"), os.path.join(root, "out"), "t_", os.path.join(root, "src.ckpt"),
                         os.path.join(root, "dst.ckpt"))
seconds = time.time() - start
exact = True
width = cols // 8
for r in (0, 7):
    got = ms.load_checkpoint(os.path.join(root, "out", "rank_%d" % r, "t_%d.ckpt" % r))["w"].asnumpy()
    expect = (np.arange(rows, dtype=np.float64)[:, None] * cols + np.arange(r * width, (r + 1) * width)[None, :])
    exact &= got.shape == (rows, width) and np.array_equal(got, expect.astype(np.float32))
    del got, expect
print("slice %d MiB, source files %d MiB, transform %.1f s, exact: %s"
      % (mib, source_bytes >> 20, seconds, exact))
shutil.rmtree(root)
