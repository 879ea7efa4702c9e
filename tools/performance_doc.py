"""Render docs/performance.md from the benchmarks' results files.

Every ``benchmarks/results/*.json`` present (written by ``bench_engine.py --results``,
``bench_browser.py --results`` and ``bench_pipeline.py``'s own; form in benchmarks/results.py) becomes
a section of tables, between the hand-written ``docs/performance/intro.md`` and
``docs/performance/history.md``. ``make bench`` runs this last; tests/test_performance_doc.py checks
that docs/performance.md is what it makes, so the page is never edited by hand.

    python3 tools/performance_doc.py            # write docs/performance.md
    python3 tools/performance_doc.py --check    # exit 1 when it differs from what would be written
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
PARTS = ROOT / "docs" / "performance"
DOC = ROOT / "docs" / "performance.md"


def cell(value: Any) -> str:
    text = f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)
    return text.replace("|", "\\|")


def markdown_table(table: dict[str, Any]) -> str:
    lines = [f"**{table['title']}**", ""]
    lines.append("| " + " | ".join(cell(c) for c in table["columns"]) + " |")
    lines.append("|" + "---|" * len(table["columns"]))
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in table["rows"]]
    if table.get("notes"):
        lines += ["", table["notes"]]
    return "\n".join(lines)


def section(result: dict[str, Any]) -> str:
    machine = result["machine"]
    about = ", ".join(f"{key} {value}" for key, value in machine.items())
    parts = [f"## {result['benchmark']}", "", f"Measured {result['measured']}; {about}."]
    parts += ["", *(f"{markdown_table(t)}\n" for t in result["tables"])]
    return "\n".join(parts).rstrip() + "\n"


def render(results: Path = RESULTS, parts: Path = PARTS) -> str:
    """The whole page: the intro, one section per results file (by name), then the history."""
    files = sorted(results.glob("*.json"))
    body = [(parts / "intro.md").read_text(encoding="utf-8").rstrip() + "\n"]
    body.append("# Latest measurements\n")
    if not files:
        body.append("No results files yet: run `make bench`.\n")
    body += [section(json.loads(f.read_text(encoding="utf-8"))) for f in files]
    history = (parts / "history.md").read_text(encoding="utf-8").rstrip() + "\n"
    return "\n".join(body) + "\n" + history


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 on a difference")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        same = DOC.exists() and DOC.read_text(encoding="utf-8") == text
        print("docs/performance.md is up to date" if same else "docs/performance.md is stale")
        return 0 if same else 1
    DOC.write_text(text, encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
