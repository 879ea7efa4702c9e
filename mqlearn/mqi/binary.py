"""Byte-exact packing of MQI structures, driven by their ``_LAYOUT`` (rule MD-01).

Every structure here begins with ``StrucId`` (4 characters) and ``Version`` (an MQLONG at offset 4);
the version decides which fields are present: a field is packed when ``field.version <= Version``,
so an MD is 324 bytes as version 1 and 364 as version 2.

Field kinds: ``"l"`` MQLONG (4-byte signed integer, byte order from the encoding), ``"q"`` an
8-byte signed integer (MQINT64: a message handle MQHMSG, or a 64-bit pointer), ``"c"`` character
field (``str``, Latin-1, blank-padded), ``"b"`` byte string (``bytes``, NUL-padded), ``"md"`` an
embedded version-1 MQMD (the ``MsgDesc`` of an MQXQH).

Byte order comes from ``encoding & MQENC_INTEGER_MASK``: MQENC_INTEGER_REVERSED (546, x86 native)
is little-endian, MQENC_INTEGER_NORMAL (273) big-endian; any other integer encoding is refused.

Unpacking returns character fields without trailing blanks (``md.ReplyToQ == "REPLY.Q"``), except
fields whose values are IBM constants and so keep their full width to compare equal to CMQC:
``StrucId``, ``Format`` and the one-character status codes (for example ``GMO.GroupStatus``).

Each (class, version, byte order) gets one precompiled :class:`struct.Struct`, built on first use
and then found by a dict lookup, so packing thousands of messages costs no layout work per call.
"""

from __future__ import annotations

import struct
from operator import attrgetter
from types import UnionType
from typing import Any, TypeVar, cast

from mqlearn.mqi import cmqc as C
from mqlearn.mqi.structs import MD, Field, MQStruct

S = TypeVar("S", bound=MQStruct)

_LITTLE = "<"
_BIG = ">"
_LONG_MIN = -(2**31)
_LONG_MAX = 2**31 - 1
_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1
_VERSION_OFFSET = 4
_VERSION_AT = {_LITTLE: struct.Struct("<i"), _BIG: struct.Struct(">i")}
# Character fields holding IBM constants, compared with blank-padded CMQC values: keep their blanks.
_FULL_WIDTH_NAMES = frozenset({"StrucId", "Format"})
_version_of = attrgetter("Version")


def byte_order(encoding: int) -> str:
    """The :mod:`struct` byte order for an MQ ``Encoding``: ``"<"`` (546) or ``">"`` (273)."""
    if not isinstance(encoding, int) or isinstance(encoding, bool):
        raise TypeError(f"encoding must be an int (546, 273), not {type(encoding).__name__}")
    integer = encoding & C.MQENC_INTEGER_MASK
    if integer == C.MQENC_INTEGER_REVERSED:
        return _LITTLE
    if integer == C.MQENC_INTEGER_NORMAL:
        return _BIG
    raise ValueError(
        f"encoding {encoding} has integer encoding {integer}; only MQENC_INTEGER_REVERSED "
        f"(2, as in 546) and MQENC_INTEGER_NORMAL (1, as in 273) are supported"
    )


class _Invalid(Exception):
    """A value did not fit on the fast path; :meth:`_Codec._explain` says which and why."""


class _Codec:
    """The packed form of one structure class at one version in one byte order."""

    __slots__ = (
        "_bytes",
        "_chars",
        "_embedded",
        "_fields",
        "_get",
        "_kept",
        "_names",
        "_struc_id",
        "_struct",
        "_trimmed",
        "cls",
        "offsets",
        "order",
        "size",
        "version",
    )

    def __init__(self, cls: type[MQStruct], version: int, order: str) -> None:
        fields = tuple(f for f in cls._LAYOUT if f.version <= version)
        if [(f.name, f.kind) for f in fields[:2]] != [("StrucId", "c"), ("Version", "l")]:
            raise ValueError(f"{cls.__name__}: a layout must start with StrucId and Version")
        self.cls = cls
        self.version = version
        self.order = order
        self._fields = fields
        self._names = tuple(f.name for f in fields)
        self._get = attrgetter(*self._names)
        self._struc_id: object = getattr(cls, "StrucId", None)
        self._struct = struct.Struct(order + "".join(_format(cls, f) for f in fields))
        self.size = self._struct.size
        self.offsets: dict[str, int] = {}
        offset = 0
        for f in fields:
            self.offsets[f.name] = offset
            offset += f.length
        indexed = list(enumerate(fields))
        self._chars = tuple((i, f.length) for i, f in indexed if f.kind == "c")
        self._bytes = tuple((i, f.length) for i, f in indexed if f.kind == "b")
        self._embedded = tuple(i for i, f in indexed if f.kind == "md")
        full_width = {i for i, f in indexed if f.name in _FULL_WIDTH_NAMES or f.length == 1}
        self._kept = tuple(i for i, _ in self._chars if i in full_width)
        self._trimmed = tuple(i for i, _ in self._chars if i not in full_width)

    def pack(self, obj: MQStruct) -> bytes:
        """Pack ``obj``; the Version written is always this codec's version."""
        values: list[Any] = list(self._get(obj))
        values[1] = self.version
        try:
            for i, length in self._chars:
                encoded = values[i].ljust(length).encode("latin-1")
                if len(encoded) != length:
                    raise _Invalid
                values[i] = encoded
            for i, length in self._bytes:
                if len(values[i]) > length:
                    raise _Invalid
            for i in self._embedded:
                values[i] = _pack_embedded(values[i], self.order)
            return self._struct.pack(*values)
        except (_Invalid, AttributeError, TypeError, ValueError, struct.error):
            self._explain(self._get(obj))
            raise

    def unpack(self, raw: bytes) -> MQStruct:
        """Read the structure from the start of ``raw`` (longer input is fine: data may follow)."""
        if len(raw) < self.size:
            raise ValueError(
                f"{self.cls.__name__} version {self.version} needs {self.size} bytes, "
                f"got {len(raw)}"
            )
        values: list[Any] = list(self._struct.unpack_from(raw))
        for i in self._trimmed:
            values[i] = values[i].decode("latin-1").rstrip(" ")
        for i in self._kept:
            values[i] = values[i].decode("latin-1")
        if values[0] != self._struc_id:
            raise ValueError(
                f"not an {self.cls.__name__}: StrucId is {values[0]!r}, expected {self._struc_id!r}"
            )
        for i in self._embedded:
            values[i] = _codec(MD, C.MQMD_VERSION_1, self.order).unpack(values[i])
        obj = object.__new__(self.cls)
        obj.__dict__.update(zip(self._names, values, strict=True))
        return obj

    def _explain(self, values: tuple[Any, ...]) -> None:
        """Raise TypeError or ValueError naming the first field whose value cannot be packed."""
        for field, value in zip(self._fields, values, strict=True):
            where = f"{self.cls.__name__}.{field.name}"
            if field.kind == "c":
                _check_type(where, value, str, "str")
                _check_length(where, len(value), field.length, "characters")
                try:
                    value.encode("latin-1")
                except UnicodeEncodeError as exc:
                    raise ValueError(f"{where} has a character outside Latin-1: {exc}") from None
            elif field.kind == "b":
                _check_type(where, value, bytes | bytearray, "bytes")
                _check_length(where, len(value), field.length, "bytes")
            elif field.kind == "l":
                _check_type(where, value, int, "an int")
                if not _LONG_MIN <= value <= _LONG_MAX:
                    raise ValueError(f"{where} is {value}, outside the MQLONG range")
            elif field.kind == "q":
                _check_type(where, value, int, "an int")
                if not _INT64_MIN <= value <= _INT64_MAX:
                    raise ValueError(f"{where} is {value}, outside the MQINT64 range")
            else:
                _check_type(where, value, MD, "an MD")
                _pack_embedded(value, self.order)


def _check_type(where: str, value: object, kind: type | UnionType, described: str) -> None:
    if not isinstance(value, kind):
        raise TypeError(f"{where} must be {described}, not {type(value).__name__}")


def _check_length(where: str, length: int, limit: int, unit: str) -> None:
    if length > limit:
        raise ValueError(f"{where} is {length} {unit}; the field holds {limit}")


def _pack_embedded(md: MD, order: str) -> bytes:
    """An embedded descriptor: always packed as version 1, in the enclosing structure's order."""
    return _codec(MD, C.MQMD_VERSION_1, order).pack(md)


def _format(cls: type[MQStruct], field: Field) -> str:
    if field.kind == "l" and field.length == 4:
        return "i"
    if field.kind == "q" and field.length == 8:
        return "q"
    if field.kind in ("c", "b", "md"):
        return f"{field.length}s"
    raise ValueError(f"{cls.__name__}.{field.name}: unsupported field {field}")


_CODECS: dict[tuple[type[MQStruct], int, str], _Codec] = {}


def _codec(cls: type[MQStruct], version: Any, order: str) -> _Codec:
    try:
        return _CODECS[(cls, version, order)]
    except (KeyError, TypeError):  # TypeError: an unhashable Version
        pass
    if not isinstance(version, int) or isinstance(version, bool):
        raise TypeError(f"{cls.__name__}.Version must be an int, not {type(version).__name__}")
    if not min_version(cls) <= version <= max_version(cls):
        raise ValueError(
            f"{cls.__name__}.Version is {version}; mqlearn knows versions "
            f"{min_version(cls)} to {max_version(cls)}"
        )
    codec = _CODECS[(cls, version, order)] = _Codec(cls, version, order)
    return codec


_MAX_VERSIONS: dict[type[MQStruct], int] = {}
_MIN_VERSIONS: dict[type[MQStruct], int] = {}


def min_version(cls: type[MQStruct]) -> int:
    """The lowest version of ``cls`` there is: the version its first fields carry (MD: 1; the
    MQMDE, whose only version is 2: 2)."""
    try:
        return _MIN_VERSIONS[cls]
    except KeyError:
        lowest = _MIN_VERSIONS[cls] = min(f.version for f in cls._LAYOUT)
        return lowest


def max_version(cls: type[MQStruct]) -> int:
    """The highest version of ``cls`` that its layout describes (MD: 2)."""
    try:
        return _MAX_VERSIONS[cls]
    except KeyError:
        highest = _MAX_VERSIONS[cls] = max(f.version for f in cls._LAYOUT)
        return highest


def packed_length(cls: type[MQStruct], version: int = 1) -> int:
    """Bytes in ``cls`` packed as ``version``: ``packed_length(MD, 2) == 364``."""
    return _codec(cls, version, _LITTLE).size


def field_offset(cls: type[MQStruct], name: str, version: int | None = None) -> int:
    """Byte offset of field ``name`` in ``cls``, at ``version`` (default: the highest)."""
    offsets = _codec(cls, max_version(cls) if version is None else version, _LITTLE).offsets
    try:
        return offsets[name]
    except KeyError:
        raise KeyError(f"{cls.__name__} has no field {name!r} at that version") from None


def pack_struct(obj: MQStruct, encoding: int) -> bytes:
    """``obj`` as IBM lays it out, integers in ``encoding``'s byte order.

    Only the fields of ``obj.Version`` are packed. A value of the wrong type raises TypeError and
    one that does not fit its field raises ValueError; both messages name the field.
    """
    return _codec(type(obj), _version_of(obj), byte_order(encoding)).pack(obj)


def unpack_struct(cls: type[S], raw: bytes, encoding: int | None = None) -> S:
    """Read a ``cls`` from the start of ``raw``; its version is taken from the bytes.

    ``encoding`` gives the byte order of the structure itself. ``None`` detects it from the Version
    at offset 4: if read little-endian it is a version of ``cls`` (1 for most headers, 2 for the
    MQMDE, 1 or 2 for an MD), the structure is little-endian; otherwise it is read big-endian. The
    two readings cannot both be valid (version 1 big-endian reads as 16777216 little-endian, 2 as
    33554432), so detection is exact.
    Too few bytes, an unknown version or a wrong ``StrucId`` raise ValueError naming ``cls``.
    """
    if len(raw) < _VERSION_OFFSET + 4:
        raise ValueError(f"{cls.__name__} needs 8 bytes to read its Version, got {len(raw)}")
    order = _LITTLE if encoding is None else byte_order(encoding)
    (version,) = _VERSION_AT[order].unpack_from(raw, _VERSION_OFFSET)
    if encoding is None and not min_version(cls) <= version <= max_version(cls):
        order = _BIG
        (version,) = _VERSION_AT[order].unpack_from(raw, _VERSION_OFFSET)
    return cast(S, _codec(cls, version, order).unpack(raw))


def unpack_md(raw: bytes, encoding: int | None = None) -> MD:
    """Read an MQMD (version 1 or 2, from the bytes) with :func:`unpack_struct`'s detection rule.

    Note that ``MD.Encoding`` describes the message data, not the descriptor, so the descriptor's
    own byte order is detected from its Version field rather than taken from Encoding.
    """
    return unpack_struct(MD, raw, encoding)
