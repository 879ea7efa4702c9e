"""Grading a class's handouts without running them: ``mqlearn course grade DIR SUBMISSION...``.

For each submission the grader, in its own process and without a kernel:

1. reads the file as JSON (a file that is no notebook scores 0, with the reason);
2. decides whose it is: the student whose LMS id (the roster's ``lms_id``, such as Canvas's
   user id, which the LMS writes into the names of downloaded submissions) the file name holds;
   else the id ``assign`` wrote into the notebook's metadata; else a roster id in the file name.
   Code the student wrote never names the student. A file whose name and metadata name
   different students is flagged, and never displaces another file of the student it is graded
   as whose name and metadata agree;
3. reads each answer cell (:mod:`mqlearn.checks.answers_cell`: a literal, parsed, never run);
4. computes that student's variant's right answer with the engine and grades the answer with the
   exercise's own feedback, naming the misconception a wrong answer matches.

Before grading, the whole batch is checked: roster ids with no submission, submissions of ids
not on the roster, two submissions of one student, identical notebooks handed in by two
students, a notebook whose questions are another student's variant, and identical answers from
students whose right answers differ. They go to ``flags.csv`` and to the rows of the students
concerned.

``RESULTS/`` receives, as each submission is graded (a crash loses nothing graded before it):
``scores.csv`` (a row per student and exercise) and ``feedback/<id>.md``; then, at the end,
``canvas.csv`` (Canvas's gradebook import: Student, ID, SIS User ID, Section, the assignment),
``misconceptions.csv`` (how many students gave each tempting wrong answer) and ``summary.json``.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
import textwrap
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import mqlearn
from mqlearn.checks.answers_cell import (
    ANSWER,
    METADATA_KEY,
    NotAnAnswer,
    answer_exercise,
    cell_source,
    read_answer,
)
from mqlearn.checks.exercise import Exercise
from mqlearn.checks.handouts import HANDOUTS, read_manifest, write_json
from mqlearn.checks.roster import Roster, normal_id, read_roster, roster_from
from mqlearn.checks.students import student_seed

SCORES = "scores.csv"
FLAGS = "flags.csv"
CANVAS = "canvas.csv"
MISCONCEPTIONS = "misconceptions.csv"
SUMMARY = "summary.json"
FEEDBACK = "feedback"
MAX_FILE = 20_000_000  # bytes: a handout is a few kB; a bigger file is not one
SCORE_COLUMNS = (
    "student", "exercise", "points", "max_points", "feedback", "answer", "status",
    "misconceptions", "seed", "file", "flags", "mqlearn_version",
)  # fmt: skip
CANVAS_COLUMNS = ("Student", "ID", "SIS User ID", "Section")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")  # a fact a misconception's sentence names


@dataclass
class Submission:
    """One submitted file as read before grading: whose it is and what is odd about it."""

    path: Path
    student: str = ""  # normalised id; "" when the file says nobody
    notebook: dict[str, Any] | None = None
    unreadable: str = ""  # why the file is no notebook
    flags: list[str] = field(default_factory=list)
    answer_cells: dict[str, list[str]] = field(default_factory=dict)  # exercise -> sources
    stray: bool = False  # an unmarked code cell assigns ``answer``
    consistent: bool = True  # its file name and its metadata do not name different students

    @property
    def fingerprint(self) -> str:
        """The notebook's cells' sources, hashed: two students handing in one file share it."""
        cells = self.notebook.get("cells", []) if self.notebook else []
        sources = [cell_source(c) for c in cells if isinstance(c, dict)]
        return hashlib.sha256(json.dumps(sources).encode()).hexdigest()


@dataclass(frozen=True)
class Question:
    """The grade of one answer: points, the feedback, and the misconceptions it matched."""

    exercise: str
    points: float
    max_points: float
    feedback: str
    answer: str = ""
    status: str = "right"  # right, wrong, blank, unreadable, missing
    misconceptions: tuple[str, ...] = ()


def ids_in_name(name: str, roster: Roster) -> tuple[set[str], set[str]]:
    """The roster students a submission's file name names, each as a whole word of the name:
    by their LMS id (the LMS wrote it: who uploaded the file), and by their roster id (which
    anyone can type into a file name)."""
    stem = normal_id(Path(name).stem)

    def named(word: str) -> bool:
        return bool(re.search(rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])", stem))

    by_lms = {student for lms, student in roster.by_lms_id().items() if named(lms)}
    return by_lms, {student for student in roster.ids if named(student)}


def read_submission(path: Path, roster: Roster) -> Submission:
    """Read ``path`` (no code run) and decide whose it is; OSError when it cannot be read."""
    found = Submission(path)
    data = path.read_bytes()
    if len(data) > MAX_FILE:
        found.unreadable = f"the file is {len(data)} bytes; a handout is a few kilobytes"
    else:
        try:
            notebook = json.loads(data.decode("utf-8"))
            if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
                raise ValueError("it has no list of cells")
            found.notebook = notebook
        except (ValueError, RecursionError) as error:
            found.unreadable = f"the file is not a notebook: {str(error)[:120]}"
    metadata = found.notebook.get("metadata") if found.notebook else None
    marked = metadata.get(METADATA_KEY) if isinstance(metadata, dict) else None
    inside = marked.get("student") if isinstance(marked, dict) else None
    inside = normal_id(inside) if isinstance(inside, str) and inside.strip() else ""
    by_lms, by_id = ids_in_name(path.name, roster)
    named = by_lms or by_id
    if len(named) > 1:
        found.flags.append(f"the file name names several students ({', '.join(sorted(named))})")
    by_name = next(iter(named)) if len(named) == 1 else ""
    uploaded = bool(by_lms) and len(named) == 1  # the LMS's word beats the notebook's
    found.student = by_name if uploaded else (inside or by_name)
    if by_name and inside and by_name != inside:
        found.consistent = False
        found.flags.append(
            f"the file is {by_name}'s but the notebook inside is the handout of {inside}; "
            f"graded as {by_name}'s"
            if uploaded
            else f"the file name names {by_name} but the notebook inside is the handout of "
            f"{inside}; graded as {inside}'s"
        )
    if found.notebook is not None and not inside:
        found.flags.append("the notebook has no student id in its metadata: not a handout")
    if not found.student:
        found.flags.append("whose it is is unknown: no roster id in its name or its metadata")
    elif roster.find(found.student) is None:
        found.flags.append(f"{found.student} is not on the roster")
    if found.notebook is not None:
        for cell in found.notebook["cells"]:
            exercise = answer_exercise(cell)
            if exercise is not None:
                found.answer_cells.setdefault(exercise, []).append(cell_source(cell))
            elif isinstance(cell, dict) and cell.get("cell_type") == "code":
                found.stray |= _assigns_answer(cell_source(cell))
    return found


def _assigns_answer(source: str) -> bool:
    return bool(re.search(rf"^\s*{ANSWER}\s*=(?!=)", source, re.MULTILINE))


def _questions_text(notebook: dict[str, Any] | None) -> list[str]:
    """The handout's own text (its Markdown cells), which differs from student to student."""
    cells = notebook.get("cells", []) if notebook else []
    return [
        cell_source(c) for c in cells if isinstance(c, dict) and c.get("cell_type") == "markdown"
    ]


def check_batch(
    found: list[Submission], roster: Roster, directory: Path
) -> tuple[list[Submission], list[tuple[str, str, str]]]:
    """The submissions to grade (one a student: the last notebook whose name and metadata
    agree) and the batch's flags as (file, student, flag); each submission's own flags are
    extended in place."""
    flags: list[tuple[str, str, str]] = []
    by_student: dict[str, list[Submission]] = defaultdict(list)
    for sub in found:
        by_student[sub.student].append(sub)
    kept = {
        student: max(reversed(subs), key=lambda s: (s.notebook is not None, s.consistent))
        for student, subs in by_student.items()
    }  # the last notebook whose name and metadata agree: no other file displaces it
    graded = [s for s in found if not s.student or kept[s.student] is s]
    for student, subs in by_student.items():
        if student and len(subs) > 1:
            for sub in subs:
                if sub is not kept[student]:
                    note = f"{student} has more than one file; {kept[student].path.name} is graded"
                    flags.append((sub.path.name, student, note))
                    kept[student].flags.append(f"{student} also has {sub.path.name} (not graded)")
    same: dict[str, list[Submission]] = defaultdict(list)
    for sub in graded:
        if sub.notebook is not None:
            same[sub.fingerprint].append(sub)
    for subs in same.values():
        for sub in subs:
            others = [o for o in subs if o is not sub and o.student != sub.student]
            if others:
                names = ", ".join(f"{o.student or '?'} ({o.path.name})" for o in others)
                sub.flags.append(f"duplicate content: the same notebook as {names}")
    handouts = _handout_texts(directory)
    for sub in graded:
        if sub.notebook is None or sub.student not in handouts:
            continue
        text = _questions_text(sub.notebook)
        if text != handouts[sub.student]:
            owner = next((s for s, t in handouts.items() if t == text), None)
            sub.flags.append(
                f"its questions are {owner}'s variants: a copy of {owner}'s handout"
                if owner
                else "its question cells differ from the handout given to this student"
            )
    submitted = {s.student for s in found}
    flags += [("", s, "on the roster, no submission") for s in roster.ids if s not in submitted]
    flags += [("", s, "listed more than once on the roster") for s in roster.duplicates]
    flags += [(s.path.name, s.student, flag) for s in graded for flag in s.flags]
    return graded, flags


def _handout_texts(directory: Path) -> dict[str, list[str]]:
    texts = {}
    for path in sorted((directory / HANDOUTS).glob("*.ipynb")):
        try:
            texts[path.stem] = _questions_text(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            continue
    return texts


def grade_question(exercise: Exercise, sources: list[str], seed: int, points: float, *,
                   stray: bool = False) -> Question:  # fmt: skip
    """The grade of exercise ``exercise`` from the sources of the cells marked as its answer
    cell, for the variant ``seed``: the right answer is computed here, on the engine."""
    name = exercise.name
    elsewhere = (
        f" An answer outside the cell marked for {name} is not read: put it in that cell."
        if stray
        else ""
    )

    def zero(status: str, text: str, answer: str = "") -> Question:
        return Question(name, 0, points, f"{name}: {text}{elsewhere}", answer, status)

    if not sources:
        return zero("missing", "the answer cell is missing (deleted?); nothing to grade.")
    if len(sources) > 1:
        return zero("unreadable", f"{len(sources)} cells are marked as the answer; keep one.")
    (source,) = sources
    shown = " ".join(source.split())[:200]
    try:
        value = read_answer(source)
    except NotAnAnswer as error:
        return zero("unreadable", f"not read: {error}.", shown)
    if value is Ellipsis or value is None:
        return zero("blank", f"no answer: replace the ... after {ANSWER} = with your prediction.")
    try:
        exercise.form.read(value)
    except ValueError as error:
        return zero("unreadable", f"{error}.", shown)
    params = exercise.params(seed)
    outcome = exercise.scenario() if params is None else exercise.scenario(params)
    feedback = exercise.feedback(value, outcome, params)
    hit = tuple(m.fact for m in exercise.misconceptions_in(value, outcome))
    return Question(
        name,
        points if feedback.correct else 0,
        points,
        feedback.text,
        exercise.form.show(value),
        "right" if feedback.correct else "wrong",
        hit,
    )


def grade_submission(
    sub: Submission, exercises: Sequence[Exercise], points: float
) -> list[Question]:
    """Every question of one submission (0 with the reason for a file that is no notebook)."""
    if sub.notebook is None or not sub.student:
        why = sub.unreadable or "whose it is is unknown, so its variant is unknown"
        return [
            Question(e.name, 0, points, f"{e.name}: {why}", "", "unreadable") for e in exercises
        ]
    seed = student_seed(sub.student)
    return [
        grade_question(e, sub.answer_cells.get(e.name, []), seed, points, stray=sub.stray)
        for e in exercises
    ]


def feedback_markdown(sub: Submission, name: str, questions: list[Question]) -> str:
    """One student's feedback file, to send them: the score and each answer's feedback, one
    paragraph a sentence group. The batch's flags stay with the instructor (``flags.csv``)."""
    got = sum(q.points for q in questions)
    possible = sum(q.max_points for q in questions)
    lines = [
        f"# {name}: feedback for {sub.student or '(unknown student)'}",
        "",
        f"**Score: {got:g} / {possible:g}** (file `{sub.path.name}`, mqlearn "
        f"{mqlearn.__version__}"
        + (f", variant seed {student_seed(sub.student)})" if sub.student else ")"),
        "",
    ]
    for q in questions:
        lines += [f"## {q.exercise}: {q.points:g} / {q.max_points:g}", ""]
        if q.answer:
            lines += [f"Your answer: `{q.answer}`", ""]
        lines += [line for said in q.feedback.splitlines() for line in (said, "")]
    return "\n".join(lines).rstrip() + "\n"


@dataclass
class Graded:
    """What ``grade_class`` did: per student, their questions; the batch's flags."""

    results: dict[str, list[Question]] = field(default_factory=dict)  # file name -> questions
    students: dict[str, str] = field(default_factory=dict)  # file name -> student
    flags: list[tuple[str, str, str]] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)  # files that could not be read at all


def grade_class(
    directory: Path,
    submissions: Sequence[Path],
    out: Path,
    *,
    roster_path: Path | None = None,
    progress: Callable[[str], None] = lambda line: None,
) -> Graded:
    """Grade ``submissions`` (notebook files; a directory stands for the .ipynb files in it)
    against the assignment in ``directory``, writing the results files into ``out``."""
    from mqlearn.checks import find_exercise

    manifest = read_manifest(directory)
    exercises = [find_exercise(name) for name in manifest["exercises"]]
    points = float(manifest["points"])
    name = str(manifest["name"])
    roster = read_roster(roster_path) if roster_path else roster_from(manifest["roster"])
    submissions = [
        file for path in submissions
        for file in (sorted(path.glob("*.ipynb")) if path.is_dir() else [path])
    ]  # fmt: skip
    if not submissions:
        raise ValueError("no submissions to grade")
    done = Graded()
    found = []
    for path in submissions:
        try:
            found.append(read_submission(path, roster))
        except OSError as error:
            done.unread.append(f"{path}: {error.strerror or error}")
    graded, done.flags = check_batch(found, roster, directory)
    done.flags += [(path, "", "could not be read") for path in done.unread]
    done.flags += [("", "", f"roster: {problem}") for problem in roster.problems]
    out.mkdir(parents=True, exist_ok=True)
    (out / FEEDBACK).mkdir(exist_ok=True)
    _write_rows(out / FLAGS, ("file", "student", "flag"), done.flags)
    with (out / SCORES).open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(SCORE_COLUMNS)
        for sub in graded:
            questions = grade_submission(sub, exercises, points)
            done.results[sub.path.name] = questions
            done.students[sub.path.name] = sub.student
            _write_scores(writer, file, sub, questions)
            page = sub.student or f"unknown-{sub.path.stem}"
            (out / FEEDBACK / f"{page}.md").write_text(
                feedback_markdown(sub, name, questions), encoding="utf-8"
            )
            got = sum(q.points for q in questions)
            progress(
                f"{sub.path.name}: {sub.student or '?'}: {got:g} / {points * len(exercises):g}"
            )
    _write_canvas(out / CANVAS, name, roster, done)
    _write_misconceptions(out / MISCONCEPTIONS, exercises, done)
    write_json(
        out / SUMMARY,
        {
            "assignment": name,
            "mqlearn_version": mqlearn.__version__,
            "assigned_with": manifest.get("mqlearn_version"),
            "exercises": manifest["exercises"],
            "points_possible": points * len(exercises),
            "graded": len(done.results),
            "unread": done.unread,
            "totals": {
                done.students[f] or f: sum(q.points for q in qs) for f, qs in done.results.items()
            },
        },
    )
    return done


def _write_rows(path: Path, header: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(header)
        writer.writerows(rows)


def _write_scores(writer: Any, file: TextIO, sub: Submission, questions: list[Question]) -> None:
    seed = student_seed(sub.student) if sub.student else ""
    for q in questions:
        writer.writerow(
            [sub.student, q.exercise, f"{q.points:g}", f"{q.max_points:g}", q.feedback, q.answer,
             q.status, ";".join(q.misconceptions), seed, sub.path.name, "; ".join(sub.flags),
             mqlearn.__version__]
        )  # fmt: skip
    file.flush()  # a crash later loses nothing graded so far


def _write_canvas(path: Path, name: str, roster: Roster, done: Graded) -> None:
    """Canvas's gradebook import: one row per roster student (blank: nothing handed in)."""
    totals = {done.students[f]: sum(q.points for q in qs) for f, qs in done.results.items()}
    rows = [
        [s.name or s.id, s.lms_id, s.sis_id or s.id, s.section,
         f"{totals[s.id]:g}" if s.id in totals else ""]
        for s in roster.students
    ]  # fmt: skip
    _write_rows(path, (*CANVAS_COLUMNS, name), rows)


def _write_misconceptions(path: Path, exercises: Sequence[Exercise], done: Graded) -> None:
    """Per exercise and misconception: how many students gave that tempting wrong answer."""
    hits: Counter[tuple[str, str]] = Counter()
    answered: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    for questions in done.results.values():
        for q in questions:
            answered[q.exercise] += q.status in ("right", "wrong")
            wrong[q.exercise] += q.status == "wrong"
            hits.update((q.exercise, fact) for fact in q.misconceptions)
    rows = [
        [e.name, m.fact, _said(m.fact, m.says), hits[e.name, m.fact], wrong[e.name],
         answered[e.name]]
        for e in exercises
        for m in e.misconceptions
    ]  # fmt: skip
    header = ("exercise", "misconception", "feedback", "students", "wrong", "answered")
    _write_rows(path, header, rows)


def _said(fact: str, says: str) -> str:
    """What the feedback tells a student who gave misconception ``fact``, its variant's details
    left out (a sentence that is all details is named by its fact)."""
    text = _PLACEHOLDER.sub("…", says)
    return text if re.search("[A-Za-z]", text) else fact.replace("_", " ")


def load_scores(results: Path) -> list[dict[str, str]]:
    """The rows of ``results/scores.csv`` (for the teacher notebook and tests)."""
    with (results / SCORES).open(newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def load_misconceptions(results: Path) -> list[dict[str, str]]:
    """The rows of ``results/misconceptions.csv``."""
    with (results / MISCONCEPTIONS).open(newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def misconception_figure(results: Path) -> Any:
    """A plotly bar chart of the class-wide misconception table: per exercise and tempting wrong
    answer, how many students gave it (the teacher notebook draws it)."""
    import plotly.graph_objects as go

    rows = sorted(load_misconceptions(results), key=lambda r: (int(r["students"]), r["exercise"]))
    labels = [
        f"{r['exercise']}: {textwrap.shorten(r['feedback'], 60, placeholder='…')}" for r in rows
    ]
    figure = go.Figure(
        go.Bar(
            x=[int(r["students"]) for r in rows],
            y=labels,
            orientation="h",
            customdata=[[r["wrong"], r["answered"], r["misconception"]] for r in rows],
            hovertemplate=(
                "%{y}<br>%{x} students gave this answer (%{customdata[2]})<br>"
                "%{customdata[0]} wrong of %{customdata[1]} answered<extra></extra>"
            ),
        )
    )
    figure.update_layout(
        title="Misconceptions the class hit (students who gave each tempting wrong answer)",
        xaxis_title="students",
        height=max(300, 28 * len(rows) + 120),
        margin={"l": 20, "r": 20, "t": 60, "b": 40},
        yaxis={"automargin": True},
    )
    return figure
