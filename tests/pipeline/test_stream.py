"""The streaming replay (issue 14): path to path, piece by piece, the tables of ``replay_local``.

Differential: ``replay_files`` against ``replay_local`` on traces from the generator (several
queue managers and queues, every family: browsing monitors, matched gets, reports, scans) laid
out in files three ways: whole queues per file in seq order, the whole trace in seq order, and
rows shuffled over files (which makes it regroup by queue first); pieces are small, so queues
are cut many times and their messages and cursors carried over. ``BatchReplay`` on the harsh
hypothesis traces of the Spark and engine differential tests (repeated seq values, time going
back, bad rows, every descriptor value) cut into pieces of 1-8 rows. Rules: EXP-03, EXP-06,
EXP-11, EXP-12, EXP-21..28, RPT-01, MD-02 through the replay; the row accounting and the
staging of outputs are the pipeline's own contracts.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mqlearn.cli import EXIT_BAD_INPUT, EXIT_OK, main
from mqlearn.pipeline import (
    OUTPUT_COLUMNS,
    QUEUE_COLUMNS,
    TRACE_COLUMNS,
    SchemaError,
    replay_local,
)
from mqlearn.pipeline.arrays import int_values
from mqlearn.pipeline.batches import BatchReplay, queue_pieces
from mqlearn.pipeline.files import TraceError, batches, open_source, read_outputs
from mqlearn.pipeline.generate import TraceSpec, generate_local
from mqlearn.pipeline.progress_bar import Progress
from mqlearn.pipeline.queues import queue_table
from mqlearn.pipeline.replay import trace_table
from mqlearn.pipeline.spark import arrow_to_pandas
from mqlearn.pipeline.stream import replay_files
from mqlearn.pipeline.validate import NAME_COLUMNS, IntColumn, queue_positions, repeated_seq
from tests.pipeline import test_differential_engine as engine_tests
from tests.pipeline import test_spark_replay as spark_tests
from tests.pipeline.test_spark_replay import canonical, write_parquet

LAYOUTS = ("whole queues", "seq order", "shuffled")


def write_layout(trace: pd.DataFrame, layout: str, directory: Path, seed: int) -> Path:
    """The trace as three Parquet files: whole queues each (queues in definition order, rows
    in seq order), the trace in seq order cut in three, or rows shuffled over the files."""
    directory.mkdir()
    if layout == "whole queues":
        trace = trace.sort_values(["qmgr", "queue", "seq"], kind="mergesort")
        keys = pd.factorize(trace["qmgr"] + "/" + trace["queue"])[0] % 3
        parts = [np.flatnonzero(keys == k) for k in range(3)]
    else:
        if layout == "shuffled":
            trace = trace.sample(frac=1, random_state=seed)
        parts = np.array_split(np.arange(len(trace)), 3)
    for k, rows in enumerate(parts):
        write_parquet(trace.iloc[rows], TRACE_COLUMNS, directory / f"part-{k}.parquet")
    return directory


def assert_same_as_replay_local(out: Path, trace: pd.DataFrame, queues: pd.DataFrame, **kw) -> None:
    expected = replay_local(trace, queues, **kw).tables()
    written = read_outputs(out)
    for name, table in expected.items():
        pd.testing.assert_frame_equal(canonical(written[name]), canonical(table), obj=name)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    layout=st.sampled_from(LAYOUTS),
    batch_rows=st.sampled_from([300, 2000, 100_000]),
    after_end=st.sampled_from([None, 0, 600_000]),
)
def test_exp21_28_replay_files_equals_replay_local(
    tmp_path_factory, seed, layout, batch_rows, after_end
) -> None:
    """EXP-21..28, RPT-01, MD-02: whatever the layout and the cuts, the files hold replay_local's
    tables (end_ms too: scans after the last row, EXP-28)."""
    spec = TraceSpec(seed=seed, events=6000, queues=7, qmgrs=2, hours=1, bursty_share=0.5)
    trace, queues = generate_local(spec)
    root = tmp_path_factory.mktemp("stream")
    trace_path = write_layout(trace, layout, root / "trace", seed)
    queues_path = write_parquet(queues, QUEUE_COLUMNS, root / "queues.parquet")
    end_ms = None if after_end is None else int(trace["time_ms"].max()) + after_end
    result = replay_files(
        trace_path, queues_path, root / "out", batch_rows=batch_rows, end_ms=end_ms
    )
    assert result.input_rows == len(trace) == result.accepted + result.rejected
    assert result.regrouped == (layout == "shuffled")
    assert result.pieces >= len(trace) // batch_rows
    assert_same_as_replay_local(root / "out", trace, queues, end_ms=end_ms)


@pytest.mark.parametrize("layout", ["rising", "seq order", "one swap", "shuffled"])
def test_the_index_pass_counts_queues_checks_seq_order_and_finds_repeats(
    tmp_path, monkeypatch, layout
) -> None:
    """Tooling: the index pass (in batches of 97 rows) against numpy on the whole trace: rows
    per defined queue (null seq values counted, undefined or null queues not), whether every
    queue's seq values increase through the files (rows without a seq or a queue left out;
    "one swap": in seq order but for the first row of the second batch and the row of its
    queue before it, swapped), and the seq values that occur more than once ("rising": in seq
    order without repeats, which the pass finds keeping no value; in the others seq values
    stop rising in some batch, and those of the batches before are read again)."""
    from mqlearn.pipeline import stream

    monkeypatch.setattr(stream, "INDEX_ROWS", 97)
    trace, queues = generate_local(TraceSpec(seed=5, events=3000, queues=5, qmgrs=2, hours=1))
    rng = np.random.default_rng(5)
    trace = (
        trace.sample(frac=1, random_state=5) if layout == "shuffled" else trace.sort_values("seq")
    )
    trace = trace.reset_index(drop=True).astype({"seq": "Int64"})
    trace.loc[rng.choice(len(trace), 40, replace=False), "seq"] = pd.NA
    trace.loc[rng.choice(len(trace), 30, replace=False), "queue"] = "NOT.DEFINED"
    trace.loc[rng.choice(len(trace), 20, replace=False), "qmgr"] = None
    if layout != "rising":
        later = rng.choice(np.arange(len(trace) // 2, len(trace)), 15, replace=False)
        # repeats, on rows of no defined queue (which leave the queues' seq order as it was)
        trace.loc[later, "seq"] = trace["seq"].to_numpy()[later - len(trace) // 2]
        trace.loc[later, "queue"] = "NOT.DEFINED"
    if layout == "one swap":  # row 97 and the row before it on its queue, both with a seq
        same = (trace["qmgr"] == trace.at[97, "qmgr"]) & (trace["queue"] == trace.at[97, "queue"])
        before = int(
            np.flatnonzero(same.to_numpy()[:97] & trace["seq"].notna().to_numpy()[:97])[-1]
        )
        trace.loc[[before, 97], "seq"] = trace["seq"].to_numpy()[[97, before]]
    path = write_parquet(trace, TRACE_COLUMNS, tmp_path / "trace.parquet")
    source = open_source(path, "trace", TRACE_COLUMNS, NAME_COLUMNS)
    definitions = queue_table(queues)
    index = stream.index_trace(source, definitions, tmp_path / "spill", Progress())
    part = queue_positions(pq.read_table(path), definitions)
    seq = trace["seq"].to_numpy(dtype="float64", na_value=np.nan)
    assert index.rows == len(trace)
    assert index.per_queue.tolist() == np.bincount(part[part >= 0], minlength=len(queues)).tolist()
    ok = (part >= 0) & ~np.isnan(seq)
    frame = pd.DataFrame({"part": part[ok], "seq": seq[ok]})
    increasing = frame.groupby("part")["seq"].apply(lambda s: bool(s.diff().dropna().gt(0).all()))
    assert index.in_order == bool(increasing.all()) == (layout in ("rising", "seq order"))
    values, counts = np.unique(seq[~np.isnan(seq)], return_counts=True)
    assert index.repeated.tolist() == values[counts > 1].astype(np.int64).tolist()
    assert (len(index.repeated) == 0) == (layout == "rising")


def test_repeated_seq_values_found_through_spill_files(tmp_path, monkeypatch) -> None:
    """Tooling (the row accounting): seq values repeated across queues and files are found when
    the index spills them to hash buckets, and every row carrying one is rejected as
    replay_local rejects it; the rest replays the same."""
    from mqlearn.pipeline import stream

    monkeypatch.setattr(stream, "REPEAT_LIMIT", 500)
    trace, queues = generate_local(TraceSpec(seed=11, events=4000, queues=5, qmgrs=2, hours=1))
    rng = np.random.default_rng(11)
    copied = rng.choice(len(trace), size=(2, 30), replace=False)
    trace.loc[trace.index[copied[0]], "seq"] = trace["seq"].to_numpy()[copied[1]]
    trace_path = write_layout(trace, "shuffled", tmp_path / "trace", 11)
    queues_path = write_parquet(queues, QUEUE_COLUMNS, tmp_path / "queues.parquet")
    result = replay_files(trace_path, queues_path, tmp_path / "out", batch_rows=700)
    assert result.rejected == 60 and result.regrouped
    assert_same_as_replay_local(tmp_path / "out", trace, queues)


def replay_in_pieces(
    trace: pd.DataFrame,
    queues: pd.DataFrame,
    size: int,
    after: Callable[[BatchReplay], None] | None = None,
) -> dict:
    """BatchReplay over the trace in seq order, ``size`` rows a piece (each queue closed when
    its last row is read), ``after`` called with it after each piece; the tables as
    replay_local gives them."""
    table = trace_table(trace)
    table = table.take(pa.array(np.argsort(trace["seq"].to_numpy(), kind="stable")))
    definitions = queue_table(queues)
    repeated = repeated_seq(IntColumn(*int_values(table["seq"])))
    position = queue_positions(table, definitions)
    total = np.bincount(position[position >= 0], minlength=len(definitions))
    replay = BatchReplay(definitions, repeated=repeated, rows_per_queue=total)
    outputs: dict[str, list[pa.Table]] = {}
    for start in range(0, table.num_rows, size):
        piece = replay.replay(table.slice(start, size))
        for name, output in piece.tables().items():
            outputs.setdefault(name, []).append(output)
        if after is not None:
            after(replay)
    tables = {name: pa.concat_tables(parts) for name, parts in outputs.items()}
    tables["summary"] = replay.summary()
    return {name: arrow_to_pandas(t, OUTPUT_COLUMNS[name]) for name, t in tables.items()}


HARSH = st.one_of(
    st.tuples(spark_tests.traces(), spark_tests.definitions()), engine_tests.scenarios()
)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(inputs=HARSH, size=st.integers(1, 8))
def test_exp21_28_pieces_replay_like_one_piece(inputs, size) -> None:
    """EXP-03, EXP-06, EXP-21..28, RPT-01, MD-02: cut after any row, a trace replays to the same
    tables: still-queued messages, browse cursors (on messages gone since), time order and the
    counts carry over; repeated seq values and bad rows are rejected as in one piece."""
    trace, queues = inputs
    expected = replay_local(trace, queues).tables()
    got = replay_in_pieces(trace, queues, size)
    for name, table in expected.items():
        pd.testing.assert_frame_equal(canonical(got[name]), canonical(table), obj=name)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(inputs=HARSH, size=st.integers(1, 8))
def test_exp21_28_queue_pieces_replay_like_one_piece(inputs, size) -> None:
    """EXP-03, EXP-06, EXP-21..28, RPT-01, MD-02: a table cut by ``queue_pieces`` (as a Spark
    task cuts a big file and the streaming replay a big queue) replays to replay_local's tables;
    no cut falls between two rows of one queue and seq, and without such repeats every piece
    has at most ``size`` rows."""
    trace, queues = inputs
    table = trace_table(trace)
    definitions = queue_table(queues)
    position = queue_positions(table, definitions)
    total = np.bincount(position[position >= 0], minlength=len(definitions))
    repeated = repeated_seq(IntColumn(*int_values(table["seq"])))
    replay = BatchReplay(definitions, repeated=repeated, rows_per_queue=total)
    pieces = list(queue_pieces(table, definitions, size))
    assert sum(piece.num_rows for piece in pieces) == table.num_rows
    keys = [
        list(zip(queue_positions(p, definitions), int_values(p["seq"])[0], strict=True))
        for p in pieces
    ]
    for before, after in pairwise(keys):
        assert before[-1] != after[0]
    if not trace.duplicated(["qmgr", "queue", "seq"]).any() and table.num_rows > size:
        assert max(piece.num_rows for piece in pieces) <= size
    outputs: dict[str, list[pa.Table]] = {}
    for piece in pieces:
        for name, output in replay.replay(piece).tables().items():
            outputs.setdefault(name, []).append(output)
    got = {name: pa.concat_tables(parts) for name, parts in outputs.items()}
    got["summary"] = replay.summary()
    expected = replay_local(trace, queues).tables()
    for name, frame in expected.items():
        mine = arrow_to_pandas(got[name], OUTPUT_COLUMNS[name])
        pd.testing.assert_frame_equal(canonical(mine), canonical(frame), obj=name)


def test_a_piece_before_an_earlier_one_is_an_error() -> None:
    """Tooling: a queue's rows must come in seq order across pieces; a cut that breaks it
    raises instead of replaying wrongly (all at one time here: no row goes back in time)."""
    trace, queues = generate_local(TraceSpec(seed=3, events=400, queues=1, qmgrs=1, hours=1))
    table = trace_table(trace.assign(time_ms=0))
    replay = BatchReplay(queue_table(queues), rows_per_queue=np.array([table.num_rows]))
    replay.replay(table.slice(100))
    with pytest.raises(ValueError, match=r"rows before .* rows of an earlier piece"):
        replay.replay(table.slice(0, 100))


class Recorder(Progress):
    """Captures what a job reports."""

    def __init__(self) -> None:
        self.events: list[tuple[str, object]] = []

    def start(self, task: str, total: int | None, unit: str = "rows") -> None:
        self.events.append(("start", (task, total, unit)))

    def update(self, done: int) -> None:
        self.events.append(("update", done))

    def finish(self) -> None:
        self.events.append(("finish", None))


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> tuple[Path, Path, pd.DataFrame, pd.DataFrame]:
    trace, queues = generate_local(TraceSpec(seed=5, events=5000, queues=6, qmgrs=2, hours=1))
    root = tmp_path_factory.mktemp("generated")
    trace_path = write_parquet(trace, TRACE_COLUMNS, root / "trace.parquet")
    queues_path = write_parquet(queues, QUEUE_COLUMNS, root / "queues.parquet")
    return trace_path, queues_path, trace, queues


@pytest.mark.parametrize("layout", ["one file", "shuffled", "small files"])
def test_pieces_stay_within_batch_rows_and_progress_is_reported(
    generated, tmp_path, monkeypatch, layout
) -> None:
    """Tooling: no piece holds more than batch_rows rows of the trace (the memory bound), also
    when a queue bigger than a piece is regrouped and cut, and when the short last batches of
    small files share pieces; the passes report their rows."""
    trace_path, queues_path, trace, _ = generated
    shuffled = layout == "shuffled"
    if shuffled:
        trace_path = write_parquet(trace.sample(frac=1, random_state=0), TRACE_COLUMNS,
                                   tmp_path / "shuffled.parquet")  # fmt: skip
    if layout == "small files":  # 5000 rows in 33 files: two files a piece
        trace_path = tmp_path / "small"
        trace_path.mkdir()
        for k, rows in enumerate(np.array_split(np.arange(len(trace)), 33)):
            write_parquet(trace.iloc[rows], TRACE_COLUMNS, trace_path / f"part-{k:02d}.parquet")
    sizes = []
    real_check = BatchReplay.check

    def recording(self, rows):
        sizes.append(rows.num_rows)
        return real_check(self, rows)

    monkeypatch.setattr(BatchReplay, "check", recording)
    recorder = Recorder()
    result = replay_files(trace_path, queues_path, tmp_path / "out", batch_rows=400,
                          progress=recorder)  # fmt: skip
    assert max(sizes) <= 400 and sum(sizes) == len(trace) == result.input_rows
    if layout == "small files":  # two files of 151 or 152 rows a piece
        assert min(sizes[:-1]) >= 300 and len(sizes) == 17
    assert result.pieces == len(sizes) and result.regrouped == shuffled
    tasks = [value[0] for kind, value in recorder.events if kind == "start"]
    assert tasks == (["index", "regroup", "replay"] if shuffled else ["index", "replay"])
    assert ("start", ("replay", len(trace), "rows")) in recorder.events
    updates = [value for kind, value in recorder.events if kind == "update"]
    assert updates[-1] == len(trace) and recorder.events[-1] == ("finish", None)


def test_a_trace_file_is_read_without_pre_buffering(generated) -> None:
    """Tooling: pyarrow pre-buffers a Parquet file's column chunks by default and keeps them
    until the whole file is read: on a 100M-row trace in one file the Arrow memory held grew
    by 3.4 MB a batch, to 2 GiB (peak 3.15 GiB against 1.81 GiB without it; small files do
    not show it, so the option itself is checked here)."""
    trace_path, _, trace, _ = generated
    source = open_source(trace_path, "trace", TRACE_COLUMNS, NAME_COLUMNS)
    options = source.dataset.format.default_fragment_scan_options
    assert options.pre_buffer is False
    assert sum(b.num_rows for b in batches(source, list(TRACE_COLUMNS), 700)) == len(trace)


def test_csv_trace_replays_like_parquet(generated, tmp_path) -> None:
    """Tooling: a CSV trace (columns in any order) gives the Parquet trace's tables; CSV cannot
    tell a null from an empty string, so the tables without text nulls are compared."""
    _, queues_path, trace, queues = generated
    trace[list(reversed(trace.columns))].to_csv(tmp_path / "trace.csv", index=False)
    replay_files(tmp_path / "trace.csv", queues_path, tmp_path / "out")
    written = read_outputs(tmp_path / "out")
    for name in ("calls", "summary", "depth"):
        expected = replay_local(trace, queues).tables()[name]
        pd.testing.assert_frame_equal(canonical(written[name]), canonical(expected), obj=name)


def test_bad_inputs_are_named_and_outputs_stay(generated, tmp_path) -> None:
    """Tooling: a path that does not exist, missing columns, an empty trace and an end_ms
    before the last row (in the first piece or a later one) each raise with a message, and
    earlier outputs stay as they were."""
    trace_path, queues_path, trace, _ = generated
    out = tmp_path / "out"
    replay_files(trace_path, queues_path, out)
    before = read_outputs(out)
    with pytest.raises(TraceError, match="does not exist"):
        replay_files(tmp_path / "nowhere", queues_path, out)
    pq.write_table(pa.Table.from_pandas(trace.drop(columns=["handle"])), tmp_path / "bad.parquet")
    with pytest.raises(SchemaError, match="'handle' is missing"):
        replay_files(tmp_path / "bad.parquet", queues_path, out)
    empty = write_parquet(trace.iloc[:0], TRACE_COLUMNS, tmp_path / "empty.parquet")
    with pytest.raises(TraceError, match="has no rows"):
        replay_files(empty, queues_path, out)
    with pytest.raises(ValueError, match="end_ms 5 is before the last row's time_ms"):
        replay_files(trace_path, queues_path, out, end_ms=5)
    # found in a later piece, checked in its thread while the one before replays
    middle = int(trace["time_ms"].median())
    with pytest.raises(ValueError, match=f"end_ms {middle} is before the last row's time_ms"):
        replay_files(trace_path, queues_path, out, end_ms=middle, batch_rows=500)
    assert not (out / "_staging").exists()
    for name, frame in read_outputs(out).items():
        pd.testing.assert_frame_equal(frame, before[name])


def test_cli_runs_the_local_engine_without_spark(generated, tmp_path, capsys, monkeypatch):
    """Tooling: ``mqlearn pipeline run --engine local`` replays in this process (no Spark
    session starts), prints the counts, is quiet on a non-terminal stderr, and answers bad
    input with exit code 2; it makes jemalloc Arrow's memory pool (where pyarrow has it)."""
    import mqlearn.pipeline.spark

    def no_spark(*args, **kwargs):
        raise AssertionError("the local engine started Spark")

    monkeypatch.setattr(mqlearn.pipeline.spark, "spark_session", no_spark)  # the CLI's import
    monkeypatch.delenv("ARROW_DEFAULT_MEMORY_POOL", raising=False)  # which the CLI sets
    trace_path, queues_path, trace, _ = generated
    out = tmp_path / "out"
    previous = pa.default_memory_pool()
    command = f"pipeline run --engine local --trace {trace_path} --queues {queues_path}"
    assert main([*command.split(), "--out", str(out), "--batch-rows", "1000"]) == EXIT_OK
    captured = capsys.readouterr()
    pieces = -(-len(trace) // 1000)
    assert f"{len(trace)} rows: {len(trace)} accepted, 0 rejected ({pieces} pieces)" in captured.out
    assert captured.err.splitlines() == [
        f"replaying {trace_path} with {queues_path} in this process"
    ]
    assert (out / "_SUCCESS").exists()
    try:
        expected = pa.jemalloc_memory_pool().backend_name  # the CLI's choice, where it exists
    except NotImplementedError:
        expected = previous.backend_name
    assert pa.default_memory_pool().backend_name == expected
    pa.set_memory_pool(previous)
    bad = f"pipeline run --engine local --trace {tmp_path / 'nowhere'} --queues {queues_path}"
    assert main([*bad.split(), "--out", str(out)]) == EXIT_BAD_INPUT
    assert "does not exist" in capsys.readouterr().err


def test_cli_local_engine_reads_the_trace_with_jemalloc_too(generated, tmp_path) -> None:
    """Tooling (peak memory, docs/pipeline.md): run as a command, the local engine makes
    jemalloc the allocator of everything Arrow allocates, the Parquet reader's buffers too
    (``pyarrow.set_memory_pool`` alone leaves the reader on mimalloc): mimalloc is never used."""
    try:
        pa.jemalloc_memory_pool()
    except NotImplementedError:
        pytest.skip("this pyarrow has no jemalloc")
    trace_path, queues_path, _, _ = generated
    command = [
        *f"pipeline run --engine local --trace {trace_path} --queues {queues_path}".split(),
        *("--out", str(tmp_path / "out"), "--quiet"),
    ]
    script = (
        "import sys; from mqlearn.cli import main; code = main(sys.argv[1:]); "
        "import pyarrow as pa; "
        "print(code, pa.mimalloc_memory_pool().max_memory(), pa.jemalloc_memory_pool().max_memory())"
    )
    env = {k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
    done = subprocess.run(
        [sys.executable, "-c", script, *command], env=env, capture_output=True, text=True
    )
    code, mimalloc, jemalloc = map(int, done.stdout.split()[-3:])
    assert (code, mimalloc) == (EXIT_OK, 0) and jemalloc > 0, done.stderr
