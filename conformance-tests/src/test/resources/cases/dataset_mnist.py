# mindspore.dataset.MnistDataset on tiny idx files the script writes: usages, orders, shards,
# num_samples, batch, map with vision transforms, sizes/column names after each op, errors.
import os
import struct
import tempfile

import mindspore as ms
import mindspore.dataset as ds
from mindspore.dataset import transforms, vision
from _case_util import attempt, rounded


def write(folder, prefix, n, magic=2051):
    with open(os.path.join(folder, prefix + "-images-idx3-ubyte"), "wb") as f:
        f.write(struct.pack(">IIII", magic, n, 28, 28))
        f.write(bytes((i * 7 + j) % 256 for i in range(n) for j in range(784)))
    with open(os.path.join(folder, prefix + "-labels-idx1-ubyte"), "wb") as f:
        f.write(struct.pack(">II", 2049, n))
        f.write(bytes((3 * i) % 10 for i in range(n)))


def labels(data):
    return [int(row["label"]) for row in data.create_dict_iterator()]


root = tempfile.mkdtemp()
write(root, "train", 10)
write(root, "t10k", 5)

data = ds.MnistDataset(root, shuffle=False)
print("all", data.get_dataset_size(), data.get_col_names(), data.get_batch_size())
image, label = next(iter(data.create_tuple_iterator()))
print("image", image.dtype, image.shape, int(image.sum()), "label", label.shape, int(label))
for usage in ["train", "test", "all"]:
    data = ds.MnistDataset(root, usage=usage, shuffle=False)
    print(usage, data.get_dataset_size(), labels(data))
for shard in range(3):
    data = ds.MnistDataset(root, usage="train", shuffle=False, num_shards=3, shard_id=shard)
    print("shard", shard, data.get_dataset_size(), labels(data))
data = ds.MnistDataset(root, usage="train", shuffle=False, num_samples=4, num_shards=2, shard_id=1)
print("num_samples=4 shard 1", data.get_dataset_size(), labels(data))
data = ds.MnistDataset(root, usage="train", shuffle=False, num_samples=3)
print("num_samples=3", data.get_dataset_size(), labels(data))
data = ds.MnistDataset(root, usage="train", shuffle=True)
print("shuffled covers all", data.get_dataset_size(), sorted(labels(data)))

pipe = ds.MnistDataset(root, usage="train", shuffle=False)
pipe = pipe.map([vision.Rescale(1.0 / 255.0, 0.0), vision.HWC2CHW(), transforms.TypeCast(ms.float32)],
                input_columns="image")
pipe = pipe.map(transforms.TypeCast(ms.int32), input_columns="label")
pipe = pipe.batch(4)
print("batched", pipe.get_dataset_size(), pipe.get_col_names(), pipe.get_batch_size())
for image, label in pipe.create_tuple_iterator():
    print(" ", image.dtype, image.shape, rounded(float(image.sum())), label.dtype, label.tolist())
pipe = ds.MnistDataset(root, usage="test", shuffle=False).batch(2, drop_remainder=True)
print("drop_remainder", pipe.get_dataset_size(), [list(b.shape) for b, _ in pipe.create_tuple_iterator()])

pipe = ds.MnistDataset(root, usage="test", shuffle=False)
pipe = pipe.map(vision.Resize((14, 14)), input_columns="image").map(
    transforms.TypeCast(ms.int32), input_columns="label")
for image, label in pipe.create_tuple_iterator():
    print("resized", image.dtype, image.shape, int(image.sum()), image[:2, :4, 0].tolist())
pipe = ds.MnistDataset(root, usage="test", shuffle=False)
pipe = pipe.map([vision.Normalize([33.0], [66.0]), vision.HWC2CHW()], input_columns=["image"],
                output_columns=["pixels"]).map(transforms.TypeCast(ms.int32), "label").repeat(2).skip(3).take(5)
print("normalized", pipe.get_dataset_size(), pipe.get_col_names())
for row in pipe.create_dict_iterator():
    print(" ", row["pixels"].dtype, row["pixels"].shape, rounded(float(row["pixels"].sum())), int(row["label"]))

empty = tempfile.mkdtemp()
print("empty folder size", ds.MnistDataset(empty).get_dataset_size())
bad = tempfile.mkdtemp()
write(bad, "train", 2, magic=1234)
try:
    for _ in ds.MnistDataset(bad, usage="train"):
        pass
except RuntimeError as e:
    print("bad magic:", [line for line in str(e).splitlines() if "[ERROR]" in line][0].replace(bad, "<dir>"))
attempt("missing folder", lambda: ds.MnistDataset("/nonexistent/mnist"))
attempt("usage val", lambda: ds.MnistDataset(root, usage="val"))
attempt("num_shards without shard_id", lambda: ds.MnistDataset(root, num_shards=2))
attempt("shard_id out of range", lambda: ds.MnistDataset(root, num_shards=2, shard_id=2))
attempt("shuffle not bool", lambda: ds.MnistDataset(root, shuffle=1))
attempt("batch_size 0", lambda: ds.MnistDataset(root).batch(0))
attempt("batch_size -3", lambda: ds.MnistDataset(root).batch(-3))
try:
    for _ in ds.MnistDataset(root, shuffle=False).map(vision.HWC2CHW(), input_columns="img"):
        pass
except RuntimeError as e:
    print("map img:", [line for line in str(e).splitlines() if "[ERROR]" in line][0])
try:
    for _ in ds.MnistDataset(root).project(["label", "img"]):
        pass
except RuntimeError as e:
    print("project img:", [line for line in str(e).splitlines() if "[ERROR]" in line][0])
