# Dynamic learning rate lists (nn.*_lr) and LearningRateSchedule cells evaluated at given steps.
import mindspore as ms
from mindspore import nn, Tensor
from _case_util import rounded

print("piecewise", rounded(nn.piecewise_constant_lr([2, 5, 6], [0.1, 0.05, 0.01])))
print("exponential", rounded(nn.exponential_decay_lr(0.1, 0.9, 6, 2, 1)))
print("exponential stair", rounded(nn.exponential_decay_lr(0.1, 0.9, 6, 1, 2, True)))
print("natural_exp", rounded(nn.natural_exp_decay_lr(0.1, 0.9, 6, 2, 2)))
print("natural_exp stair", rounded(nn.natural_exp_decay_lr(0.1, 0.9, 6, 2, 2, True)))
print("inverse", rounded(nn.inverse_decay_lr(0.1, 0.5, 6, 1, 2)))
print("inverse stair", rounded(nn.inverse_decay_lr(0.1, 0.5, 6, 1, 2, True)))
print("cosine", rounded(nn.cosine_decay_lr(0.01, 0.1, 6, 1, 4)))
print("polynomial", rounded(nn.polynomial_decay_lr(0.1, 0.01, 6, 1, 3, 0.5)))
print("polynomial update", rounded(nn.polynomial_decay_lr(0.1, 0.01, 6, 1, 2, 2.0, True)))
print("warmup", rounded(nn.warmup_lr(0.1, 6, 1, 3)))

schedules = [
    ("ExponentialDecayLR", nn.ExponentialDecayLR(0.1, 0.9, 2)),
    ("ExponentialDecayLR stair", nn.ExponentialDecayLR(0.1, 0.9, 2, True)),
    ("NaturalExpDecayLR", nn.NaturalExpDecayLR(0.1, 0.9, 2)),
    ("NaturalExpDecayLR stair", nn.NaturalExpDecayLR(0.1, 0.9, 2, True)),
    ("InverseDecayLR", nn.InverseDecayLR(0.1, 0.5, 2)),
    ("InverseDecayLR stair", nn.InverseDecayLR(0.1, 0.5, 2, True)),
    ("CosineDecayLR", nn.CosineDecayLR(0.01, 0.1, 4)),
    ("PolynomialDecayLR", nn.PolynomialDecayLR(0.1, 0.01, 3, 0.5)),
    ("PolynomialDecayLR update", nn.PolynomialDecayLR(0.1, 0.01, 2, 2.0, True)),
    ("WarmUpLR", nn.WarmUpLR(0.1, 3)),
]
for name, sched in schedules:
    values = []
    for step in range(6):
        out = sched(Tensor(step, ms.int32))
        values.append(rounded(out.item()))
    print(name, values)
