# ranks: 2
# Seed 001 (r1.2 programming guide), snippet "get_group_size".
from mindspore import context
from mindspore.communication.management import init, get_group_size

context.set_context(device_target='GPU')
init()
group_size = get_group_size()
print("group_size =", group_size)
