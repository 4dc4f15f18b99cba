"""``mindspore.ops.auto_generate``: the generated primitives (``gen_ops_prim``)."""
from mindspore.ops.auto_generate.gen_ops_prim import *  # noqa: F401,F403
from mindspore.ops.auto_generate.gen_ops_prim import AddExt, OnesLikeExt, SubExt, SumExt, ZerosLikeExt  # noqa: F401
from mindspore.ops.auto_generate import gen_ops_def  # noqa: E402,F401
from mindspore.ops.auto_generate.gen_ops_prim import AddcmulExt  # noqa: E402

# MindSpore exposes one instance per generated primitive under the lower-case name with ``_op``.
addcmul_ext_op = AddcmulExt()
