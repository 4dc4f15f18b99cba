# set_context / get_context: mode, device_target, device_id, max_device_memory (valid and invalid).
import mindspore as ms


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

print("mode", ms.get_context("mode"))
print("device_target", ms.get_context("device_target"))
print("device_id", ms.get_context("device_id"))
attempt("mode=GRAPH_MODE", lambda: ms.set_context(mode=ms.GRAPH_MODE))
print("mode", ms.get_context("mode"))
attempt("mode=PYNATIVE_MODE", lambda: ms.set_context(mode=ms.PYNATIVE_MODE))
print("mode", ms.get_context("mode"))
attempt("mode=2", lambda: ms.set_context(mode=2))
attempt("mode='GRAPH_MODE'", lambda: ms.set_context(mode="GRAPH_MODE"))
attempt("mode=True", lambda: ms.set_context(mode=True))
print("mode", ms.get_context("mode"))
attempt("device_target='CPU'", lambda: ms.set_context(device_target="CPU"))
print("device_target", ms.get_context("device_target"))
attempt("device_target='TPU'", lambda: ms.set_context(device_target="TPU"))
attempt("device_target='cpu'", lambda: ms.set_context(device_target="cpu"))
attempt("device_target=1", lambda: ms.set_context(device_target=1))
print("device_target", ms.get_context("device_target"))
attempt("device_id=0", lambda: ms.set_context(device_id=0))
attempt("device_id=-1", lambda: ms.set_context(device_id=-1))
attempt("device_id=4096", lambda: ms.set_context(device_id=4096))
attempt("device_id='0'", lambda: ms.set_context(device_id="0"))
print("device_id", ms.get_context("device_id"))
attempt("max_device_memory='3.5GB'", lambda: ms.set_context(max_device_memory="3.5GB"))
print("max_device_memory", ms.get_context("max_device_memory"))
attempt("max_device_memory='2G'", lambda: ms.set_context(max_device_memory="2G"))
attempt("max_device_memory='0GB'", lambda: ms.set_context(max_device_memory="0GB"))
attempt("max_device_memory=2", lambda: ms.set_context(max_device_memory=2))
attempt("unknown key", lambda: ms.set_context(no_such_key=1))
attempt("get unknown key", lambda: ms.get_context("no_such_key"))
