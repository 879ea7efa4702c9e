"""docs/performance.md is made from the benchmarks' results files, never edited by hand."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import performance_doc  # noqa: E402


def test_the_page_is_what_the_renderer_makes() -> None:
    page = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    assert page == performance_doc.render(), "run: python3 tools/performance_doc.py"


def test_every_results_file_has_the_documented_form() -> None:
    for path in sorted((ROOT / "benchmarks" / "results").glob("*.json")):
        result = json.loads(path.read_text(encoding="utf-8"))
        assert result["benchmark"] == path.stem
        assert {"cpu", "cores", "python"} <= result["machine"].keys()
        for table in result["tables"]:
            assert table.keys() == {"title", "columns", "rows", "notes"}
            assert all(len(row) == len(table["columns"]) for row in table["rows"])


def test_a_results_file_becomes_a_section_with_its_tables(tmp_path: Path) -> None:
    results = tmp_path / "results"
    results.mkdir()
    table = {"title": "T", "columns": ["a", "b"], "rows": [[1, 2_000]], "notes": "n"}
    machine = {"cpu": "x", "cores": 2, "python": "3.11"}
    document = {"benchmark": "bench_x", "measured": "2026-11-26", "machine": machine}
    (results / "bench_x.json").write_text(json.dumps({**document, "tables": [table]}))
    page = performance_doc.render(results, ROOT / "docs" / "performance")
    assert "## bench_x" in page and "| 1 | 2,000 |" in page and "**T**" in page
