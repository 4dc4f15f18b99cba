"""PYNATIVE TrainOneStepCell step with and without the forward reused by the gradient.

TrainOneStepCell marks its network ``set_grad()``, so the gradient differentiates the forward that
computed the loss (MindSpore's grad executor does the same); ``set_grad(False)`` after building it
makes the gradient run the network again, as msjvm did before. Rows alternate in one process.
Usage: bin/mspython bench/autodiff/forward_reuse.py [--steps 100] [--warmup 10] [--rounds 3]
(also runs unmodified on MindSpore for the same two rows).
"""
import argparse
import time

import numpy as np
import mindspore as ms
from mindspore import nn, Tensor


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=100)
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    ms.set_seed(1)
    rng = np.random.default_rng(0)
    x = Tensor(rng.standard_normal((32, 784), dtype=np.float32))
    y = Tensor(rng.integers(0, 10, 32).astype(np.int32))
    steps = {}
    for reuse in (True, False):
        net = nn.SequentialCell([nn.Dense(784, 512), nn.ReLU(), nn.Dense(512, 512), nn.ReLU(), nn.Dense(512, 10)])
        loss = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
        step = nn.TrainOneStepCell(loss, nn.SGD(net.trainable_params(), 0.01))
        step.set_train()
        if not reuse:
            loss.set_grad(False)
        for _ in range(args.warmup):
            step(x, y)
        steps[reuse] = step
    times = {True: [], False: []}
    for _ in range(args.rounds):
        for reuse in (True, False):
            start = time.perf_counter()
            for _ in range(args.steps):
                step_loss = steps[reuse](x, y)
            step_loss.asnumpy()
            times[reuse].append((time.perf_counter() - start) * 1000 / args.steps)
    for reuse in (True, False):
        t = sorted(times[reuse])
        label = "forward reused (set_grad)" if reuse else "forward run again (set_grad(False))"
        print(f"{label:38s} median {t[len(t) // 2]:7.2f} ms/step  best {t[0]:7.2f}  rounds {len(t)}")


if __name__ == "__main__":
    main()
