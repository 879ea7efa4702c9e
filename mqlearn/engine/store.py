"""The message store of one local queue: delivery order, candidates, cursors, indexes.

Delivery order is (lane descending, arrival ascending). Each lane (priority 0-9) is a deque of
records (``mqlearn.engine.message.Record``: plain tuples the garbage collector does not track) in
arrival order, so a put is an append and a get from the front is O(1). What changes while a
message is queued is kept in one table, ``_marks``, keyed by the message's number (seq): a
:class:`Mark` (state, locker, BackoutCount) for each message whose state is not AVAILABLE, that a
handle has locked or that was backed out. Every other queued message is its record alone, so the
collector's work does not grow with depth.

Messages that leave the queue from the middle (matched gets, scans) stay in their lane as
tombstones, their numbers in the set ``_tombstones``, until they reach the front of the lane, which
keeps such removals O(1) as well; a lane is compacted when tombstones outnumber live messages. A
tombstone is a number in a set, not an object: a long run of matched gets adds nothing the
collector tracks (objects that survive make full collections come sooner, and a full collection
walks every lane). Messages got in a unit of work stay in
place, so a backout puts them back exactly where they were (rule UOW-01).

The store decides nothing about expiry, reports, events or units of work:
:meth:`LocalStore.candidates` gives the messages a get may meet, in delivery order,
:meth:`LocalStore.hidden` which of them the caller may not see, and the get's walk
(``mqlearn.engine.mqget.walk``) decides which it discards and which it returns.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Callable, Container, Iterable, Iterator
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
    MessageView,
    Record,
    unflat,
)
from mqlearn.engine.message import field as record_field
from mqlearn.engine.rule_formulas import is_expired

LANES = 10  # priorities 0..9 (MAXPRTY is at most 9)
_NONE: tuple[Record, ...] = ()
_COMPACT_MIN = 256
_CONTEXTS_MAX = 64  # distinct put contexts remembered per store (most queues see one or two)
_seq_of = itemgetter(SEQ)
Items = tuple[Any, ...]  # a dict's names and values, flat: name, value, name, value, ...
# MsgId or CorrelId -> the present message with it, as its record, or, when several share it
# (most share MQCI_NONE), {seq: record} of them in arrival order: a put adds one entry and a
# removal drops one, whatever the number sharing the id, and a unique id costs the collector
# nothing (a record is an untracked tuple; only the few shared ids have a dict)
Index = dict[bytes, Record | dict[int, Record]]
# An entry no id can match (ids are 24 bytes), whose value the collector always tracks: a dict of
# untracked values is untracked by a full collection, and the next put's record (tracked until a
# collection looks at it) tracks it again as a young object, so the young collections that follow
# walked every entry of a million-message index (the MsgId cell at 2e5: 25.8 against 16.9 us).
# The same for the dict of the messages sharing an id (key _TRACKED_SEQ, always first).
_TRACKED = b""
_TRACKED_SEQ = -1
_TRACKED_VALUE: Any = {}


def delivery_key(record: Record) -> tuple[int, int]:
    return (-record[LANE], record[SEQ])


class Mark:
    """What the store keeps for a message besides its record (see the module docstring)."""

    __slots__ = ("backouts", "locker", "state")

    def __init__(self, state: int = AVAILABLE) -> None:
        self.state = state
        self.locker: object | None = None  # the handle holding an MQGMO_LOCK on it
        self.backouts = 0

    @property
    def plain(self) -> bool:
        """Nothing to remember: the message can be its record alone again."""
        return self.state == AVAILABLE and self.locker is None and not self.backouts


class LocalStore:
    """Messages of one local queue. ``count`` = messages present; ``depth`` = CURDEPTH."""

    __slots__ = (
        "_by_correlid",
        "_by_groupid",
        "_by_msgid",
        "_contexts",
        "_deadlines",
        "_gone",
        "_marks",
        "_tombstones",
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
        self._marks: dict[int, Mark] = {}  # by seq: see the module docstring
        self._tombstones: set[int] = set()  # seqs of messages removed from the middle of a lane
        # (deadline, seq, record) of messages with a finite Expiry, for scans: built by the first
        # scan (a queue never scanned never pays for it); entries of messages gone since (their
        # seqs are in ``_gone``) are dropped lazily, and compacted away when they outnumber the
        # live ones
        self._deadlines: list[tuple[int, int, Record]] | None = None
        self._gone: set[int] = set()
        self._by_msgid: Index | None = None  # built on first match, exact from then on
        self._by_correlid: Index | None = None
        # GroupId -> its messages (issue 24): only messages with a GroupId other than MQGI_NONE
        self._by_groupid: Index | None = None
        # id(ctx dict) and id(ctx items) -> (dict, items): the shared put contexts, converted once
        self._contexts: dict[int, tuple[dict[str, Any], Items]] = {}

    @property
    def depth(self) -> int:
        """CURDEPTH: present messages minus those got in an open unit of work."""
        return self.count - self.in_uow

    # -- contexts -------------------------------------------------------------------------------
    def items(self, ctx: dict[str, Any]) -> Items:
        """A put context as the flat tuple a record keeps, converted once per shared dict."""
        known = self._contexts.get(id(ctx))
        if known is None or known[0] is not ctx:
            known = self._remember_context(ctx, flat(ctx))
        return known[1]

    def context(self, record: Record) -> dict[str, Any]:
        """The put context of a record as the dict the store shares for it."""
        items = record[CTX]
        known = self._contexts.get(id(items))
        if known is None or known[1] is not items:
            known = self._remember_context(unflat(items), items)
        return known[0]

    def _remember_context(self, ctx: dict[str, Any], items: Items) -> tuple[dict[str, Any], Items]:
        contexts = self._contexts
        if len(contexts) >= 2 * _CONTEXTS_MAX:
            contexts.clear()
        known = (ctx, items)
        contexts[id(ctx)] = contexts[id(items)] = known
        return known

    # -- what a record lacks --------------------------------------------------------------------
    def state(self, record: Record) -> int:
        """AVAILABLE, UNCOMMITTED_PUT, GOT_IN_UOW, or REMOVED once it has left the queue."""
        if record[SEQ] in self._tombstones:
            return REMOVED
        mark = self._marks.get(record[SEQ])
        if mark is not None:
            return mark.state
        lane = self.lanes[record[LANE]]
        at = bisect_left(lane, record[SEQ], key=_seq_of)
        return AVAILABLE if at < len(lane) and lane[at] is record else REMOVED

    def locker(self, record: Record) -> object | None:
        """The handle holding an MQGMO_LOCK on the message, if any."""
        mark = self._marks.get(record[SEQ])
        return None if mark is None else mark.locker

    def backouts(self, record: Record) -> int:
        """BackoutCount: how many times a get of the message was backed out."""
        mark = self._marks.get(record[SEQ])
        return 0 if mark is None else mark.backouts

    def _mark(self, record: Record) -> Mark:
        mark = self._marks.get(record[SEQ])
        if mark is None:
            mark = self._marks[record[SEQ]] = Mark()
        return mark

    def _settle(self, record: Record, mark: Mark) -> None:
        if mark.plain:
            del self._marks[record[SEQ]]

    # -- changes --------------------------------------------------------------------------------
    def add(self, record: Record, state: int = AVAILABLE) -> None:
        """Queue a new record at the end of its lane (``QueueManager._enqueue`` makes it);
        ``state``: UNCOMMITTED_PUT for a put in a unit of work."""
        lane = record[LANE]
        self.lanes[lane].append(record)
        if lane > self.top:
            self.top = lane
        self.count += 1
        if state:
            self._marks[record[SEQ]] = Mark(state)
        heap = self._deadlines
        if heap is not None and record[DEADLINE] != NEVER:
            heapq.heappush(heap, (record[DEADLINE], record[SEQ], record))
            if len(heap) > 2 * self.count + _COMPACT_MIN:
                self._compact_deadlines()
        if self._by_msgid is not None:
            _index_add(self._by_msgid, record[MSGID], record)
        if self._by_correlid is not None:
            _index_add(self._by_correlid, record[CORRELID], record)
        if self._by_groupid is not None and record[EXTRA] is not None:
            group = group_id(record)
            if group is not None:
                _index_add(self._by_groupid, group, record)

    def remove(self, record: Record) -> object | None:
        """Take a message off the queue for good (got, discarded, committed, sent, cleared).
        Returns the handle that had it locked (MQGMO_LOCK), if one had."""
        seq = record[SEQ]
        marks = self._marks
        mark = marks.pop(seq, None) if marks else None
        if mark is not None and mark.state == GOT_IN_UOW:
            self.in_uow -= 1
        self.count -= 1
        lane = self.lanes[record[LANE]]
        if lane[0][SEQ] == seq:
            lane.popleft()
            tombstones = self._tombstones
            while tombstones and lane and lane[0][SEQ] in tombstones:
                tombstones.remove(lane.popleft()[SEQ])
        else:
            self._tombstones.add(seq)  # until it reaches the front
            if len(lane) > _COMPACT_MIN and len(lane) > 2 * self.count:
                self._compact_lane(record[LANE])
        if self._deadlines is not None and record[DEADLINE] != NEVER:
            self._gone.add(seq)
        if self._by_msgid is not None:
            _index_drop(self._by_msgid, record[MSGID], seq)
        if self._by_correlid is not None:
            _index_drop(self._by_correlid, record[CORRELID], seq)
        if self._by_groupid is not None and record[EXTRA] is not None:
            group = group_id(record)
            if group is not None:
                _index_drop(self._by_groupid, group, seq)
        return None if mark is None else mark.locker

    def _compact_lane(self, lane: int) -> None:
        """Drop the tombstones of one lane."""
        kept: deque[Record] = deque()
        tombstones = self._tombstones
        for record in self.lanes[lane]:
            if record[SEQ] in tombstones:
                tombstones.remove(record[SEQ])
            else:
                kept.append(record)
        self.lanes[lane] = kept

    def hold(self, record: Record) -> None:
        """A get in a unit of work: the message leaves CURDEPTH but keeps its place."""
        self._mark(record).state = GOT_IN_UOW
        self.in_uow += 1

    def release(self, record: Record, backout: bool = False) -> None:
        """Undo :meth:`hold` (``backout``: BackoutCount + 1, rule UOW-01), or make an
        uncommitted put available (commit)."""
        mark = self._mark(record)
        if mark.state == GOT_IN_UOW:
            self.in_uow -= 1
            mark.backouts += backout
        mark.state = AVAILABLE
        self._settle(record, mark)

    def lock(self, record: Record, handle: object | None) -> None:
        """MQGMO_LOCK by ``handle`` (None: unlock)."""
        mark = self._mark(record)
        mark.locker = handle
        self._settle(record, mark)

    # -- candidates -----------------------------------------------------------------------------
    def candidates(
        self,
        msgid: bytes | None = None,
        correlid: bytes | None = None,
        after: tuple[int, int] | None = None,
        keep: Callable[[Record], bool] | None = None,
        groupid: bytes | None = None,
    ) -> Iterable[Record]:
        """The messages a get or browse may meet, in delivery order: what it walks
        (``mqlearn.engine.mqget.walk``, the home of the discard walk, rules EXP-21..24), with
        :meth:`hidden` telling which of them the caller may not see.

        With match options only matching messages are candidates: those with this MsgId,
        CorrelId and/or GroupId, those after a cursor position ``after`` (lane, seq) in delivery order, those
        ``keep`` accepts (the other match options). A message that does not match is no
        candidate, expired or not (EXP-27). The hot path of every get (no match, no cursor) is
        the lanes themselves, top one down.
        """
        if msgid is not None or correlid is not None or groupid is not None:
            found: Iterable[Record] = self._matching(msgid, correlid, after, groupid)
        elif after is not None:
            found = self._after(after)
        elif self.top < 0:
            return _NONE
        else:
            found = chain.from_iterable(self.lanes[self.top :: -1])
        return found if keep is None else filter(keep, found)

    def hidden(self, handle: object) -> Container[int] | None:
        """Which candidates, by message number, a get or browse by ``handle`` may not see:
        those removed from the middle of a lane (tombstones), uncommitted, got in a unit of
        work, or locked by another handle. None when no message is any of these (the hot path);
        the tombstone set itself when only tombstones are (a run of matched gets)."""
        if not self._marks:
            return self._tombstones or None
        return _Hidden(self._tombstones, self._marks, handle)

    def _after(self, after: tuple[int, int]) -> Iterator[Record]:
        """The lanes after a cursor position (lane, seq), in delivery order."""
        for lane in range(self.top, -1, -1):
            queue = self.lanes[lane]
            if lane < after[0]:
                yield from queue
            elif lane == after[0]:
                start = bisect_right(queue, after[1], key=_seq_of)
                yield from islice(queue, start, None)

    def _matching(
        self,
        msgid: bytes | None,
        correlid: bytes | None,
        after: tuple[int, int] | None,
        groupid: bytes | None = None,
    ) -> list[Record]:
        """Present messages with this MsgId, CorrelId and/or GroupId, in delivery order (index
        lookup: the GroupId's when one is given, a group being the smallest set), after a cursor
        position ``after`` (lane, seq) if given."""
        if groupid is not None:
            found = self.group(groupid)
            if msgid is not None:
                found = [r for r in found if r[MSGID] == msgid]
            if correlid is not None:
                found = [r for r in found if r[CORRELID] == correlid]
        elif msgid is not None:
            found = _entries(self._index(MSGID), msgid)
            if correlid is not None:
                found = [r for r in found if r[CORRELID] == correlid]
        else:
            assert correlid is not None
            found = _entries(self._index(CORRELID), correlid)
        if len(found) > 1:
            found.sort(key=delivery_key)  # in arrival order already; lanes come first
        if after is not None:
            key = (-after[0], after[1])
            found = [r for r in found if delivery_key(r) > key]
        return found

    def group(self, groupid: bytes) -> list[Record]:
        """The present messages (every state) with this GroupId, in arrival order: an index
        lookup, built on first use and kept exact by :meth:`add` and :meth:`remove` (issue 24)."""
        index = self._by_groupid
        if index is None:
            index = self._by_groupid = {_TRACKED: _TRACKED_VALUE}
            for record in self.records():
                if record[EXTRA] is not None:
                    group = group_id(record)
                    if group is not None:
                        _index_add(index, group, record)
        return _entries(index, groupid)

    def _index(self, field: int) -> Index:
        """The index of present messages by MsgId or CorrelId (a Record position), built on
        first use and kept exact by :meth:`add` and :meth:`remove` from then on."""
        index = self._by_msgid if field == MSGID else self._by_correlid
        if index is None:
            index = {_TRACKED: _TRACKED_VALUE}
            for record in self.records():
                _index_add(index, record[MSGID] if field == MSGID else record[CORRELID], record)
            if field == MSGID:
                self._by_msgid = index
            else:
                self._by_correlid = index
        return index

    # -- views ----------------------------------------------------------------------------------
    def records(self) -> Iterator[Record]:
        """Every present record (all states but REMOVED) in delivery order."""
        tombstones = self._tombstones
        for lane in range(self.top, -1, -1):
            for record in self.lanes[lane]:
                if not tombstones or record[SEQ] not in tombstones:
                    yield record

    def views(self) -> Iterator[MessageView]:
        """Every present message in delivery order as a read-only ``MessageView`` (record,
        state, lock, BackoutCount): what the views and checks read."""
        marks, make = self._marks, tuple.__new__  # NamedTuple's own __new__ costs 40 % more
        for record in self.records():
            mark = marks.get(record[SEQ]) if marks else None
            if mark is None:
                yield make(MessageView, (*record, AVAILABLE, None, 0))
            else:
                yield make(MessageView, (*record, mark.state, mark.locker, mark.backouts))

    messages = views  # the name the layers above have read it by

    def due(self, now: int) -> list[Record]:
        """Present messages whose deadline has passed, in deadline order (for expiry scans).

        Messages a scan may not touch now (uncommitted, in a unit of work, locked by a browse)
        stay in the heap for the next scan.
        """
        heap = self._deadline_heap()
        gone, marks = self._gone, self._marks
        found: list[Record] = []
        keep: list[tuple[int, int, Record]] = []
        while heap and is_expired(heap[0][0], now):
            entry = heapq.heappop(heap)
            seq = entry[1]
            if seq in gone:
                gone.discard(seq)
                continue
            mark = marks.get(seq)
            if mark is None or (mark.state == AVAILABLE and mark.locker is None):
                found.append(entry[2])  # the caller discards every one of these
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
        heap = [(r[DEADLINE], r[SEQ], r) for r in self.records() if r[DEADLINE] != NEVER]
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


_GI_NONE = b"\0" * 24  # MQGI_NONE


def group_id(record: Record) -> bytes | None:
    """A record's GroupId, or None for MQGI_NONE (not indexed: it matches any group)."""
    group: bytes = record_field(record, "GroupId", _GI_NONE)
    return None if group == _GI_NONE else group


class _Hidden:
    """The messages a handle may not see when some have marks (:meth:`LocalStore.hidden`)."""

    __slots__ = ("handle", "marks", "tombstones")

    def __init__(self, tombstones: set[int], marks: dict[int, Mark], handle: object) -> None:
        self.tombstones, self.marks, self.handle = tombstones, marks, handle

    def __contains__(self, seq: object) -> bool:
        if seq in self.tombstones:
            return True
        mark = self.marks.get(seq)  # type: ignore[call-overload]
        if mark is None:
            return False
        locker = mark.locker
        return bool(mark.state) or (locker is not None and locker is not self.handle)


def _entries(index: Index, key: bytes) -> list[Record]:
    entry = index.get(key)
    if entry is None:
        return []
    if isinstance(entry, dict):
        return list(islice(entry.values(), 1, None))  # the first is _TRACKED_VALUE
    return [entry]


def _index_add(index: Index, key: bytes, record: Record) -> None:
    entry = index.get(key)
    if entry is None:
        index[key] = record
    elif isinstance(entry, dict):
        entry[record[SEQ]] = record
    else:
        index[key] = {_TRACKED_SEQ: _TRACKED_VALUE, entry[SEQ]: entry, record[SEQ]: record}


def _index_drop(index: Index, key: bytes, seq: int) -> None:
    entry = index.get(key)
    if entry is None:
        return
    if isinstance(entry, dict):
        entry.pop(seq, None)
        if len(entry) == 2:  # back to one record (and _TRACKED_VALUE): untracked again
            index[key] = next(islice(entry.values(), 1, None))
    elif entry[SEQ] == seq:
        del index[key]
