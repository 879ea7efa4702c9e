"""Replay a trace from files to files in one process, in memory that does not grow with the trace.

``replay_files(trace, queues, out)`` reads Parquet or CSV with pyarrow and writes the five tables
as ``replay_spark`` does (``out/<table>/part-00000.parquet``, staged, then ``out/_SUCCESS``). The
tables hold the rows ``replay_local`` gives for the same trace (in another row order: each
table comes piece by piece). It takes three steps:

1. **Index**: one pass over three columns (qmgr, queue, seq) counts each queue's rows, tells
   whether every queue's rows come in seq order through the files, and finds the seq values that
   repeat anywhere in the trace (such rows are rejects wherever they are). While the seq values
   rise through the files (a trace recorded in time order) none can repeat and none is kept;
   from the first that does not, the values (those before it read again) are held up to
   REPEAT_LIMIT, then hash-partitioned into spill files checked one at a time.
2. **Pieces**: the trace is cut into pieces of about ``batch_rows`` rows. When every queue's
   rows come in seq order (as traces are recorded and as the generator writes them), the pieces
   are the record batches in file order, as they are read (no copy). Otherwise a regrouping
   pass first writes the rows to spill files (Arrow IPC) holding whole queues, about
   ``batch_rows`` rows each, and those are the pieces; a queue bigger than a piece is read
   whole, sorted by seq and cut.
3. **Replay**: :class:`~mqlearn.pipeline.batches.BatchReplay` replays the pieces one after the
   other, carrying each queue's still-queued messages, cursors and counts over the cuts; a queue
   whose rows have all been read is closed there (the index counted them) and forgotten. Three
   pieces are at work at once: a thread reads and checks the next piece (validation and the
   per-row facts need only the checks of the pieces before it: ``BatchReplay.check``) while
   this one replays (``BatchReplay.run``), and writer threads (one per table) build the tables
   of the one before from its replayed arrays and append them to the Parquet outputs (the
   compiled code, numpy and pyarrow release the GIL, so the two cores share the work).

Peak memory is therefore about three pieces (one checked, one replayed, the one before being
built and written) and their output tables, plus the messages still queued at a cut; with
regrouping, plus the largest queue's rows.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np
import pyarrow as pa

from mqlearn.pipeline.arrays import compiled, int_values
from mqlearn.pipeline.batches import PIECE_TABLES, BatchReplay, Piece, queue_pieces
from mqlearn.pipeline.files import (
    PartWriter,
    Source,
    TraceError,
    batches,
    local_directory,
    open_source,
    read_definitions,
    staged,
)
from mqlearn.pipeline.order import by_bucket, group_order, repeated_values
from mqlearn.pipeline.progress_bar import Progress, reporter
from mqlearn.pipeline.queues import QueueTable, queue_table
from mqlearn.pipeline.schema import (
    QUEUE_COLUMNS,
    SCHEMA_VERSION,
    TABLES,
    TRACE_COLUMNS,
    ReconcileError,
)
from mqlearn.pipeline.validate import NAME_COLUMNS, SEQ_BEFORE_ALL, queue_positions

T = TypeVar("T")
R = TypeVar("R")

BATCH_ROWS = 250_000  # rows per piece: about 1 GiB at most in all (docs/pipeline.md)
READ_ROWS = 131_072  # rows per record batch read from the files when regrouping
INDEX_ROWS = 1_048_576  # the same for the index pass, which reads three narrow columns
REPEAT_LIMIT = 8_000_000  # seq values held in memory before they go to spill files
REPEAT_BUCKETS = 64


@dataclass(frozen=True)
class StreamReplay:
    """What ``replay_files`` wrote: the output directory, the counts, rows per table, how many
    pieces, and whether the rows had to be regrouped by queue first."""

    out: Path
    input_rows: int
    accepted: int
    rejected: int
    rows: dict[str, int]
    pieces: int
    regrouped: bool


@dataclass(frozen=True)
class TraceIndex:
    """What the index pass found: rows, rows per QueueTable position (rows with a null or
    undefined queue are not counted), seq order, and the seq values that repeat."""

    rows: int
    per_queue: np.ndarray
    in_order: bool
    repeated: np.ndarray


class RepeatedSeq:
    """Finds the seq values that occur more than once in a trace read in batches: values are
    held up to REPEAT_LIMIT, then spread by hash over REPEAT_BUCKETS files in ``spill``, each
    checked alone at the end (a repeated value always lands in one bucket). Spilling runs in a
    thread of its own while the pass reads on, and the buckets are checked on every core at once
    (the sort releases the GIL)."""

    def __init__(self, spill: Path) -> None:
        self.spill = spill
        self.held: list[np.ndarray] = []
        self.count = 0
        self.writer = ThreadPoolExecutor(1)
        self.spilled: list[Future[None]] = []

    def add(self, values: np.ndarray) -> None:
        self.held.append(values)
        self.count += len(values)
        if self.count > REPEAT_LIMIT:
            self._spill()

    def _spill(self) -> None:
        self.spilled.append(self.writer.submit(self._write, self.held))
        self.held, self.count = [], 0

    def _write(self, held: list[np.ndarray]) -> None:
        values = np.concatenate(held) if held else np.empty(0, dtype=np.int64)
        grouped, starts = by_bucket(values, REPEAT_BUCKETS)
        self.spill.mkdir(parents=True, exist_ok=True)
        for b in range(REPEAT_BUCKETS):
            with open(self.spill / f"seq-{b:02d}.int64", "ab") as file:
                grouped[starts[b] : starts[b + 1]].tofile(file)

    def _bucket(self, b: int) -> np.ndarray:
        return repeated_values(np.fromfile(self.spill / f"seq-{b:02d}.int64", dtype=np.int64))

    def values(self) -> np.ndarray:
        """The repeated values, sorted."""
        if not self.spilled:
            return repeated_values(np.concatenate(self.held) if self.held else np.empty(0))
        self._spill()
        for done in self.spilled:
            done.result()
        with ThreadPoolExecutor(os.cpu_count()) as pool:
            found = list(pool.map(self._bucket, range(REPEAT_BUCKETS)))
        return np.sort(np.concatenate(found))

    def close(self) -> None:
        """Stop the spilling thread (after :meth:`values`, or when the pass fails)."""
        self.writer.shutdown()


@compiled
def _tally(part, seq, null, per_queue, last, in_order, rising, top):  # pragma: no cover (jit)
    """One batch of the index pass in one loop: count each queue's rows (``part``: QueueTable
    positions, -1 for none) into ``per_queue``; while ``in_order``, check that each queue's seq
    values increase after ``last`` (updated); while the trace's seq values are ``rising``
    (``top``: the latest), check that they still do (null values left out). Returns whether
    the rows are still in order, whether the values still rise, and the latest."""
    for i in range(len(part)):
        p = part[i]
        if p >= 0:
            per_queue[p] += 1
        if null[i]:
            continue
        if rising:
            rising = seq[i] > top
            top = seq[i]
        if p >= 0 and in_order:
            if seq[i] <= last[p]:
                in_order = False
            else:
                last[p] = seq[i]
    return in_order, rising, top


def _seq_values(source: Source, rows: int) -> Iterator[np.ndarray]:
    """The seq values (nulls left out) of the first ``rows`` rows of a source, read again."""
    for batch in batches(source, ["seq"], INDEX_ROWS):
        seq, null = int_values(batch["seq"][:rows])
        yield seq[~null]
        rows -= len(seq)
        if rows <= 0:
            return


def index_trace(source: Source, queues: QueueTable, spill: Path, progress: Progress) -> TraceIndex:
    """The index pass (step 1 of the module docstring)."""
    per_queue = np.zeros(len(queues), dtype=np.int64)
    last = np.full(len(queues), SEQ_BEFORE_ALL, dtype=np.int64)
    in_order = True
    rising, top = True, SEQ_BEFORE_ALL  # whether the seq values rise, and the latest
    rows = 0
    repeats = RepeatedSeq(spill)
    progress.start("index", None if source.is_csv else source.dataset.count_rows())
    try:
        for batch in batches(source, ["qmgr", "queue", "seq"], INDEX_ROWS):
            seq, null = int_values(batch["seq"])
            part = queue_positions(batch, queues)
            was_rising = rising
            in_order, rising, top = _tally(part, seq, null, per_queue, last, in_order, rising, top)
            if was_rising and not rising and rows:  # the values before, kept from now on
                for values in _seq_values(source, rows):
                    repeats.add(values)
            if not rising:
                repeats.add(seq[~null])
            rows += batch.num_rows
            progress.update(rows)
        repeated = repeats.values()
    finally:
        repeats.close()
    progress.finish()
    return TraceIndex(rows, per_queue, in_order, repeated)


def _in_file_order(source: Source, batch_rows: int) -> Iterator[pa.Table]:
    """Pieces of at most ``batch_rows`` rows, in file order: the record batches as read (a
    file's rows come in batches of ``batch_rows``, its last one fewer), each a piece of one chunk
    that needs no copy, except that short batches in a row share a piece while it has room."""
    held: list[pa.RecordBatch] = []
    count = 0
    for batch in batches(source, list(TRACE_COLUMNS), batch_rows):
        if count + batch.num_rows > batch_rows:
            yield pa.Table.from_batches(held)
            held, count = [], 0
        held.append(batch)
        count += batch.num_rows
    if count:
        yield pa.Table.from_batches(held)


def _groups(per_queue: np.ndarray, batch_rows: int) -> np.ndarray:
    """Queues (QueueTable positions) dealt to groups of about ``batch_rows`` rows, in order."""
    start = np.cumsum(per_queue) - per_queue
    _, group = np.unique(start // batch_rows, return_inverse=True)
    return group.astype(np.int64)


def regroup(
    source: Source,
    queues: QueueTable,
    index: TraceIndex,
    batch_rows: int,
    spill: Path,
    progress: Progress,
) -> list[Path]:
    """Write the rows to spill files of whole queues, about ``batch_rows`` rows each (rows of
    no defined queue go to the first); their paths, in queue order."""
    group_of = _groups(index.per_queue, batch_rows)
    n_groups = int(group_of.max()) + 1 if len(group_of) else 1
    spill.mkdir(parents=True, exist_ok=True)
    paths = [spill / f"group-{g:05d}.arrows" for g in range(n_groups)]
    writers: dict[int, pa.ipc.RecordBatchStreamWriter] = {}
    progress.start("regroup", index.rows)
    done = 0
    for batch in batches(source, list(TRACE_COLUMNS), READ_ROWS):
        part = queue_positions(batch, queues)
        group = np.where(part >= 0, group_of[np.maximum(part, 0)], 0)
        ordered = batch.take(pa.array(group_order(group, n_groups)))
        bounds = np.cumsum(np.bincount(group, minlength=n_groups))
        for g in np.flatnonzero(np.diff(bounds, prepend=0)).tolist():
            if g not in writers:
                writers[g] = pa.ipc.new_stream(paths[g], batch.schema)
            lo = bounds[g - 1] if g else 0
            writers[g].write_batch(ordered.slice(lo, bounds[g] - lo))
        done += batch.num_rows
        progress.update(done)
    for writer in writers.values():
        writer.close()
    progress.finish()
    return [paths[g] for g in sorted(writers)]


def _from_groups(paths: list[Path], queues: QueueTable, batch_rows: int) -> Iterator[pa.Table]:
    """The spill files as pieces, each deleted once read; a file bigger than ``batch_rows``
    (one big queue) is cut (:func:`~mqlearn.pipeline.batches.queue_pieces`)."""
    for path in paths:
        with pa.ipc.open_stream(path) as reader:
            table = reader.read_all()
        path.unlink()
        yield from queue_pieces(table, queues, batch_rows)


_END = object()


def _one_ahead(step: Callable[[T], R], items: Iterator[T]) -> Iterator[R]:
    """``step(item)`` of each item in order, each computed (and the item read) in a thread of
    its own while the caller works on the one before."""

    def next_step() -> R | object:
        for item in items:
            return step(item)
        return _END

    with ThreadPoolExecutor(1) as pool:
        pending = pool.submit(next_step)
        while (result := pending.result()) is not _END:
            pending = pool.submit(next_step)
            yield result  # type: ignore[misc]


def _build(writer: PartWriter, piece: Piece, name: str) -> None:
    """Build one table of a piece and append it to its file (in a writer thread)."""
    writer.write(name, piece.table(name))


def prefer_jemalloc() -> None:
    """Make jemalloc pyarrow's default memory pool where this pyarrow has it (its Linux and
    macOS wheels do), for a process whose work is the streaming replay (the CLI's local engine):
    it hands freed memory back sooner than mimalloc, pyarrow's default. This reaches what
    pyarrow allocates itself; Arrow's own default (the Parquet reader's buffers) is chosen when
    pyarrow loads, from ARROW_DEFAULT_MEMORY_POOL, which the CLI sets before (docs/pipeline.md:
    on the 100M-event backlog trace the CLI peaked at 1.80-1.83 GiB with both, 1.86-1.95 GiB
    with this alone, 2.01 GiB with neither)."""
    with contextlib.suppress(NotImplementedError):  # a pyarrow built without it
        pa.set_memory_pool(pa.jemalloc_memory_pool())


def replay_files(
    trace: str | Path,
    queues: str | Path,
    out: str | Path,
    *,
    end_ms: int | None = None,
    batch_rows: int = BATCH_ROWS,
    progress: Progress | None = None,
    schema_version: int = SCHEMA_VERSION,
) -> StreamReplay:
    """Replay the trace at ``trace`` with the definitions at ``queues`` into ``out/<table>``.

    ``end_ms``: when every queue's replay ends (default: at its last row), as for
    ``replay_local``; rows of queues the definitions lack are rejects, as there. ``progress``
    receives the passes ("index", "regroup" when needed, "replay") in rows (default:
    ``progress.reporter()``, a widget in a notebook, a bar on a terminal). Raises TraceError /
    SchemaError / ValueError for bad inputs before the replay runs, and ReconcileError if input
    rows != accepted + rejected; ``out`` is only changed on success.
    """
    if batch_rows < 1:
        raise ValueError(f"batch_rows must be >= 1, got {batch_rows}")
    progress = progress or reporter()
    out_dir = local_directory(out)
    source = open_source(trace, "trace", TRACE_COLUMNS, NAME_COLUMNS)
    table = queue_table(read_definitions(queues, QUEUE_COLUMNS))
    counts = {"input_rows": 0, "accepted": 0, "rejected": 0}
    with staged(out_dir) as staging:
        spill = staging / "_spill"
        index = index_trace(source, table, spill, progress)
        if not index.rows:
            raise TraceError(f"trace {trace} has no rows")
        if index.in_order:
            pieces = _in_file_order(source, batch_rows)
        else:
            paths = regroup(source, table, index, batch_rows, spill, progress)
            pieces = _from_groups(paths, table, batch_rows)
        replay = BatchReplay(
            table,
            end_ms=end_ms,
            repeated=index.repeated,
            rows_per_queue=index.per_queue,
            schema_version=schema_version,
        )
        n_pieces = 0
        progress.start("replay", index.rows)
        with PartWriter(staging, 0) as writer, ThreadPoolExecutor(len(PIECE_TABLES)) as pool:
            pending: list[Future[None]] = []
            for checked in _one_ahead(replay.check, pieces):
                piece = replay.run(checked)
                for done in pending:  # the previous piece's tables, written meanwhile
                    done.result()
                pending = [pool.submit(_build, writer, piece, name) for name in PIECE_TABLES]
                n_pieces += 1
                for name in counts:
                    counts[name] += getattr(piece, name)
                progress.update(counts["input_rows"])
            for done in pending:
                done.result()
            writer.write("summary", replay.summary())
        progress.finish()
        if not index.rows == counts["input_rows"] == counts["accepted"] + counts["rejected"]:
            raise ReconcileError(
                f"trace {trace}: {index.rows} input rows, {counts['input_rows']} replayed, and "
                f"accepted {counts['accepted']} + rejected {counts['rejected']} = "
                f"{counts['accepted'] + counts['rejected']}"
            )
    return StreamReplay(
        out=out_dir,
        **counts,
        rows={name: writer.rows[name] for name in TABLES},
        pieces=n_pieces,
        regrouped=not index.in_order,
    )
