"""Grading a class: `mqlearn course grade` (answers read from the files, no kernel) on a class of
30, against two baselines run beside it, each as an instructor runs it (the CLI, start-up
included):

- the floor: `mqlearn course --help` (Python, mqlearn and argparse starting, nothing graded);
- the otter path: `mqlearn course otter-grade` (otter runs each notebook in a kernel) on a few
  submissions of the same questions (`--otter N`, default 3; 0 to skip: it needs otter-grader).

Prints the wall times (best of `--reps`) and the ratios. A report, not a test: exits 0.

    python benchmarks/bench_grading.py [--students 30] [--reps 3] [--otter 3]
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mqlearn import checks
from mqlearn.checks.handouts import with_answers
from mqlearn.checks.students import student_seed

QUESTIONS = ("nb01.q1", "nb03.q1", "nb03.q2", "nb04.q2", "nb06.q1", "nb07.q2")
CLI = [sys.executable, "-m", "mqlearn.cli", "course"]


def timed(command: list[str], reps: int) -> float:
    """The best wall time of ``reps`` runs of ``command`` (which must succeed)."""
    best = float("inf")
    for _ in range(reps):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        best = min(best, time.perf_counter() - start)
    return best


def answer(name: str, student: str, kind: int) -> str:
    exercise = checks.find_exercise(name)
    right = exercise.form.show(exercise.expected(student_seed(student)))
    return ("answer = " + right, "answer = {'Z'}", "answer = ...", "answer = x")[kind % 4]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--otter", type=int, default=3, help="submissions for the otter baseline")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-grading-"))
    ids = [f"s{1001 + i}" for i in range(args.students)]
    (work / "roster.csv").write_text("id\n" + "\n".join(ids) + "\n")
    start = time.perf_counter()
    subprocess.run(
        [*CLI, "assign", *QUESTIONS, "--roster", str(work / "roster.csv"), "--out",
         str(work / "hw")], check=True, capture_output=True,
    )  # fmt: skip
    assign_s = time.perf_counter() - start
    subs = work / "subs"
    subs.mkdir()
    for i, student in enumerate(ids):
        handout = json.loads((work / "hw" / "handouts" / f"{student}.ipynb").read_text())
        answers = {n: answer(n, student, i + j) for j, n in enumerate(QUESTIONS)}
        (subs / f"{student}.ipynb").write_text(json.dumps(with_answers(handout, answers)))
    paths = [str(p) for p in sorted(subs.glob("*.ipynb"))]
    grade_s = timed([*CLI, "grade", str(work / "hw"), *paths, "--out", str(work / "r")], args.reps)
    floor_s = timed([*CLI, "--help"], args.reps)
    with (work / "r" / "scores.csv").open() as file:
        earned = sum(row["points"] != "0" for row in csv.DictReader(file))
    right = sum((i + j) % 4 == 0 for i in range(len(ids)) for j in range(len(QUESTIONS)))
    assert earned == right, f"graded {earned} answers right, {right} were written right"
    print(f"class of {args.students}, {len(QUESTIONS)} questions ({', '.join(QUESTIONS)})")
    print(f"  assign (handouts + variety report)      {assign_s:7.2f} s")
    print(f"  grade, whole class (best of {args.reps})          {grade_s:7.2f} s")
    print(f"  floor: mqlearn course --help            {floor_s:7.2f} s")
    print(f"  grade / floor                           {grade_s / floor_s:7.1f}x")
    print(f"  cross-check: {earned} answers graded right, as many as were written right")
    if args.otter:
        master = work / "otter"
        subprocess.run(
            [*CLI, "assign", *QUESTIONS, "--out", str(master), "--name", "hw", "--no-run-tests"],
            check=True, capture_output=True,
        )  # fmt: skip
        (autograder,) = (master / "dist" / "autograder").glob("*.zip")
        student_nb = json.loads((master / "dist" / "student" / "hw.ipynb").read_text())
        otter_paths = []
        for student in ids[: args.otter]:
            for cell in student_nb["cells"]:
                source = "".join(cell["source"])
                if source.startswith("STUDENT = ..."):
                    cell["source"] = f'STUDENT = "{student}"'
                for name in QUESTIONS:
                    variable = "answer_" + name.replace(".", "_")
                    if source.startswith(f"{variable} = ..."):
                        right = answer(name, student, 0).removeprefix("answer = ")
                        cell["source"] = f"{variable} = {right}"
            path = work / f"otter-{student}.ipynb"
            path.write_text(json.dumps(student_nb))
            otter_paths.append(str(path))
        command = [
            *CLI,
            "otter-grade",
            "--autograder",
            str(autograder),
            *otter_paths,
            "--jobs",
            "1",
        ]
        otter_s = timed(command, 1)
        per = otter_s / args.otter
        print(f"  otter-grade, {args.otter} submissions, one at a time  {otter_s:7.2f} s")
        print(f"  otter per submission                    {per:7.2f} s")
        print(
            f"  otter for the class (x{args.students}, estimated)      {per * args.students:7.1f} s"
        )
        print(f"  handout path / otter path, per class    {grade_s / (per * args.students):7.3f}")


if __name__ == "__main__":
    main()
