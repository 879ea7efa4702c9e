"""A learner's own record of the exercises they have checked, and a table of it.

``Exercise.check`` records each graded attempt here (attempts, passed, when first passed), and
``Exercise.solution`` each time the answer was shown, in a small JSON file beside the
notebooks: ``.mqlearn-progress.json`` in the working directory (a notebook's own directory under
Jupyter), or the file ``MQLEARN_PROGRESS`` names. The file is
the learner's: it is written atomically, never sent anywhere, and a file that is not a progress
file (corrupt, or someone else's JSON) is reported and left as it is, never overwritten.

In a notebook::

    from mqlearn.checks import progress
    progress.show()        # every notebook's exercises
    progress.show("nb03")  # one notebook's

``mqlearn course progress`` prints the same table in a shell; ``--class DIR`` gathers the records
students hand in (one file each) into one table, a row a student. The record names the student
(``set_student`` or ``MQLEARN_STUDENT``) when one is set; it is the learner's own account of their
practice, which they can edit, so it is never used for grading.
"""

from __future__ import annotations

import html
import json
import os
import re
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mqlearn.checks.students import current_student

PROGRESS_ENV = "MQLEARN_PROGRESS"  # overrides where the record is kept
DEFAULT_NAME = ".mqlearn-progress.json"
FORMAT_KEY = "mqlearn-progress"  # {"mqlearn-progress": 1, "exercises": {...}}
FORMAT_VERSION = 1
_NOTEBOOK = re.compile(r"(?:nb)?(\d\d?)")


class ProgressFileError(ValueError):
    """The progress file exists but cannot be read as one; it is left untouched."""


@dataclass(frozen=True)
class Record:
    """One exercise's record: graded attempts, whether one passed, and when the first did."""

    attempts: int = 0
    passed: bool = False
    first_passed: str | None = None  # ISO 8601, UTC, to the second
    solutions: int = 0  # times solution() showed the answer

    @property
    def status(self) -> str:
        if self.passed:
            return "passed"
        return "tried" if self.attempts else "not tried"


@dataclass(frozen=True)
class Row:
    """One line of the table: an exercise of the course and its record."""

    notebook: str
    exercise: str
    record: Record


def progress_path() -> Path:
    """Where the record is kept: ``$MQLEARN_PROGRESS``, else ``./.mqlearn-progress.json``."""
    chosen = os.environ.get(PROGRESS_ENV, "").strip()
    return Path(chosen).expanduser() if chosen else Path.cwd() / DEFAULT_NAME


def load(path: Path | None = None) -> dict[str, Record]:
    """The records by exercise name ({} when there is no file yet).

    Raises ProgressFileError, naming the file and what is wrong, when it is not a progress file.
    """
    return load_file(progress_path() if path is None else path)[1]


def load_file(path: Path) -> tuple[str | None, dict[str, Record]]:
    """The student the file at ``path`` names (None: none) and its records ({} when there is
    no file); ProgressFileError when it is not a progress file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, {}
    except OSError as error:
        raise ProgressFileError(f"cannot read the progress file {path}: {error}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ProgressFileError(_unreadable(path, f"it is not JSON ({error})")) from None
    records = _records(path, data)
    student = data.get("student")
    return (student if isinstance(student, str) and student else None), records


def _unreadable(path: Path, why: str) -> str:
    return (
        f"the progress file {path} cannot be read: {why}. It was left as it is; move it away "
        f"(or set {PROGRESS_ENV} to another file) to start a new record."
    )


def _records(path: Path, data: object) -> dict[str, Record]:
    if not isinstance(data, dict) or data.get(FORMAT_KEY) != FORMAT_VERSION:
        raise ProgressFileError(
            _unreadable(path, f'it is not an mqlearn progress file ("{FORMAT_KEY}": 1)')
        )
    exercises = data.get("exercises")
    if not isinstance(exercises, dict):
        raise ProgressFileError(_unreadable(path, 'its "exercises" is not an object'))
    records = {}
    for name, entry in exercises.items():
        if not (
            isinstance(entry, dict)
            and _whole(entry.get("attempts"))
            and isinstance(entry.get("passed"), bool)
            and isinstance(entry.get("first_passed"), str | None)
            and _whole(entry.get("solutions", 0))
        ):
            raise ProgressFileError(_unreadable(path, f"its entry for {name!r} is malformed"))
        records[name] = Record(
            entry["attempts"], entry["passed"], entry["first_passed"], entry.get("solutions", 0)
        )
    return records


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def save(
    records: Mapping[str, Record], path: Path | None = None, student: str | None = None
) -> None:
    """Write the records (and the ``student`` they are of, if known) atomically: a reader sees
    the old file or the new one, never half."""
    path = progress_path() if path is None else path
    data: dict[str, Any] = {FORMAT_KEY: FORMAT_VERSION}
    if student:
        data["student"] = student
    data["exercises"] = {
        name: {
            "attempts": r.attempts,
            "passed": r.passed,
            "first_passed": r.first_passed,
            "solutions": r.solutions,
        }
        for name, r in sorted(records.items())
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(data, file, indent=1)
            file.write("\n")
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def record(
    name: str, correct: bool, *, path: Path | None = None, now: datetime | None = None
) -> Record:
    """Count one graded attempt at exercise ``name``; returns its new record.

    Raises ProgressFileError (the file is left as it was) or OSError (it cannot be written).
    """
    path = progress_path() if path is None else path
    student, records = load_file(path)
    old = records.get(name, Record())
    first = old.first_passed
    if correct and first is None:
        first = (now or datetime.now(UTC)).astimezone(UTC).isoformat(timespec="seconds")
    records[name] = Record(old.attempts + 1, old.passed or correct, first, old.solutions)
    save(records, path, current_student() or student)
    return records[name]


def record_solution(name: str, *, path: Path | None = None) -> Record:
    """Count one showing of exercise ``name``'s solution; returns its new record."""
    path = progress_path() if path is None else path
    student, records = load_file(path)
    old = records.get(name, Record())
    records[name] = Record(old.attempts, old.passed, old.first_passed, old.solutions + 1)
    save(records, path, current_student() or student)
    return records[name]


def record_quietly(name: str, correct: bool) -> None:
    """``record``, for ``Exercise.check``: a failure is one line on stderr, never an exception,
    so the learner's notebook runs on and the feedback printed on stdout stays the same."""
    try:
        record(name, correct)
    except (ProgressFileError, OSError) as error:
        print(f"(progress not saved: {error})", file=sys.stderr)


def record_solution_quietly(name: str) -> None:
    """``record_solution``, for ``Exercise.solution``: never an exception (as ``record_quietly``)."""
    try:
        record_solution(name)
    except (ProgressFileError, OSError) as error:
        print(f"(progress not saved: {error})", file=sys.stderr)


def notebook_key(notebook: str | int) -> str:
    """``"nb03"`` from ``"nb03"``, ``"03"``, ``"3"`` or ``3``; ValueError for anything else."""
    found = _NOTEBOOK.fullmatch(str(notebook).strip().lower())
    if found is None or isinstance(notebook, bool):
        raise ValueError(f"{notebook!r} names no notebook; give one such as 'nb03' or 3")
    return f"nb{int(found.group(1)):02d}"


def _exercises_of(notebook: str | int | None) -> list[tuple[str, list[str]]]:
    """(notebook, exercise names) for one notebook or every one; ValueError for a notebook
    without exercises, naming the ones that have some."""
    from mqlearn.checks import exercise_modules, exercises

    modules = {module.__name__.rsplit(".", 1)[1]: module for module in exercise_modules()}
    if notebook is None:
        chosen = list(modules)
    else:
        key = notebook_key(notebook)
        if key not in modules:
            raise ValueError(f"no exercises for notebook {key}; there are: {', '.join(modules)}")
        chosen = [key]
    return [(key, [e.name for e in exercises(modules[key])]) for key in chosen]


def rows(notebook: str | int | None = None, path: Path | None = None) -> list[Row]:
    """The course's exercises (of one notebook, or all) with their records, in course order."""
    chosen = _exercises_of(notebook)
    records = load(path)
    return [Row(key, name, records.get(name, Record())) for key, names in chosen for name in names]


def _summary(found: list[Row]) -> list[str]:
    lines = []
    notebooks = list(dict.fromkeys(row.notebook for row in found))
    for key in notebooks:
        mine = [row for row in found if row.notebook == key]
        passed = sum(row.record.passed for row in mine)
        lines.append(f"{key}: {passed} of {len(mine)} passed")
    if len(notebooks) > 1:
        lines.append(f"all: {sum(r.record.passed for r in found)} of {len(found)} passed")
    return lines


def _when(stamp: str | None) -> str:
    """``2026-05-01 09:30 UTC`` from the stored ISO time ("" when never passed)."""
    if stamp is None:
        return ""
    try:
        return datetime.fromisoformat(stamp).astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    except ValueError:
        return stamp


def _columns(header: tuple[str, ...], body: list[tuple[str, ...]]) -> list[str]:
    """``header`` and ``body`` as lines of left-aligned columns."""
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    return [
        "  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip()
        for line in [header, *body]
    ]


def text_table(notebook: str | int | None = None, path: Path | None = None) -> str:
    """The progress table as plain text (what ``mqlearn course progress`` prints)."""
    path = progress_path() if path is None else path
    found = rows(notebook, path)
    student = load_file(path)[0]
    header = ("exercise", "status", "attempts", "first passed", "solution shown")
    body: list[tuple[str, ...]] = [
        (
            row.exercise,
            row.record.status,
            str(row.record.attempts),
            _when(row.record.first_passed),
            f"{row.record.solutions}x" if row.record.solutions else "",
        )
        for row in found
    ]
    whose = f"Progress of {student}, recorded" if student else "Progress recorded"
    lines = [f"{whose} in {path}", "", *_columns(header, body)]
    return "\n".join([*lines, "", *_summary(found)])


def class_table(directory: Path, notebook: str | int | None = None) -> str:
    """One row a student from the progress files found under ``directory`` (the files students
    handed in, any names ending in .json): exercises passed, tried, attempts and solutions
    shown, of one notebook or all. Files that are no progress file are listed, not fatal."""
    if not directory.is_dir():
        raise ValueError(f"no directory {directory} to gather progress files from")
    names = [name for _, exercises in _exercises_of(notebook) for name in exercises]
    body: list[tuple[str, ...]] = []
    skipped: list[str] = []
    for path in sorted(directory.rglob("*.json")):
        try:
            student, records = load_file(path)
        except ProgressFileError as error:
            skipped.append(f"skipped {path.relative_to(directory)}: {error}")
            continue
        mine = [records.get(name, Record()) for name in names]
        body.append(
            (
                student or "(not named)",
                f"{sum(r.passed for r in mine)}/{len(names)}",
                str(sum(r.attempts > 0 for r in mine)),
                str(sum(r.attempts for r in mine)),
                str(sum(r.solutions for r in mine)),
                str(path.relative_to(directory)),
            )
        )
    if not body:
        raise ValueError(f"no progress file under {directory} (files ending in .json)")
    header = ("student", "passed", "tried", "attempts", "solutions shown", "file")
    scope = "all exercises" if notebook is None else f"{notebook_key(notebook)}'s exercises"
    lines = [f"Progress of {len(body)} records under {directory} ({scope})", ""]
    lines += _columns(header, sorted(body))
    return "\n".join([*lines, "", *skipped] if skipped else lines)


_MARK = {"passed": "✓ passed", "tried": "… tried", "not tried": "· not tried"}


def html_table(notebook: str | int | None = None, path: Path | None = None) -> str:
    """The progress table as HTML (the widget's content); a broken file gives its message."""
    path = progress_path() if path is None else path
    try:
        found = rows(notebook, path)
    except ProgressFileError as error:
        return f'<p class="mq-progress-error"><b>Progress:</b> {html.escape(str(error))}</p>'
    cells = "".join(
        "<tr>"
        f"<td><code>{html.escape(row.exercise)}</code></td>"
        f"<td>{_MARK[row.record.status]}</td>"
        f'<td style="text-align:right">{row.record.attempts}</td>'
        f"<td>{html.escape(_when(row.record.first_passed))}</td>"
        "</tr>"
        for row in found
    )
    summary = "<br>".join(html.escape(line) for line in _summary(found))
    return (
        '<table class="mq-progress">'
        "<thead><tr><th>exercise</th><th>status</th><th>attempts</th><th>first passed</th>"
        f"</tr></thead><tbody>{cells}</tbody></table>"
        f"<p>{summary}<br><small>Recorded on this computer only, in "
        f"<code>{html.escape(str(path))}</code>.</small></p>"
    )


def widget(notebook: str | int | None = None, path: Path | None = None) -> Any:
    """An ipywidgets box: the table and a Refresh button that reads the file again."""
    import ipywidgets as widgets

    table = widgets.HTML(html_table(notebook, path))
    refresh = widgets.Button(description="Refresh", icon="refresh", tooltip="read the record again")

    def reread(_: object) -> None:
        table.value = html_table(notebook, path)

    refresh.on_click(reread)
    return widgets.VBox([table, refresh])


def show(notebook: str | int | None = None) -> None:
    """Show the progress table: a widget under Jupyter, text anywhere else.

    ``notebook`` picks one notebook's exercises (``"nb03"`` or ``3``); by default, all.
    A notebook name that has no exercises raises ValueError naming the ones that do.
    """
    _exercises_of(notebook)  # an unknown notebook fails here, clearly
    if _in_ipython():
        from IPython.display import display

        display(widget(notebook))  # type: ignore[no-untyped-call]
        return
    try:
        print(text_table(notebook))
    except ProgressFileError as error:
        print(f"Progress: {error}")


def _in_ipython() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return False
    return get_ipython() is not None
