"""Directories made with the modes MindSpore gives them. GraalPy's file backend (Java NIO) ignores
the mode of ``os.mkdir``/``os.makedirs``, so every directory made here gets its mode by ``chmod``
after it is made."""
import os


def makedirs(path, mode=0o777, parents_mode=0o755):
    """``os.makedirs(path, mode, exist_ok=True)`` as CPython applies it: the missing parents with
    ``parents_mode`` (CPython: 0o777 less the umask; 0o700 where MindSpore sets umask 077 first),
    ``path`` itself with ``mode``. Existing directories are left as they are."""
    if not path or os.path.isdir(path):
        return
    parent = os.path.dirname(os.path.normpath(path))
    if parent and parent != path and not os.path.isdir(parent):
        makedirs(parent, parents_mode, parents_mode)
    try:
        os.mkdir(path)
    except FileExistsError:
        if not os.path.isdir(path):
            raise
        return
    os.chmod(path, mode)
