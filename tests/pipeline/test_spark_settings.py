"""Tooling, no behaviour rule: the Spark settings the CLI chooses (issue 27), without Spark.

A small and a large trace on a 2-core laptop and on a big machine, a cluster master, the user's
overrides, and the trace's sizes as read from its files: each checked against the rule written in
docs/pipeline.md ("Spark settings the CLI chooses"), worked out by hand here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mqlearn.cli import DEFAULT_MASTER
from mqlearn.pipeline import spark as spark_module
from mqlearn.pipeline import spark_replay
from mqlearn.pipeline.spark_settings import (
    GIB,
    MIB,
    Machine,
    TraceFiles,
    choose,
    local_cores,
    memory_text,
    parse_conf,
)

LAPTOP = Machine(cores=2, memory_bytes=24 * GIB)
SMALL_BOX = Machine(cores=4, memory_bytes=8 * GIB)
SMALL = TraceFiles(bytes=600 * 1024, files=8)  # 20k events as the generator writes them
LARGE = TraceFiles(bytes=376 * MIB, files=41)  # 20M events over 1000 queues
HUGE = TraceFiles(bytes=1900 * MIB, files=201)  # 100M events


def test_small_trace_on_a_laptop_gets_spark_defaults_and_two_tasks_a_core() -> None:
    settings = choose("local[*]", LAPTOP, SMALL)
    # 1 GiB + 2 x 600 KiB, in MiB as the JVM takes it
    assert settings.conf == {
        "spark.driver.memory": "1025m",
        "spark.sql.shuffle.partitions": "4",
    }
    assert settings.strategy == "auto" and settings.partitions is None


def test_large_traces_get_a_heap_that_grows_with_them_up_to_4g() -> None:
    assert choose("local[2]", LAPTOP, LARGE).conf["spark.driver.memory"] == "1776m"  # 1024+752
    assert choose("local[*]", LAPTOP, HUGE).conf["spark.driver.memory"] == "4g"  # the cap
    # a quarter of 8 GiB is below 4 GiB: 2 GiB
    assert choose("local[*]", SMALL_BOX, HUGE).conf["spark.driver.memory"] == "2g"
    assert choose("local[*]", SMALL_BOX, HUGE).conf["spark.sql.shuffle.partitions"] == "8"
    assert choose("local[*]", LAPTOP, LARGE).strategy == "auto"


def test_a_big_trace_in_one_file_keeps_the_files_strategy() -> None:
    """Measured: 4M events in one 78 MiB file, files 59 s against shuffle 186 s (load 9-14)."""
    one_file = TraceFiles(bytes=200 * MIB, files=1)
    assert choose("local[*]", LAPTOP, one_file).strategy == "auto"
    assert choose("local[*]", LAPTOP, TraceFiles(200 * MIB, 1, csv=True)).strategy == "auto"


def test_a_cluster_keeps_its_own_memory_and_parallelism() -> None:
    settings = choose("spark://head:7077", LAPTOP, HUGE)
    assert settings.conf == {}  # no local heap sized for a remote cluster
    assert settings.strategy == "auto" and settings.partitions is None
    assert "cluster" in settings.describe()


def test_the_users_settings_win_and_are_named_in_the_log_line() -> None:
    settings = choose(
        "local[*]",
        LAPTOP,
        LARGE,
        driver_memory="6g",
        conf=parse_conf(["spark.sql.shuffle.partitions=16", "spark.executor.cores=1"]),
        strategy="shuffle",
        partitions=12,
    )
    assert settings.conf == {
        "spark.driver.memory": "6g",
        "spark.sql.shuffle.partitions": "16",
        "spark.executor.cores": "1",
    }
    assert (settings.strategy, settings.partitions) == ("shuffle", 12)
    line = settings.describe()
    assert "spark.driver.memory=6g" in line and "tasks 12" in line
    assert "given: --driver-memory, --conf spark.sql.shuffle.partitions" in line
    cluster = choose("spark://head:7077", LAPTOP, LARGE, driver_memory="2g")
    assert cluster.conf == {"spark.driver.memory": "2g"}


def test_local_master_urls_and_memory_texts() -> None:
    assert [local_cores(m, LAPTOP) for m in ("local", "local[3]", "local[*]", "local[2, 4]")] == [
        1,
        3,
        2,
        2,
    ]
    assert local_cores("spark://h:7077", LAPTOP) is None
    assert local_cores("yarn", LAPTOP) is None
    assert [memory_text(n) for n in (GIB, 4 * GIB, GIB + 512 * MIB)] == ["1g", "4g", "1536m"]


def test_bad_conf_and_strategy_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"'spark\.driver\.memory': expected KEY=VALUE"):
        parse_conf(["spark.driver.memory"])
    with pytest.raises(ValueError, match="strategy must be one of auto, shuffle"):
        choose("local", LAPTOP, SMALL, strategy="files")


def test_trace_sizes_count_data_files_only(tmp_path: Path) -> None:
    trace = tmp_path / "trace"
    (trace / "day=1").mkdir(parents=True)
    (trace / "part-0.parquet").write_bytes(b"x" * 100)
    (trace / "day=1" / "part-1.parquet").write_bytes(b"x" * 50)
    (trace / "_SUCCESS").write_bytes(b"")
    (trace / ".part-0.parquet.crc").write_bytes(b"x" * 8)
    assert TraceFiles.at(trace) == TraceFiles(150, 2)
    assert TraceFiles.at(trace / "part-0.parquet") == TraceFiles(100, 1)
    assert TraceFiles.at("s3://bucket/trace.csv") == TraceFiles(0, 0, csv=True)
    assert TraceFiles.at(None) == TraceFiles(0, 0)


def test_this_machine_is_seen() -> None:
    here = Machine.here()
    assert here.cores >= 1 and here.memory_bytes > 256 * MIB


def test_the_cli_and_the_session_agree_on_names() -> None:
    assert DEFAULT_MASTER == spark_module.DEFAULT_MASTER
    assert spark_replay.STRATEGIES == ("auto", "shuffle")
