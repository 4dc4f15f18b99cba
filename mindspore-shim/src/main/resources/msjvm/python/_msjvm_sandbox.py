"""What a sandboxed job (a server job) may not do, refused as catchable Python exceptions.

The JVM already refuses these (no processes start, no socket opens), but some refusals surface
inside GraalPy as Java errors that end the whole rank instead of raising something a script can
catch. Installed once per sandboxed interpreter, before the script runs: each entry point raises
``PermissionError`` with a message saying what the sandbox forbids.
"""
import errno
import os

import _socket
import posix

_PROCESSES = "msjvm sandbox: a job may not start processes"
_NETWORK = "msjvm sandbox: a job may not open sockets or resolve host names"


def _refuse(message, what):
    def refused(*args, **kwargs):
        raise PermissionError(errno.EPERM, message, what)

    refused.__name__ = what.rsplit(".", 1)[-1]
    return refused


def _guard_chdir():
    """``os.chdir`` out of the job directory says so (GraalPy reported a missing directory)."""
    chdir = os.chdir

    def guarded_chdir(path):
        try:
            chdir(path)
        except FileNotFoundError:
            os.stat(path)  # PermissionError when the sandbox refuses the path
            raise

    guarded_chdir.__doc__ = chdir.__doc__
    guarded_chdir.__name__ = "chdir"
    os.chdir = posix.chdir = guarded_chdir


def install():
    """Replaces the process and network entry points of this interpreter."""
    for module, prefix in ((os, "os"), (posix, "posix")):
        for name in ("system", "popen", "posix_spawn", "posix_spawnp", "execv", "execve",
                     "execl", "execle", "execlp", "execlpe", "execvp", "execvpe", "spawnv",
                     "spawnve", "spawnvp", "spawnvpe", "spawnl", "spawnle", "spawnlp", "spawnlpe"):
            if hasattr(module, name):
                setattr(module, name, _refuse(_PROCESSES, f"{prefix}.{name}"))
    try:
        import _posixsubprocess  # pylint: disable=import-outside-toplevel
        _posixsubprocess.fork_exec = _refuse(_PROCESSES, "subprocess")
    except ImportError:
        pass
    for name in ("getaddrinfo", "gethostbyname", "gethostbyname_ex", "gethostbyaddr",
                 "getnameinfo", "socketpair", "dup"):
        if hasattr(_socket, name):
            setattr(_socket, name, _refuse(_NETWORK, f"socket.{name}"))

    _guard_chdir()
    base = _socket.socket

    class RefusedSocket(base):  # socket.socket subclasses it when socket.py is imported
        """A socket class whose every construction is refused."""

        __slots__ = ()

        def __new__(cls, *args, **kwargs):
            raise PermissionError(errno.EPERM, _NETWORK, "socket.socket")

        def __init__(self, *args, **kwargs):  # pylint: disable=super-init-not-called
            raise PermissionError(errno.EPERM, _NETWORK, "socket.socket")

    RefusedSocket.__name__ = "socket"
    RefusedSocket.__qualname__ = "socket"
    RefusedSocket.__module__ = "_socket"
    _socket.socket = _socket.SocketType = RefusedSocket
