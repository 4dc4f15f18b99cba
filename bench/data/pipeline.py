"""Throughput of the MNIST input pipeline: samples/s of one epoch.

MnistDataset(train) -> map(Rescale, HWC2CHW, TypeCast on image; TypeCast on label) -> batch(32),
iterated with create_tuple_iterator. Run: bin/mspython bench/data/pipeline.py [MNIST_DIR] [EPOCHS]
(MNIST_DIR defaults to MNIST_Data/train, made by tools/mnist-to-idx).
"""
import sys
import time

import mindspore as ms
import mindspore.dataset as ds
from mindspore.dataset import transforms, vision


def build(data_dir):
    data = ds.MnistDataset(data_dir, usage="train", shuffle=True)
    data = data.map([vision.Rescale(1.0 / 255.0, 0.0), vision.HWC2CHW(), transforms.TypeCast(ms.float32)],
                    input_columns="image")
    data = data.map(transforms.TypeCast(ms.int32), input_columns="label")
    return data.batch(32, drop_remainder=True)


def main():
    data_dir = sys.argv[1] if len(sys.argv) > 1 else "MNIST_Data/train"
    epochs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    data = build(data_dir)
    iterator = data.create_tuple_iterator(num_epochs=epochs)
    print(f"{'epoch':>5} {'batches':>8} {'samples':>8} {'seconds':>8} {'samples/s':>10} {'ms/batch':>9}")
    for epoch in range(epochs):
        start = time.perf_counter()
        batches = samples = 0
        for image, _ in iterator:
            batches += 1
            samples += image.shape[0]
        seconds = time.perf_counter() - start
        print(f"{epoch:>5} {batches:>8} {samples:>8} {seconds:>8.2f} {samples / seconds:>10.0f} "
              f"{1000 * seconds / batches:>9.2f}")


if __name__ == "__main__":
    main()
