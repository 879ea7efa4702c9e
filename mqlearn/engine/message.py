"""A message as a local queue holds it: compact, with absolute deadlines instead of Expiry values.

A ``Message`` has the few fields the queue's rules need in slots and the rest of the descriptor
only where it differs from the initial values (``extra``); ``ctx`` is the put context, one dict
shared by every message a queue manager puts. Deadlines are absolute virtual times in ms;
``NEVER`` stands for MQEI_UNLIMITED so that ``now >= deadline`` needs no special case.

On its queue a message is kept as a ``Record``: a plain tuple of the same immutable fields, with
``ctx`` and ``extra`` as flat tuples of names and values; ``QueueManager._enqueue`` makes it
directly from the put's values, with no ``Message`` in between. The cyclic garbage collector stops tracking
a tuple that holds only atomic values (ints, bytes, str, None and such tuples), so a million queued
messages cost a full collection nothing; an instance of any class is always tracked, and walking a
million of them made every full collection take most of a second (docs/engine.md, "Storage and
the garbage collector"). The store makes a ``Message`` from a record when a call needs one, and
keeps it while it carries state a record cannot (mqlearn.engine.store).
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


class Message:
    """One message on a queue, as calls see it. ``priority`` is MD.Priority as put; ``lane`` the
    priority it is ordered at; ``state``, ``locker`` and ``backouts`` are what a record lacks.
    Made from a record by :func:`message_of` only (every message is queued as a record first)."""

    __slots__ = (
        "backouts",
        "correlid",
        "ctx",
        "data",
        "deadline",
        "extra",
        "lane",
        "locker",
        "msgid",
        "priority",
        "put_ms",
        "seq",
        "state",
        "xdeadline",
    )

    seq: int
    lane: int
    priority: int
    deadline: int
    put_ms: int
    msgid: bytes
    correlid: bytes
    data: bytes
    ctx: dict[str, Any]
    extra: dict[str, Any] | None
    state: int
    xdeadline: int | None  # deadline of the Expiry inside an MQXQH, if the data has one
    backouts: int
    locker: object | None  # the handle holding an MQGMO_LOCK on it

    def field(self, name: str, default: Any) -> Any:
        """A descriptor field stored outside the slots (``extra``, then ``ctx``), or ``default``."""
        extra = self.extra
        if extra is not None and name in extra:
            return extra[name]
        return self.ctx.get(name, default)

    def __repr__(self) -> str:
        return (
            f"<Message seq={self.seq} lane={self.lane} msgid={self.msgid.hex()[:16]}… "
            f"deadline={'never' if self.deadline == NEVER else self.deadline} state={self.state}>"
        )


class MessageView(NamedTuple):
    """A read-only look at a present message: its record's fields, then the state and lock its
    object carries (AVAILABLE and None when the store keeps none). The views read every queued
    message on every click; a view is one tuple, where a ``Message`` also rebuilds its ctx and
    extra dicts (``LocalStore.views``). Descriptor fields never change while a message is queued,
    so the record's are the message's."""

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

    def field(self, name: str, default: Any) -> Any:
        """As ``Message.field``: a descriptor field from extra, then ctx, or ``default``."""
        for items in (self.extra_items, self.ctx_items):
            if items is not None:
                names = items[0::2]
                if name in names:
                    return items[2 * names.index(name) + 1]
        return default


def message_of(record: Record, ctx: dict[str, Any], extra: dict[str, Any] | None) -> Message:
    """A new, AVAILABLE Message for a record, given its ctx and extra as dicts (the way back
    from a record to the object calls see). It sets every slot, with no ``__init__`` call (about
    40 % cheaper than one): browses, syncpoint gets and reports make one per message they take.
    """
    message: Message = object.__new__(Message)
    (
        message.seq,
        message.lane,
        message.priority,
        message.deadline,
        message.put_ms,
        message.msgid,
        message.correlid,
        message.data,
        _,
        _,
        message.xdeadline,
    ) = record
    message.ctx = ctx
    message.extra = extra
    message.state = AVAILABLE
    message.backouts = 0
    message.locker = None
    return message
