# Reshape, ExpandDims, Squeeze, Transpose, Flatten and the Tensor methods behind them.
from mindspore import Tensor, ops
from _case_util import attempt

try:
    # MindSpore 2.10 fails the first Reshape in a process (a SystemError about NumPy 1.x
    # modules); later calls work. Warm it up silently.
    str(ops.Reshape()(Tensor([1.0]), (1,)))
except (SystemError, ImportError):
    pass

x = Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
y = Tensor([[[1.0], [2.0]]])
c = Tensor([[[1, 2], [3, 4]], [[5, 6], [7, 8]]])
cases = [
    ("Reshape()(x, (3, 2))", lambda: ops.Reshape()(x, (3, 2))), ("Reshape()(x, (-1,))", lambda: ops.Reshape()(x, (-1,))),
    ("Reshape()(x, [3, -1])", lambda: ops.Reshape()(x, [3, -1])), ("Reshape()(Tensor([5]), ())", lambda: ops.Reshape()(Tensor([5]), ())),
    # Reshape's other errors (-1 twice, -2) surface asynchronously in MindSpore and then repeat the
    # previous error's text on later calls; ShapeOpsTest holds their texts, measured one per process.
    ("Reshape()(x, (4, 2))", lambda: ops.Reshape()(x, (4, 2))),
    ("Reshape()(x, 6)", lambda: ops.Reshape()(x, 6)),
    ("ExpandDims()(x, 0)", lambda: ops.ExpandDims()(x, 0)), ("ExpandDims()(x, -1)", lambda: ops.ExpandDims()(x, -1)),
    ("ExpandDims()(x, 3)", lambda: ops.ExpandDims()(x, 3)), ("ExpandDims()(x, -4)", lambda: ops.ExpandDims()(x, -4)),
    ("Squeeze()(y)", lambda: ops.Squeeze()(y)), ("Squeeze(0)(y)", lambda: ops.Squeeze(0)(y)),
    ("Squeeze((0, 2))(y)", lambda: ops.Squeeze((0, 2))(y)), ("Squeeze(1)(y)", lambda: ops.Squeeze(1)(y)),
    ("Transpose()(x, (1, 0))", lambda: ops.Transpose()(x, (1, 0))), ("Transpose()(c, (2, 0, 1))", lambda: ops.Transpose()(c, (2, 0, 1))),
    ("Transpose()(x, (-1, 0))", lambda: ops.Transpose()(x, (-1, 0))),
    ("Flatten()(c)", lambda: ops.Flatten()(c)), ("Flatten()(Tensor([1, 2]))", lambda: ops.Flatten()(Tensor([1, 2]))),
    ("x.reshape(3, 2)", lambda: x.reshape(3, 2)), ("x.reshape((6,))", lambda: x.reshape((6,))),
    ("x.transpose()", lambda: x.transpose()), ("x.transpose(1, 0)", lambda: x.transpose(1, 0)), ("x.T", lambda: x.T),
    ("x.flatten()", lambda: x.flatten()), ("y.squeeze()", lambda: y.squeeze()), ("x.expand_dims(1)", lambda: x.expand_dims(1)),
    ("Transpose()(x, (0, 0))", lambda: ops.Transpose()(x, (0, 0))),
    ("Flatten()(Tensor(1))", lambda: ops.Flatten()(Tensor(1))),
    ("Squeeze(3)(y)", lambda: ops.Squeeze(3)(y)),  # last: MindSpore repeats this error on the next call
]
for label, fn in cases:
    attempt(label, lambda fn=fn: (lambda r: (str(r.dtype), r.shape, r.tolist()))(fn()))
