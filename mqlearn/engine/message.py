"""A message as a local queue holds it: compact, with absolute deadlines instead of Expiry values.

A message is a ``Record``: a plain tuple of the fields the queue's rules need, then the put
context (``ctx``) and the rest of the descriptor only where it differs from the initial values
(``extra``), both as flat tuples of names and values; a message with properties keeps them in
``extra`` too, under ``PROPERTIES`` (no MQMD field has that name), as one ``bytes`` value
(:mod:`mqlearn.engine.message_properties`). ``QueueManager._enqueue`` makes it from the put's
values; every engine function takes it. Deadlines are absolute virtual times in ms; ``NEVER``
stands for MQEI_UNLIMITED so that ``now >= deadline`` needs no special case.

The cyclic garbage collector stops tracking a tuple that holds only atomic values (ints, bytes,
str, None and such tuples), so a million queued messages cost a full collection nothing; an
instance of any class is always tracked, and walking a million of them made every full collection
take most of a second (docs/engine.md, "Storage and the garbage collector"). What changes while a
message is queued (its state, a lock, its BackoutCount) is kept by the store in one table keyed by
the message's number (``LocalStore``'s marks).
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

# the lifetime formulas live with the other rule formulas; these names stay importable from here
from mqlearn.engine.rule_formulas import NEVER as NEVER
from mqlearn.engine.rule_formulas import deadline_of as deadline_of
from mqlearn.engine.rule_formulas import remaining_tenths as remaining_tenths

# Message states. A message is on its queue's lanes in every state but REMOVED.
AVAILABLE = 0
UNCOMMITTED_PUT = 1  # put under syncpoint, not yet committed: counted in CURDEPTH, not gettable
GOT_IN_UOW = 2  # got under syncpoint (or taken by a channel), not yet committed: not counted
REMOVED = 3

STATE_NAMES = {
    AVAILABLE: "available",
    UNCOMMITTED_PUT: "uncommitted put",
    GOT_IN_UOW: "got in unit of work",
    REMOVED: "removed",
}


# (seq, lane, priority, deadline, put_ms, msgid, correlid, data, ctx, extra, xdeadline), where ctx
# and extra are flat tuples of names and values (name, value, name, value, ...)
Record = tuple[
    int,
    int,
    int,
    int,
    int,
    bytes,
    bytes,
    bytes,
    tuple[Any, ...],
    tuple[Any, ...] | None,
    int | None,
]
# positions in a Record
SEQ: Final = 0
LANE: Final = 1
PRIORITY: Final = 2
DEADLINE: Final = 3
PUT_MS: Final = 4
MSGID: Final = 5
CORRELID: Final = 6
DATA: Final = 7
CTX: Final = 8
EXTRA: Final = 9
XDEADLINE: Final = 10
# the name under which a record's extra keeps the message's properties (not an MQMD field)
PROPERTIES: Final = "Properties"


class MessageView(NamedTuple):
    """A read-only look at a present message for the layers above the engine (views, checks,
    frames): its record's fields, then the state, lock and BackoutCount the store keeps for it
    (``LocalStore.views``). The engine's own paths use records; a view is made only for a
    reader. Descriptor fields never change while a message is queued, so the record's are the
    message's."""

    seq: int
    lane: int
    priority: int
    deadline: int
    put_ms: int
    msgid: bytes
    correlid: bytes
    data: bytes
    ctx_items: tuple[Any, ...]
    extra_items: tuple[Any, ...] | None
    xdeadline: int | None
    state: int
    locker: object | None
    backouts: int

    def field(self, name: str, default: Any) -> Any:
        """A descriptor field from extra, then ctx, or ``default`` (:func:`field`)."""
        return field(self, name, default)


def field(record: Record | MessageView, name: str, default: Any) -> Any:
    """A descriptor field a record keeps outside its own positions: its ``extra`` (the fields
    put with values other than the initial ones), then its put context, or ``default``."""
    for items in (record[EXTRA], record[CTX]):
        if items is not None:
            names = items[0::2]
            if name in names:
                return items[2 * names.index(name) + 1]
    return default


def unflat(items: tuple[Any, ...]) -> dict[str, Any]:
    """A record's flat ``ctx`` or ``extra`` tuple as a dict."""
    return dict(zip(items[::2], items[1::2], strict=True))
