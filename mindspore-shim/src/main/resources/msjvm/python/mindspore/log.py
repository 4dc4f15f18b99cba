"""MindSpore-style log lines on the interpreter's stderr.

Format as MindSpore prints them: ``[WARNING] ME(pid:tid,MainProcess):time [file:line] message``.
``GLOG_v`` selects the level as in MindSpore (0 debug, 1 info, 2 warning - the default, 3 error).
"""
import os
import sys
import threading
import time

_LEVELS = {"DEBUG": 0, "INFO": 1, "WARNING": 2, "ERROR": 3, "CRITICAL": 4}


def _threshold():
    try:
        return int(os.environ.get("GLOG_v", "2"))
    except ValueError:
        return 2


def _emit(level, msg, args):
    if _LEVELS[level] < _threshold():
        return
    if args:
        msg = msg % args
    frame = sys._getframe(2)  # pylint: disable=protected-access
    where = f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno}"
    now = time.time()
    stamp = time.strftime("%Y-%m-%d-%H:%M:%S", time.localtime(now)) + f".{int(now * 1000) % 1000:03d}"
    line = (f"[{level}] ME({os.getpid()}:{threading.get_ident()},MainProcess):{stamp} "
            f"[{where}] {msg}\n")
    sys.stderr.write(line)


def debug(msg, *args, **kwargs):  # pylint: disable=unused-argument
    _emit("DEBUG", msg, args)


def info(msg, *args, **kwargs):  # pylint: disable=unused-argument
    _emit("INFO", msg, args)


def warning(msg, *args, **kwargs):  # pylint: disable=unused-argument
    _emit("WARNING", msg, args)


def error(msg, *args, **kwargs):  # pylint: disable=unused-argument
    _emit("ERROR", msg, args)


def critical(msg, *args, **kwargs):  # pylint: disable=unused-argument
    _emit("CRITICAL", msg, args)


warn = warning
