"""MindSpore on the JVM: the ``mindspore`` package, forwarding to the msjvm engine."""
__version__ = "2.7.0"
