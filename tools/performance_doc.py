"""Render docs/performance.md from the benchmarks' results files.

Every ``benchmarks/results/*.json`` present (written by ``bench_engine.py --results``,
``bench_browser.py --results`` and ``bench_pipeline.py``'s own; form in benchmarks/results.py) becomes
a section of tables, between the hand-written ``docs/performance/intro.md`` and
``docs/performance/history.md``. The README's few words on the pipeline's speed (between its
``pipeline-figures`` markers) are made from ``pipeline.json`` the same way. ``make bench`` runs this
last; tests/test_performance_doc.py checks that both are what it makes, so neither is edited by hand.

    python3 tools/performance_doc.py            # write docs/performance.md and the README's block
    python3 tools/performance_doc.py --check    # exit 1 when either differs from what would be written
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
PARTS = ROOT / "docs" / "performance"
DOC = ROOT / "docs" / "performance.md"
README = ROOT / "README.md"
START, END = "<!-- pipeline-figures:start -->", "<!-- pipeline-figures:end -->"


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


def pipeline_figures(result: dict[str, Any]) -> str:
    """What the README says of the pipeline's speed: ``mqlearn pipeline run`` on the CLI's own
    traces, each engine against the I/O floor measured beside it, and where and when."""
    end_to_end = next(t for t in result["tables"] if t["title"].startswith("CLI end to end"))
    names = end_to_end["columns"]
    rows = [dict(zip(names, row, strict=True)) for row in end_to_end["rows"]]
    by = {(r["events"], r["command"]): r for r in rows if r["trace"] == "cli"}
    machine, load = result["machine"], result["machine"]["load"]
    sizes = sorted({events for events, _ in by})
    said = []
    for events in sizes:
        floor, local, spark = (by.get((events, c)) for c in ("floor", "local", "spark"))
        if floor is None or local is None or spark is None:
            continue
        said.append(
            f"on {events / 1e6:g} M events, {local['seconds']:.0f} s with `--engine local` "
            f"({local['x floor']:.2f}× the floor of {floor['seconds']:.0f} s) and "
            f"{spark['seconds']:.0f} s with Spark `local[2]` ({spark['x floor']:.2f}×)"
        )
    text = (
        f"`mqlearn pipeline run` with its defaults, start-up included, against an I/O floor "
        f"measured beside it (reading the trace and writing the same five tables with pyarrow, no "
        f"replay): {'; '.join(said)}. Measured {result['measured'][:10]} on a {machine['cores']}-core "
        f"{machine['cpu']}, Python {machine['python']}, load average {load['start'][0]:g} at the "
        f"start and {load['end'][0]:g} at the end; every figure, and the engine's and the views', "
        f"in [docs/performance.md](docs/performance.md)."
    )
    return textwrap.fill(text, width=100, break_long_words=False, break_on_hyphens=False)


def readme(text: str, results: Path = RESULTS) -> str:
    """The README with its pipeline-figures block made anew (unchanged without pipeline.json)."""
    path = results / "pipeline.json"
    if not path.exists() or START not in text:
        return text
    block = pipeline_figures(json.loads(path.read_text(encoding="utf-8")))
    before, rest = text.split(START, 1)
    after = rest.split(END, 1)[1]
    return f"{before}{START}\n{block}\n{END}{after}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 on a difference")
    args = parser.parse_args(argv)
    pages = {DOC: render()}
    current = README.read_text(encoding="utf-8")
    pages[README] = readme(current)
    stale = [p for p, text in pages.items() if not p.exists() or p.read_text("utf-8") != text]
    if args.check:
        for path in stale:
            print(f"{path.relative_to(ROOT)} is stale")
        return 1 if stale else 0
    for path in stale:
        path.write_text(pages[path], encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
