# init() argument validation in a plain (non-launched) process, and init() without a launcher.
import mindspore as ms
from mindspore.communication import init, GlobalComm, get_rank, get_group_size
from _case_util import show, attempt


ms.set_context(device_target="CPU")
attempt("init(1)", lambda: init(1))
attempt("init(['mccl'])", lambda: init(["mccl"]))
attempt("init('gloo')", lambda: init("gloo"))
attempt("init('MCCL')", lambda: init("MCCL"))
print("GlobalComm.INITED =", GlobalComm.INITED)
attempt("init()", init)
print("GlobalComm.INITED =", GlobalComm.INITED)
attempt("get_rank()", get_rank)
attempt("get_group_size()", get_group_size)
