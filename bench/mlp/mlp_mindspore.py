"""One SGD training step of the seed MLP (784-512-512-10, batch 32, float32) in MindSpore.

Plain MindSpore on purpose: the JVM product (bin/mspython) runs this very file unmodified,
and so does real MindSpore on CPython (bench/mlp/run.sh runs both side by side).

Usage: python mlp_mindspore.py [--steps 500] [--warmup 50] [--mode graph|pynative]
Prints one line:
  RESULT impl=mindspore mode=graph steps_per_s=... ms_per_step=... gflops=... peak_rss_mb=...

FLOPs per step (GEMMs only; bias adds, ReLU, softmax-cross-entropy and the SGD update are
O(B*H) or O(params) and left out, as usual):
  forward  = 2*B*(784*512 + 512*512 + 512*10)          = 2*32*668672 = 42,795,008
  training = 3 * forward (forward x@W, backward dX = dY@W^T and dW = X^T@dY per layer)
           = 6*B*(784*512 + 512*512 + 512*10)          = 128,385,024  (~0.128 GFLOP/step)
(the first layer's dX is not needed, but the usual 3x convention counts it; it keeps every
implementation on the same yardstick).
"""
import argparse
import os
import resource
import sys
import time

import random

import mindspore as ms
from mindspore import nn

B, D_IN, H, D_OUT = 32, 784, 512, 10
FWD_FLOPS = 2 * B * (D_IN * H + H * H + H * D_OUT)
STEP_FLOPS = 3 * FWD_FLOPS


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--steps', type=int, default=500, help='timed steps')
    p.add_argument('--warmup', type=int, default=50, help='untimed steps first (includes graph compile)')
    p.add_argument('--mode', choices=('graph', 'pynative'), default='graph')
    p.add_argument('--impl', default=os.environ.get('MLP_BENCH_IMPL', 'mindspore'),
                   help='label printed in the RESULT line')
    return p.parse_args()


def main():
    args = parse_args()
    mode = ms.GRAPH_MODE if args.mode == 'graph' else ms.PYNATIVE_MODE
    ms.set_context(mode=mode)   # the CPU package's only device: CPU
    ms.set_seed(0)

    net = nn.SequentialCell(
        nn.Dense(D_IN, H), nn.ReLU(),
        nn.Dense(H, H), nn.ReLU(),
        nn.Dense(H, D_OUT),
    )
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    opt = nn.SGD(net.trainable_params(), learning_rate=0.01)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)
    step.set_train()

    # Plain Python data (no numpy needed): a fixed batch of normal inputs and class labels.
    rng = random.Random(0)
    x = ms.Tensor([[rng.gauss(0.0, 1.0) for _ in range(D_IN)] for _ in range(B)], ms.float32)
    y = ms.Tensor([rng.randrange(D_OUT) for _ in range(B)], ms.int32)

    t0 = time.perf_counter()
    loss = step(x, y)
    first_loss = float(loss)
    t_first = time.perf_counter() - t0
    for _ in range(max(args.warmup - 1, 0)):
        loss = step(x, y)
    float(loss)

    t0 = time.perf_counter()
    for _ in range(args.steps):
        loss = step(x, y)
    last_loss = float(loss)   # waits for the last step to finish
    dt = time.perf_counter() - t0

    sps = args.steps / dt
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0   # Linux: KiB
    print(f'INFO first_step_s={t_first:.3f} loss_first={first_loss:.5f} loss_last={last_loss:.5f} '
          f'step_flops={STEP_FLOPS}', file=sys.stderr)
    print(f'RESULT impl={args.impl} mode={args.mode} steps={args.steps} steps_per_s={sps:.1f} '
          f'ms_per_step={1000.0 / sps:.3f} gflops={STEP_FLOPS * sps / 1e9:.2f} peak_rss_mb={rss_mb:.0f}')
    sys.stdout.flush()


if __name__ == '__main__':
    main()
