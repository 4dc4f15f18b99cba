"""mindspore.train metrics on Tensors and lists: Accuracy, Loss, top-k; indexes; errors (issue 4)."""
import mindspore as ms
from mindspore import train
from mindspore.train.metrics import get_metrics
from mindspore.train import Accuracy, Loss, Precision, Recall, Top1CategoricalAccuracy, Top5CategoricalAccuracy, TopKCategoricalAccuracy

from _case_util import attempt, rounded, show

logits = ms.Tensor([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3], [0.1, 0.1, 0.8], [0.4, 0.4, 0.2]], ms.float32)
labels = ms.Tensor([1, 2, 2, 1], ms.int32)

acc = Accuracy()
acc.update(logits, labels)
print("accuracy", acc.eval())
acc.update([[0.9, 0.1, 0.0]], [0])
print("accuracy after list batch", acc.eval())
acc.clear()
onehot = ms.Tensor([[0, 1, 0], [0, 0, 1], [0, 0, 1], [1, 0, 0]], ms.float32)
acc.update(logits, onehot)
print("accuracy one-hot labels", acc.eval())
print("call", Accuracy()(logits, labels))

ml = Accuracy("multilabel")
ml.update(ms.Tensor([[1, 0, 1], [0, 1, 1]], ms.float32), ms.Tensor([[1, 0, 1], [0, 0, 1]], ms.float32))
print("multilabel", ml.eval())

loss = Loss()
loss.update(ms.Tensor(0.5, ms.float32))
loss.update(ms.Tensor([0.25, 0.75], ms.float32))
print("loss", loss.eval())

for k in (1, 2):
    m = TopKCategoricalAccuracy(k)
    m.update(logits, labels)
    print("top", k, m.eval())
print("top1 class", Top1CategoricalAccuracy()(logits, labels))
print("top5 class", Top5CategoricalAccuracy()(ms.Tensor([[0.1 * i for i in range(6)]], ms.float32),
                                              ms.Tensor([0], ms.int32)))

for cls in (Precision, Recall):
    m = cls()
    m.update(logits, labels)
    m.update([[0.9, 0.1, 0.0], [0.0, 0.2, 0.8]], [0, 1])
    print(cls.__name__, rounded([float(v) for v in m.eval()]), rounded(float(m.eval(average=True))))
    mm = cls("multilabel")
    mm.update(ms.Tensor([[1, 0, 1], [0, 1, 1]], ms.float32), ms.Tensor([[1, 0, 0], [0, 1, 1]], ms.float32))
    mm.update([[1, 1, 1]], [[0, 1, 0]])
    print(cls.__name__, "multilabel", rounded([float(v) for v in mm.eval()]), rounded(float(mm.eval(True))))
    attempt(cls.__name__ + " classes", lambda c=cls: c().update(logits, ms.Tensor([1, 2, 3, 0], ms.int32)))
    attempt(cls.__name__ + " average type", lambda mm=mm: mm.eval(average=1))
    try:
        cls().eval()
    except RuntimeError as e:
        show(e)

swapped = Accuracy().set_indexes([1, 0])
swapped.update(labels, logits)
print("set_indexes", swapped.eval(), swapped.indexes)

print("names", train.names())
print("get_metric_fn", type(train.get_metric_fn("acc")).__name__, type(train.get_metric_fn("topk", 3)).__name__)
print("get_metrics", sorted(get_metrics({"accuracy", "loss"})))

attempt("update 1 input", lambda: Accuracy().update(logits))
attempt("shape mismatch", lambda: Accuracy().update(logits, ms.Tensor([1, 2], ms.int32)))
attempt("rank mismatch", lambda: Accuracy().update(logits, ms.Tensor([[[1]]], ms.int32)))
attempt("class number", lambda: (acc.update(logits, labels), acc.update([[0.1, 0.9]], [1])))
attempt("multilabel values", lambda: Accuracy("multilabel").update(ms.Tensor([[0.5, 1.0]]), ms.Tensor([[1.0, 0.0]])))
attempt("eval_type", lambda: Accuracy("regression"))
attempt("input type", lambda: Accuracy().update((0.1, 0.9), (1,)))
attempt("Loss 2 inputs", lambda: Loss().update(1, 2))
attempt("Loss rank", lambda: Loss().update(ms.Tensor([[1.0]])))
attempt("k type", lambda: TopKCategoricalAccuracy(1.5))
attempt("k value", lambda: TopKCategoricalAccuracy(0))
attempt("set_indexes", lambda: Accuracy().set_indexes((1, 0)))
attempt("get_metric_fn", lambda: train.get_metric_fn("nope"))
attempt("get_metrics dict", lambda: get_metrics({"a": 1}))
for m in (Loss(), TopKCategoricalAccuracy(2)):
    try:
        m.eval()
    except RuntimeError as e:
        show(e)
