"""Structure fields as IBM's C tools print them: full width, as the bytes of the C structure.

In C a character field is a blank-padded array without a terminating NUL, and a byte field is
always its full length. mqlearn keeps character fields as ``str`` without trailing blanks and
may hold short ``bytes``; these helpers give back what the C programs see and print.
"""

from __future__ import annotations

from mqlearn.mqi.structs import MQStruct

_LENGTHS: dict[type[MQStruct], dict[str, int]] = {}


def field_length(cls: type[MQStruct], name: str) -> int:
    """The length in bytes of field ``name`` in IBM's layout of ``cls``."""
    lengths = _LENGTHS.get(cls)
    if lengths is None:
        lengths = _LENGTHS[cls] = {field.name: field.length for field in cls._LAYOUT}
    return lengths[name]


def printed_chars(struct: MQStruct, name: str) -> str:
    """A character field as ``%.*s`` prints it: padded to its length, ending at a first NUL."""
    length = field_length(type(struct), name)
    return str(getattr(struct, name)).ljust(length)[:length].split("\0", 1)[0]


def field_bytes(struct: MQStruct, name: str) -> bytes:
    """The field's bytes at full width: byte fields NUL-padded, character fields blank-padded."""
    value = getattr(struct, name)
    length = field_length(type(struct), name)
    if isinstance(value, bytes):
        return value.ljust(length, b"\0")[:length]
    return str(value).ljust(length).encode("latin-1")[:length]


def printed_hex(struct: MQStruct, name: str) -> str:
    """A field as uppercase hex, two digits per byte of its full width (``%02X`` per byte)."""
    return field_bytes(struct, name).hex().upper()
