"""The dataset pipeline: sources, operations and iterators."""
