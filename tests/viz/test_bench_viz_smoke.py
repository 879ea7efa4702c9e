"""Smoke test of the widget benchmark (benchmarks/bench_viz.py --quick).

No timing is asserted: the benchmark is a report. What is asserted is that it runs, prints its
tables and one verdict per target, and writes its numbers as JSON.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks" / "bench_viz.py"
HEADINGS = (
    "== Action re-render (ms of Python time, median) ==",
    "== Pure figure functions",
    "== Opening the widgets (s of CPU time) ==",
    "== Targets ==",
)
ACTIONS = ("put", "get", "advance +0.1 s", "replay (slider)")


def test_quick_widget_benchmark_runs_and_reports_every_target(tmp_path: Path) -> None:
    """Tooling, no behaviour rule: the report runs and has its tables and verdicts."""
    json_path = tmp_path / "viz.json"
    result = subprocess.run(
        [sys.executable, str(BENCH), "--quick", "--json", str(json_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert result.returncode == 0, f"bench_viz.py --quick failed:\n{result.stderr[-3000:]}"
    for heading in HEADINGS:
        assert heading in result.stdout, f"missing {heading!r} in:\n{result.stdout}"
    verdicts = re.findall(r"^(PASS|FAIL)  ", result.stdout, flags=re.MULTILINE)
    assert len(verdicts) == len(ACTIONS) + 2, verdicts  # each action, warm and cold opening
    document = json.loads(json_path.read_text(encoding="utf-8"))
    assert [a["action"] for a in document["actions"]] == list(ACTIONS)
    assert all(len(a["model_ms"]) == 3 for a in document["actions"])
    assert document["open_s"]["warm_workbench"] > 0
