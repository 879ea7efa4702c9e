"""The replay's output tables, built column by column from the kernel's arrays.

Schemas: :data:`mqlearn.pipeline.schema.OUTPUT_COLUMNS` (docs/pipeline.md explains each column).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from mqlearn.mqi import cmqc as C
from mqlearn.pipeline import kernel as K
from mqlearn.pipeline.encode import Encoded
from mqlearn.pipeline.order import merge_order
from mqlearn.pipeline.queues import QueueTable
from mqlearn.pipeline.schema import DISCARD_CAUSES, OPS, OUTCOMES, OUTPUT_COLUMNS
from mqlearn.pipeline.validate import Columns

EXPIRATION_REPORTS = C.MQRO_EXPIRATION_WITH_FULL_DATA  # the Report sub-field RPT-01 looks at
_CAUSES = dict(zip((K.BY_GET, K.BY_BROWSE, K.BY_SCAN), DISCARD_CAUSES, strict=True))


def _column(values: Any, dtype: str) -> Any:
    """A column of the declared dtype, without a copy when it already is one."""
    if isinstance(values, pd.api.extensions.ExtensionArray) and str(values.dtype) == dtype:
        return values
    if dtype in ("int64", "int32", "bool"):
        return np.asarray(values, dtype=dtype)
    return pd.array(values, dtype=dtype)


def _frame(name: str, columns: dict[str, Any]) -> pd.DataFrame:
    """A table in its declared column order and dtypes."""
    dtypes = OUTPUT_COLUMNS[name]
    return pd.DataFrame({c: _column(columns[c], dtypes[c]) for c in dtypes}, copy=False)


def _nullable(values: np.ndarray, null: np.ndarray, dtype: str) -> pd.api.extensions.ExtensionArray:
    """A nullable integer array ("Int64"/"Int32") from values and a null mask."""
    width = np.int64 if dtype == "Int64" else np.int32
    return pd.arrays.IntegerArray(np.where(null, 0, values).astype(width, copy=False), null.copy())


def _labels(names: list[str], codes: np.ndarray) -> pd.api.extensions.ExtensionArray:
    """Text from a short list of names by code (-1 = null)."""
    return pd.array(names, dtype="string").take(codes, allow_fill=True)


def _runs(names: list[str], part: np.ndarray) -> pd.api.extensions.ExtensionArray:
    """``names[part]`` for a sorted ``part``: each name repeated as one block of bytes (a take
    would look up every row)."""
    counts = np.bincount(part, minlength=len(names))
    encoded = [name.encode() for name in names]
    offsets = np.zeros(len(part) + 1, dtype=np.int64)
    np.cumsum(np.repeat([len(e) for e in encoded], counts), out=offsets[1:])
    data = b"".join(e * c for e, c in zip(encoded, counts.tolist(), strict=True))
    buffers = [None, pa.py_buffer(offsets), pa.py_buffer(data)]
    return pd.arrays.ArrowStringArray(pa.Array.from_buffers(pa.large_string(), len(part), buffers))


def remaining_tenths(deadline: np.ndarray, now: np.ndarray) -> np.ndarray:
    """Expiry as MQGET returns it: remaining tenths rounded up, -1 if unlimited (EXP-11, EXP-12)."""
    return np.where(deadline == K.NEVER, C.MQEI_UNLIMITED, (deadline - now + 99) // 100)


def _per_part(part: np.ndarray, n_parts: int, where: np.ndarray | None = None) -> np.ndarray:
    """How many entries of each partition (optionally only where ``where`` holds)."""
    selected = part if where is None else part[where]
    return np.bincount(selected, minlength=n_parts).astype(np.int64)


class Tables:
    """Builds the output tables of one kernel run (``result`` = kernel.replay_rows' return)."""

    def __init__(
        self, enc: Encoded, cols: Columns, table: QueueTable, result: tuple[np.ndarray, ...]
    ) -> None:
        self.enc, self.cols = enc, cols
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
        self.seq = cols.ints["seq"].values[enc.rows]
        report = cols.ints["report"].values[enc.rows][enc.msg_row]
        discarded = (self.end_kind >= min(_CAUSES)) & (self.end_kind <= max(_CAUSES))
        self.reported = discarded & ((report & EXPIRATION_REPORTS) != 0)
        self.qmgr_names = table.qmgr[enc.parts].tolist()
        self.queue_names = table.queue[enc.parts].tolist()
        self.profiles = table.profile[enc.parts].tolist()
        self.msgdlvsq = table.msgdlvsq[enc.parts].tolist()
        self.last_row = enc.row_lo[1:] - 1

    def _place(self, part: np.ndarray) -> dict[str, Any]:
        """The qmgr and queue columns of rows grouped by partition (every table's are)."""
        return {"qmgr": _runs(self.qmgr_names, part), "queue": _runs(self.queue_names, part)}

    def calls(self) -> pd.DataFrame:
        enc, found, reason = self.enc, self.found, self.reason
        ok = found >= 0
        at = np.where(ok, found, len(enc.msg_row))  # one past the last message: "none"
        is_put = enc.op == K.OP_PUT
        deadline = np.append(enc.deadline, K.NEVER)[at]
        expiry = np.where(is_put, enc.stored_expiry, remaining_tenths(deadline, enc.time))
        comp = np.where(
            reason == 0,
            C.MQCC_OK,
            np.where(reason == C.MQRC_PRIORITY_EXCEEDS_MAXIMUM, C.MQCC_WARNING, C.MQCC_FAILED),
        )
        by_call = self.reported & (self.end_row >= 0)
        put_rows = np.append(enc.rows[enc.msg_row], -1)[at]  # trace row of the message, or -1
        return _frame(
            "calls",
            {
                **self._place(enc.row_part),
                "seq": self.seq,
                "time_ms": enc.time,
                "op": _labels(list(OPS), enc.op),
                "handle": self.cols.ints["handle"].values[enc.rows],
                "comp": comp,
                "reason": reason,
                "msg_id": self.cols.ids["msg_id"].values(put_rows),
                "expiry": _nullable(expiry, ~ok, "Int32"),
                "discarded": self.discarded,
                "reports": np.bincount(self.end_row[by_call], minlength=len(found)),
            },
        )

    def messages(self) -> pd.DataFrame:
        enc, texts, ids = self.enc, self.cols.texts, self.cols.ids
        kept = np.flatnonzero(self.end_kind != K.REFUSED)
        pos = kept[np.argsort(enc.msg_row[kept], kind="stable")]
        row = enc.msg_row[pos]
        trace_row = enc.rows[row]
        part = enc.row_part[row]
        kind = self.end_kind[pos]
        deadline = enc.deadline[pos]
        end_row, end_ms = self.end_row[pos], self.end_ms[pos]
        queued = kind == K.QUEUED
        expired = deadline <= enc.until[part]
        outcome = np.select(
            [kind == K.GOT, queued & ~expired, queued & expired],
            [OUTCOMES.index("got"), OUTCOMES.index("live"), OUTCOMES.index("expired")],
            default=OUTCOMES.index("discarded"),
        )
        cause = np.select([kind == k for k in _CAUSES], list(range(len(_CAUSES))), default=-1)
        reported = self.reported[pos]
        reply_q, reply_qmgr = texts["reply_to_q"], texts["reply_to_qmgr"]
        qmgr_codes = reply_qmgr.codes[trace_row]
        blank_qmgr = reply_qmgr.blank(qmgr_codes)
        # reports go to ReplyToQ at ReplyToQMgr; a blank ReplyToQMgr means this queue manager
        report_qmgr = pd.Series(reply_qmgr.values(np.where(reported & ~blank_qmgr, qmgr_codes, -1)))
        report_qmgr = report_qmgr.mask(
            reported & blank_qmgr, pd.Series(_labels(self.qmgr_names, part))
        )
        return _frame(
            "messages",
            {
                **self._place(part),
                "msg_id": ids["msg_id"].values(trace_row),
                "correl_id": ids["correl_id"].values(trace_row),
                "put_seq": self.seq[row],
                "put_ms": enc.time[row],
                "priority": enc.priority[pos],
                "lane": enc.lane[pos],
                "expiry": enc.stored_expiry[row],
                "deadline_ms": _nullable(deadline, deadline == K.NEVER, "Int64"),
                "outcome": _labels(list(OUTCOMES), outcome),
                "end_seq": _nullable(self.seq[np.maximum(end_row, 0)], end_row < 0, "Int64"),
                "end_ms": _nullable(end_ms, queued, "Int64"),
                "discard_cause": _labels(list(DISCARD_CAUSES), cause),
                "got_expiry": _nullable(remaining_tenths(deadline, end_ms), kind != K.GOT, "Int32"),
                "report": reported,
                "report_qmgr": report_qmgr.array,
                "report_q": reply_q.values(np.where(reported, reply_q.codes[trace_row], -1)),
                "persistence": self.cols.ints["persistence"].values[trace_row],
                "data_length": self.cols.ints["data_length"].values[trace_row],
            },
        )

    def depth(self) -> pd.DataFrame:
        """One row after every call, and one after every scan that discarded something."""
        enc, scans = self.enc, self.scans
        n, k = len(enc.op), len(scans)
        part = np.concatenate((enc.row_part, scans[:, 0]))
        time = np.concatenate((enc.time, scans[:, 1]))
        depth = np.concatenate((self.depth_after, scans[:, 2]))
        expired = np.concatenate((self.expired_after, scans[:, 3]))
        is_scan = np.arange(n + k) >= n
        seq = np.concatenate((self.seq, np.zeros(k, dtype=np.int64)))
        if k:  # a scan at time t comes before the calls at time t
            order = merge_order(enc.row_part, enc.time, scans[:, 0], scans[:, 1])
            part, time, depth, expired, is_scan, seq = (
                a[order] for a in (part, time, depth, expired, is_scan, seq)
            )
        return _frame(
            "depth",
            {
                **self._place(part),
                "time_ms": time,
                "seq": _nullable(seq, is_scan, "Int64"),
                "source": _labels(["call", "scan"], is_scan.astype(np.int64)),
                "depth": depth,
                "expired": expired,
                "live": depth - expired,
            },
        )

    def summary(self) -> pd.DataFrame:
        enc, reason, found = self.enc, self.reason, self.found
        n_parts = len(enc.parts)
        part, op = enc.row_part, enc.op
        msg_part = enc.row_part[enc.msg_row]
        last = self.last_row
        failed = (reason != 0) & (reason != C.MQRC_PRIORITY_EXCEEDS_MAXIMUM)
        is_browse = (op == K.OP_BROWSE_FIRST) | (op == K.OP_BROWSE_NEXT)
        discards = {
            f"discarded_{name}": _per_part(msg_part, n_parts, self.end_kind == kind)
            for kind, name in _CAUSES.items()
        }
        return _frame(
            "summary",
            {
                "qmgr": self.qmgr_names,
                "queue": self.queue_names,
                "profile": self.profiles,
                "msgdlvsq": self.msgdlvsq,
                "calls": np.diff(enc.row_lo),
                "puts": _per_part(part, n_parts, (op == K.OP_PUT) & ~failed),
                "put_failed": _per_part(part, n_parts, (op == K.OP_PUT) & failed),
                "gets": _per_part(part, n_parts, (op == K.OP_GET) & (found >= 0)),
                "browses": _per_part(part, n_parts, is_browse & (found >= 0)),
                "no_msg": _per_part(part, n_parts, reason == C.MQRC_NO_MSG_AVAILABLE),
                **discards,
                "reports": _per_part(msg_part, n_parts, self.reported),
                "max_depth": np.maximum.reduceat(self.depth_after, enc.row_lo[:-1])
                if n_parts
                else np.zeros(0, dtype=np.int64),
                "final_depth": self.final[:, 0],
                "final_expired": self.final[:, 1],
                "first_ms": enc.time[enc.row_lo[:-1]],
                "last_ms": enc.time[last],
                "end_ms": enc.until,
            },
        )
