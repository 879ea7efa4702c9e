"""``mqlearn course …``: the classroom commands (no Spark).

    mqlearn course progress [--notebook nb03] [--file PATH | --class DIR]
    mqlearn course show nb03.q1 [--student ID | --seed N] [--solution]
    mqlearn course assign nb03 nb04.q2 --roster ROSTER.csv --out DIR [--name hw1] [--points 1]
    mqlearn course grade DIR SUBMISSION.ipynb ... --out RESULTS [--roster ROSTER.csv]
    mqlearn course assign nb03 --out DIR              (no roster: the otter-grader export)
    mqlearn course otter-grade --autograder ZIP SUBMISSION.ipynb ... [--csv FILE]

``progress`` prints a learner's progress table (the one ``progress.show()`` draws), or a class's
(``--class``); ``show`` prints one student's variant of an exercise, and with ``--solution`` its
answer, for an instructor. ``assign`` with a roster writes one handout per student, their id
bound in it; ``grade`` reads the answers from the handed-in notebooks without running them and
grades each against its student's variant on the engine (docs/teaching.md). Without a roster,
``assign`` makes an otter-grader assignment, graded by ``otter-grade`` (``otter run``, which runs
the students' code, with a timeout). Exit codes: 0 done, 2 bad input (the message says what), 1
otter itself failed, or a submission could not be read.
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
DEFAULT_TIMEOUT = 120.0  # seconds: otter runs a whole notebook; a loop must not hang the class
EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``course`` and its actions to the ``mqlearn`` command's subcommands."""
    course = commands.add_parser(COMMAND, help="classroom: progress, variants, assignments")
    actions = course.add_subparsers(dest="action", required=True)

    shown = actions.add_parser("progress", help="the exercises you have checked and passed")
    shown.add_argument("--notebook", help="one notebook's exercises, such as nb03 (default: all)")
    source = shown.add_mutually_exclusive_group()
    source.add_argument(
        "--file",
        type=Path,
        help=f"the progress file (default: ${progress.PROGRESS_ENV} or ./{progress.DEFAULT_NAME})",
    )
    source.add_argument(
        "--class",
        dest="class_dir",
        type=Path,
        help="a directory of the progress files students handed in: one table, a row each",
    )

    show = actions.add_parser("show", help="one student's variant of an exercise")
    show.add_argument("exercise", help="the exercise's name, such as nb03.q1")
    whose = show.add_mutually_exclusive_group()
    whose.add_argument("--student", help="the student id whose variant to show")
    whose.add_argument("--seed", help="the variant's seed (0: the notebook's scenario)")
    show.add_argument("--solution", action="store_true", help="also print the answer and why")

    assign = actions.add_parser("assign", help="one handout per student (or an otter assignment)")
    assign.add_argument("items", nargs="+", help="notebooks (nb03) or exercises (nb04.q2)")
    assign.add_argument("--out", type=Path, required=True, help="a new directory to write to")
    assign.add_argument(
        "--roster", type=Path, help="CSV with a column 'id': one handout per student in it"
    )
    assign.add_argument("--name", help="the assignment's name (default: from the notebooks)")
    assign.add_argument("--points", type=float, default=1, help="points a question (%(default)s)")
    assign.add_argument(
        "--min-distinct",
        type=int,
        help="warn for a question with fewer distinct right answers in the class "
        "(default: 4 for a class of 30, fewer for a smaller one)",
    )
    assign.add_argument(
        "--otter", action="store_true", help="with --roster: also write the otter export, otter/"
    )
    assign.add_argument(
        "--no-run-tests", action="store_true", help="otter: do not grade the master's solutions"
    )

    grade = actions.add_parser("grade", help="grade handed-in handouts (no code is run)")
    grade.add_argument("directory", type=Path, help="the directory assign --roster wrote")
    grade.add_argument("submissions", nargs="+", type=Path, help="the handed-in .ipynb files")
    grade.add_argument("--out", type=Path, required=True, help="directory for the results")
    grade.add_argument("--roster", type=Path, help="the roster (default: the one assign took)")

    otter = actions.add_parser("otter-grade", help="grade an otter assignment (runs their code)")
    otter.add_argument("submissions", nargs="+", type=Path, help="the students' .ipynb files")
    otter.add_argument("--autograder", type=Path, required=True, help="the autograder zip")
    otter.add_argument("--csv", type=Path, help="write the scores to this CSV file")
    otter.add_argument("--jobs", type=int, help="submissions graded at once (default: CPUs)")
    otter.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        help="seconds one submission may run before it scores 0 (%(default)s)",
    )


def _progress(args: argparse.Namespace, out: TextIO) -> None:
    if args.class_dir is not None:
        print(progress.class_table(args.class_dir, args.notebook), file=out)
        return
    if args.file is not None and not args.file.is_file():
        raise ValueError(f"no progress file {args.file} (check the path, or leave out --file)")
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
    if args.roster is None:
        _assign_otter(args, out)
        return
    from mqlearn.checks.handouts import assign_class
    from mqlearn.checks.roster import read_roster

    roster = read_roster(args.roster)
    for problem in roster.problems:
        print(f"roster: {problem}", file=out)
    made = assign_class(
        args.items,
        roster,
        args.out,
        name=args.name,
        points=args.points,
        min_distinct=args.min_distinct,
        otter=args.otter,
    )
    print(f"{len(made.exercises)} questions: {', '.join(made.exercises)}", file=out)
    print(f"{len(made.students)} handouts in {made.out / 'handouts'}", file=out)
    print(
        f"\ndistinct right answers among the class's variants (warning below {made.threshold}):",
        file=out,
    )
    for v in made.variety:
        warn = "  <- too alike: copying a classmate often pays" if v in made.too_alike else ""
        print(
            f"  {v.exercise:9} {v.distinct:3} distinct, a classmate's answer right for you "
            f"{v.copy_chance:4.0%}{warn}",
            file=out,
        )
    if made.too_alike:
        names = ", ".join(v.exercise for v in made.too_alike)
        print(f"warning: {names}: fewer than {made.threshold} distinct answers", file=out)


def _assign_otter(args: argparse.Namespace, out: TextIO) -> None:
    from mqlearn.checks.assignment import assign

    made = assign(
        args.items, args.out, name=args.name, points=args.points, run_tests=not args.no_run_tests
    )
    print(f"{len(made.exercises)} questions: {', '.join(made.exercises)}", file=out)
    print(f"master notebook (with the solutions): {made.master}", file=out)
    print(f"to hand out:                          {made.student}", file=out)
    print(f"to grade with:                        {made.autograder}", file=out)


def _grade(args: argparse.Namespace, out: TextIO) -> int:
    from mqlearn.checks.gradebook import grade_class

    done = grade_class(
        args.directory,
        args.submissions,
        args.out,
        roster_path=args.roster,
        progress=lambda line: print(line, file=out, flush=True),
    )
    for file, student, flag in done.flags:
        where = " ".join(part for part in (file, student) if part)
        print(f"flag: {where}: {flag}" if where else f"flag: {flag}", file=out)
    print(f"results written to {args.out}", file=out)
    for unread in done.unread:
        print(f"error: cannot read {unread}", file=out)
    return EXIT_FAILED if done.unread else EXIT_OK


def _otter_grade(args: argparse.Namespace, out: TextIO) -> None:
    from mqlearn.checks.assignment import grade

    graded_all = grade(
        args.submissions, args.autograder, args.csv, jobs=args.jobs, timeout=args.timeout
    )
    for graded in graded_all:
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


ACTIONS: dict[str, Callable[[argparse.Namespace, TextIO], int | None]] = {
    "progress": _progress,
    "show": _show,
    "assign": _assign,
    "grade": _grade,
    "otter-grade": _otter_grade,
}


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run ``mqlearn course <action>``; bad input is one line on ``err`` and exit code 2."""
    try:
        code = ACTIONS[args.action](args, out)
    except (ValueError, OSError) as error:
        print(f"mqlearn: error: {error}", file=err)
        return EXIT_BAD_INPUT
    except RuntimeError as error:  # otter assign / otter run failed
        print(f"mqlearn: {error}", file=err)
        return EXIT_FAILED
    return EXIT_OK if code is None else code
