"""Pure-GEMM lower bound for one training step of the seed MLP (784-512-512-10, batch 32, f32).

Times, with numpy's BLAS (OpenBLAS in the PyPI wheels), exactly the sgemm calls of one SGD step
at the step's shapes (M x K x N, FLOPs = 2*M*K*N); Z = pre-activation, A = post-ReLU, dZ = grad:
  forward
    f1  Z1  = X  @ W1       32 x 784 x 512
    f2  Z2  = A1 @ W2       32 x 512 x 512
    f3  Z3  = A2 @ W3       32 x 512 x  10
  backward, layer 3
    w3  dW3 = A2^T @ dZ3   512 x  32 x  10
    x3  dA2 = dZ3 @ W3^T    32 x  10 x 512
  backward, layer 2
    w2  dW2 = A1^T @ dZ2   512 x  32 x 512
    x2  dA1 = dZ2 @ W2^T    32 x 512 x 512
  backward, layer 1
    w1  dW1 = X^T @ dZ1    784 x  32 x 512
    x1  dX  = dZ1 @ W1^T    32 x 512 x 784   (not needed for training; counted by the 3x rule)
That is 9 calls (3 per layer: forward, dX, dW). The sum of all 9 is exactly the 3x-forward FLOP
count used by the step scripts (128,385,024), so "gemm-bound-numpy" is the time a step would take
if it did nothing but these GEMMs back to back; "gemm-bound-numpy-8" leaves out x1 (what a
framework that skips the input gradient must do at least). Transposes are views (BLAS trans flags),
outputs are preallocated (np.matmul(..., out=)).

Usage: python gemm_bound.py [--steps 500] [--warmup 50]
"""
import argparse
import resource
import sys
import time

import numpy as np

B, D_IN, H, D_OUT = 32, 784, 512, 10
STEP_FLOPS = 3 * 2 * B * (D_IN * H + H * H + H * D_OUT)


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--steps', type=int, default=500)
    p.add_argument('--warmup', type=int, default=50)
    args = p.parse_args()

    rng = np.random.default_rng(0)
    f = lambda *s: rng.standard_normal(s).astype(np.float32)
    X, W1, W2, W3 = f(B, D_IN), f(D_IN, H), f(H, H), f(H, D_OUT)
    A1, A2 = f(B, H), f(B, H)
    dZ1, dZ2, dZ3 = f(B, H), f(B, H), f(B, D_OUT)
    o = {k: np.empty(s, np.float32) for k, s in dict(
        f1=(B, H), f2=(B, H), f3=(B, D_OUT), w3=(H, D_OUT), x3=(B, H),
        w2=(H, H), x2=(B, H), w1=(D_IN, H), x1=(B, D_IN)).items()}
    calls = [  # name, a, b, (M, K, N)
        ('f1', X, W1, (B, D_IN, H)), ('f2', A1, W2, (B, H, H)), ('f3', A2, W3, (B, H, D_OUT)),
        ('w3', A2.T, dZ3, (H, B, D_OUT)), ('x3', dZ3, W3.T, (B, D_OUT, H)),
        ('w2', A1.T, dZ2, (H, B, H)), ('x2', dZ2, W2.T, (B, H, H)),
        ('w1', X.T, dZ1, (D_IN, B, H)), ('x1', dZ1, W1.T, (B, H, D_IN)),
    ]
    total = sum(2 * m * k * n for _, _, _, (m, k, n) in calls)
    assert total == STEP_FLOPS, (total, STEP_FLOPS)
    mm = np.matmul

    # per-call timing (each call repeated back to back)
    per = {}
    for name, a, b, (m, k, n) in calls:
        out = o[name]
        for _ in range(args.warmup):
            mm(a, b, out=out)
        t0 = time.perf_counter()
        for _ in range(args.steps):
            mm(a, b, out=out)
        per[name] = (time.perf_counter() - t0) / args.steps

    def run_step(cs, n):
        for _ in range(n):
            for name, a, b, _ in cs:
                mm(a, b, out=o[name])

    results = []
    for label, cs in (('gemm-bound-numpy', calls), ('gemm-bound-numpy-8', calls[:-1])):
        flops = sum(2 * m * k * n for _, _, _, (m, k, n) in cs)
        run_step(cs, args.warmup)
        t0 = time.perf_counter()
        run_step(cs, args.steps)
        dt = (time.perf_counter() - t0) / args.steps
        results.append((label, dt, flops))

    for name, a, b, (m, k, n) in calls:
        t = per[name]
        ta = 'T' if not a.flags.c_contiguous else 'N'
        tb = 'T' if not b.flags.c_contiguous else 'N'
        print(f'SGEMM {name} {m}x{k}x{n} trans={ta}{tb} us={t * 1e6:.1f} gflops={2 * m * k * n / t / 1e9:.1f}')
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    for label, dt, flops in results:
        # GFLOP/s is against the 3x-forward step count for both, so it compares with the step scripts
        print(f'RESULT impl={label} mode=numpy-{np.__version__} steps={args.steps} steps_per_s={1 / dt:.1f} '
              f'ms_per_step={dt * 1e3:.3f} gflops={STEP_FLOPS / dt / 1e9:.2f} peak_rss_mb={rss_mb:.0f}')
    sys.stdout.flush()


if __name__ == '__main__':
    main()
