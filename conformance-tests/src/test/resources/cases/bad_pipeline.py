# pipeline_stages / pipeline_segments / pipeline_config validation.
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


for v in [0, -2, True, "2", 2.0, 4]:
    try_set(pipeline_stages=v)
    get("pipeline_stages")
for v in [0, True, 3]:
    try_set(pipeline_segments=v)
get("pipeline_segments")
try_set(pipeline_config=[("pipeline_interleave", True)])
try_set(pipeline_config={"pipeline_interleave": True})
try_set(pipeline_config={"pipeline_scheduler": "gpipe"})
try_set(pipeline_config={"pipeline_interleave": True, "pipeline_scheduler": "gpipe", "x": 1})
try_set(pipeline_config={"pipeline_interleave": 1, "pipeline_scheduler": "1f1b"})
try_set(pipeline_config={"pipeline_interleave": True, "pipeline_scheduler": "zb"})
try_set(pipeline_config={"pipeline_interleave": False, "pipeline_scheduler": "gpipe"})
get("pipeline_interleave")
get("pipeline_scheduler")
try_set(pipeline_config={"pipeline_interleave": True, "pipeline_scheduler": "seqpipe"})
get("pipeline_interleave")
get("pipeline_scheduler")
try_set(pipeline_config={"pipeline_interleave": False, "pipeline_scheduler": "1f1b"})
get("pipeline_interleave")
get("pipeline_scheduler")
get("pipeline_config")
