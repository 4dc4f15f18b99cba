# set_seed / get_seed (valid and invalid).
import mindspore as ms
from _case_util import show, attempt


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
