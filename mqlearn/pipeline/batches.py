"""Replay a trace piece by piece, each queue's state carried from one piece to the next.

``replay_local`` replays a whole trace as one piece; the streaming replay (:mod:`stream`) cuts a
trace too big for memory into pieces. Any cut works as long as, for every queue, its rows in one
piece all come after (in seq order) its rows in the pieces before: rows within a piece may come
in any order, and a piece may hold any mix of queues. Between pieces a queue keeps:

- its messages still queued, as the replay left them (:class:`~mqlearn.pipeline.carry_store.Store`:
  deadlines, lanes, identifiers, what the tables show of them), not as trace rows: the next
  piece replays the queue from those of them it can reach (a :class:`~mqlearn.pipeline.carry.
  Carried` set), present from its start, without validating, encoding or replaying them again,
  and counts the others in the queue's depth. No scan is due for them before that piece's rows
  (the scans up to the queue's latest time ran already: on a queue without rows there, nothing
  happens);
- each handle's browse cursor, as (lane, seq of the PUT) of the message it is on, which may
  have left the queue since: the next piece puts it back just after the carried messages of that
  lane that arrived up to it, which is where BROWSE_NEXT continues;
- its latest accepted time and seq (time going back is a reject; seq going back across pieces
  is a cut that breaks the rule above, and an error);
- its summary counts (:class:`~mqlearn.pipeline.tables.Totals`).

A queue whose trace is complete with a piece (its rows so far are all it has: ``rows_per_queue``)
reports its still-queued messages there and keeps nothing. Memory is therefore one piece plus
the store (a row of columns per message still queued at the cut); time, the piece's rows, the
stored messages it reaches (each column copied once into its arrays) and those it leaves queued
(each column copied once into the store), plus a pass over the store's order.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from mqlearn.pipeline import kernel as K
from mqlearn.pipeline.arrays import int_values
from mqlearn.pipeline.carry_store import Reach, Store
from mqlearn.pipeline.encode import Calls, Encoded, encode
from mqlearn.pipeline.kernel import replay_rows
from mqlearn.pipeline.queues import QueueTable
from mqlearn.pipeline.schema import SCHEMA_VERSION
from mqlearn.pipeline.tables import SCHEMAS, Tables, Totals
from mqlearn.pipeline.validate import (
    SEQ_BEFORE_ALL,
    Validated,
    canonical,
    queue_positions,
    validate,
)

PIECE_TABLES = ("messages", "calls", "depth", "rejects")


def queue_pieces(table: pa.Table, queues: QueueTable, rows: int) -> Iterator[pa.Table]:
    """``table`` in pieces of about ``rows`` rows for one :class:`BatchReplay` that knows every
    queue's row count (``rows_per_queue``): as it is when it is small enough, else sorted by
    (queue, seq) and cut, so that each queue's rows come in seq order across pieces. A cut
    never falls between two rows of the same queue and seq (a repeated seq value): the next
    piece would find its first row out of order."""
    if table.num_rows <= rows:
        yield table
        return
    seq, _ = int_values(table["seq"])
    part = queue_positions(table, queues)
    order = np.lexsort((seq, part))
    seq, part = seq[order], part[order]
    allowed = np.flatnonzero((seq[1:] != seq[:-1]) | (part[1:] != part[:-1])) + 1
    nominal = np.arange(rows, table.num_rows, rows)
    found = np.searchsorted(allowed, nominal)
    cuts = np.unique(np.append(allowed, table.num_rows)[found])
    table = table.take(pa.array(order))
    lo = 0
    for hi in [*cuts.tolist(), table.num_rows]:
        if hi > lo:
            yield table.slice(lo, hi - lo)
            lo = hi


@dataclass(frozen=True)
class Piece:
    """The output rows of one piece (the summary comes at the end: :meth:`BatchReplay.summary`).

    The messages, calls and depth tables are built when asked for (:meth:`table`), from the
    replay's arrays, which nothing changes after: the streaming replay builds them in its writer
    threads while the next piece is replayed.
    """

    built: Tables | None  # None when no row was accepted
    rejects: pa.Table
    input_rows: int
    accepted: int

    @property
    def rejected(self) -> int:
        return int(self.rejects.num_rows)

    def table(self, name: str) -> pa.Table:
        """One of :data:`PIECE_TABLES`, built now."""
        if name == "rejects":
            return self.rejects
        if self.built is None:
            return SCHEMAS[name].empty_table()
        return getattr(self.built, name)()

    def tables(self) -> dict[str, pa.Table]:
        return {name: self.table(name) for name in PIECE_TABLES}


@dataclass(frozen=True)
class Checked:
    """A piece validated, its calls numbered, and what its replay can reach of the stored
    messages (:meth:`BatchReplay.check`), ready to :meth:`BatchReplay.run`."""

    valid: Validated
    input_rows: int
    done: np.ndarray  # per QueueTable position: complete with this piece
    until: np.ndarray  # ... when its replay here ends
    closing: np.ndarray  # the positions complete first with this piece
    calls: Calls
    reach: Reach


class BatchReplay:
    """Replays consecutive pieces of one trace against one set of queue definitions.

    ``repeated``: the seq values that occur more than once in the whole trace, and
    ``rows_per_queue``: how many rows each queue (QueueTable position) has in it (defaults:
    found in each piece, and every queue complete with each piece: right when the trace is one
    piece). ``end_ms``: when the replay of every queue ends (default: at its last row).
    ``schema_version``: the trace schema the trace declares (rows it cannot hold are rejects).
    """

    def __init__(
        self,
        queues: QueueTable,
        *,
        end_ms: int | None = None,
        repeated: np.ndarray | None = None,
        rows_per_queue: np.ndarray | None = None,
        schema_version: int = SCHEMA_VERSION,
    ) -> None:
        self.queues = queues
        self.schema_version = schema_version
        self.end_ms = end_ms
        self.repeated = repeated
        self.rows_per_queue = rows_per_queue
        self.seen = np.zeros(len(queues), dtype=np.int64)
        self.latest = np.full(len(queues), -1, dtype=np.int64)
        self.last_seq = np.full(len(queues), SEQ_BEFORE_ALL, dtype=np.int64)
        self.store = Store(len(queues))
        self.closed = np.zeros(len(queues), dtype=bool)
        self.cursors: dict[tuple[int, int], tuple[int, int]] = {}  # (queue, handle): (lane, seq)
        self.totals = Totals(queues)

    def replay(self, rows: pa.Table) -> Piece:
        """Replay the next piece (any table with the trace columns, its schema checked)."""
        return self.run(self.check(rows))

    def check(self, rows: pa.Table) -> Checked:
        """The first half of :meth:`replay`: validate the next piece and number its calls.

        It needs only what the pieces before it were checked to be (each queue's latest time
        and seq, its rows seen so far), not their replay, so the streaming replay checks a
        piece in a thread of its own while the one before it replays; pieces are checked in
        their order, and each is then run once (:meth:`run`), in the same order."""
        table = canonical(rows)
        valid = validate(
            table,
            self.queues,
            repeated=self.repeated,
            latest=self.latest,
            version=self.schema_version,
        )
        self._check_order(valid)
        since, self.latest = self.latest, valid.latest
        done, until = self._close(valid)
        calls = Calls.of(valid, self.queues)
        closing = np.flatnonzero(done & ~self.closed)
        self.closed |= done
        return Checked(
            valid,
            rows.num_rows,
            done,
            until,
            closing,
            calls,
            Reach.of(valid, self.queues, done, since, until, calls),
        )

    def run(self, piece: Checked) -> Piece:
        """The second half of :meth:`replay`: replay a checked piece from the queues' state."""
        valid, done, until, calls = piece.valid, piece.done, piece.until, piece.calls
        # queues complete now are closed empty in the summary; the tables below correct those
        # this piece leaves messages on
        closing = piece.closing
        self.totals.close(closing, np.zeros((len(closing), 2), dtype=np.int64), until[closing])
        carried, cold = self.store.take(piece.reach, self.cursors)
        if not len(valid.rows) and not len(carried):
            return Piece(None, valid.rejects, piece.input_rows, accepted=0)
        enc = encode(valid, self.queues, until, carried, cold, calls)
        cursors = self._cursors_in(enc)
        before = cursors.copy()
        result = replay_rows(*enc.kernel_args(cursors))
        tables = Tables(enc, self.queues, result, complete=done[enc.parts])
        tables.add_to(self.totals)
        self._cursors_out(enc, before, cursors)
        for key in [key for key in self.cursors if done[key[0]]]:
            del self.cursors[key]
        self.store.keep(enc, tables.waiting())
        return Piece(tables, valid.rejects, piece.input_rows, accepted=len(valid.rows))

    def _close(self, valid: Validated) -> tuple[np.ndarray, np.ndarray]:
        """Which queues are complete with this piece, and when each queue's replay here ends
        (its latest time, or end_ms once complete)."""
        self.seen += valid.queue_rows
        done = np.ones(len(self.queues), dtype=bool)
        if self.rows_per_queue is not None:
            done = self.seen == self.rows_per_queue
        if len(valid.rows) and self.end_ms is not None and self.latest.max() > self.end_ms:
            raise ValueError(
                f"end_ms {self.end_ms} is before the last row's time_ms {self.latest.max()}"
            )
        until = self.latest.copy()
        if self.end_ms is not None:
            until[done] = self.end_ms
        return done, until

    def summary(self) -> pa.Table:
        """The summary table of everything replayed so far."""
        return self.totals.table_of()

    def _check_order(self, valid: Validated) -> None:
        """ValueError if a queue's accepted rows here do not all come after its earlier ones."""
        part, seq = valid.part, valid.columns.ints["seq"].values[valid.rows]
        if not len(part):
            return
        first = np.flatnonzero(np.diff(part, prepend=-1))
        behind = seq[first] <= self.last_seq[part[first]]
        if behind.any():
            at = self.queues.qmgr[part[first][behind][0]], self.queues.queue[part[first][behind][0]]
            raise ValueError(
                f"queue {at[0]}/{at[1]}: this piece of the trace has rows before (in seq order) "
                "rows of an earlier piece; every queue's rows must come in seq order across pieces"
            )
        last = np.append(first[1:], len(part)) - 1
        self.last_seq[part[last]] = seq[last]

    def _cursors_in(self, enc: Encoded) -> np.ndarray:
        """The kernel's cursors (one per handle code), with the carried ones put back."""
        cursors = np.full(enc.handles.count, -1, dtype=np.int64)
        if not self.cursors:
            return cursors
        keys = np.array(list(self.cursors), dtype=np.int64)
        marks = np.array(list(self.cursors.values()), dtype=np.int64)
        index = np.minimum(np.searchsorted(enc.parts, keys[:, 0]), len(enc.parts) - 1)
        here = enc.parts[index] == keys[:, 0]
        codes = np.where(here, enc.handles.codes_of(index, keys[:, 1]), -1)
        msg_seq = enc.msg_seq
        for code, part, (lane, seq) in zip(codes, index, marks, strict=True):
            if code < 0:
                continue
            block = part * K.LANES + K.LANES - 1 - lane
            lo, hi = enc.lane_start[block], enc.lane_start[block + 1]
            cursors[code] = lo + np.searchsorted(msg_seq[lo:hi], seq, "right") - 1
        return cursors

    def _cursors_out(self, enc: Encoded, before: np.ndarray, after: np.ndarray) -> None:
        """Keep the cursors the kernel moved, as (lane, seq): those that changed, and those of
        handles that browsed from the first message (the kernel set them, even if to the value
        they had)."""
        first = enc.op == K.OP_BROWSE_FIRST
        moved = np.union1d(np.flatnonzero(after != before), enc.handles.code[first])
        if not len(moved):
            return
        msg_seq = enc.msg_seq
        parts, handles = enc.handles.pairs(moved)
        for code, part, handle in zip(
            moved.tolist(), parts.tolist(), handles.tolist(), strict=True
        ):
            key = (int(enc.parts[part]), handle)
            q = after[code]
            if q < 0:
                self.cursors.pop(key, None)
            else:
                self.cursors[key] = (int(enc.lane[q]), int(msg_seq[q]))
