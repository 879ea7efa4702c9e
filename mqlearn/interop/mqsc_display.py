"""DISPLAY output as runmqsc prints it: ``KEYWORD(value)`` items in two columns, a block per object.

Values are read from the engine's definition objects (``mqlearn/engine/objects.py``), whose field
names are MQSC's keywords in lower case, so every queue attribute the engine models can be shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import fields
from typing import TYPE_CHECKING

from mqlearn.engine.objects import ProcessDefinition, QAlias, QLocal, QRemote, QueueDefinition

if TYPE_CHECKING:
    from mqlearn.engine.qmgr import QueueManager

QUEUE_DETAILS = "AMQ8409I: Display Queue details."
STATUS_DETAILS = "AMQ8450I: Display queue status details."
QMGR_DETAILS = "AMQ8408I: Display Queue Manager details."
PROCESS_DETAILS = "AMQ8407I: Display Process details."

INDENT = "   "
COLUMN = 40  # runmqsc starts the second item of a line 40 characters after the first

QUEUE_TYPES: dict[str, type[QueueDefinition]] = {
    "QLOCAL": QLocal,
    "QREMOTE": QRemote,
    "QALIAS": QAlias,
}
STATUS_KEYWORDS = ("CURDEPTH", "UNCOM")
ZOS_ONLY = frozenset({"indxtype"})  # queue attributes only z/OS has (shown there only)
PROCESS_KEYWORDS = ("APPLICID", "APPLTYPE", "DESCR", "ENVRDATA", "USERDATA")
# APPLTYPE as runmqsc shows the MQAT_* values MQSC has a name for (MQAT_UNIX, MQAT_WINDOWS_NT,
# MQAT_OS400, MQAT_MVS = MQAT_ZOS); other values as numbers
APPLTYPE_NAMES = {6: "UNIX", 11: "WINDOWSNT", 8: "OS400", 2: "MVS"}
# DISPLAY QMGR PLATFORM per profile (MQPL_UNIX, MQPL_ZOS shown as MVS, MQPL_OS400)
PLATFORMS = {"distributed": "UNIX", "zos": "MVS", "ibmi": "OS400"}


def attribute_fields(cls: type[QueueDefinition]) -> tuple[str, ...]:
    """The MQSC attributes of a queue type as engine field names (the queue name excepted)."""
    return tuple(f.name for f in fields(cls) if f.compare and f.name != "name")


def queue_keywords(cls: type[QueueDefinition]) -> tuple[str, ...]:
    """The keywords DISPLAY accepts for a queue type: its attributes, CUSTOM (which holds
    CAPEXPRY in its older form, rule EXP-06), and CURDEPTH for local queues."""
    keywords = (*(f.upper() for f in attribute_fields(cls)), "CUSTOM")
    return (*keywords, "CURDEPTH") if cls is QLocal else keywords


def qmgr_keywords(profile: str) -> tuple[str, ...]:
    """DISPLAY QMGR keywords; EXPRYINT is a z/OS queue manager attribute (rule EXP-28)."""
    common = ("CCSID", "DEADQ", "MAXPRTY", "PLATFORM", "TRIGINT")
    return (*common, "EXPRYINT") if profile == "zos" else common


def item(keyword: str, value: object) -> str:
    """A runmqsc item: ``KEYWORD(value)``, blank as ``( )``; a flag: ``KEYWORD``/``NOKEYWORD``."""
    if isinstance(value, bool):
        return keyword if value else "NO" + keyword
    text = "" if value is None else str(value)
    return f"{keyword}({text or ' '})"


def columns(items: Iterable[str]) -> list[str]:
    """Lay items out two to a line; an item too wide for the first column gets a line alone."""
    lines: list[str] = []
    left: str | None = None
    for text in items:
        if left is not None:
            lines.append(INDENT + left.ljust(COLUMN) + text)
            left = None
        elif len(text) < COLUMN:
            left = text
        else:
            lines.append(INDENT + text)
    if left is not None:
        lines.append(INDENT + left)
    return lines


def _block(
    header: str, first: list[str], values: dict[str, str], wanted: Iterable[str] | None
) -> list[str]:
    """A DISPLAY block: the header line, the ``first`` items, then the wanted ones in name order."""
    chosen = values.values() if wanted is None else [values[k] for k in wanted if k in values]
    return [header, *columns([*first, *sorted(chosen)])]


def queue_details(
    qm: QueueManager,
    queue: QueueDefinition,
    wanted: Iterable[str] | None,
    shown: Mapping[str, object] | None = None,
) -> list[str]:
    """The AMQ8409I block of one queue: QUEUE and TYPE, then the wanted keywords (None: all).

    ``shown`` gives values to display instead of the definition's own (the MQSC layer uses it
    for a cap set inside CUSTOM: CUSTOM's text, and the CAPEXPRY attribute's own value).
    """
    values = {}
    overrides = dict(shown or {})
    for field in attribute_fields(type(queue)):
        if field in ZOS_ONLY and qm.profile != "zos":
            continue
        keyword = field.upper()
        value = overrides.get(keyword, getattr(queue, field))
        if field == "capexpry" and value is None:
            value = "NOLIMIT"
        values[keyword] = item(keyword, value)
    values["CUSTOM"] = item("CUSTOM", overrides.get("CUSTOM", ""))
    if isinstance(queue, QLocal):
        values["CURDEPTH"] = item("CURDEPTH", qm.curdepth(queue.name))  # rule EXP-25
    return _block(QUEUE_DETAILS, [f"QUEUE({queue.name})", f"TYPE({queue.qtype})"], values, wanted)


def status_details(qm: QueueManager, queue: QLocal, wanted: Iterable[str] | None) -> list[str]:
    """The AMQ8450I block of one local queue (TYPE(QUEUE) status)."""
    pending = qm.uncommitted(queue.name)
    uncom = str(pending) if pending else "NO"
    if pending and qm.profile == "zos":
        uncom = "YES"  # z/OS says whether there are any; the other platforms say how many
    values = {
        "CURDEPTH": item("CURDEPTH", qm.curdepth(queue.name)),  # rule EXP-25
        "UNCOM": item("UNCOM", uncom),
    }
    return _block(STATUS_DETAILS, [f"QUEUE({queue.name})", "TYPE(QUEUE)"], values, wanted)


def qmgr_details(qm: QueueManager, wanted: Iterable[str] | None) -> list[str]:
    """The AMQ8408I block: QMNAME, then the wanted queue manager attributes (None: all)."""
    values = {
        "CCSID": item("CCSID", qm.ccsid),  # rule MD-04
        "DEADQ": item("DEADQ", qm.deadq),
        "MAXPRTY": item("MAXPRTY", qm.maxprty),
        "PLATFORM": item("PLATFORM", PLATFORMS[qm.profile]),
        "EXPRYINT": item("EXPRYINT", qm.expryint or "OFF"),
        "TRIGINT": item("TRIGINT", qm.trigint),  # rule TRG-06
    }
    shown = {k: values[k] for k in qmgr_keywords(qm.profile)}
    return _block(QMGR_DETAILS, [f"QMNAME({qm.name})"], shown, wanted)


def process_details(process: ProcessDefinition, wanted: Iterable[str] | None) -> list[str]:
    """The AMQ8407I block of one process definition: PROCESS, then the wanted attributes (None:
    all of them)."""
    values = {
        "APPLICID": item("APPLICID", process.applicid),
        "APPLTYPE": item("APPLTYPE", APPLTYPE_NAMES.get(process.appltype, process.appltype)),
        "DESCR": item("DESCR", process.descr),
        "ENVRDATA": item("ENVRDATA", process.envrdata),
        "USERDATA": item("USERDATA", process.userdata),
    }
    return _block(PROCESS_DETAILS, [f"PROCESS({process.name})"], values, wanted)
