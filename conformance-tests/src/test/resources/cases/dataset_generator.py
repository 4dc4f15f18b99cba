# mindspore.dataset.GeneratorDataset: generator functions, iterables and random-access sources
# through map (Python callables), batch, repeat, take, skip, shuffle, project, rename; sizes and
# column names after each op; argument and column errors.
import mindspore.dataset as ds
from _case_util import attempt


def gen():
    for i in range(5):
        yield (i, [i * 0.5, 1.0], [[i, i + 1]])


class Squares:
    def __getitem__(self, i):
        return (i, i * i)

    def __len__(self):
        return 7


def make():
    return ds.GeneratorDataset(gen, ["a", "b", "c"], shuffle=False)


def rows(data):
    return [[t.tolist() for t in row] for row in data.create_tuple_iterator()]


def info(label, data):
    print(f"{label}: size={data.get_dataset_size()} cols={data.get_col_names()} batch={data.get_batch_size()}")


def error_line(fn):
    try:
        fn()
        print("no error")
    except RuntimeError as e:
        print([line for line in str(e).splitlines() if "[ERROR]" in line][0])


first = next(iter(make().create_tuple_iterator()))
print([(str(t.dtype), t.shape) for t in first])
info("source", make())
print(rows(make()))
info("batch(2)", make().batch(2))
for row in make().batch(2).create_tuple_iterator():
    print(" ", [(str(t.dtype), t.shape, t.tolist()) for t in row])
info("batch(2, drop)", make().batch(2, drop_remainder=True))
print(len(rows(make().batch(2, drop_remainder=True))))
info("repeat(3)", make().repeat(3))
print([r[0] for r in rows(make().repeat(3))])
info("repeat(2).batch(3)", make().repeat(2).batch(3))
print([r[0] for r in rows(make().repeat(2).batch(3))])
info("take(2)", make().take(2))
info("take(9)", make().take(9))
info("skip(2)", make().skip(2))
info("skip(9)", make().skip(9))
print([r[0] for r in rows(make().skip(2).take(2))])
info("project", make().project(["c", "a"]))
print(rows(make().project(["c", "a"]).take(2)))
info("rename", make().rename(["a", "c"], ["x", "z"]))
info("map 1->2", make().map(lambda x: (x, x + 10), ["a"], ["a1", "a2"]))
print(rows(make().map(lambda x: (x, x + 10), ["a"], ["a1", "a2"]).project(["a1", "a2"])))
info("map 2->1", make().map(lambda x, y: y * 2, ["a", "b"], ["s"]))
print(rows(make().map(lambda x, y: y * 2, ["a", "b"], ["s"]).take(2)))
info("map in place", make().map(lambda x: x * 3, "a"))
print([r[0] for r in rows(make().map(lambda x: x * 3, "a"))])
info("shuffle(4)", make().shuffle(4))
print(sorted(r[0] for r in rows(make().shuffle(4))))

print("squares", [r for r in rows(ds.GeneratorDataset(Squares(), ["n", "sq"], shuffle=False))])
for shard in range(2):
    data = ds.GeneratorDataset(Squares(), ["n", "sq"], shuffle=False, num_shards=2, shard_id=shard)
    print("shard", shard, data.get_dataset_size(), [r[0] for r in rows(data)])
data = ds.GeneratorDataset(Squares(), ["n", "sq"], num_samples=3, shuffle=False)
print("num_samples", data.get_dataset_size(), [r[0] for r in rows(data)])
data = ds.GeneratorDataset(Squares(), ["n", "sq"])
print("shuffled", data.get_dataset_size(), sorted(r[0] for r in rows(data)))

iterator = make().take(2).create_tuple_iterator(num_epochs=2)
for epoch in range(2):
    print("epoch", epoch, [int(r[0]) for r in iterator])
for row in make().take(1).create_dict_iterator():
    print(sorted(row.keys()), row["c"].tolist())
print([int(r[0]) for r in make().take(3)])

attempt("shuffle(0)", lambda: make().shuffle(0))
attempt("repeat(0)", lambda: make().repeat(0))
attempt("take(0)", lambda: make().take(0))
attempt("skip(-1)", lambda: make().skip(-1))
attempt("batch('2')", lambda: make().batch("2"))
attempt("generator with num_shards", lambda: ds.GeneratorDataset(gen, ["a"], num_shards=2, shard_id=0))
error_line(lambda: rows(make().project(["z"])))
error_line(lambda: rows(make().rename(["z"], ["w"])))
error_line(lambda: rows(make().map(lambda x: x, ["q"])))
