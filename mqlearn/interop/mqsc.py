"""A subset of MQSC for mqlearn queue managers: ``qm.mqsc(text)`` returns what runmqsc would print.

Commands: DEFINE QLOCAL/QREMOTE/QALIAS/PROCESS [REPLACE], ALTER QLOCAL/QREMOTE/QALIAS/PROCESS/QMGR,
DELETE QLOCAL [PURGE]/QREMOTE/QALIAS/PROCESS, CLEAR QLOCAL, DISPLAY
QLOCAL/QREMOTE/QALIAS/QUEUE/QSTATUS/PROCESS/QMGR (generic names such as ``APP.*``, ``ALL``) and
REFRESH QMGR TYPE(EXPIRY) [NAME(generic)].

Syntax as in MQSC: keywords in any case, with the synonyms DEF, DIS, ALT, QL, QR, QA, Q and QS;
unquoted values folded to upper case, quoted ones (``'app.in'``, ``''`` for a quote) kept as typed;
blanks or commas between keywords; a line ending in ``+`` continues at the first non-blank of the
next line, one ending in ``-`` at its first column; a line starting with ``*`` is a comment.

Every change goes through the engine's Python API (``define_qlocal``, ``alter``, ``delete_queue``,
``clear_qlocal``, ``define_process``, ``alter_process``, ``delete_process``, ``alter_qmgr``,
``refresh_expiry``) with MQSC's keywords in lower case, so a
definition made here equals one made from Python, and a command that fails changes nothing.

CAPEXPRY (rule EXP-06) is accepted in both of IBM's forms: inside the CUSTOM attribute,
``CUSTOM('CAPEXPRY(600)')``, the only form from IBM MQ 8.0.0.4 until 9.3.0 (on z/OS it also needs
APAR PI50761 and ``RECOVER QMGR(TUNE CAPEXPRY ON)``), and as an attribute of its own,
``CAPEXPRY(600)``, which IBM added in 9.3.1 on AIX, Linux, Windows and IBM i and which every
platform, z/OS included, has from 9.4.0. IBM says the two must not be set together: the CUSTOM
entry must be removed before the attribute is set (its example: ``ALTER QLOCAL(Q1) CAPEXPRY(1000)
CUSTOM('')``), and z/OS refuses a queue with both (CSQM531I). So a DEFINE or ALTER that would leave
a queue with a CAPEXPRY attribute other than NOLIMIT and a CAPEXPRY entry in CUSTOM fails and
changes nothing, on every profile; z/OS answers CSQM531I, the others a line of mqlearn's own (IBM
documents no runmqsc message for it). DISPLAY shows each form where it was set. mqlearn accepts
either form alone on every profile, whatever release it stands for.

Replies are runmqsc's, in the form of the distributed platforms (AMQ messages) on every profile:
a z/OS queue manager answers the same commands with CSQ messages (CSQ9022I ... NORMAL COMPLETION
and the CSQM... messages), which mqlearn does not reproduce.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mqlearn.engine.mqi_checks import fail
from mqlearn.engine.objects import QueueDefinition, capexpry_value, check_name
from mqlearn.interop.mqsc_display import (
    PROCESS_KEYWORDS,
    QUEUE_TYPES,
    STATUS_KEYWORDS,
    attribute_fields,
    process_details,
    qmgr_details,
    qmgr_keywords,
    queue_details,
    queue_keywords,
    status_details,
)
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError

if TYPE_CHECKING:
    from mqlearn.engine.qmgr import QueueManager

_SEPARATORS = " \t,"
_DELIMITERS = " \t,()'"
_GENERIC = re.compile(r"[A-Za-z0-9._/%]{0,47}\*?")
_NUMBER = re.compile(r"[+-]?[0-9]+")
_DIGITS = 12  # longer numbers are out of every attribute's range (and slow to convert)
_CUSTOM_CAPEXPRY = re.compile(r"\s*CAPEXPRY\s*\(\s*([^()\s]*)\s*\)\s*")

VERBS = {
    "DEFINE": "DEFINE",
    "DEF": "DEFINE",
    "ALTER": "ALTER",
    "ALT": "ALTER",
    "DELETE": "DELETE",
    "CLEAR": "CLEAR",
    "DISPLAY": "DISPLAY",
    "DIS": "DISPLAY",
    "REFRESH": "REFRESH",
}
OBJECTS = {
    "PROCESS": "PROCESS",
    "PRO": "PROCESS",
    "QLOCAL": "QLOCAL",
    "QL": "QLOCAL",
    "QREMOTE": "QREMOTE",
    "QR": "QREMOTE",
    "QALIAS": "QALIAS",
    "QA": "QALIAS",
    "QUEUE": "QUEUE",
    "Q": "QUEUE",
    "QSTATUS": "QSTATUS",
    "QS": "QSTATUS",
    "QMGR": "QMGR",
}

# runmqsc's answers to the reason codes the engine raises for these commands
_FAILURES = {
    C.MQRC_OBJECT_ALREADY_EXISTS: "AMQ8150E: IBM MQ object already exists.",
    C.MQRC_UNKNOWN_OBJECT_NAME: "AMQ8147E: IBM MQ object {name} not found.",
    C.MQRC_OBJECT_TYPE_ERROR: "AMQ8151E: IBM MQ object has different type.",
    C.MQRC_Q_NOT_EMPTY: "AMQ8143E: IBM MQ queue not empty.",
    C.MQRC_OBJECT_IN_USE: "AMQ8148E: IBM MQ object in use.",
}
_OTHER_FAILURE = "AMQ8101S: IBM MQ error ({reason:X}) has occurred."

# why a keyword that real MQSC knows is refused here
_NOTES = {
    (
        "ALTER",
        "MAXPRTY",
    ): "MAXPRTY is fixed at 9 in MQSC; Python can set it: qm.alter_qmgr(maxprty=)",
    ("ALTER", "EXPRYINT"): (
        "EXPRYINT is a z/OS attribute (rule EXP-28); on distributed and IBM i the expiry task "
        "interval is qm.ini's ExpiryInterval, set from Python with qm.alter_qmgr(expryint=)"
    ),
    ("DISPLAY", "EXPRYINT"): (
        "EXPRYINT is a z/OS attribute (rule EXP-28); Python shows this queue manager's "
        "interval as qm.expryint"
    ),
    ("ALTER", "CCSID"): (
        "ALTER QMGR CCSID is not valid on z/OS, where the CCSID comes from the system parameters "
        "(rule MD-04); Python can set it: qm.alter_qmgr(ccsid=)"
    ),
}


@dataclass(frozen=True)
class Param:
    """One ``KEYWORD`` or ``KEYWORD(value)`` of a command; offsets point into the command text."""

    keyword: str  # upper case
    value: str | None  # None: no parentheses
    at: int  # just after the keyword: where an error about the keyword is reported
    end: int  # just after the whole parameter


@dataclass(frozen=True)
class Command:
    """A command after its verb and object: ``name`` is the object's value (None for QMGR)."""

    text: str
    verb: str
    obj: str
    name: str | None
    params: tuple[Param, ...]

    @property
    def queue(self) -> str:
        """The queue name or generic name that every object but QMGR has."""
        assert self.name is not None, "QMGR has no name"
        return self.name


class _Syntax(Exception):
    """A command runmqsc would reject; ``end`` is where in the command the problem was found."""

    def __init__(self, end: int, *why: str) -> None:
        super().__init__(end, *why)
        self.end = end
        self.why = why

    def lines(self, text: str) -> list[str]:
        return [
            "AMQ8405I: Syntax error detected at or near end of command segment below:-",
            text[: self.end],
            *self.why,
        ]


class _Failed(Exception):
    """A valid command the queue manager could not carry out; ``line`` is runmqsc's message."""

    def __init__(self, line: str) -> None:
        super().__init__(line)
        self.line = line


# --- reading commands -------------------------------------------------------------------------


@dataclass(frozen=True)
class _Input:
    lines: tuple[str, ...]  # as typed, for the echo
    command: str | None  # continuations joined; None for a comment or blank line
    line: int  # the number of its first line in the text, from 1


def _inputs(text: str) -> Iterator[_Input]:
    """Split MQSC text into commands (continuations joined), comments and blank lines."""
    lines = [line.rstrip() for line in text.splitlines()]
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        first = i
        if not line.strip() or line.startswith("*"):
            yield _Input((line,), None, first)
            continue
        typed, parts, current = [line], [], line.lstrip()
        while current.endswith(("+", "-")) and i < len(lines):
            parts.append(current[:-1])
            following = lines[i]
            i += 1
            typed.append(following)
            current = following.lstrip() if current[-1] == "+" else following
        parts.append(current[:-1] if current.endswith(("+", "-")) else current)
        yield _Input(tuple(typed), "".join(parts), first)


def _value(text: str, i: int) -> tuple[str, int]:
    """The value inside parentheses opened just before ``i``, and the offset after ``)``."""
    n = len(text)
    while i < n and text[i] in " \t":
        i += 1
    if i < n and text[i] == "'":
        pieces = []
        i += 1
        while True:
            close = text.find("'", i)
            if close < 0:
                raise _Syntax(n, "a quoted string is not closed")
            pieces.append(text[i:close])
            i = close + 1
            if not text.startswith("'", i):
                break
            pieces.append("'")  # '' stands for one quote
            i += 1
        while i < n and text[i] in " \t":
            i += 1
        if i == n or text[i] != ")":
            raise _Syntax(min(i + 1, n), "')' expected after the quoted string")
        return "".join(pieces).rstrip(), i + 1
    start = i
    while i < n and text[i] not in "()'":
        i += 1
    if i == n or text[i] != ")":
        raise _Syntax(min(i + 1, n), "unbalanced parentheses or a stray quote")
    return text[start:i].strip().upper(), i + 1


def _params(text: str) -> list[Param]:
    """The keywords of a command, each with its value if it has one."""
    found: list[Param] = []
    i, n = 0, len(text)
    while True:
        while i < n and text[i] in _SEPARATORS:
            i += 1
        if i == n:
            return found
        start = i
        while i < n and text[i] not in _DELIMITERS:
            i += 1
        if i == start:
            raise _Syntax(i + 1, f"a keyword was expected, not {text[i]!r}")
        at = j = i
        while j < n and text[j] in " \t":
            j += 1
        if j < n and text[j] == "(":
            value, i = _value(text, j + 1)
            found.append(Param(text[start:at].upper(), value, at, i))
        else:
            found.append(Param(text[start:at].upper(), None, at, at))


# --- converting parameter values to engine keywords --------------------------------------------

Converter = Callable[[Param], Any]


def _text(p: Param) -> str:
    """The value of a keyword that needs one."""
    if p.value is None:
        raise _Syntax(p.at, f"{p.keyword} needs a value in parentheses")
    return p.value


def _int(p: Param) -> int:
    """A whole-number value (the engine checks the range)."""
    text = _text(p)
    if not _NUMBER.fullmatch(text):
        raise _Syntax(p.end, f"{p.keyword} needs a whole number, got {text!r}")
    if len(text) > _DIGITS:
        raise _Syntax(p.end, f"{p.keyword}({text}) is out of range")
    return int(text)


def _optional_name(p: Param) -> str | None:
    """A name that may be blank (INITQ, XMITQ): blank means none."""
    return _text(p) or None


def _capexpry(p: Param) -> int | str:
    """CAPEXPRY: tenths of a second or NOLIMIT (rule EXP-06)."""
    return "NOLIMIT" if _text(p) == "NOLIMIT" else _int(p)


def _expryint(p: Param) -> int:
    """EXPRYINT: seconds or OFF."""
    return 0 if _text(p) == "OFF" else _int(p)


@dataclass(frozen=True)
class _Custom:
    """A CUSTOM attribute as mqlearn reads it: its text, and the cap inside (None: NOLIMIT)."""

    text: str  # "" when CUSTOM is blank
    cap: int | None


def _custom(p: Param) -> _Custom:
    """CUSTOM('CAPEXPRY(n)') or CUSTOM(''): the older form of CAPEXPRY (rule EXP-06).

    IBM reserves CUSTOM for features added before they get attributes of their own; mqlearn
    knows only CAPEXPRY among them, so anything else in the string is a syntax error.
    """
    text = _text(p).strip().upper()
    if not text:
        return _Custom("", None)
    found = _CUSTOM_CAPEXPRY.fullmatch(text)
    if found is None:
        raise _Syntax(
            p.end,
            f"CUSTOM({text}): mqlearn's CUSTOM understands one entry, CAPEXPRY(n) in tenths "
            "or CAPEXPRY(NOLIMIT), for example CUSTOM('CAPEXPRY(600)')",
        )
    value = found[1]
    if value != "NOLIMIT" and (not _NUMBER.fullmatch(value) or len(value) > _DIGITS):
        raise _Syntax(p.end, f"CUSTOM(CAPEXPRY({value})) needs a whole number or NOLIMIT")
    with _values_checked(p.end):
        cap = capexpry_value("NOLIMIT" if value == "NOLIMIT" else int(value))
    return _Custom(f"CAPEXPRY({value if cap is None else cap})", cap)


def _flag(value: object) -> Converter:
    """A keyword without a value (REPLACE, TRIGGER, a DISPLAY attribute) standing for ``value``."""

    def convert(p: Param) -> object:
        if p.value is not None:
            raise _Syntax(p.end, f"{p.keyword} takes no value")
        return value

    return convert


_CONVERTERS: dict[str, Converter] = {
    "defprty": _int,
    "defpsist": _text,
    "capexpry": _capexpry,
    "put": _text,
    "msgdlvsq": _text,
    "indxtype": _text,
    "maxdepth": _int,
    "usage": _text,
    "get": _text,
    "trigtype": _text,
    "trigdpth": _int,
    "trigmpri": _int,
    "trigdata": _text,
    "initq": _optional_name,
    "process": _text,
    "propctl": _text,
    "rname": _text,
    "rqmname": _text,
    "xmitq": _optional_name,
    "target": _text,
}
_REQUIRED = {"QLOCAL": (), "QREMOTE": ("rname", "rqmname"), "QALIAS": ("target",)}
_CUSTOM_KEYWORD: dict[str, tuple[str, Converter]] = {"CUSTOM": ("custom", _custom)}
_REPLACE = {"REPLACE": ("replace", _flag(True)), "NOREPLACE": ("replace", _flag(False))}
_PURGE = {"PURGE": ("purge", _flag(True)), "NOPURGE": ("purge", _flag(False))}
_ALL = {"ALL": ("ALL", _flag(True))}
Table = Mapping[str, tuple[str, Converter]]


def _attribute_table(cls: type[QueueDefinition]) -> dict[str, tuple[str, Converter]]:
    """DEFINE/ALTER keywords of a queue type → (engine keyword, converter)."""
    table: dict[str, tuple[str, Converter]] = {}
    for field in attribute_fields(cls):
        if field == "trigger":
            table["TRIGGER"] = (field, _flag(True))
            table["NOTRIGGER"] = (field, _flag(False))
        else:
            table[field.upper()] = (field, _CONVERTERS[field])
    return table


_ATTRIBUTES = {qtype: _attribute_table(cls) for qtype, cls in QUEUE_TYPES.items()}


def _options(command: Command, table: Table) -> dict[str, Any]:
    """The command's parameters as engine keywords and values; unknown, repeated or contradictory
    keywords and bad values are syntax errors."""
    found: dict[str, Any] = {}
    for p in command.params:
        entry = table.get(p.keyword)
        if entry is None:
            context = f"{command.verb} {command.obj}"
            why = f"{p.keyword} is not a keyword of {context} in mqlearn's MQSC subset"
            note = _NOTES.get((command.verb, p.keyword))
            raise _Syntax(p.at, why, *([note] if note else []))
        target, convert = entry
        if target in found:
            raise _Syntax(p.at, f"{p.keyword} repeats or contradicts an earlier keyword")
        found[target] = convert(p)
    return found


@contextmanager
def _values_checked(end: int) -> Iterator[None]:
    """A value the engine refuses (ValueError/TypeError naming the attribute) is a syntax error."""
    try:
        yield
    except (ValueError, TypeError) as error:
        raise _Syntax(end, str(error)) from None


# --- commands ----------------------------------------------------------------------------------


def _typed(qm: QueueManager, command: Command) -> QueueDefinition:
    """The named queue, which must be of the command's type (2085 unknown, 2043 another type)."""
    definition = qm.definition(command.queue)
    if definition.qtype != command.obj:
        raise fail(C.MQRC_OBJECT_TYPE_ERROR, f"{command.queue} is a {definition.qtype}")
    return definition


# --- CAPEXPRY in CUSTOM ------------------------------------------------------------------------


@dataclass(frozen=True)
class _CapForms:
    """A queue whose CUSTOM holds a cap: that cap, and the CAPEXPRY attribute's own value.

    The engine keeps one cap per queue, the one that applies: the cap inside CUSTOM when there
    is one (the attribute is then NOLIMIT: the two are never set together), else the attribute.
    This record keeps what DISPLAY shows besides, for as long as the definition it was made for
    is the queue's.
    """

    definition: weakref.ReferenceType[QueueDefinition]
    custom: _Custom
    attribute: int | None

    def applies(self) -> int | None:
        return self.custom.cap


_FORMS: weakref.WeakKeyDictionary[QueueManager, dict[str, _CapForms]] = weakref.WeakKeyDictionary()


def _forms(qm: QueueManager, definition: QueueDefinition) -> _CapForms | None:
    """The CUSTOM record of a queue, if it still describes the queue's definition and cap (a
    cap changed from Python, or a queue deleted or redefined, leaves no CUSTOM behind)."""
    forms = _FORMS.get(qm, {}).get(definition.name)
    if forms is None or forms.definition() is not definition:
        return None
    return forms if definition.capexpry == forms.applies() else None


def _remember(qm: QueueManager, name: str, forms: _CapForms | None) -> None:
    known = _FORMS.setdefault(qm, {})
    if forms is None:
        known.pop(name, None)
    else:
        known[name] = forms


def _both_forms(qm: QueueManager, command: Command) -> _Failed:
    """The refusal of a command that would set CAPEXPRY both ways (rule EXP-06): CSQM531I on
    z/OS; elsewhere IBM documents no runmqsc message, so the line is mqlearn's own."""
    what = f"{command.obj}({command.queue})"
    if qm.profile == "zos":
        return _Failed(f"CSQM531I: CAPEXPRY and CUSTOM(CAPEXPRY) both set for {what}: refused.")
    return _Failed(
        f"mqlearn: {what} would have CAPEXPRY set both as an attribute and inside CUSTOM; IBM "
        "says the CUSTOM entry must be removed first, for example CAPEXPRY(n) CUSTOM('')."
    )


def _cap_attrs(
    attrs: dict[str, Any], custom: _Custom | None, old: _CapForms | None, current: int | None
) -> tuple[_Custom, int | None] | None:
    """The CUSTOM cap and the CAPEXPRY attribute after a DEFINE or ALTER, or None when neither
    is involved; sets ``attrs["capexpry"]`` to the cap that applies (rule EXP-06). Raises
    _BothForms when both forms would be set (IBM: never both), before anything changes."""
    if custom is None and old is None:
        return None
    if "capexpry" in attrs:
        attribute = capexpry_value(attrs["capexpry"])
    else:
        attribute = old.attribute if old is not None else current
    kept = custom if custom is not None else old.custom if old is not None else _Custom("", None)
    if kept.text and attribute is not None:
        raise _BothForms
    attrs["capexpry"] = kept.cap if kept.text else attribute
    return kept, attribute


class _BothForms(Exception):
    """A DEFINE or ALTER that would leave CAPEXPRY set both ways (rule EXP-06)."""


@contextmanager
def _one_form(qm: QueueManager, command: Command) -> Iterator[None]:
    """Turn a command that sets CAPEXPRY both ways into its refusal (rule EXP-06)."""
    try:
        yield
    except _BothForms:
        raise _both_forms(qm, command) from None


def _define(qm: QueueManager, command: Command) -> list[str]:
    """DEFINE QLOCAL/QREMOTE/QALIAS [REPLACE] through qm.define_*."""
    attrs = _options(command, {**_ATTRIBUTES[command.obj], **_REPLACE, **_CUSTOM_KEYWORD})
    missing = [k.upper() for k in _REQUIRED[command.obj] if not attrs.get(k)]
    if missing:
        raise _Syntax(len(command.text), f"mqlearn needs {' and '.join(missing)} here")
    defines: dict[str, Callable[..., QueueDefinition]] = {
        "QLOCAL": qm.define_qlocal,
        "QREMOTE": qm.define_qremote,
        "QALIAS": qm.define_qalias,
    }
    with _values_checked(len(command.text)), _one_form(qm, command):
        caps = _cap_attrs(attrs, attrs.pop("custom", None), None, None)
        definition = defines[command.obj](command.queue, **attrs)
    _record(qm, definition, caps)
    return ["AMQ8006I: IBM MQ queue created."]


def _record(
    qm: QueueManager, definition: QueueDefinition, caps: tuple[_Custom, int | None] | None
) -> None:
    """Remember a cap set inside CUSTOM (or forget it), once the engine has taken the change."""
    if caps is None:
        if _forms(qm, definition) is None:
            _remember(qm, definition.name, None)
        return
    custom, attribute = caps
    forms = _CapForms(weakref.ref(definition), custom, attribute) if custom.text else None
    _remember(qm, definition.name, forms)


_APPLTYPES = {"UNIX": C.MQAT_UNIX, "WINDOWSNT": C.MQAT_WINDOWS_NT, "OS400": C.MQAT_OS400}
_APPLTYPES |= {"ZOS": C.MQAT_ZOS, "MVS": C.MQAT_MVS, "DEF": C.MQAT_DEFAULT}


def _appltype(p: Param) -> int:
    """APPLTYPE: a number, or one of the platform names MQSC takes for the common types."""
    text = _text(p)
    if text in _APPLTYPES:
        return _APPLTYPES[text]
    if not _NUMBER.fullmatch(text):
        raise _Syntax(p.end, f"APPLTYPE is a number or one of {', '.join(_APPLTYPES)}")
    return _int(p)


_PROCESS_ATTRIBUTES: dict[str, tuple[str, Converter]] = {
    "APPLICID": ("applicid", _text),
    "APPLTYPE": ("appltype", _appltype),
    "ENVRDATA": ("envrdata", _text),
    "USERDATA": ("userdata", _text),
    "DESCR": ("descr", _text),
}


def _define_process(qm: QueueManager, command: Command) -> list[str]:
    """DEFINE PROCESS(name) [REPLACE]: what a queue's PROCESS names for its trigger messages
    (rule TRG-04), through qm.define_process."""
    attrs = _options(command, {**_PROCESS_ATTRIBUTES, **_REPLACE})
    with _values_checked(len(command.text)):
        qm.define_process(command.queue, **attrs)
    return ["AMQ8010I: IBM MQ process created."]


def _alter_process(qm: QueueManager, command: Command) -> list[str]:
    """ALTER PROCESS(name): the named attributes change (rule TRG-04), through qm.alter_process."""
    attrs = _options(command, _PROCESS_ATTRIBUTES)
    with _values_checked(len(command.text)):
        qm.alter_process(command.queue, **attrs)
    return ["AMQ8012I: IBM MQ process changed."]


def _delete_process(qm: QueueManager, command: Command) -> list[str]:
    """DELETE PROCESS(name): queues that name it stop triggering (rule TRG-04)."""
    _options(command, {})
    qm.delete_process(command.queue)
    return ["AMQ8011I: IBM MQ process deleted."]


def _display_process(qm: QueueManager, command: Command) -> list[str]:
    """DISPLAY PROCESS: an AMQ8407I block per matching process definition; a generic name shows
    only PROCESS unless attributes or ALL are asked for, as for queues."""
    table: dict[str, tuple[str, Converter]] = {k: (k, _flag(True)) for k in PROCESS_KEYWORDS}
    options = _options(command, {**table, **_ALL})
    wanted = _wanted(options, PROCESS_KEYWORDS, default="*" not in command.queue)
    found = sorted(
        (p for p in qm.processes.values() if _matching(command.queue, p.name)),
        key=lambda p: p.name,
    )
    if not found:
        raise fail(C.MQRC_UNKNOWN_OBJECT_NAME, f"no process matches {command.queue}")
    return [line for p in found for line in process_details(p, wanted)]


def _alter_queue(qm: QueueManager, command: Command) -> list[str]:
    """ALTER a queue of the named type through qm.alter (only the named attributes change)."""
    attrs = _options(command, {**_ATTRIBUTES[command.obj], **_CUSTOM_KEYWORD})
    definition = _typed(qm, command)
    with _values_checked(len(command.text)), _one_form(qm, command):
        old = _forms(qm, definition)
        caps = _cap_attrs(attrs, attrs.pop("custom", None), old, definition.capexpry)
        qm.alter(command.queue, **attrs)
    _record(qm, definition, caps)
    return ["AMQ8008I: IBM MQ queue changed."]


def _alter_qmgr(qm: QueueManager, command: Command) -> list[str]:
    """ALTER QMGR DEADQ, TRIGINT (rule TRG-06), EXPRYINT on z/OS, CCSID elsewhere (rule MD-04),
    through qm.alter_qmgr."""
    table: dict[str, tuple[str, Converter]] = {
        "DEADQ": ("deadq", _text),
        "TRIGINT": ("trigint", _int),
    }
    if qm.profile == "zos":
        table["EXPRYINT"] = ("expryint", _expryint)
    else:
        table["CCSID"] = ("ccsid", _int)
    attrs = _options(command, table)
    with _values_checked(len(command.text)):
        qm.alter_qmgr(**attrs)
    return ["AMQ8005I: IBM MQ queue manager changed."]


def _delete(qm: QueueManager, command: Command) -> list[str]:
    """DELETE a queue of the named type; PURGE clears a local queue first."""
    purge = _options(command, _PURGE if command.obj == "QLOCAL" else {}).get("purge", False)
    _typed(qm, command)
    if purge:
        qm.clear_qlocal(command.queue)  # fails (changing nothing) with uncommitted messages
    qm.delete_queue(command.queue)  # without PURGE: 2055 if messages remain
    return ["AMQ8007I: IBM MQ queue deleted."]


def _clear(qm: QueueManager, command: Command) -> list[str]:
    """CLEAR QLOCAL through qm.clear_qlocal."""
    _options(command, {})
    qm.clear_qlocal(command.queue)
    return ["AMQ8022I: IBM MQ queue cleared."]


def _matching(pattern: str, name: str) -> bool:
    """A generic name: ``*`` alone matches everything, ``APP.*`` every name starting ``APP.``."""
    return name.startswith(pattern[:-1]) if pattern.endswith("*") else name == pattern


def _wanted(options: dict[str, Any], keywords: tuple[str, ...], default: bool) -> set[str] | None:
    """The keywords to display; None for all (ALL, or nothing asked and ``default``)."""
    asked = {k for k in options if k in keywords}
    return None if "ALL" in options or (not asked and default) else asked


def _queue_type(p: Param) -> str:
    """DISPLAY QUEUE TYPE(...): a queue type or ALL."""
    text = _text(p)
    qtype = OBJECTS.get(text, text)
    if qtype != "ALL" and qtype not in QUEUE_TYPES:
        raise _Syntax(p.end, "TYPE must be QLOCAL, QREMOTE, QALIAS or ALL")
    return qtype


def _display_queue(qm: QueueManager, command: Command) -> list[str]:
    """DISPLAY QLOCAL/QREMOTE/QALIAS/QUEUE: an AMQ8409I block per matching queue."""
    types = tuple(QUEUE_TYPES) if command.obj == "QUEUE" else (command.obj,)
    keywords = tuple(dict.fromkeys(k for t in types for k in queue_keywords(QUEUE_TYPES[t])))
    table: dict[str, tuple[str, Converter]] = {k: (k, _flag(True)) for k in keywords}
    if command.obj == "QUEUE":
        table["TYPE"] = ("TYPE", _queue_type)
    options = _options(command, {**table, **_ALL})
    if options.get("TYPE", "ALL") != "ALL":
        types = (options["TYPE"],)
    # runmqsc shows every attribute of a named queue, only QUEUE and TYPE for a generic name
    wanted = _wanted(options, keywords, default="*" not in command.queue)
    matching = (d for d in qm.objects.values() if _matching(command.queue, d.name))
    found = sorted((d for d in matching if d.qtype in types), key=lambda d: d.name)
    if not found:
        raise fail(C.MQRC_UNKNOWN_OBJECT_NAME, f"no queue matches {command.queue}")
    return [line for d in found for line in queue_details(qm, d, wanted, _shown(qm, d))]


def _shown(qm: QueueManager, definition: QueueDefinition) -> dict[str, object]:
    """What DISPLAY shows for a cap set inside CUSTOM: CUSTOM's text and CAPEXPRY's own value."""
    forms = _forms(qm, definition)
    if forms is None:
        return {}
    return {"CUSTOM": forms.custom.text, "CAPEXPRY": forms.attribute}


def _status_type(p: Param) -> str:
    """DISPLAY QSTATUS TYPE(...): only QUEUE (handle status is not modelled)."""
    if _text(p) != "QUEUE":
        raise _Syntax(p.end, "mqlearn displays TYPE(QUEUE) status only")
    return "QUEUE"


def _display_qstatus(qm: QueueManager, command: Command) -> list[str]:
    """DISPLAY QSTATUS: an AMQ8450I block per matching local queue."""
    table: dict[str, tuple[str, Converter]] = {k: (k, _flag(True)) for k in STATUS_KEYWORDS}
    options = _options(command, {**table, **_ALL, "TYPE": ("TYPE", _status_type)})
    wanted = _wanted(options, STATUS_KEYWORDS, default=True)
    found = sorted(
        (q for q in qm.local_queues() if _matching(command.queue, q.name)), key=lambda q: q.name
    )
    if not found:
        raise fail(C.MQRC_UNKNOWN_OBJECT_NAME, f"no local queue matches {command.queue}")
    return [line for q in found for line in status_details(qm, q, wanted)]


def _display_qmgr(qm: QueueManager, command: Command) -> list[str]:
    """DISPLAY QMGR: the AMQ8408I block."""
    keywords = qmgr_keywords(qm.profile)
    table: dict[str, tuple[str, Converter]] = {k: (k, _flag(True)) for k in keywords}
    options = _options(command, {**table, **_ALL, "QMNAME": ("QMNAME", _flag(True))})
    return qmgr_details(qm, _wanted(options, (*keywords, "QMNAME"), default=True))


def _generic(p: Param) -> str:
    """A queue name or generic name (``APP.*``, ``*``) as DISPLAY and REFRESH take."""
    text = _text(p)
    if not text or not _GENERIC.fullmatch(text):
        raise _Syntax(p.end, f"{text!r} is not a queue name or generic name (APP.*)")
    return text


def _refresh(qm: QueueManager, command: Command) -> list[str]:
    """REFRESH QMGR TYPE(EXPIRY) [NAME(generic)]: an expiry scan, z/OS only (rule EXP-28)."""
    options = _options(command, {"TYPE": ("type", _text), "NAME": ("name", _generic)})
    kind = next((p for p in command.params if p.keyword == "TYPE"), None)
    if kind is None or options["type"] != "EXPIRY":
        end = len(command.text) if kind is None else kind.end
        raise _Syntax(end, "mqlearn models REFRESH QMGR TYPE(EXPIRY) only")
    name = options.get("name", "*")
    try:
        count = qm.refresh_expiry(name)  # rule EXP-28
    except MQMIError as error:
        if error.reason != C.MQRC_FUNCTION_NOT_SUPPORTED:
            raise
        raise _Syntax(kind.end, error.detail) from None
    return [f"REFRESH QMGR TYPE(EXPIRY) NAME({name}): {count} expired message(s) discarded."]


Handler = Callable[["QueueManager", Command], list[str]]
_HANDLERS: dict[str, dict[str, Handler]] = {
    "DEFINE": {
        "QLOCAL": _define,
        "QREMOTE": _define,
        "QALIAS": _define,
        "PROCESS": _define_process,
    },
    "ALTER": {
        "QLOCAL": _alter_queue,
        "QREMOTE": _alter_queue,
        "QALIAS": _alter_queue,
        "PROCESS": _alter_process,
        "QMGR": _alter_qmgr,
    },
    "DELETE": {
        "QLOCAL": _delete,
        "QREMOTE": _delete,
        "QALIAS": _delete,
        "PROCESS": _delete_process,
    },
    "CLEAR": {"QLOCAL": _clear},
    "DISPLAY": {
        "QLOCAL": _display_queue,
        "QREMOTE": _display_queue,
        "QALIAS": _display_queue,
        "QUEUE": _display_queue,
        "QSTATUS": _display_qstatus,
        "PROCESS": _display_process,
        "QMGR": _display_qmgr,
    },
    "REFRESH": {"QMGR": _refresh},
}


def _parse(text: str) -> tuple[Handler, Command]:
    """A command's handler and its parts; raises _Syntax."""
    found = _params(text)
    if not found:
        raise _Syntax(len(text), "no command")
    verb_param = found[0]
    verb = VERBS.get(verb_param.keyword)
    if verb is not None and verb_param.value is not None:
        raise _Syntax(verb_param.end, f"{verb} takes no value: an object type comes next")
    if verb is None:
        commands = sorted(_HANDLERS)
        raise _Syntax(
            verb_param.at,
            "AMQ8426I: Valid MQSC commands are:",
            *(f"    {c}" for c in commands),
        )
    handlers = _HANDLERS[verb]
    obj_param = found[1] if len(found) > 1 else None
    obj = OBJECTS.get(obj_param.keyword, "") if obj_param else ""
    if obj_param is None or obj not in handlers:
        end = len(text) if obj_param is None else obj_param.at
        raise _Syntax(end, f"mqlearn supports {verb} {', '.join(handlers)}")
    name = obj_param.value
    if obj == "QMGR":
        if name is not None:
            raise _Syntax(obj_param.end, "QMGR takes no name")
    elif not name:
        raise _Syntax(obj_param.end, f"{obj} needs a queue name in parentheses")
    elif verb == "DISPLAY":
        name = _generic(obj_param)
    else:
        with _values_checked(obj_param.end):
            check_name(name)
    return handlers[obj], Command(text, verb, obj, name, tuple(found[2:]))


def _execute(qm: QueueManager, text: str) -> list[str]:
    """Run one command (continuations joined); returns runmqsc's response lines.

    Raises _Syntax, or _Failed carrying runmqsc's message for an MQMIError.
    """
    handler, command = _parse(text)
    try:
        return handler(qm, command)
    except MQMIError as error:
        template = _FAILURES.get(error.reason, _OTHER_FAILURE)
        raise _Failed(template.format(name=command.name, reason=error.reason)) from None


def _count(n: int, one: str, many: str, none: str) -> str:
    return none if n == 0 else one if n == 1 else many.format(n=n)


@dataclass(frozen=True)
class Answer:
    """One entry of an MQSC script and runmqsc's answer to it."""

    line: int  # the number of its first line in the script, from 1
    typed: tuple[str, ...]  # its lines as typed (a command continued over several has them all)
    command: str | None  # the command, continuations joined; None for a comment or blank line
    response: tuple[str, ...]  # runmqsc's reply lines
    outcome: str  # "comment", "done", "syntax" (runmqsc rejected it) or "failed" (MQ did)


def answers(qm: QueueManager, text: str) -> list[Answer]:
    """Run MQSC text command by command, as runmqsc reads a script; never raises for bad MQSC:
    a command with a syntax error or one that fails changes nothing (commands before it keep
    their effect) and says so in its Answer."""
    if not isinstance(text, str):
        raise TypeError(f"MQSC text must be a str, got {type(text).__name__}")
    found = []
    for entry in _inputs(text):
        response: list[str] = []
        outcome = "comment"
        if entry.command is not None:
            try:
                response, outcome = _execute(qm, entry.command), "done"
            except _Syntax as error:
                response, outcome = error.lines(entry.command), "syntax"
            except _Failed as failure:
                response, outcome = [failure.line], "failed"
        found.append(Answer(entry.line, entry.lines, entry.command, tuple(response), outcome))
    return found


def run(qm: QueueManager, text: str) -> str:
    """Run MQSC text as runmqsc reads a script: echo each line, answer each command, then sum up.

    Never raises for bad MQSC: syntax errors and failures are answered in the text, and a
    command that fails changes nothing (commands before it keep their effect).
    """
    out: list[str] = []
    read = syntax = failed = 0
    for answer in answers(qm, text):
        if answer.command is None:
            out.append(f"{'':6} : {answer.typed[0]}".rstrip())
            continue
        read += 1
        syntax += answer.outcome == "syntax"
        failed += answer.outcome == "failed"
        out.append(f"{read:6} : {answer.typed[0]}")
        out.extend(f"{'':6} : {line}".rstrip() for line in answer.typed[1:])
        out.extend(answer.response)
    out.append(
        _count(read, "One MQSC command read.", "{n} MQSC commands read.", "No MQSC commands read.")
    )
    out.append(
        _count(
            syntax,
            "One command has a syntax error.",
            "{n} commands have a syntax error.",
            "No commands have a syntax error.",
        )
    )
    out.append(
        _count(
            failed,
            "One valid MQSC command could not be processed.",
            "{n} valid MQSC commands could not be processed.",
            "All valid MQSC commands were processed.",
        )
    )
    return "\n".join(out) + "\n"
