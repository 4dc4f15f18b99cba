"""Runs a script as ``__main__`` the way ``python SCRIPT ARGS`` does; called by the JVM launchers."""
import builtins
import os
import sys
import traceback
import types


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
    try:
        exec(code, main.__dict__)  # noqa: S102 - running the user's script is the point
    except SystemExit as exc:
        return _exit_status(exc)
    except BaseException as exc:  # pylint: disable=broad-except
        # Drop our own frame so the traceback starts at the script, as CPython prints it.
        tb = exc.__traceback__
        traceback.print_exception(type(exc), exc, tb.tb_next if tb is not None else None)
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
