# mindspore.parallel._parallel_serialization (MindSpore's private strategy-file and checkpoint
# helpers) and mindspore.train.node_strategy_pb2: strategy files written through the messages,
# read back, turned into list-form layouts, pipeline stages, rank lists, an in-memory checkpoint
# transform, group-info files and the helpers' checks, with MindSpore 2.10's results and texts.
import json
import os
import shutil
import tempfile

import numpy as np

import mindspore as ms
from mindspore.train import node_strategy_pb2 as pb
from mindspore.parallel import _parallel_serialization as ps

tmp = tempfile.mkdtemp()


def show(tag, fn, *args):
    try:
        print(tag, fn(*args))
    except Exception as e:  # pylint: disable=broad-except
        print(tag, type(e).__name__, str(e).replace(tmp, "TMP"))


def layout(dev, tmap, step=0, size=0, split=()):
    out = pb.ParallelLayouts(field=0, opt_weight_shard_step=step, opt_weight_shard_size=size)
    out.dev_matrix.add().dim.extend(dev)
    if tmap and isinstance(tmap[0], list):
        for axes in tmap:
            out.tensor_map.add().dim.extend(axes)
    else:
        out.tensor_map.add().dim.extend(tmap)
    out.param_split_shape.add().dim.extend(split)
    out.indices_offset.add()
    return out


def strategy_file(name, stage, layouts, strategies=(("MatMul-op0", [[2, 4], [4, 1]]),)):
    m = pb.ParallelStrategyMap(current_stage=stage)
    for node, dims in strategies:
        item = m.parallel_strategy_item.add(node_name=node)
        item.parallel_strategys.stage = stage
        for d in dims:
            item.parallel_strategys.parallel_strategy.add().dim.extend(d)
    for pname, lay in layouts:
        m.parallel_layout_item.add(param_name=pname, parallel_layouts=lay)
    path = os.path.join(tmp, name)
    data = m.SerializeToString()
    with open(path, "wb") as f:
        f.write(data)
    print(name, len(data), data.hex()[:96])
    return path


# -- messages
lay = layout([2, 4], [1, -1], 4, -1)
print(str(lay).replace("\n", "|"))
print(lay.SerializeToString().hex())
back = pb.ParallelLayouts()
print(back.ParseFromString(lay.SerializeToString()), back == lay, back.opt_weight_shard_size)
show("missing", lambda: pb.ParallelLayouts(field=0).SerializeToString())
show("bad int", setattr, pb.ParallelLayouts(), "field", "1")
show("range", lambda: pb.DevMatrix().dim.append(-2))
show("truncated", lambda: pb.ParallelStrategyMap().ParseFromString(b"\x0a\x05ab"))

# -- strategy files
src = strategy_file("src.ckpt", 0, [("w1", layout([4, 2], [1, -1])), ("w2", layout([4, 2], [-1, 0])),
                                    ("b", layout([4, 2], [-1], 2, 4)),
                                    ("emb", layout([2, 2, 2], [[2, 1], [-1]]))])
dst = strategy_file("dst.ckpt", 0, [("w1", layout([2, 2], [0, 1])), ("w2", layout([2, 2], [-1, -1])),
                                    ("b", layout([2, 2], [0])), ("emb", layout([2, 2], [-1, 1]))])
stage0 = strategy_file("s0.ckpt", 0, [("w1", layout([2, 2], [1, 0])), ("shared", layout([2, 2], [-1, 0]))],
                       (("MatMul-op0", [[2, 2]]),))
stage1 = strategy_file("s1.ckpt", 1, [("w2", layout([2, 2], [0, -1])), ("shared", layout([2, 2], [1, -1]))],
                       (("MatMul-op1", [[2, 2]]),))
json_path = os.path.join(tmp, "src.json")
with open(json_path, "w") as f:
    json.dump({"current_stage": 0,
               "parallel_strategy_item": {"MatMul-op0": {"stage": 0, "parallel_strategy": [[2, 4]]}},
               "parallel_layout_item": {"w1": {"dev_matrix": [4, 2], "tensor_map": [1, -1], "field": 0,
                                               "opt_weight_shard_step": 0, "opt_weight_shard_size": 0},
                                        "w3": {"dev_matrix": [8], "tensor_map": [0], "field": 0,
                                               "param_split_shape": [4, 4], "indices_offset": [0, 4],
                                               "opt_weight_shard_step": 0, "opt_weight_shard_size": 0}}}, f)

for path in (src, json_path):
    built = ps._build_searched_strategy(path)
    for name in sorted(built):
        print(os.path.basename(path), name, str(built[name]).replace("\n", "|"))
    print(ps._convert_to_list(built))
print(ps._build_searched_strategy(None))

merged = os.path.join(tmp, "merged.ckpt")
ps._merge_protobuf_strategy([stage0, stage1, stage1], merged)
built = ps._build_searched_strategy(merged)
print(sorted(built))
print(ps._convert_to_list(built))
for rank in (0, 3, 4, 7):
    print("rank", rank, ps._convert_to_list(built, rank))
print(ps._extract_pipeline_stage_num(merged), ps._extract_pipeline_stage_num(src), ps._extract_pipeline_stage_num(None))
print(ps._get_device_num_from_strategy(src), ps._get_device_num_from_strategy(merged),
      ps._get_device_num_from_strategy(None))
for rank in (1, 6):
    print("src/dst", rank, ps._extract_src_dst_layout_map(rank, merged, merged))
print(ps._extract_src_dst_layout_map(2, src, None))
print(ps._extract_src_dst_layout_map_by_src(src, dst))
print(ps._extract_src_dst_layout_map_by_src(stage1, merged))
print(ps._parameter_not_in_local_stage("w1", {"w1": 1}, {}), ps._parameter_not_in_local_stage("w1", None, {}),
      ps._parameter_not_in_local_stage("w2", {"w1": 1}, {}))
print(str(ps._convert_to_layout("p", [[2, 4], [1, 0], [], 0])["p"]).replace("\n", "|"))
show("convert_to_layout", ps._convert_to_layout, "p", [[2, 4], [1, 0]])
show("convert_to_list", ps._convert_to_list, {"x": pb.ParallelLayouts()})

# -- rank lists
src_list = ps._extract_layout_map(src)
dst_list = ps._extract_layout_map(dst)
for rank in range(4):
    print("needed", rank, sorted(ps._rank_list_for_transform_parallel_checkpoint(rank, src_list, dst_list)))
print("needed whole", sorted(ps._rank_list_for_transform_parallel_checkpoint(0, src_list, None)))
for rank in (0, 3):
    print("public", rank, ms.parallel.rank_list_for_transform(rank, src, dst))

# Random layout pairs (1-8 devices each side, up to 3 device axes, optimizer sharding): the ranks
# every destination rank reads.
gen = np.random.default_rng(11)


def random_entry(dims):
    devices = int(gen.choice([1, 2, 4, 8]))
    dev = []
    while devices > 1 and len(dev) < 2:
        f = int(gen.choice([d for d in (2, 4) if devices % d == 0]))
        dev.append(f)
        devices //= f
    dev = (dev + [devices]) if devices > 1 or not dev else dev
    axes = list(range(len(dev)))
    gen.shuffle(axes)
    tmap = [int(axes.pop()) if axes and gen.random() < 0.6 else -1 for _ in range(dims)]
    used = {len(dev) - 1 - a for a in tmap if a != -1}
    repeated = [i for i, d in enumerate(dev) if i not in used and d > 1]
    step, size = 0, 0
    if repeated and gen.random() < 0.4:
        step = int(np.prod(dev[repeated[0] + 1:])) if len(repeated) == 1 else 1
        size = -1
    return [dev, tmap, [], 0, step, size, [0]]


for pair in range(30):
    dims = int(gen.integers(1, 3))
    a, b = random_entry(dims), random_entry(dims)
    lists = []
    for rank in range(int(np.prod(b[0]))):
        try:
            lists.append(sorted(ps._rank_list_for_transform_parallel_checkpoint(rank, {"x": a}, {"x": b})))
        except Exception as e:  # pylint: disable=broad-except
            lists.append(type(e).__name__)
    print("pair", pair, a[:2], a[4:6], "->", b[:2], b[4:6], lists)

# -- an in-memory transform: every source rank's slices, then destination ranks' parameters
rng = np.random.default_rng(3)
whole = {"w1": rng.standard_normal((8, 6)).astype(np.float32), "w2": rng.standard_normal((4, 6)).astype(np.float32),
         "b": rng.standard_normal((8,)).astype(np.float32), "emb": rng.standard_normal((8, 4)).astype(np.float32),
         "step": np.array([5], np.int32)}


def cut(value, entry, rank):
    from mindspore.parallel._tensor import _get_tensor_strategy  # same slicing as a training run
    dev, tmap, _, _ = entry[0], entry[1], None, None
    strategy = _get_tensor_strategy(dev, tmap)
    coords, r = [], rank
    for d in reversed(dev):
        coords.append(r % d)
        r //= d
    coords = list(reversed(coords))
    index = []
    for size, t, k in zip(value.shape, tmap, strategy):
        axes = t if isinstance(t, list) else [t]
        pos = 0
        for a in axes:
            if a != -1:
                pos = pos * dev[len(dev) - 1 - a] + coords[len(dev) - 1 - a]
        step = size // k
        index.append(slice(pos * step, (pos + 1) * step))
    piece = value[tuple(index)]
    if entry[5]:
        piece = np.split(piece, entry[5])[rank % entry[5]]
    return piece


total, attrs, types = {}, {}, {}
for name, value in whole.items():
    total[name], attrs[name], types[name] = {}, {}, {}
    for rank in range(8):
        total[name][rank] = cut(value, src_list[name], rank) if name in src_list else value
        attrs[name][rank] = (name != "step", False)
        types[name][rank] = "Float32"
for rank in range(4):
    out = ps._transform_parallel_checkpoint(rank, total, attrs, src_list, dst_list, types)
    for item in out:
        data = item["data"]
        expect = cut(whole[item["name"]], dst_list[item["name"]], rank) if item["name"] in dst_list \
            else whole[item["name"]]
        print(rank, item["name"], data.name, data.requires_grad, data.shape, np.array_equal(data.asnumpy(), expect))
out = ps._transform_parallel_checkpoint(0, total, attrs, src_list, None, types)
print([(i["name"], i["data"].shape, np.array_equal(i["data"].asnumpy(), whole[i["name"]])) for i in out])
partial = {k: dict(v) for k, v in total.items()}
del partial["w1"][3]
show("missing slice", ps._transform_parallel_checkpoint, 3, partial, attrs, src_list, dst_list, types)
show("none in strategy", ps._transform_parallel_checkpoint, 0, {"step": total["step"]}, attrs,
     src_list, dst_list, types)

# -- group-info files
group = pb.ParallelGroupMap()
group.ckpt_restore_rank_list.dim.extend([1, 5])
item = group.parallel_group_item.add(group_name="2-5882240112345")
item.parallel_group_ranks.dim.extend([1, 5])
group_path = os.path.join(tmp, "group_info.pb")
with open(group_path, "wb") as f:
    f.write(group.SerializeToString())
print(ms.restore_group_info_list(group_path), ms.parallel.restore_group_info_list(group_path))
no_list = os.path.join(tmp, "no_list.pb")
with open(no_list, "wb") as f:
    f.write(pb.ParallelGroupMap(ckpt_restore_rank_list=pb.ParallelGroupRanks()).SerializeToString())
show("group no list", ms.restore_group_info_list, no_list)
empty = os.path.join(tmp, "empty.pb")
open(empty, "wb").close()
show("group empty", ms.restore_group_info_list, empty)
show("group missing", ms.restore_group_info_list, os.path.join(tmp, "nothing.pb"))
show("group type", ms.restore_group_info_list, 3)

# -- checks
show("strategy type", ps._build_searched_strategy, 5)
show("strategy missing", ps._build_searched_strategy, os.path.join(tmp, "nothing.ckpt"))
show("strategy empty", ps._build_searched_strategy, empty)
corrupt = os.path.join(tmp, "corrupt.ckpt")
with open(corrupt, "wb") as f:
    f.write(b"\x1a\x40abc")
show("strategy corrupt", ps._build_searched_strategy, corrupt)
show("no layouts", ps._build_searched_strategy, strategy_file("nolayout.ckpt", 0, []))
for arrange, index, rank in [([2, 2], 1, 0), ([2, 2, 2], 2, 0), ([2, 2, 2], 0, 5), ([64, 8], 1, 19),
                             ([4, 2], 1, 5), ([2, 4, 2], 2, 13)]:
    print("first dim", arrange, index, rank, ps._get_param_list_when_first_dim_sharded(arrange, index, rank))
show("predict type", ps._check_predict_strategy, [1])
show("predict value", ps._check_predict_strategy, {"w": [[2], [0], [], 1]})
print(ps._check_predict_strategy({"w": [[2], [0], [], 0]}), ps._check_predict_strategy(None))
show("ckpt file", ps._check_checkpoint_file, [os.path.join(tmp, "src.ckpt"), os.path.join(tmp, "x.txt")])
print(len(ps._gather_tasks_load_dis("u", None, None, "d", 3, "ckpt", None, False)), ps.MAX_PATH_LENGTH)

# -- directories (last: MindSpore's _make_dir sets the process umask to 077)
made = ps._make_dir(os.path.join(tmp, "a", "b"), "path")
print(made.replace(tmp, "TMP"), oct(os.stat(made).st_mode & 0o777), oct(os.stat(os.path.dirname(made)).st_mode & 0o777))
show("make_dir file", ps._make_dir, src, "path")
show("make_dir blank", ps._make_dir, "  ", "path")
show("make_dir type", ps._make_dir, 3, "path")
show("make_dir long", lambda: ps._make_dir("/" + "x" * 1100, "path"))
shutil.rmtree(tmp)
