# strategy_ckpt_load_file / strategy_ckpt_save_file / strategy_ckpt_config validation.
import mindspore as ms
from _case_util import get, try_set


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
