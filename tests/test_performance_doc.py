"""docs/performance.md, and the README's words on the pipeline's speed, are made from the
benchmarks' results files, never edited by hand."""

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


def test_the_readme_quotes_the_pipeline_results_file() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert performance_doc.START in text and performance_doc.END in text
    assert text == performance_doc.readme(text), "run: python3 tools/performance_doc.py"


def test_the_readme_block_says_each_engine_against_its_floor(tmp_path: Path) -> None:
    columns = ["trace", "events", "command", "seconds", "x floor"]
    rows = [
        ["cli", 20_000_000, "floor", 20.0, 1.0],
        ["cli", 20_000_000, "local", 15.2, 0.76],
        ["cli", 20_000_000, "spark", 23.8, 1.19],
        ["backlog", 20_000_000, "local", 99.0, 4.95],  # another shape: not quoted
    ]
    table = {"title": "CLI end to end against the I/O floor", "columns": columns, "rows": rows}
    machine = {"cpu": "AMD EPYC", "cores": 2, "python": "3.11.7"}
    result = {
        "benchmark": "pipeline",
        "measured": "2026-11-27T02:00:00+00:00",
        "machine": machine | {"load": {"start": [1.5, 1, 1], "end": [2.25, 1, 1]}},
        "tables": [table],
    }
    (tmp_path / "pipeline.json").write_text(json.dumps(result))
    readme = f"# x\n\n{performance_doc.START}\nold words\n{performance_doc.END}\n\nmore\n"
    made = performance_doc.readme(readme, tmp_path)
    block = " ".join(made.split(performance_doc.START)[1].split(performance_doc.END)[0].split())
    assert "on 20 M events, 15 s with `--engine local` (0.76× the floor of 20 s)" in block
    assert "24 s with Spark `local[2]` (1.19×)" in block
    assert "2026-11-27 on a 2-core AMD EPYC, Python 3.11.7" in block
    assert "load average 1.5 at the start and 2.25 at the end" in block
    assert "old words" not in made and "99" not in block
    assert made.endswith(f"{performance_doc.END}\n\nmore\n")


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
