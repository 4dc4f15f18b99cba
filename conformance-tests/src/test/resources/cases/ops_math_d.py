# The elementwise math primitives (Floor, Ceil, Round, Trunc, Sign, Log1p, Expm1, Erfc, Sin, Cos,
# Reciprocal, Rsqrt, IsNan, IsInf, IsFinite, Lgamma), CumSum, the special functions (Igamma,
# Igammac, IgammaGradA, Zeta), Gcd/Lcm, MatrixTriangularSolve, Diag, the math functions composed of
# them (ops.fmax, ops.hypot, ops.kron, ops.trapz ...), the set operations and complex tensors:
# values, dtypes, shapes, errors, and gradients in both modes.
import math

import numpy as np
import mindspore as ms
from mindspore import Tensor, Parameter, ops
from mindspore.ops import operations as P
from mindspore.ops.operations import math_ops as M
from mindspore.ops.operations import sparse_ops as S
from mindspore.ops.operations._grad_ops import IgammaGradA
from _case_util import attempt as _attempt, flush_errors, rounded


def attempt(label, fn):
    _attempt(label, fn)
    flush_errors()


def show(r):
    if isinstance(r, (tuple, list)):
        return tuple(show(t) for t in r)
    if isinstance(r, Tensor):
        values = r.tolist()
        if r.dtype in (ms.complex64, ms.complex128):
            values = [[rounded(z.real), rounded(z.imag)] for z in np.array(values).ravel().tolist()]
        return (str(r.dtype), r.shape, rounded(values))
    return r


def kind(fn):
    """The exception class alone (for errors whose text is the C++ kernel selector's)."""
    def run():
        try:
            return show(fn())
        except Exception as e:  # pylint: disable=broad-except
            flush_errors()
            return type(e).__name__
    return run


edge = Tensor(np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -0.0, float("nan"), float("inf"), -float("inf")],
                       np.float32))
pos = Tensor(np.array([0.25, 1.0, 2.5, 7.0], np.float32))
ints = Tensor(np.array([-3, 0, 4], np.int32))
for name in ("Floor", "Ceil", "Round", "Trunc", "Sign", "Log1p", "Expm1", "Erfc", "Sin", "Cos", "Reciprocal",
             "Rsqrt", "IsNan", "IsInf", "IsFinite"):
    attempt(f"{name}(edge)", lambda name=name: show(getattr(P, name)()(edge)))
    attempt(f"{name}(float64)", lambda name=name: show(getattr(P, name)()(Tensor(np.array([0.3, -1.7]), ms.float64))))
    attempt(f"{name}(int32)", kind(lambda name=name: getattr(P, name)()(ints)))
    attempt(f"{name}(float16)", lambda name=name: show(getattr(P, name)()(Tensor(np.array([0.3, 2.5], np.float16)))))
attempt("Lgamma(pos)", lambda: show(ops.lgamma(pos)))

mat = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))
attempt("CumSum()(mat, 1)", lambda: show(P.CumSum()(mat, 1)))
attempt("CumSum(exclusive)(mat, 1)", lambda: show(P.CumSum(exclusive=True)(mat, 1)))
attempt("CumSum(reverse)(mat, 0)", lambda: show(P.CumSum(reverse=True)(mat, 0)))
attempt("CumSum(True, True)(mat, -1)", lambda: show(P.CumSum(True, True)(mat, -1)))
attempt("CumSum()(int8, 0)", lambda: show(P.CumSum()(Tensor(np.array([100, 100, 100], np.int8)), 0)))
attempt("CumSum()(bool)", lambda: show(P.CumSum()(Tensor(np.array([True, False])), 0)))
attempt("CumSum()(mat, 2)", lambda: show(P.CumSum()(mat, 2)))
attempt("ops.cumsum(mat, 0)", lambda: show(ops.cumsum(mat, 0)))

a = Tensor(np.array([0.5, 1.0, 2.0, 3.5, 10.0, 0.0, -1.0, 1.0, 2.0], np.float32))
x = Tensor(np.array([0.3, 1.0, 2.5, 1.0, 12.0, 1.0, 1.0, 0.0, float("inf")], np.float32))
attempt("Igamma()(a, x)", lambda: show(M.Igamma()(a, x)))
attempt("Igammac()(a, x)", lambda: show(M.Igammac()(a, x)))
attempt("IgammaGradA()(a, x)", lambda: show(IgammaGradA()(a, x)))
attempt("Igamma()(float64)", lambda: show(M.Igamma()(Tensor([1.0, 2.0], ms.float64), Tensor([1.0, 2.0], ms.float64))))
attempt("Igamma()(broadcast)", lambda: show(M.Igamma()(Tensor([[1.0], [2.0]]), Tensor([1.0, 2.0, 3.0]))))
attempt("Igamma()(int32)", lambda: show(M.Igamma()(Tensor([1, 2], ms.int32), Tensor([1, 2], ms.int32))))
attempt("Igamma()(mixed)", lambda: show(M.Igamma()(Tensor([1.0]), Tensor([1.0], ms.float64))))
attempt("ops.igamma(a, x)", lambda: show(ops.igamma(Tensor([2.0]), Tensor([3.0]))))
qx = Tensor(np.array([2.0, 3.0, 1.5, 1.0, 0.5, 2.0, 3.0, 4.0], np.float32))
qq = Tensor(np.array([1.0, 0.5, 2.0, 1.0, 1.0, -1.0, -1.5, 0.001], np.float32))
attempt("Zeta()(x, q)", lambda: show(M.Zeta()(qx, qq)))
attempt("Zeta()(float64)", lambda: show(M.Zeta()(Tensor([2.0, 6.0], ms.float64), Tensor([1.0, 3.0], ms.float64))))
attempt("Zeta()(int32)", lambda: show(M.Zeta()(Tensor([2, 3], ms.int32), Tensor([1, 2], ms.int32))))
attempt("Zeta()(mixed)", lambda: show(M.Zeta()(Tensor([2.0]), Tensor([1.0], ms.float64))))
attempt("gcd", lambda: show(ops.gcd(Tensor([4, -6, 0, 7, 0], ms.int32), Tensor([6, 4, 5, 0, 0], ms.int32))))
attempt("lcm", lambda: show(ops.lcm(Tensor([4, -6, 0, 7], ms.int32), Tensor([6, 4, 5, 0], ms.int32))))
attempt("gcd(int64, int32)", lambda: show(ops.gcd(Tensor([12], ms.int64), Tensor([18], ms.int32))))
attempt("gcd(float32)", lambda: show(ops.gcd(Tensor([4.0]), Tensor([6.0]))))
attempt("lcm(int8)", lambda: show(ops.lcm(Tensor([4], ms.int8), Tensor([6], ms.int8))))

lower = Tensor(np.array([[2.0, 0.0, 0.0], [1.0, 3.0, 0.0], [-1.0, 2.0, 4.0]], np.float32))
rhs = Tensor(np.array([[2.0, 4.0], [5.0, 6.0], [1.0, -3.0]], np.float32))
for lo in (True, False):
    for adj in (False, True):
        attempt(f"MatrixTriangularSolve(lower={lo}, adjoint={adj})",
                lambda lo=lo, adj=adj: show(M.MatrixTriangularSolve(lower=lo, adjoint=adj)(
                    lower if lo else lower.T, rhs)))
attempt("MatrixTriangularSolve(batched)", lambda: show(M.MatrixTriangularSolve()(
    ops.stack([lower, lower * 2.0]), ops.stack([rhs, rhs]))))
attempt("Diag()(mat)", lambda: show(P.Diag()(Tensor([[1.0, 2.0], [3.0, 4.0]]))))
attempt("Diag()(int32)", lambda: show(P.Diag()(Tensor([1, 2, 3], ms.int32))))
attempt("Diag()(scalar)", lambda: show(P.Diag()(Tensor(1.0))))

u = Tensor(np.array([1.0, float("nan"), 3.0, float("nan")], np.float32))
v = Tensor(np.array([2.0, 5.0, float("nan"), float("nan")], np.float32))
funcs = [
    ("fmax", lambda: ops.function.math_func.fmax(u, v)),
    ("nansum", lambda: ops.nansum(u)),
    ("hypot", lambda: ops.hypot(Tensor([3.0, 5.0]), Tensor([4.0, 12.0]))),
    ("heaviside", lambda: ops.heaviside(Tensor([-1.5, 0.0, 2.0]), Tensor([0.5, 0.5, 0.5]))),
    ("ldexp", lambda: ops.ldexp(Tensor([1.0, 3.0]), Tensor([2, 3], ms.int32))),
    ("exp2", lambda: ops.exp2(Tensor([1.0, 2.0, 3.0], ms.float16))),
    ("log2", lambda: ops.log2(Tensor([1.0, 2.0, 8.0]))),
    ("log10", lambda: ops.log10(Tensor([1.0, 100.0]))),
    ("deg2rad", lambda: ops.deg2rad(Tensor([90.0, -180.0]))),
    ("rad2deg", lambda: ops.rad2deg(Tensor([math.pi, -math.pi / 2]))),
    ("frac", lambda: ops.frac(Tensor([2.0, 4.25, -2.5]))),
    ("remainder", lambda: ops.remainder(Tensor([-1.0, 5.0, 6.0]), Tensor([3.0, 2.0, -4.0]))),
    ("logaddexp", lambda: ops.logaddexp(Tensor([1.0, 2.0, 3.0]), Tensor([2.0]))),
    ("logaddexp2", lambda: ops.logaddexp2(Tensor([1.0, 2.0, 3.0]), Tensor([2.0]))),
    ("copysign", lambda: ops.copysign(Tensor([[0.3, -0.7], [0.5, 0.5]]), Tensor([[-0.4, 0.6], [0.4, -0.6]]))),
    ("outer", lambda: ops.outer(Tensor([1.0, 2.0, 3.0]), Tensor([1.0, 2.0]))),
    ("mv", lambda: ops.mv(Tensor([[3.0, 4.0], [1.0, 6.0], [1.0, 3.0]]), Tensor([1.0, 2.0]))),
    ("addmv", lambda: ops.addmv(Tensor([1, 1], ms.int32), Tensor([[1, 2, 1], [1, 1, 1]], ms.int32),
                                Tensor([1, 1, 1], ms.int32))),
    ("addr", lambda: ops.addr(Tensor(np.zeros((3, 2), np.float32)), Tensor([1.0, 2.0, 3.0]), Tensor([1.0, 2.0]),
                              beta=2, alpha=0.5)),
    ("baddbmm", lambda: ops.baddbmm(Tensor(np.ones([1, 2, 2], np.float32)), Tensor(np.ones([1, 2, 3], np.float32)),
                                    Tensor(np.ones([1, 3, 2], np.float32)), beta=0.5, alpha=2.0)),
    ("kron", lambda: ops.kron(Tensor([[0.0, 1.0], [2.0, 3.0]]), Tensor([[1.0, -1.0, 2.0]]))),
    ("rot90 k=1", lambda: ops.rot90(Tensor([[0.0, 1.0], [2.0, 3.0]]), 1, [0, 1])),
    ("rot90 k=2", lambda: ops.rot90(Tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]), 2, [0, 1])),
    ("rot90 k=-1", lambda: ops.rot90(Tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]), -1, [0, 1])),
    ("trapz dx", lambda: ops.trapz(Tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]), dx=2.0)),
    ("trapz x", lambda: ops.trapz(Tensor([[0.0, 1.0, 4.0]]), Tensor([[0.0, 1.0, 3.0]]))),
    ("atleast_2d", lambda: ops.atleast_2d([Tensor(1.0), Tensor([1.0, 2.0])])),
    ("atleast_3d", lambda: ops.atleast_3d(Tensor([[1.0, 2.0]]))),
    ("vstack", lambda: ops.vstack([Tensor([1, 2, 3], ms.int32), Tensor([4, 5, 6], ms.int32)])),
    ("dstack", lambda: ops.dstack([Tensor([1.0, 2.0]), Tensor([3.0, 4.0])])),
    ("diff", lambda: ops.diff(Tensor([1, 3, -1, 0, 4], ms.int32))),
    ("block_diag", lambda: ops.block_diag(Tensor([[4], [3], [2]], ms.int32), Tensor([7, 6, 5], ms.int32),
                                          Tensor(1, ms.int32))),
    ("cartesian_prod", lambda: ops.cartesian_prod(Tensor([1, 2], ms.int32), Tensor([5, 6, 7], ms.int32))),
    ("combinations", lambda: ops.combinations(Tensor([1, 3, -1, 0], ms.int32))),
    ("combinations r=3 repl", lambda: ops.combinations(Tensor([1.0, 2.0]), 3, True)),
    ("dist p=2", lambda: ops.dist(Tensor([[1.0, 1.0], [2.0, 2.0]]), Tensor([[3.0, 3.0], [3.0, 3.0]]))),
    ("dist p=1", lambda: ops.dist(Tensor([[1.0, 1.0], [2.0, 2.0]]), Tensor([[3.0, 3.0], [3.0, 3.0]]), 1)),
    ("hann_window", lambda: ops.hann_window(5)),
    ("hann_window(periodic=False, float32)", lambda: ops.hann_window(5, False, dtype=ms.float32)),
    ("kaiser_window", lambda: ops.kaiser_window(5)),
    ("isreal", lambda: ops.isreal(Tensor([1.0, 2.0]))),
    ("polar", lambda: ops.polar(Tensor([1.0, 2.0]), Tensor([0.0, math.pi / 2]))),
    ("outer(int)", lambda: ops.outer([1, 2], Tensor([1.0]))),
    ("rot90(dims=[0])", lambda: ops.rot90(Tensor([[0.0, 1.0]]), 1, [0])),
    ("deg2rad(int)", kind(lambda: ops.deg2rad(Tensor([90], ms.int32)))),
]
for label, fn in funcs:
    attempt(label, lambda fn=fn: show(fn()))

var = Parameter(Tensor(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)), name="var")
attempt("InplaceIndexAdd", lambda: show(ops.inplace_index_add(
    var, Tensor([0, 2, 0], ms.int32), Tensor(np.array([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]], np.float32)), 0)))
print("var after InplaceIndexAdd:", var.asnumpy().tolist())

for op in ("a-b", "b-a", "intersection", "union"):
    attempt(f"DenseToDenseSetOperation({op})", lambda op=op: show(S.DenseToDenseSetOperation(set_operation=op)(
        Tensor([[1, 2, 4], [3, 4, 5]], ms.int32), Tensor([[3, 2, 5], [1, 4, 7]], ms.int32))))

# Complex tensors: construction, printing, conversion, parts.
z = Tensor([1, 1 + 1j, 2 + 0j])
print("repr z:", repr(z))
print("str z:", str(z))
print("z tolist:", z.tolist(), "asnumpy dtype:", z.asnumpy().dtype)
z64 = Tensor(np.array([[1 + 2j, 3 - 1j]], np.complex64))
print("repr z64:", repr(z64))
print("str z64:", str(z64))
print("scalar:", repr(Tensor(1.5 - 2j)), Tensor(1.5 - 2j).item())
attempt("real(z)", lambda: show(ops.real(z)))
attempt("imag(z64)", lambda: show(ops.imag(z64)))
attempt("isreal(z)", lambda: show(ops.isreal(z)))
attempt("Complex()", lambda: show(P.Complex()(Tensor([1.0, 2.0]), Tensor([3.0, -4.0]))))
attempt("Complex(float64)", lambda: show(P.Complex()(Tensor([1.0], ms.float64), Tensor([3.0], ms.float64))))
attempt("z.astype(float32)", lambda: show(z.astype(ms.float32)))
attempt("Tensor(complex array, float32)", lambda: show(Tensor(np.array([1.5 + 2j]), ms.float32)))
attempt("z.is_complex()", lambda: z.is_complex())


# Gradients through the new operators, in both modes.
class Net(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([[0.5, 1.5, 2.0], [1.0, 0.75, 3.0]], np.float32)), name="w")

    def construct(self, t, q):
        h = P.Log1p()(t * self.w) + P.Sin()(self.w) * P.Cos()(t) + P.Erfc()(t) * P.Expm1()(self.w * 0.1)
        h = P.CumSum()(h, 1) + P.Rsqrt()(self.w) + P.Reciprocal()(t + 2.0) + P.Floor()(t) * self.w
        h = h + M.Igamma()(self.w, t + 0.5) + M.Igammac()(t + 1.0, self.w) + M.Zeta()(t + 2.0, self.w)
        tri = M.MatrixTriangularSolve(lower=True)(ops.stack([lower, lower]),
                                                  P.Reshape()(h, (2, 3, 1)) * q)
        return (tri * tri).sum() + ops.hypot(t, self.w).sum() + ops.logaddexp(t, self.w).sum() + \
            P.Lgamma()(self.w).sum()


def r4(values):
    """4 significant digits: the special functions' float32 gradients differ in the 6th."""
    if isinstance(values, list):
        return [r4(v) for v in values]
    return float(f"{values:.4g}")


t_in = Tensor(np.array([[0.25, 1.0, 2.0], [0.5, 1.5, 0.125]], np.float32))
q_in = Tensor(np.array([[[1.0], [2.0], [0.5]], [[1.5], [1.0], [2.0]]], np.float32))
for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    net = Net()
    grads = ms.grad(net, grad_position=(0, 1), weights=net.trainable_params())(t_in, q_in)
    print("mode", mode, "loss", r4(net(t_in, q_in).tolist()))
    print("  d/dt", r4(grads[0][0].tolist()))
    print("  d/dq", r4(grads[0][1].tolist()))
    print("  d/dw", r4(grads[1][0].tolist()))
