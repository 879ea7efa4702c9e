"""The Spark replay (issue 5): the same five tables as ``replay_local``, and clear input errors.

The differential test holds Spark's output equal to the single-process replay on traces
hypothesis writes: two queue managers, two queues each, rows that tie in time, every operation,
match options, descriptor values MQ accepts, warns about or refuses, and bad rows (unknown
operations, repeated seq values across queues, time going backwards). Rules: EXP-03, EXP-06,
EXP-21..28, RPT-01, MD-02 through the replay; the row accounting (accepted + rejected = input) is
the pipeline's own contract.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mqlearn import CMQC
from mqlearn.pipeline import (
    OUTPUT_COLUMNS,
    QUEUE_COLUMNS,
    TRACE_COLUMNS,
    ReconcileError,
    SchemaError,
    replay_local,
    spark_replay,
)
from mqlearn.pipeline.schema import OPS
from mqlearn.pipeline.spark import arrow_schema
from mqlearn.pipeline.spark_replay import TraceError, read_outputs, replay_spark

pytestmark = pytest.mark.slow

QMGRS = ("QMA", "QMB")
QUEUES = ("Q1", "Q2")
IDS = [f"{k:048x}" for k in range(1, 5)]
PUT_FIELDS = ("priority", "expiry", "report", "persistence", "data_length")
SETTINGS = settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def write_parquet(frame: pd.DataFrame, columns: dict[str, str], path: Path) -> Path:
    table = pa.Table.from_pandas(frame, schema=arrow_schema(columns), preserve_index=False)
    pq.write_table(table, path)
    return path


def canonical(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows in one order whatever task wrote them: sorted on every column."""
    return frame.sort_values(list(frame.columns), kind="mergesort", ignore_index=True)


def assert_same_tables(spark_out: Path, trace: pd.DataFrame, queues: pd.DataFrame) -> None:
    local = replay_local(trace, queues).tables()
    written = read_outputs(spark_out)
    for name, expected in local.items():
        pd.testing.assert_frame_equal(canonical(written[name]), canonical(expected), obj=name)


@st.composite
def definitions(draw: st.DrawFn) -> pd.DataFrame:
    rows = []
    for qmgr in QMGRS:
        profile = draw(st.sampled_from(["distributed", "zos", "ibmi"]))
        interval = draw(st.sampled_from([0, 1, 2]))
        for queue in QUEUES:
            rows.append(
                {
                    "qmgr": qmgr,
                    "queue": queue,
                    "msgdlvsq": draw(st.sampled_from(["FIFO", "PRIORITY"])),
                    "defprty": draw(st.sampled_from([0, 4])),
                    "maxdepth": draw(st.integers(2, 6)),
                    "capexpry": draw(st.sampled_from([-1, 3, 40])),
                    "profile": profile,
                    "expiry_interval_s": interval,
                }
            )
    return pd.DataFrame(rows).astype(QUEUE_COLUMNS)


@st.composite
def traces(draw: st.DrawFn) -> pd.DataFrame:
    n = draw(st.integers(1, 40))
    times = sorted(draw(st.lists(st.integers(0, 4000), min_size=n, max_size=n)))
    seqs = [10 * k for k in range(n)]
    if n > 2 and draw(st.booleans()):  # a repeated seq, usually on another queue
        seqs[draw(st.integers(1, n - 1))] = seqs[0]
    if n > 2 and draw(st.booleans()):  # time going backwards within the seq order
        k = draw(st.integers(1, n - 1))
        times[k] = max(0, times[k - 1] - 50)
    rows = []
    for seq, time_ms in zip(seqs, times, strict=True):
        report = draw(st.sampled_from([0, CMQC.MQRO_EXPIRATION, CMQC.MQRO_EXPIRATION_WITH_DATA]))
        qmgr = draw(st.sampled_from(QMGRS))
        rows.append(
            {
                "seq": seq,
                "time_ms": time_ms,
                "qmgr": qmgr,
                "queue": draw(st.sampled_from(QUEUES)),
                "op": draw(st.sampled_from([*OPS, "PUT", "GET", "GETX"])),
                "handle": draw(st.integers(1, 2)),
                "msg_id": draw(st.sampled_from([*IDS, None])),
                "correl_id": draw(st.sampled_from([None, IDS[0]])),
                "match_options": draw(st.sampled_from([0, 0, 1, 2, 3])),
                "priority": draw(st.sampled_from([-1, 0, 5, 9, 12])),
                "expiry": draw(st.sampled_from([-1, 1, 5, 20, 300, 0])),
                "report": report,
                "reply_to_q": "REPLY.Q" if report else draw(st.sampled_from(["", "REPLY.Q"])),
                "reply_to_qmgr": draw(st.sampled_from(["", qmgr])),
                "persistence": draw(st.integers(0, 2)),
                "data_length": draw(st.integers(0, 10)),
            }
        )
        if draw(st.integers(0, 5)) == 0:  # a null descriptor field: a bad PUT, fine elsewhere
            rows[-1][draw(st.sampled_from(PUT_FIELDS))] = None
    nullable = {name: "Int32" for name in PUT_FIELDS}
    return pd.DataFrame(rows).astype({**TRACE_COLUMNS, **nullable})


def write_files(trace: pd.DataFrame, root: Path, file_of: list[int]) -> Path:
    """The trace as a directory of Parquet files, row ``k`` in file ``file_of[k]``."""
    directory = root / "trace"
    directory.mkdir()
    for index in sorted(set(file_of)):
        rows = trace[[f == index for f in file_of]]
        write_parquet(rows, TRACE_COLUMNS, directory / f"part-{index}.parquet")
    return directory


def replay_both_ways(spark, trace, queues, file_of, strategy) -> str:
    """Replay on Spark and compare with replay_local; the strategy Spark used."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        trace_path = write_files(trace, root, file_of)
        queues_path = write_parquet(queues, QUEUE_COLUMNS, root / "queues.parquet")
        result = replay_spark(
            spark, trace_path, queues_path, root / "out", partitions=3, strategy=strategy
        )
        assert result.input_rows == len(trace) == result.accepted + result.rejected
        assert_same_tables(root / "out", trace, queues)
        return result.strategy


@SETTINGS
@given(trace=traces(), queues=definitions())
def test_files_strategy_equals_replay_local(spark, trace, queues) -> None:
    """EXP-21..28, EXP-03, EXP-06, MD-02, RPT-01: one file per queue manager, so every queue
    lies in one file: tasks read whole files (unless a seq repeats: then Spark shuffles) and
    write exactly replay_local's tables, rejects included."""
    file_of = [QMGRS.index(qmgr) for qmgr in trace["qmgr"]]
    used = replay_both_ways(spark, trace, queues, file_of, "auto")
    assert used == ("files" if trace["seq"].is_unique else "shuffle")


@SETTINGS
@given(trace=traces(), queues=definitions(), rows=st.integers(1, 6))
def test_files_cut_in_pieces_equal_replay_local(spark, trace, queues, rows) -> None:
    """EXP-21..28, EXP-03, EXP-06, MD-02, RPT-01: a file bigger than ROWS_PER_TASK is replayed
    in pieces of about that many rows, its queues spanning pieces in seq order, and gives
    exactly replay_local's tables (a 2.76M-row file of the 100M trace peaked at 2.5 GB whole)."""
    file_of = [QMGRS.index(qmgr) for qmgr in trace["qmgr"]]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(spark_replay, "ROWS_PER_TASK", rows)
        used = replay_both_ways(spark, trace, queues, file_of, "auto")
    assert used == ("files" if trace["seq"].is_unique else "shuffle")


@SETTINGS
@given(trace=traces(), queues=definitions(), data=st.data())
def test_shuffle_strategy_equals_replay_local(spark, trace, queues, data) -> None:
    """EXP-21..28, EXP-03, EXP-06, MD-02, RPT-01: rows spread over files at random, Spark
    partitions them by queue (a seq repeated across queues is rejected on both sides)."""
    files = data.draw(st.lists(st.integers(0, 2), min_size=len(trace), max_size=len(trace)))
    assert replay_both_ways(spark, trace, queues, files, "shuffle") == "shuffle"


def test_auto_shuffles_when_a_queue_spans_files(spark, tmp_path, inputs) -> None:
    """Tooling, no behaviour rule: Q1's rows in two files, so "auto" shuffles, same tables."""
    _, queues_path, trace, queues = inputs
    trace_path = write_files(trace, tmp_path, [0, 1, 0, 1, 0, 0])
    result = replay_spark(spark, trace_path, queues_path, tmp_path / "out")
    assert result.strategy == "shuffle"
    assert_same_tables(tmp_path / "out", trace, queues)


# --------------------------------------------------------------------------------------------
# Fixed inputs
# --------------------------------------------------------------------------------------------


def row(seq: int, time_ms: int, op: str, queue: str = "Q1", **fields: object) -> dict[str, object]:
    base: dict[str, object] = {
        "seq": seq,
        "time_ms": time_ms,
        "qmgr": "QMA",
        "queue": queue,
        "op": op,
        "handle": 1,
        "msg_id": None,
        "correl_id": None,
        "match_options": 0,
        "priority": -1,
        "expiry": -1,
        "report": 0,
        "reply_to_q": "",
        "reply_to_qmgr": "",
        "persistence": 0,
        "data_length": 3,
    }
    return base | fields


def queue_frame(*names: str) -> pd.DataFrame:
    rows = [
        {
            "qmgr": "QMA",
            "queue": name,
            "msgdlvsq": "FIFO",
            "defprty": 0,
            "maxdepth": 100,
            "capexpry": -1,
            "profile": "distributed",
            "expiry_interval_s": 0,
        }
        for name in names
    ]
    return pd.DataFrame(rows).astype(QUEUE_COLUMNS)


@pytest.fixture
def inputs(tmp_path: Path) -> tuple[Path, Path, pd.DataFrame, pd.DataFrame]:
    """A small trace on two queues: expired and live messages, a browse, a bad row."""
    trace = pd.DataFrame(
        [
            row(1, 0, "PUT", msg_id=IDS[0], expiry=5),
            row(2, 0, "PUT", msg_id=IDS[1]),
            row(3, 100, "PUT", "Q2", msg_id=IDS[2], expiry=2),
            row(4, 1000, "GET"),  # discards IDS[0] (expired at 500 ms), gets IDS[1]: EXP-22
            row(5, 1000, "BROWSE_FIRST", "Q2"),  # discards IDS[2]: EXP-21
            row(6, 1200, "SEND"),  # not an operation: rejected
        ]
    ).astype(TRACE_COLUMNS)
    queues = queue_frame("Q1", "Q2")
    trace_path = write_parquet(trace, TRACE_COLUMNS, tmp_path / "trace.parquet")
    queues_path = write_parquet(queues, QUEUE_COLUMNS, tmp_path / "queues.parquet")
    return trace_path, queues_path, trace, queues


def test_files_strategy_runs_two_tasks_a_core_whatever_the_rows(spark, tmp_path) -> None:
    """Tooling, no behaviour rule: a task of the files strategy replays its files one at a
    time, in pieces of at most ROWS_PER_TASK rows, so the rows do not raise the number of tasks
    (each adds a fixed cost); the shuffle, whose task holds its rows, is bounded by them too."""
    names = [f"Q{k}" for k in range(1, 8)]
    trace = pd.DataFrame(
        [row(k + 1, 10 * k, "PUT", name, msg_id=f"{k + 1:048x}") for k, name in enumerate(names)]
    ).astype(TRACE_COLUMNS)
    queues_path = write_parquet(queue_frame(*names), QUEUE_COLUMNS, tmp_path / "queues.parquet")
    trace_path = write_files(trace, tmp_path, list(range(len(names))))  # a queue per file
    cores_twice = 2 * spark.sparkContext.defaultParallelism
    assert cores_twice < len(names)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(spark_replay, "ROWS_PER_TASK", 1)  # seven rows: seven tasks by rows
        files = replay_spark(spark, trace_path, queues_path, tmp_path / "files")
        shuffled = replay_spark(
            spark, trace_path, queues_path, tmp_path / "shuffled", strategy="shuffle"
        )
    assert (files.strategy, files.partitions) == ("files", cores_twice)
    assert (shuffled.strategy, shuffled.partitions) == ("shuffle", len(names))
    assert_same_tables(tmp_path / "files", trace, queue_frame(*names))


def test_files_strategy_finds_a_seq_repeated_across_files_in_an_int32_column(
    spark, tmp_path, inputs
) -> None:
    """Tooling, no behaviour rule: Q1 and Q2 each in a file of their own, whose seq column is
    int32 (any integer width is allowed), and Q2's PUT carries the seq of Q1's GET: "auto" finds
    the repeat across files, shuffles, and both rows are rejects as in replay_local."""
    _, queues_path, trace, queues = inputs
    trace.loc[trace["seq"] == 3, "seq"] = 4
    directory = tmp_path / "trace"
    directory.mkdir()
    schema = arrow_schema(TRACE_COLUMNS)
    schema = schema.set(schema.get_field_index("seq"), pa.field("seq", pa.int32()))
    for k, queue in enumerate(QUEUES):
        rows = trace[trace["queue"] == queue].astype({"seq": "int32"})
        table = pa.Table.from_pandas(rows, schema=schema, preserve_index=False)
        pq.write_table(table, directory / f"part-{k}.parquet")
    result = replay_spark(spark, directory, queues_path, tmp_path / "out")
    assert result.strategy == "shuffle"
    assert result.rejected == 3  # the two rows with seq 4, and SEND
    assert_same_tables(tmp_path / "out", trace, queues)


def test_exp21_exp22_fixed_trace_outputs(spark, tmp_path, inputs) -> None:
    """EXP-21, EXP-22: the get discards the expired message ahead and returns the live one, the
    browse discards the expired one; the bad row is rejected with its reason; _SUCCESS is
    written; the tables agree with replay_local."""
    trace_path, queues_path, trace, queues = inputs
    result = replay_spark(spark, trace_path, queues_path, tmp_path / "out")
    assert (result.input_rows, result.accepted, result.rejected) == (6, 5, 1)
    assert result.strategy == "files"
    tables = read_outputs(tmp_path / "out")
    outcome = dict(zip(tables["messages"]["msg_id"], tables["messages"]["outcome"], strict=True))
    assert outcome == {IDS[0]: "discarded", IDS[1]: "got", IDS[2]: "discarded"}
    assert "SEND" in tables["rejects"]["reason"].iloc[0]
    assert (tmp_path / "out" / "_SUCCESS").exists()
    assert not (tmp_path / "out" / "_staging").exists()
    assert_same_tables(tmp_path / "out", trace, queues)


def test_csv_inputs_replay_like_parquet(spark, tmp_path, inputs) -> None:
    """Tooling, no behaviour rule: a trace and definitions in CSV (with a header) replay to the
    same tables; CSV columns come in any order."""
    _, _, trace, queues = inputs
    trace[list(reversed(trace.columns))].to_csv(tmp_path / "trace.csv", index=False)
    queues.to_csv(tmp_path / "queues.csv", index=False)
    replay_spark(spark, tmp_path / "trace.csv", tmp_path / "queues.csv", tmp_path / "out")
    written = read_outputs(tmp_path / "out")
    # CSV cannot tell a null from an empty string: compare the tables that hold no text nulls
    for name in ("calls", "summary", "depth"):
        expected = replay_local(trace, queues).tables()[name]
        pd.testing.assert_frame_equal(canonical(written[name]), canonical(expected), obj=name)


def jobs_run_by(spark, action) -> tuple[list[int], str]:
    """The Spark jobs ``action`` started (it is expected to raise)."""
    context = spark.sparkContext
    context.setJobGroup("mqlearn-test-checks", "input checks")
    try:
        with pytest.raises((TraceError, SchemaError)) as caught:
            action()
    finally:
        context.setLocalProperty("spark.jobGroup.id", None)
    jobs = list(context.statusTracker().getJobIdsForGroup("mqlearn-test-checks"))
    return jobs, str(caught.value)


def test_missing_and_mistyped_columns_are_named_before_any_job(spark, tmp_path, inputs) -> None:
    """Tooling, no behaviour rule: every missing or mistyped column is named, and no Spark job
    has run when the error is raised."""
    _, queues_path, trace, _ = inputs
    bad = trace.drop(columns=["handle", "expiry"]).astype({"priority": "float64"})
    pq.write_table(pa.Table.from_pandas(bad, preserve_index=False), tmp_path / "bad.parquet")
    jobs, message = jobs_run_by(
        spark, lambda: replay_spark(spark, tmp_path / "bad.parquet", queues_path, tmp_path / "o")
    )
    assert jobs == []
    assert "'handle' is missing" in message and "'expiry' is missing" in message
    assert "'priority' has dtype float64" in message
    assert not (tmp_path / "o" / "messages").exists()


def test_nonexistent_empty_and_undefined_inputs_have_clear_messages(spark, tmp_path, inputs):
    """Tooling, no behaviour rule: a path that does not exist, an empty trace and queues the
    definitions lack each raise TraceError saying so; nothing is written."""
    trace_path, queues_path, trace, _ = inputs
    out = tmp_path / "out"
    with pytest.raises(TraceError, match="does not exist"):
        replay_spark(spark, tmp_path / "nowhere.parquet", queues_path, out)
    with pytest.raises(TraceError, match=r"queue definitions .* does not exist"):
        replay_spark(spark, trace_path, tmp_path / "nowhere", out)
    empty = write_parquet(trace.iloc[:0], TRACE_COLUMNS, tmp_path / "empty.parquet")
    with pytest.raises(TraceError, match="has no rows"):
        replay_spark(spark, empty, queues_path, out)
    only_q1 = write_parquet(queue_frame("Q1"), QUEUE_COLUMNS, tmp_path / "q1.parquet")
    with pytest.raises(TraceError, match="definitions lack: QMA/Q2"):
        replay_spark(spark, trace_path, only_q1, out)
    assert not out.exists() or not any(out.iterdir())


def test_bad_queue_definition_is_refused_by_name(spark, tmp_path, inputs) -> None:
    """EXP-28 (an expiry interval is 0..99999999 s): a bad definition raises ValueError naming
    the queue."""
    trace_path, _, _, _ = inputs
    queues = queue_frame("Q1", "Q2")
    queues.loc[1, "expiry_interval_s"] = -1
    bad = write_parquet(queues, QUEUE_COLUMNS, tmp_path / "bad_queues.parquet")
    with pytest.raises(ValueError, match=r"QMA/Q2: expiry_interval_s must be 0\.\.99999999"):
        replay_spark(spark, trace_path, bad, tmp_path / "out")


@pytest.mark.parametrize("strategy", ["auto", "shuffle"])
def test_reconcile_failure_fails_loudly_and_keeps_previous_outputs(
    spark, tmp_path, inputs, monkeypatch, strategy
) -> None:
    """Tooling, no behaviour rule: when input rows != accepted + rejected the job raises
    ReconcileError, the previous outputs stay as they were and the staging files are removed.
    (The input count is made one too many: the files' metadata's for "auto", Spark's for
    "shuffle".)"""

    trace_path, queues_path, _, _ = inputs
    out = tmp_path / "out"
    replay_spark(spark, trace_path, queues_path, out, strategy=strategy)
    before = read_outputs(out)
    if strategy == "auto":
        real_rows = spark_replay.file_rows

        def one_more(*args):
            found = real_rows(*args)
            found.loc[0] += 1
            return found

        monkeypatch.setattr(spark_replay, "file_rows", one_more)
    else:
        frame_class = type(spark.range(1))  # the classic DataFrame the reader returns
        real_count = frame_class.count
        monkeypatch.setattr(frame_class, "count", lambda frame: real_count(frame) + 1)
    with pytest.raises(ReconcileError, match="7 input rows"):
        replay_spark(spark, trace_path, queues_path, out, strategy=strategy)
    monkeypatch.undo()
    assert not (out / "_staging").exists()
    for name, frame in read_outputs(out).items():
        pd.testing.assert_frame_equal(frame, before[name])


def test_output_schemas_are_the_declared_ones(spark, tmp_path, inputs) -> None:
    """Tooling, no behaviour rule: every table is written with OUTPUT_COLUMNS' names and types
    (text read back as text, not as the dictionaries the replay writes), and the columns whose
    declared dtype has no nulls (int64, int32, bool) are marked as never null."""
    trace_path, queues_path, _, _ = inputs
    replay_spark(spark, trace_path, queues_path, tmp_path / "out")
    for name, columns in OUTPUT_COLUMNS.items():
        schema = pq.read_schema(next((tmp_path / "out" / name).glob("*.parquet")))
        assert schema.names == list(columns)
        assert schema.types == arrow_schema(columns).types
        required = [field.name for field in schema if not field.nullable]
        assert required == [
            c for c, dtype in columns.items() if dtype in ("int64", "int32", "bool")
        ]
