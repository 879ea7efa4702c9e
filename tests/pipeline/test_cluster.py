"""The pipeline on a real standalone Spark cluster (issue 5): master and one worker on 127.0.0.1.

pyspark's wheel ships ``bin/spark-class`` but not ``sbin/start-master.sh``, so the test starts
``org.apache.spark.deploy.master.Master`` and ``...worker.Worker`` with ``spark-class``, runs the
generator and the replay against ``spark://127.0.0.1:PORT``, compares them with the
single-process results, and always stops both processes.

Tooling, no behaviour rule: the replay's rules are the ones the differential tests check; here
the point is that the same code gives the same tables when tasks run in executors of a cluster.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.parquet as pq
import pyspark
import pytest

from mqlearn.pipeline import QUEUE_COLUMNS, TRACE_COLUMNS, replay_local
from mqlearn.pipeline.generate import TraceSpec, generate, generate_local
from mqlearn.pipeline.spark import arrow_to_pandas, session
from mqlearn.pipeline.spark_replay import read_outputs, replay_spark
from tests.pipeline.test_spark_replay import canonical

pytestmark = pytest.mark.slow

SPARK_HOME = Path(pyspark.__file__).parent
READY_TIMEOUT_S = 300  # a loaded machine can take minutes to start two JVMs
SPEC = TraceSpec(seed=21, events=8000, queues=6, qmgrs=2, hours=1)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class StandaloneCluster:
    """A master and one worker, each a ``spark-class`` process logging to a file; readiness is
    read from the master's JSON status page (not from log lines, whose level may be set)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.port = free_port()
        self.ui_port = free_port()
        self.url = f"spark://127.0.0.1:{self.port}"
        self.processes: list[subprocess.Popen[bytes]] = []
        self.env = {
            **{k: v for k, v in os.environ.items() if k != "SPARK_CONF_DIR"},
            "SPARK_HOME": str(SPARK_HOME),
            "SPARK_LOCAL_IP": "127.0.0.1",
            "SPARK_WORKER_DIR": str(root / "work"),
        }

    def status(self) -> dict[str, Any]:
        """The master's status page (``{}`` while it does not answer)."""
        try:
            with urllib.request.urlopen(
                f"http://127.0.0.1:{self.ui_port}/json/", timeout=5
            ) as page:
                return dict(json.load(page))
        except OSError:
            return {}

    def _launch(self, name: str, args: list[str], ready: Callable[[dict[str, Any]], bool]) -> None:
        log_path = self.root / f"{name}.log"
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                [str(SPARK_HOME / "bin" / "spark-class"), *args],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=self.env,
                start_new_session=True,
            )
        self.processes.append(process)
        deadline = time.monotonic() + READY_TIMEOUT_S
        while not ready(self.status()):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{name} did not start:\n{log_path.read_text()[-3000:]}")
            time.sleep(0.5)

    def start(self) -> None:
        self._launch(
            "master",
            [
                *("org.apache.spark.deploy.master.Master", "--host", "127.0.0.1"),
                *("--port", str(self.port), "--webui-port", str(self.ui_port)),
            ],
            lambda status: status.get("status") == "ALIVE",
        )
        self._launch(
            "worker",
            [
                *("org.apache.spark.deploy.worker.Worker", self.url, "--host", "127.0.0.1"),
                *("--cores", "2", "--memory", "2g", "--webui-port", str(free_port())),
            ],
            lambda status: any(w.get("state") == "ALIVE" for w in status.get("workers", [])),
        )

    def stop(self) -> None:
        """Worker first, then master; each is killed if it does not end within a minute."""
        for process in reversed(self.processes):
            process.terminate()
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.processes.clear()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory, _stop_spark_at_end) -> Iterator[str]:
    standalone = StandaloneCluster(tmp_path_factory.mktemp("cluster"))
    try:
        standalone.start()
        yield standalone.url
    finally:
        from pyspark.sql import SparkSession

        active = SparkSession.getActiveSession()
        if active is not None and active.sparkContext.master == standalone.url:
            active.stop()
        standalone.stop()


def test_pipeline_on_a_standalone_cluster_matches_local(cluster, tmp_path) -> None:
    spark = session(cluster)
    assert spark.sparkContext.master == cluster
    written = generate(spark, SPEC, tmp_path / "gen")
    trace, queues = generate_local(SPEC)
    on_cluster = arrow_to_pandas(pq.read_table(written.trace), TRACE_COLUMNS)
    pd.testing.assert_frame_equal(on_cluster.sort_values("seq", ignore_index=True), trace)
    assert arrow_to_pandas(pq.read_table(written.queues), QUEUE_COLUMNS).equals(queues)

    result = replay_spark(spark, written.trace, written.queues, tmp_path / "out", partitions=4)
    assert result.input_rows == len(trace) == result.accepted
    executors = spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size()  # type: ignore[union-attr]
    assert executors >= 2, "the driver and at least one executor of the worker"
    local = replay_local(trace, queues).tables()
    for name, frame in read_outputs(tmp_path / "out").items():
        pd.testing.assert_frame_equal(canonical(frame), canonical(local[name]), obj=name)
