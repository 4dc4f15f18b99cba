# nn.Embedding: seeded 'normal' table, parameter name/shape, Gather and one-hot lookups of 1-D/2-D
# ids, padding_idx, gradients w.r.t. the table, GRAPH_MODE equal to PYNATIVE, constructor errors.
import mindspore as ms
from mindspore import Tensor, nn
from _case_util import attempt, fix, vals


class Weighted(nn.Cell):
    def __init__(self, net, w):
        super().__init__()
        self.net = net
        self.w = w

    def construct(self, ids):
        return (self.net(ids) * self.w).sum()


ms.set_seed(3)
emb = nn.Embedding(5, 3)
emb1h = nn.Embedding(5, 3, use_one_hot=True, embedding_table='ones')
embp = nn.Embedding(4, 2, padding_idx=1)
embt = nn.Embedding(3, 2, embedding_table=Tensor([[0.5, -1.0], [2.0, 3.0], [-0.25, 4.0]]))
for name, net in (("emb", emb), ("emb1h", emb1h), ("embp", embp), ("embt", embt)):
    print(name, [(p.name, p.shape, p.requires_grad, str(p.dtype)) for p in net.get_parameters()])
    print("  table", vals(net.embedding_table))

ids1 = Tensor([1, 3, 1, 0], ms.int32)
ids2 = Tensor([[0, 2], [4, 1], [2, 2]], ms.int32)


def run_all():
    for name, net, ids in (("emb", emb, ids1), ("emb", emb, ids2), ("emb1h", emb1h, ids2), ("embp", embp, ids1),
                           ("embt", embt, Tensor([[2, 0, 2]], ms.int32))):
        y = net(ids)
        print(name, ids.shape, "->", y.shape, str(y.dtype), vals(y))
        w = Tensor([[[float((i + 2 * j + k) % 3) - 1.0 for k in range(net.embedding_size)]
                     for j in range(ids.shape[-1])] for i in range(ids.shape[0])]) if ids.ndim == 2 else \
            Tensor([[float(i - j) for j in range(net.embedding_size)] for i in range(ids.shape[0])])
        g = ms.grad(Weighted(net, w), grad_position=None, weights=net.trainable_params())(ids)
        print("  grad table", [vals(t) for t in g])


run_all()
ms.set_context(mode=ms.GRAPH_MODE)
print("GRAPH_MODE")
run_all()
ms.set_context(mode=ms.PYNATIVE_MODE)

errors = [
    ("vocab_size=5.0", lambda: nn.Embedding(5.0, 3)),
    ("embedding_size='3'", lambda: nn.Embedding(5, '3')),
    ("use_one_hot=1", lambda: nn.Embedding(5, 3, use_one_hot=1)),
    ("padding_idx=5", lambda: nn.Embedding(5, 3, padding_idx=5)),
    ("padding_idx=-1", lambda: nn.Embedding(5, 3, padding_idx=-1)),
    ("embedding_table='nope'", lambda: nn.Embedding(5, 3, embedding_table='nope')),
    ("embedding_table shape", lambda: nn.Embedding(2, 3, embedding_table=Tensor([[1.0, 2.0]]))),
    ("dtype=bool_", lambda: nn.Embedding(5, 3, dtype=ms.bool_)),
    ("dtype=float16 lookup", lambda: str(nn.Embedding(5, 3, dtype=ms.float16, use_one_hot=True)(ids1).dtype)),
]
for label, fn in errors:
    attempt(label, lambda fn=fn: fn() and None)
