"""Assignments for otter-grader (``mqlearn.checks.assignment``, ``mqlearn course assign|grade``).

The end-to-end test uses the real otter-grader from PyPI (the ``teach`` extra): it makes an
assignment, fills in student copies with right answers, wrong ones, broken code and deleted
cells, grades them without Docker (``otter run``), and checks each score. Every student is
graded against their own variant; the right answers come from the engine, never from here.
"""

from __future__ import annotations

import ast
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from mqlearn import checks, cli
from mqlearn.checks import assignment
from mqlearn.checks.assignment import (
    CELL_ERRORS,
    STUDENT,
    SubmissionProblem,
    answer_variable,
    check_answer,
    check_form,
    check_student,
)
from mqlearn.checks.students import student_seed

QUESTIONS = ("nb03.q1", "nb04.q3", "nb06.q1")  # a set of letters, a choice, two numbers


def right_answer(name: str, student: str) -> str:
    """The answer as a student would type it, for their variant, from the engine."""
    exercise = checks.find_exercise(name)
    return exercise.form.show(exercise.expected(student_seed(student)))


def wrong_answer(name: str, student: str) -> str:
    """An answer of the right form that the engine does not give."""
    exercise = checks.find_exercise(name)
    right = exercise.expected(student_seed(student))
    for candidate in ("{'Z'}", "'GONE.Q'", "(-5, -5)"):
        try:
            if exercise.form.read(eval(candidate)) != right:
                return candidate
        except ValueError:
            continue
    raise AssertionError(f"no wrong answer for {name}")


# --- the checks the autograder's tests call (no otter needed) ---------------------------------


def test_a_right_answer_passes_for_its_own_student_only() -> None:
    for name in QUESTIONS:
        env = {STUDENT: "alice", answer_variable(name): eval(right_answer(name, "alice"))}
        check_student(env)
        check_form(env, name)
        check_answer(env, name)
    differ = [right_answer(name, "alice") != right_answer(name, "bob") for name in QUESTIONS]
    assert any(differ), "students get different variants"


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({}, "The cell that sets STUDENT is missing, or did not run"),
        ({STUDENT: ...}, 'STUDENT must be your student id in quotes, such as STUDENT = "s1234567"'),
        ({STUDENT: "alice"}, "nb03.q1: the answer cell is missing, or failed before it set "),
        ({STUDENT: "alice", "answer_nb03_q1": ...}, "nb03.q1: no answer yet; replace the ..."),
        ({STUDENT: "alice", "answer_nb03_q1": 7}, "nb03.q1: give the letters in a set"),
        ({STUDENT: "alice", "answer_nb03_q1": {"Z"}}, "nb03.q1 (variant of 'alice'): Not quite"),
        (
            {
                STUDENT: "alice",
                CELL_ERRORS: {"answer_nb03_q1": "NameError: name 'x' is not defined"},
            },
            "nb03.q1: the answer cell failed with NameError: name 'x' is not defined",
        ),
    ],
)
def test_what_is_wrong_with_a_submission_is_said_in_a_sentence(
    env: dict[str, Any], says: str
) -> None:
    with pytest.raises(SubmissionProblem) as raised:
        check_answer(env, "nb03.q1")
    assert says in str(raised.value)


def test_the_master_notebook_follows_otters_format() -> None:
    exercises = assignment.chosen_exercises(["nb03.q1", "nb04"])
    notebook = assignment.master_notebook(exercises, name="hw1", points=2)
    cells = notebook["cells"]
    raw = [c["source"].splitlines()[0] for c in cells if c["cell_type"] == "raw"]
    assert raw[0] == "# ASSIGNMENT CONFIG"
    assert raw.count("# BEGIN QUESTION") == raw.count("# END QUESTION") == 1 + len(exercises)
    assert raw.count("# BEGIN TESTS") == raw.count("# END TESTS") == 1 + len(exercises)
    assert "name: nb04_q5\npoints: 2\ncheck_cell: false" in "\n".join(
        c["source"] for c in cells if c["cell_type"] == "raw"
    )
    tests = [c["source"] for c in cells if "BEGIN TEST CONFIG" in c["source"]]
    assert len(tests) == 1 + 2 * len(exercises)
    assert all("hidden: true\npoints: 2" in t for t in tests if "check_answer" in t)
    for exercise in exercises:  # the tests ask the engine; only the solution cell has the answer
        right = exercise.form.show(exercise.expected(student_seed("instructor")))
        variable = answer_variable(exercise.name)
        solution = [c["source"] for c in cells if c["source"].startswith(f"{variable} =")]
        assert solution == [f"{variable} = {right}  # SOLUTION"]

    for test in tests:  # no value in a test but the exercise's name: the engine has the answers
        body = ast.parse(test).body[1:]  # after the test's config string
        values = {n.value for s in body for n in ast.walk(s) if isinstance(n, ast.Constant)}
        assert values <= {e.name for e in exercises}, test
    assert len({c["id"] for c in cells}) == len(cells)


def test_chosen_exercises_names_what_it_does_not_know() -> None:
    assert [e.name for e in assignment.chosen_exercises(["3", "nb03.q2"])] == [
        "nb03.q1", "nb03.q2", "nb03.q3", "nb03.q4"
    ]  # fmt: skip
    with pytest.raises(ValueError, match="no notebook nb42 with exercises"):
        assignment.chosen_exercises(["nb42"])
    with pytest.raises(ValueError, match=r"no exercise 'nb03\.q9'"):
        assignment.chosen_exercises(["nb03.q9"])
    with pytest.raises(ValueError, match="name at least one"):
        assignment.chosen_exercises([])


def test_assign_refuses_a_bad_name_before_running_otter(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="assignment name"):
        assignment.assign(["nb03"], tmp_path, name="hw 1/../x")
    with pytest.raises(ValueError, match="points"):
        assignment.assign(["nb03"], tmp_path, points=0)
    assert list(tmp_path.iterdir()) == []


def test_missing_cells_and_the_declared_student_are_read_from_the_code(tmp_path: Path) -> None:
    path = tmp_path / "sub.ipynb"
    cells = [
        {"cell_type": "code", "source": 'STUDENT = "alice"\nset_student(STUDENT)'},
        {"cell_type": "code", "source": "answer_nb03_q1 = 1 / 0"},
        {"cell_type": "markdown", "source": "answer_nb04_q3 = 'DLQ'"},
    ]
    path.write_text(json.dumps({"cells": cells}))
    assert assignment.declared_student(path) == "alice"
    assert assignment.missing_cells(path, ["nb03.q1", "nb04.q3"]) == ["no cell sets answer_nb04_q3"]
    (tmp_path / "bad.ipynb").write_text("not json")
    with pytest.raises(ValueError, match="is not a readable notebook"):
        assignment.declared_student(tmp_path / "bad.ipynb")


# --- end to end, with the real otter-grader ---------------------------------------------------


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> assignment.Assignment:
    pytest.importorskip("otter", reason="the teach extra (otter-grader) is not installed")
    out = tmp_path_factory.mktemp("assignment")
    return assignment.assign(list(QUESTIONS), out, name="hw1", points=2)


def submission(made: assignment.Assignment, folder: Path, name: str, **answers: str | None) -> Path:
    """A filled-in copy of the student notebook: ``STUDENT`` (None: its cell deleted) and each
    answer by exercise (``nb03_q1=…``; None: the cell deleted)."""
    notebook = json.loads(made.student.read_text())
    kept = []
    for cell in notebook["cells"]:
        source = "".join(cell["source"])
        for key, value in answers.items():
            variable = STUDENT if key == STUDENT else answer_variable(key.replace("_", ".", 1))
            if source.startswith(f"{variable} = ..."):
                source = None if value is None else source.replace("...", value, 1)
                break
        if source is not None:
            cell["source"] = source
            kept.append(cell)
    notebook["cells"] = kept
    path = folder / f"{name}.ipynb"
    path.write_text(json.dumps(notebook))
    return path


@pytest.mark.slow
def test_an_assignment_is_graded_by_otter_against_each_students_variant(
    made: assignment.Assignment, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert made.exercises == QUESTIONS
    assert made.student.is_file() and made.autograder.suffix == ".zip"
    handed_out = made.student.read_text()
    for name in QUESTIONS:  # the student copy holds no answer, and needs no otter
        assert f"{answer_variable(name)} = ..." in handed_out
        assert f"{answer_variable(name)} = {right_answer(name, 'instructor')}" not in handed_out
    assert "SOLUTION" not in handed_out and "check_answer" not in handed_out
    assert "grader.check" not in handed_out and "import otter" not in handed_out

    alice = submission(
        made, tmp_path, "alice", STUDENT='"alice"',
        **{n.replace(".", "_"): right_answer(n, "alice") for n in QUESTIONS},
    )  # fmt: skip
    bob = submission(
        made, tmp_path, "bob", STUDENT='"bob"',
        nb03_q1=wrong_answer("nb03.q1", "bob"),  # wrong
        nb04_q3="undefined_name",  # broken code: NameError
        nb06_q1=None,  # the answer cell deleted
    )  # fmt: skip
    copier = submission(  # alice's answers under his own name: his variant differs
        made, tmp_path, "carl", STUDENT='"carl"',
        **{n.replace(".", "_"): right_answer(n, "alice") for n in QUESTIONS},
    )  # fmt: skip
    nobody = submission(
        made, tmp_path, "dana", STUDENT=None,
        **{n.replace(".", "_"): right_answer(n, "dana") for n in QUESTIONS},
    )  # fmt: skip
    broken_file = tmp_path / "eve.ipynb"
    broken_file.write_text("{ this is not a notebook")

    csv_path = tmp_path / "scores.csv"
    graded = {g.submission.stem: g for g in assignment.grade(
        [alice, bob, copier, nobody, broken_file], made.autograder, csv_path
    )}  # fmt: skip
    possible = 2 * len(QUESTIONS)
    assert graded["alice"].total == possible and graded["alice"].student == "alice"
    assert graded["alice"].problems == [] and graded["alice"].messages == {}

    assert graded["bob"].total == 0
    assert graded["bob"].problems == ["no cell sets answer_nb06_q1"]
    assert "Not quite" in graded["bob"].messages["nb03_q1"]
    assert "NameError: name 'undefined_name' is not defined" in graded["bob"].messages["nb04_q3"]
    assert "the answer cell is missing" in graded["bob"].messages["nb06_q1"]

    copied = sum(right_answer(n, "alice") == right_answer(n, "carl") for n in QUESTIONS)
    assert graded["carl"].total == 2 * copied < possible, "graded against carl's own variant"

    assert graded["dana"].total == 0 and "no cell sets STUDENT" in graded["dana"].problems
    assert graded["eve"].total == 0 and "not a readable notebook" in graded["eve"].problems[0]

    rows = csv_path.read_text().splitlines()
    assert rows[0] == "file,student,seed,total,nb03_q1,nb04_q3,nb06_q1,problems"
    assert rows[1].startswith(f"alice.ipynb,alice,{student_seed('alice')},{possible},2,2,2,")

    assert cli.main(["course", "otter-grade", "--autograder", str(made.autograder), str(bob)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(f"bob.ipynb: bob: 0 / {possible}\n  problem: no cell sets ")
    assert "nb04_q3 (0/2): nb04.q3: the answer cell failed with NameError" in printed


def test_grade_refuses_what_is_not_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    zip_path = tmp_path / "autograder.zip"
    assert cli.main(["course", "otter-grade", "--autograder", str(zip_path), "x.ipynb"]) == 2
    assert "no autograder zip" in capsys.readouterr().err
    zip_path.write_bytes(b"")
    assert cli.main(["course", "otter-grade", "--autograder", str(zip_path), "x.ipynb"]) == 2
    assert "no such submission file: x.ipynb" in capsys.readouterr().err


@pytest.mark.slow
def test_an_endless_loop_is_stopped_by_the_timeout(
    made: assignment.Assignment, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """otter runs the student's code: a `while True: pass` must not hang the batch (issue 21),
    and nothing it started (otter, its kernel) may be left running."""
    import time
    import uuid

    tag = f"MQLEARN_TEST_TAG={uuid.uuid4()}"  # inherited by otter and its kernel
    monkeypatch.setenv(*tag.split("="))
    looping = submission(
        made, tmp_path, "loop", STUDENT='"alice"',
        nb03_q1=right_answer("nb03.q1", "alice") + "\nwhile True:\n    pass",
    )  # fmt: skip
    start = time.monotonic()
    (graded,) = assignment.grade([looping], made.autograder, timeout=20)
    assert time.monotonic() - start < 90
    assert graded.total == 0
    assert "stopped after 20 s (an endless loop?)" in graded.problems[-1]
    time.sleep(1)
    assert _tagged(tag) == [], "otter and its kernel are gone"
    with subprocess.Popen(["sleep", "30"]) as control:  # the check sees a tagged child
        time.sleep(0.2)
        assert _tagged(tag) == [control.pid]
        control.kill()


def _tagged(tag: str) -> list[int]:
    """The processes whose environment holds ``tag`` (this one's /proc view is its start's)."""
    return [int(p.parent.name) for p in Path("/proc").glob("[0-9]*/environ") if tag in _read(p)]


def _read(path: Path) -> str:
    try:
        return path.read_bytes().replace(b"\0", b"\n").decode(errors="replace")
    except OSError:
        return ""
