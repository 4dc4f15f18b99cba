# mindspore.runtime.set_memory (valid and invalid values).
import mindspore as ms
import mindspore.runtime
from _case_util import show, attempt


# invalid values first: once a set_memory call succeeds, any later call raises RuntimeError
attempt("init_size='2G'", lambda: ms.runtime.set_memory(init_size="2G"))
attempt("init_size='0GB'", lambda: ms.runtime.set_memory(init_size="0GB"))
attempt("increase_size='-1GB'", lambda: ms.runtime.set_memory(increase_size="-1GB"))
attempt("max_size=3", lambda: ms.runtime.set_memory(max_size=3))
attempt("max_size='3gb'", lambda: ms.runtime.set_memory(max_size="3gb"))
attempt("optimize_level='O2'", lambda: ms.runtime.set_memory(optimize_level="O2"))
attempt("huge_page_reserve_size='1G'", lambda: ms.runtime.set_memory(huge_page_reserve_size="1G"))
attempt("unknown key", lambda: ms.runtime.set_memory(no_such_key="1GB"))
attempt("valid: init_size='2GB', increase_size='1GB', max_size='3.5GB', optimize_level='O1', huge_page_reserve_size='0GB'",
        lambda: ms.runtime.set_memory(init_size="2GB", increase_size="1GB", max_size="3.5GB", optimize_level="O1",
                                      huge_page_reserve_size="0GB"))
attempt("again: max_size='4GB'", lambda: ms.runtime.set_memory(max_size="4GB"))
attempt("again invalid: max_size='4G'", lambda: ms.runtime.set_memory(max_size="4G"))
