"""The message store of one local queue: delivery order, lazy-expiry walks, cursors, indexes.

Delivery order is (lane descending, arrival ascending). Each lane (priority 0-9) is a deque of
records (``mqlearn.engine.message.Record``: plain tuples the garbage collector does not track) in
arrival order, so a put is an append and a get from the front is O(1). A ``Message`` object is
made from a record when a call needs one; the store keeps the object (``_objects``, by seq) while
the message is on the queue and its object carries state a record cannot: a state other than
AVAILABLE, a lock, a BackoutCount, or a place under a browse cursor (any message a walk returns,
unless the caller removes it at once: a plain get).
Every other queued message is its record alone, so the collector's work does not grow with depth.

Messages that leave the queue are marked REMOVED and dropped when they reach the front of their
lane (tombstones, kept in ``_objects``), which keeps removals from the middle (matched gets, scans)
O(1) as well; a lane is compacted when tombstones outnumber live messages. Messages got in a unit
of work stay in place, so a backout puts them back exactly where they were (rule UOW-01).

The store decides nothing about reports, events or units of work: the walk methods return the
expired messages met before the first live one, and the queue manager discards them.
"""

from __future__ import annotations

import heapq
from bisect import bisect_right
from collections import deque
from collections.abc import Iterable, Iterator
from itertools import chain, islice
from operator import itemgetter
from typing import Any

from mqlearn.engine.message import (
    AVAILABLE,
    CORRELID,
    CTX,
    DEADLINE,
    EXTRA,
    GOT_IN_UOW,
    LANE,
    MSGID,
    NEVER,
    REMOVED,
    SEQ,
    Message,
    MessageView,
    Record,
    message_of,
)
from mqlearn.engine.rule_formulas import is_expired

LANES = 10  # priorities 0..9 (MAXPRTY is at most 9)
_NONE: tuple[Message, ...] = ()
Expired = tuple[Message, ...] | list[Message | Record]  # what a walk met: objects, or records
_COMPACT_MIN = 256
_CONTEXTS_MAX = 64  # distinct put contexts remembered per store (most queues see one or two)
_seq_of = itemgetter(SEQ)
Items = tuple[Any, ...]  # a dict's names and values, flat: name, value, name, value, ...
# MsgId or CorrelId -> the present message with it, as its record, or, when several share it
# (most share MQCI_NONE), {seq: record} of them in arrival order: a put adds one entry and a
# removal drops one, whatever the number sharing the id, and a unique id costs the collector
# nothing (a record is an untracked tuple; only the few shared ids have a dict)
Index = dict[bytes, Record | dict[int, Record]]


def delivery_key(record: Record) -> tuple[int, int]:
    return (-record[LANE], record[SEQ])


class LocalStore:
    """Messages of one local queue. ``count`` = messages present; ``depth`` = CURDEPTH."""

    __slots__ = (
        "_by_correlid",
        "_by_msgid",
        "_contexts",
        "_deadlines",
        "_gone",
        "_objects",
        "count",
        "in_uow",
        "lanes",
        "top",
    )

    def __init__(self) -> None:
        self.lanes: list[deque[Record]] = [deque() for _ in range(LANES)]
        self.top = -1  # no lane above this one has ever held a message (walks start here)
        self.count = 0  # every state but REMOVED
        self.in_uow = 0  # of which GOT_IN_UOW
        self._objects: dict[int, Message] = {}  # by seq: see the module docstring
        # (deadline, seq, record) of messages with a finite Expiry, for scans: built by the first
        # scan (a queue never scanned never pays for it); entries of messages gone since (their
        # seqs are in ``_gone``) are dropped lazily, and compacted away when they outnumber the
        # live ones
        self._deadlines: list[tuple[int, int, Record]] | None = None
        self._gone: set[int] = set()
        self._by_msgid: Index | None = None  # built on first match, exact from then on
        self._by_correlid: Index | None = None
        # id(ctx dict) and id(ctx items) -> (dict, items): the shared put contexts, converted once
        self._contexts: dict[int, tuple[dict[str, Any], Items]] = {}

    @property
    def depth(self) -> int:
        """CURDEPTH: present messages minus those got in an open unit of work."""
        return self.count - self.in_uow

    # -- records and objects --------------------------------------------------------------------
    def items(self, ctx: dict[str, Any]) -> Items:
        """A put context as the flat tuple a record keeps, converted once per shared dict."""
        known = self._contexts.get(id(ctx))
        if known is None or known[0] is not ctx:
            known = self._remember_context(ctx, flat(ctx))
        return known[1]

    def _remember_context(self, ctx: dict[str, Any], items: Items) -> tuple[dict[str, Any], Items]:
        contexts = self._contexts
        if len(contexts) >= 2 * _CONTEXTS_MAX:
            contexts.clear()
        known = (ctx, items)
        contexts[id(ctx)] = contexts[id(items)] = known
        return known

    def message(self, record: Record) -> Message:
        """The Message of a present record: the one the store keeps, or a new one."""
        message = self._objects.get(record[SEQ])
        return self._made(record) if message is None else message

    def _made(self, record: Record) -> Message:
        """A new Message for a record the store keeps no object for."""
        extra = record[EXTRA]
        return message_of(record, self.context(record), None if extra is None else _unflat(extra))

    def _is_tombstone(self, record: Record) -> bool:
        message = self._objects.get(record[SEQ])
        return message is not None and message.state == REMOVED

    # -- changes --------------------------------------------------------------------------------
    def add(self, record: Record) -> None:
        """Queue a new record at the end of its lane (``QueueManager._enqueue`` makes it)."""
        lane = record[LANE]
        self.lanes[lane].append(record)
        if lane > self.top:
            self.top = lane
        self.count += 1
        heap = self._deadlines
        if heap is not None and record[DEADLINE] != NEVER:
            heapq.heappush(heap, (record[DEADLINE], record[SEQ], record))
            if len(heap) > 2 * self.count + _COMPACT_MIN:
                self._compact_deadlines()
        if self._by_msgid is not None:
            _index_add(self._by_msgid, record[MSGID], record)
        if self._by_correlid is not None:
            _index_add(self._by_correlid, record[CORRELID], record)

    def keep(self, record: Record, state: int) -> Message:
        """The object of a record just added in ``state`` (an uncommitted put), kept while the
        message is on the queue: its object carries the state."""
        message = self.made(record, keep=True)
        message.state = state
        return message

    def remove(self, message: Message) -> None:
        """Take a message off the queue for good (got, discarded, committed, sent)."""
        if message.state == GOT_IN_UOW:
            self.in_uow -= 1
        message.state = REMOVED
        message.locker = None
        self.count -= 1
        seq = message.seq
        objects = self._objects
        lane = self.lanes[message.lane]
        if lane[0][SEQ] == seq:
            lane.popleft()
            if objects:
                objects.pop(seq, None)
                while objects and lane and self._is_tombstone(lane[0]):
                    del objects[lane.popleft()[SEQ]]
        else:
            objects[seq] = message  # a tombstone until it reaches the front
            if len(lane) > _COMPACT_MIN and len(lane) > 2 * self.count:
                self._compact_lane(message.lane)
        if self._deadlines is not None and message.deadline != NEVER:
            self._gone.add(seq)
        if self._by_msgid is not None:
            _index_drop(self._by_msgid, message.msgid, seq)
        if self._by_correlid is not None:
            _index_drop(self._by_correlid, message.correlid, seq)

    def remove_record(self, record: Record) -> None:
        """:meth:`remove` for an AVAILABLE message kept as its record alone (a plain get): at the
        front of its lane, with no object, index or scan heap to update, it is just popped."""
        lane = self.lanes[record[LANE]]
        simple = not self._objects and self._deadlines is None
        if simple and lane[0] is record and self._by_msgid is None and self._by_correlid is None:
            lane.popleft()
            self.count -= 1
        else:
            self.remove(self._made(record))

    def context(self, record: Record) -> dict[str, Any]:
        """The put context of a record as the dict the store shares for it."""
        items = record[CTX]
        known = self._contexts.get(id(items))
        if known is None or known[1] is not items:
            known = self._remember_context(_unflat(items), items)
        return known[0]

    def _compact_lane(self, lane: int) -> None:
        """Drop the tombstones of one lane."""
        kept: deque[Record] = deque()
        for record in self.lanes[lane]:
            if self._is_tombstone(record):
                del self._objects[record[SEQ]]
            else:
                kept.append(record)
        self.lanes[lane] = kept

    def hold(self, message: Message) -> None:
        """A get in a unit of work: the message leaves CURDEPTH but keeps its place."""
        message.state = GOT_IN_UOW
        self.in_uow += 1
        self._objects[message.seq] = message

    def release(self, message: Message) -> None:
        """Undo :meth:`hold` (backout), or make an uncommitted put available (commit).

        A committed put with nothing else to remember goes back to being its record alone; a
        backed-out get keeps its object (the caller counts the backout on it).
        """
        if message.state == GOT_IN_UOW:
            self.in_uow -= 1
        elif message.locker is None and not message.backouts:
            self._objects.pop(message.seq, None)
        message.state = AVAILABLE

    # -- walks ----------------------------------------------------------------------------------
    def first_live(self, now: int, handle: object) -> tuple[Message | None, list[Message]]:
        """The first message a plain get would return, and the expired ones met before it; the
        store keeps the object of the message returned (the caller may browse, lock or hold it).
        """
        record, message, expired = self.find(now, handle, None, None, None)
        if record is not None and message is None:
            message = self.made(record, keep=True)
        return message, [self.message(old) if isinstance(old, tuple) else old for old in expired]

    def find(
        self,
        now: int,
        handle: object,
        msgid: bytes | None,
        correlid: bytes | None,
        after: tuple[int, int] | None,
    ) -> tuple[Record | None, Message | None, Expired]:
        """The first message a get would return, as its record and the object the store keeps for
        it (None: its record alone, no object made yet), and the expired messages met before it
        (each as the object the store keeps for it, or its record).

        Restricted to messages with this MsgId and/or CorrelId, and to those after a cursor
        position ``after`` (lane, seq) in delivery order. The hot path of every get (no match, no
        cursor) walks the lanes from the top one down.
        """
        if msgid is None and correlid is None and after is None:
            if self.top < 0:
                return None, None, _NONE
            candidates: Iterable[Record] = chain.from_iterable(self.lanes[self.top :: -1])
        else:
            candidates = self._candidates(msgid, correlid, after)
        return self._walk(now, handle, candidates)

    def made(self, record: Record, keep: bool) -> Message:
        """A new object for a present record the store keeps none for; ``keep``: kept while the
        message is on the queue (the caller may browse it, lock it or hold it)."""
        message = self._made(record)
        if keep:
            self._objects[record[SEQ]] = message
        return message

    def _walk(
        self, now: int, handle: object, candidates: Iterable[Record]
    ) -> tuple[Record | None, Message | None, Expired]:
        """Walk candidates in delivery order: skip what this handle may not see (uncommitted, in a
        unit of work, locked by another handle), collect expired ones, stop at the first live one
        (rules EXP-21..24, 27)."""
        objects = self._objects
        expired: list[Message | Record] | None = None
        for record in candidates:
            message = objects.get(record[SEQ]) if objects else None
            if message is not None:
                if message.state:
                    continue
                locker = message.locker
                if locker is not None and locker is not handle:
                    continue
            if is_expired(record[DEADLINE], now):  # EXP-20
                if expired is None:
                    expired = [record if message is None else message]
                else:
                    expired.append(record if message is None else message)
                continue
            return record, message, expired or _NONE
        return None, None, expired or _NONE

    def _candidates(
        self, msgid: bytes | None, correlid: bytes | None, after: tuple[int, int] | None
    ) -> Iterator[Record]:
        if msgid is not None or correlid is not None:
            found = self._matching(msgid, correlid)
            if after is not None:
                key = (-after[0], after[1])
                found = [r for r in found if delivery_key(r) > key]
            yield from found
            return
        for lane in range(self.top, -1, -1):
            queue = self.lanes[lane]
            if after is None or lane < after[0]:
                yield from queue
            elif lane == after[0]:
                start = bisect_right(queue, after[1], key=_seq_of)
                yield from islice(queue, start, None)

    def _matching(self, msgid: bytes | None, correlid: bytes | None) -> list[Record]:
        """Present messages with this MsgId and/or CorrelId, in delivery order (index lookup)."""
        if msgid is not None:
            found = _entries(self._index(MSGID), msgid)
            if correlid is not None:
                found = [r for r in found if r[CORRELID] == correlid]
        else:
            assert correlid is not None
            found = _entries(self._index(CORRELID), correlid)
        if len(found) > 1:
            found.sort(key=delivery_key)  # in arrival order already; lanes come first
        return found

    def _index(self, field: int) -> Index:
        """The index of present messages by MsgId or CorrelId (a Record position), built on
        first use and kept exact by :meth:`add` and :meth:`remove` from then on."""
        index = self._by_msgid if field == MSGID else self._by_correlid
        if index is None:
            index = {}
            for record in self._records():
                _index_add(index, record[MSGID] if field == MSGID else record[CORRELID], record)
            if field == MSGID:
                self._by_msgid = index
            else:
                self._by_correlid = index
        return index

    # -- views ----------------------------------------------------------------------------------
    def _records(self) -> Iterator[Record]:
        """Every present record (all states but REMOVED) in delivery order."""
        objects = self._objects
        for lane in range(self.top, -1, -1):
            for record in self.lanes[lane]:
                if not objects or not self._is_tombstone(record):
                    yield record

    def messages(self) -> Iterator[Message]:
        """Every present message (all states but REMOVED) in delivery order."""
        for record in self._records():
            yield self.message(record)

    def views(self) -> Iterator[MessageView]:
        """Every present message in delivery order as a read-only ``MessageView``: what the
        views draw on every click, without making a ``Message`` for each record."""
        objects, make = self._objects, tuple.__new__  # NamedTuple's own __new__ costs 40 % more
        for record in self._records():
            message = objects.get(record[SEQ]) if objects else None
            if message is None:
                yield make(MessageView, (*record, AVAILABLE, None))
            else:
                yield make(MessageView, (*record, message.state, message.locker))

    def due(self, now: int) -> list[Message]:
        """Present messages whose deadline has passed, in deadline order (for expiry scans).

        Messages a scan may not touch now (uncommitted, in a unit of work, locked by a browse)
        stay in the heap for the next scan.
        """
        heap = self._deadline_heap()
        gone, objects = self._gone, self._objects
        found: list[Message] = []
        keep: list[tuple[int, int, Record]] = []
        while heap and is_expired(heap[0][0], now):
            entry = heapq.heappop(heap)
            seq = entry[1]
            if seq in gone:
                gone.discard(seq)
                continue
            message = objects.get(seq)
            if message is None:
                found.append(self._made(entry[2]))  # the caller discards every one of these
            elif message.state == AVAILABLE and message.locker is None:
                found.append(message)
            else:
                keep.append(entry)  # uncommitted, in a unit of work or locked: look again later
        for entry in keep:
            heapq.heappush(heap, entry)
        return found

    def _deadline_heap(self) -> list[tuple[int, int, Record]]:
        if self._deadlines is None:
            self._compact_deadlines()
        assert self._deadlines is not None
        return self._deadlines

    def _compact_deadlines(self) -> None:
        """Rebuild the heap from the messages present (drops entries of removed ones)."""
        heap = [(r[DEADLINE], r[SEQ], r) for r in self._records() if r[DEADLINE] != NEVER]
        heapq.heapify(heap)
        self._deadlines = heap
        self._gone.clear()

    def has_due(self, now: int) -> bool:
        """Whether a scan could find anything (z/OS "queues worth scanning")."""
        heap = self._deadline_heap()
        return bool(heap) and is_expired(heap[0][0], now)


def flat(fields: dict[str, Any]) -> Items:
    """A dict as one flat tuple: the collector untracks it at its first collection (a tuple of
    pairs would take one collection per level)."""
    return tuple(chain.from_iterable(fields.items()))


def _unflat(items: Items) -> dict[str, Any]:
    return dict(zip(items[::2], items[1::2], strict=True))


def _entries(index: Index, key: bytes) -> list[Record]:
    entry = index.get(key)
    if entry is None:
        return []
    return list(entry.values()) if isinstance(entry, dict) else [entry]


def _index_add(index: Index, key: bytes, record: Record) -> None:
    entry = index.get(key)
    if entry is None:
        index[key] = record
    elif isinstance(entry, dict):
        entry[record[SEQ]] = record
    else:
        index[key] = {entry[SEQ]: entry, record[SEQ]: record}


def _index_drop(index: Index, key: bytes, seq: int) -> None:
    entry = index.get(key)
    if entry is None:
        return
    if isinstance(entry, dict):
        entry.pop(seq, None)
        if len(entry) == 1:
            index[key] = next(iter(entry.values()))  # back to one record: untracked again
    elif entry[SEQ] == seq:
        del index[key]
