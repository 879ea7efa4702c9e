"""Per-student handouts: one notebook a student, their id bound in it when it is made.

``mqlearn course assign nb03 nb04.q2 --roster roster.csv --out hw1`` writes

- ``hw1/handouts/<id>.ipynb``, one per roster id, whose notebook metadata holds
  ``{"mqlearn": {"student": "<id>", ...}}``. Each question is the student's own variant, written
  out (question and scenario, so reading it needs no kernel), then an answer cell: a code cell
  with metadata ``{"mqlearn": {"answer": "nb03.q1"}}`` and source ``answer = ...``
  (:mod:`mqlearn.checks.answers_cell` reads it back, without running it);
- ``hw1/assignment.json``: the exercises, points, the roster and the mqlearn version, which
  ``mqlearn course grade`` reads (:mod:`mqlearn.checks.gradebook`);
- ``hw1/variety.csv``: per question, how many distinct right answers the class's variants have
  (:func:`variety`), the report ``assign`` prints with a warning for the questions below the
  threshold.

Everything is written into a temporary directory beside ``hw1`` and moved into place at the
end, so an ``assign`` that fails leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import mqlearn
from mqlearn.checks.answers_cell import ANSWER, METADATA_KEY
from mqlearn.checks.atomic import building
from mqlearn.checks.exercise import Exercise
from mqlearn.checks.roster import Roster
from mqlearn.checks.students import student_seed

MANIFEST = "assignment.json"
HANDOUTS = "handouts"
VARIETY = "variety.csv"
FORMAT = 1  # assignment.json's "mqlearn-assignment" format
CLASS_OF = 30  # the class size the default threshold is stated for
DISTINCT_FOR_A_CLASS = 4  # fewer distinct right answers than this in a class of 30: a warning


@dataclass(frozen=True)
class Variety:
    """How different a question is across the class: distinct right answers, the share of the
    most common one, and the chance that a random classmate's right answer is right for you."""

    exercise: str
    students: int
    distinct: int
    most_common: int
    copy_chance: float

    def row(self) -> dict[str, object]:
        return {
            "exercise": self.exercise,
            "students": self.students,
            "distinct_answers": self.distinct,
            "most_common_answer_share": f"{self.most_common / self.students:.2f}",
            "copy_chance": f"{self.copy_chance:.2f}",
        }


def threshold(students: int) -> int:
    """Distinct answers a question should have among ``students``: 4 for a class of 30,
    scaled down for a smaller class (never more than the class, never below 1)."""
    return max(1, min(DISTINCT_FOR_A_CLASS, math.ceil(students * DISTINCT_FOR_A_CLASS / CLASS_OF)))


def variety(exercise: Exercise, students: Sequence[str]) -> Variety:
    """The :class:`Variety` of ``exercise`` among ``students``' variants (the engine's answers)."""
    answers = Counter(exercise.expected(student_seed(s)) for s in students)
    n = len(students)
    pairs = sum(c * (c - 1) for c in answers.values())
    chance = pairs / (n * (n - 1)) if n > 1 else 1.0
    return Variety(exercise.name, n, len(answers), max(answers.values()), chance)


def question_cells(exercise: Exercise, seed: int, points: float) -> list[dict[str, Any]]:
    """The cells of one question in a student's handout: the variant written out, and the
    answer cell."""
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        exercise.show(seed)
    question, _, rest = shown.getvalue().partition("\n\n")
    code = rest.split("then reads the answer):\n\n", 1)[-1].rstrip()
    example, _, aside = exercise.form.example.partition("  (")
    worth = f"{points:g} point" + ("" if points == 1 else "s")
    text = (
        f"## {exercise.name} ({worth})\n\n"
        f"{question.removeprefix(exercise.name + ': ').strip()}\n\n"
        f"The scenario (your own variant):\n\n```python\n{code}\n```\n\n"
        f"Replace the `...` in the next cell with your prediction, as one value, for example "
        f"`{ANSWER} = {example}`" + (f" ({aside}" if aside else "") + ". The grader reads that "
        "value from the file and never runs your code: a calculation, a call or a name scores 0."
    )
    return [
        _cell("markdown", text, {"editable": False, "deletable": False}),
        _cell(
            "code",
            f"{ANSWER} = ...",
            {"deletable": False, METADATA_KEY: {ANSWER: exercise.name}},
        ),
    ]


def _cell(kind: str, source: str, metadata: dict[str, Any]) -> dict[str, Any]:
    cell: dict[str, Any] = {"cell_type": kind, "metadata": metadata, "source": source}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def handout(
    exercises: Sequence[Exercise], student: str, *, name: str, points: float
) -> dict[str, Any]:
    """The handout notebook (nbformat 4.5) of ``student`` (a normalised roster id)."""
    seed = student_seed(student)
    total = points * len(exercises)
    cells = [
        _cell(
            "markdown",
            f"# {name}: {student}\n\n"
            f"This notebook is yours: the questions are your own variants, drawn from your id. "
            f"For each question, predict what mqlearn's queue manager does and write your "
            f"prediction as a value in the answer cell under it ({total:g} points in all). The "
            f"course is open book: the course notebooks, hint() and the engine are yours to use. "
            f"Do not rename the file, or delete or copy cells; hand in this notebook.",
            {"editable": False, "deletable": False},
        )
    ]
    for exercise in exercises:
        cells += question_cells(exercise, seed, points)
    for number, cell in enumerate(cells):
        cell["id"] = f"mqlearn-{number}"
    return {
        "cells": cells,
        "metadata": {
            METADATA_KEY: {
                "student": student,
                "assignment": name,
                "exercises": [e.name for e in exercises],
            },
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


@dataclass(frozen=True)
class Assigned:
    """What ``assign_class`` wrote, and the variety of each question among the class."""

    out: Path
    exercises: tuple[str, ...]
    students: tuple[str, ...]
    variety: tuple[Variety, ...]
    threshold: int

    @property
    def too_alike(self) -> list[Variety]:
        return [v for v in self.variety if v.distinct < self.threshold]


def write_json(path: Path, data: object) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def assign_class(
    items: Sequence[str],
    roster: Roster,
    out: Path,
    *,
    name: str | None = None,
    points: float = 1,
    min_distinct: int | None = None,
    otter: bool = False,
) -> Assigned:
    """Write one handout per roster student, the manifest and the variety report to ``out``
    (which must not exist, or be empty); with ``otter``, the otter-grader export in
    ``out/otter`` too. Nothing is left behind when anything fails."""
    from mqlearn.checks.assignment import assign, assignment_of

    exercises, name = assignment_of(items, name, points)
    with building(out) as work:
        (work / HANDOUTS).mkdir()
        for student in roster.ids:
            notebook = handout(exercises, student, name=name, points=points)
            write_json(work / HANDOUTS / f"{student}.ipynb", notebook)
        found = tuple(variety(e, roster.ids) for e in exercises)
        with (work / VARIETY).open("w", newline="", encoding="utf-8") as file:
            writer = csv.DictWriter(file, fieldnames=list(found[0].row()))
            writer.writeheader()
            writer.writerows(v.row() for v in found)
        write_json(
            work / MANIFEST,
            {
                "mqlearn-assignment": FORMAT,
                "name": name,
                "exercises": [e.name for e in exercises],
                "points": points,
                "mqlearn_version": mqlearn.__version__,
                "roster": [s.as_dict() for s in roster.students],
            },
        )
        if otter:
            assign(items, work / "otter", name=name, points=points)
    return Assigned(
        out,
        tuple(e.name for e in exercises),
        tuple(roster.ids),
        found,
        threshold(len(roster.ids)) if min_distinct is None else min_distinct,
    )


def read_manifest(directory: Path) -> dict[str, Any]:
    """The manifest ``assign`` wrote in ``directory``; ValueError when there is none."""
    path = directory / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(
            f"{directory} is not an assignment directory: it has no {MANIFEST} "
            "(mqlearn course assign ... --roster ROSTER.csv --out DIR writes one)"
        ) from None
    except (OSError, ValueError) as error:
        raise ValueError(f"cannot read {path}: {error}") from None
    if not isinstance(data, dict) or data.get("mqlearn-assignment") != FORMAT:
        raise ValueError(f"{path} is not an mqlearn assignment manifest")
    return data


def with_answers(notebook: dict[str, Any], answers: dict[str, str]) -> dict[str, Any]:
    """A copy of a handout with answer cells' sources replaced: ``answers`` maps an exercise to
    the source of its cell (``'answer = {"A"}'``), as a student would type it (for tests, demos
    and the teacher notebook's sample class)."""
    copy: dict[str, Any] = json.loads(json.dumps(notebook))
    for cell in copy["cells"]:
        marked = cell.get("metadata", {}).get(METADATA_KEY, {}).get(ANSWER)
        if marked in answers:
            cell["source"] = answers[marked]
    return copy
