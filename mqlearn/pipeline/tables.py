"""The replay's output tables, built column by column from the kernel's arrays as Arrow tables.

Schemas: :data:`mqlearn.pipeline.schema.OUTPUT_COLUMNS` (docs/pipeline.md explains each column).
Numbers go to Arrow without a copy (numpy buffers wrapped); text drawn from a short list of
names (queue names, operations, outcomes: :data:`CODED`) is dictionary-encoded, its codes being
the positions the replay computed, and stays so in the Parquet files (a reader sees text).

Every value of a message comes from ``Encoded.columns`` (its MsgId and CorrelId text written
from their words, its reply names from their numbers), whether a row of this run put it or it
was still queued after the earlier pieces of the trace (:mod:`mqlearn.pipeline.batches`). Only
the queues whose trace is ``complete`` with this piece report their still-queued messages; on
the other queues they are carried on to the next piece (:meth:`Tables.waiting`). The
summary adds up over the pieces (:class:`Totals`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa

from mqlearn.engine.rule_formulas import is_expired, remaining_tenths
from mqlearn.mqi import cmqc as C
from mqlearn.pipeline import kernel as K
from mqlearn.pipeline.arrays import coded, nullable, numbers
from mqlearn.pipeline.encode import Encoded
from mqlearn.pipeline.ids import hex_text
from mqlearn.pipeline.order import merge_order
from mqlearn.pipeline.queues import QueueTable
from mqlearn.pipeline.schema import DISCARD_CAUSES, OPS, OPS_OF_VERSION, OUTCOMES, OUTPUT_COLUMNS
from mqlearn.pipeline.spark import arrow_schema

EXPIRATION_REPORTS = C.MQRO_EXPIRATION_WITH_FULL_DATA  # the Report sub-field RPT-01 looks at
_CAUSES = dict(zip((K.BY_GET, K.BY_BROWSE, K.BY_SCAN), DISCARD_CAUSES, strict=True))
DECLARED = {name: arrow_schema(columns) for name, columns in OUTPUT_COLUMNS.items()}
# The text columns built and written dictionary-encoded (see coded).
CODED = {
    "messages": ("qmgr", "queue", "outcome", "discard_cause"),
    "calls": ("qmgr", "queue", "op"),
    "depth": ("qmgr", "queue", "source"),
}
NAME = pa.dictionary(pa.int32(), pa.string())
NOT_NULL = ("int64", "int32", "bool")  # declared dtypes without nulls: required in Parquet


def _op_names(op: np.ndarray) -> list[str]:
    """The names ``calls.op`` is coded with: schema v1's ops unless a v2 op occurs, so the
    output files of a v1 trace are byte for byte what a v1 replay wrote."""
    v1 = OPS_OF_VERSION[1]
    return list(OPS if np.any(op >= len(v1)) else v1)


def _built(name: str, field: pa.Field) -> pa.Field:
    """A column as the replay builds and writes it: coded text dictionary-encoded, columns that
    are never null marked so (Parquet then stores no definition levels for them)."""
    if field.name in CODED.get(name, ()):
        field = field.with_type(NAME)
    return field.with_nullable(OUTPUT_COLUMNS[name][field.name] not in NOT_NULL)


SCHEMAS = {
    name: pa.schema([_built(name, field) for field in schema]) for name, schema in DECLARED.items()
}


def declared(name: str, table: pa.Table) -> pa.Table:
    """An output table in its declared schema (coded columns decoded to plain text)."""
    return table.cast(DECLARED[name])


def output_table(name: str, columns: dict[str, Any]) -> pa.Table:
    """A table in its declared column order and types (numpy arrays wrapped, not copied)."""
    schema = SCHEMAS[name]
    arrays = []
    for field in schema:
        values = columns[field.name]
        if isinstance(values, np.ndarray):
            arrays.append(numbers(values, field.type))
        else:
            arrays.append(values if values.type == field.type else values.cast(field.type))
    return pa.Table.from_arrays(arrays, schema=schema)


def _pick(values: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``values[index]`` (along the first axis) where ``index`` is not -1, any value where it
    is (``values`` may then be empty)."""
    if not len(values):
        return np.zeros((len(index), *values.shape[1:]), dtype=values.dtype)
    return values[np.maximum(index, 0)]


def _per_part(part: np.ndarray, n_parts: int, where: np.ndarray | None = None) -> np.ndarray:
    """How many entries of each partition (optionally only where ``where`` holds)."""
    selected = part if where is None else part[where]
    return np.bincount(selected, minlength=n_parts).astype(np.int64)


class Tables:
    """Builds the output tables of one kernel run (``result`` = kernel.replay_rows' return).

    ``complete`` tells, per partition of the run, whether its trace ends with these rows. The
    dictionaries of the coded qmgr and queue columns list the partitions' queues (in a piece of
    a trace: those with rows in it and those with messages queued across it).
    """

    def __init__(
        self,
        enc: Encoded,
        table: QueueTable,
        result: tuple[np.ndarray, ...],
        *,
        complete: np.ndarray | None = None,
    ) -> None:
        self.enc = enc
        (
            self.reason,
            self.found,
            self.discarded,
            self.depth_after,
            self.expired_after,
            self.end_kind,
            self.end_row,
            self.end_ms,
            self.final,
            self.scans,
        ) = result
        n_parts = len(enc.parts)
        self.complete = np.ones(n_parts, dtype=bool) if complete is None else complete
        discarded = (self.end_kind >= min(_CAUSES)) & (self.end_kind <= max(_CAUSES))
        self.reported = discarded & ((enc.columns["report"] & EXPIRATION_REPORTS) != 0)
        self.msg_part = np.repeat(np.arange(n_parts, dtype=np.int64), np.diff(enc.msg_lo))
        # per partition, the code of its qmgr and of its queue name among the distinct ones
        qmgrs, queues = np.unique(table.qmgr[enc.parts]), np.unique(table.queue[enc.parts])
        self.qmgr_code = np.searchsorted(qmgrs, table.qmgr[enc.parts])
        self.queue_code = np.searchsorted(queues, table.queue[enc.parts])
        self.qmgr_names, self.queue_names = qmgrs.tolist(), queues.tolist()

    def _text(self, name: str, pos: np.ndarray) -> pa.Array:
        """A text of the messages at ``pos`` (-1: null): msg_id and correl_id written from
        their words, reply_to_q and report_qmgr (ReplyToQMgr, a blank one meaning the message's
        own queue manager) from their numbers in the replay's names."""
        columns, missing = self.enc.columns, pos < 0
        if missing.all():
            return pa.nulls(len(pos), pa.string())
        at = np.where(missing, 0, pos)
        if name == "msg_id":
            return hex_text(columns["msg_words"], missing, at)
        if name == "correl_id":
            return hex_text(columns["correl_words"], missing | columns["correl_null"][at], at)
        return self.enc.names.text(np.where(missing, -1, columns[name][at]))

    def _place(self, part: np.ndarray) -> dict[str, Any]:
        """The qmgr and queue columns of rows of these partitions."""
        return {
            "qmgr": coded(self.qmgr_names, self.qmgr_code[part]),
            "queue": coded(self.queue_names, self.queue_code[part]),
        }

    def calls(self) -> pa.Table:
        enc, found, reason = self.enc, self.found, self.reason
        ok = found >= 0
        at = np.where(ok, found, len(enc.msg_row))  # one past the last message: "none"
        is_put = K.adds_message(enc.op)
        deadline = np.append(enc.deadline, K.NEVER)[at]
        expiry = np.where(is_put, enc.stored_expiry, remaining_tenths(deadline, enc.time))
        comp = np.where(
            reason == 0,
            C.MQCC_OK,
            np.where(reason == C.MQRC_PRIORITY_EXCEEDS_MAXIMUM, C.MQCC_WARNING, C.MQCC_FAILED),
        )
        by_call = self.reported & (self.end_row >= 0)
        reports = np.bincount(self.end_row[by_call], minlength=len(found))
        return output_table(
            "calls",
            {
                **self._place(enc.row_part),
                "seq": enc.seq,
                "time_ms": enc.time,
                "op": coded(_op_names(enc.op), enc.op),
                "handle": enc.handle,
                "comp": comp,
                "reason": reason,
                "msg_id": self._text("msg_id", found),
                "expiry": nullable(expiry, ~ok, pa.int32()),
                "discarded": self.discarded,
                "reports": reports,
            },
        )

    def _in_put_order(self, selected: np.ndarray) -> np.ndarray:
        """Positions of the selected messages (bool per message), by partition and put seq."""
        arrival = self.enc.arrival
        return arrival[selected[arrival]]

    def messages(self) -> pa.Table:
        """The messages this run reports, in put order: those that left the queue, and on
        complete partitions those still queued (refused puts made no message)."""
        enc, kind = self.enc, self.end_kind
        pos = self._in_put_order(
            (kind != K.REFUSED) & ((kind != K.QUEUED) | self.complete[self.msg_part])
        )
        part = self.msg_part[pos]
        kind = self.end_kind[pos]
        deadline = enc.deadline[pos]
        end_row, end_ms = self.end_row[pos], self.end_ms[pos]
        queued = kind == K.QUEUED
        expired = is_expired(deadline, enc.until[part])
        outcome = np.select(
            [kind == K.GOT, queued & ~expired, queued & expired],
            [OUTCOMES.index("got"), OUTCOMES.index("live"), OUTCOMES.index("expired")],
            default=OUTCOMES.index("discarded"),
        )
        cause = np.select([kind == k for k in _CAUSES], list(range(len(_CAUSES))), default=-1)
        reported = np.where(self.reported[pos], pos, -1)
        return output_table(
            "messages",
            {
                **self._place(part),
                "msg_id": self._text("msg_id", pos),
                "correl_id": self._text("correl_id", pos),
                **{
                    name: enc.columns[name][pos]
                    for name in ("put_ms", "priority", "lane", "expiry")
                },
                "put_seq": enc.msg_seq[pos],
                "deadline_ms": nullable(deadline, deadline == K.NEVER, pa.int64()),
                "outcome": coded(list(OUTCOMES), outcome),
                "end_seq": nullable(_pick(enc.seq, end_row), end_row < 0, pa.int64()),
                "end_ms": nullable(end_ms, queued, pa.int64()),
                "discard_cause": coded(list(DISCARD_CAUSES), cause),
                "got_expiry": nullable(
                    remaining_tenths(deadline, end_ms), kind != K.GOT, pa.int32()
                ),
                "report": reported >= 0,
                "report_qmgr": self._text("report_qmgr", reported),
                "report_q": self._text("reply_to_q", reported),
                "persistence": enc.columns["persistence"][pos],
                "data_length": enc.columns["data_length"][pos],
            },
        )

    def depth(self) -> pa.Table:
        """One row after every call, and one after every scan that discarded something."""
        enc, scans = self.enc, self.scans
        row_part, row_time = enc.row_part, enc.time
        n, k = len(row_part), len(scans)
        part = np.concatenate((row_part, scans[:, 0]))
        time = np.concatenate((row_time, scans[:, 1]))
        depth = np.concatenate((self.depth_after, scans[:, 2]))
        expired = np.concatenate((self.expired_after, scans[:, 3]))
        is_scan = np.arange(n + k) >= n
        seq = np.concatenate((enc.seq, np.zeros(k, dtype=np.int64)))
        if k:  # a scan at time t comes before the calls at time t
            order = merge_order(row_part, row_time, scans[:, 0], scans[:, 1])
            part, time, depth, expired, is_scan, seq = (
                a[order] for a in (part, time, depth, expired, is_scan, seq)
            )
        return output_table(
            "depth",
            {
                **self._place(part),
                "time_ms": time,
                "seq": nullable(seq, is_scan, pa.int64()),
                "source": coded(["call", "scan"], is_scan.astype(np.int64)),
                "depth": depth,
                "expired": expired,
                "live": depth - expired,
            },
        )

    def waiting(self) -> np.ndarray:
        """Per message, whether it is still queued on an incomplete partition: the next piece
        of the trace starts from it (:meth:`mqlearn.pipeline.carry_store.Store.keep`)."""
        waiting: np.ndarray = (self.end_kind == K.QUEUED) & ~self.complete[self.msg_part]
        return waiting

    def add_to(self, totals: Totals) -> None:
        """Add this run's counts to the per-queue summary totals."""
        enc, n_parts = self.enc, len(self.enc.parts)
        part, op, reason, found, time = enc.row_part, enc.op, self.reason, self.found, enc.time
        failed = (reason != 0) & (reason != C.MQRC_PRIORITY_EXCEEDS_MAXIMUM)
        is_browse = (op == K.OP_BROWSE_FIRST) | (op == K.OP_BROWSE_NEXT)
        counts = {
            "calls": _per_part(part, n_parts),
            "puts": _per_part(part, n_parts, K.adds_message(op) & ~failed),
            "put_failed": _per_part(part, n_parts, K.adds_message(op) & failed),
            "gets": _per_part(part, n_parts, (op == K.OP_GET) & (found >= 0)),
            "browses": _per_part(part, n_parts, is_browse & (found >= 0)),
            "no_msg": _per_part(part, n_parts, reason == C.MQRC_NO_MSG_AVAILABLE),
            **{
                f"discarded_{name}": _per_part(self.msg_part, n_parts, self.end_kind == kind)
                for kind, name in _CAUSES.items()
            },
            "reports": _per_part(self.msg_part, n_parts, self.reported),
        }
        calls = counts["calls"]
        has = calls > 0
        start = (np.cumsum(calls) - calls)[has]  # each partition's first call (they are grouped)
        max_depth = np.zeros(n_parts, dtype=np.int64)
        if len(start):
            max_depth[has] = np.maximum.reduceat(self.depth_after, start)
        totals.add(enc.parts, counts, max_depth)
        totals.span(enc.parts[has], time[start], time[start + calls[has] - 1])
        done = np.flatnonzero(self.complete)
        totals.close(enc.parts[done], self.final[done], enc.until[done])


class Totals:
    """The summary table, added up over the pieces of a trace (arrays per QueueTable position)."""

    COUNTS = (
        "calls",
        "puts",
        "put_failed",
        "gets",
        "browses",
        "no_msg",
        "discarded_get",
        "discarded_browse",
        "discarded_scan",
        "reports",
    )

    def __init__(self, table: QueueTable) -> None:
        self.table = table
        n = len(table)
        self.counts = {name: np.zeros(n, dtype=np.int64) for name in self.COUNTS}
        self.max_depth = np.zeros(n, dtype=np.int64)
        self.first_ms = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
        self.last_ms = np.full(n, -1, dtype=np.int64)
        self.final = np.zeros((n, 2), dtype=np.int64)  # depth, expired at the end
        self.end_ms = np.full(n, -1, dtype=np.int64)

    def add(self, parts: np.ndarray, counts: dict[str, np.ndarray], max_depth: np.ndarray) -> None:
        """Counts and the highest depth per partition of a run (``parts``: their positions)."""
        for name, values in counts.items():
            self.counts[name][parts] += values
        self.max_depth[parts] = np.maximum(self.max_depth[parts], max_depth)

    def span(self, parts: np.ndarray, first: np.ndarray, last: np.ndarray) -> None:
        """The times of the first and last calls of these queues in a run."""
        self.first_ms[parts] = np.minimum(self.first_ms[parts], first)
        self.last_ms[parts] = np.maximum(self.last_ms[parts], last)

    def close(self, parts: np.ndarray, final: np.ndarray, until: np.ndarray) -> None:
        """The end of these queues' replays: (depth, expired) then, and when."""
        self.final[parts] = final
        self.end_ms[parts] = until

    def table_of(self) -> pa.Table:
        """One row per queue with calls, in the order of the queue definitions."""
        used = np.flatnonzero(self.counts["calls"] > 0)
        t = self.table
        return output_table(
            "summary",
            {
                "qmgr": pa.array(t.qmgr[used].tolist(), pa.string()),
                "queue": pa.array(t.queue[used].tolist(), pa.string()),
                "profile": pa.array(t.profile[used].tolist(), pa.string()),
                "msgdlvsq": pa.array(t.msgdlvsq[used].tolist(), pa.string()),
                **{name: values[used] for name, values in self.counts.items()},
                "max_depth": self.max_depth[used],
                "final_depth": self.final[used, 0],
                "final_expired": self.final[used, 1],
                "first_ms": self.first_ms[used],
                "last_ms": self.last_ms[used],
                "end_ms": self.end_ms[used],
            },
        )
