"""docs/teaching.md's table of notebook times states what the notebooks state."""

from __future__ import annotations

import json
import re
from pathlib import Path

from mqlearn import checks

ROOT = Path(__file__).resolve().parents[1]


def test_the_time_table_repeats_each_notebooks_own_estimate_and_exercise_count() -> None:
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
