"""Deep backlogs (issue 27): a generated trace whose consumers stop for a quarter of its span.

The generator's ``outage_share`` stops the consumer of a share of the queues once (the producers
go on), then lets it catch up in a burst. On such a trace the streaming replay and Spark's tasks
carry hundreds of queued messages over each cut: the engine driven call by call, ``replay_local``
(one piece), the streaming replay (pieces of 150 rows) and Spark (tasks replaying files in pieces
of 300 rows) must agree on every call and every message (EXP-21..28, RPT-01).
One Spark session for the module (the shared ``spark`` fixture).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from mqlearn.pipeline import QUEUE_COLUMNS, TRACE_COLUMNS, replay_local
from mqlearn.pipeline import spark_replay as spark_replay_module
from mqlearn.pipeline.batches import BatchReplay
from mqlearn.pipeline.carry_store import LANES, Store
from mqlearn.pipeline.generate import TraceSpec, generate_local, plan_queues
from mqlearn.pipeline.spark import arrow_schema
from mqlearn.pipeline.spark_replay import replay_spark
from mqlearn.pipeline.stream import replay_files
from tests.pipeline.test_differential_engine import (
    engine_discards,
    replay_calls,
    replay_discards,
    run_engine,
)
from tests.pipeline.test_spark_replay import canonical, write_parquet
from tests.pipeline.test_stream import assert_same_as_replay_local, replay_in_pieces

# 3 queues over 2 virtual hours, every consumer stopped for 30 minutes (seed 2: no CAPEXPRY,
# which would let the scans empty the queue while its consumer is away)
SPEC = TraceSpec(seed=2, events=3000, queues=3, qmgrs=1, hours=2, outage_share=1.0)


@pytest.fixture(scope="module")
def backlog() -> tuple[pd.DataFrame, pd.DataFrame]:
    return generate_local(SPEC)


def test_every_consumer_stops_for_a_quarter_of_the_span_then_catches_up(backlog) -> None:
    trace, queues = backlog
    for plan in plan_queues(SPEC):
        stop = plan.workload.long_outage_at_s * 1000, plan.workload.long_outage_s * 1000
        assert stop[1] == 30 * 60 * 1000 and 0 <= stop[0] <= 60 * 60 * 1000
        rows = trace[trace["queue"] == plan.queue]
        # the consumer's own gets (no MsgId asked for): none while it is stopped
        gets = rows[(rows["op"] == "GET") & (rows["match_options"] == 0)]["time_ms"]
        assert not gets.between(stop[0] + 1, stop[0] + stop[1] - 1).any(), plan.queue
    deep = replay_local(trace, queues).summary["max_depth"]
    plain = replay_local(*generate_local(replace(SPEC, outage_share=0.0))).summary["max_depth"]
    assert deep.sum() > 10 * plain.sum()  # 382 against 13: hundreds of messages wait


def traced(found: Counter[tuple[Any, ...]], queues: set[str]) -> Counter[tuple[Any, ...]]:
    """The discards on traced queues (reports land on the reply queues, which the replay does
    not model)."""
    return Counter({key: n for key, n in found.items() if key[1] in queues})


def test_exp21_28_the_engine_replays_the_backlog_like_replay_local(backlog) -> None:
    trace, queues = backlog
    end_ms = int(trace["time_ms"].max())
    result = replay_local(trace, queues, end_ms=end_ms)
    run = run_engine(trace, queues)
    assert replay_calls(result) == run.calls
    names = set(trace["queue"])
    assert traced(replay_discards(result.messages), names) == traced(engine_discards(run), names)


def test_exp21_28_pieces_carry_the_backlog_like_one_piece(backlog, tmp_path) -> None:
    trace, queues = backlog
    expected = replay_local(trace, queues).tables()
    got = replay_in_pieces(trace, queues, 150)
    for name, table in expected.items():
        pd.testing.assert_frame_equal(canonical(got[name]), canonical(table), obj=name)
    trace_path = write_parquet(trace, TRACE_COLUMNS, tmp_path / "trace.parquet")
    queues_path = write_parquet(queues, QUEUE_COLUMNS, tmp_path / "queues.parquet")
    result = replay_files(trace_path, queues_path, tmp_path / "out", batch_rows=150)
    assert result.pieces >= len(trace) // 150
    assert_same_as_replay_local(tmp_path / "out", trace, queues)


DEEP = TraceSpec(seed=2, events=12_000, queues=4, qmgrs=2, hours=2, outage_share=1.0)


def in_delivery_order(stored: Store) -> bool:
    """Whether a store lists its messages by (queue, lane descending, arrival), each block where
    ``block_lo`` says, and no slot twice or free."""
    part, lane, arrival = stored.part, stored.column("lane"), stored.column("arrival")
    block = part * LANES + LANES - 1 - lane
    blocks = np.repeat(np.arange(len(stored.block_lo) - 1), np.diff(stored.block_lo))
    return (
        np.array_equal(np.lexsort((arrival, -lane, part)), np.arange(len(stored)))
        and np.array_equal(block, blocks)
        and len(np.unique(stored.order)) == len(stored)
        and not np.isin(stored.free[: stored.n_free], stored.order).any()
    )


def test_exp21_28_a_deep_backlog_carried_through_many_pieces_replays_like_one_piece() -> None:
    """Hundreds of messages carried through 300 pieces of 40 rows: the store keeps them in
    delivery order; most of them are left out of most pieces (cold: no walk, scan or matching
    get of the piece can reach them); a queue with messages stored keeps them through pieces
    without rows of its own; the tables are replay_local's (one piece), every call and every
    message."""
    trace, queues = generate_local(DEEP)
    depths, taken, orders, carried_queues = [], [], [], []

    def after(replay: BatchReplay) -> None:
        depths.append(len(replay.store))
        taken.append(len(replay.store.taken_slots))
        orders.append(in_delivery_order(replay.store))
        q = replay.queues
        carried_queues.append({(q.qmgr[p], q.queue[p]) for p in np.unique(replay.store.part)})

    got = replay_in_pieces(trace, queues, 40, after)
    assert len(depths) >= 300 and max(depths) > 500  # deep: hundreds carried over a cut
    assert all(orders)
    assert sum(taken) < sum(depths[:-1]) / 4  # a piece takes few of the stored messages
    in_seq_order = trace.iloc[np.argsort(trace["seq"].to_numpy(), kind="stable")]
    keys = list(zip(in_seq_order["qmgr"], in_seq_order["queue"], strict=True))
    idle = [
        k
        for k in range(1, len(carried_queues))
        if carried_queues[k - 1] - set(keys[40 * k : 40 * (k + 1)])
    ]
    assert len(idle) > 10  # pieces without rows on a queue that has messages stored
    for name, table in replay_local(trace, queues).tables().items():
        pd.testing.assert_frame_equal(canonical(got[name]), canonical(table), obj=name)


def test_exp21_28_spark_replays_the_backlog_like_replay_local(
    spark, backlog, tmp_path, monkeypatch
) -> None:
    trace, queues = backlog
    directory = tmp_path / "trace"
    directory.mkdir()
    for k, (_, rows) in enumerate(trace.groupby("queue", sort=True)):  # whole queues a file
        write_parquet(rows.sort_values("seq"), TRACE_COLUMNS, directory / f"part-{k}.parquet")
    queues_path = write_parquet(queues, QUEUE_COLUMNS, tmp_path / "queues.parquet")
    monkeypatch.setattr(spark_replay_module, "ROWS_PER_TASK", 300)  # files replayed in pieces
    result = replay_spark(spark, directory, queues_path, tmp_path / "out")
    assert result.strategy == "files" and result.input_rows == len(trace)
    assert_same_as_replay_local(tmp_path / "out", trace, queues)
    # the whole trace in one file of several row groups, each with its own dictionary of queue
    # names (as pyarrow writes a file: the files strategy failed on it, "Unifying differing
    # dictionaries", before its tasks unified them)
    one = tmp_path / "one"
    one.mkdir()
    ordered = trace.sort_values(["queue", "seq"])
    table = pa.Table.from_pandas(ordered, schema=arrow_schema(TRACE_COLUMNS), preserve_index=False)
    pq.write_table(table.combine_chunks(), one / "part-0.parquet", row_group_size=700)
    assert pq.ParquetFile(one / "part-0.parquet").num_row_groups > 2
    result = replay_spark(spark, one, queues_path, tmp_path / "out-one", strategy="auto")
    assert result.strategy == "files"
    assert_same_as_replay_local(tmp_path / "out-one", trace, queues)
