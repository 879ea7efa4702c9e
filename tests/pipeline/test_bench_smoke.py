"""Smoke test of the pipeline benchmark (benchmarks/bench_pipeline.py --quick).

Tooling, no behaviour rule, and no timing asserted: the benchmark is a report. What is asserted
is that it runs end to end (generation, streaming, single-process and Spark replays in child
processes), prints its tables and one verdict per target, and that every replay saw every row of
the trace (accepted + rejected = input: the pipeline's row accounting).
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


def test_quick_benchmark_runs_and_reports(tmp_path) -> None:
    results = tmp_path / "results.json"
    command = [sys.executable, str(BENCH), "--quick", "--repeat", "1"]
    command += ["--data", str(tmp_path / "data")]
    done = subprocess.run(
        [*command, "--json", str(results)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    for heading in ("== Events/s end to end", "== Peak RSS", "== Ratios", "== Targets =="):
        assert heading in done.stdout, done.stdout
    assert len(re.findall(r"^(PASS|FAIL)  ", done.stdout, flags=re.MULTILINE)) == 6
    document = json.loads(results.read_text())
    assert len(document["runs"]) == 1
    for run in document["runs"]:
        stream, single, spark = run["stream"], run["single"], run["spark"]
        assert single["rows"] == spark["rows"] == spark["accepted"] + spark["rejected"]
        assert stream["rows"] == single["rows"] == stream["accepted"] + stream["rejected"]
        assert spark["collected_rows"] == spark["tasks"]
        assert min(r["peak_rss_bytes"] for r in (stream, single, spark)) > 0
