"""``mqlearn course …``: the classroom commands (no Spark).

    mqlearn course progress [--notebook nb03] [--file PATH]
    mqlearn course show nb03.q1 [--student ID | --seed N] [--solution]
    mqlearn course assign nb03 nb04.q2 --out DIR [--name hw1] [--points 1]
    mqlearn course grade --autograder ZIP SUBMISSION.ipynb ... [--csv FILE]

``progress`` prints the learner's progress table (the one ``progress.show()`` draws in a
notebook); ``show`` prints one student's variant of an exercise, and with ``--solution`` its
answer, for an instructor. ``assign`` makes an otter-grader assignment of the exercises named
(whole notebooks or single exercises), ``grade`` grades submissions with its autograder, without
Docker (``otter run``), each against its student's variant (docs/teaching.md). Exit codes: 0
done, 2 bad input (the message says what), 1 otter itself failed.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from mqlearn.checks import progress
from mqlearn.checks.students import read_seed, student_seed

COMMAND = "course"
EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``course`` and its actions to the ``mqlearn`` command's subcommands."""
    course = commands.add_parser(COMMAND, help="classroom: progress, variants, assignments")
    actions = course.add_subparsers(dest="action", required=True)

    shown = actions.add_parser("progress", help="the exercises you have checked and passed")
    shown.add_argument("--notebook", help="one notebook's exercises, such as nb03 (default: all)")
    shown.add_argument(
        "--file",
        type=Path,
        help=f"the progress file (default: ${progress.PROGRESS_ENV} or ./{progress.DEFAULT_NAME})",
    )

    show = actions.add_parser("show", help="one student's variant of an exercise")
    show.add_argument("exercise", help="the exercise's name, such as nb03.q1")
    whose = show.add_mutually_exclusive_group()
    whose.add_argument("--student", help="the student id whose variant to show")
    whose.add_argument("--seed", help="the variant's seed (0: the notebook's scenario)")
    show.add_argument("--solution", action="store_true", help="also print the answer and why")

    assign = actions.add_parser("assign", help="make an otter-grader assignment of exercises")
    assign.add_argument("items", nargs="+", help="notebooks (nb03) or exercises (nb04.q2)")
    assign.add_argument("--out", type=Path, required=True, help="directory for source/ and dist/")
    assign.add_argument("--name", help="the assignment's name (default: from the notebooks)")
    assign.add_argument("--points", type=float, default=1, help="points a question (%(default)s)")
    assign.add_argument(
        "--no-run-tests", action="store_true", help="do not grade the master's solutions first"
    )

    grade = actions.add_parser("grade", help="grade submissions locally (otter run, no Docker)")
    grade.add_argument("submissions", nargs="+", type=Path, help="the students' .ipynb files")
    grade.add_argument("--autograder", type=Path, required=True, help="the autograder zip")
    grade.add_argument("--csv", type=Path, help="write the scores to this CSV file")
    grade.add_argument("--jobs", type=int, help="submissions graded at once (default: CPUs)")


def _progress(args: argparse.Namespace, out: TextIO) -> None:
    print(progress.text_table(args.notebook, args.file), file=out)


def _show(args: argparse.Namespace, out: TextIO) -> None:
    from mqlearn.checks import find_exercise

    exercise = find_exercise(args.exercise)
    if args.student is not None:
        seed = student_seed(args.student)
    elif args.seed is not None:
        seed = read_seed(args.seed)
    else:
        seed = 0
    with contextlib.redirect_stdout(out):
        exercise.show(seed)
        if args.solution:
            print()
            exercise.solution(seed)


def _assign(args: argparse.Namespace, out: TextIO) -> None:
    from mqlearn.checks.assignment import assign

    made = assign(
        args.items, args.out, name=args.name, points=args.points, run_tests=not args.no_run_tests
    )
    print(f"{len(made.exercises)} questions: {', '.join(made.exercises)}", file=out)
    print(f"master notebook (with the solutions): {made.master}", file=out)
    print(f"to hand out:                          {made.student}", file=out)
    print(f"to grade with:                        {made.autograder}", file=out)


def _grade(args: argparse.Namespace, out: TextIO) -> None:
    from mqlearn.checks.assignment import grade

    for graded in grade(args.submissions, args.autograder, args.csv, jobs=args.jobs):
        possible = sum(graded.possible.values())
        student = graded.student if graded.student is not None else "(no STUDENT)"
        print(f"{graded.submission.name}: {student}: {graded.total:g} / {possible:g}", file=out)
        for problem in graded.problems:
            print(f"  problem: {problem}", file=out)
        said = graded.messages.get("student")  # said once, not again for every question
        if said:
            print(f"  student: {said}", file=out)
        for question, message in graded.messages.items():
            if question == "student" or message == said:
                continue
            score = f"{graded.scores[question]:g}/{graded.possible[question]:g}"
            print(f"  {question} ({score}): " + message.replace("\n", "\n    "), file=out)
    if args.csv is not None:
        print(f"scores written to {args.csv}", file=out)


ACTIONS: dict[str, Callable[[argparse.Namespace, TextIO], None]] = {
    "progress": _progress,
    "show": _show,
    "assign": _assign,
    "grade": _grade,
}


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run ``mqlearn course <action>``; bad input is one line on ``err`` and exit code 2."""
    try:
        ACTIONS[args.action](args, out)
    except (ValueError, OSError) as error:
        print(f"mqlearn: error: {error}", file=err)
        return EXIT_BAD_INPUT
    except RuntimeError as error:  # otter assign / otter run failed
        print(f"mqlearn: {error}", file=err)
        return EXIT_FAILED
    return EXIT_OK
