# ranks: 2
# init() with explicit backend names on a CPU machine (device_target CPU), under msrun.
# Our product serves every backend name (hccl, nccl, mccl) with the in-JVM communicator, so each
# worker's first successful init wins and reports rank/size; see DEVIATIONS.md.
import mindspore as ms
from mindspore.communication import init, get_rank, get_group_size, GlobalComm


def show(e):
    s = str(e)
    if "\n" in s:
        s = s.strip().splitlines()[0]
    print(f"{type(e).__name__}: {s}")


def attempt(label, fn):
    try:
        r = fn()
        print(f"{label} -> ok" + ("" if r is None else f" {r!r}"))
    except Exception as e:  # pylint: disable=broad-except
        print(f"{label} -> ", end="")
        show(e)

ms.set_context(device_target="CPU")
attempt("init('nccl')", lambda: init("nccl"))
print("INITED", GlobalComm.INITED)
attempt("init('hccl')", lambda: init("hccl"))
print("INITED", GlobalComm.INITED)
attempt("init('mccl')", lambda: init("mccl"))
print("INITED", GlobalComm.INITED)
print("get_rank", get_rank(), "get_group_size", get_group_size())
