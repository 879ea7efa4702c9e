"""Each message's stay on one queue, rebuilt from the queue manager's event log.

The views draw the past as well as the present (``at_ms``), so they need, per message: when it
arrived, its deadline, when it left and how (got, discarded, sent by a channel, backed out), and
what happened on the way (browsed, reported, triggered). :class:`QueueHistory` folds the event log
(docs/engine.md, "The event log") into that, one new event at a time: the log only grows, so a
cached history stays right and a redraw only reads the events added since the last one.

Deadlines are the put event's exact ``deadline``; for messages still on the queue :func:`history`
takes their delivery order and states from the queue.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from mqlearn.engine.message import AVAILABLE, GOT_IN_UOW, UNCOMMITTED_PUT
from mqlearn.engine.rule_formulas import NEVER, is_expired, lane, remaining_tenths
from mqlearn.viz.labels import labels_for

if TYPE_CHECKING:
    from mqlearn.engine.events import Event
    from mqlearn.engine.qmgr import QueueManager

# How a message leaves the queue, by event kind (and the mark drawn there).
_LEAVES = {"get": "got", "discard": "discarded", "channel-send": "sent"}
# Events that only mark a message still on the queue.
_MARKS = {"browse": "browsed", "dead-letter": "dead-letter", "trigger": "trigger"}
# The engine's message states (queue_frame ``state``) as palette states.
_QUEUE_STATES = {AVAILABLE: "live", UNCOMMITTED_PUT: "uncommitted", GOT_IN_UOW: "in-uow"}


class Span:
    """A stretch of time a message spent on the queue (``end`` None: it is still there)."""

    __slots__ = ("end", "start")

    def __init__(self, start: int) -> None:
        self.start = start
        self.end: int | None = None

    def covers(self, t: int) -> bool:
        return self.start <= t and (self.end is None or t < self.end)


class Life:
    """One message's stay on the queue: ``spans`` of presence and ``marks`` of what happened.

    A syncpoint get that is backed out leaves the queue and comes back (rule UOW-01), so a
    message can have more than one span.
    """

    __slots__ = (
        "deadline",
        "lane",
        "marks",
        "msg_id",
        "order",
        "priority",
        "put_ms",
        "seq",
        "spans",
        "tag",
    )

    def __init__(
        self,
        order: int,
        seq: int,
        msg_id: bytes,
        priority: int,
        lane: int,
        put_ms: int,
        deadline: int | None,
    ) -> None:
        self.order = order
        self.seq = seq  # the queue manager's number for the message (Event.msg_seq)
        self.msg_id = msg_id
        self.tag = ""  # the learner's label for it (mqlearn.viz.labels), set by QueueHistory
        self.priority = priority
        self.lane = lane
        self.put_ms = put_ms
        self.deadline = deadline
        self.spans = [Span(put_ms)]
        self.marks: list[tuple[str, int]] = []

    @property
    def expiry(self) -> int:
        """Its Expiry when it arrived on this queue, in tenths (after CAPEXPRY; -1 unlimited)."""
        return remaining_tenths(NEVER if self.deadline is None else self.deadline, self.put_ms)

    @property
    def present(self) -> bool:
        """On the queue now (counted in CURDEPTH)."""
        return self.spans[-1].end is None

    def present_at(self, t: int) -> bool:
        """On the queue at virtual time ``t`` (counted in CURDEPTH then)."""
        return any(span.covers(t) for span in self.spans)

    def expired_at(self, t: int) -> bool:
        """Eligible for discard at ``t`` (rule EXP-20: now ≥ deadline)."""
        return self.deadline is not None and is_expired(self.deadline, t)

    def close(self, t: int, mark: str) -> None:
        self.spans[-1].end = t
        self.marks.append((mark, t))

    def reopen(self, t: int) -> None:
        self.spans.append(Span(t))
        self.marks.append(("backout", t))


class QueueHistory:
    """The lives of every message that has been on one local queue, oldest first."""

    def __init__(self, qm: QueueManager, queue: str) -> None:
        self.qm = qm
        self.queue = queue
        self.lives: list[Life] = []
        self._by_seq: dict[int, Life] = {}  # Event.msg_seq -> the message's life here
        self._seen = 0  # events of the log already folded in
        self._reconciled: tuple[int, ...] | None = None  # the state reconcile() last saw
        # the messages on the queue now, in delivery order, with their palette state
        self.on_queue: list[tuple[Life, str]] = []

    def refresh(self) -> None:
        """Fold in the events logged since the last refresh."""
        events = self.qm.events
        for event in islice(events, self._seen, None):
            if event.queue == self.queue:
                self._apply(event)
        self._seen = len(events)

    def _apply(self, event: Event) -> None:
        seq, kind, t = event.msg_seq, event.kind, event.time_ms
        if seq is None or event.msg_id is None:
            return
        if kind == "put":
            self._arrive(seq, event.msg_id, event.priority or 0, event.deadline, t)
            return
        life = self._by_seq.get(seq)
        if life is None:
            return
        if kind in _LEAVES:
            if life.present:
                syncpoint = kind == "get" and event.cause == "syncpoint"
                life.close(t, "in-uow" if syncpoint else _LEAVES[kind])
        elif kind in _MARKS:
            if life.present:
                mark = "locked" if kind == "browse" and event.cause == "lock" else _MARKS[kind]
                life.marks.append((mark, t))
        elif kind == "report":
            if not life.present:
                life.marks.append(("report", t))
        elif kind == "backout":
            if event.cause == "put":  # an uncommitted put removed
                if life.present:
                    life.close(t, "backout")
            elif not life.present:  # a syncpoint get restored, or put back by a stopped channel
                life.reopen(t)

    def _arrive(self, seq: int, msg_id: bytes, priority: int, deadline: int | None, t: int) -> None:
        self._add(Life(len(self.lives), seq, msg_id, priority, self._lane(priority), t, deadline))

    def _add(self, life: Life) -> None:
        life.tag = labels_for(self.qm).of(life.seq, life.msg_id)
        self.lives.append(life)
        self._by_seq[life.seq] = life

    def _lane(self, priority: int) -> int:
        """The priority the queue orders the message at (rule MD-02)."""
        local = self.qm.local(self.queue)
        return lane(priority, self.qm.maxprty, local.msgdlvsq == "FIFO", local.defprty)

    def reconcile(self) -> None:
        """Take exact deadlines, lanes and states of the messages on the queue now (the same
        values ``queue_frame`` shows), unless nothing has happened since the last time.

        Messages the log does not know (event log off) are added from the queue itself.
        """
        qm = self.qm
        store = qm.local(self.queue).store
        seen = (len(qm.events), qm.sim.now, store.count, store.in_uow)
        if seen == self._reconciled and qm.record_events:
            return
        if not qm.record_events:  # no log: the queue as it is now is all there is to draw
            self.lives, self._by_seq = [], {}
        on_queue = []
        labels = labels_for(qm)
        for message in store.views():
            life = self._by_seq.get(message.seq)
            if life is None:
                life = Life(
                    len(self.lives),
                    message.seq,
                    message.msgid,
                    message.priority,
                    message.lane,
                    message.put_ms,
                    None,
                )
                self._add(life)
            life.tag = labels.remember(message)
            life.lane = message.lane
            state = _QUEUE_STATES[message.state]
            if state == "live" and message.locker is not None:
                state = "locked"
            on_queue.append((life, state))
        self.on_queue = on_queue
        self._reconciled = seen

    def at(self, t: int) -> Iterator[Life]:
        """The lives that had begun by virtual time ``t``."""
        return (life for life in self.lives if life.put_ms <= t)


_CACHE: WeakKeyDictionary[QueueManager, dict[str, QueueHistory]] = WeakKeyDictionary()


def history(qm: QueueManager, queue: str) -> QueueHistory:
    """The history of a local queue, up to date with the log and with the queue as it is now
    (cached per queue manager; each call folds in only what is new)."""
    qm.local(queue)  # unknown names and non-local queues fail here, as MQOPEN would
    per_qm = _CACHE.setdefault(qm, {})
    found = per_qm.get(queue)
    if found is None:
        found = per_qm[queue] = QueueHistory(qm, queue)
    found.refresh()
    found.reconcile()
    return found
