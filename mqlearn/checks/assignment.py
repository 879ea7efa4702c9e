"""Graded assignments for otter-grader, made from the course's exercises, one variant a student.

``mqlearn course assign nb03 nb04.q2 --out hw1`` writes an Otter Assign master notebook (otter's
notebook format: raw ``# BEGIN QUESTION`` / ``# BEGIN SOLUTION`` / ``# BEGIN TESTS`` cells,
exception-based test cells) and runs ``otter assign`` on it. The student notebook asks for the
student's id first (``STUDENT = ...``); every question then prints that student's variant
(``nb03.q1.show()`` after ``set_student(STUDENT)``) and asks for ``answer_nb03_q1 = ...``.

The tests never hold an answer: each calls back into this module (:func:`check_form`, public,
0 points; :func:`check_answer`, hidden, the question's points), which asks the engine for the
right answer of the variant of the id the submission declares. So one autograder grades every
student, each against their own variant. A broken answer cell, a deleted cell or a missing id
fails that question's tests with a sentence saying which cell and what to do; it never stops
the grading of the rest (otter runs the notebook on past errors).

The master's own solutions are those of the student id ``instructor`` (otter assign checks them).
"""

from __future__ import annotations

import ast
import contextlib
import csv
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mqlearn.checks.atomic import building
from mqlearn.checks.exercise import Exercise
from mqlearn.checks.students import student_seed

STUDENT = "STUDENT"  # the variable a submission names its student with
CELL_ERRORS = "_mqlearn_cell_errors"  # in a submission's globals: variable -> its cell's error
SOLUTION_STUDENT = "instructor"  # whose variant the master notebook's solutions answer
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


class SubmissionProblem(AssertionError):
    """What is wrong with a submission, in a sentence for the student (a failing test)."""


def answer_variable(exercise: str) -> str:
    """``answer_nb03_q1``: the variable a submission answers exercise ``nb03.q1`` in."""
    return "answer_" + exercise.replace(".", "_")


def chosen_exercises(items: Sequence[str]) -> list[Exercise]:
    """The exercises ``items`` name: whole notebooks (``nb03``, ``03``, ``3``) or single
    exercises (``nb03.q2``), in the order given, each once. ValueError names an unknown one."""
    from mqlearn.checks import exercise_modules, exercises, find_exercise
    from mqlearn.checks.progress import notebook_key

    if not items:
        raise ValueError("name at least one notebook (nb03) or exercise (nb03.q2)")
    modules = {m.__name__.rsplit(".", 1)[1]: m for m in exercise_modules()}
    chosen: list[Exercise] = []
    for item in items:
        if "." in item:
            found = [find_exercise(item)]
        else:
            key = notebook_key(item)
            if key not in modules:
                raise ValueError(
                    f"no notebook {key} with exercises; there are {', '.join(modules)}"
                )
            found = exercises(modules[key])
        chosen += [e for e in found if e not in chosen]
    return chosen


# --- the master notebook ---------------------------------------------------------------------


def assignment_of(
    items: Sequence[str], name: str | None, points: float
) -> tuple[list[Exercise], str]:
    """The exercises ``items`` name and the assignment's name (by default their notebooks',
    ``nb01-nb03``); ValueError for a name that is not a file name or points of 0 or less."""
    exercises = chosen_exercises(items)
    name = name or "-".join(dict.fromkeys(e.name.split(".")[0] for e in exercises))
    if not NAME.fullmatch(name):
        raise ValueError(f"an assignment name is letters, digits, '_', '.' or '-'; got {name!r}")
    if points <= 0:
        raise ValueError(f"points per question must be more than 0; got {points}")
    return exercises, name


def _config(name: str) -> str:
    return textwrap.dedent(
        f"""\
        # ASSIGNMENT CONFIG
        name: {name}
        init_cell: false
        check_all_cell: false
        export_cell: false
        solutions_pdf: false
        template_pdf: false
        run_tests: true
        tests:
          ok_format: false
        generate:
          pdf: false
          show_stdout: true
        """
    )


def _cell(kind: str, source: str) -> dict[str, Any]:
    """A notebook cell of ``kind`` (code, markdown or raw)."""
    cell: dict[str, Any] = {"cell_type": kind, "metadata": {}, "source": source}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def _question(name: str, points: float) -> str:
    """A question's boundary cell; no ``grader.check`` cell (students need no otter)."""
    return f"# BEGIN QUESTION\nname: {name}\npoints: {points}\ncheck_cell: false"


def _test(function: str, check: str, arguments: str, *, points: float, hidden: bool) -> str:
    """An exception-based otter test cell: its config, then one function calling ``check``."""
    return textwrap.dedent(
        f'''\
        """ # BEGIN TEST CONFIG
        hidden: {str(hidden).lower()}
        points: {points}
        """ # END TEST CONFIG
        def {function}(env):
            from mqlearn.checks.assignment import {check}

            {check}(env{arguments})
        '''
    )


def master_notebook(
    exercises: Sequence[Exercise], *, name: str, points: float = 1
) -> dict[str, Any]:
    """The Otter Assign master notebook (notebook JSON, nbformat 4.5) for ``exercises``."""
    modules = sorted({e.name.split(".")[0] for e in exercises})
    instructor_seed = student_seed(SOLUTION_STUDENT)
    cells = [
        _cell("raw", _config(name)),
        _cell(
            "markdown",
            f"# Assignment {name}\n\n"
            "Each question runs a small scenario on mqlearn's queue manager and asks you to "
            "predict what it does, as the course notebooks' exercises do. Your scenarios are your "
            "own: they are drawn from your student id, so first set `STUDENT` to it and run the "
            "cells from the top. Then, for each question, run the cell that shows it and replace "
            "the `...` after `answer_… =` with your prediction.\n\n"
            "Do not delete or rename cells: the grader looks for `STUDENT` and each `answer_…` "
            "variable. An answer that cannot be read, or a cell that fails, scores 0 for that "
            "question only.",
        ),
        _cell(
            "code",
            "from mqlearn import CMQC  # noqa: F401 - reason-code answers name CMQC's constants\n"
            "from mqlearn.checks import set_student\n"
            f"from mqlearn.checks import {', '.join(modules)}\n"
            "from mqlearn.checks.assignment import watch_cells\n\n"
            "watch_cells()  # an error in one of your cells is reported with that question's score",
        ),
        _cell("raw", _question("student", 0)),
        _cell("markdown", "**Your student id**, as your instructor gave it (a string)."),
        _cell("raw", "# BEGIN SOLUTION"),
        _cell("code", f'{STUDENT} = "{SOLUTION_STUDENT}"  # SOLUTION\nset_student({STUDENT})'),
        _cell("raw", "# END SOLUTION"),
        _cell("raw", "# BEGIN TESTS"),
        _cell("code", _test("test_student", "check_student", "", points=0, hidden=False)),
        _cell("raw", "# END TESTS"),
        _cell("raw", "# END QUESTION"),
    ]
    for exercise in exercises:
        label = exercise.name.replace(".", "_")
        variable = answer_variable(exercise.name)
        right = exercise.form.show(exercise.expected(instructor_seed))
        example, _, aside = exercise.form.example.partition("  (")
        aside = f" ({aside}" if aside else ""
        cells += [
            _cell("raw", _question(label, points)),
            _cell(
                "markdown",
                f"## {exercise.name}\n\nRun the next cell: it prints your variant of the "
                f"question and the scenario. Then set `{variable}` to your prediction, in the "
                f"form the question asks, for example `{example}`{aside}.",
            ),
            _cell("code", f"{exercise.name}.show()"),
            _cell("raw", "# BEGIN SOLUTION"),
            _cell("code", f"{variable} = {right}  # SOLUTION"),
            _cell("raw", "# END SOLUTION"),
            _cell("raw", "# BEGIN TESTS"),
            _cell(
                "code",
                _test(
                    f"test_{label}_form",
                    "check_form",
                    f', "{exercise.name}"',
                    points=0,
                    hidden=False,
                ),
            ),
            _cell(
                "code",
                _test(
                    f"test_{label}_right",
                    "check_answer",
                    f', "{exercise.name}"',
                    points=points,
                    hidden=True,
                ),
            ),
            _cell("raw", "# END TESTS"),
            _cell("raw", "# END QUESTION"),
        ]
    for number, cell in enumerate(cells):
        cell["id"] = f"mqlearn-{number}"
    kernel = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return {
        "cells": cells,
        "metadata": {"kernelspec": kernel, "language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


@dataclass(frozen=True)
class Assignment:
    """What ``assign`` wrote: the master notebook, the student notebook to hand out, and the
    autograder zip to grade with."""

    master: Path
    student: Path
    autograder: Path
    exercises: tuple[str, ...]


def assign(
    items: Sequence[str],
    out: Path,
    *,
    name: str | None = None,
    points: float = 1,
    run_tests: bool = True,
) -> Assignment:
    """Write the master notebook for ``items`` to ``out/source`` and run ``otter assign`` on it
    into ``out/dist`` (``student/`` to hand out, ``autograder/<name>-autograder_*.zip`` to grade
    with). ``otter assign`` first grades the master's own solutions (``run_tests``). ``out`` is
    new or empty, and appears only once everything in it is written."""
    exercises, name = assignment_of(items, name, points)
    with building(out) as work:
        master = work / "source" / f"{name}.ipynb"
        master.parent.mkdir()
        notebook = master_notebook(exercises, name=name, points=points)
        master.write_text(json.dumps(notebook, indent=1) + "\n", encoding="utf-8")
        dist = work / "dist"
        command = [sys.executable, "-m", "otter", "assign", "--no-pdfs", str(master), str(dist)]
        if not run_tests:
            command.insert(4, "--no-run-tests")
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"otter assign failed:\n{done.stdout}{done.stderr}".rstrip())
        (autograder,) = (dist / "autograder").glob("*.zip")  # otter names it after the assignment
    return Assignment(
        out / "source" / master.name,
        out / "dist" / "student" / master.name,
        out / "dist" / "autograder" / autograder.name,
        tuple(e.name for e in exercises),
    )


# --- what the autograder's tests call, against a submission's globals --------------------------


def watch_cells() -> None:
    """In a notebook: remember the error of each cell that fails, by the ``STUDENT`` or
    ``answer_…`` variable it was to set, so the grader can show it with that question's score."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with Jupyter
        return
    shell = get_ipython()
    if shell is None:
        return
    errors: dict[str, str] = shell.user_ns.setdefault(CELL_ERRORS, {})

    def after(result: Any) -> None:
        error = result.error_before_exec or result.error_in_exec
        source = result.info.raw_cell if result.info is not None else ""
        for variable in re.findall(rf"^\s*({STUDENT}|answer_\w+)\s*=", source, re.MULTILINE):
            if error is None:
                errors.pop(variable, None)
            else:
                errors[variable] = f"{type(error).__name__}: {error}"

    shell.events.register("post_run_cell", after)


def _cell_error(env: Mapping[str, object], variable: str) -> str | None:
    errors = env.get(CELL_ERRORS)
    return errors.get(variable) if isinstance(errors, dict) else None


def _student(env: Mapping[str, object]) -> str:
    failed = _cell_error(env, STUDENT)
    if failed and not isinstance(env.get(STUDENT), str):
        raise SubmissionProblem(f"The cell that sets {STUDENT} failed with {failed}.")
    if STUDENT not in env:
        raise SubmissionProblem(
            f"The cell that sets {STUDENT} is missing, or did not run: put it back, as "
            f'{STUDENT} = "your-id", above the questions, and run the notebook from the top.'
        )
    student = env[STUDENT]
    if not isinstance(student, str) or not student.strip():
        raise SubmissionProblem(
            f'{STUDENT} must be your student id in quotes, such as {STUDENT} = "s1234567"; '
            f"it is {student!r}."
        )
    return student


def check_student(env: Mapping[str, object]) -> None:
    """The submission names its student."""
    _student(env)


def _answer(env: Mapping[str, object], exercise: Exercise) -> object:
    variable = answer_variable(exercise.name)
    failed = _cell_error(env, variable)
    if failed:
        raise SubmissionProblem(
            f"{exercise.name}: the answer cell failed with {failed}; fix it so that it sets "
            f"{variable}, and run it again."
        )
    if variable not in env:
        raise SubmissionProblem(
            f"{exercise.name}: the answer cell is missing, or failed before it set {variable} "
            f"(see the error under that cell). Put back a cell with {variable} = <your answer>."
        )
    value = env[variable]
    if value is Ellipsis or value is None:
        raise SubmissionProblem(
            f"{exercise.name}: no answer yet; replace the ... after {variable} = with your answer."
        )
    return value


def check_form(env: Mapping[str, object], name: str) -> None:
    """The answer to exercise ``name`` is there and has the form the question asks."""
    from mqlearn.checks import find_exercise

    exercise = find_exercise(name)
    value = _answer(env, exercise)
    try:
        exercise.form.read(value)
    except ValueError as error:
        raise SubmissionProblem(f"{name}: {error}.") from None


def check_answer(env: Mapping[str, object], name: str) -> None:
    """The answer to exercise ``name`` is what the engine does in this student's variant."""
    from mqlearn.checks import find_exercise

    exercise = find_exercise(name)
    student = _student(env)
    check_form(env, name)  # the same sentence as the public test for an unreadable answer
    feedback = exercise.grade(_answer(env, exercise), student_seed(student))
    if not feedback.correct:
        raise SubmissionProblem(f"{name} (variant of {student!r}): {feedback.text}")


# --- grading ---------------------------------------------------------------------------------


def _sources(path: Path) -> list[str]:
    """The code cells of a notebook file; ValueError when it is not one."""
    try:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{path} is not a readable notebook: {error}") from None
    return [
        "".join(cell.get("source", ""))
        for cell in cells
        if isinstance(cell, dict) and cell.get("cell_type") == "code"
    ]


def declared_student(path: Path) -> str | None:
    """The student id a submission sets ``STUDENT`` to, read from its code (None if none)."""
    for source in _sources(path):
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == STUDENT for t in node.targets)
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)
            ):
                return node.value.value
    return None


def missing_cells(path: Path, exercises: Sequence[str]) -> list[str]:
    """The cells a submission lacks, as sentences: the one setting ``STUDENT`` and each
    ``answer_…`` one (found by the assignment they make, even in a cell that does not run)."""
    code = "\n".join(_sources(path))
    wanted = [STUDENT, *(answer_variable(name) for name in exercises)]
    return [
        f"no cell sets {variable}"
        for variable in wanted
        if not re.search(rf"^\s*{re.escape(variable)}\s*=", code, re.MULTILINE)
    ]


@dataclass
class Graded:
    """One submission's grade: points per question (otter's), what is wrong, by whom."""

    submission: Path
    student: str | None
    scores: dict[str, float] = field(default_factory=dict)
    possible: dict[str, float] = field(default_factory=dict)
    messages: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def total(self) -> float:
        return sum(self.scores.values())


def _exercises_in(autograder: Path) -> list[str]:
    """The exercise names an autograder's tests check (from its test file names)."""
    import zipfile

    with zipfile.ZipFile(autograder) as archive:
        names = [Path(n).stem for n in archive.namelist() if re.fullmatch(r"tests/[^/]+\.py", n)]
    return [n.replace("_", ".", 1) for n in sorted(names) if re.fullmatch(r"nb\d\d_\w+", n)]


def grade_one(submission: Path, autograder: Path, timeout: float | None = None) -> Graded:
    """Run ``otter run`` (no Docker) on one submission and read its results. A file that is no
    notebook, that otter cannot run at all, or that runs longer than ``timeout`` seconds (an
    endless loop), scores 0 with the reason in ``problems``. otter runs the student's code, as
    the user who runs this, on this machine (docs/teaching.md)."""
    exercises = _exercises_in(autograder)
    try:
        graded = Graded(submission, declared_student(submission))
    except ValueError as error:
        return Graded(submission, None, problems=[str(error)])
    graded.problems = missing_cells(submission, exercises)
    with tempfile.TemporaryDirectory(prefix="mqlearn-grade-") as work:
        command = [
            sys.executable, "-m", "otter", "run", "--no-logo",
            "-a", str(autograder), "-o", work, str(submission),
        ]  # fmt: skip
        try:
            done = _run(command, timeout)
        except subprocess.TimeoutExpired:
            graded.problems.append(
                f"stopped after {timeout:g} s (an endless loop?); every question scores 0"
            )
            return graded
        results = Path(work) / "results.json"
        if done.returncode != 0 or not results.is_file():
            last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
            graded.problems.append(f"otter could not grade it: {last[0]}")
            return graded
        data = json.loads(results.read_text(encoding="utf-8"))
    for test in data.get("tests", []):  # one per question, and otter's "Public Tests" summary
        name = test.get("name", "")
        if name == "Public Tests" or test.get("max_score") is None:
            continue
        graded.possible[name] = float(test["max_score"])
        graded.scores[name] = float(test.get("score") or 0)
        if "Test case failed" in test.get("output", ""):
            graded.messages[name] = _failures(test["output"])
    return graded


def _run(command: list[str], timeout: float | None) -> subprocess.CompletedProcess[str]:
    """Run ``command``; past ``timeout`` seconds kill it and every process it started (otter's
    kernel runs in a session of its own), then raise TimeoutExpired."""
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    ) as process:
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            for pid in [*_descendants(process.pid), process.pid]:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            process.communicate()
            raise
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def _descendants(pid: int) -> list[int]:
    """The processes below ``pid``, deepest first, from /proc (none where there is no /proc)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found: list[int] = []
    todo = [pid]
    while todo:
        children = parents.get(todo.pop(), [])
        found += children
        todo += children
    return found[::-1]


def _failures(output: str) -> str:
    """The sentences our checks raised, out of otter's report of a question's test cases."""
    said = re.findall(r"SubmissionProblem: (.*?)(?=\n\s*\n|\Z)", output, re.DOTALL)
    if not said:  # an error of otter's or of the test itself: its whole report
        return output.strip()
    return "\n".join(dict.fromkeys(" ".join(line.split()) for line in said))


def grade(
    submissions: Sequence[Path],
    autograder: Path,
    out: Path | None = None,
    *,
    jobs: int | None = None,
    timeout: float | None = None,
) -> list[Graded]:
    """Grade each submission, ``jobs`` at a time (default: one a CPU); with ``out``, write one
    CSV row each (file, student, seed, total, each question's points, problems)."""
    if not autograder.is_file():
        raise ValueError(f"{autograder}: no autograder zip (otter assign writes one)")
    if not submissions:
        raise ValueError("no submissions to grade")
    absent = [str(path) for path in submissions if not path.is_file()]
    if absent:
        raise ValueError(f"no such submission file: {', '.join(absent)}")
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
        results = list(pool.map(lambda path: grade_one(path, autograder, timeout), submissions))
    if out is not None:
        questions = sorted({q for r in results for q in r.scores if q != "student"})
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("w", newline="", encoding="utf-8") as file:
            writer = csv.writer(file)
            writer.writerow(["file", "student", "seed", "total", *questions, "problems"])
            for r in results:
                seed = student_seed(r.student) if r.student and r.student.strip() else ""
                scores = [f"{r.scores.get(q, 0):g}" for q in questions]
                writer.writerow(
                    [r.submission.name, r.student or "", seed, f"{r.total:g}", *scores,
                     "; ".join(r.problems)]
                )  # fmt: skip
    return results
