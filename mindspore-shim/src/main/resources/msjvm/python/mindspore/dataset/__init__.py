"""``mindspore.dataset``: data pipelines over MNIST idx files, CIFAR-10 binary files, Python generators and
in-memory slices.

Sources, built-in transforms and batching run in Java (``host().datasets()``); the pipeline's
structure and Python callables live in this interpreter.
"""
from mindspore.dataset.core import config
from mindspore.dataset.engine.datasets import (Cifar10Dataset, Dataset, GeneratorDataset, MnistDataset,
                                               NumpySlicesDataset)
from mindspore.dataset.engine.iterators import DictIterator, TupleIterator
from mindspore.dataset import transforms, vision

__all__ = ["config", "Dataset", "Cifar10Dataset", "GeneratorDataset", "MnistDataset", "NumpySlicesDataset", "DictIterator",
           "TupleIterator", "transforms", "vision"]
