# The distributed-checkpoint tools around transform_checkpoints: merge_pipeline_strategys joins the
# strategy files of a pipeline's stages (protobuf and JSON), transform_checkpoints moves a 2-stage
# pipeline's checkpoints to 4 devices without stages and back, load_distributed_checkpoint loads a
# training run's per-rank checkpoints into a network whole, load_segmented_checkpoints loads a
# directory; with MindSpore's errors. Strategy files are written here in MindSpore's formats.
import functools
import hashlib
import json
import os
import shutil
import tempfile

import numpy as np
import mindspore as ms
from mindspore import nn, Parameter, Tensor
from _strategy_files import cut, write_json_strategy, write_strategy
from _strategy_files import error as error_text


def show_strategy(path):
    strategy = ms.build_searched_strategy(path)
    for name in sorted(strategy):
        layout = strategy[name]
        print("  ", name, list(layout.dev_matrix[0].dim), list(layout.tensor_map[0].dim),
              layout.opt_weight_shard_step, layout.opt_weight_shard_size)


root = tempfile.mkdtemp()
error = functools.partial(error_text, root=root)
full = {"embed": np.arange(8 * 12, dtype=np.float32).reshape(8, 12) / 5,
        "head.w": (np.arange(12 * 16, dtype=np.float32).reshape(12, 16) - 50) / 9,
        "head.b": (np.arange(16, dtype=np.float16) - 3) / 4}
stage_of = {"embed": 0, "head.w": 1, "head.b": 1}
# Two stages of 2 devices: stage 0 holds the embedding, stage 1 the head.
pipeline = {"embed": ([2], [0, -1], 0, 0), "head.w": ([2, 1], [-1, 1], 0, 0), "head.b": ([2], [-1], 0, 0)}

# ---- merge_pipeline_strategys
pdir = os.path.join(root, "pipe")
os.makedirs(pdir)
for rank in range(4):
    stage = rank // 2
    layouts = {n: l for n, l in pipeline.items() if stage_of[n] == stage}
    strategies = {"MatMul-op%d" % stage: [[2, 1], [1, 1]], "Add-op%d" % stage: [[1], [1]]}
    write_strategy(os.path.join(pdir, "strategy_%d.ckpt" % rank), layouts, stage, strategies)
merged = os.path.join(root, "merged.ckpt")
print("merge:", ms.merge_pipeline_strategys(pdir, merged))
show_strategy(merged)
jdir = os.path.join(root, "pipe_json")
os.makedirs(jdir)
for stage in range(2):
    layouts = {n: l for n, l in pipeline.items() if stage_of[n] == stage}
    write_json_strategy(os.path.join(jdir, "strategy_%d.json" % stage), stage, {"MatMul-op%d" % stage: [[2, 1]]},
                        layouts)
merged_json = os.path.join(root, "merged.json")
ms.parallel.merge_pipeline_strategys(jdir, merged_json)
with open(merged_json) as f:
    content = json.load(f)
print("json current_stage", content["current_stage"], "strategies", sorted(content["parallel_strategy_item"]),
      "layouts", sorted(content["parallel_layout_item"]))
show_strategy(merged_json)
mixed = os.path.join(root, "mixed")
shutil.copytree(pdir, mixed)
shutil.copy(os.path.join(jdir, "strategy_0.json"), mixed)
print(error(lambda: ms.merge_pipeline_strategys(mixed, os.path.join(root, "m2.ckpt"))))
print(error(lambda: ms.merge_pipeline_strategys(os.path.join(root, "nothing"), os.path.join(root, "m3.ckpt"))))
empty = os.path.join(root, "empty_stage")
os.makedirs(empty)
write_strategy(os.path.join(empty, "s.ckpt"), {"embed": pipeline["embed"]})
print(error(lambda: ms.merge_pipeline_strategys(empty, os.path.join(root, "m4.ckpt"))))

# ---- transform_checkpoints: the 2-stage pipeline to 4 devices, and back
src_dir = os.path.join(root, "src")
for rank in range(4):
    stage, local = divmod(rank, 2)
    os.makedirs(os.path.join(src_dir, "rank_%d" % rank))
    items = [{"name": n, "data": Tensor(cut(v, pipeline[n], local))} for n, v in full.items() if stage_of[n] == stage]
    ms.save_checkpoint(items, os.path.join(src_dir, "rank_%d" % rank, "net_%d.ckpt" % rank))
flat = {"embed": ([2, 2], [-1, 0], 0, 0), "head.w": ([2, 2], [1, 0], 0, 0), "head.b": ([4], [0], 0, 0)}
flat_file = os.path.join(root, "flat.ckpt")
write_strategy(flat_file, flat, 0, {"MatMul-op": [[2, 2], [2, 1]]})
print("ranks for rank 3:", ms.rank_list_for_transform(3, merged, flat_file))
ms.transform_checkpoints(src_dir, os.path.join(root, "flat_out"), "flat_", merged, flat_file)
for rank in range(4):
    got = ms.load_checkpoint(os.path.join(root, "flat_out", "rank_%d" % rank, "flat_%d.ckpt" % rank))
    exact = all(np.array_equal(got[n].asnumpy(), cut(v, flat[n], rank)) and got[n].asnumpy().dtype == v.dtype
                for n, v in full.items())
    print("flat rank", rank, sorted(got), "exact" if exact else "DIFFERENT")
ms.transform_checkpoints(os.path.join(root, "flat_out"), os.path.join(root, "back"), "back_", flat_file, merged)
for rank in range(4):
    stage, local = divmod(rank, 2)
    got = ms.load_checkpoint(os.path.join(root, "back", "rank_%d" % rank, "back_%d.ckpt" % rank))
    exact = all(np.array_equal(got[n].asnumpy(), cut(full[n], pipeline[n], local)) for n in got)
    print("back rank", rank, sorted(got), "exact" if exact else "DIFFERENT")


# ---- load_distributed_checkpoint: 4 ranks' checkpoints into one whole network
class Head(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.zeros((12, 16), np.float32)), name="head.w")
        self.b = Parameter(Tensor(np.zeros((16,), np.float16)), name="head.b")
        self.extra = Parameter(Tensor(np.ones((3,), np.float32)), name="extra")

    def construct(self, x):
        return x


files = [os.path.join(root, "flat_out", "rank_%d" % r, "flat_%d.ckpt" % r) for r in range(4)]
net = Head()
print("load_distributed_checkpoint:", ms.load_distributed_checkpoint(net, files, None, flat_file))
print("  whole w:", np.array_equal(net.w.asnumpy(), full["head.w"]), "b:", np.array_equal(net.b.asnumpy(),
                                                                                            full["head.b"]),
      "extra untouched:", net.extra.asnumpy().tolist())
net2 = Head()
print("train form returns:", ms.train.load_distributed_checkpoint(net2, files, None, flat_file),
      np.array_equal(net2.w.asnumpy(), full["head.w"]))
print(error(lambda: ms.load_distributed_checkpoint(Head(), files[:3], None, flat_file)))
print(error(lambda: ms.load_distributed_checkpoint(Head(), files + [os.path.join(root, "no.ckpt")], None,
                                                   flat_file)))
print(error(lambda: ms.load_distributed_checkpoint(Head(), files, {"head.w": [[4], [0]]}, flat_file)))
print(error(lambda: ms.load_distributed_checkpoint(Head(), files, None, flat_file, format="h5")))
print(error(lambda: ms.load_distributed_checkpoint(Head(), files, None, flat_file, format="safetensors")))
print(error(lambda: ms.load_distributed_checkpoint("net", files, None, flat_file)))
print(error(lambda: ms.load_distributed_checkpoint(Head(), files)))

# ---- load_segmented_checkpoints
seg = os.path.join(root, "segments")
os.makedirs(seg)
ms.save_checkpoint([{"name": "a", "data": Tensor(np.array([1.0, 2.0], np.float32))}], os.path.join(seg, "p1.ckpt"))
ms.save_checkpoint([{"name": "b", "data": Tensor(np.array([3], np.int32))}], os.path.join(seg, "p2.ckpt"))
loaded = ms.load_segmented_checkpoints(seg)
print("segments:", sorted(loaded), loaded["a"].asnumpy().tolist(), loaded["b"].asnumpy().tolist())
print(error(lambda: ms.load_segmented_checkpoints(os.path.join(root, "none"))))
print(error(lambda: ms.load_segmented_checkpoints(3)))
digest = hashlib.sha1()
for rank in range(4):
    with open(os.path.join(root, "back", "rank_%d" % rank, "back_%d.ckpt" % rank), "rb") as f:
        digest.update(f.read())
print("back files digest", digest.hexdigest()[:16])
shutil.rmtree(root)
