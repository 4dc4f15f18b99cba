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
