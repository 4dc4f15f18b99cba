"""``mindspore.ops.auto_generate``: the generated primitives (``gen_ops_prim``)."""
from mindspore.ops.auto_generate.gen_ops_prim import *  # noqa: F401,F403
from mindspore.ops.auto_generate.gen_ops_prim import AddExt, OnesLikeExt, SubExt, SumExt, ZerosLikeExt  # noqa: F401
