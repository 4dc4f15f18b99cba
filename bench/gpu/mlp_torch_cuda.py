"""PyTorch CUDA peer of GpuCheck --bench: the same FP32 GEMM and the seed MLP's training step.

GEMM: 4096x4096x4096 float32 with TF32 off (as cuBLAS's default math in our backend), 3 warm-ups,
20 timed. MLP: Linear 784-512-512-10 with ReLU, CrossEntropyLoss (mean), SGD(lr=0.01) with
zero_grad(set_to_none=True), batches 32 and 1024 on the GPU, 300 warm-up and 2000 timed steps.
Prints RESULT lines in GpuCheck's format.
"""
import time

import torch

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
dev = torch.device("cuda")
print("torch", torch.__version__, torch.cuda.get_device_name(0))

n = 4096
a = torch.rand(n, n, device=dev) * 2 - 1
b = torch.rand(n, n, device=dev) * 2 - 1
for _ in range(3):
    c = a @ b
torch.cuda.synchronize()
t0 = time.perf_counter()
reps = 20
for _ in range(reps):
    c = a @ b
torch.cuda.synchronize()
ms = (time.perf_counter() - t0) * 1e3 / reps
print("RESULT impl=torch-cuda what=sgemm-%d ms=%.3f tflops=%.1f" % (n, ms, 2.0 * n ** 3 / (ms * 1e-3) / 1e12))

for batch in (32, 1024):
    torch.manual_seed(3)
    net = torch.nn.Sequential(torch.nn.Linear(784, 512), torch.nn.ReLU(), torch.nn.Linear(512, 512),
                              torch.nn.ReLU(), torch.nn.Linear(512, 10)).to(dev)
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    loss_fn = torch.nn.CrossEntropyLoss()
    x = torch.rand(batch, 784, device=dev) * 2 - 1
    y = torch.randint(0, 10, (batch,), device=dev)

    def step():
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(net(x), y)
        loss.backward()
        opt.step()
        return loss

    for _ in range(300):
        step()
    torch.cuda.synchronize()
    steps = 2000
    t0 = time.perf_counter()
    for _ in range(steps):
        step()
    torch.cuda.synchronize()
    ms = (time.perf_counter() - t0) * 1e3 / steps
    loss = step().item()
    print("RESULT impl=torch-cuda what=mlp-step batch=%d ms=%.4f steps_per_s=%.0f loss=%.4f"
          % (batch, ms, 1000 / ms, loss))
