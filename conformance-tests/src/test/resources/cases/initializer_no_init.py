# nn.utils.no_init_parameters: Parameters built from initializer() inside it keep their initializer
# until init_data(); as a context manager and as a decorator (MindSpore 2.10).
import mindspore as ms
from mindspore import Parameter, Tensor
from mindspore.common.initializer import initializer, Normal, One
from mindspore.nn.utils import no_init_parameters

ms.set_seed(5)
with no_init_parameters():
    p = Parameter(initializer(Normal(), [2, 2], ms.float32), name='p')
    q = Parameter(initializer('zeros', [3], ms.int32), name='q')
    r = Parameter(Tensor([1.0, 2.0]), name='r')
print(p.has_init, type(p.init_mode).__name__, p.shape, p.dtype, p)
print(q.has_init, q.shape, q.dtype, r.has_init, r.init_mode)
print(Parameter.init_param)
e = Parameter(initializer(Normal(), [2], ms.float32), name='e')
print("eager", e.has_init, e.init_mode, e.tolist())
print(p.init_data() is p, p.has_init, p.init_mode, p.tolist())
print(q.init_data() is q, q.tolist(), r.init_data() is r)


@no_init_parameters()
def make():
    return Parameter(initializer(One(), [2], ms.float16), name='m')


m = make()
print(m.has_init, Parameter.init_param, m.init_data().tolist(), m.dtype)

with no_init_parameters():
    s = Parameter(initializer('ones', [2], ms.float32), name='s')
s.set_data(Tensor([3.0, 4.0]))
print(s.has_init, s.tolist())
try:
    with no_init_parameters():
        raise KeyError("boom")
except KeyError:
    print("restored", Parameter.init_param)
