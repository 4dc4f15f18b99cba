# set_seed / get_seed (valid and invalid).
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

print("default seed", ms.get_seed())
attempt("set_seed(42)", lambda: ms.set_seed(42))
print("seed", ms.get_seed())
attempt("set_seed(0)", lambda: ms.set_seed(0))
print("seed", ms.get_seed())
attempt("set_seed(-1)", lambda: ms.set_seed(-1))
attempt("set_seed(1.5)", lambda: ms.set_seed(1.5))
attempt("set_seed('1')", lambda: ms.set_seed("1"))
attempt("set_seed(True)", lambda: ms.set_seed(True))
print("seed", ms.get_seed())
attempt("set_seed(2**32)", lambda: ms.set_seed(2 ** 32))
print("seed", ms.get_seed())
