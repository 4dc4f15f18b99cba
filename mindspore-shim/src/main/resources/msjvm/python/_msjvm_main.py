"""Runs a script as ``__main__`` the way ``python SCRIPT ARGS`` does; called by the JVM launchers.

It also keeps what CPython's reference counting gives for free: a file a script opens and never
closes (``open("f", "w").write(data)``) is flushed and closed when the interpreter ends, so its
bytes reach the disk as under CPython. GraalPy frees objects only when the Java heap is collected,
so without this the buffered bytes were lost.
"""
import _io
import atexit
import builtins
import io
import os
import sys
import traceback
import types
import weakref

_HOST = None

# The files opened through open()/io.open() in this interpreter. One opened for writing is held
# until it is closed: GraalPy drops a collected file's buffered bytes (it runs no __del__), so a
# weak reference would lose them whenever the heap is collected before the end. One opened only
# for reading has nothing to lose and is held weakly (closed at the end if still alive).
_WRITABLE_FILES = []
_READ_FILES = weakref.WeakSet()
_PRUNE_AT = [64]
_IO_OPEN = _io.open


def _open(file, mode="r", buffering=-1, encoding=None, errors=None, newline=None, closefd=True,
          opener=None):
    f = _IO_OPEN(file, mode, buffering, encoding, errors, newline, closefd, opener)
    if any(c in mode for c in "wax+"):
        if len(_WRITABLE_FILES) >= _PRUNE_AT[0]:
            # Forget the ones the script closed; keep amortised O(1) per open.
            _WRITABLE_FILES[:] = [g for g in _WRITABLE_FILES if not g.closed]
            _PRUNE_AT[0] = max(64, 2 * len(_WRITABLE_FILES))
        _WRITABLE_FILES.append(f)
    else:
        _READ_FILES.add(f)
    return f


# GraalPy 25.0.3's os.rename and os.replace fail with an internal Java error (not an OSError, so no
# `except` catches it and the interpreter stops) whenever the target is an existing directory, where
# POSIX replaces an empty directory and refuses a non-empty one with ENOTEMPTY (a file onto a
# directory: EISDIR). pytest relies on that: msrun's ranks race to rename their new .pytest_cache
# into place and the losers expect "Directory not empty". A check before GraalPy's rename cannot
# close that race, so the rename itself goes through the Java host (rename(2), atomically).
_OS_RENAME = os.rename
_OS_REPLACE = os.replace


def _host_rename(move):
    def moved(src, dst, *, src_dir_fd=None, dst_dir_fd=None):
        if _HOST is None or src_dir_fd is not None or dst_dir_fd is not None:
            return move(src, dst, src_dir_fd=src_dir_fd, dst_dir_fd=dst_dir_fd)
        failure = str(_HOST.rename(os.path.abspath(os.fsdecode(src)), os.path.abspath(os.fsdecode(dst))))
        if failure:
            import errno

            # (GraalPy's os.strerror is not usable for every code, so the reasons rename(2) gives.)
            code = {"No such file or directory": errno.ENOENT, "File exists": errno.EEXIST,
                    "Permission denied": errno.EACCES, "Operation not permitted": errno.EPERM,
                    "Directory not empty": errno.ENOTEMPTY, "Is a directory": errno.EISDIR,
                    "Not a directory": errno.ENOTDIR, "Invalid cross-device link": errno.EXDEV,
                    "Device or resource busy": errno.EBUSY, "Read-only file system": errno.EROFS,
                    "Invalid argument": errno.EINVAL}.get(failure, errno.EIO)
            raise OSError(code, failure, os.fspath(src), None, os.fspath(dst))
        return None

    moved.__name__ = move.__name__
    moved.__qualname__ = move.__name__
    moved.__doc__ = move.__doc__
    return moved


os.rename = _host_rename(_OS_RENAME)
os.replace = _host_rename(_OS_REPLACE)

_open.__doc__ = _IO_OPEN.__doc__
_open.__name__ = "open"
_open.__qualname__ = "open"


def close_files():
    """Flushes and closes every file still open (the interpreter is ending); never raises."""
    files = _WRITABLE_FILES + list(_READ_FILES)
    _WRITABLE_FILES.clear()
    for f in files:
        try:
            if not f.closed:
                f.close()
        except Exception:  # pylint: disable=broad-except
            pass  # a file that cannot be flushed (full disk, quota) keeps what it wrote so far


def finish():
    """What CPython does after the main module: joins the non-daemon threads, runs the exit
    handlers (the files left open are closed by the last of them), flushes the standard streams.

    The JVM calls it as Python code, so a stop can interrupt a thread that never ends; the
    interpreter is then closed without waiting for anything.
    """
    threading = sys.modules.get("threading")
    if threading is not None:
        threading._shutdown()  # pylint: disable=protected-access
    try:
        atexit._run_exitfuncs()  # pylint: disable=protected-access
    finally:
        atexit._clear()  # pylint: disable=protected-access
        close_files()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # pylint: disable=broad-except
                pass


def bind_host(host, sandboxed=False):
    """Called once by the JVM when it builds this interpreter: the shim's Java ``Host``; a server
    job's interpreter is ``sandboxed`` (its forbidden calls raise ``PermissionError``)."""
    global _HOST  # pylint: disable=global-statement
    _HOST = host
    if sandboxed:
        import _msjvm_sandbox  # pylint: disable=import-outside-toplevel
        _msjvm_sandbox.install()
    builtins.open = io.open = _io.open = _open
    # Registered before any script runs, so it runs after the script's own exit handlers (and,
    # as for CPython, after non-daemon threads were joined).
    atexit.register(close_files)


def host_object():
    """The raw Java ``Host`` (for ``mindspore._host``, the one module that talks to Java)."""
    return _HOST


def _fresh_main(path):
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__builtins__ = builtins
    main.__cached__ = None
    sys.modules["__main__"] = main
    return main


def _exit_status(exc):
    """CPython's rule for ``SystemExit``: None -> 0, int -> itself, other -> printed, 1."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _execute(code, main):
    return _guarded(lambda: exec(code, main.__dict__))  # noqa: S102 - running the user's script is the point


def _guarded(body):
    """Runs ``body`` as the interpreter's main program: its exit status, the traceback of an uncaught
    exception printed as CPython prints it, the standard streams flushed."""
    try:
        body()
    except SystemExit as exc:
        return _exit_status(exc)
    except BaseException as exc:  # pylint: disable=broad-except
        # Drop our own frames so the traceback starts at the program, as CPython prints it.
        tb = exc.__traceback__
        for _ in range(2):
            tb = tb.tb_next if tb is not None and tb.tb_next is not None else tb
        traceback.print_exception(type(exc), exc, tb)
        return 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # pylint: disable=broad-except
                pass
    return 0


def run(path, *args):
    """Runs the file ``path`` with ``sys.argv = [path, *args]``; returns the exit status."""
    sys.argv = [path] + list(args)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    main = _fresh_main(path)
    try:
        with open(path, "rb") as source:
            code = compile(source.read(), path, "exec")
    except OSError as exc:
        print(f"python: can't open file {path!r}: [Errno {exc.errno}] {exc.strerror}", file=sys.stderr)
        return 2
    except SyntaxError:
        traceback.print_exc(limit=0)
        return 1
    return _execute(code, main)


def run_module(name, *args):
    """Runs module ``name`` like ``python -m NAME ARGS`` (``pytest ARGS`` is ``-m pytest ARGS``)."""
    import importlib.util
    import runpy

    sys.argv = [name] + list(args)
    sys.path.insert(0, os.getcwd())
    try:
        found = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        found = None
    if found is None:
        print(f"python: No module named {name}", file=sys.stderr)
        return 1
    return _guarded(lambda: runpy.run_module(name, run_name="__main__", alter_sys=True))


def run_source(source, *args):
    """Runs ``source`` like ``python -c SOURCE ARGS``."""
    sys.argv = ["-c"] + list(args)
    sys.path.insert(0, "")
    main = _fresh_main("<string>")
    try:
        code = compile(source, "<string>", "exec")
    except SyntaxError:
        traceback.print_exc(limit=0)
        return 1
    return _execute(code, main)
