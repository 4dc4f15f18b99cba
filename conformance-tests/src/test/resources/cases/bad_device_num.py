# device_num validation. The seed documents bound device_num to [1, 4096]: 4097 must raise ValueError
# (current MindSpore master accepts it; see DEVIATIONS.md).
import mindspore as ms
from _case_util import get, try_set


for v in [0, -1, 4096, 4097, 1, True, "8", 8.0, None]:
    try_set(device_num=v)
    get("device_num")
