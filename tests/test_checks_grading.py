"""Grading handouts without running them (``mqlearn course assign --roster`` / ``grade``).

Every attack issue 21 found on the otter path is played here against the handout path: the
checker patched, the id swapped (in a later cell, through ``globals()``), an always-equal
object, ``expected()`` as the answer, an endless loop, a garbage file, a deleted answer cell, an
untouched handout, a classmate's notebook handed in. The right answers are asked of the engine
in the test (``Exercise.outcome``), never of the grader under test.
"""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path
from typing import Any

import pytest

from mqlearn import checks, cli
from mqlearn.checks import handouts
from mqlearn.checks.answers_cell import NotAnAnswer, read_answer
from mqlearn.checks.gradebook import CANVAS_COLUMNS, load_scores
from mqlearn.checks.roster import read_roster
from mqlearn.checks.students import student_seed

QUESTIONS = ("nb01.q2", "nb03.q2", "nb04.q3", "nb06.q1")  # letters, letters, a choice, numbers
POINTS = 2


def engine_answer(name: str, student: str) -> object:
    """The right answer of ``student``'s variant, straight from the engine's run."""
    exercise = checks.find_exercise(name)
    return exercise.form.read(exercise.outcome(student_seed(student)).answer)


def typed(name: str, student: str) -> str:
    """The right answer as a student types it in the answer cell."""
    return "answer = " + checks.find_exercise(name).form.show(engine_answer(name, student))


def wrong(name: str, student: str) -> str:
    """An answer of the right form that is not the engine's."""
    exercise = checks.find_exercise(name)
    for candidate in ("{'Z'}", "'GONE.Q'", "(-5, -5)"):
        try:
            if exercise.form.read(read_answer(f"answer = {candidate}")) != engine_answer(
                name, student
            ):
                return f"answer = {candidate}"
        except ValueError:
            continue
    raise AssertionError(f"no wrong answer for {name}")


def write_roster(path: Path, ids: list[str]) -> Path:
    lines = ["id,name,section,sis_id,lms_id"]
    lines += [f"{s},Student {s},S{i % 2},sis-{s.strip()},{70000 + i}" for i, s in enumerate(ids)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def hw(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An assignment of QUESTIONS for s1001-s1030, made through the CLI."""
    folder = tmp_path_factory.mktemp("class")
    roster = write_roster(folder / "roster.csv", [f" S{1001 + i} " for i in range(30)])
    out = folder / "hw"
    args = ["course", "assign", *QUESTIONS, "--roster", str(roster), "--out", str(out)]
    assert cli.main([*args, "--name", "hw1", "--points", str(POINTS)]) == 0
    return out


def handout(hw: Path, student: str) -> dict[str, Any]:
    result: dict[str, Any] = json.loads((hw / "handouts" / f"{student}.ipynb").read_text())
    return result


def save(folder: Path, name: str, notebook: dict[str, Any]) -> Path:
    path = folder / name
    path.write_text(json.dumps(notebook))
    return path


def add_cell(notebook: dict[str, Any], source: str, at: int = 1) -> dict[str, Any]:
    notebook["cells"].insert(at, {"cell_type": "code", "metadata": {}, "source": source})
    return notebook


def grade(hw: Path, out: Path, *paths: Path) -> tuple[int, dict[str, dict[str, dict[str, str]]]]:
    """Run ``mqlearn course grade``; its exit code and the scores by student and exercise."""
    code = cli.main(["course", "grade", str(hw), *map(str, paths), "--out", str(out)])
    rows: dict[str, dict[str, dict[str, str]]] = {}
    for row in load_scores(out):
        rows.setdefault(row["student"], {})[row["exercise"]] = row
    return code, rows


def total(rows: dict[str, dict[str, str]]) -> float:
    return sum(float(row["points"]) for row in rows.values())


# --- the answer cell is read, never run ----------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ('answer = {"A", "C"}', frozenset({"A", "C"})),
        ("answer = set()  # none", frozenset()),
        ("answer = (540, -1)", (540, -1)),
        ("answer = ['B', 'A']", ["B", "A"]),
        ("answer = 'DLQ'", "DLQ"),
        ("answer = CMQC.MQRC_NO_MSG_AVAILABLE", 2033),
        ("answer = b'ORDER-1'", b"ORDER-1"),
        ("answer = ...", ...),
        ("# my prediction\nanswer = {'A': 1}", {"A": 1}),
    ],
)
def test_a_literal_is_read(source: str, value: object) -> None:
    assert read_answer(source) == value


@pytest.mark.parametrize(
    ("source", "says"),
    [
        ("answer = nb03.q1.expected()", "a call `nb03.q1.expected()` is code, not a value"),
        ("answer = _Any()", "a call `_Any()` is code"),
        ("answer = x", "a name `x` is code"),
        ("answer = CMQC.__class__", "an attribute `CMQC.__class__` is code"),
        ("answer = 3 * 180", "a calculation `3 * 180` is code"),
        ("answer = {'A'}\nanswer = {'B'}", "holds 2 statements"),
        ("import os\nanswer = 1", "holds 2 statements"),
        ("while True: pass", "must be one line answer = <your answer>"),
        ("STUDENT = 's1001'", "must be one line answer = <your answer>"),
        ("answer = {'A'", "not valid Python"),
        ("", "the answer cell is empty"),
        ("answer = " + "[" * 50 + "]" * 50, "nested too deeply"),
    ],
)
def test_anything_but_a_literal_is_no_answer(source: str, says: str) -> None:
    with pytest.raises(NotAnAnswer) as raised:
        read_answer(source)
    assert says in str(raised.value)


# --- assign: handouts bound to roster ids ------------------------------------------------------


def test_assign_writes_one_handout_per_roster_id_with_the_id_in_its_metadata(hw: Path) -> None:
    paths = sorted((hw / "handouts").glob("*.ipynb"))
    assert [p.stem for p in paths] == [f"s{1001 + i}" for i in range(30)], "trimmed, case-folded"
    for path in paths:
        notebook = json.loads(path.read_text())
        assert notebook["metadata"]["mqlearn"]["student"] == path.stem
        marked = [c for c in notebook["cells"] if "mqlearn" in c["metadata"]]
        assert [c["metadata"]["mqlearn"]["answer"] for c in marked] == list(QUESTIONS)
        assert {c["source"] for c in marked} == {"answer = ..."}
        assert all(c["cell_type"] == "code" for c in marked)
    one, other = handout(hw, "s1001"), handout(hw, "s1002")
    assert one["cells"][1:] != other["cells"][1:], "each handout shows its student's variant"
    manifest = json.loads((hw / "assignment.json").read_text())
    assert manifest["exercises"] == list(QUESTIONS) and manifest["points"] == POINTS


def test_assign_reports_and_warns_about_questions_too_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # no lesson question is short of answers now (docs/teaching.md): nb07.q5 without its
    # variants stands in for one, every student getting the notebook's scenario and its answer
    monkeypatch.setattr(checks.find_exercise("nb07.q5"), "variants", None)
    roster = write_roster(tmp_path / "r.csv", [f"s{i}" for i in range(30)])
    args = ["course", "assign", "nb07.q5", "nb06.q1", "--roster", str(roster)]
    assert cli.main([*args, "--out", str(tmp_path / "hw")]) == 0
    printed = capsys.readouterr().out
    assert "nb07.q5     1 distinct" in printed and "too alike" in printed
    assert "warning: nb07.q5: fewer than 4 distinct answers" in printed
    rows = list(csv.DictReader((tmp_path / "hw" / "variety.csv").open()))
    distinct = {r["exercise"]: int(r["distinct_answers"]) for r in rows}
    ids = [f"s{i}" for i in range(30)]
    for name in ("nb07.q5", "nb06.q1"):  # counted independently, from the engine
        assert distinct[name] == len({engine_answer(name, s) for s in ids})
    assert handouts.threshold(30) == 4 and handouts.threshold(15) == 2
    assert handouts.threshold(1) == 1


def test_a_failing_assign_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    roster = read_roster(write_roster(tmp_path / "r.csv", ["s1", "s2", "s3"]))
    calls = []

    def failing(*args: object, **kwargs: object) -> dict[str, Any]:
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("disk full")
        return {"cells": []}

    monkeypatch.setattr(handouts, "handout", failing)
    with pytest.raises(RuntimeError, match="disk full"):
        handouts.assign_class(["nb03.q1"], roster, tmp_path / "hw")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv"]
    (tmp_path / "hw").mkdir()
    (tmp_path / "hw" / "keep").write_text("graded work")
    with pytest.raises(ValueError, match="already exists and is not empty"):
        handouts.assign_class(["nb03.q1"], roster, tmp_path / "hw")
    assert (tmp_path / "hw" / "keep").read_text() == "graded work"


def test_a_failing_otter_assign_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The otter export too (issue 21: a crash left a partial dist/)."""
    import subprocess

    from mqlearn.checks import assignment

    def otter_fails(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        (Path(command[-1]) / "partial").mkdir(parents=True)  # otter had begun writing dist/
        return subprocess.CompletedProcess(command, 1, "", "NameError: name 'CMQC'")

    monkeypatch.setattr(assignment.subprocess, "run", otter_fails)
    with pytest.raises(RuntimeError, match="otter assign failed"):
        assignment.assign(["nb03.q1"], tmp_path / "hw")
    assert list(tmp_path.iterdir()) == []


def test_the_roster_names_its_problems(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text("ID,name\n S1 ,a\ns1,b\n,c\nbad/id,d\ns2,e\n", encoding="utf-8")
    roster = read_roster(path)
    assert roster.ids == ["s1", "s2"] and roster.duplicates == ["s1"]
    assert roster.problems == [
        "line 3: the id 's1' is already on line 2",
        "line 4: no id",
        "line 5: the id 'bad/id' is not letters, digits and . _ @ + - only",
    ]
    path.write_text("student,name\ns1,a\n")
    with pytest.raises(ValueError, match="has no column 'id'"):
        read_roster(path)


LESSON_EXERCISES = [e.name for e in checks.exercises() if "01" <= e.name[2:4] <= "08"]


@pytest.mark.slow
def test_every_exercise_can_be_assigned_and_its_solution_scores_full_marks(
    tmp_path: Path,
) -> None:
    roster = write_roster(tmp_path / "r.csv", ["s1", "s2"])
    out = tmp_path / "all"
    assert cli.main(["course", "assign", "nb01", "nb02", "nb03", "nb04", "nb05", "nb06", "nb07",
                     "nb08", "--roster", str(roster), "--out", str(out)]) == 0  # fmt: skip
    solved = []
    for student in ("s1", "s2"):
        answers = {name: typed(name, student) for name in LESSON_EXERCISES}
        notebook = handouts.with_answers(handout(out, student), answers)
        solved.append(save(tmp_path, f"{student}.ipynb", notebook))
    code, rows = grade(out, tmp_path / "results", *solved)
    assert code == 0
    for student in ("s1", "s2"):
        assert sorted(rows[student]) == sorted(LESSON_EXERCISES)
        assert total(rows[student]) == len(LESSON_EXERCISES), rows[student]


def test_the_otter_masters_solutions_run() -> None:
    """Every solution of the otter export runs and is right; nb02.q2, nb04.q4, nb05.q1 and
    nb05.q2 name CMQC, which the first cell imports (issue 21: NameError in otter assign)."""
    from mqlearn.checks import assignment

    exercises = assignment.chosen_exercises(LESSON_EXERCISES)
    cells = assignment.master_notebook(exercises, name="x")["cells"]
    code = [c["source"] for c in cells if c["cell_type"] == "code"]
    namespace: dict[str, object] = {}
    exec(code[0].replace("watch_cells()", ""), namespace)
    for source in code:
        if "# SOLUTION" in source and "STUDENT" not in source:
            exec(source, namespace)
    for exercise in exercises:
        variable = assignment.answer_variable(exercise.name)
        right = exercise.expected(student_seed("instructor"))
        assert exercise.form.read(namespace[variable]) == right


# --- the attacks of issue 21, on the handout path ----------------------------------------------


def test_patching_the_checker_scores_nothing(hw: Path, tmp_path: Path) -> None:
    notebook = add_cell(
        handout(hw, "s1003"),
        "import mqlearn.checks.assignment as _a\n"
        "import mqlearn.checks.gradebook as _g\n"
        "_a.check_answer = _a.check_form = _a.check_student = lambda *a, **k: None\n"
        "_g.grade_question = lambda *a, **k: None",
    )
    code, rows = grade(hw, tmp_path / "out", save(tmp_path, "s1003.ipynb", notebook))
    assert code == 0 and total(rows["s1003"]) == 0
    assert {r["status"] for r in rows["s1003"].values()} == {"blank"}


@pytest.mark.parametrize(
    "swap", ['STUDENT = "s1001"', 'globals()["STUDENT"] = "s1001"', "set_student('s1001')"]
)
def test_swapping_the_id_in_code_changes_nothing(hw: Path, tmp_path: Path, swap: str) -> None:
    """s1005 declares s1001 in a later cell and pastes s1001's answers: graded as s1005."""
    answers = {name: typed(name, "s1001") for name in QUESTIONS}
    notebook = add_cell(handouts.with_answers(handout(hw, "s1005"), answers), swap, at=3)
    code, rows = grade(hw, tmp_path / "out", save(tmp_path, "s1005.ipynb", notebook))
    assert code == 0 and list(rows) == ["s1005"]
    own = sum(engine_answer(n, "s1001") == engine_answer(n, "s1005") for n in QUESTIONS)
    assert total(rows["s1005"]) == POINTS * own < POINTS * len(QUESTIONS)
    assert {r["seed"] for r in rows["s1005"].values()} == {str(student_seed("s1005"))}


def test_an_always_equal_object_or_expected_scores_nothing(hw: Path, tmp_path: Path) -> None:
    answers = {
        "nb01.q2": "class _Any(int):\n    __eq__ = lambda s, o: True\nanswer = _Any()",
        "nb03.q2": "answer = nb03.q2.expected()",
        "nb04.q3": "answer = _Any()",
        "nb06.q1": "from mqlearn.checks import nb06\nanswer = nb06.q1.expected()",
    }
    notebook = add_cell(
        handouts.with_answers(handout(hw, "s1004"), answers),
        "class _Any(int):\n    __eq__ = lambda s, o: True\n    __hash__ = int.__hash__",
    )
    code, rows = grade(hw, tmp_path / "out", save(tmp_path, "s1004.ipynb", notebook))
    assert code == 0 and total(rows["s1004"]) == 0
    assert {r["status"] for r in rows["s1004"].values()} == {"unreadable"}
    assert "a call `nb03.q2.expected()` is code" in rows["s1004"]["nb03.q2"]["feedback"]
    assert "holds 2 statements" in rows["s1004"]["nb01.q2"]["feedback"]


def test_an_endless_loop_does_not_hang_grading(hw: Path, tmp_path: Path) -> None:
    answers = {name: typed(name, "s1006") for name in QUESTIONS}
    answers["nb03.q2"] = "while True:\n    pass"
    notebook = add_cell(handouts.with_answers(handout(hw, "s1006"), answers), "while True: pass")
    start = time.monotonic()
    code, rows = grade(hw, tmp_path / "out", save(tmp_path, "s1006.ipynb", notebook))
    assert time.monotonic() - start < 60, "no code is run, so no loop can run"
    assert code == 0 and total(rows["s1006"]) == POINTS * (len(QUESTIONS) - 1)
    assert rows["s1006"]["nb03.q2"]["points"] == "0"


def test_a_garbage_file_gets_rows_saying_why(hw: Path, tmp_path: Path) -> None:
    garbage = tmp_path / "s1007.ipynb"
    garbage.write_bytes(b"\x00\xff{ not a notebook")
    code, rows = grade(hw, tmp_path / "out", garbage)
    assert code == 0 and sorted(rows["s1007"]) == sorted(QUESTIONS)
    assert all("not a notebook" in r["feedback"] for r in rows["s1007"].values())
    assert total(rows["s1007"]) == 0


def test_a_missing_file_is_an_error_but_the_rest_is_graded(hw: Path, tmp_path: Path) -> None:
    right = handouts.with_answers(
        handout(hw, "s1008"), {name: typed(name, "s1008") for name in QUESTIONS}
    )
    code, rows = grade(
        hw, tmp_path / "out", save(tmp_path, "s1008.ipynb", right), tmp_path / "gone.ipynb"
    )
    assert code == 1 and total(rows["s1008"]) == POINTS * len(QUESTIONS)
    code, rows = grade(hw, tmp_path / "again", tmp_path)  # a directory: its .ipynb files
    assert code == 0 and list(rows) == ["s1008"]
    assert cli.main(["course", "grade", str(tmp_path), "x.ipynb", "--out", "o"]) == 2


def test_a_deleted_answer_cell_and_an_answer_elsewhere(hw: Path, tmp_path: Path) -> None:
    notebook = handout(hw, "s1009")
    notebook["cells"] = [
        c for c in notebook["cells"] if c["metadata"].get("mqlearn", {}).get("answer") != "nb03.q2"
    ]
    add_cell(notebook, typed("nb03.q2", "s1009"))  # the right answer, in an unmarked cell
    code, rows = grade(hw, tmp_path / "out", save(tmp_path, "s1009.ipynb", notebook))
    row = rows["s1009"]["nb03.q2"]
    assert code == 0 and row["points"] == "0" and row["status"] == "missing"
    assert "the answer cell is missing" in row["feedback"]
    assert "An answer outside the cell marked for nb03.q2 is not read" in row["feedback"]


def test_an_untouched_handout_scores_nothing(hw: Path, tmp_path: Path) -> None:
    code, rows = grade(hw, tmp_path / "out", hw / "handouts" / "s1010.ipynb")
    assert code == 0 and total(rows["s1010"]) == 0
    assert all("no answer" in r["feedback"] for r in rows["s1010"].values())


def test_a_classmates_notebook_is_flagged_and_graded_as_the_senders(
    hw: Path, tmp_path: Path
) -> None:
    """s1012 hands in s1011's filled-in notebook, through Canvas (file names carry lms ids)."""
    filled = handouts.with_answers(
        handout(hw, "s1011"), {name: typed(name, "s1011") for name in QUESTIONS}
    )
    own = save(tmp_path, "doe_70010_123_s1011.ipynb", filled)  # s1011 is the 11th: lms 70010
    copy = save(tmp_path, "roe_70011_124_s1011.ipynb", filled)  # s1012 uploads the same file
    code, rows = grade(hw, tmp_path / "out", own, copy)
    assert code == 0 and sorted(rows) == ["s1011", "s1012"]
    assert total(rows["s1011"]) == POINTS * len(QUESTIONS)
    same = sum(engine_answer(n, "s1011") == engine_answer(n, "s1012") for n in QUESTIONS)
    assert total(rows["s1012"]) == POINTS * same
    flags = rows["s1012"]["nb03.q2"]["flags"]
    assert "the file is s1012's but the notebook inside is the handout of s1011" in flags
    assert "duplicate content: the same notebook as s1011 (doe_70010_123_s1011.ipynb)" in flags
    assert "its questions are s1011's variants" in flags
    assert "duplicate content" in rows["s1011"]["nb03.q2"]["flags"]


def test_a_file_renamed_or_relabelled_never_displaces_a_classmates(
    hw: Path, tmp_path: Path
) -> None:
    """Without LMS ids in the file names: s1015 hands in a file named after s1016, another whose
    metadata names s1016, and a garbage file named after s1016, last. s1016's own notebook (name
    and metadata agree) is the one graded."""
    real = handouts.with_answers(
        handout(hw, "s1016"), {name: typed(name, "s1016") for name in QUESTIONS}
    )
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    own = save(tmp_path / "a", "s1016.ipynb", real)
    renamed = save(tmp_path / "b", "s1016.ipynb", handout(hw, "s1015"))
    relabelled = handout(hw, "s1015")
    relabelled["metadata"]["mqlearn"]["student"] = "s1016"
    relabelled_path = save(tmp_path, "s1015.ipynb", relabelled)
    (tmp_path / "c").mkdir()
    garbage = tmp_path / "c" / "s1016.ipynb"
    garbage.write_text("not a notebook")
    code, rows = grade(hw, tmp_path / "out", own, renamed, relabelled_path, garbage)
    assert code == 0 and sorted(rows) == ["s1015", "s1016"]
    assert total(rows["s1016"]) == POINTS * len(QUESTIONS)
    assert rows["s1016"]["nb03.q2"]["file"] == "s1016.ipynb"
    assert "also has s1015.ipynb (not graded)" in rows["s1016"]["nb03.q2"]["flags"]
    assert total(rows["s1015"]) == 0, "the renamed file is graded as the handout's own student"
    assert (
        "the file name names s1016 but the notebook inside is the handout of s1015"
        in (rows["s1015"]["nb03.q2"]["flags"])
    )


def test_the_gradebook_files(hw: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    answers = {name: wrong(name, "s1013") for name in QUESTIONS}
    sub = save(tmp_path, "s1013.ipynb", handouts.with_answers(handout(hw, "s1013"), answers))
    stranger = handout(hw, "s1014")
    stranger["metadata"]["mqlearn"]["student"] = "x999"
    code, rows = grade(hw, out, sub, save(tmp_path, "from-someone.ipynb", stranger))
    assert code == 0 and rows["x999"]["nb03.q2"]["seed"] == str(student_seed("x999"))
    flags = list(csv.reader((out / "flags.csv").open()))
    assert ["", "s1001", "on the roster, no submission"] in flags
    assert ["from-someone.ipynb", "x999", "x999 is not on the roster"] in flags
    canvas = list(csv.reader((out / "canvas.csv").open()))
    assert canvas[0] == [*CANVAS_COLUMNS, "hw1"] and len(canvas) == 31
    assert canvas[13] == ["Student  S1013", "70012", "sis-S1013", "S0", "0"]
    assert canvas[1][-1] == "", "nothing handed in: left blank"
    page = (out / "feedback" / "s1013.md").read_text()
    assert page.startswith("# hw1: feedback for s1013\n\n**Score: 0 / 8**")
    assert f"variant seed {student_seed('s1013')}" in page and "Not quite" in page
    table = list(csv.DictReader((out / "misconceptions.csv").open()))
    assert {r["exercise"] for r in table} <= set(QUESTIONS)
    assert all(r["wrong"] == "1" for r in table if r["exercise"] != "nb04.q3")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["totals"] == {"s1013": 0, "x999": 0}


# --- a class of 30 ------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_class_of_30_is_graded_as_the_engine_says(hw: Path, tmp_path: Path) -> None:
    """Right, wrong, blank and malformed answers, one pattern a student; LMS-style file names;
    each score checked against the engine's answer for that student's variant."""
    kinds = ("right", "wrong", "blank", "malformed")
    submissions, expected = [], {}
    for i in range(30):
        student = f"s{1001 + i}"
        answers, points = {}, {}
        for j, name in enumerate(QUESTIONS):
            kind = kinds[(i + j) % 4] if i % 3 else "right"
            answers[name] = {
                "right": typed(name, student),
                "wrong": wrong(name, student),
                "blank": "answer = ...",
                "malformed": "answer = sorted({'A'})",
            }[kind]
            points[name] = POINTS if kind == "right" else 0
        notebook = handouts.with_answers(handout(hw, student), answers)
        name = f"student{i}_{70000 + i}_{900 + i}_{student}.ipynb"
        submissions.append(save(tmp_path, name, notebook))
        expected[student] = points
    start = time.perf_counter()
    code, rows = grade(hw, tmp_path / "out", *submissions)
    print(f"\n30 submissions of {len(QUESTIONS)} questions: {time.perf_counter() - start:.2f} s")
    assert code == 0 and sorted(rows) == sorted(expected)
    for student, points in expected.items():
        for name, want in points.items():
            row = rows[student][name]
            assert float(row["points"]) == want, (student, name, row["feedback"])
            assert row["max_points"] == str(POINTS) and row["seed"] == str(student_seed(student))
            assert row["flags"] == ""


# --- the class-wide view -------------------------------------------------------------------------


@pytest.mark.slow
def test_the_misconception_table_and_chart_count_what_the_scores_say(tmp_path: Path) -> None:
    from mqlearn.checks.gradebook import load_misconceptions, misconception_figure
    from mqlearn.checks.sample_class import sample_class

    results = sample_class(tmp_path / "class", students=12)
    scores = load_scores(results)
    assert len(scores) == 12 * 6 and {r["student"] for r in scores} == {
        f"s{1001 + i}" for i in range(12)
    }
    counted = {
        (r["exercise"], fact): sum(
            fact in s["misconceptions"].split(";") for s in scores if s["exercise"] == r["exercise"]
        )
        for r in load_misconceptions(results)
        for fact in [r["misconception"]]
    }
    table = {
        (r["exercise"], r["misconception"]): int(r["students"])
        for r in load_misconceptions(results)
    }
    assert table == counted and sum(table.values()) > 0
    for row in scores:  # a misconception is a wrong answer the engine's facts name
        if row["misconceptions"]:
            assert row["status"] == "wrong" and row["points"] == "0"
    (bar,) = misconception_figure(results).data
    assert sorted(bar.x) == sorted(table.values())


@pytest.mark.slow
def test_the_teacher_notebook_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """notebooks/teacher/class_results.ipynb, on a made-up class (no MQLEARN_RESULTS)."""
    nbclient = pytest.importorskip("nbclient")
    import nbformat

    path = Path(__file__).resolve().parents[1] / "notebooks" / "teacher" / "class_results.ipynb"
    notebook = nbformat.read(path, as_version=4)
    monkeypatch.delenv("MQLEARN_RESULTS", raising=False)
    nbclient.NotebookClient(
        notebook, timeout=300, resources={"metadata": {"path": tmp_path}}
    ).execute()
    last = notebook.cells[-1].outputs[0]["data"]
    assert "application/vnd.plotly.v1+json" in last


@pytest.mark.slow
def test_the_grading_benchmark_runs() -> None:
    """benchmarks/bench_grading.py on a small class, without the otter baseline: it runs and its
    own cross-check (answers graded right = answers written right) holds. No timing asserted."""
    import subprocess
    import sys

    bench = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_grading.py"
    done = subprocess.run(
        [sys.executable, str(bench), "--students", "4", "--reps", "1", "--otter", "0"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "grade / floor" in done.stdout and "cross-check: 6 answers graded right" in done.stdout
