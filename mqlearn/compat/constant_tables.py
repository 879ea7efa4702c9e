"""IBM's constant modules as pymqi and ibmmq hold them, made from mqlearn's one home of IBM's
constants: the tables in mqlearn/mqi (cmqc, cmqxc, cmqcfc, cmqstrc), generated from IBM's files
by tools/cmqc_snapshot.py. A value is written once, there; docs/compat.md, "IBM's constants"."""

from __future__ import annotations

from types import ModuleType


def held_as_bytes(table: ModuleType) -> dict[str, object]:
    """The table's definitions with its character constants as bytes, as the libraries hold them.

    The tables hold ``str`` for IBM's character constants only (alone or in an ``_ARRAY`` list),
    so each ``str`` becomes its ASCII bytes; ints, byte identifiers and CMQSTRC's name tables
    are the table's own values. (Ints, most of the names, skip the call: this runs on import.)
    """
    return {
        name: value if type(value) is int else _bytes(value)
        for name, value in vars(table).items()
        if name.startswith("MQ")
    }


def _bytes(value: object) -> object:
    if isinstance(value, str):
        return value.encode("ascii")
    if isinstance(value, list) and value and isinstance(value[0], str):
        return [item.encode("ascii") for item in value]
    return value
