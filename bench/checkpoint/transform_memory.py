"""How much memory transform_checkpoints needs: 8 source ranks holding row slices of one float32
weight, 8 destination ranks holding its column slices, so every destination slice takes a piece of
every source file. The three steps run in separate processes so that the transform's heap can be
bounded on its own (making the source files and checking the result need more):

    MSJVM_HEAP=2g   bin/mspython bench/checkpoint/transform_memory.py prepare DIR [MiB per slice, default 64]
    MSJVM_HEAP=256m bin/mspython bench/checkpoint/transform_memory.py transform DIR
    MSJVM_HEAP=1g   bin/mspython bench/checkpoint/transform_memory.py check DIR

`prepare` writes the 8 source files and the two strategy files (MindSpore's protobuf format, the
conformance cases' _strategy_files) and prints the slice size and the bytes of the sources;
`transform` prints the seconds the transform took; `check` prints whether destination ranks 0 and 7
hold exactly their column slices. Run `transform` with MSJVM_HEAP at the smallest heap an empty run
needs plus twice the slice to check the tools' bound: a destination slice is assembled in place from
the overlap of each source file (CheckpointReader.readBoxInto) and written as it is made, so the
transform holds one slice and a read chunk."""
import os
import sys
import time

import mindspore as ms


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "conformance-tests", "src",
                                "test", "resources", "cases"))
from _strategy_files import write_strategy  # noqa: E402  pylint: disable=wrong-import-position

ROWS = 8 * 1024


def prepare(root, mib):
    import numpy as np  # pylint: disable=import-outside-toplevel
    cols = mib * 1024 * 1024 // 4 * 8 // ROWS  # 8 slices of `mib` MiB
    os.makedirs(root, exist_ok=True)
    write_strategy(os.path.join(root, "src.ckpt"), {"w": ([8, 1], [1, -1], 0, 0)})  # rows over 8
    write_strategy(os.path.join(root, "dst.ckpt"), {"w": ([8, 1], [-1, 1], 0, 0)})  # columns over 8
    step = ROWS // 8
    for r in range(8):
        os.makedirs(os.path.join(root, "in", "rank_%d" % r))
        block = (np.arange(step * cols, dtype=np.float32).reshape(step, cols) + r * step * cols)
        ms.save_checkpoint([{"name": "w", "data": ms.Tensor(block)}], os.path.join(root, "in", "rank_%d" % r, "w.ckpt"))
        del block
    source_bytes = sum(os.path.getsize(os.path.join(root, "in", "rank_%d" % r, "w.ckpt")) for r in range(8))
    print("slice %d MiB, source files %d MiB" % (mib, source_bytes >> 20))


def transform(root):
    start = time.time()
    ms.transform_checkpoints(os.path.join(root, "in"), os.path.join(root, "out"), "t_", os.path.join(root, "src.ckpt"),
                             os.path.join(root, "dst.ckpt"))
    print("transform %.1f s" % (time.time() - start))


def check(root):
    import numpy as np  # pylint: disable=import-outside-toplevel
    exact = True
    for r in (0, 7):
        got = ms.load_checkpoint(os.path.join(root, "out", "rank_%d" % r, "t_%d.ckpt" % r))["w"]
        width = got.shape[1]
        cols = width * 8
        exact &= tuple(got.shape) == (ROWS, width)
        for first in range(0, ROWS, 512):  # 512 rows at a time: the check holds one slice and a block
            block = got[first:first + 512].asnumpy()
            expect = (np.arange(first, first + 512, dtype=np.float64)[:, None] * cols
                      + np.arange(r * width, (r + 1) * width)[None, :])
            exact &= bool(np.array_equal(block, expect.astype(np.float32)))
        del got
    print("exact: %s" % exact)


if __name__ == "__main__":
    step_name, directory = sys.argv[1], sys.argv[2]
    if step_name == "prepare":
        prepare(directory, int(sys.argv[3]) if len(sys.argv) > 3 else 64)
    elif step_name == "transform":
        transform(directory)
    else:
        check(directory)
