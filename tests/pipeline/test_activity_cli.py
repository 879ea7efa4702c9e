"""``mqlearn pipeline import-activity`` (issue 14, item 4): writes the imported trace, its
rejects and queue definitions; answers bad input with a message naming the file (and line) and
exit code 2. Tooling, no behaviour rule. It runs in this process, without Spark."""

from __future__ import annotations

import shlex
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

import mqlearn.pipeline.spark
from mqlearn.cli import EXIT_BAD_INPUT, EXIT_OK, main
from mqlearn.pipeline import QUEUE_COLUMNS, replay_local
from mqlearn.pipeline.activity import IMPORT_COLUMNS, REJECT_COLUMNS

DATA = Path(__file__).resolve().parents[1] / "data" / "activity"
TRACE = DATA / "orders.amqsact.txt"


@pytest.fixture(autouse=True)
def no_spark(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("import-activity started Spark")

    monkeypatch.setattr(mqlearn.pipeline.spark, "spark_session", refuse)  # where the CLI takes it


def cli(command: str) -> int:
    return main(["pipeline", "import-activity", *shlex.split(command)])


def test_import_writes_trace_rejects_and_definitions(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    code = cli(
        f"--format amqsact {TRACE} {out / 'trace.parquet'} --rejects {out / 'rejects.csv'}"
        f" --queues-out {out / 'queues.parquet'} --start 2024-03-14T09:00:00"
    )
    captured = capsys.readouterr()
    assert code == EXIT_OK, captured.err
    assert "25 operations: 11 trace rows on 2 queues, 14 rejected" in captured.out
    assert "rejected, failed call: 1" in captured.out
    trace = pq.read_table(out / "trace.parquet").to_pandas()
    assert list(trace.columns) == list(IMPORT_COLUMNS)
    assert trace["time_ms"].tolist()[:2] == [100, 200]
    rejects = pd.read_csv(out / "rejects.csv")
    assert list(rejects.columns) == list(REJECT_COLUMNS) and len(rejects) == 14
    queues = pq.read_table(out / "queues.parquet").to_pandas()
    assert list(queues.columns) == list(QUEUE_COLUMNS)
    result = replay_local(trace, queues)  # what the command wrote is a trace the replay takes
    assert result.rejected == 0 and result.accepted == 11


def test_defaults_and_definitions_come_from_the_options(tmp_path: Path, capsys) -> None:
    definitions = tmp_path / "defs.csv"
    pd.DataFrame(
        [["QM1", "APP.ORDERS", "FIFO", 0, 10, -1, "distributed", 60]], columns=list(QUEUE_COLUMNS)
    ).to_csv(definitions, index=False)
    out = tmp_path / "trace.parquet"
    queues = tmp_path / "queues.csv"
    code = cli(
        f"--format amqsevt-json {DATA / 'orders.amqsevt.json'} {out} --queues {definitions}"
        f" --queues-out {queues} --expiry-interval-s 60 --maxdepth 7 --get-match msg_id"
    )
    assert code == EXIT_OK, capsys.readouterr().err
    written = pd.read_csv(queues).set_index("queue")
    assert written.loc["APP.ORDERS", "msgdlvsq"] == "FIFO"
    assert written.loc["APP.AUDIT", "maxdepth"] == 7
    trace = pq.read_table(out).to_pandas()
    assert trace["match_options"].max() == 1
    code = cli(f"--format amqsact {TRACE} {out} --queues {definitions} --no-defaults")
    assert code == EXIT_OK
    assert "rejected, no definition: 3" in capsys.readouterr().out


@pytest.mark.parametrize(
    "arguments, message",
    [
        ("--format amqsact {tmp}/nowhere.txt {tmp}/t.parquet", "cannot read"),
        (
            "--format amqsevt-json {data}/orders.amqsact.txt {tmp}/t.parquet",
            "orders.amqsact.txt:1:1",
        ),
        ("--format amqsact {data}/orders.amqsevt.json {tmp}/t.parquet", "orders.amqsevt.json:2:"),
        ("--format amqsact {data}/orders.amqsact.txt {tmp}/t.txt", "written as .parquet or .csv"),
        ("--format amqsact {data}/orders.amqsact.txt {tmp}/t.csv --start noon", "--start 'noon'"),
        ("--format amqsact {data}/orders.amqsact.txt {tmp}/t.csv --profile vms", "profile"),
    ],
)
def test_bad_input_exits_2_with_a_message(
    arguments: str, message: str, tmp_path: Path, capsys
) -> None:
    code = cli(arguments.format(tmp=tmp_path, data=DATA))
    err = capsys.readouterr().err
    assert code == EXIT_BAD_INPUT
    assert "mqlearn: error:" in err and message in err


def test_an_unknown_format_is_a_usage_error(capsys) -> None:
    with pytest.raises(SystemExit) as caught:
        cli(f"--format xml {TRACE} out.parquet")
    assert caught.value.code == EXIT_BAD_INPUT
    assert "invalid choice: 'xml'" in capsys.readouterr().err
