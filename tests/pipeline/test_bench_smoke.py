"""Smoke test of the pipeline benchmark (benchmarks/bench_pipeline.py --quick).

Tooling, no behaviour rule, and no timing asserted: the benchmark is a report. What is asserted
is that it runs the CLI end to end (generate, run --engine local, run on Spark, each a subprocess)
beside the I/O floor, prints its tables and one verdict per target, writes its results file in
the shape tools/performance_doc.py renders, and that every run saw every row of its trace
(accepted + rejected = input: the pipeline's row accounting) and read the same rows as the floor.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks" / "bench_pipeline.py"


def test_quick_benchmark_runs_the_cli_and_reports(tmp_path) -> None:
    results, runs = tmp_path / "pipeline.json", tmp_path / "runs.json"
    command = [sys.executable, str(BENCH), "--quick", "--rounds", "1", "--shapes", "cli"]
    command += ["--data", str(tmp_path / "data"), "--results", str(results), "--json", str(runs)]
    done = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=1800, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    for heading in ("== CLI end to end against the I/O floor", "== Start-up", "== Targets =="):
        assert heading in done.stdout, done.stdout
    # at the quick size: local and Spark ratios, and the two peaks
    assert len(re.findall(r"^(PASS|FAIL)  ", done.stdout, flags=re.MULTILINE)) == 4
    assert "spark settings: master local[2], spark.driver.memory=" in done.stdout

    document = json.loads(results.read_text())
    assert document["benchmark"] == "pipeline" and document["measured"][:2] == "20"
    assert {"cpu", "cores", "python", "load"} <= set(document["machine"])
    titles = [table["title"] for table in document["tables"]]
    assert titles[0] == "CLI end to end against the I/O floor" and "Targets (issue 27)" in titles
    for table in document["tables"]:
        assert isinstance(table["notes"], str) and table["rows"]
        assert all(len(row) == len(table["columns"]) for row in table["rows"])
    commands = [row[2] for row in document["tables"][0]["rows"]]
    assert commands == ["floor", "local", "spark"]

    (trace,) = json.loads(runs.read_text())["traces"]
    (round_,) = trace["runs"]
    local, spark, floor = round_["local"], round_["spark"], round_["floor"]
    assert local["rows"] == spark["rows"] == floor["rows"] > 10_000
    for run in (local, spark):
        assert run["rows"] == run["accepted"] + run["rejected"]
        assert run["peak_rss_bytes"] > 0 and run["cpu_s"] > 0
