"""Accepted trace rows → the integer arrays the replay loop runs on (whole-column numpy work).

Everything that does not depend on the order of events is decided here, once per column: the
MQPUT checks that look only at the descriptor (in the engine's order, ``check_put_md``), the
priority a message is stored and ordered at (MD-02), CAPEXPRY (EXP-06), deadlines, the delivery
order of every message within its partition, and the MsgId/CorrelId indexes for matched gets.
What depends on the order of events (MAXDEPTH, lazy discards, cursors, scans) is left to
:mod:`mqlearn.pipeline.kernel`. The messages still queued from earlier pieces of the trace
(:class:`~mqlearn.pipeline.carry.Carried`) join the piece's own messages as they are, each of
their columns copied once (``Encoded.columns``, every value a table shows or the next piece
carries): only their identifiers are numbered again, where this piece's matching gets walk.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from mqlearn.engine import rule_formulas as R
from mqlearn.engine.mqi_checks import REPORTS_REQUESTED, check_report
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError
from mqlearn.pipeline import kernel as K
from mqlearn.pipeline.arrays import either, factorize
from mqlearn.pipeline.carry import COLUMNS, Carried, Cold, Names
from mqlearn.pipeline.ids import NULL, UNASKED, IdColumn
from mqlearn.pipeline.order import deadline_order, group_order, merge_by_deadline
from mqlearn.pipeline.queues import QueueTable
from mqlearn.pipeline.validate import TextColumn, Validated

Own = tuple[np.ndarray, np.ndarray]  # the piece's own messages: positions, and a value each

MAXPRTY = 9  # the queue manager's MAXPRTY (the engine's default; traces cannot change it)


@dataclass(frozen=True)
class Encoded:
    """Kernel inputs plus what the output tables need. Rows are the accepted rows, sorted;
    messages are the carried ones (``carried``) and those the rows put, in delivery order."""

    parts: np.ndarray  # QueueTable position of each partition (ascending)
    row_lo: np.ndarray  # rows of partition p: row_lo[p]:row_lo[p+1]
    msg_lo: np.ndarray  # messages (delivery order) of partition p: msg_lo[p]:msg_lo[p+1]
    lane_start: np.ndarray  # message blocks per (partition, lane): see kernel's docstring
    maxdepth: np.ndarray
    interval: np.ndarray
    until: np.ndarray  # when each partition's replay ends (scans run until then)
    rows: np.ndarray  # trace positions of the rows
    row_part: np.ndarray  # partition of each row
    op: np.ndarray
    time: np.ndarray
    seq: np.ndarray  # per row, as the trace gives it (msg_seq: per message)
    handle: np.ndarray  # per row, as the trace gives it
    handles: Handles  # the handle of each row, numbered per partition
    put_pos: np.ndarray  # message position of an accepted PUT row, else -1
    put_reason: np.ndarray  # reason of the descriptor checks (0, 2049 or a failure)
    stored_expiry: np.ndarray  # per row: the Expiry a PUT stores (after CAPEXPRY)
    match_kind: np.ndarray  # kernel.MATCH_*: which index a get or browse walks
    rlo: np.ndarray  # ... and the range of that index it walks
    rhi: np.ndarray
    rcorrel: np.ndarray  # the CorrelId number a get matching both identifiers checks
    names: Names  # the names the messages' reply_to_q and report_qmgr numbers stand for
    lane_carried: np.ndarray  # messages queued before the rows per (partition, lane) block
    expired_carried: np.ndarray  # per partition: those of them not handed and expired already
    msg_row: np.ndarray  # per message: its PUT row, -1 if carried (queued before the rows)
    carried_pos: np.ndarray  # the position of each message of the carried set, in its order
    arrival: np.ndarray  # message positions of each partition in arrival order
    columns: dict[str, np.ndarray]  # per message: Carried.COLUMNS (deadline in ms, NEVER)
    correl: np.ndarray  # CorrelId number (negative: none a get asks for)
    dl_order: np.ndarray  # messages by (partition, deadline, arrival) (kernel.MessageInputs)
    msg_index: np.ndarray  # messages by (partition, MsgId number, position)
    correl_index: np.ndarray  # messages by (partition, CorrelId number, position)

    @property
    def msg_seq(self) -> np.ndarray:
        return self.columns["seq"]

    @property
    def deadline(self) -> np.ndarray:
        return self.columns["deadline"]

    @property
    def lane(self) -> np.ndarray:
        return self.columns["lane"]

    def kernel_args(
        self, cursors: np.ndarray
    ) -> tuple[K.Partitions, K.Rows, K.MessageInputs, np.ndarray]:
        """The arguments of kernel.replay_rows (``cursors``: one per handle code)."""
        return (
            K.Partitions(
                self.row_lo,
                self.msg_lo,
                self.lane_start,
                self.maxdepth,
                self.interval,
                self.until,
                self.lane_carried,
                self.expired_carried,
            ),
            K.Rows(
                self.op,
                self.time,
                self.handles.code,
                self.put_pos,
                self.put_reason,
                self.match_kind,
                self.rlo,
                self.rhi,
                self.rcorrel,
            ),
            K.MessageInputs(
                self.deadline,
                self.lane,
                self.correl,
                self.columns["put_ms"],
                self.dl_order,
                self.msg_index,
                self.correl_index,
                np.where(self.msg_row < 0, K.PRESENT, K.FUTURE).astype(np.int8),
            ),
            cursors,
        )


def _report_reasons(report: np.ndarray) -> np.ndarray:
    """MQRC_REPORT_OPTIONS_ERROR (2061) where the engine's check_report refuses the value, else 0."""
    inverse, distinct = factorize(report)
    reasons = np.zeros(len(distinct), dtype=np.int64)
    for k, value in enumerate(distinct.tolist()):
        try:
            check_report(value)
        except MQMIError as error:
            reasons[k] = error.reason
    return reasons[inverse]


def put_reasons(
    report: np.ndarray,
    expiry: np.ndarray,
    priority: np.ndarray,
    persistence: np.ndarray,
    reply_blank: np.ndarray,
    arrival: np.ndarray | bool = False,
) -> np.ndarray:
    """The reason an MQPUT fails with before it looks at the queue, in check_put_md's order.

    An ``arrival`` (an ARRIVE row: the queue manager puts a message that lived elsewhere) may
    carry Expiry 0, the time it has left when it arrived already expired (rule EXP-10)."""
    reason = np.where(
        reply_blank & ((report & REPORTS_REQUESTED) != 0), C.MQRC_MISSING_REPLY_TO_Q, 0
    )
    # MQPER_NOT_PERSISTENT (0), MQPER_PERSISTENT (1), MQPER_PERSISTENCE_AS_Q_DEF (2)
    known = (persistence >= C.MQPER_NOT_PERSISTENT) & (persistence <= C.MQPER_PERSISTENCE_AS_Q_DEF)
    reason = np.where(known, reason, C.MQRC_PERSISTENCE_ERROR)
    reason = np.where(priority < C.MQPRI_PRIORITY_AS_Q_DEF, C.MQRC_PRIORITY_ERROR, reason)
    bad_expiry = ((expiry == 0) & ~np.asarray(arrival)) | (expiry < C.MQEI_UNLIMITED)
    reason = np.where(bad_expiry, C.MQRC_EXPIRY_ERROR, reason)
    report_reason = _report_reasons(report)
    return np.where(report_reason != 0, report_reason, reason).astype(np.int64, copy=False)


def _id_codes(column: IdColumn, valid: Validated) -> np.ndarray:
    """Numbers of asked-for identifiers (MQMI_NONE / MQCI_NONE count as none: -1)."""
    codes = valid.sorted(column.codes)
    return np.where(valid.sorted(column.zero), -1, codes) if column.asked else codes


def _message_codes(
    column: IdColumn, name: str, columns: dict[str, np.ndarray], carried: np.ndarray, own: Own
) -> np.ndarray:
    """:func:`_id_codes` per message of the identifiers ``name`` ("msg" or "correl"): the
    carried ones at message positions ``carried`` looked up by their words (the other carried
    ones: UNASKED, as no get matches them here), the piece's own (``own``: their positions and
    the codes of their rows) as their rows were numbered."""
    null = columns["correl_null"][carried] if name == "correl" else np.zeros(len(carried), bool)
    codes = np.full(len(columns["part"]), UNASKED, dtype=np.int64)
    codes[own[0]] = own[1]
    codes[carried] = column.codes_of(columns[f"{name}_words"], carried, null, bool(column.asked))
    return codes


def _numbers(column: TextColumn, codes: np.ndarray, names: Names) -> np.ndarray:
    """The numbers in ``names`` of a name column's values (codes into its uniques; -1: null)."""
    return np.append(names.numbers_of(column.uniques), -1)[codes]


def _marked(n: int, marked: np.ndarray) -> np.ndarray:
    """``n`` booleans, true at the positions ``marked``."""
    flags = np.zeros(n, dtype=bool)
    flags[marked] = True
    return flags


def _starts(counts: np.ndarray) -> np.ndarray:
    """Where each group of consecutive entries starts, given the groups' sizes, then the end."""
    return np.concatenate(([0], np.cumsum(counts))).astype(np.int64, copy=False)


def _ranks(groups: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Per entry of ``groups`` (non-decreasing group numbers), its rank within its group."""
    return np.arange(len(groups), dtype=np.int64) - starts[groups]


def _index(
    part: np.ndarray, codes: np.ndarray, width: int, wanted: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The messages carrying an asked-for identifier, sorted by (partition, identifier, position),
    and for each row key in ``wanted`` its range in that list."""
    has = np.flatnonzero(codes >= 0)
    keys = part[has] * width + codes[has]
    order = np.lexsort((has, keys))
    keys = keys[order]
    lo = np.searchsorted(keys, wanted, "left")
    hi = np.searchsorted(keys, wanted, "right")
    return has[order].astype(np.int64, copy=False), lo, hi


@dataclass(frozen=True)
class Handles:
    """A number per (partition, handle) of the gets and browses (they own the browse cursors).

    A row's key is ``partition * span + handle - low``; when the keys are few enough they are
    the numbers, else they are renumbered (``distinct`` lists the key of each number).
    """

    code: np.ndarray  # per row (puts: 0, unused)
    count: int
    low: int
    span: int
    distinct: np.ndarray | None

    def codes_of(self, part: np.ndarray, handle: np.ndarray) -> np.ndarray:
        """The numbers of (partition, handle) pairs; -1 for a pair no get or browse uses."""
        inside = (handle >= self.low) & (handle < self.low + self.span)
        keys = np.where(inside, part * self.span + handle - self.low, -1)
        if self.distinct is None:
            found = inside & (keys < self.count)
            return np.where(found, keys, -1)
        order = np.argsort(self.distinct)
        at = np.minimum(np.searchsorted(self.distinct, keys, sorter=order), len(order) - 1)
        found = inside & (self.distinct[order[at]] == keys)
        return np.where(found, order[at], -1)

    def pairs(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The (partition, handle) of each number."""
        keys = codes if self.distinct is None else self.distinct[codes]
        return keys // self.span, keys % self.span + self.low


def _handles(row_part: np.ndarray, handle: np.ndarray, is_put: np.ndarray) -> Handles:
    low = int(handle.min()) if len(handle) else 0
    span = int(handle.max()) - low + 1 if len(handle) else 1
    keys = np.where(is_put, 0, row_part * span + (handle - low))
    n_keys = (int(row_part[-1]) + 1 if len(row_part) else 0) * span
    if n_keys <= 4 * len(handle) + 1024:  # small enough to number directly
        return Handles(keys, n_keys, low, span, None)
    codes, distinct = factorize(keys)
    return Handles(codes, len(distinct), low, span, distinct)


@dataclass(frozen=True)
class Calls:
    """What each accepted row of a piece is, whatever was queued before it (per row, in replay
    order): its integer columns, op and time, and for a put the reason of the descriptor
    checks, the priority, Expiry and deadline it stores, its lane, and whether it is accepted
    (it makes a message, unless the queue is full when it comes)."""

    ints: dict[str, np.ndarray]
    op: np.ndarray
    time: np.ndarray
    is_put: np.ndarray
    reason: np.ndarray
    priority: np.ndarray
    stored_expiry: np.ndarray
    deadline: np.ndarray
    lane: np.ndarray
    accepted: np.ndarray  # the rows that make a message

    @classmethod
    def of(cls, valid: Validated, table: QueueTable) -> Calls:
        cols, qpos = valid.columns, valid.part
        ints = valid.sorted_ints()
        op = valid.sorted(cols.op)
        time = ints["time_ms"]
        is_put = K.adds_message(op)
        reply_blank = cols.texts["reply_to_q"].blank(valid.sorted(cols.texts["reply_to_q"].codes))
        reason = np.where(
            is_put,
            put_reasons(
                ints["report"],
                ints["expiry"],
                ints["priority"],
                ints["persistence"],
                reply_blank,
                arrival=op == K.OP_ARRIVE,
            ),
            0,
        )
        defprty = table.defprty[qpos]
        priority = R.put_priority(ints["priority"], defprty)
        too_high = R.exceeds_maxprty(priority, MAXPRTY)
        reason = np.where(
            is_put & (reason == 0) & too_high, C.MQRC_PRIORITY_EXCEEDS_MAXIMUM, reason
        )
        stored_expiry = R.capped_expiry(ints["expiry"], table.capexpry[qpos])
        accepted = np.flatnonzero(
            is_put & ((reason == 0) | (reason == C.MQRC_PRIORITY_EXCEEDS_MAXIMUM))
        )
        return cls(
            ints,
            op,
            time,
            is_put,
            reason,
            priority,
            stored_expiry,
            R.deadline_of(stored_expiry, time),
            R.lane(priority, MAXPRTY, table.fifo[qpos], defprty),
            accepted,
        )


def encode(
    valid: Validated,
    table: QueueTable,
    until: np.ndarray,
    carried: Carried,
    cold: Cold,
    calls: Calls,
) -> Encoded:
    """Build the kernel's inputs from validated rows and the messages ``carried`` over from
    earlier pieces (at least one row or carried message).

    ``until`` (per QueueTable position) is when each queue's replay ends, at or after its last
    row: scans due until then run. The partitions are the queues of the rows and of the carried
    messages. ``cold``: the messages queued before the rows that the replay cannot reach and so
    is not handed (:mod:`mqlearn.pipeline.carry_store`); they count in the depth of their lanes, and
    those expired already in the expired count, and nothing else. ``calls``: the rows'
    :class:`Calls`.
    """
    cols, rows, qpos = valid.columns, valid.rows, valid.part
    ints, op, time, is_put, reason = calls.ints, calls.op, calls.time, calls.is_put, calls.reason
    priority, stored_expiry, deadline, lane = (
        calls.priority,
        calls.stored_expiry,
        calls.deadline,
        calls.lane,
    )
    present = np.zeros(len(table), dtype=bool)
    present[qpos] = True
    carried_part = carried.part
    present[carried_part] = True
    parts = np.flatnonzero(present).astype(np.int64, copy=False)
    n_parts = len(parts)
    row_lo = np.append(np.searchsorted(qpos, parts), len(rows)).astype(np.int64, copy=False)
    row_part = np.repeat(np.arange(n_parts, dtype=np.int64), np.diff(row_lo))

    # messages: the carried ones, then the accepted PUT rows, in delivery order within their
    # partition (in each lane the carried ones first, as they arrived first). The carried come
    # in delivery order already (Carried), so they are placed by arithmetic on the lane counts;
    # only the piece's own are sorted, by lane (a stable counting sort: arrival order stays).
    accepted = calls.accepted
    n_carried, n_own = len(carried), len(accepted)
    n_blocks = n_parts * K.LANES
    partition_of = np.zeros(len(table), dtype=np.int64)  # QueueTable position -> partition
    partition_of[parts] = np.arange(n_parts)
    carried_part = partition_of[carried_part]
    carried_lane = carried.column("lane")
    carried_block = carried_part * K.LANES + (K.LANES - 1 - carried_lane)
    own_part = row_part[accepted]
    own_block = own_part * K.LANES + (K.LANES - 1 - lane[accepted])
    carried_counts = np.bincount(carried_block, minlength=n_blocks)
    lane_start = _starts(carried_counts + np.bincount(own_block, minlength=n_blocks))
    carried_pos = lane_start[carried_block] + _ranks(carried_block, _starts(carried_counts))
    by_lane = group_order(own_block, n_blocks)
    own_pos = np.empty(n_own, dtype=np.int64)  # per accepted row
    sorted_block = own_block[by_lane]
    own_pos[by_lane] = (
        lane_start[sorted_block]
        + carried_counts[sorted_block]
        + _ranks(sorted_block, _starts(np.bincount(own_block, minlength=n_blocks)))
    )
    n_msgs = n_carried + n_own
    put_pos = np.full(len(rows), -1, dtype=np.int64)
    put_pos[accepted] = own_pos
    msg_row = np.full(n_msgs, -1, dtype=np.int64)  # per message: its PUT row, -1 if carried
    msg_row[own_pos] = accepted
    trace_row = np.full(n_msgs, -1, dtype=np.int64)  # ... and its position in the trace
    trace_row[own_pos] = rows[accepted]
    carried_at = np.full(n_msgs, -1, dtype=np.int64)  # ... or its place in carried.columns
    carried_at[carried_pos] = carried.at

    def per_message(name: str, of_rows: np.ndarray, row: np.ndarray = msg_row) -> np.ndarray:
        """Column ``name`` of Carried.COLUMNS per message: the carried ones' values, the
        others' from ``of_rows`` (per row, or per trace position with ``trace_row``)."""
        dtype = COLUMNS[name][0]
        return either(carried_at, carried.columns[name], row, of_rows.astype(dtype, copy=False))

    msg_lo = lane_start[:: K.LANES]
    msg_part = np.repeat(np.arange(n_parts, dtype=np.int64), np.diff(msg_lo))
    msg_deadline = per_message("deadline", deadline)
    # each partition's messages by arrival, and by deadline: the carried ones come in those
    # orders already (Carried.by_arrival, by_deadline), the piece's own follow them (by
    # arrival) or are sorted and merged with them (by deadline)
    carried_bounds = _starts(np.bincount(carried_part, minlength=n_parts))
    own_bounds = msg_lo - carried_bounds
    arrival = np.empty(n_msgs, dtype=np.int64)
    from_carried = np.arange(n_carried) + np.repeat(own_bounds[:-1], np.diff(carried_bounds))
    arrival[from_carried] = carried_pos[carried.by_arrival]
    own_lo = _starts(np.bincount(own_part, minlength=n_parts))
    arrival[np.arange(n_own) + np.repeat(carried_bounds[1:], np.diff(own_lo))] = own_pos
    carried_dl = carried_pos[carried.by_deadline]
    own_dl = deadline_order(own_bounds, own_pos, msg_deadline, R.NEVER)
    dl_order = merge_by_deadline(carried_bounds, carried_dl, own_bounds, own_dl, msg_deadline)

    # the values the tables show of a message, and what the next piece carries (Carried)
    names = carried.names
    reply_q = cols.texts["reply_to_q"]
    reply_qmgr = cols.texts["reply_to_qmgr"]
    reply_qmgr_codes = valid.sorted(reply_qmgr.codes)
    own_qmgr = names.numbers_of(pa.array(table.qmgr[parts].tolist(), pa.string()))
    columns = {
        "part": parts[msg_part],
        "seq": per_message("seq", ints["seq"]),
        "put_ms": per_message("put_ms", time),
        "priority": per_message("priority", priority),
        "lane": per_message("lane", lane),
        "expiry": per_message("expiry", stored_expiry),
        "deadline": msg_deadline,
        "report": per_message("report", ints["report"]),
        "persistence": per_message("persistence", ints["persistence"]),
        "data_length": per_message("data_length", ints["data_length"]),
        "msg_words": per_message("msg_words", cols.ids["msg_id"].words, trace_row),
        "correl_words": per_message("correl_words", cols.ids["correl_id"].words, trace_row),
        "correl_null": per_message("correl_null", cols.ids["correl_id"].codes == NULL, trace_row),
        "reply_to_q": per_message("reply_to_q", _numbers(reply_q, reply_q.codes, names), trace_row),
        # an expiration report goes to ReplyToQMgr, a blank one meaning the message's own
        "report_qmgr": per_message(
            "report_qmgr",
            np.where(
                reply_qmgr.blank(reply_qmgr_codes),
                own_qmgr[row_part],
                _numbers(reply_qmgr, reply_qmgr_codes, names),
            ),
        ),
    }

    # MsgId / CorrelId indexes and the range each matching get walks
    match = ints["match_options"]
    msg_code = _id_codes(cols.ids["msg_id"], valid)
    correl_code = _id_codes(cols.ids["correl_id"], valid)
    use_msg = ~is_put & ((match & C.MQMO_MATCH_MSG_ID) != 0) & (msg_code >= 0)
    use_correl = ~is_put & ((match & C.MQMO_MATCH_CORREL_ID) != 0) & (correl_code >= 0)
    message_code = {
        name: _message_codes(
            cols.ids[name],
            prefix,
            columns,
            # only the carried messages of queues a matching get walks here need a number
            carried_pos[_marked(n_parts, row_part[use])[carried_part]],
            (own_pos, code[accepted]),
        )
        for name, prefix, code, use in (
            ("msg_id", "msg", msg_code, use_msg),
            ("correl_id", "correl", correl_code, use_correl),
        )
    }
    match_kind = np.where(use_msg, K.MATCH_MSG, 0) + np.where(use_correl, K.MATCH_CORREL, 0)
    rlo = np.zeros(len(rows), dtype=np.int64)
    rhi = np.zeros(len(rows), dtype=np.int64)
    indexes = {}
    # CorrelId first: a row matching both walks the MsgId range (and checks the CorrelId)
    for name, code, use in (("correl_id", correl_code, use_correl), ("msg_id", msg_code, use_msg)):
        width = cols.ids[name].asked + 1
        wanted = np.flatnonzero(use)
        keys = row_part[wanted] * width + code[wanted]
        indexes[name], rlo[wanted], rhi[wanted] = _index(msg_part, message_code[name], width, keys)

    handles = _handles(row_part, ints["handle"], is_put)
    return Encoded(
        parts=parts,
        row_lo=row_lo,
        msg_lo=msg_lo.astype(np.int64, copy=False),
        lane_start=lane_start,
        maxdepth=table.maxdepth[parts],
        interval=table.interval_ms[parts],
        until=until[parts],
        rows=rows,
        row_part=row_part,
        op=op,
        time=time,
        seq=ints["seq"],
        handle=ints["handle"],
        handles=handles,
        put_pos=put_pos,
        put_reason=reason.astype(np.int64, copy=False),
        stored_expiry=stored_expiry,
        match_kind=match_kind.astype(np.int64, copy=False),
        rlo=rlo,
        rhi=rhi,
        rcorrel=correl_code,
        names=names,
        lane_carried=(carried_counts + cold.lanes.reshape(-1, K.LANES)[parts].ravel()).astype(
            np.int64, copy=False
        ),
        expired_carried=cold.expired[parts],
        msg_row=msg_row,
        carried_pos=carried_pos,
        arrival=arrival,
        columns=columns,
        correl=message_code["correl_id"],
        dl_order=dl_order,
        msg_index=indexes["msg_id"],
        correl_index=indexes["correl_id"],
    )
