# mindspore.common.initializer random initializers after set_seed: the exact values MindSpore 2.10
# draws (Philox streams seeded from numpy's generator, which set_seed re-seeds), in order.
import mindspore as ms
from mindspore import Parameter
from mindspore.common.initializer import (initializer, Normal, Uniform, TruncatedNormal, XavierUniform,
                                          XavierNormal, HeUniform, HeNormal, VarianceScaling)

ms.set_seed(42)
w = Parameter(initializer(Normal(), [2, 3], ms.float32), name='w')
print("w", w.has_init, w.tolist())
print("u", initializer(Uniform(), [5], ms.float32).init_data().tolist())
print("t", initializer(TruncatedNormal(), [4], ms.float32).init_data().tolist())
print("t2", initializer(TruncatedNormal(sigma=1.0, mean=0.2, a=-0.5, b=1.0), [6]).init_data().tolist())

ms.set_seed(1)
for init in [Normal(sigma=0.5, mean=1.0), Uniform(scale=2), XavierUniform(), XavierNormal(gain=2),
             HeUniform(), HeNormal(mode='fan_out', nonlinearity='relu'), 'normal', 'uniform', 'truncatedNormal',
             'xavier_uniform', 'he_uniform', 'he_normal', VarianceScaling(), VarianceScaling(distribution='untruncated_normal'),
             VarianceScaling(scale=2.0, mode='fan_avg', distribution='uniform')]:
    x = initializer(init, (3, 2, 2), ms.float32).init_data()
    print(init if isinstance(init, str) else type(init).__name__, x.tolist())

# other dtypes: float32 values cast as numpy does
ms.set_seed(7)
print("f16", initializer(Normal(sigma=1.0), [5], ms.float16).init_data().tolist())
print("f64", initializer(Uniform(), [3], ms.float64).init_data().tolist())
print("i32", initializer(Normal(sigma=10.0), [6], ms.int32).init_data().tolist())

# same seed, same values; the stream moves on between calls
ms.set_seed(123)
a = initializer('normal', [4]).init_data().tolist()
b = initializer('normal', [4]).init_data().tolist()
ms.set_seed(123)
c = initializer('normal', [4]).init_data().tolist()
print(a == c, a != b)

# a big parameter (MindSpore fills it on several threads)
ms.set_seed(3)
big = initializer(Normal(sigma=1.0), (64, 50), ms.float32).init_data()
values = [v for row in big.tolist() for v in row]
print(len(values), values[:3], values[1023:1026], values[-3:])
print(round(sum(values) / len(values), 6), round(sum(v * v for v in values) / len(values), 6))
