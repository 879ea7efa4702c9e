"""The message store of one local queue: delivery order, lazy-expiry walks, cursors, indexes.

Delivery order is (lane descending, arrival ascending). Each lane (priority 0-9) is a deque in
arrival order, so a put is an append and a get from the front is O(1). Messages that leave the queue
are marked REMOVED and dropped when they reach the front of their lane (tombstones), which keeps
removals from the middle (matched gets, scans) O(1) as well; a lane is compacted when tombstones
outnumber live messages. Messages got in a unit of work stay in place, so a backout puts them back
exactly where they were (rule UOW-01).

The store decides nothing about reports, events or units of work: the walk methods return the
expired messages met before the first live one, and the queue manager discards them.
"""

from __future__ import annotations

import heapq
from bisect import bisect_right
from collections import deque
from collections.abc import Iterator
from itertools import chain, islice
from operator import attrgetter

from mqlearn.engine.message import AVAILABLE, GOT_IN_UOW, NEVER, REMOVED, Message

LANES = 10  # priorities 0..9 (MAXPRTY is at most 9)
_NONE: tuple[Message, ...] = ()
_COMPACT_MIN = 256


def _seq_of(message: Message) -> int:
    return message.seq


def delivery_key(message: Message) -> tuple[int, int]:
    return (-message.lane, message.seq)


class LocalStore:
    """Messages of one local queue. ``count`` = messages present; ``depth`` = CURDEPTH."""

    __slots__ = ("_by_correlid", "_by_msgid", "_deadlines", "count", "in_uow", "lanes", "top")

    def __init__(self) -> None:
        self.lanes: list[deque[Message]] = [deque() for _ in range(LANES)]
        self.top = -1  # no lane above this one has ever held a message (walks start here)
        self.count = 0  # every state but REMOVED
        self.in_uow = 0  # of which GOT_IN_UOW
        # (deadline, seq, message) of messages with a finite Expiry, for scans: built by the first
        # scan (a queue never scanned never pays for it); entries of messages gone since are
        # dropped lazily, and compacted away when they outnumber the live ones
        self._deadlines: list[tuple[int, int, Message]] | None = None
        self._by_msgid: dict[bytes, list[Message]] | None = None  # built on first match
        self._by_correlid: dict[bytes, list[Message]] | None = None

    @property
    def depth(self) -> int:
        """CURDEPTH: present messages minus those got in an open unit of work."""
        return self.count - self.in_uow

    # -- changes --------------------------------------------------------------------------------
    def add(self, message: Message) -> None:
        lane = message.lane
        self.lanes[lane].append(message)
        if lane > self.top:
            self.top = lane
        self.count += 1
        heap = self._deadlines
        if heap is not None and message.deadline != NEVER:
            heapq.heappush(heap, (message.deadline, message.seq, message))
            if len(heap) > 2 * self.count + _COMPACT_MIN:
                self._compact_deadlines()
        if self._by_msgid is not None:
            self._by_msgid.setdefault(message.msgid, []).append(message)
        if self._by_correlid is not None:
            self._by_correlid.setdefault(message.correlid, []).append(message)

    def remove(self, message: Message) -> None:
        """Take a message off the queue for good (got, discarded, committed, sent)."""
        if message.state == GOT_IN_UOW:
            self.in_uow -= 1
        message.state = REMOVED
        message.locker = None
        self.count -= 1
        lane = self.lanes[message.lane]
        if lane[0] is message:
            lane.popleft()
            while lane and lane[0].state == REMOVED:
                lane.popleft()
        elif len(lane) > _COMPACT_MIN and len(lane) > 2 * self.count:
            self.lanes[message.lane] = deque(m for m in lane if m.state != REMOVED)

    def hold(self, message: Message) -> None:
        """A get in a unit of work: the message leaves CURDEPTH but keeps its place."""
        message.state = GOT_IN_UOW
        self.in_uow += 1

    def release(self, message: Message) -> None:
        """Undo :meth:`hold` (backout), or make an uncommitted put available (commit)."""
        if message.state == GOT_IN_UOW:
            self.in_uow -= 1
        message.state = AVAILABLE

    # -- walks ----------------------------------------------------------------------------------
    def first_live(
        self, now: int, handle: object
    ) -> tuple[Message | None, tuple[Message, ...] | list[Message]]:
        """The first message a plain get would return, and the expired ones met before it.

        The hot path of every get: no match options, no cursor; lanes from the top one down.
        """
        if self.top < 0:
            return None, _NONE
        return self._walk(now, handle, chain.from_iterable(self.lanes[self.top :: -1]))

    def first_live_matching(
        self,
        now: int,
        handle: object,
        msgid: bytes | None,
        correlid: bytes | None,
        after: tuple[int, int] | None,
    ) -> tuple[Message | None, tuple[Message, ...] | list[Message]]:
        """Like :meth:`first_live`, restricted to matching messages and/or those after a cursor.

        ``after`` is a cursor position (lane, seq): only messages later in delivery order count.
        """
        return self._walk(now, handle, self._candidates(msgid, correlid, after))

    @staticmethod
    def _walk(
        now: int, handle: object, candidates: Iterator[Message]
    ) -> tuple[Message | None, tuple[Message, ...] | list[Message]]:
        """Walk candidates in delivery order: skip what this handle may not see (uncommitted, in a
        unit of work, locked by another handle), collect expired ones, stop at the first live one
        (rules EXP-21..24, 27)."""
        expired: list[Message] | None = None
        for message in candidates:
            if message.state:
                continue
            locker = message.locker
            if locker is not None and locker is not handle:
                continue
            if message.deadline <= now:
                if expired is None:
                    expired = [message]
                else:
                    expired.append(message)
                continue
            return message, expired or _NONE
        return None, expired or _NONE

    def _candidates(
        self, msgid: bytes | None, correlid: bytes | None, after: tuple[int, int] | None
    ) -> Iterator[Message]:
        if msgid is not None or correlid is not None:
            found = self._matching(msgid, correlid)
            if after is not None:
                key = (-after[0], after[1])
                found = [m for m in found if delivery_key(m) > key]
            yield from found
            return
        for lane in range(self.top, -1, -1):
            queue = self.lanes[lane]
            if after is None or lane < after[0]:
                yield from queue
            elif lane == after[0]:
                start = bisect_right(queue, after[1], key=_seq_of)
                yield from islice(queue, start, None)

    def _matching(self, msgid: bytes | None, correlid: bytes | None) -> list[Message]:
        """Present messages with this MsgId and/or CorrelId, in delivery order (index lookup)."""
        if msgid is not None:
            found = self._index("msgid").get(msgid, [])
            if correlid is not None:
                found = [m for m in found if m.correlid == correlid]
        else:
            assert correlid is not None
            found = self._index("correlid").get(correlid, [])
        live = [m for m in found if m.state != REMOVED]
        if len(live) != len(found):  # prune the index entry while we are here
            found[:] = live
        return sorted(live, key=delivery_key) if len(live) > 1 else live

    def _index(self, field: str) -> dict[bytes, list[Message]]:
        """The index of present messages by ``field`` ("msgid" or "correlid"), built on first use
        and kept up to date by :meth:`add` from then on."""
        slot = f"_by_{field}"
        index: dict[bytes, list[Message]] | None = getattr(self, slot)
        if index is None:
            key = attrgetter(field)
            index = {}
            for message in self.messages():
                index.setdefault(key(message), []).append(message)
            setattr(self, slot, index)
        return index

    # -- views ----------------------------------------------------------------------------------
    def messages(self) -> Iterator[Message]:
        """Every present message (all states but REMOVED) in delivery order."""
        for lane in range(self.top, -1, -1):
            for message in self.lanes[lane]:
                if message.state != REMOVED:
                    yield message

    def due(self, now: int) -> list[Message]:
        """Present messages whose deadline has passed, in deadline order (for expiry scans).

        Messages a scan may not touch now (uncommitted, in a unit of work, locked by a browse)
        stay in the heap for the next scan.
        """
        heap = self._deadline_heap()
        found: list[Message] = []
        keep: list[tuple[int, int, Message]] = []
        while heap and heap[0][0] <= now:
            entry = heapq.heappop(heap)
            message = entry[2]
            if message.state == AVAILABLE and message.locker is None:
                found.append(message)  # the caller discards every one of these
            elif message.state != REMOVED:
                keep.append(entry)  # uncommitted, in a unit of work or locked: look again later
        for entry in keep:
            heapq.heappush(heap, entry)
        return found

    def _deadline_heap(self) -> list[tuple[int, int, Message]]:
        if self._deadlines is None:
            self._deadlines = []
            self._compact_deadlines()
        return self._deadlines

    def _compact_deadlines(self) -> None:
        """Rebuild the heap from the messages present (drops entries of removed ones)."""
        heap = [(m.deadline, m.seq, m) for m in self.messages() if m.deadline != NEVER]
        heapq.heapify(heap)
        self._deadlines = heap

    def has_due(self, now: int) -> bool:
        """Whether a scan could find anything (z/OS "queues worth scanning")."""
        heap = self._deadline_heap()
        return bool(heap) and heap[0][0] <= now
