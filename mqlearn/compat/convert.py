"""Between the libraries' structures (bytes character fields, blank-padded as MQ returns them) and
the engine's (str character fields without trailing blanks).

Only fields that differ from the engine's initial values are copied in, so the engine sees the
same sparse descriptor a program written for it would give (and takes its fast paths).
"""

from __future__ import annotations

from typing import Any

from mqlearn.compat.structs import MQOpts
from mqlearn.mqi.structs import GMO, MD, PMO, MQStruct


def _text(value: Any, field: str) -> str:
    if isinstance(value, bytes):
        return value.split(b"\0", 1)[0].decode("utf-8", "replace").rstrip(" ")
    if isinstance(value, str):
        return value.rstrip(" ")
    if isinstance(value, int) and field in ("GroupStatus", "SegmentStatus", "Segmentation"):
        return chr(value)
    raise TypeError(f"{field} must be bytes, got {type(value).__name__}")


def _check_text(value: Any, field: str, flavour_accepts_str: bool) -> None:
    if isinstance(value, str) and not flavour_accepts_str:
        raise TypeError(
            "Python 3 style string (unicode) found but not allowed here: "
            f"`{value}`. Convert to bytes."
        )


def to_engine(ours: MQOpts, engine_type: type[MQStruct]) -> MQStruct:
    """The engine structure for ``ours`` (fields the engine does not know are left out)."""
    made = engine_type()
    accepts_str = ours._FLAVOUR.str_fields
    defaults = {f.name: f for f in engine_type._LAYOUT}
    for name, field in defaults.items():
        if name == "StrucId" or not hasattr(ours, name):
            continue
        value = getattr(ours, name)
        if field.kind == "c":
            _check_text(value, name, accepts_str)
            value = _text(value, name)
        elif field.kind == "b":
            _check_text(value, name, accepts_str)
            if isinstance(value, str):
                value = value.encode("ascii")
            if not isinstance(value, bytes):
                raise TypeError(f"{name} must be a byte array")
            value = value[: field.length].ljust(field.length, b"\0")
        elif isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int, got {type(value).__name__}")
        default = getattr(engine_type, name)
        if field.kind == "c" and isinstance(default, str):
            if value == default.rstrip(" "):  # "" is MQFMT_NONE's 8 blanks, as MQ pads it
                continue
        if value != default:
            made.__dict__[name] = value
    return made


def _padded(value: Any, length: int) -> bytes:
    if isinstance(value, str):
        value = value.encode("utf-8")
    return bytes(value)[:length].ljust(length, b" ")


def from_engine(engine: MQStruct, ours: MQOpts) -> None:
    """Write the engine structure's values back into ``ours``, as the MQI returns them:
    character fields blank-padded to their length, identifiers NUL-padded."""
    for field in type(engine)._LAYOUT:
        name = field.name
        if name == "StrucId" or not hasattr(ours, name):
            continue
        value = getattr(engine, name)
        if field.kind == "c":
            if name in ("GroupStatus", "SegmentStatus", "Segmentation"):
                value = ord(value)
            elif name != "Reserved1":
                value = _padded(value, field.length)
            else:
                continue
        elif field.kind == "b":
            value = bytes(value)[: field.length].ljust(field.length, b"\0")
        object.__setattr__(ours, name, value)


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
