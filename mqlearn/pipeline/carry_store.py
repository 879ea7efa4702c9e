"""The messages still queued across the cuts of a trace, kept from one piece to the next.

A trace replayed in pieces (:mod:`mqlearn.pipeline.batches`) carries, for every queue cut by a
piece, the messages still queued on it. They live in a store of slots: a message's columns
(:data:`~mqlearn.pipeline.carry.COLUMNS`, plus an ``arrival`` number that grows with arrival
across pieces) are written once, when the piece that put it leaves it queued, and stay there
until a piece sees it leave. ``order`` lists the slots in delivery order, by queue, lane
descending, then arrival: lane ``L`` of queue ``q`` (its QueueTable position) is the block
``order[block_lo[b]:block_lo[b + 1]]`` with ``b = q * LANES + LANES - 1 - L``.

A piece is handed only the stored messages its replay can touch (:meth:`Store.take`: *hot*)
and counts the others (*cold*) in the depth of their lanes; on a queue

- complete with the piece (its still-queued messages are reported): all of them;
- with rows in the piece: in each lane, every message up to the furthest browse cursor in it
  (if the queue is browsed in the piece), then every message up to and including the ``K``-th
  that stays live until the queue's replay ends there (deadline after its ``until``), ``K``
  being how many of the piece's gets and browses can reach the lane (:func:`_lane_walks`);
  beyond it, every message that expires during the piece (the expired count changes at its
  deadline), every expired message if a background scan falls in the piece (EXP-28: it
  discards them), and every message whose MsgId or CorrelId a matching get of the piece asks
  for (EXP-27: such a get walks only those);
- without rows there: none (its scans up to its latest time ran in earlier pieces).

Why the others cannot be touched: a get or browse walks a lane from its head or from after a
cursor and stops at the first live message (rules EXP-21..24), each get removes at most one
live message and each browse moves its cursor past at most one, so ``K`` gets and browses stop
in a lane at or before its ``K``-th message live throughout after the cursors; nothing after it
in that lane (the cold messages, then the piece's own) is reached. A get reaches a lower lane
only when no live message is left above it (MD-02): one live throughout the piece, stored or
put before the get, stays there but for the gets before it. A cold message neither expires
during the piece nor is asked for, and one expired before the piece (no scan due) stays
expired and queued through it: it counts in the expired count from the piece's start
(``carry.Cold.expired``). The hot ones keep their delivery order among themselves; where cold
ones are left out between them only a scan, the expired count or a matching get looks (by
deadline, by identifier). Any larger choice is as correct (a message taken needlessly is
replayed as it would be).

After the piece (:meth:`Store.keep`) the hot messages that left free their slots, the piece's
own messages still queued take slots, and ``order`` is rebuilt in one compiled pass (no column
is copied). A piece thus costs its rows, the messages it takes and the ones it leaves queued,
plus a few nanoseconds per stored message for the choice and the new order (no column of a
stored message is copied again while it waits). docs/pipeline.md, "Deep backlogs", has the
measurements.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mqlearn.engine import rule_formulas
from mqlearn.pipeline import kernel as K
from mqlearn.pipeline.arrays import compiled, place
from mqlearn.pipeline.carry import COLUMNS, Carried, Cold, Names
from mqlearn.pipeline.encode import Calls, Encoded
from mqlearn.pipeline.ids import id_hash
from mqlearn.pipeline.order import merge_two
from mqlearn.pipeline.queues import QueueTable
from mqlearn.pipeline.validate import Validated

LANES = K.LANES
# A slot holds each column of COLUMNS in the narrowest type its values fit, as the store may
# hold millions of messages: a priority, lane or persistence (0-9, 0-2) in a byte, the
# MQLONG fields (validated to fit int32), queue positions and name numbers in 32 bits; the
# arrays a piece is handed widen them again (encode's per-message columns).
_NARROW = {
    "part": np.int32,
    "priority": np.int8,
    "lane": np.int8,
    "expiry": np.int32,
    "report": np.int32,
    "persistence": np.int8,
    "data_length": np.int32,
    "reply_to_q": np.int32,
    "report_qmgr": np.int32,
}
SLOT_COLUMNS = {
    **{name: (_NARROW.get(name, dtype), shape) for name, (dtype, shape) in COLUMNS.items()},
    "arrival": (np.int64, ()),
}
# what a piece takes of a queue's stored messages
NONE, SOME, ALL = 0, 1, 2
_is_expired = compiled(rule_formulas.is_expired)  # rule EXP-20, as the kernel compiles it


@dataclass(frozen=True)
class Reach:
    """Per QueueTable position, what a piece's replay can touch of its stored messages (see the
    module docstring): ``mode`` (NONE, SOME, ALL), ``walks`` (its gets and browses), whether it
    is ``browsed``, ``since`` and ``until`` (its replay's start and end), ``scans`` (whether a
    background scan falls between); and the identifiers its matching gets ask for
    (``ids.IdColumn.table``, None: no such get)."""

    mode: np.ndarray
    walks: np.ndarray
    browsed: np.ndarray
    since: np.ndarray
    until: np.ndarray
    scans: np.ndarray
    msg_ids: np.ndarray | None
    correl_ids: np.ndarray | None
    # the rows, per queue (``row_lo``, as the replay takes them): time, whether each is a get,
    # the lane and deadline of the message a put makes (-1: none); the puts per queue and the
    # queues' MAXDEPTH
    row_lo: np.ndarray
    time: np.ndarray
    is_get: np.ndarray
    put_lane: np.ndarray
    put_deadline: np.ndarray
    puts: np.ndarray
    maxdepth: np.ndarray

    @classmethod
    def of(
        cls,
        valid: Validated,
        queues: QueueTable,
        done: np.ndarray,
        since: np.ndarray,
        until: np.ndarray,
        calls: Calls,
    ) -> Reach:
        """What the accepted rows of a piece reach (``done``: the queues complete with it;
        ``since``: each queue's latest time before it, -1 if none; ``calls``: its rows)."""
        n = len(done)
        op, part = calls.op, valid.part
        put_lane = np.full(len(op), -1, dtype=np.int64)
        put_lane[calls.accepted] = calls.lane[calls.accepted]
        walks = ~K.adds_message(op)
        browses = walks & (op != K.OP_GET)
        has_rows = np.bincount(part, minlength=n) > 0
        browsed = np.bincount(part[browses], minlength=n) > 0
        mode = np.where(done, ALL, np.where(has_rows, SOME, NONE))
        every = np.maximum(queues.interval_ms, 1)
        scans = (queues.interval_ms > 0) & (until // every > since // every)
        ids = valid.columns.ids
        return cls(
            mode.astype(np.int64),
            np.bincount(part[walks], minlength=n).astype(np.int64),
            browsed,
            since,
            until,
            scans,
            *(ids[name].table if ids[name].asked else None for name in ("msg_id", "correl_id")),
            np.searchsorted(part, np.arange(n + 1)).astype(np.int64),
            calls.time,
            op == K.OP_GET,
            put_lane,
            calls.deadline,
            np.bincount(part[calls.accepted], minlength=n).astype(np.int64),
            queues.maxdepth,
        )


class Store:
    """The stored messages of one replay (see the module docstring) and the names they use.

    Beside ``order``, per entry, what the choice of a piece reads (so that it reads in order):
    ``deadline`` and the hashes of the MsgId and CorrelId (``ids.id_hash``)."""

    def __init__(self, n_queues: int, capacity: int = 1024) -> None:
        self.names = Names()
        self.columns = {
            name: np.zeros((capacity, *shape), dtype=dtype)
            for name, (dtype, shape) in SLOT_COLUMNS.items()
        }
        self.order = np.zeros(0, dtype=np.int64)
        self.deadline = np.zeros(0, dtype=np.int64)
        self.msg_hash = np.zeros(0, dtype=np.uint64)
        self.correl_hash = np.zeros(0, dtype=np.uint64)
        self.block_lo = np.zeros(n_queues * LANES + 1, dtype=np.int64)
        self.free = np.zeros(capacity, dtype=np.int64)  # free[:n_free]: slots freed
        self.n_free = 0
        self.used = 0  # slots 0:used have been handed out
        self.arrivals = 0  # arrival numbers given so far
        self.hot = np.zeros(0, dtype=np.int64)  # the entries the last piece took
        self.taken_slots = np.zeros(0, dtype=np.int64)  # ... and their slots

    def __len__(self) -> int:
        return len(self.order)

    def column(self, name: str) -> np.ndarray:
        """The values ``name`` (of :data:`SLOT_COLUMNS`) of the stored messages, in order."""
        values: np.ndarray = self.columns[name][self.order]
        return values

    @property
    def part(self) -> np.ndarray:
        return self.column("part")

    def take(
        self, reach: Reach, cursors: dict[tuple[int, int], tuple[int, int]]
    ) -> tuple[Carried, Cold]:
        """The hot messages of a piece, as a carried set (in delivery order, with their orders
        by arrival and by deadline), and how many cold ones, per block and expired.
        ``cursors``: the browse cursors of (queue, handle) as (lane, seq of the message)."""
        columns = self.columns
        stored = np.add.reduceat(
            np.diff(self.block_lo), np.arange(0, len(self.block_lo) - 1, LANES)
        )
        hot, cold, expired = _choose(
            self.block_lo,
            self.deadline,
            self._behind(cursors, reach.browsed),
            reach.mode,
            _lane_walks(
                self.block_lo,
                self.deadline,
                reach.mode,
                reach.walks,
                reach.browsed | (stored + reach.puts > reach.maxdepth),
                reach.since,
                reach.until,
                reach.row_lo,
                reach.time,
                reach.is_get,
                reach.put_lane,
                reach.put_deadline,
            ),
            reach.since,
            reach.until,
            reach.scans,
            self.msg_hash,
            _filter(reach.msg_ids),
            self.correl_hash,
            _filter(reach.correl_ids),
        )
        self.hot = np.flatnonzero(hot)
        at = self.taken_slots = self.order[self.hot]
        by_arrival, by_deadline = _orders(
            columns["part"][at],
            columns["arrival"][at],
            self.deadline[self.hot],
            reach.since,
            reach.until,
        )
        return Carried(columns, at, by_arrival, by_deadline, self.names), Cold(cold, expired)

    def _behind(
        self, cursors: dict[tuple[int, int], tuple[int, int]], browsed: np.ndarray
    ) -> np.ndarray:
        """Per block, how many of its messages are at or before the furthest cursor in it of a
        queue that is ``browsed`` (the cursor's message, or where it was: the last one put at
        or before it)."""
        behind = np.zeros(len(self.block_lo) - 1, dtype=np.int64)
        seq = self.columns["seq"]
        for (queue, _), (lane, at) in cursors.items():
            if browsed[queue]:
                b = queue * LANES + LANES - 1 - lane
                block = self.order[self.block_lo[b] : self.block_lo[b + 1]]
                behind[b] = max(behind[b], np.searchsorted(seq[block], at, "right"))
        return behind

    def keep(self, enc: Encoded, waiting: np.ndarray) -> None:
        """After a piece (the one :meth:`take` chose for last): its messages ``waiting`` (per
        message of ``enc``: still queued on a queue whose trace goes on) stay, the others it
        took leave the store."""
        stays = waiting[enc.carried_pos]  # per message taken, in the order taken
        own = np.ones(len(waiting), dtype=np.bool_)
        own[enc.carried_pos] = False
        new = np.flatnonzero(waiting & own)  # the piece's own, in delivery order
        slots = self._slots(len(new))
        for name in COLUMNS:
            place(self.columns[name], slots, enc.columns[name], new)
        rank = np.empty(len(waiting), dtype=np.int64)
        rank[enc.arrival] = np.arange(len(waiting))
        self.columns["arrival"][slots] = self.arrivals + rank[new]
        self.arrivals += len(waiting)
        gone = np.zeros(len(self.order), dtype=np.bool_)
        gone[self.hot[~stays]] = True
        block = enc.columns["part"][new] * LANES + (LANES - 1 - enc.columns["lane"][new])
        self.order, self.deadline, self.msg_hash, self.correl_hash, self.block_lo = _rebuild(
            (self.order, self.deadline, self.msg_hash, self.correl_hash),
            self.block_lo,
            gone,
            (slots, enc.columns["deadline"][new], *_hashes(enc.columns, new)),
            block,
        )
        self._free(self.taken_slots[~stays])
        self.hot = np.zeros(0, dtype=np.int64)

    def _slots(self, n: int) -> np.ndarray:
        """``n`` slots for new messages: freed ones first, then new ones (the columns grow)."""
        reused = min(n, self.n_free)
        self.n_free -= reused
        slots = np.concatenate(
            (
                self.free[self.n_free : self.n_free + reused],
                np.arange(self.used, self.used + n - reused, dtype=np.int64),
            )
        )
        self.used += n - reused
        capacity = len(self.free)
        if self.used > capacity:
            capacity = max(self.used, capacity + capacity // 4)  # a copy is cheap, room is not
            for name, values in self.columns.items():
                grown = np.zeros((capacity, *values.shape[1:]), dtype=values.dtype)
                grown[: len(values)] = values
                self.columns[name] = grown
            free = np.zeros(capacity, dtype=np.int64)
            free[: self.n_free] = self.free[: self.n_free]
            self.free = free
        return slots

    def _free(self, slots: np.ndarray) -> None:
        self.free[self.n_free : self.n_free + len(slots)] = slots
        self.n_free += len(slots)


def _hashes(columns: dict[str, np.ndarray], at: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The MsgId and CorrelId hashes of the messages ``at`` (a CorrelId that is none: 0)."""
    msg = _word_hashes(columns["msg_words"], at)
    correl = _word_hashes(columns["correl_words"], at)
    return msg, np.where(columns["correl_null"][at], np.uint64(0), correl)


@compiled
def _word_hashes(words, at):  # pragma: no cover (jit)
    out = np.empty(len(at), dtype=np.uint64)
    for i in range(len(at)):
        k = at[i]
        out[i] = id_hash(words[k, 0], words[k, 1], words[k, 2])
    return out


_NO_FILTER = np.zeros(0, dtype=np.uint64)


def _filter(table: np.ndarray | None) -> np.ndarray:
    """A bit set of the hashes of the identifiers in a numbering table (``ids.IdColumn.table``:
    those a piece's matching gets ask for), 256 bits or more per identifier (a message whose
    identifier is not asked for passes once in 256 or less often: it is then taken too); empty
    for none."""
    return _NO_FILTER if table is None else _bits(table)


@compiled
def _bits(table):  # pragma: no cover (jit)
    asked = 0
    for k in range(len(table)):
        asked += table[k, 3] != 0
    words = 1
    while words < 4 * asked:
        words *= 2
    bits = np.zeros(words, dtype=np.uint64)
    for k in range(len(table)):
        if table[k, 3] != 0:
            h = id_hash(table[k, 0], table[k, 1], table[k, 2]) & np.uint64(64 * words - 1)
            bits[h >> np.uint64(6)] |= np.uint64(1) << (h & np.uint64(63))
    return bits


@compiled
def _passes(bits, h):  # pragma: no cover (jit)
    """Whether hash ``h`` is in the bit set ``bits`` (:func:`_filter`; never when empty)."""
    if len(bits) == 0:
        return False
    b = h & np.uint64(64 * len(bits) - 1)
    return (bits[b >> np.uint64(6)] >> (b & np.uint64(63))) & np.uint64(1) != 0


@compiled
def _lane_walks(
    block_lo,
    deadline,
    mode,
    walks,
    any_lane,
    since,
    until,
    row_lo,
    time,
    is_get,
    put_lane,
    put_deadline,
):  # pragma: no cover (jit)
    """Per block, how many of the piece's walks can reach its lane: all of the queue's gets
    and browses (``walks``) on a queue browsed in the piece or that could refuse a put
    (``any_lane``: a refused put adds no message); else the gets made while the lanes above
    might hold no live message (MD-02). A get at time t stops in a lane above at a present
    message live at t; counting there the stored messages and those put before it (never
    refused here) whose deadline is after t, less one for every earlier get (each removes one
    at most), one of them is there if the count is positive."""
    budget = np.zeros(len(block_lo) - 1, dtype=np.int64)
    above = np.zeros(LANES, dtype=np.int64)  # per lane: live messages in the lanes above
    heap = np.empty(len(deadline) + len(put_lane), dtype=np.int64)  # deadline * 16 + lane
    for q in range(len(mode)):
        first = q * LANES
        if mode[q] != SOME or block_lo[first] == block_lo[first + LANES]:
            continue
        if any_lane[q]:
            budget[first : first + LANES] = walks[q]
            continue
        start, end, count, n = since[q], until[q], 0, 0
        for lane in range(LANES - 1, -1, -1):
            above[lane] = count
            b = first + LANES - 1 - lane
            for i in range(block_lo[b], block_lo[b + 1]):
                if not _is_expired(deadline[i], start):
                    count += 1
                    if _is_expired(deadline[i], end):  # live until its deadline only
                        n = _push(heap, n, deadline[i] * 16 + lane)
        gets = 0
        for r in range(row_lo[q], row_lo[q + 1]):
            lane = put_lane[r]
            if lane >= 0:
                for below in range(lane):
                    above[below] += 1
                if _is_expired(put_deadline[r], end):
                    n = _push(heap, n, put_deadline[r] * 16 + lane)
            elif is_get[r]:
                while n > 0 and _is_expired(heap[0] // 16, time[r]):  # no longer live
                    for below in range(heap[0] % 16):
                        above[below] -= 1
                    n = _pop(heap, n)
                for lane in range(LANES):
                    if above[lane] <= gets:
                        budget[first + LANES - 1 - lane] += 1
                gets += 1
    return budget


@compiled
def _push(heap, n, key):  # pragma: no cover (jit)
    """Add ``key`` to the binary min-heap ``heap[:n]``; returns its new size."""
    k = n
    heap[k] = key
    while k > 0 and heap[(k - 1) // 2] > heap[k]:
        parent = (k - 1) // 2
        heap[k], heap[parent] = heap[parent], heap[k]
        k = parent
    return n + 1


@compiled
def _pop(heap, n):  # pragma: no cover (jit)
    """Remove the least key of the binary min-heap ``heap[:n]``; returns its new size."""
    n -= 1
    heap[0] = heap[n]
    k = 0
    while True:
        least, left = k, 2 * k + 1
        if left < n and heap[left] < heap[least]:
            least = left
        if left + 1 < n and heap[left + 1] < heap[least]:
            least = left + 1
        if least == k:
            return n
        heap[k], heap[least] = heap[least], heap[k]
        k = least


@compiled
def _choose(
    block_lo,
    deadline,
    behind,
    mode,
    walks,  # per block
    since,
    until,
    scans,
    msg_hash,
    msg_bits,
    correl_hash,
    correl_bits,
):  # pragma: no cover (jit)
    """Per stored entry, whether the piece takes it (see the module docstring); per block how
    many it leaves (cold), and per queue how many of those are expired already."""
    hot = np.zeros(len(deadline), dtype=np.bool_)
    cold = np.zeros(len(block_lo) - 1, dtype=np.int64)
    expired = np.zeros(len(mode), dtype=np.int64)
    for q in range(len(mode)):
        first = q * LANES
        if block_lo[first] == block_lo[first + LANES]:
            continue
        m = mode[q]
        for b in range(first, first + LANES):
            lo, hi = block_lo[b], block_lo[b + 1]
            if m == ALL:
                hot[lo:hi] = True
                continue
            if m == NONE:
                cold[b] = hi - lo
                continue
            start, end, scanned, budget, live = since[q], until[q], scans[q], walks[b], 0
            cursor = lo + behind[b]
            for i in range(lo, hi):
                if i < cursor:
                    hot[i] = True
                    continue
                take = live < budget
                before = False
                if not _is_expired(deadline[i], end):
                    live += 1  # live throughout the piece
                elif scanned or not _is_expired(deadline[i], start):
                    take = True  # a scan discards it, or it expires during the piece
                else:
                    before = True
                if not take:
                    take = _passes(msg_bits, msg_hash[i]) or _passes(correl_bits, correl_hash[i])
                hot[i] = take
                if not take:
                    cold[b] += 1
                    expired[q] += before
    return hot, cold, expired


@compiled
def _orders(part, arrival, deadline, since, until):  # pragma: no cover (jit)
    """The taken messages (each queue's together, queues ascending, in delivery order) by
    arrival, and by deadline: first those expired when their queue's replay here starts
    (``since``), then those that expire during it by (deadline, arrival), then the others, each
    in arrival order (:class:`~mqlearn.pipeline.carry.Carried`). Positions in the set."""
    n = len(part)
    by_arrival = np.empty(n, dtype=np.int64)
    by_deadline = np.empty(n, dtype=np.int64)
    scratch = np.empty(n, dtype=np.int64)
    lo = 0
    while lo < n:
        hi = lo + 1
        while hi < n and part[hi] == part[lo]:
            hi += 1
        for i in range(lo, hi):
            by_arrival[i] = i
        _merge_runs(by_arrival, scratch, lo, hi, arrival)  # its lanes, each in arrival order
        start, end = since[part[lo]], until[part[lo]]
        w = lo
        for k in range(lo, hi):
            if _is_expired(deadline[by_arrival[k]], start):
                by_deadline[w] = by_arrival[k]
                w += 1
        first = w
        for k in range(lo, hi):
            d = deadline[by_arrival[k]]
            if _is_expired(d, end) and not _is_expired(d, start):
                by_deadline[w] = by_arrival[k]
                w += 1
        if w - first > 1:
            by_deadline[first:w] = by_deadline[first:w][
                np.argsort(deadline[by_deadline[first:w]], kind="mergesort")
            ]
        for k in range(lo, hi):
            if not _is_expired(deadline[by_arrival[k]], end):
                by_deadline[w] = by_arrival[k]
                w += 1
        lo = hi
    return by_arrival, by_deadline


@compiled
def _merge_runs(index, scratch, lo, hi, key):  # pragma: no cover (jit)
    """Sort ``index[lo:hi]`` by ``key[index]``, stably, merging its ascending runs two by two
    (a queue's taken messages: one run per lane)."""
    while True:
        runs = 0
        i = lo
        while i < hi:  # one pass: merge each pair of runs into scratch
            mid = i + 1
            while mid < hi and key[index[mid]] >= key[index[mid - 1]]:
                mid += 1
            end = mid
            if mid < hi:
                end = mid + 1
                while end < hi and key[index[end]] >= key[index[end - 1]]:
                    end += 1
            merge_two(index, i, mid, index, mid, end, key, scratch, i)
            runs += 1
            i = end
        index[lo:hi] = scratch[lo:hi]
        if runs <= 1:
            return


@compiled
def _rebuild(entries, block_lo, gone, new, new_block):  # pragma: no cover (jit)
    """The order after a piece: per block, the stored entries that stay (not ``gone``, in
    their order), then the new ones (in delivery order, with their blocks ``new_block``).
    ``entries`` and ``new``: (slot, deadline, MsgId hash, CorrelId hash) arrays."""
    order = entries[0]
    n_blocks = len(block_lo) - 1
    counts = np.zeros(n_blocks, dtype=np.int64)
    for b in range(n_blocks):
        for i in range(block_lo[b], block_lo[b + 1]):
            counts[b] += not gone[i]
    for b in new_block:
        counts[b] += 1
    lo = np.zeros(n_blocks + 1, dtype=np.int64)
    for b in range(n_blocks):
        lo[b + 1] = lo[b] + counts[b]
    n = lo[n_blocks]
    slot, deadline = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    msg, correl = np.empty(n, dtype=np.uint64), np.empty(n, dtype=np.uint64)
    at = lo[:-1].copy()
    for b in range(n_blocks):
        for i in range(block_lo[b], block_lo[b + 1]):
            if not gone[i]:
                k = at[b]
                slot[k], deadline[k], msg[k], correl[k] = (
                    order[i],
                    entries[1][i],
                    entries[2][i],
                    entries[3][i],
                )
                at[b] += 1
    for j in range(len(new_block)):
        k = at[new_block[j]]
        slot[k], deadline[k], msg[k], correl[k] = new[0][j], new[1][j], new[2][j], new[3][j]
        at[new_block[j]] += 1
    return slot, deadline, msg, correl, lo
