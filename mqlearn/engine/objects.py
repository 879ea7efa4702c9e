"""Queue definitions with MQSC attribute names: local, remote and alias queues.

Values are checked here, once, when a definition is made or altered; a bad value raises a
ValueError that names the attribute, and nothing changes.

A definition is read-only to everyone but its queue manager: ``d.capexpry = 10`` raises
:class:`ReadOnlyDefinitionError` saying to use ``alter_qlocal``/``alter`` or MQSC ALTER, since only
those tell the queue manager (its route cache, rule EXP-06's cap) that something changed.
ALTER changes the definition in place (:func:`assign`), so a definition read back after an ALTER
shows the new values.
"""

from __future__ import annotations

import re
from dataclasses import FrozenInstanceError, dataclass, field, fields, replace
from typing import Any

from mqlearn.engine.store import LocalStore

_NAME = re.compile(r"[A-Za-z0-9._/%]{1,48}")


class ReadOnlyDefinitionError(FrozenInstanceError):
    """Setting an attribute of a queue definition: only ALTER changes one."""


def _read_only(self: QueueDefinition, name: str, value: object) -> None:
    alter = "alter_qlocal" if self.qtype == "QLOCAL" else "alter"
    raise ReadOnlyDefinitionError(
        f"{self.qtype} {self.name} is read-only: change {name.upper()} with "
        f"qm.{alter}({self.name!r}, {name}=...) or MQSC "
        f"ALTER {self.qtype}({self.name}) {name.upper()}(...)"
    )


def _no_delete(self: QueueDefinition, name: str) -> None:
    _read_only(self, name, None)


def assign(target: QueueDefinition, name: str, value: object) -> None:
    """Set an attribute of a definition: for its own checks and its queue manager's ALTER only."""
    object.__setattr__(target, name, value)


def check_name(name: object, what: str = "queue name") -> str:
    """An MQ object name: 1-48 characters from A-Z a-z 0-9 . _ / %."""
    if not isinstance(name, str):
        raise TypeError(f"{what} must be a str, got {type(name).__name__}")
    if not _NAME.fullmatch(name):
        raise ValueError(f"{what} {name!r} is not a valid MQ name (1-48 of A-Z a-z 0-9 . _ / %)")
    return name


def _choice(attr: str, value: object, allowed: tuple[str, ...]) -> str:
    text = str(value).upper()
    if text not in allowed:
        raise ValueError(f"{attr.upper()} must be one of {', '.join(allowed)}, got {value!r}")
    return text


def _int(attr: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{attr.upper()} must be an int, got {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{attr.upper()} must be in {low}..{high}, got {value}")
    return value


def capexpry_value(value: object) -> int | None:
    """CAPEXPRY in tenths, or None for NOLIMIT (also given as -1 or "NOLIMIT")."""
    if value is None or value == -1 or (isinstance(value, str) and value.upper() == "NOLIMIT"):
        return None
    return _int("capexpry", value, 1, 999_999_999)


# IndexType (z/OS): GROUPID is what logical-order and whole-group gets need (2394)
INDEX_TYPES = ("NONE", "MSGID", "CORRELID", "GROUPID", "MSGTOKEN")


def _persistence(value: object) -> int:
    return 1 if _choice("defpsist", value, ("YES", "NO")) == "YES" else 0


@dataclass(frozen=True)
class QueueDefinition:
    """Attributes common to every queue type."""

    name: str
    defprty: int = 0
    defpsist: str = "NO"
    capexpry: int | None = None
    put: str = "ENABLED"

    qtype = "QUEUE"

    def __post_init__(self) -> None:
        check_name(self.name)
        assign(self, "defprty", _int("defprty", self.defprty, 0, 9))
        assign(self, "defpsist", _choice("defpsist", self.defpsist, ("YES", "NO")))
        assign(self, "capexpry", capexpry_value(self.capexpry))
        assign(self, "put", _choice("put", self.put, ("ENABLED", "DISABLED")))

    @property
    def default_persistence(self) -> int:
        return _persistence(self.defpsist)

    def altered(self, **attrs: Any) -> QueueDefinition:
        """A copy with new attribute values (checked); unknown keywords raise TypeError."""
        known = {f.name for f in fields(self) if f.init}
        unknown = set(attrs) - known
        if unknown:
            raise TypeError(f"{self.qtype} has no attribute {sorted(unknown)[0].upper()}")
        return replace(self, **attrs)


@dataclass(frozen=True)
class QLocal(QueueDefinition):
    """A local queue (also a transmission queue when ``usage="XMITQ"``)."""

    msgdlvsq: str = "PRIORITY"
    maxdepth: int = 5000
    usage: str = "NORMAL"
    get: str = "ENABLED"
    trigger: bool = False
    trigtype: str = "FIRST"
    trigdpth: int = 1
    trigmpri: int = 0
    trigdata: str = ""
    initq: str | None = None
    process: str = ""
    indxtype: str = "NONE"  # z/OS only (IndexType; rules MD-10, MD-11)
    propctl: str = "COMPAT"  # what a get without a message handle receives (MQRFH2 or none)
    store: LocalStore = field(default_factory=LocalStore, compare=False, repr=False)

    qtype = "QLOCAL"

    def __post_init__(self) -> None:
        super().__post_init__()
        assign(self, "msgdlvsq", _choice("msgdlvsq", self.msgdlvsq, ("PRIORITY", "FIFO")))
        assign(self, "maxdepth", _int("maxdepth", self.maxdepth, 0, 999_999_999))
        assign(self, "usage", _choice("usage", self.usage, ("NORMAL", "XMITQ")))
        assign(self, "get", _choice("get", self.get, ("ENABLED", "DISABLED")))
        if not isinstance(self.trigger, bool):
            raise TypeError(f"TRIGGER must be True or False, got {self.trigger!r}")
        assign(
            self,
            "trigtype",
            _choice("trigtype", self.trigtype, ("FIRST", "EVERY", "DEPTH", "NONE")),
        )
        assign(self, "trigdpth", _int("trigdpth", self.trigdpth, 1, 999_999_999))
        assign(self, "trigmpri", _int("trigmpri", self.trigmpri, 0, 9))
        assign(
            self,
            "propctl",
            _choice("propctl", self.propctl, ("COMPAT", "ALL", "FORCE", "NONE", "V6COMPAT")),
        )
        if self.initq is not None:
            check_name(self.initq, "INITQ")
        indxtype = _choice("indxtype", self.indxtype, INDEX_TYPES)
        assign(self, "indxtype", indxtype)
        if indxtype == "GROUPID" and self.usage == "XMITQ":
            raise ValueError("INDXTYPE(GROUPID): a transmission queue cannot be indexed by GroupId")

    @property
    def is_xmitq(self) -> bool:
        return self.usage == "XMITQ"


@dataclass(frozen=True)
class ProcessDefinition:
    """DEFINE PROCESS: the application a trigger message asks a trigger monitor to start.

    A queue names it in PROCESS; its values go into the trigger message's MQTM (rule TRG-04).
    ``appltype`` is an MQAT_* value (MQAT_DEFAULT, 6, when not given: the queue manager's own
    platform's type in MQ, mqlearn keeps the number it is given).
    """

    name: str
    applicid: str = ""
    appltype: int = 6  # MQAT_DEFAULT
    envrdata: str = ""
    userdata: str = ""
    descr: str = ""

    def __post_init__(self) -> None:
        check_name(self.name, "process name")
        for attr, most in (("applicid", 256), ("envrdata", 128), ("userdata", 128), ("descr", 64)):
            value = getattr(self, attr)
            if not isinstance(value, str):
                raise TypeError(f"{attr.upper()} must be a str, got {type(value).__name__}")
            if len(value) > most:
                raise ValueError(f"{attr.upper()} holds at most {most} characters")
        object.__setattr__(self, "appltype", _int("appltype", self.appltype, 0, 999_999_999))


@dataclass(frozen=True)
class QRemote(QueueDefinition):
    """A local definition of a remote queue (RNAME at RQMNAME, through XMITQ)."""

    rname: str = ""
    rqmname: str = ""
    xmitq: str | None = None

    qtype = "QREMOTE"

    def __post_init__(self) -> None:
        super().__post_init__()
        check_name(self.rname, "RNAME")
        check_name(self.rqmname, "RQMNAME")
        if self.xmitq is not None:
            check_name(self.xmitq, "XMITQ")

    @property
    def transmission_queue(self) -> str:
        return self.xmitq or self.rqmname


@dataclass(frozen=True)
class QAlias(QueueDefinition):
    """An alias for another queue (TARGET)."""

    target: str = ""

    qtype = "QALIAS"

    def __post_init__(self) -> None:
        super().__post_init__()
        check_name(self.target, "TARGET")


# frozen dataclasses, but an assignment says what to do instead, and ALTER changes a definition
# in place (so one is no dict key, as before)
for _cls in (QueueDefinition, QLocal, QRemote, QAlias):
    _cls.__setattr__ = _read_only  # type: ignore[assignment,method-assign]
    _cls.__delattr__ = _no_delete  # type: ignore[assignment,method-assign]
    _cls.__hash__ = None  # type: ignore[assignment]
