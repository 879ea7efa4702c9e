"""The time table of docs/teaching.md ("How long each notebook takes"), counted from the notebooks.

One row for every course notebook ``notebooks/NN_*.ipynb`` (any two digits): the minutes it
states (the "*About N minutes*" line of its first cell), its exercises (``mqlearn.checks``), the
words of its Markdown cells, its code cells, and the model's minutes: words / 200 + code cells / 2
+ 3 per exercise, rounded. A row keeps the name the table gives it; a new notebook's row is named
after its file. tests/test_teaching_doc.py checks that the table is what this makes.

    python3 tools/notebook_times.py           # rewrite the table in docs/teaching.md
    python3 tools/notebook_times.py --check   # exit 1 when the table is not what it would write
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
DOC = ROOT / "docs" / "teaching.md"
HEADER = "| notebook | stated | exercises | words | code cells | model |"
WORDS_A_MINUTE = 200
MINUTES_A_CODE_CELL = 0.5
MINUTES_AN_EXERCISE = 3
_ROW = re.compile(r"^\| (\d\d) ([^|]+?) \|")


@dataclass(frozen=True)
class Times:
    """One notebook's row."""

    number: str
    name: str
    stated: int
    exercises: int
    words: int
    code_cells: int

    @property
    def model(self) -> int:
        return round(
            self.words / WORDS_A_MINUTE
            + self.code_cells * MINUTES_A_CODE_CELL
            + self.exercises * MINUTES_AN_EXERCISE
        )

    def row(self) -> str:
        words = f"{self.words:,}".replace(",", " ")
        return (
            f"| {self.number} {self.name} | {self.stated} min | {self.exercises} | {words} | "
            f"{self.code_cells} | {self.model} min |"
        )


def count(path: Path, name: str, exercises: int) -> Times:
    """The counts of one notebook (``exercises``: how many mqlearn.checks defines for it)."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    first = "".join(cells[0]["source"])
    stated = re.search(r"About (\d+) minutes", first)
    if stated is None:
        raise ValueError(f"{path.name}: its first cell has no 'About N minutes' line")
    words = sum(
        len(re.findall(r"\w+", "".join(c["source"]))) for c in cells if c["cell_type"] == "markdown"
    )
    code = sum(c["cell_type"] == "code" for c in cells)
    return Times(path.name[:2], name, int(stated[1]), exercises, words, code)


def exercise_count(number: str) -> int:
    from mqlearn import checks

    module = getattr(checks, f"nb{number}", None)  # None: a notebook without exercises
    return len(checks.exercises(module)) if module else 0


def table(doc: str, notebooks: Path = NOTEBOOKS) -> list[str]:
    """The table's lines: header, rule, a row per notebook, the total."""
    names = {m[1]: m[2] for m in map(_ROW.match, _table_lines(doc)) if m}
    rows = []
    for path in sorted(notebooks.glob("[0-9][0-9]_*.ipynb")):
        number = path.name[:2]
        name = names.get(number, path.stem[3:].replace("_", " "))
        rows.append(count(path, name, exercise_count(number)))
    total = (
        f"| **all** | **{sum(r.stated for r in rows)} min** | **{sum(r.exercises for r in rows)}**"
        f" | | | **{sum(r.model for r in rows)} min** |"
    )
    return [HEADER, "|---|---|---|---|---|---|", *(r.row() for r in rows), total]


def _table_lines(doc: str) -> list[str]:
    lines = doc.splitlines()
    start = lines.index(HEADER)
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("| **all** |"))
    return lines[start : end + 1]


def render(doc: str, notebooks: Path = NOTEBOOKS) -> str:
    """``doc`` with its time table recounted."""
    old = "\n".join(_table_lines(doc))
    return doc.replace(old, "\n".join(table(doc, notebooks)), 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the table is stale")
    args = parser.parse_args()
    doc = DOC.read_text(encoding="utf-8")
    new = render(doc)
    if args.check:
        if new != doc:
            print("docs/teaching.md's time table is stale: run python3 tools/notebook_times.py")
            return 1
        return 0
    DOC.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
