# mindspore.common.initializer: deterministic initializers (Zero, One, Constant, Identity, Dirac),
# aliases, Tensor(init=...) and init_data, and the argument checks with MindSpore 2.10's messages.
import mindspore as ms
from mindspore import Tensor
from mindspore.common import initializer as init_mod
from mindspore.common.initializer import (initializer, Initializer, Zero, One, Constant, Identity, Dirac, Normal,
                                          XavierUniform, XavierNormal, HeUniform, HeNormal, VarianceScaling,
                                          TruncatedNormal)
from _case_util import attempt, show

t = initializer('ones', [2, 3], ms.float32)
print(type(t).__name__, t.shape, t.dtype, t.has_init, type(t.init).__name__)
print(str(t))
print(t.init_data() is t, t.has_init, t.init)
print(t)
attempt("init_data twice", t.init_data)
attempt("init_data on a plain tensor", Tensor([1.0]).init_data)

for init, shape, dtype in [('zeros', (2, 2), ms.float32), ('ones', [3], ms.int32), (Zero(), 2, ms.float16),
                           (One(), (1, 2), ms.bool_), (Constant(2.7), (2,), ms.int32), (Constant(-1), (2, 1), ms.float64),
                           (Constant(0.5), [2], ms.bool_), (3, (2,), ms.int64), (1.25, 2, ms.float32),
                           (True, [2], ms.float32), ('Identity', (2, 3), ms.float32), ('identity', [3, 2], ms.int32)]:
    x = initializer(init, shape, dtype)
    print(type(x.init).__name__, x.shape, x.dtype, "->", x.init_data().tolist(), x.dtype)

d = initializer(Dirac(groups=2), (4, 2, 3), ms.float32).init_data()
print("dirac3", d.tolist())
d = initializer(Dirac(), (2, 2, 3, 3), ms.float32).init_data()
print("dirac4", d.tolist())
t = Tensor(shape=(1, 3), dtype=ms.float32, init=One())
print(t.shape, t.has_init, t.init_data().tolist())
t = Tensor(shape=2, dtype=ms.int32, init=Constant(7))
print(t.shape, t.dtype, t.asnumpy().tolist() if False else t.init_data().tolist())
x = Tensor([1.0, 2.0])
print(initializer(x, [2]) is x, initializer(x, (2,)) is x)

aliases = sorted(init_mod._INITIALIZER_ALIAS)  # pylint: disable=protected-access
print(aliases)
for name in ['normal', 'Normal', 'truncatedNormal', 'xavier_uniform', 'XAVIER_NORMAL', 'he_uniform', 'he_normal',
             'uniform', 'zeros', 'ones', 'variancescaling', 'orthogonal', 'sparse', 'dirac']:
    attempt(f"alias {name}", lambda name=name: type(initializer(name, [2, 2]).init).__name__)

# initializer argument checks
attempt("init=None", lambda: initializer(None, [2]))
attempt("init=list", lambda: initializer([1, 2], [2]))
attempt("unknown alias", lambda: initializer('gaussian', [2]))
attempt("shape 0", lambda: initializer('ones', [2, 0]))
attempt("shape -1", lambda: initializer('ones', (-1,)))
attempt("shape float", lambda: initializer('ones', 2.0))
attempt("shape str", lambda: initializer('ones', ['2']))
attempt("shape None", lambda: initializer('ones'))
attempt("tensor shape mismatch", lambda: initializer(Tensor([1.0, 2.0]), [3]))
attempt("tensor shape None", lambda: initializer(Tensor([1.0, 2.0])))
attempt("tensor tuple mismatch", lambda: initializer(Tensor([[1.0, 2.0]]), (2, 1)))
attempt("Tensor init without shape", lambda: Tensor(dtype=ms.float32, init=One()))
attempt("Tensor init without dtype", lambda: Tensor(shape=(2,), init=One()))
attempt("Tensor init with data and shape", lambda: Tensor([1.0], shape=(1,), dtype=ms.float32, init=One()))


# errors raised when the data is made
def fill(init, shape, dtype=ms.float32):
    return lambda: initializer(init, shape, dtype).init_data().shape


attempt("xavier_uniform 1-D", fill(XavierUniform(), [3]))
attempt("xavier_normal 1-D", fill(XavierNormal(), 4))
attempt("he_uniform bad mode", fill(HeUniform(mode='fan_avg'), [2, 3]))
attempt("he_uniform FAN_OUT", fill(HeUniform(mode='FAN_OUT'), [2, 3]))
attempt("he_normal bad nonlinearity", fill(HeNormal(nonlinearity='gelu'), [2, 3]))
attempt("he_uniform bad slope", fill(HeUniform(negative_slope='x'), [2, 3]))
attempt("he_uniform bool slope", fill(HeUniform(negative_slope=True), [2, 3]))
attempt("he_normal relu", fill(HeNormal(nonlinearity='relu'), [2, 3]))
attempt("he_normal tanh", fill(HeNormal(nonlinearity='tanh', mode='fan_out'), [2, 3, 2]))
attempt("normal sigma<0", fill(Normal(sigma=-1.0), [2]))
attempt("truncated sigma<0", fill(TruncatedNormal(sigma=-0.5), [2]))
attempt("identity 3-D", fill(Identity(), [2, 2, 2]))
attempt("dirac 2-D", fill(Dirac(), [2, 2]))
attempt("dirac groups", fill(Dirac(groups=3), [4, 2, 3]))
attempt("variance scale", lambda: VarianceScaling(scale=0))
attempt("variance mode", lambda: VarianceScaling(mode='fan'))
attempt("variance distribution", lambda: VarianceScaling(distribution='normal'))
attempt("base initializer", fill(Initializer(), [2]))

# fan computation and gains
for shape in [(3, 4), (8, 3, 5), (2, 3, 4, 5)]:
    print("fan", shape, init_mod._calculate_fan_in_and_fan_out(shape))  # pylint: disable=protected-access
for nl, p in [('linear', None), ('conv2d', None), ('sigmoid', None), ('tanh', None), ('relu', None),
              ('leaky_relu', None), ('leaky_relu', 0), ('leaky_relu', 0.2), ('leaky_relu', 3)]:
    print("gain", nl, p, init_mod._calculate_gain(nl, p))  # pylint: disable=protected-access
try:
    init_mod._calculate_fan_in_and_fan_out((5,))  # pylint: disable=protected-access
except ValueError as e:
    show(e)
print(Normal()._kwargs, Normal(0.5, 1.0).sigma, Normal(0.5, 1.0).mean, TruncatedNormal()._kwargs)  # pylint: disable=protected-access
print(HeUniform()._kwargs, Constant(3).value, XavierUniform(gain=2).gain)  # pylint: disable=protected-access
