"""Replay a trace on Spark, with exactly the single-process semantics of ``replay_local``.

Every Spark task holds whole queues and replays them with the Arrow replay of ``replay_local``
(:class:`~mqlearn.pipeline.batches.BatchReplay`: validation, the compiled replay, the five
tables), appends its part of each table to one Parquet file, and sends back one row of counts:
nothing of the trace or of the outputs passes through the driver, and no pandas frame is made.
Two ways to give each task whole queues:

- ``files``: when the trace is Parquet whose every (qmgr, queue) lies within one file (as the
  generator writes it) and no seq value repeats, tasks read whole files with pyarrow, one file
  at a time, and replay a file bigger than ROWS_PER_TASK in pieces of about that many rows
  (sorted by queue and seq, a queue spanning pieces); no row goes through Spark's JVM or a
  shuffle. The tasks replay the files as they come and, from the same read, list each file's
  queues and spill its seq values by hash bucket to the staging directory; the driver then
  checks that no queue lies in two files and every queue is defined, and a second job looks
  for repeated seq values (each task sorts one bucket of every file's spill). When a check
  fails, what the tasks wrote is dropped: the trace is shuffled instead, or refused.
- ``shuffle``: otherwise (CSV, queues spread over files, repeated seq values),
  Spark reads the trace and hash-partitions it by (qmgr, queue); tasks receive their rows as
  Arrow batches (``mapInArrow``). Rows whose seq repeats are routed together by seq instead,
  where validation rejects them exactly as ``replay_local`` does (a rejected row plays no part
  in its queue's replay, so moving it changes nothing else).

Inputs are checked before the replay runs, each failure with its own message: a path that does
not exist, missing or mistyped columns (named, before any Spark job), bad queue definitions (read
on the driver with pyarrow: they are small), an empty trace; queues missing from the
definitions too, except that the files strategy finds them while it replays (and then writes
nothing). After the replay, input rows must equal
accepted + rejected rows (``ReconcileError`` otherwise). Outputs are staged and moved into place
only when everything succeeded (:func:`~mqlearn.pipeline.files.staged`).
"""

from __future__ import annotations

import heapq
import math
import shutil
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from mqlearn.pipeline.files import (
    PartWriter,
    Source,
    TraceError,
    local_directory,
    open_source,
    read_definitions,
    staged,
)
from mqlearn.pipeline.files import read_outputs as read_outputs  # where tests and notebooks look
from mqlearn.pipeline.queues import QueueTable, queue_table
from mqlearn.pipeline.schema import (
    OPS_OF_VERSION,
    QUEUE_COLUMNS,
    SCHEMA_VERSION,
    TABLES,
    TRACE_COLUMNS,
    ReconcileError,
)
from mqlearn.pipeline.spark import arrow_schema, spark_ddl, spark_type_name
from mqlearn.pipeline.spark_settings import STRATEGIES

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

ROWS_PER_TASK = 500_000  # a task replays at most this many rows at a time (files: a piece)
MISSING_SHOWN = 10  # queues named when the definitions lack some
COUNTS = {
    "partition": "int64",
    "input_rows": "int64",
    "accepted": "int64",
    "rejected": "int64",
    **{name: "int64" for name in TABLES},
}


@dataclass(frozen=True)
class SparkReplay:
    """What ``replay_spark`` wrote: the output directory, the counts, rows per table, and how
    the work was split (``strategy`` "files" or "shuffle", ``partitions`` tasks)."""

    out: Path
    input_rows: int
    accepted: int
    rejected: int
    rows: dict[str, int]
    partitions: int
    strategy: str


# ---------------------------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------------------------


def _spark_frame(spark: SparkSession, source: Source, columns: dict[str, str]) -> DataFrame:
    """The checked table as a Spark DataFrame of ``columns``; CSV values are cast to the declared
    types, and a value that does not parse fails the job."""
    from pyspark.sql import functions as F

    if not source.is_csv:
        return spark.read.parquet(source.path).select(list(columns))
    text = spark.read.options(header=True, mode="FAILFAST").csv(source.path)
    return text.select(
        [
            F.col(f"`{name}`").cast(spark_type_name(dtype)).alias(name)
            for name, dtype in columns.items()
        ]
    )


def _missing(used: Iterable[tuple[str, str]], queues: pd.DataFrame, path: str) -> None:
    """TraceError naming (some of) the queues the trace uses (pairs without nulls: rows with a
    null name are rejected rows) and the definitions lack."""
    defined = set(zip(queues["qmgr"], queues["queue"], strict=True))
    lacking = sorted(set(used) - defined)
    if lacking:
        names = ", ".join(f"{qmgr}/{queue}" for qmgr, queue in lacking[:MISSING_SHOWN])
        more = f" and {len(lacking) - MISSING_SHOWN} more" if len(lacking) > MISSING_SHOWN else ""
        raise TraceError(f"trace {path} uses queues the definitions lack: {names}{more}")


# ---------------------------------------------------------------------------------------------
# The replay task (runs on executors), fed by either strategy
# ---------------------------------------------------------------------------------------------


def _replay_task(
    pieces: Iterable[pa.Table],
    queues: QueueTable,
    staging: str,
    rows_per_queue: np.ndarray | None = None,
    schema_version: int = SCHEMA_VERSION,
) -> dict[str, int]:
    """Replay one task's pieces and write its parts; its counts. Each piece holds whole queues,
    unless ``rows_per_queue`` (filled in before a queue's first piece comes) says how many rows
    each queue has in all: then a queue may span pieces, in seq order. ``schema_version``: the
    trace schema the trace declares (rows it cannot hold are rejects)."""
    from pyspark import TaskContext

    from mqlearn.pipeline.batches import BatchReplay  # in the tasks: the driver needs no numba

    context = TaskContext.get()
    part = context.partitionId() if context is not None else 0
    counts = dict.fromkeys(COUNTS, 0) | {"partition": part}
    replay = BatchReplay(queues, rows_per_queue=rows_per_queue, schema_version=schema_version)
    with PartWriter(staging, part) as writer:
        for table in pieces:
            counts["input_rows"] += table.num_rows
            if not table.num_rows:
                continue
            piece = replay.replay(table.select(list(TRACE_COLUMNS)))
            counts["accepted"] += piece.accepted
            counts["rejected"] += piece.rejected
            for name, output in piece.tables().items():
                writer.write(name, output)
        writer.write("summary", replay.summary())
    return counts | writer.rows


# ---------------------------------------------------------------------------------------------
# Strategy "files": pyarrow reads whole files in the tasks
# ---------------------------------------------------------------------------------------------


def _file_facts(index: int, table: pa.Table, spill: str, buckets: int) -> list[tuple[Any, ...]]:
    """What the driver checks about one trace file, from the table a task replays: its (qmgr,
    queue) pairs with their row counts, as (file, qmgr, queue, rows). Its seq values go to
    ``spill/seq-NNNNN.int64`` grouped by :func:`~mqlearn.pipeline.order.by_bucket` into
    ``buckets`` (``.bounds``: where each bucket starts), for :func:`_seq_repeats`."""
    # one dictionary for the names: a file's row groups may each have their own (pyarrow writes
    # them so), and grouping refuses chunks whose dictionaries differ
    names = table.select(["qmgr", "queue"]).unify_dictionaries()
    grouped = names.group_by(["qmgr", "queue"]).aggregate([([], "count_all")])
    found = [(index, e["qmgr"], e["queue"], e["count_all"]) for e in grouped.to_pylist()]
    values = table["seq"].drop_null().cast(pa.int64()).to_numpy()
    from mqlearn.pipeline.order import by_bucket  # compiled: loaded in the tasks only

    grouped, starts = by_bucket(values, buckets)
    grouped.tofile(f"{spill}/seq-{index:05d}.int64")
    starts.tofile(f"{spill}/seq-{index:05d}.bounds")
    return found


def file_rows(source: Source) -> pd.Series:
    """The rows of each file of a Parquet source (from the files' metadata), in file order."""
    return pd.Series([fragment.count_rows() for fragment in source.dataset.get_fragments()])


def _seq_repeats(spark: SparkSession, files: int, spill: Path, buckets: int) -> bool:
    """One job: whether any seq value occurs twice. Task ``b`` reads the values of bucket ``b``
    from the spill files of :func:`_file_facts` (raw int64, a read and a sort)."""
    where = str(spill)

    def check(bucket_ids: Iterable[int]) -> Iterator[bool]:
        from mqlearn.pipeline.order import repeated_values

        for bucket in bucket_ids:
            parts = []
            for index in range(files):
                lo, hi = np.fromfile(f"{where}/seq-{index:05d}.bounds", dtype=np.int64)[
                    bucket : bucket + 2
                ]
                parts.append(
                    np.fromfile(
                        f"{where}/seq-{index:05d}.int64",
                        dtype=np.int64,
                        count=hi - lo,
                        offset=8 * lo,
                    )
                )
            yield bool(len(repeated_values(np.concatenate(parts))))

    return any(
        spark.sparkContext.parallelize(range(buckets), buckets).mapPartitions(check).collect()
    )


def _file_groups(rows_per_file: pd.Series, tasks: int) -> list[list[int]]:
    """Files dealt to ``tasks`` groups, biggest first, each to the group with the fewest rows."""
    heap = [(0, k) for k in range(tasks)]
    groups: list[list[int]] = [[] for _ in range(tasks)]
    for index, rows in rows_per_file.sort_values(ascending=False, kind="mergesort").items():
        load, k = heapq.heappop(heap)
        groups[k].append(int(index))
        heapq.heappush(heap, (load + int(rows), k))
    return [sorted(group) for group in groups if group]


def _run_by_files(
    spark: SparkSession,
    source: Source,
    groups: list[list[int]],
    task: Callable[..., Any],
    spill: Path,
    buckets: int,
    queues: QueueTable,
) -> tuple[list[dict[str, int]], pd.DataFrame]:
    """Replay the files, a group of them per task, a file bigger than ROWS_PER_TASK in pieces
    of about that many rows (:func:`~mqlearn.pipeline.batches.queue_pieces`); the tasks'
    counts, and the (file, qmgr, queue, rows) of every file (:func:`_file_facts`)."""
    files, filesystem, where = source.dataset.files, source.filesystem, str(spill)
    piece_rows = ROWS_PER_TASK  # read here, on the driver, so that the tasks see its value

    def tables(
        indexes: list[int], found: list[tuple[Any, ...]], per_queue: np.ndarray
    ) -> Iterator[pa.Table]:
        from mqlearn.pipeline.batches import queue_pieces
        from mqlearn.pipeline.validate import NAME_COLUMNS, queue_positions

        for index in indexes:
            table = pq.read_table(
                files[index],
                filesystem=filesystem,
                read_dictionary=list(NAME_COLUMNS),
                use_threads=False,  # one thread per task: the cores run the other tasks
            )
            found.extend(_file_facts(index, table, where, buckets))
            part = queue_positions(table, queues)
            per_queue += np.bincount(part[part >= 0], minlength=len(queues))
            yield from queue_pieces(table, queues, piece_rows)

    def run(group_ids: Iterable[int]) -> Iterator[tuple[dict[str, int], list[tuple[Any, ...]]]]:
        for group in group_ids:
            found: list[tuple[Any, ...]] = []
            per_queue = np.zeros(len(queues), dtype=np.int64)
            yield task(tables(groups[group], found, per_queue), per_queue), found

    spill.mkdir(parents=True, exist_ok=True)
    results = (
        spark.sparkContext.parallelize(range(len(groups)), len(groups)).mapPartitions(run).collect()
    )
    facts = [row for _, found in results for row in found]
    by_file = pd.DataFrame(facts, columns=["file", "qmgr", "queue", "rows"])
    return [counts for counts, _ in results], by_file


# ---------------------------------------------------------------------------------------------
# Strategy "shuffle": Spark reads the trace and partitions it by queue
# ---------------------------------------------------------------------------------------------


def _routed(trace: DataFrame) -> tuple[DataFrame, list[Any]]:
    """The trace and its partitioning keys: (qmgr, queue), or the seq for rows whose seq
    repeats (found by a shuffle of the seq column, checked per partition with numpy)."""
    from pyspark.sql import functions as F

    def repeats(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        values = [batch.column(0).drop_null().to_numpy() for batch in batches]
        ordered = np.sort(np.concatenate(values)) if values else np.empty(0, dtype=np.int64)
        twice = np.unique(ordered[1:][ordered[1:] == ordered[:-1]])
        yield pa.RecordBatch.from_arrays([pa.array(twice, pa.int64())], names=["seq"])

    tasks = 2 * trace.sparkSession.sparkContext.defaultParallelism
    repeated = trace.select("seq").repartition(tasks, "seq").mapInArrow(repeats, "seq bigint")
    if repeated.isEmpty():
        return trace, [F.col("qmgr"), F.col("queue")]
    marked = trace.join(repeated.select("seq", F.lit(True).alias("_repeated")), "seq", "left")
    repeated_seq = F.col("_repeated").isNotNull()
    keys = [
        F.when(~repeated_seq, F.col("qmgr")),
        F.when(~repeated_seq, F.col("queue")),
        F.when(repeated_seq, F.col("seq")),
    ]
    named = [key.alias(f"_key{k}") for k, key in enumerate(keys)]
    return marked.select(*TRACE_COLUMNS, *named), [F.col(f"_key{k}") for k in range(len(keys))]


def _run_by_shuffle(
    trace: DataFrame, keys: list[Any], tasks: int, task: Callable[..., Any]
) -> list[dict[str, int]]:
    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        received = list(batches)
        table = (
            pa.Table.from_batches(received)
            if received
            else arrow_schema(TRACE_COLUMNS).empty_table()
        )
        yield pa.RecordBatch.from_pylist([task([table])], schema=arrow_schema(COUNTS))

    partitioned = trace.repartition(tasks, *keys).select(*TRACE_COLUMNS)
    counts: list[dict[str, int]] = (
        partitioned.mapInArrow(run, spark_ddl(COUNTS)).toArrow().to_pylist()
    )
    return counts


# ---------------------------------------------------------------------------------------------
# The job
# ---------------------------------------------------------------------------------------------


def default_partitions(spark: SparkSession, rows: int | None = None) -> int:
    """Tasks of the replay: enough to use every core twice; with ``rows`` (the shuffle, whose
    task holds its rows), also at most ROWS_PER_TASK rows per task. A task of the files strategy
    reads its files one at a time and replays them in pieces of at most ROWS_PER_TASK rows, so
    its share of the trace does not bound its memory, and more tasks only add each one's fixed
    cost (at 20M rows, 40 tasks took 23.6 s where 4 took 20.6 s)."""
    cores_twice = 2 * spark.sparkContext.defaultParallelism
    return cores_twice if rows is None else max(cores_twice, math.ceil(rows / ROWS_PER_TASK))


def replay_spark(
    spark: SparkSession,
    trace: str | Path,
    queues: str | Path,
    out: str | Path,
    *,
    partitions: int | None = None,
    strategy: str = "auto",
    schema_version: int = SCHEMA_VERSION,
) -> SparkReplay:
    """Replay the trace at ``trace`` with the definitions at ``queues`` into ``out/<table>``.

    ``strategy`` "auto" reads whole files in the tasks when the trace allows it, else shuffles;
    "shuffle" always shuffles. ``partitions`` sets the number of tasks (default: from the rows).
    ``schema_version``: the trace schema the trace declares, as for ``replay_local`` (1: ARRIVE
    rows are rejects naming the version they need).
    Raises TraceError / SchemaError / ValueError for bad inputs before the replay runs (queues
    the definitions lack: after the files strategy's tasks found them), and ReconcileError if
    input rows != accepted + rejected; ``out`` is only changed on success.
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, got {strategy!r}")
    if partitions is not None and partitions < 1:
        raise ValueError(f"partitions must be >= 1, got {partitions}")
    if schema_version not in OPS_OF_VERSION:
        raise ValueError(
            f"trace schema v{schema_version} is not one this reader knows "
            f"(v{', v'.join(map(str, OPS_OF_VERSION))})"
        )
    out_dir = local_directory(out)
    source = open_source(trace, "trace", TRACE_COLUMNS)
    definitions = read_definitions(queues, QUEUE_COLUMNS)  # small: read here with pyarrow
    table = queue_table(definitions)

    with staged(out_dir) as staging:
        spill = staging / "_spill"

        def task(
            pieces: Iterable[pa.Table], rows_per_queue: np.ndarray | None = None
        ) -> dict[str, int]:
            return _replay_task(pieces, table, str(staging), rows_per_queue, schema_version)

        counts, strategy_used = None, "files"
        buckets = 2 * spark.sparkContext.defaultParallelism  # tasks checking seq values
        if strategy == "auto" and not source.is_csv:
            per_file = file_rows(source)
            input_rows = int(per_file.sum())
            if not input_rows:
                raise TraceError(f"trace {trace} has no rows")
            tasks = min(partitions or default_partitions(spark), len(per_file))
            groups = _file_groups(per_file, tasks)
            counts, by_file = _run_by_files(spark, source, groups, task, spill, buckets, table)
            named = by_file.dropna(subset=["qmgr", "queue"])
            _missing(zip(named["qmgr"], named["queue"], strict=True), definitions, str(trace))
            files = len(source.dataset.files)
            if named.duplicated(["qmgr", "queue"]).any() or _seq_repeats(
                spark, files, spill, buckets
            ):
                counts = None  # the shuffle partitions by queue and routes repeated seq values
                for name in TABLES:
                    shutil.rmtree(staging / name, ignore_errors=True)
            shutil.rmtree(spill)
        if counts is None:
            strategy_used = "shuffle"
            frame = _spark_frame(spark, source, TRACE_COLUMNS)
            input_rows = frame.count()
            if not input_rows:
                raise TraceError(f"trace {trace} has no rows")
            pairs = frame.select("qmgr", "queue").dropna().distinct().collect()
            _missing(((row.qmgr, row.queue) for row in pairs), definitions, str(trace))
            routed, keys = _routed(frame)
            tasks = partitions or default_partitions(spark, input_rows)
            counts = _run_by_shuffle(routed, keys, tasks, task)
        totals = {name: sum(c[name] for c in counts) for name in COUNTS if name != "partition"}
        accepted, rejected = totals["accepted"], totals["rejected"]
        if input_rows != accepted + rejected or totals["input_rows"] != input_rows:
            raise ReconcileError(
                f"trace {trace}: {input_rows} input rows, the tasks received "
                f"{totals['input_rows']}, and accepted {accepted} + rejected {rejected} = "
                f"{accepted + rejected}"
            )
    return SparkReplay(
        out=out_dir,
        input_rows=input_rows,
        accepted=accepted,
        rejected=rejected,
        rows={name: totals[name] for name in TABLES},
        partitions=len(counts),
        strategy=strategy_used,
    )
