"""The one module that talks to Java.

The rest of the shim reaches Java through ``host()``: a wrapper whose calls turn every Java
exception into the Python builtin MindSpore raises (``ValueError``, ``TypeError``...), so scripts
catch them with ``except Exception`` (a raw ``polyglot.ForeignException`` derives only from
``BaseException``). Java lists and maps come back as Python lists and dicts; other Java objects
come back wrapped the same way.
"""
import polyglot

import _msjvm_main

_HOST = _msjvm_main.host_object()

_BUILTIN_ERRORS = {
    "TypeError": TypeError,
    "ValueError": ValueError,
    "KeyError": KeyError,
    "RuntimeError": RuntimeError,
    "NotImplementedError": NotImplementedError,
    "IndexError": IndexError,
    "TimeoutError": TimeoutError,
    "PermissionError": PermissionError,
    "MemoryError": MemoryError,
}


def convert_exception(exc):
    """The Python exception for the Java throwable ``exc`` (its text: no qualified class names)."""
    return _BUILTIN_ERRORS.get(_HOST.pythonTypeOf(exc), RuntimeError)(_HOST.messageOf(exc))


def to_python(value):
    """Plain Python data for a Java value; Java objects other than lists and maps are wrapped."""
    if value is None:  # Java null arrives as a foreign None, which `is None`
        return None
    if isinstance(value, polyglot.ForeignList):
        return [to_python(v) for v in value]
    if isinstance(value, polyglot.ForeignDict):
        return {to_python(k): to_python(v) for k, v in value.items()}
    if isinstance(value, polyglot.ForeignObject):
        return JavaObject(value)
    return value


class JavaObject:
    """A Java object whose method calls raise Python builtins instead of foreign exceptions."""

    __slots__ = ("_target", "__dict__")

    def __init__(self, target):
        self._target = target

    def __getattr__(self, name):
        member = getattr(self._target, name)

        def call(*args):
            try:
                return to_python(member(*args))
            except polyglot.ForeignException as exc:
                raise convert_exception(exc) from None

        self.__dict__[name] = call  # bind once: later calls skip __getattr__
        return call

    @property
    def java(self):
        """The raw Java object (for passing back into Java)."""
        return self._target


_HOST_OBJECT = JavaObject(_HOST)


def _write_stdout(text):
    """Where the engine's Print kernels write: this interpreter's current ``sys.stdout``."""
    import sys  # pylint: disable=import-outside-toplevel
    sys.stdout.write(text)


_HOST.printTo(_write_stdout)


def host():
    """The host API of this interpreter (its Java ``dev.msjvm.shim.Host``)."""
    return _HOST_OBJECT


def session():
    """This interpreter's Java ``Session``."""
    return _SESSION


_SESSION = _HOST_OBJECT.session()
