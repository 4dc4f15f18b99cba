"""``mindspore.dataset``: data pipelines over MNIST idx files, Python generators and in-memory slices.

Sources, built-in transforms and batching run in Java (``host().datasets()``); the pipeline's
structure and Python callables live in this interpreter.
"""
from mindspore.dataset.core import config
from mindspore.dataset.engine.datasets import (Dataset, GeneratorDataset, MnistDataset, NumpySlicesDataset)
from mindspore.dataset.engine.iterators import DictIterator, TupleIterator
from mindspore.dataset import transforms, vision

__all__ = ["config", "Dataset", "GeneratorDataset", "MnistDataset", "NumpySlicesDataset", "DictIterator",
           "TupleIterator", "transforms", "vision"]
