"""Between the libraries' structures (bytes character fields, blank-padded as MQ returns them) and
the engine's (str character fields without trailing blanks).

Only fields that differ from the engine's initial values are copied in, so the engine sees the
same sparse descriptor a program written for it would give (and takes its fast paths). Which
fields the two structures share, and how each converts, is worked out once per pair of classes.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from mqlearn.compat.mqopts import MQOpts
from mqlearn.mqi.structs import GMO, MD, PMO, MQStruct

_STATUS = frozenset({"GroupStatus", "SegmentStatus", "Segmentation"})  # MQCHAR codes, ints here


class Shared(NamedTuple):
    """One field both structures have: its name, the engine's kind and length, the engine's
    initial value and that value as the library gives it for "not set"."""

    name: str
    kind: str
    length: int
    default: Any
    blank: Any


_SHARED: dict[tuple[str, str], tuple[Shared, ...]] = {}


def shared_fields(ours: type[MQOpts], engine: type[MQStruct]) -> tuple[Shared, ...]:
    key = (f"{ours.__module__}.{ours.__qualname__}", engine.__name__)
    found = _SHARED.get(key)
    if found is None:
        found = _SHARED[key] = _shared(ours, engine)
    return found


def _shared(ours: type[MQOpts], engine: type[MQStruct]) -> tuple[Shared, ...]:
    names = {name for name, _, _ in ours._FIELDS}
    found = []
    for field in engine._LAYOUT:
        if field.name == "StrucId" or field.name not in names:
            continue
        default = getattr(engine, field.name)
        blank = default.rstrip(" ") if field.kind == "c" and isinstance(default, str) else default
        found.append(Shared(field.name, field.kind, field.length, default, blank))
    return tuple(found)


def _refuse_str(value: str) -> TypeError:
    return TypeError(
        f"Python 3 style string (unicode) found but not allowed here: `{value}`. Convert to bytes."
    )


def _text(value: Any, field: str) -> str:
    if isinstance(value, bytes):
        return value.split(b"\0", 1)[0].decode("utf-8", "replace").rstrip(" ")
    if isinstance(value, str):
        return value.rstrip(" ")
    if isinstance(value, int) and field in _STATUS:
        return chr(value)
    raise TypeError(f"{field} must be bytes, got {type(value).__name__}")


def to_engine(ours: MQOpts, engine_type: type[MQStruct]) -> MQStruct:
    """The engine structure for ``ours`` (fields the engine does not know are left out)."""
    made = engine_type()
    accepts_str = ours._FLAVOUR.str_fields
    values = ours.__dict__
    out = made.__dict__
    for name, kind, length, default, blank in shared_fields(type(ours), engine_type):
        value = values[name]
        if kind in ("l", "q"):  # an MQLONG, or an MQINT64 (a message handle)
            if value == default and type(value) is int:
                continue
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name} must be an int, got {type(value).__name__}")
        elif kind == "c":
            if value == b"" and blank == "":
                continue  # the common case: a field the program left alone
            if isinstance(value, str) and not accepts_str:
                raise _refuse_str(value)
            value = _text(value, name)
            if value == blank:  # "" is MQFMT_NONE's 8 blanks, as MQ pads it
                continue
        else:
            if isinstance(value, str):
                if not accepts_str:
                    raise _refuse_str(value)
                value = value.encode("ascii")
            if not isinstance(value, bytes):
                raise TypeError(f"{name} must be a byte array")
            value = value[:length].ljust(length, b"\0")
        if value != default:
            out[name] = value
    return made


def from_engine(engine: MQStruct, ours: MQOpts) -> None:
    """Write the engine structure's values back into ``ours``, as the MQI returns them:
    character fields blank-padded to their length, identifiers NUL-padded."""
    values = ours.__dict__
    for name, kind, length, _, _ in shared_fields(type(ours), type(engine)):
        value = getattr(engine, name)
        if kind == "c":
            if name in _STATUS:
                value = ord(value)
            elif name == "Reserved1":
                continue
            else:
                if isinstance(value, str):
                    value = value.encode("utf-8")
                value = value[:length].ljust(length, b" ")
        elif kind == "b":
            value = bytes(value)[:length].ljust(length, b"\0")
        values[name] = value


def md_in(md: MQOpts) -> MD:
    made = to_engine(md, MD)
    assert isinstance(made, MD)
    return made


def gmo_in(gmo: MQOpts) -> GMO:
    made = to_engine(gmo, GMO)
    assert isinstance(made, GMO)
    return made


def pmo_in(pmo: MQOpts) -> PMO:
    made = to_engine(pmo, PMO)
    assert isinstance(made, PMO)
    return made
