# mindspore.dataset.NumpySlicesDataset from lists, tuples and dicts (no numpy): column names,
# types, slices, OneHot/TypeCast maps, seeded shuffles, shards and argument errors.
import mindspore as ms
import mindspore.dataset as ds
from mindspore.dataset import transforms
from _case_util import attempt


def rows(data):
    return [[(str(t.dtype), t.shape, t.tolist()) for t in row] for row in data.create_tuple_iterator()]


data = ds.NumpySlicesDataset([1, 2, 3], shuffle=False)
print(data.get_col_names(), data.get_dataset_size(), rows(data))
data = ds.NumpySlicesDataset([[1, 2], [3, 4], [5, 6]], column_names=["pair"], shuffle=False)
print(data.get_col_names(), rows(data))
data = ds.NumpySlicesDataset([1, 2.5, 3], shuffle=False)
print(rows(data))
data = ds.NumpySlicesDataset(([1, 2], [[1.0, 2.0], [3.0, 4.0]]), shuffle=False)
print(data.get_col_names(), rows(data))
data = ds.NumpySlicesDataset({"x": [1.5, 2.5], "y": [True, False]}, shuffle=False)
print(data.get_col_names(), rows(data))
for row in data.create_dict_iterator():
    print(sorted(row), str(row["x"].dtype), row["y"].tolist())

labels = ds.NumpySlicesDataset([0, 3, 1, 2], column_names=["label"], shuffle=False)
labels = labels.map(transforms.OneHot(4), "label").map(transforms.TypeCast(ms.float32), "label").batch(3)
print(labels.get_dataset_size(), rows(labels))
data = ds.NumpySlicesDataset({"v": [5, 6, 7]}, shuffle=False).map(transforms.TypeCast(ms.float16), "v")
print(rows(data))

ds.config.set_seed(7)
print("seed", ds.config.get_seed())
first = [int(r[0]) for r in ds.NumpySlicesDataset(list(range(20)), shuffle=True)]
ds.config.set_seed(7)
again = [int(r[0]) for r in ds.NumpySlicesDataset(list(range(20)), shuffle=True)]
print("same seed same order", first == again, "permutation", sorted(first) == list(range(20)))
for shard in range(3):
    data = ds.NumpySlicesDataset(list(range(8)), shuffle=False, num_shards=3, shard_id=shard)
    print("shard", shard, data.get_dataset_size(), [int(r[0]) for r in data])
data = ds.NumpySlicesDataset(list(range(8)), shuffle=False, num_samples=5).skip(1).batch(2)
print("num_samples=5 skip 1 batch 2", data.get_dataset_size(), [r[0].tolist() for r in data])

attempt("two names for a list", lambda: ds.NumpySlicesDataset([1, 2], column_names=["a", "b"]))
attempt("one name for a tuple", lambda: ds.NumpySlicesDataset(([1], [2]), column_names=["a"]))
attempt("OneHot(0)", lambda: transforms.OneHot(0))
attempt("OneHot(2.0)", lambda: transforms.OneHot(2.0))
attempt("set_seed(-1)", lambda: ds.config.set_seed(-1))
attempt("num_shards=0", lambda: ds.NumpySlicesDataset([1, 2], num_shards=0, shard_id=0))
