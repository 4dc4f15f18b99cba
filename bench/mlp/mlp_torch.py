"""The same training step as mlp_mindspore.py in PyTorch (CPU, eager; optionally torch.compile).

Model 784-512-512-10 (Linear/ReLU), batch 32, float32, CrossEntropyLoss(mean), SGD(lr=0.01),
same fixed numpy-seeded batch. Threads: torch.set_num_threads($MLP_BENCH_THREADS or 2).
FLOPs per step: 3 * 2*B*(784*512 + 512*512 + 512*10) = 128,385,024 (see mlp_mindspore.py).

Usage: python mlp_torch.py [--steps 500] [--warmup 50] [--mode eager|compile]
"""
import argparse
import os
import resource
import sys
import time

import numpy as np
import torch
from torch import nn

B, D_IN, H, D_OUT = 32, 784, 512, 10
STEP_FLOPS = 3 * 2 * B * (D_IN * H + H * H + H * D_OUT)


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--steps', type=int, default=500)
    p.add_argument('--warmup', type=int, default=50)
    p.add_argument('--mode', choices=('eager', 'compile'), default='eager')
    args = p.parse_args()

    threads = int(os.environ.get('MLP_BENCH_THREADS', '2'))
    torch.set_num_threads(threads)
    torch.manual_seed(0)

    net = nn.Sequential(nn.Linear(D_IN, H), nn.ReLU(), nn.Linear(H, H), nn.ReLU(), nn.Linear(H, D_OUT))
    loss_fn = nn.CrossEntropyLoss(reduction='mean')
    opt = torch.optim.SGD(net.parameters(), lr=0.01)

    rng = np.random.default_rng(0)
    x = torch.from_numpy(rng.standard_normal((B, D_IN)).astype(np.float32))
    y = torch.from_numpy(rng.integers(0, D_OUT, size=(B,)).astype(np.int64))

    def train_step(x, y):
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(net(x), y)
        loss.backward()
        opt.step()
        return loss

    step = torch.compile(train_step) if args.mode == 'compile' else train_step

    t0 = time.perf_counter()
    first_loss = step(x, y).item()
    t_first = time.perf_counter() - t0
    for _ in range(max(args.warmup - 1, 0)):
        loss = step(x, y)

    t0 = time.perf_counter()
    for _ in range(args.steps):
        loss = step(x, y)
    last_loss = loss.item()
    dt = time.perf_counter() - t0

    sps = args.steps / dt
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(f'INFO torch={torch.__version__} threads={torch.get_num_threads()} first_step_s={t_first:.3f} '
          f'loss_first={first_loss:.5f} loss_last={last_loss:.5f}', file=sys.stderr)
    print(f'RESULT impl=torch mode={args.mode} steps={args.steps} steps_per_s={sps:.1f} '
          f'ms_per_step={1000.0 / sps:.3f} gflops={STEP_FLOPS * sps / 1e9:.2f} peak_rss_mb={rss_mb:.0f}')


if __name__ == '__main__':
    main()
