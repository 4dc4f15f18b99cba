"""Helpers shared by the conformance cases (imported from the script's directory, which is on
sys.path both under CPython with real MindSpore and under bin/mspython / bin/msrun)."""


def show(e):
    """Prints an exception as ``Type: message`` (first line only of multi-line C++ texts)."""
    s = str(e)
    if "\n" in s:
        s = s.strip().splitlines()[0]
    print(f"{type(e).__name__}: {s}")


def attempt(label, fn):
    """Runs ``fn`` and prints ``label -> ok [result]`` or ``label -> Type: message``."""
    try:
        r = fn()
        print(f"{label} -> ok" + ("" if r is None else f" {r!r}"))
    except Exception as e:  # pylint: disable=broad-except
        print(f"{label} -> ", end="")
        show(e)


def flush_errors():
    """MindSpore 2.10 reports a kernel failure again at the next operator run: runs a few throw-away
    operators so that the next case starts clean (a no-op for msjvm)."""
    from mindspore import Tensor  # pylint: disable=import-outside-toplevel
    from mindspore.ops import operations as P  # pylint: disable=import-outside-toplevel
    for _ in range(3):
        try:
            P.Add()(Tensor(1.0), Tensor(1.0)).asnumpy()
        except Exception:  # pylint: disable=broad-except
            pass


def try_set(**kw):
    """Calls ``set_auto_parallel_context(**kw)`` and prints ``set k=v -> ok`` or the exception."""
    import mindspore as ms  # pylint: disable=import-outside-toplevel
    label = ", ".join(f"{k}={v!r}" for k, v in kw.items())
    try:
        ms.set_auto_parallel_context(**kw)
        print(f"set {label} -> ok")
    except Exception as e:  # pylint: disable=broad-except
        print(f"set {label} -> ", end="")
        show(e)


def get(key):
    """Prints ``get key = value`` from ``get_auto_parallel_context`` or the exception."""
    import mindspore as ms  # pylint: disable=import-outside-toplevel
    try:
        print(f"get {key} = {ms.get_auto_parallel_context(key)!r}")
    except Exception as e:  # pylint: disable=broad-except
        print(f"get {key} -> ", end="")
        show(e)


def rounded(values):
    """Floats (also inside nested lists) to 5 significant digits, for values whose last float32
    bits legitimately differ between MindSpore's kernels and ours."""
    if isinstance(values, list):
        return [rounded(v) for v in values]
    return float(f"{values:.5g}") if isinstance(values, float) else values


def fix(v):
    """Floats (also inside nested lists) to 5 significant digits and at most 4 decimals: float32
    sums differ in the last bits, so a weight gradient that is exactly 0 here is 1.1921e-07 there."""
    if isinstance(v, list):
        return [fix(e) for e in v]
    return float(f"{rounded(v):.4f}") + 0.0 if isinstance(v, float) else v


def vals(t):
    """A tensor's values, fixed as :func:`fix`."""
    return fix(t.tolist())
