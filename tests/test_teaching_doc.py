"""docs/teaching.md's table of notebook times states what the notebooks state."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from mqlearn import checks

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import notebook_times  # noqa: E402


def test_the_time_table_is_what_the_notebooks_give_every_notebook_counted() -> None:
    """Every notebooks/NN_*.ipynb has its row, with its own "About N minutes", its exercises and
    its words and cells as they are now (tools/notebook_times.py recounts them)."""
    guide = (ROOT / "docs" / "teaching.md").read_text(encoding="utf-8")
    rows = {
        m[1]: (int(m[2]), int(m[3]))
        for m in re.finditer(r"^\| (\d\d) [^|]+\| (\d+) min \| (\d+) \|", guide, re.M)
    }
    notebooks = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert sorted(rows) == [path.name[:2] for path in notebooks]
    for path in notebooks:
        first = "".join(json.loads(path.read_text(encoding="utf-8"))["cells"][0]["source"])
        stated = re.search(r"About (\d+) minutes", first)
        assert stated, path.name
        module = getattr(checks, f"nb{path.name[:2]}", None)
        exercises = len(checks.exercises(module)) if module else 0
        assert rows[path.name[:2]] == (int(stated[1]), exercises), path.name
    assert guide == notebook_times.render(guide), "run: python3 tools/notebook_times.py"


def test_the_recount_reads_words_cells_and_minutes_by_hand(tmp_path: Path) -> None:
    """A notebook of 400 Markdown words ("About 7 minutes" among them), 4 code cells and no
    exercises: 400 / 200 + 4 / 2 = 4 model minutes; numbered 42, so past the 00-19 a glob of
    [01][0-9] would see; a second one keeps the name the table gave it."""

    def write(name: str, words: int, code_cells: int) -> None:
        text = "About 7 minutes " + "word " * (words - 3)
        cells = [{"cell_type": "markdown", "source": [text]}]
        cells += [{"cell_type": "code", "source": ["x = 1"]} for _ in range(code_cells)]
        (tmp_path / name).write_text(json.dumps({"cells": cells}))

    write("42_late_addition.ipynb", 400, 4)
    write("43_renamed.ipynb", 2_000, 2)
    doc = "\n".join(
        [
            notebook_times.HEADER,
            "|---|---|---|---|---|---|",
            "| 43 the table's own name | 1 min | 0 | 0 | 0 | 0 min |",
            "| **all** | **1 min** | **0** | | | **0 min** |",
        ]
    )
    assert notebook_times.table(doc, tmp_path)[2:] == [
        "| 42 late addition | 7 min | 0 | 400 | 4 | 4 min |",
        "| 43 the table's own name | 7 min | 0 | 2 000 | 2 | 11 min |",
        "| **all** | **14 min** | **0** | | | **15 min** |",
    ]


def test_the_guides_assignment_uses_only_questions_that_vary_enough() -> None:
    """Every question of the guide's `mqlearn course assign ... --roster` example has at least the
    distinct answers `assign` asks of a class of 30 (issue 21: the example used nb06.q2)."""
    from mqlearn.checks.assignment import chosen_exercises
    from mqlearn.checks.handouts import threshold, variety

    guide = (ROOT / "docs" / "teaching.md").read_text(encoding="utf-8")
    found = re.search(r"mqlearn course assign ((?:nb\d\d[.\w]* )+)\\\n\s+--roster", guide)
    assert found, "the guide shows an assign command with a roster"
    class_of_30 = [f"s{1001 + i}" for i in range(30)]
    for exercise in chosen_exercises(found[1].split()):
        assert variety(exercise, class_of_30).distinct >= threshold(30), exercise.name


def test_the_guide_documents_the_grading_interface() -> None:
    guide = (ROOT / "docs" / "teaching.md").read_text(encoding="utf-8")
    for text in (
        "--roster roster.csv --out hw1",
        "hw1/handouts/<id>.ipynb",
        '{"mqlearn": {"student": "<id>"',
        '{"mqlearn": {"answer": "nb03.q1"}}',
        "mqlearn course grade hw1 submissions/*.ipynb --out hw1-results",
        "`student`, `exercise`,\n  `points`, `max_points`, `feedback`",
        "runs the student's notebook",
        "The course is open book",
    ):
        assert text in guide, text
