"""Smoke test of the engine benchmark (benchmarks/bench_engine.py --quick).

No timing is asserted: the benchmark is a report. What is asserted is that it runs, prints its
tables, and that the engine, replaying the benchmark's operation sequence, gets and discards exactly
the messages the bare baseline does (lazy expiry: EXP-22 on FIFO queues, EXP-23 on priority queues).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks" / "bench_engine.py"

QuickRun = tuple[subprocess.CompletedProcess[str], Any]
"""The finished ``--quick`` process and its ``--json`` document (None if none was written)."""

HEADINGS = (
    "== Throughput (cycles/s",
    "== Depth scaling (cost per cycle",
    "== Objects the garbage collector tracks",
    "== Discard cross-check",
    "== Memory (tracemalloc",
    "== Targets ==",
)


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory: pytest.TempPathFactory) -> QuickRun:
    """One ``--quick`` run for the whole module (it takes a few seconds), with its JSON results."""
    json_path = tmp_path_factory.mktemp("bench") / "results.json"
    result = subprocess.run(
        [sys.executable, str(BENCH), "--quick", "--json", str(json_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    document = json.loads(json_path.read_text(encoding="utf-8")) if json_path.exists() else None
    return result, document


def cross_check_lines(stdout: str) -> list[str]:
    section = stdout.split("== Discard cross-check", 1)[1].split("\n== ", 1)[0]
    return [line for line in section.splitlines()[1:] if line.strip()]


def test_quick_benchmark_exits_0_and_prints_every_table(quick_run: QuickRun) -> None:
    """Tooling, no behaviour rule: the report runs and has its tables and one verdict per target."""
    result, _ = quick_run
    assert result.returncode == 0, f"bench_engine.py --quick failed:\n{result.stderr[-3000:]}"
    for heading in HEADINGS:
        assert heading in result.stdout, f"missing table {heading!r} in:\n{result.stdout}"
    assert "One cycle = 1 get + 10/7 puts" in result.stdout, "the output must define a cycle"
    for mode in ("natural collection", "forced collection"):
        assert f"== Throughput (cycles/s), {mode}" in result.stdout, f"no {mode} throughput table"
    verdicts = re.findall(r"^(PASS|FAIL)  ", result.stdout, flags=re.MULTILINE)
    # throughput and depth scaling: 2 engine subjects × 2 modes each; 2 memory targets; cross-check
    assert len(verdicts) == 11, f"expected one PASS/FAIL line per target, got {verdicts}"


def test_exp22_exp23_engine_discards_and_gets_what_the_baseline_does(quick_run: QuickRun) -> None:
    """EXP-22 (FIFO) and EXP-23 (PRIORITY): the engine, fed the benchmark's operation sequence,
    discards the same number of expired messages and gets the same messages as the baseline."""
    result, document = quick_run
    lines = cross_check_lines(result.stdout)
    # 2 queue kinds × 2 quick depths × events on/off
    assert len(lines) == 8, f"expected 8 cross-check lines, got:\n{lines}"
    for line in lines:
        assert line.endswith("-> match"), f"engine and baseline disagree (EXP-22/EXP-23): {line}"
    assert document is not None, "--json wrote nothing"
    assert all(check["ok"] for check in document["cross_checks"])
    assert {check["kind"] for check in document["cross_checks"]} == {"FIFO", "PRIORITY"}
