"""A message as a local queue stores it: compact, with absolute deadlines instead of Expiry values.

The queue keeps the few fields its rules need in slots and the rest of the descriptor only where it
differs from the initial values (``extra``); ``ctx`` is the put context, one dict shared by every
message a queue manager puts. Deadlines are absolute virtual times in ms; ``NEVER`` stands for
MQEI_UNLIMITED so that ``now >= deadline`` needs no special case.
"""

from __future__ import annotations

from typing import Any

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


class Message:
    """One stored message. ``priority`` is MD.Priority as put; ``lane`` the priority it is ordered at."""

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

    def __init__(
        self,
        seq: int,
        lane: int,
        priority: int,
        deadline: int,
        put_ms: int,
        msgid: bytes,
        correlid: bytes,
        data: bytes,
        ctx: dict[str, Any],
        extra: dict[str, Any] | None,
        state: int = AVAILABLE,
        xdeadline: int | None = None,
        backouts: int = 0,
    ) -> None:
        self.seq = seq
        self.lane = lane
        self.priority = priority
        self.deadline = deadline
        self.put_ms = put_ms
        self.msgid = msgid
        self.correlid = correlid
        self.data = data
        self.ctx = ctx
        self.extra = extra
        self.state = state
        self.xdeadline = xdeadline  # deadline of the Expiry inside an MQXQH, if the data has one
        self.backouts = backouts
        self.locker: object | None = None  # the handle holding an MQGMO_LOCK on it

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
