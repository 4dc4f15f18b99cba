# mindspore.dataset.Cifar10Dataset on CIFAR-10 binary files the script writes (usages, shards,
# num_samples, a short file, an empty folder), vision.RandomCrop / RandomHorizontalFlip checked by
# their properties (windows of the padded image, mirror or identity, same seed same draws),
# whole-image crops in every border mode, Resize of a 3-channel image, SlicePatches into several
# columns with project and batch, nn.AdaptiveAvgPool2d values and gradients in both modes, and the
# memory settings the memory_offload sample touches.
import os
import tempfile

import numpy as np
import mindspore as ms
import mindspore.dataset as ds
import mindspore.runtime as rt
from mindspore import nn, ops, Tensor
from mindspore.dataset import transforms, vision
from mindspore.dataset.vision import Border, SliceMode
from _case_util import attempt

RECORDS = 10000  # MindSpore reads (and counts) 10,000 records per file


def write(path, n, offset):
    """n records: label (7i + offset) % 10, channel-major pixels depending on record and position."""
    j = np.arange(3072)
    base = ((j * 5 + (j // 1024) * 77 + offset) % 256).astype(np.uint8)
    shift = ((np.arange(n) * 3) % 256).astype(np.uint8)
    records = np.empty((n, 3073), np.uint8)
    records[:, 0] = ((np.arange(n) * 7 + offset) % 10).astype(np.uint8)
    records[:, 1:] = base[None, :] + shift[:, None]
    with open(path, "wb") as f:
        f.write(records.tobytes())


def pipeline_error(e, folder):
    return [line for line in str(e).splitlines() if "[ERROR]" in line][0].replace(folder, "<dir>")


root = tempfile.mkdtemp()
write(os.path.join(root, "data_batch_1.bin"), RECORDS, 0)
write(os.path.join(root, "test_batch.bin"), RECORDS + 3, 5)  # records past 10,000 are ignored
write(os.path.join(root, "other.bin"), 2, 1)  # a .bin without "batch" in its name is skipped
with open(os.path.join(root, "batches.meta.txt"), "w") as f:
    f.write("airplane\n")

print("-- Cifar10Dataset")
for usage in [None, "train", "test", "all"]:
    data = ds.Cifar10Dataset(root, usage=usage, shuffle=False, num_samples=3)
    print(usage, ds.Cifar10Dataset(root, usage=usage).get_dataset_size(), data.get_dataset_size(),
          data.get_col_names())
    for image, label in data.create_tuple_iterator(output_numpy=True):
        print("  ", image.shape, image.dtype, label.shape, int(label), image[0, :2].tolist(), image[31, 31].tolist(),
              int(image.sum()))
for shard in range(3):
    data = ds.Cifar10Dataset(root, usage="train", shuffle=False, num_shards=3, shard_id=shard, num_samples=4)
    print("shard", shard, data.get_dataset_size(), ds.Cifar10Dataset(root, num_shards=3, shard_id=shard).get_dataset_size(),
          [int(row["label"]) for row in data.create_dict_iterator(output_numpy=True)])
data = ds.Cifar10Dataset(root, usage="test", shuffle=False)
labels = [int(lab) for _, lab in data.skip(RECORDS - 2).create_tuple_iterator(output_numpy=True)]
print("last test labels", labels)
data = ds.Cifar10Dataset(root, usage="test", shuffle=True, num_samples=6)
print("shuffled", data.get_dataset_size(), len(list(data.create_tuple_iterator())))

short = tempfile.mkdtemp()
write(os.path.join(short, "data_batch_1.bin"), 10, 0)
print("short file size", ds.Cifar10Dataset(short).get_dataset_size())
try:
    for _ in ds.Cifar10Dataset(short, shuffle=False).create_tuple_iterator():
        pass
except RuntimeError as e:
    print("short file:", pipeline_error(e, short))
empty = tempfile.mkdtemp()
try:
    ds.Cifar10Dataset(empty).get_dataset_size()
except RuntimeError as e:
    print("empty folder:", pipeline_error(e, empty))
attempt("missing folder", lambda: ds.Cifar10Dataset("/nonexistent/cifar"))
attempt("usage val", lambda: ds.Cifar10Dataset(root, usage="val"))
attempt("shuffle 1", lambda: ds.Cifar10Dataset(root, shuffle=1))
attempt("shard_id alone", lambda: ds.Cifar10Dataset(root, shard_id=0))
attempt("shard_id 3 of 3", lambda: ds.Cifar10Dataset(root, num_shards=3, shard_id=3))


def cifar(n=8):
    return ds.Cifar10Dataset(root, usage="train", shuffle=False, num_samples=n)


originals = [image for image, _ in cifar().create_tuple_iterator(output_numpy=True)]


def crops(seed, op):
    ds.config.set_seed(seed)
    data = cifar().map(operations=op, input_columns="image", num_parallel_workers=1)
    return [image for image, _ in data.create_tuple_iterator(output_numpy=True)]


def offsets(images, pad):
    """Where each image lies in its padded original (None when it is no window of it)."""
    found = []
    for image, original in zip(images, originals):
        padded = np.pad(original, ((pad, pad), (pad, pad), (0, 0)))
        hits = [(y, x) for y in range(2 * pad + 1) for x in range(2 * pad + 1)
                if np.array_equal(padded[y:y + 32, x:x + 32], image)]
        found.append(hits[0] if hits else None)
    return found


print("-- RandomCrop")
first = crops(5, vision.RandomCrop((32, 32), (4, 4, 4, 4)))
again = crops(5, vision.RandomCrop((32, 32), (4, 4, 4, 4)))
where = offsets(first, 4)
print("shapes", sorted({(i.shape, str(i.dtype)) for i in first}))
print("every crop is a window of the padded image", all(w is not None for w in where))
print("windows differ between images", len(set(where)) > 1)
print("same seed same crops", all(np.array_equal(a, b) for a, b in zip(first, again)))
whole = crops(5, vision.RandomCrop(40, 4))
print("crop of the padded size is the padded image",
      all(np.array_equal(np.pad(o, ((4, 4), (4, 4), (0, 0))), w) for o, w in zip(originals, whole)))
small = np.arange(12, dtype=np.uint8).reshape(3, 4)
for mode in [Border.CONSTANT, Border.EDGE, Border.REFLECT, Border.SYMMETRIC]:
    out = ds.NumpySlicesDataset([small], column_names=["image"], shuffle=False).map(
        vision.RandomCrop((7, 8), (2, 2, 2, 2), fill_value=9, padding_mode=mode), "image")
    print(mode, [row[0].tolist() for row in out.create_tuple_iterator(output_numpy=True)][0])
rgb = np.zeros((2, 2, 3), np.uint8)
out = ds.NumpySlicesDataset([rgb], column_names=["image"], shuffle=False).map(
    vision.RandomCrop(4, 1, fill_value=(1, 2, 3)), "image")
print("fill per channel", [row[0][0, 0].tolist() for row in out.create_tuple_iterator(output_numpy=True)])
needed = ds.NumpySlicesDataset([small], column_names=["image"], shuffle=False).map(
    vision.RandomCrop((5, 6), pad_if_needed=True, fill_value=9), "image")
print("pad_if_needed", [row[0].shape for row in needed.create_tuple_iterator(output_numpy=True)])
try:
    bad = ds.NumpySlicesDataset([small], column_names=["image"], shuffle=False).map(vision.RandomCrop(5), "image")
    list(bad.create_tuple_iterator())
except RuntimeError as e:
    print("too big:", pipeline_error(e, "-"))
attempt("RandomCrop 0", lambda: vision.RandomCrop(0))
attempt("RandomCrop padding 3", lambda: vision.RandomCrop(4, (1, 2, 3)))
attempt("RandomCrop padding -1", lambda: vision.RandomCrop(4, -1))
attempt("RandomCrop fill 256", lambda: vision.RandomCrop(4, fill_value=256))
attempt("RandomCrop fill list", lambda: vision.RandomCrop(4, fill_value=[1, 2, 3]))
attempt("RandomCrop mode str", lambda: vision.RandomCrop(4, padding_mode="edge"))
attempt("RandomCrop pad_if_needed 1", lambda: vision.RandomCrop(4, pad_if_needed=1))

print("-- RandomHorizontalFlip")
flips = crops(11, vision.RandomHorizontalFlip())
kinds = ["same" if np.array_equal(f, o) else "mirror" if np.array_equal(f, o[:, ::-1]) else "other"
         for f, o in zip(flips, originals)]
print("mirror or identity", "other" not in kinds)
print("same seed same flips", all(np.array_equal(a, b) for a, b in zip(flips, crops(11, vision.RandomHorizontalFlip()))))
print("prob 1 mirrors", all(np.array_equal(f, o[:, ::-1]) for f, o in zip(crops(1, vision.RandomHorizontalFlip(1.0)),
                                                                          originals)))
print("prob 0 keeps", all(np.array_equal(f, o) for f, o in zip(crops(1, vision.RandomHorizontalFlip(0)), originals)))
attempt("RandomHorizontalFlip 1.5", lambda: vision.RandomHorizontalFlip(1.5))
attempt("RandomHorizontalFlip '0.5'", lambda: vision.RandomHorizontalFlip("0.5"))

print("-- the memory_offload sample's pipeline")
ds.config.set_seed(3)
pipe = cifar(4).map(operations=transforms.TypeCast(ms.int32), input_columns="label")
pipe = pipe.map(operations=[vision.Resize((224, 224)), vision.Rescale(1.0 / 255.0, 0.0),
                            vision.Normalize((0.4914, 0.4822, 0.4465), (0.2023, 0.1994, 0.2010)), vision.HWC2CHW()],
                input_columns="image").batch(2, drop_remainder=True)
for image, label in pipe.create_tuple_iterator(output_numpy=True):
    print(image.shape, image.dtype, label.dtype, label.tolist(), round(float(image.sum()), 1),
          np.round(image[1, :, 100, 7], 4).tolist())
resized = cifar(1).map(vision.Resize((224, 224)), "image")
for image, _ in resized.create_tuple_iterator(output_numpy=True):
    print("resized", image.shape, image.dtype, int(image.sum()), image[0, :3].tolist(), image[223, 220].tolist())

print("-- SlicePatches")
names = ["p%d" % i for i in range(8)]
sliced = cifar(2).map(vision.SlicePatches(2, 4), input_columns="image", output_columns=names)
print(sliced.get_col_names())
for n, row in enumerate(sliced.create_tuple_iterator(output_numpy=True)):
    print([p.shape for p in row[:8]], int(row[8]), all(np.array_equal(
        row[k], originals[n][16 * (k // 4):16 * (k // 4) + 16, 8 * (k % 4):8 * (k % 4) + 8]) for k in range(8)))
odd = np.arange(5 * 6 * 3, dtype=np.uint8).reshape(5, 6, 3)
for mode, fill in [(SliceMode.PAD, 0), (SliceMode.DROP, 0), (SliceMode.PAD, 9)]:
    data = ds.NumpySlicesDataset([odd], column_names=["image"], shuffle=False)
    data = data.map(vision.SlicePatches(2, 4, mode, fill), input_columns="image", output_columns=names)
    row = next(data.create_tuple_iterator(output_numpy=True))
    print(mode, fill, [p.shape for p in row], row[0][:, :, 0].tolist(), row[7][:, :, 1].tolist())
plane = np.arange(12, dtype=np.float32).reshape(3, 4)
row = next(ds.NumpySlicesDataset([plane], column_names=["x"], shuffle=False).map(
    vision.SlicePatches(2, 2), "x", ["a", "b", "c", "d"]).create_tuple_iterator(output_numpy=True))
print("2-D", [p.tolist() for p in row])
projected = cifar(4).map(vision.SlicePatches(1, 2), "image", ["left", "right"]).project(["right", "label"])
print(projected.get_col_names(), projected.get_dataset_size())
batched = projected.batch(2)
for right, label in batched.create_tuple_iterator(output_numpy=True):
    print(right.shape, label.tolist(), np.array_equal(right[0], originals[0][:, 16:]))
print(cifar().map(vision.SlicePatches(1, 2), "label", ["a", "b"]).get_col_names())
print(cifar().map(transforms.TypeCast(ms.int32), ["label"], ["y"]).get_col_names())
try:
    list(cifar(1).map(vision.SlicePatches(2, 1), "image").create_tuple_iterator())
except RuntimeError as e:
    print("two patches, one column:", pipeline_error(e, "-"))
attempt("SlicePatches 0", lambda: vision.SlicePatches(0))
attempt("SlicePatches mode", lambda: vision.SlicePatches(1, 2, 1))
attempt("SlicePatches fill 300", lambda: vision.SlicePatches(1, 2, fill_value=300))

print("-- AdaptiveAvgPool2d")
x = Tensor(np.arange(2 * 3 * 5 * 7, dtype=np.float32).reshape(2, 3, 5, 7) % 11)
for size in [1, 2, (3, 4), (None, 3), (2, None), (None, None), (7, 9)]:
    y = nn.AdaptiveAvgPool2d(size)(x)
    print(size, y.shape, np.round(y.asnumpy()[1, 2], 4).tolist())
y = ops.adaptive_avg_pool2d(x[0], (2, 3))
print("chw", y.shape, np.round(y.asnumpy()[1], 4).tolist())
print("float64", nn.AdaptiveAvgPool2d(2)(x.astype(ms.float64)).dtype, ops.AdaptiveAvgPool2D((None, 2)).output_size)
attempt("output_size 2.0", lambda: nn.AdaptiveAvgPool2d(2.0))
attempt("output_size 3 values", lambda: nn.AdaptiveAvgPool2d((1, 2, 3)))
attempt("output_size -1", lambda: nn.AdaptiveAvgPool2d(-1))
attempt("2-D input", lambda: nn.AdaptiveAvgPool2d(2)(x[0, 0]))
attempt("int input", lambda: nn.AdaptiveAvgPool2d(2)(Tensor(np.ones((1, 1, 4, 4), np.int32))))
w = Tensor(np.arange(2 * 3 * 2 * 3, dtype=np.float32).reshape(2, 3, 2, 3) / 10)


class Pooled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d((2, 3))

    def construct(self, a, b):
        return (self.pool(a) * b).sum()


class Squeezed(nn.Cell):
    def __init__(self):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.dense = nn.Dense(3, 2, weight_init="ones")

    def construct(self, a):
        return self.dense(self.pool(a).squeeze()).sum()


for mode in [ms.PYNATIVE_MODE, ms.GRAPH_MODE]:
    ms.set_context(mode=mode)
    g = ms.grad(Pooled())(x, w)
    print("grad mode", mode, g.shape, np.round(g.asnumpy()[1, 1], 4).tolist())
    g = ms.grad(Squeezed())(x)
    print("grad through squeeze", np.round(g.asnumpy()[0, 0, 0], 4).tolist())

print("-- memory settings")
attempt("set_context memory_offload", lambda: ms.set_context(memory_offload="OFF"))
attempt("get_context memory_offload", lambda: ms.get_context("memory_offload"))
print("has set_offload_context", hasattr(ms, "set_offload_context"))
attempt("set_memory 1", lambda: rt.set_memory(max_size=1))
attempt("set_memory 1GB", lambda: rt.set_memory(max_size="1GB"))
attempt("set_memory again", lambda: rt.set_memory(max_size="2GB"))
