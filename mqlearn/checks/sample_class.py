"""A made-up class, assigned and graded end to end: for trying the instructor's loop, and for the
teacher notebook when it is not pointed at a real class's results.

Each made-up student answers each question from their own variant: right, with one of the
exercise's tempting wrong answers (a misconception the feedback names), blank, or with code
instead of a value, drawn from a seeded stream, so the sample is the same on every run.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

from mqlearn.checks import find_exercise
from mqlearn.checks.gradebook import grade_class
from mqlearn.checks.handouts import HANDOUTS, assign_class, with_answers, write_json
from mqlearn.checks.roster import read_roster
from mqlearn.checks.students import student_seed

SAMPLE_QUESTIONS = ("nb01.q1", "nb03.q1", "nb03.q2", "nb04.q2", "nb06.q1", "nb07.q2")
KINDS = ("right", "misconception", "blank", "code")
WEIGHTS = (55, 30, 10, 5)


def sample_answer(name: str, student: str, rng: random.Random) -> str:
    """One made-up student's answer cell for exercise ``name``."""
    exercise = find_exercise(name)
    seed = student_seed(student)
    kind = rng.choices(KINDS, WEIGHTS)[0]
    if kind == "misconception" and exercise.misconceptions:
        outcome = exercise.outcome(seed)
        tempting = outcome.facts[rng.choice(exercise.misconceptions).fact]
        return f"answer = {exercise.form.show(tempting)}"
    if kind == "blank":
        return "answer = ..."
    if kind == "code":
        return f"answer = {name}.expected()"
    return f"answer = {exercise.form.show(exercise.expected(seed))}"


def sample_class(
    out: Path, *, students: int = 30, questions: Sequence[str] = SAMPLE_QUESTIONS
) -> Path:
    """Make, hand in and grade a class of ``students`` in ``out`` (a new directory): the
    roster, the assignment ``out/hw``, the submissions and ``out/results``, which it returns."""
    out.mkdir(parents=True)
    ids = [f"s{1001 + i}" for i in range(students)]
    lines = ["id,name,section"] + [f"{s},Student {s},{'AB'[i % 2]}" for i, s in enumerate(ids)]
    (out / "roster.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assign_class(questions, read_roster(out / "roster.csv"), out / "hw", name="sample")
    handed_in = out / "submissions"
    handed_in.mkdir()
    paths = []
    for student in ids:
        rng = random.Random(f"mqlearn-sample:{student}")
        handout = json.loads((out / "hw" / HANDOUTS / f"{student}.ipynb").read_text("utf-8"))
        answers = {name: sample_answer(name, student, rng) for name in questions}
        path = handed_in / f"{student}.ipynb"
        write_json(path, with_answers(handout, answers))
        paths.append(path)
    grade_class(out / "hw", paths, out / "results")
    return out / "results"
