# Communication API before init(): get_rank()/get_group_size() read RANK_ID / RANK_SIZE at call time.
import os
from mindspore.communication import get_rank, get_group_size


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

os.environ["RANK_ID"] = "3"
os.environ["RANK_SIZE"] = "8"
attempt("get_rank()", get_rank)
attempt("get_group_size()", get_group_size)
os.environ["RANK_ID"] = "5"
attempt("get_rank() after RANK_ID=5", get_rank)
del os.environ["RANK_ID"]
del os.environ["RANK_SIZE"]
attempt("get_rank() unset", get_rank)
attempt("get_group_size() unset", get_group_size)
