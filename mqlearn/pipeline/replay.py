"""Replay traces of MQI operations with the engine's expiry semantics (docs/pipeline.md).

``replay_local`` takes a whole trace (pandas), validates it, replays every (qmgr, queue) and
returns the five output tables; ``replay_partition`` replays the rows of one (qmgr, queue). Both
are the pandas edge of the Arrow replay (:class:`~mqlearn.pipeline.batches.BatchReplay`, the
trace as one piece): validation, then :mod:`encode` (whole-column work), then the compiled loop
of :mod:`kernel` over the partitions, then :mod:`tables`; the frames are converted once on the
way in and once on the way out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd
import pyarrow as pa

from mqlearn.pipeline.batches import BatchReplay
from mqlearn.pipeline.queues import QueueTable, queue_table
from mqlearn.pipeline.schema import (
    OUTPUT_COLUMNS,
    QUEUE_COLUMNS,
    SCHEMA_VERSION,
    TRACE_COLUMNS,
    ReconcileError,
    check_columns,
)
from mqlearn.pipeline.schema import TABLES as TABLES  # the output tables, where callers look
from mqlearn.pipeline.spark import arrow_to_pandas
from mqlearn.pipeline.tables import declared


@dataclass(frozen=True)
class Replay:
    """The outputs of a replay; every accepted row is one row of ``calls``."""

    messages: pd.DataFrame
    calls: pd.DataFrame
    depth: pd.DataFrame
    summary: pd.DataFrame
    rejects: pd.DataFrame

    @property
    def accepted(self) -> int:
        return len(self.calls)

    @property
    def rejected(self) -> int:
        return len(self.rejects)

    def reconcile(self, input_rows: int) -> None:
        """Raise :class:`ReconcileError` unless ``input_rows == accepted + rejected``."""
        if input_rows != self.accepted + self.rejected:
            raise ReconcileError(
                f"{input_rows} input rows but {self.accepted} accepted + {self.rejected} rejected"
                f" = {self.accepted + self.rejected}"
            )

    def tables(self) -> dict[str, pd.DataFrame]:
        """The five tables by name (as ``replay_partition`` returns them)."""
        return {name: getattr(self, name) for name in TABLES}


def trace_table(trace: pd.DataFrame) -> pa.Table:
    """A pandas trace as Arrow, its columns checked first (SchemaError)."""
    check_columns(trace, TRACE_COLUMNS, "trace")
    return pa.Table.from_pandas(trace[list(TRACE_COLUMNS)], preserve_index=False)


def _replay(
    trace: pd.DataFrame, table: QueueTable, end_ms: int | None, schema_version: int
) -> Replay:
    replay = BatchReplay(table, end_ms=end_ms, schema_version=schema_version)
    outputs = {**replay.replay(trace_table(trace)).tables(), "summary": replay.summary()}
    return Replay(
        **{
            name: arrow_to_pandas(declared(name, outputs[name]), OUTPUT_COLUMNS[name])
            for name in TABLES
        }
    )


def replay_local(
    trace: pd.DataFrame,
    queues: pd.DataFrame,
    *,
    end_ms: int | None = None,
    schema_version: int = SCHEMA_VERSION,
) -> Replay:
    """Validate and replay a whole trace in this process; the result is reconciled.

    ``trace`` has the columns of ``TRACE_COLUMNS`` (any row order), ``queues`` those of
    ``QUEUE_COLUMNS``. A missing or mistyped column raises SchemaError and a bad queue
    definition ValueError, before anything runs; a bad row goes to ``rejects`` with its reason.

    Each queue's replay ends at its own last row, or at ``end_ms`` (the end of the period the
    trace covers) when given: background scans due until then still discard (rule EXP-28).
    ``schema_version``: the trace schema the trace was written to; 1 rejects ARRIVE rows,
    naming the version they need.
    """
    result = _replay(trace, queue_table(queues), end_ms, schema_version)
    result.reconcile(len(trace))
    return result


def replay_partition(
    rows: pd.DataFrame, queue: Mapping[str, Any], *, end_ms: int | None = None
) -> dict[str, pd.DataFrame]:
    """Replay the rows of ONE (qmgr, queue) (already validated); returns the five tables.

    ``queue`` is that queue's definition (the keys of ``QUEUE_COLUMNS``); ``end_ms`` as for
    :func:`replay_local`. Rows that fail validation after all make this raise ValueError: a
    partition is replayed whole or not at all.
    """
    definition = pd.DataFrame([{name: queue[name] for name in QUEUE_COLUMNS}])
    table = queue_table(definition.astype(QUEUE_COLUMNS))
    result = _replay(rows, table, end_ms, SCHEMA_VERSION)
    if result.rejected:
        first = result.rejects.iloc[0]
        raise ValueError(
            f"replay_partition({table.qmgr[0]}/{table.queue[0]}): {result.rejected} row(s) fail "
            f"validation, e.g. seq {first['seq']}: {first['reason']}"
        )
    result.reconcile(len(rows))
    return result.tables()
