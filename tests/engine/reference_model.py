"""A deliberately simple reference model of ONE local queue, for the property tests.

The engine's store is built for speed (lanes, tombstones, indexes); this model is built to be
obviously right: a plain list kept in delivery order, scanned from the front by every get and
browse. A bug has to be made twice, the same way, to get past the comparison.

Rules (docs/engine.md; EXP-05, EXP-20..27, EXP-29, UOW-01/02, MD-02):
- order: lane descending, then arrival; lane = min(Priority, MAXPRTY) on a PRIORITY queue, one
  constant on a FIFO queue; expired means ``now >= put time + Expiry * 100 ms`` (-1: never);
- a get or browse discards the expired candidates it meets, front to back, up to the first live
  one, which it returns; time passing alone discards nothing (no background scan);
- BROWSE_FIRST restarts the cursor, BROWSE_NEXT continues after the last browsed position;
- syncpoint: an uncommitted put counts in the depth but is no candidate; a message got in the
  unit of work leaves the depth at once; commit removes it, backout puts it back in its place.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MAXPRTY = 9
UNLIMITED = -1

AVAILABLE = "available"
UNCOMMITTED_PUT = "uncommitted put"
GOT_IN_UOW = "got in unit of work"


@dataclass
class ModelMessage:
    msg_id: bytes
    lane: int
    arrival: int
    deadline: int | None  # virtual ms at which it expires; None = never
    state: str = AVAILABLE

    def key(self) -> tuple[int, int]:
        """Delivery order: higher lane first, then earlier arrival."""
        return (-self.lane, self.arrival)

    def expired(self, now_ms: int) -> bool:
        return self.deadline is not None and now_ms >= self.deadline

    def remaining_tenths(self, now_ms: int) -> int:
        """Expiry as an MQGET returns it: remaining tenths rounded up, or -1 (EXP-11, EXP-12)."""
        if self.deadline is None:
            return UNLIMITED
        return -((now_ms - self.deadline) // 100)  # ceil((deadline - now) / 100)


@dataclass(frozen=True)
class GetResult:
    """Outcome of one get or browse: the message returned (None = 2033) and what it discarded."""

    msg_id: bytes | None
    discarded: list[bytes]
    expiry: int | None = None  # returned Expiry, when a message was returned


@dataclass
class ReferenceQueue:
    fifo: bool
    messages: list[ModelMessage] = field(default_factory=list)  # always in delivery order
    cursor: tuple[int, int] | None = None  # key of the last browsed message
    arrivals: int = 0
    got: list[bytes] = field(default_factory=list)  # committed destructive gets
    discarded: list[bytes] = field(default_factory=list)
    backed_out_puts: list[bytes] = field(default_factory=list)

    # -- calls ----------------------------------------------------------------------------------
    def put(
        self, msg_id: bytes, priority: int, expiry_tenths: int, now_ms: int, syncpoint: bool
    ) -> None:
        lane = 0 if self.fifo else min(priority, MAXPRTY)
        deadline = None if expiry_tenths == UNLIMITED else now_ms + expiry_tenths * 100
        state = UNCOMMITTED_PUT if syncpoint else AVAILABLE
        self.arrivals += 1
        self.messages.append(ModelMessage(msg_id, lane, self.arrivals, deadline, state))
        self.messages.sort(key=ModelMessage.key)

    def get(
        self, now_ms: int, match_msg_id: bytes | None = None, syncpoint: bool = False
    ) -> GetResult:
        candidates = [
            m for m in self.messages if m.state == AVAILABLE and match_msg_id in (None, m.msg_id)
        ]
        found, discarded = self._walk(candidates, now_ms)
        if found is None:
            return GetResult(None, discarded)
        if syncpoint:
            found.state = GOT_IN_UOW
        else:
            self.messages.remove(found)
            self.got.append(found.msg_id)
        return GetResult(found.msg_id, discarded, found.remaining_tenths(now_ms))

    def browse_first(self, now_ms: int) -> GetResult:
        self.cursor = None
        return self.browse_next(now_ms)

    def browse_next(self, now_ms: int) -> GetResult:
        """Continue after the cursor; a message placed ahead of it is not seen (engine.md)."""
        candidates = [
            m
            for m in self.messages
            if m.state == AVAILABLE and (self.cursor is None or m.key() > self.cursor)
        ]
        found, discarded = self._walk(candidates, now_ms)
        if found is None:
            return GetResult(None, discarded)  # the cursor stays where it was
        self.cursor = found.key()
        return GetResult(found.msg_id, discarded, found.remaining_tenths(now_ms))

    def commit(self) -> None:
        for m in list(self.messages):
            if m.state == GOT_IN_UOW:
                self.messages.remove(m)
                self.got.append(m.msg_id)
            elif m.state == UNCOMMITTED_PUT:
                m.state = AVAILABLE

    def backout(self) -> None:
        """Uncommitted puts vanish; messages got in the unit of work return to their place."""
        for m in list(self.messages):
            if m.state == UNCOMMITTED_PUT:
                self.messages.remove(m)
                self.backed_out_puts.append(m.msg_id)
            elif m.state == GOT_IN_UOW:
                m.state = AVAILABLE

    def advance(self, now_ms: int) -> list[bytes]:
        """Time moves on to ``now_ms``: lazy expiry means nothing is discarded (EXP-20)."""
        return []

    # -- views ----------------------------------------------------------------------------------
    def curdepth(self) -> int:
        """CURDEPTH: messages on the queue (expired ones included) minus those got in the UOW."""
        return sum(1 for m in self.messages if m.state != GOT_IN_UOW)

    def queued(self) -> list[bytes]:
        """MsgIds of every message still on the queue, in delivery order, whatever its state."""
        return [m.msg_id for m in self.messages]

    def open_gets(self) -> int:
        """Messages got in the open unit of work (still on the queue until commit)."""
        return sum(1 for m in self.messages if m.state == GOT_IN_UOW)

    # -- the one rule that matters ----------------------------------------------------------------
    def _walk(
        self, candidates: list[ModelMessage], now_ms: int
    ) -> tuple[ModelMessage | None, list[bytes]]:
        """Discard expired candidates, front to back, until the first live one (EXP-22/23/27)."""
        discarded: list[bytes] = []
        for m in candidates:
            if not m.expired(now_ms):
                return m, discarded
            self.messages.remove(m)
            discarded.append(m.msg_id)
            self.discarded.append(m.msg_id)
        return None, discarded
