# set_algo_parameters / get_algo_parameters / reset_algo_parameters: all keys, ranges, errors.
import mindspore as ms
from _case_util import show, attempt


KEYS = ["fully_use_devices", "elementwise_op_strategy_follow", "enable_algo_approxi", "algo_approxi_epsilon",
        "tensor_slice_align_enable", "tensor_slice_align_size"]


def dump(title):
    print(f"-- {title}")
    for k in KEYS:
        print(f"{k} = {ms.get_algo_parameters(k)!r}")


dump("defaults")
attempt("fully_use_devices=True", lambda: ms.set_algo_parameters(fully_use_devices=True))
attempt("elementwise_op_strategy_follow=True", lambda: ms.set_algo_parameters(elementwise_op_strategy_follow=True))
attempt("enable_algo_approxi=True", lambda: ms.set_algo_parameters(enable_algo_approxi=True))
attempt("algo_approxi_epsilon=0.2", lambda: ms.set_algo_parameters(algo_approxi_epsilon=0.2))
attempt("tensor_slice_align_enable=True", lambda: ms.set_algo_parameters(tensor_slice_align_enable=True))
attempt("tensor_slice_align_size=8", lambda: ms.set_algo_parameters(tensor_slice_align_size=8))
dump("after set")
attempt("tensor_slice_align_size=0", lambda: ms.set_algo_parameters(tensor_slice_align_size=0))
attempt("tensor_slice_align_size=1025", lambda: ms.set_algo_parameters(tensor_slice_align_size=1025))
attempt("tensor_slice_align_size=1024", lambda: ms.set_algo_parameters(tensor_slice_align_size=1024))
attempt("tensor_slice_align_size=1", lambda: ms.set_algo_parameters(tensor_slice_align_size=1))
attempt("algo_approxi_epsilon=0", lambda: ms.set_algo_parameters(algo_approxi_epsilon=0.0))
attempt("algo_approxi_epsilon=1.5", lambda: ms.set_algo_parameters(algo_approxi_epsilon=1.5))
attempt("algo_approxi_epsilon=1.0", lambda: ms.set_algo_parameters(algo_approxi_epsilon=1.0))
attempt("unknown key", lambda: ms.set_algo_parameters(no_such_key=True))
attempt("get unknown key", lambda: ms.get_algo_parameters("no_such_key"))
attempt("order: fully_use_devices=False, bad", lambda: ms.set_algo_parameters(fully_use_devices=False, bad=1))
dump("before reset")
ms.reset_algo_parameters()
dump("after reset")
