"""The ``mqlearn pipeline`` command line (issue 5): generate, run and sweep, exit codes, messages.

Tooling, no behaviour rule: what is checked is that the commands do their work, report it, and
answer bad input with a message naming the problem and exit code 2 (1 when a job fails).
In-process calls of ``main`` share the test session's ``local[2]`` Spark; one subprocess runs
``python -m mqlearn.cli`` from a shell's point of view.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from mqlearn.cli import EXIT_BAD_INPUT, EXIT_OK, main
from mqlearn.pipeline import QUEUE_COLUMNS, TRACE_COLUMNS, queues_of
from tests.pipeline.conftest import TEST_MASTER
from tests.pipeline.test_spark_replay import write_parquet
from tests.pipeline.test_trace_from_events_channels import linked, put, replay

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def cli(command: str) -> int:
    """``main`` on a command line written as in a shell, on the test session's Spark."""
    return main([*shlex.split(command), "--master", TEST_MASTER])


@pytest.fixture(scope="module")
def generated(spark, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cli") / "gen"
    code = cli(f"pipeline generate --out {out} --events 3000 --queues 4 --hours 1 --seed 9 --quiet")
    assert code == EXIT_OK
    return out


def test_generate_writes_trace_and_definitions(generated) -> None:
    assert (generated / "trace").is_dir() and (generated / "queues").is_dir()
    rows = pq.read_table(generated / "trace").num_rows
    assert 2000 < rows < 4000


def test_run_replays_and_reports_counts(spark, generated, tmp_path, capsys) -> None:
    out = tmp_path / "out"
    code = cli(
        f"pipeline run --trace {generated / 'trace'} --queues {generated / 'queues'} --out {out}"
    )
    captured = capsys.readouterr()
    assert code == EXIT_OK, captured.err
    rows = pq.read_table(generated / "trace").num_rows
    assert f"{rows} rows: {rows} accepted, 0 rejected" in captured.out
    assert "replaying" in captured.err
    for name in ("messages", "calls", "depth", "summary", "rejects"):
        assert (out / name).is_dir() and f"{out / name}:" in captured.out


def test_run_logs_the_spark_settings_it_chose(spark, generated, tmp_path, capsys) -> None:
    """Issue 27: one line on stderr names the chosen settings and what they came from; the
    user's ``--driver-memory`` and ``--conf`` win and are named."""
    trace, queues = generated / "trace", generated / "queues"
    code = cli(f"pipeline run --trace {trace} --queues {queues} --out {tmp_path / 'a'} --quiet")
    err = capsys.readouterr().err
    assert code == EXIT_OK, err
    (line,) = [text for text in err.splitlines() if text.startswith("spark settings:")]
    # a small trace: Spark's 1 GiB (plus twice a few hundred KiB), two shuffle tasks a core
    assert re.search(r"master local\[2\], spark\.driver\.memory=(1g|102\dm),", line), line
    assert "spark.sql.shuffle.partitions=4, strategy auto" in line, line
    assert "2 local cores" in line and "files" in line, line
    code = cli(
        f"pipeline run --trace {trace} --queues {queues} --out {tmp_path / 'b'} --quiet "
        "--driver-memory 3g --conf spark.sql.shuffle.partitions=3 --strategy shuffle"
    )
    err = capsys.readouterr().err
    assert code == EXIT_OK, err
    assert "spark.driver.memory=3g, spark.sql.shuffle.partitions=3, strategy shuffle" in err
    assert "given: --driver-memory, --conf spark.sql.shuffle.partitions, --strategy" in err
    code = cli(f"pipeline run --trace {trace} --queues {queues} --out {tmp_path} --conf oops")
    assert code == EXIT_BAD_INPUT
    assert "--conf 'oops': expected KEY=VALUE" in capsys.readouterr().err


def bad_run(tmp_path: Path, trace: Path, queues: Path, capsys) -> tuple[int, str]:
    code = cli(f"pipeline run --trace {trace} --queues {queues} --out {tmp_path / 'out'} --quiet")
    return code, capsys.readouterr().err


def test_bad_inputs_exit_2_with_a_message(spark, generated, tmp_path, capsys) -> None:
    trace, queues = generated / "trace", generated / "queues"
    code, err = bad_run(tmp_path, tmp_path / "nowhere", queues, capsys)
    assert code == EXIT_BAD_INPUT and "does not exist" in err
    frame = pq.read_table(trace).to_pandas()
    empty = write_parquet(frame.iloc[:0], TRACE_COLUMNS, tmp_path / "empty.parquet")
    code, err = bad_run(tmp_path, empty, queues, capsys)
    assert code == EXIT_BAD_INPUT and "has no rows" in err
    renamed = pq.read_table(trace).rename_columns(
        ["operation" if name == "op" else name for name in frame.columns]
    )
    pq.write_table(renamed, tmp_path / "renamed.parquet")
    code, err = bad_run(tmp_path, tmp_path / "renamed.parquet", queues, capsys)
    assert code == EXIT_BAD_INPUT and "column 'op' is missing" in err
    definitions = pq.read_table(queues)
    pq.write_table(definitions.slice(1), tmp_path / "fewer.parquet")  # the first one dropped
    code, err = bad_run(tmp_path, trace, tmp_path / "fewer.parquet", capsys)
    first = definitions.slice(0, 1).to_pylist()[0]
    assert code == EXIT_BAD_INPUT and f"{first['qmgr']}/{first['queue']}" in err
    assert not (tmp_path / "out" / "messages").exists()


@pytest.mark.parametrize("engine", ["spark", "local"])
def test_run_reads_the_schema_version_it_is_told(spark, engine, tmp_path, capsys) -> None:
    """``run --schema-version 1``: the ARRIVE row of a channel session is a reject naming the
    version it needs, on either engine; the default (2) replays it; 3 is a usage error."""
    link = linked(latency_ms=2000)
    put(link, Expiry=10)
    link.sim.advance(seconds=3)
    trace, _ = replay(link)
    trace_path = write_parquet(trace, TRACE_COLUMNS, tmp_path / "trace.parquet")
    queues_path = write_parquet(queues_of(*link.qms), QUEUE_COLUMNS, tmp_path / "queues.parquet")
    rows = len(trace)
    for version, rejected in (("1", 1), ("2", 0)):
        out = tmp_path / f"out-{version}"
        command = f"pipeline run --engine {engine} --trace {trace_path} --queues {queues_path}"
        code = cli(f"{command} --out {out} --schema-version {version} --quiet")
        captured = capsys.readouterr()
        assert code == EXIT_OK, captured.err
        assert f"{rows} rows: {rows - rejected} accepted, {rejected} rejected" in captured.out
        reasons = pq.read_table(out / "rejects").column("reason").to_pylist()
        assert reasons == ["op 'ARRIVE' needs trace schema v2; this trace is schema v1, whose ops "
                           "are PUT, GET, BROWSE_FIRST, BROWSE_NEXT"] * rejected  # fmt: skip
    with pytest.raises(SystemExit) as caught:
        main(
            [
                "pipeline",
                "run",
                "--trace",
                "t",
                "--queues",
                "q",
                "--out",
                "o",
                "--schema-version",
                "3",
            ]
        )
    assert caught.value.code == 2


def test_sweep_writes_one_table(spark, tmp_path, capsys) -> None:
    out = tmp_path / "sweep.csv"
    knobs = "--outage-s 0 600 --ttl short --priority-mix default --expiry-interval-s 0"
    code = cli(f"pipeline sweep --out {out} {knobs} --capexpry -1 --hours 0.5 --quiet")
    assert code == EXIT_OK
    assert pd.read_csv(out)["outage_s"].tolist() == [0.0, 600.0]
    assert "2 scenarios" in capsys.readouterr().out
    code = cli(f"pipeline sweep --out {tmp_path / 'sweep.txt'} --quiet")
    assert code == EXIT_BAD_INPUT and "written as .csv or .parquet" in capsys.readouterr().err


def test_usage_errors_exit_2() -> None:
    with pytest.raises(SystemExit) as caught:
        main(["pipeline", "run", "--trace", "t"])
    assert caught.value.code == 2


def test_python_m_mqlearn_cli(tmp_path) -> None:
    """The module runs as a command: help, then a small generate in its own Spark."""
    help_text = subprocess.run(
        [sys.executable, "-m", "mqlearn.cli", "pipeline", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert all(action in help_text for action in ("run", "generate", "sweep"))
    command = f"-m mqlearn.cli pipeline generate --out {tmp_path} --events 500 --queues 2"
    done = subprocess.run(
        [sys.executable, *shlex.split(command), "--qmgrs", "1", "--master", TEST_MASTER],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == EXIT_OK, done.stderr[-2000:]
    assert "rows in" in done.stdout and (tmp_path / "trace").is_dir()
