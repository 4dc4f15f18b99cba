"""Proto2 messages for the few schemas MindSpore's Python code reads and writes itself
(``node_strategy.proto``: strategy files and group-info files), with the API of the protobuf
runtime its generated ``*_pb2`` modules use: keyword constructors, ``add``/``append``/``extend`` on
repeated fields, ``ParseFromString``/``SerializeToString``, ``IsInitialized``, ``HasField``,
``CopyFrom``, equality and the text format of ``str``.

Why written here: MindSpore's scripts and helpers (``build_searched_strategy``, the private
``_parallel_serialization``) use ``mindspore.train.node_strategy_pb2``; GraalPy's environment has
no Python protobuf runtime (the engine reads the same files with protobuf-java), and these schemas
need only varint and length-delimited fields. Behaviour and texts follow the protobuf runtime as
MindSpore 2.10 runs it (its pure-Python implementation: ``import mindspore`` sets
``PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=python``): fields serialized in number order, repeated
scalars unpacked (proto2), packed ones accepted when parsing, unknown fields kept and written back,
a missing required field an ``EncodeError`` when serializing (not when parsing), corrupt input a
``DecodeError`` (a string field that is not UTF-8 a UnicodeDecodeError naming the field), a
value of the wrong type or range its TypeError/ValueError.
"""
_RANGES = {"int32": (-(1 << 31), (1 << 31) - 1), "uint32": (0, (1 << 32) - 1),
           "int64": (-(1 << 63), (1 << 63) - 1), "uint64": (0, (1 << 64) - 1)}


class DecodeError(Exception):
    """``google.protobuf.message.DecodeError``."""


class EncodeError(Exception):
    """``google.protobuf.message.EncodeError``."""


class Field:
    """One declared field: ``kind`` is a scalar type name or a Message subclass."""

    __slots__ = ("number", "name", "kind", "label")

    def __init__(self, number, name, kind, label):
        self.number, self.name, self.kind, self.label = number, name, kind, label

    @property
    def repeated(self):
        return self.label == "repeated"

    @property
    def is_message(self):
        return isinstance(self.kind, type)


def required(number, name, kind):
    return Field(number, name, kind, "required")


def optional(number, name, kind):
    return Field(number, name, kind, "optional")


def repeated(number, name, kind):
    return Field(number, name, kind, "repeated")


def _type_error(value, expected):
    return TypeError("%.1024r has type %s, but expected one of: %s" % (value, type(value), expected))


def _check_scalar(field, value):
    """``value`` as field ``field`` holds it, or the protobuf runtime's TypeError/ValueError."""
    if field.kind == "string":
        if isinstance(value, bytes):
            try:
                return value.decode("utf-8")
            except UnicodeDecodeError as e:
                raise ValueError("%.1024r has type bytes, but isn't valid UTF-8 encoding. Non-UTF-8 strings must "
                                 "be converted to unicode objects before being added." % (value,)) from e
        if not isinstance(value, str):
            raise _type_error(value, (bytes, str))
        return value
    if type(value) is bool:  # pylint: disable=unidiomatic-typecheck
        raise TypeError("%.1024r has type %s, but expected one of: (int)." % (value, type(value)))
    if not hasattr(value, "__index__") or type(value).__name__ == "ndarray":
        raise _type_error(value, (int,))
    low, high = _RANGES[field.kind]
    if not low <= int(value) <= high:
        raise ValueError("Value out of range: %d" % value)
    return int(value)


class _Scalars(list):
    """A repeated scalar field: a list whose elements are checked as the field's type."""

    def __init__(self, field):
        super().__init__()
        self._field = field

    def _check(self, value):
        return _check_scalar(self._field, value)

    def append(self, value):
        super().append(self._check(value))

    def extend(self, values):
        super().extend([self._check(v) for v in values])

    def insert(self, index, value):
        super().insert(index, self._check(value))

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            super().__setitem__(index, [self._check(v) for v in value])
        else:
            super().__setitem__(index, self._check(value))


class _Messages(list):
    """A repeated message field: ``add(**fields)`` makes an element; ``append``/``extend`` copy."""

    def __init__(self, kind):
        super().__init__()
        self._kind = kind

    def add(self, **fields):
        message = self._kind(**fields)
        super().append(message)
        return message

    def _copy(self, message):
        if isinstance(message, dict):
            return self._kind(**message)
        if not isinstance(message, self._kind):
            raise TypeError(f"Parameter to MergeFrom() must be instance of same class: expected "
                            f"{self._kind._FULL_NAME} got {type(message).__name__}.")
        copy = self._kind()
        copy.CopyFrom(message)
        return copy

    def append(self, message):
        super().append(self._copy(message))

    def extend(self, messages):
        super().extend([self._copy(m) for m in messages])

    def __setitem__(self, index, value):
        raise TypeError("does not support assignment")


def _varint(value):
    if value < 0:
        value += 1 << 64
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


class _Reader:
    def __init__(self, data, begin, end, type_name):
        self.data, self.at, self.end, self.type_name = data, begin, end, type_name

    @staticmethod
    def truncated():
        return DecodeError("Truncated message.")

    def varint(self):
        value, shift = 0, 0
        while True:
            if self.at >= self.end or shift >= 70:
                raise self.truncated()
            byte = self.data[self.at]
            self.at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return value & ((1 << 64) - 1)

    def span(self):
        size = self.varint()
        if size > self.end - self.at:
            raise self.truncated()
        begin = self.at
        self.at += size
        return begin, self.at

    def skip(self, wire):
        if wire == 0:
            self.varint()
        elif wire == 1:
            self.at += 8
        elif wire == 2:
            self.span()
        elif wire == 5:
            self.at += 4
        else:
            raise DecodeError("Wrong wire type in tag.")
        if self.at > self.end:
            raise self.truncated()


def _decode_int(kind, raw):
    if kind in ("int32", "uint32"):
        raw &= (1 << 32) - 1
        if kind == "int32" and raw >= 1 << 31:
            raw -= 1 << 32
    elif kind == "int64" and raw >= 1 << 63:
        raw -= 1 << 64
    return raw


class Message:
    """A proto2 message; subclasses declare ``_FULL_NAME`` and ``_FIELDS`` (a tuple of Field)."""

    _FULL_NAME = ""
    _FIELDS = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._BY_NAME = {f.name: f for f in cls._FIELDS}
        cls._BY_NUMBER = {f.number: f for f in cls._FIELDS}
        cls._ORDER = sorted(cls._FIELDS, key=lambda f: f.number)

    def __init__(self, **fields):
        object.__setattr__(self, "_values", {})
        object.__setattr__(self, "_unknown", [])
        object.__setattr__(self, "_explicit", False)
        for name, value in fields.items():
            field = self._field(name)
            if value is None:
                continue
            if field.repeated:
                getattr(self, name).extend(value)
            elif field.is_message:
                getattr(self, name).CopyFrom(value if isinstance(value, field.kind) else field.kind(**value))
            else:
                setattr(self, name, value)

    def _field(self, name):
        field = self._BY_NAME.get(name)
        if field is None:
            raise ValueError(f"Protocol message {type(self).__name__} has no \"{name}\" field.")
        return field

    def __getattr__(self, name):
        field = type(self)._BY_NAME.get(name)
        if field is None:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        values = self._values
        if name in values:
            return values[name]
        if field.repeated:
            values[name] = _Messages(field.kind) if field.is_message else _Scalars(field)
            return values[name]
        if field.is_message:
            values[name] = field.kind()
            return values[name]
        return "" if field.kind == "string" else 0

    def __setattr__(self, name, value):
        field = type(self)._BY_NAME.get(name)
        if field is None:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        if field.repeated or field.is_message:
            kind = "repeated" if field.repeated else "composite"
            raise AttributeError(f"Assignment not allowed to {kind} field \"{name}\" in protocol message object.")
        try:
            self._values[name] = _check_scalar(field, value)
        except TypeError as e:
            raise TypeError("Cannot set %s.%s to %.1024r: %s" % (self._FULL_NAME, name, value, e)) from None

    # -- presence

    def _present(self, field):
        value = self._values.get(field.name)
        if value is None:
            return False
        if field.repeated:
            return len(value) > 0
        if field.is_message:
            return value._touched()
        return True

    def _touched(self):
        return self._explicit or bool(self._unknown) or any(self._present(f) for f in self._FIELDS)

    def HasField(self, name):  # pylint: disable=invalid-name
        field = self._BY_NAME.get(name)
        if field is None or field.repeated:
            raise ValueError(f"Protocol message {self._FULL_NAME} has no non-repeated field \"{name}\" nor has "
                             f"presence is not available for this field.")
        return self._present(field)

    def ClearField(self, name):  # pylint: disable=invalid-name
        self._field(name)
        self._values.pop(name, None)

    def Clear(self):  # pylint: disable=invalid-name
        self._values.clear()
        self._unknown.clear()
        object.__setattr__(self, "_explicit", False)

    def ListFields(self):  # pylint: disable=invalid-name
        return [(f, self._values[f.name]) for f in self._ORDER if self._present(f)]

    def FindInitializationErrors(self):  # pylint: disable=invalid-name
        errors = []
        for field in self._ORDER:
            if field.label == "required" and not self._present(field):
                errors.append(field.name)
            if not field.is_message or not self._present(field):
                continue
            if field.repeated:
                for i, item in enumerate(self._values[field.name]):
                    errors.extend(f"{field.name}[{i}].{e}" for e in item.FindInitializationErrors())
            else:
                errors.extend(f"{field.name}.{e}" for e in self._values[field.name].FindInitializationErrors())
        return errors

    def IsInitialized(self):  # pylint: disable=invalid-name
        return not self.FindInitializationErrors()

    # -- copying and comparing

    def CopyFrom(self, other):  # pylint: disable=invalid-name
        if other is self:
            return
        self.Clear()
        self.MergeFrom(other)

    def MergeFrom(self, other):  # pylint: disable=invalid-name
        if not isinstance(other, type(self)):
            raise TypeError(f"Parameter to MergeFrom() must be instance of same class: expected "
                            f"{self._FULL_NAME} got {type(other).__name__}.")
        for field in other._ORDER:
            if not other._present(field):
                continue
            value = other._values[field.name]
            if field.repeated:
                getattr(self, field.name).extend(value)
            elif field.is_message:
                getattr(self, field.name).MergeFrom(value)
            else:
                self._values[field.name] = value
        self._unknown.extend(other._unknown)
        object.__setattr__(self, "_explicit", True)

    def __eq__(self, other):
        if not isinstance(other, type(self)):
            return NotImplemented
        return self.ListFields() == other.ListFields() and self._unknown == other._unknown

    __hash__ = None

    # -- wire format

    def SerializeToString(self, deterministic=None):  # pylint: disable=invalid-name,unused-argument
        errors = self.FindInitializationErrors()
        if errors:
            raise EncodeError(f"Message {self._FULL_NAME} is missing required fields: {','.join(errors)}")
        return self._encode()

    def SerializePartialToString(self, deterministic=None):  # pylint: disable=invalid-name,unused-argument
        return self._encode()

    def ByteSize(self):  # pylint: disable=invalid-name
        return len(self._encode())

    def _items(self):
        """(field, value) of each value held, fields in number order, repeated ones element by element."""
        for field in self._ORDER:
            if self._present(field):
                value = self._values[field.name]
                for item in (value if field.repeated else [value]):
                    yield field, item

    def _encode(self):
        out = bytearray()
        for field, item in self._items():
            if field.is_message or field.kind == "string":
                body = item._encode() if field.is_message else item.encode("utf-8")
                out += _varint(field.number << 3 | 2) + _varint(len(body)) + body
            else:
                out += _varint(field.number << 3) + _varint(item)
        for raw in self._unknown:
            out += raw
        return bytes(out)

    def ParseFromString(self, data):  # pylint: disable=invalid-name
        self.Clear()
        return self.MergeFromString(data)

    def MergeFromString(self, data):  # pylint: disable=invalid-name
        data = bytes(data)
        self._decode(_Reader(data, 0, len(data), self._FULL_NAME))
        return len(data)

    def _decode(self, reader):
        while reader.at < reader.end:
            tag_at = reader.at
            tag = reader.varint()
            number, wire = tag >> 3, tag & 7
            field = self._BY_NUMBER.get(number)
            if number == 0:
                raise DecodeError("Field number 0 is illegal.")
            if field is None or not self._decode_field(reader, field, wire):
                reader.skip(wire)
                self._unknown.append(reader.data[tag_at:reader.at])

    def _decode_field(self, reader, field, wire):
        """Reads one occurrence of ``field``; False when the wire type is not the field's."""
        if field.is_message or field.kind == "string":
            if wire != 2:
                return False
            begin, end = reader.span()
            if field.is_message:
                target = getattr(self, field.name).add() if field.repeated else getattr(self, field.name)
                target._decode(_Reader(reader.data, begin, end, reader.type_name))
                object.__setattr__(target, "_explicit", True)
                return True
            try:
                text = reader.data[begin:end].decode("utf-8")
            except UnicodeDecodeError as e:
                e.reason = "%s in field: %s.%s" % (e, self._FULL_NAME, field.name)
                raise
            if field.repeated:
                list.append(getattr(self, field.name), text)
            else:
                self._values[field.name] = text
            return True
        if wire == 0:
            value = _decode_int(field.kind, reader.varint())
            if field.repeated:
                list.append(getattr(self, field.name), value)
            else:
                self._values[field.name] = value
            return True
        if wire == 2 and field.repeated:
            begin, end = reader.span()
            packed = _Reader(reader.data, begin, end, reader.type_name)
            target = getattr(self, field.name)
            while packed.at < packed.end:
                list.append(target, _decode_int(field.kind, packed.varint()))
            return True
        return False

    # -- text format

    def __str__(self):
        return "".join(self._text(""))

    __repr__ = __str__

    def _text(self, indent):
        for field, item in self._items():
            if field.is_message:
                yield f"{indent}{field.name} {{\n"
                yield from item._text(indent + "  ")
                yield f"{indent}}}\n"
            elif field.kind == "string":
                yield f"{indent}{field.name}: \"{_escape(item)}\"\n"
            else:
                yield f"{indent}{field.name}: {item}\n"


_ESCAPES = {i: "\\%03o" % i for i in range(128) if not 32 <= i < 127}
_ESCAPES.update({ord("\t"): "\\t", ord("\n"): "\\n", ord("\r"): "\\r", ord('"'): '\\"', ord("'"): "\\'",
                 ord("\\"): "\\\\"})


def _escape(text):
    """A string as the text format prints it (UTF-8 kept, ASCII controls and quotes escaped)."""
    return text.translate(_ESCAPES)
