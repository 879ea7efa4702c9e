"""The replay's hot loop: one pass over the rows of each (qmgr, queue), compiled with numba.

This is the only place where the replay decides what happens to a message; it follows the engine
(docs/engine.md: ``LocalStore.candidates``, ``mqget.walk``, ``QueueManager.scan``) rule by rule:

- Messages are numbered in delivery order within their partition (lane descending, then arrival):
  lane ``L`` of partition ``p`` is the block ``lane_start[p*10+9-L] : lane_start[p*10+10-L]``.
  Within a lane, arrival order is trace order, so a walk can stop at the first message whose PUT
  has not happened yet. Removed messages stay as tombstones; ``head`` skips the removed prefix.
- A get or browse walks its candidates in delivery order, discards every expired one it meets and
  stops at the first live one (rules EXP-21..24): :func:`_walk` mirrors the engine's
  ``mqget.walk``, the walk's one home; with match options only matching messages are
  candidates (EXP-27); BROWSE_NEXT starts after its handle's cursor; nothing live → 2033 (EXP-26).
- An ARRIVE row (schema v2) is a put by the queue manager whose Expiry may be 0: its message is
  expired from its arrival (deadline = its time), counted as expired at once and discarded by
  the first get or browse that meets it, or by the first scan after its arrival.
- An accepted put fails with 2053 when CURDEPTH (expired messages included, EXP-25) is at MAXDEPTH.
- Background scans (EXP-28) run at every multiple of the interval, before the calls of that time:
  each discards the present messages whose deadline has passed. ``dl_order`` lists a partition's
  messages by (deadline, arrival) (carried ones expired already may come first, and those that
  cannot expire by ``until`` last, in any order: ``carry.Carried``); a message can only be put
  after every scan earlier than its deadline, so one pointer per partition finds them all.
- ``expired`` counts present messages whose deadline has passed (a second pointer over
  ``dl_order``); a discarded message always was one of them, a got one never.
- A piece of a trace starts from the state the pieces before left (:mod:`mqlearn.pipeline.carry`):
  the messages still queued then that this piece can reach are in the message arrays, PRESENT
  from the start (``present``), at the head of their lanes (they arrived first); they have no
  row. ``lane_carried`` counts them and those it cannot reach (:mod:`mqlearn.pipeline.carry_store`:
  past what the piece's walks can reach in the lane, not due to expire nor to a scan in it,
  asked for by none of its matching gets), which count in the depth only, and in the expired
  count from the start when expired already (``expired_carried``).
  The scans up to the partition's latest time ran already, so none of them is due to one before
  this piece's first row; the pointers over ``dl_order`` start at the partition's beginning.

All arrays are int64 except the per-message ``state`` and ``end_kind`` (int8). The inputs come in
three groups (:class:`Partitions`, :class:`Rows`, :class:`MessageInputs`, built by
``Encoded.kernel_args``); inside, :class:`Messages` and :class:`Depths` carry what changes.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mqlearn.engine import rule_formulas
from mqlearn.engine.rule_formulas import NEVER as NEVER  # deadline of an unlimited Expiry
from mqlearn.engine.store import LANES as LANES  # priorities 0..9
from mqlearn.mqi import cmqc as C
from mqlearn.pipeline.arrays import compiled
from mqlearn.pipeline.schema import OPS

# message states
FUTURE, PRESENT, GONE = 0, 1, 2
# how a message left the queue (end_kind); QUEUED = still there at the end
QUEUED, GOT, BY_GET, BY_BROWSE, BY_SCAN, REFUSED = 0, 1, 2, 3, 4, 5
# row ops (their index in schema.OPS)
OP_PUT, OP_GET, OP_BROWSE_FIRST, OP_BROWSE_NEXT, OP_ARRIVE = (
    OPS.index(op) for op in ("PUT", "GET", "BROWSE_FIRST", "BROWSE_NEXT", "ARRIVE")
)


def adds_message(op: np.ndarray) -> np.ndarray:
    """Per row op code: a PUT or an ARRIVE (schema v2), the rows that add a message."""
    result: np.ndarray = (op == OP_PUT) | (op == OP_ARRIVE)
    return result


# match kinds: which index a get walks
MATCH_NONE, MATCH_MSG, MATCH_CORREL, MATCH_BOTH = 0, 1, 2, 3

Q_FULL = C.MQRC_Q_FULL
NO_MSG = C.MQRC_NO_MSG_AVAILABLE
# slots of the per-partition counters
DEPTH, EXPIRED, DISCARDED = 0, 1, 2
# the engine's rule EXP-20 (now >= deadline), compiled: every walk and pointer here stops by it
_is_expired = compiled(rule_formulas.is_expired)


class Partitions(NamedTuple):
    """Per partition p (one (qmgr, queue)): its rows, messages and lanes, and its queue."""

    row_lo: np.ndarray  # rows of p: row_lo[p]:row_lo[p+1]
    msg_lo: np.ndarray  # messages of p (delivery order): msg_lo[p]:msg_lo[p+1]
    lane_start: np.ndarray  # message blocks per (partition, lane)
    maxdepth: np.ndarray
    interval: np.ndarray  # ms between background scans (0: none)
    until: np.ndarray  # when p's replay ends
    lane_carried: np.ndarray  # per (partition, lane) block: messages queued before its rows
    expired_carried: np.ndarray  # of those, not in the message arrays and expired already


class Rows(NamedTuple):
    """Per row (a call), in trace order within each partition."""

    op: np.ndarray
    time: np.ndarray
    handle: np.ndarray  # handle code (browse cursors are per handle)
    put_pos: np.ndarray  # the message an accepted PUT adds, else -1
    put_reason: np.ndarray  # reason of the descriptor checks
    match_kind: np.ndarray  # MATCH_*: which index a get walks
    rlo: np.ndarray  # ... and the range of that index
    rhi: np.ndarray
    rcorrel: np.ndarray  # the CorrelId a get matching both identifiers checks


class MessageInputs(NamedTuple):
    """Per message, in delivery order, and the orders the walks and pointers follow."""

    deadline: np.ndarray
    lane: np.ndarray
    correl: np.ndarray
    put_ms: np.ndarray  # when its PUT or ARRIVE row is
    dl_order: np.ndarray  # by (partition, deadline, arrival) (see the module docstring)
    msg_index: np.ndarray  # by (partition, MsgId number, position)
    correl_index: np.ndarray  # by (partition, CorrelId number, position)
    present: np.ndarray  # int8: PRESENT for a message carried over from earlier pieces, else FUTURE


class Messages(NamedTuple):
    """Per message: its deadline and lane, and what becomes of it (updated in place)."""

    deadline: np.ndarray
    lane_of: np.ndarray
    put_ms: np.ndarray
    state: np.ndarray  # FUTURE, PRESENT, GONE
    end_kind: np.ndarray
    end_row: np.ndarray
    end_ms: np.ndarray


class Depths(NamedTuple):
    """The partition being replayed: present messages per lane and its counters."""

    cnt: np.ndarray  # per lane
    counters: np.ndarray  # DEPTH, EXPIRED, DISCARDED


@compiled
def _count_expired(ptr, end, now, dl_order, msgs, counters):  # pragma: no cover
    """Move the expired-count pointer to ``now``; returns the new pointer."""
    while ptr < end:
        q = dl_order[ptr]
        if not _is_expired(msgs.deadline[q], now):
            break
        if msgs.state[q] == PRESENT:
            counters[EXPIRED] += 1
        ptr += 1
    return ptr


@compiled
def _record_scan(n_scans, part, at, counters, scans):  # pragma: no cover
    """Note a scan that discarded something: its time and the depth it left."""
    scans[n_scans, 0] = part
    scans[n_scans, 1] = at
    scans[n_scans, 2] = counters[DEPTH]
    scans[n_scans, 3] = counters[EXPIRED]
    return n_scans + 1


@compiled
def _leave(q, kind, row, now, msgs, depths):  # pragma: no cover
    """Message ``q`` leaves the queue: got, or discarded (``kind``) by ``row`` at ``now``."""
    msgs.state[q] = GONE
    depths.cnt[msgs.lane_of[q]] -= 1
    depths.counters[DEPTH] -= 1
    msgs.end_kind[q] = kind
    msgs.end_row[q] = row
    msgs.end_ms[q] = now


@compiled
def _discard(q, kind, row, now, msgs, depths):  # pragma: no cover
    _leave(q, kind, row, now, msgs, depths)
    depths.counters[EXPIRED] -= 1
    depths.counters[DISCARDED] += 1


@compiled
def _walk(start, base, now, row, kind, lane_start, head, msgs, depths):  # pragma: no cover
    """The discard walk, a mirror of the engine's one home of it, ``mqlearn.engine.mqget.walk``
    (rules EXP-21..24; tests/pipeline/test_walk_mirror.py drives both on the same queues).

    The candidates (the engine's ``LocalStore.candidates``) are the present messages at or after
    position ``start``, lanes top down; every expired candidate met before the first live one is
    discarded (here at once: the engine collects them and discards after the walk, and nothing a
    discard changes is read again by the walk), the first live one is returned (-1: none).
    """
    state = msgs.state
    for lane in range(LANES - 1, -1, -1):
        if depths.cnt[lane] == 0:
            continue
        hi = lane_start[base + LANES - lane]
        if start >= hi:
            continue  # a lane above the cursor
        p = max(head[lane], start)
        while p < hi:
            s = state[p]
            if s == FUTURE:
                break  # not put yet, nor anything after it in this lane
            if s == PRESENT:  # not hidden (GONE: got or discarded already)
                candidate = p
                if _is_expired(msgs.deadline[candidate], now):  # EXP-20
                    _discard(candidate, kind, row, now, msgs, depths)  # discarded ahead
                else:
                    return candidate  # the first live one
            if p == head[lane]:
                head[lane] = p + 1
            p += 1
    return -1


@compiled
def _walk_index(
    index, heads, lo, hi, correl_filter, cursor, now, row, kind, correl, msgs, depths
):  # pragma: no cover
    """:func:`_walk` (the mirror of ``mqlearn.engine.mqget.walk``) over the candidates of a
    matched get: the matching messages ``index[lo:hi]``, in delivery order."""
    if lo >= hi:
        return -1
    state = msgs.state
    front = True
    for j in range(heads[lo], hi):
        p = index[j]
        s = state[p]
        if s == GONE:
            if front:
                heads[lo] = j + 1
            continue
        front = False
        if s == FUTURE or p <= cursor:
            continue
        if correl_filter >= 0 and correl[p] != correl_filter:
            continue  # (the engine's candidates hold matching messages only)
        candidate = p
        if _is_expired(msgs.deadline[candidate], now):  # EXP-20
            _discard(candidate, kind, row, now, msgs, depths)  # discarded ahead
            continue
        return candidate  # the first live one
    return -1


@compiled
def _scan_until(
    upto, part, every, scan_ptr, exp_ptr, end, n_scans, scans, dl_order, msgs, depths
):  # pragma: no cover
    """Run the scans due at or before ``upto`` (multiples of ``every``), each at its own time.

    Returns the two pointers over ``dl_order`` and the number of recorded scans.
    """
    counters = depths.counters
    limit = (upto // every) * every
    scan_at = -1
    while scan_ptr < end:
        q = dl_order[scan_ptr]
        d = msgs.deadline[q]
        if not _is_expired(d, limit):
            break
        at = ((d + every - 1) // every) * every  # the first scan at or after the deadline
        if at <= msgs.put_ms[q]:
            # arrived expired (ARRIVE, Expiry 0) at a scan's time: that scan ran before it
            at += every
        if at > limit:
            break  # (only such an arrival; what follows in dl_order is due no earlier)
        scan_ptr += 1
        if msgs.state[q] != PRESENT:
            continue
        if at != scan_at:
            if scan_at >= 0:
                n_scans = _record_scan(n_scans, part, scan_at, counters, scans)
            scan_at = at
            exp_ptr = _count_expired(exp_ptr, end, at, dl_order, msgs, counters)
        _discard(q, BY_SCAN, -1, at, msgs, depths)
    if scan_at >= 0:
        n_scans = _record_scan(n_scans, part, scan_at, counters, scans)
    return scan_ptr, exp_ptr, n_scans


@compiled
def replay_rows(parts, rows, inputs, cursors):  # pragma: no cover
    """Replay every partition; see the module docstring for the inputs.

    ``parts``, ``rows``, ``inputs``: :class:`Partitions`, :class:`Rows`, :class:`MessageInputs`.
    ``cursors`` holds the browse cursor of each handle (a message position; -1 or any position
    before the partition's first message: none) and is updated in place.
    ``parts.until[p]`` is when partition p's replay ends (at or after its last row): scans due up
    to then still run. Returns per row (reason, found, discarded, depth, expired), per message
    (end_kind, end_row, end_ms), per partition (depth, expired) at ``until``, and one row
    (part, time, depth, expired) per scan that discarded something.
    """
    msg_lo, lane_start, dl_order = parts.msg_lo, parts.lane_start, inputs.dl_order
    op, time, handle, match_kind = rows.op, rows.time, rows.handle, rows.match_kind
    n = len(op)
    m = len(inputs.deadline)
    n_parts = len(parts.row_lo) - 1
    reason = np.zeros(n, dtype=np.int64)
    found = np.full(n, -1, dtype=np.int64)
    discarded = np.zeros(n, dtype=np.int64)
    depth_out = np.zeros(n, dtype=np.int64)
    expired_out = np.zeros(n, dtype=np.int64)
    msgs = Messages(
        inputs.deadline,
        inputs.lane,
        inputs.put_ms,
        inputs.present.copy(),
        np.zeros(m, dtype=np.int8),
        np.full(m, -1, dtype=np.int64),
        np.full(m, -1, dtype=np.int64),
    )
    state, deadline = msgs.state, msgs.deadline
    final = np.zeros((n_parts, 2), dtype=np.int64)
    scans = np.empty((m, 4), dtype=np.int64)  # rows 0:n_scans are written
    n_scans = 0
    msg_heads = np.arange(len(inputs.msg_index))
    correl_heads = np.arange(len(inputs.correl_index))
    head = np.zeros(LANES, dtype=np.int64)
    depths = Depths(np.zeros(LANES, dtype=np.int64), np.zeros(3, dtype=np.int64))
    cnt, counters = depths.cnt, depths.counters
    for part in range(n_parts):
        m0 = msg_lo[part]
        m1 = msg_lo[part + 1]
        base = part * LANES
        counters[:] = 0
        counters[EXPIRED] = parts.expired_carried[part]
        for lane in range(LANES):
            head[lane] = lane_start[base + LANES - 1 - lane]
            cnt[lane] = parts.lane_carried[base + LANES - 1 - lane]
            counters[DEPTH] += cnt[lane]
        every = parts.interval[part]
        exp_ptr = m0
        scan_ptr = m0
        now = -1
        for i in range(parts.row_lo[part], parts.row_lo[part + 1]):
            t = time[i]
            if t != now:
                # (the helpers are called only when they have work: a call costs more than a row)
                if (
                    every > 0
                    and scan_ptr < m1
                    and _is_expired(deadline[dl_order[scan_ptr]], t // every * every)
                ):
                    scan_ptr, exp_ptr, n_scans = _scan_until(
                        t,
                        part,
                        every,
                        scan_ptr,
                        exp_ptr,
                        m1,
                        n_scans,
                        scans,
                        dl_order,
                        msgs,
                        depths,
                    )
                if exp_ptr < m1 and _is_expired(deadline[dl_order[exp_ptr]], t):
                    exp_ptr = _count_expired(exp_ptr, m1, t, dl_order, msgs, counters)
                now = t
            o = op[i]
            if o == OP_PUT or o == OP_ARRIVE:  # noqa: SIM109 (a compare each: compiled)
                q = rows.put_pos[i]
                reason[i] = rows.put_reason[i]
                if q >= 0:
                    if counters[DEPTH] >= parts.maxdepth[part]:
                        reason[i] = Q_FULL
                        state[q] = GONE
                        msgs.end_kind[q] = REFUSED
                    else:
                        state[q] = PRESENT
                        cnt[msgs.lane_of[q]] += 1
                        counters[DEPTH] += 1
                        found[i] = q
                        if _is_expired(deadline[q], t):
                            # arrived expired (ARRIVE, Expiry 0): the expired-count pointer
                            # passed it before it was here
                            counters[EXPIRED] += 1
            else:
                counters[DISCARDED] = 0
                kind = BY_GET
                cursor = -1
                if o != OP_GET:
                    kind = BY_BROWSE
                    if o == OP_BROWSE_FIRST:
                        cursors[handle[i]] = -1  # back before the first message, found or not
                    cursor = cursors[handle[i]]
                mk = match_kind[i]
                if mk == MATCH_NONE:
                    start = m0 if cursor < 0 else cursor + 1
                    q = _walk(start, base, t, i, kind, lane_start, head, msgs, depths)
                elif mk == MATCH_CORREL:
                    q = _walk_index(
                        inputs.correl_index,
                        correl_heads,
                        rows.rlo[i],
                        rows.rhi[i],
                        -1,
                        cursor,
                        t,
                        i,
                        kind,
                        inputs.correl,
                        msgs,
                        depths,
                    )
                else:
                    q = _walk_index(
                        inputs.msg_index,
                        msg_heads,
                        rows.rlo[i],
                        rows.rhi[i],
                        rows.rcorrel[i] if mk == MATCH_BOTH else -1,
                        cursor,
                        t,
                        i,
                        kind,
                        inputs.correl,
                        msgs,
                        depths,
                    )
                discarded[i] = counters[DISCARDED]
                if q < 0:
                    reason[i] = NO_MSG
                else:
                    found[i] = q
                    if o == OP_GET:
                        _leave(q, GOT, i, t, msgs, depths)
                    else:
                        cursors[handle[i]] = q
            depth_out[i] = counters[DEPTH]
            expired_out[i] = counters[EXPIRED]
        if every > 0:  # the scans between the last row and the end of the replay
            scan_ptr, exp_ptr, n_scans = _scan_until(
                parts.until[part],
                part,
                every,
                scan_ptr,
                exp_ptr,
                m1,
                n_scans,
                scans,
                dl_order,
                msgs,
                depths,
            )
        _count_expired(exp_ptr, m1, parts.until[part], dl_order, msgs, counters)
        final[part, 0] = counters[DEPTH]
        final[part, 1] = counters[EXPIRED]
    return (
        reason,
        found,
        discarded,
        depth_out,
        expired_out,
        msgs.end_kind,
        msgs.end_row,
        msgs.end_ms,
        final,
        scans[:n_scans],
    )
