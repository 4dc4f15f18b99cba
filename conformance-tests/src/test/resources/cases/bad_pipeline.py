# pipeline_stages / pipeline_segments / pipeline_config validation.
import mindspore as ms
from _case_util import get, try_set


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
