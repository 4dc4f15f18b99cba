# Communication API before init(): get_rank()/get_group_size() read RANK_ID / RANK_SIZE at call time.
import os
from mindspore.communication import get_rank, get_group_size
from _case_util import show, attempt


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
