# ranks: 2
# init() with explicit backend names on a CPU machine (device_target CPU), under msrun.
# Our product serves every backend name (hccl, nccl, mccl) with the in-JVM communicator, so each
# worker's first successful init wins and reports rank/size; see DEVIATIONS.md.
import mindspore as ms
from mindspore.communication import init, get_rank, get_group_size, GlobalComm
from _case_util import show, attempt


ms.set_context(device_target="CPU")
attempt("init('nccl')", lambda: init("nccl"))
print("INITED", GlobalComm.INITED)
attempt("init('hccl')", lambda: init("hccl"))
print("INITED", GlobalComm.INITED)
attempt("init('mccl')", lambda: init("mccl"))
print("INITED", GlobalComm.INITED)
print("get_rank", get_rank(), "get_group_size", get_group_size())
