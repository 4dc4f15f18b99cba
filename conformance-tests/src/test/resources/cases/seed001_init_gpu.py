# ranks: 2
# Seed 001 (r1.2 programming guide), snippet "init": set_context(device_target='GPU'); init().
# On our product the GPU target falls back to CPU (warning on stderr) and init() succeeds.
from mindspore import context
from mindspore.communication.management import init, get_rank, get_group_size

context.set_context(device_target='GPU')
init()
print("init done", get_rank(), get_group_size())
