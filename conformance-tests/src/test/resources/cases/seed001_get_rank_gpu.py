# ranks: 2
# Seed 001 (r1.2 programming guide), snippet "get_rank".
from mindspore import context
from mindspore.communication.management import init, get_rank

context.set_context(device_target='GPU')
init()
rank_id = get_rank()
print("rank_id =", rank_id)
