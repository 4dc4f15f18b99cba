# strategy_ckpt_load_file / strategy_ckpt_save_file / strategy_ckpt_config validation.
import mindspore as ms
from _case_util import show


def try_set(**kw):
    label = ", ".join(f"{k}={v!r}" for k, v in kw.items())
    try:
        ms.set_auto_parallel_context(**kw)
        print(f"set {label} -> ok")
    except Exception as e:  # pylint: disable=broad-except
        print(f"set {label} -> ", end="")
        show(e)


def get(key):
    try:
        print(f"get {key} = {ms.get_auto_parallel_context(key)!r}")
    except Exception as e:  # pylint: disable=broad-except
        print(f"get {key} -> ", end="")
        show(e)


try_set(strategy_ckpt_load_file=1)
try_set(strategy_ckpt_save_file=b"x.ckpt")
try_set(strategy_ckpt_config="a.ckpt")
try_set(strategy_ckpt_config={"load_file": "./l.ckpt", "bad_key": 1})
get("strategy_ckpt_config")
try_set(strategy_ckpt_config={"load_file": 1})
try_set(strategy_ckpt_config={"save_file": 2})
try_set(strategy_ckpt_config={"only_trainable_params": "yes"})
try_set(strategy_ckpt_config={"save_file": "./s.ckpt"})
get("strategy_ckpt_config")
get("strategy_ckpt_load_file")
get("strategy_ckpt_save_file")
try_set(strategy_ckpt_config={})
get("strategy_ckpt_config")
try_set(strategy_ckpt_load_file="./x.ckpt")
get("strategy_ckpt_config")
