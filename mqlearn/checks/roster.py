"""A class roster: who is in the class, read from a CSV file with a column ``id``.

Ids are compared normalised (:func:`normal_id`: surrounding spaces trimmed, case folded), so
" S1001 " on the roster and "s1001" in a notebook are one student. Other columns are optional and
feed the gradebook an LMS imports: ``name``, ``section``, ``sis_id``, and ``lms_id`` (the number
an LMS names a student's submission files with, such as Canvas's user id). A roster names its
problems instead of guessing: an empty id and a repeated id are reported with their line numbers.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

ID_COLUMN = "id"
OPTIONAL = ("name", "section", "sis_id", "lms_id")
SAFE_ID = re.compile(r"[a-z0-9][a-z0-9._@+-]*")  # an id that is also a safe file name


def normal_id(value: str) -> str:
    """``value`` trimmed and case-folded: the form every id is stored and compared in."""
    return value.strip().casefold()


@dataclass(frozen=True)
class Student:
    """One line of the roster."""

    id: str
    name: str = ""
    section: str = ""
    sis_id: str = ""
    lms_id: str = ""

    def as_dict(self) -> dict[str, str]:
        return {
            "id": self.id,
            "name": self.name,
            "section": self.section,
            "sis_id": self.sis_id,
            "lms_id": self.lms_id,
        }


@dataclass
class Roster:
    """The students (first line of each id wins) and the roster's own problems, as sentences."""

    students: list[Student] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)  # ids listed more than once
    problems: list[str] = field(default_factory=list)

    @property
    def ids(self) -> list[str]:
        return [s.id for s in self.students]

    def find(self, student: str) -> Student | None:
        wanted = normal_id(student)
        return next((s for s in self.students if s.id == wanted), None)

    def by_lms_id(self) -> dict[str, str]:
        """LMS id (normalised) -> student id, for the students the roster gives one."""
        return {normal_id(s.lms_id): s.id for s in self.students if s.lms_id.strip()}


def roster_from(rows: list[dict[str, str]]) -> Roster:
    """A roster from stored rows (``assignment.json`` keeps the one ``assign`` was given)."""
    return Roster([Student(**{k: row.get(k, "") for k in (ID_COLUMN, *OPTIONAL)}) for row in rows])


def read_roster(path: Path) -> Roster:
    """The roster in the CSV file ``path``; ValueError when it has no ``id`` column or no
    student. Blank and repeated ids, and ids that cannot name a file, are reported in
    ``problems`` / ``duplicates`` and left out (the first line of a repeated id is kept)."""
    try:
        text = path.read_text(encoding="utf-8-sig")  # Excel writes a byte-order mark
    except OSError as error:
        raise ValueError(f"cannot read the roster {path}: {error}") from None
    reader = csv.DictReader(text.splitlines())
    columns = {normal_id(c): c for c in reader.fieldnames or []}
    if ID_COLUMN not in columns:
        raise ValueError(
            f"the roster {path} has no column {ID_COLUMN!r} (its header is "
            f"{', '.join(reader.fieldnames or []) or 'empty'}); put the student ids in a column "
            f"named {ID_COLUMN!r}"
        )
    roster = Roster()
    seen: dict[str, int] = {}
    for line, row in enumerate(reader, start=2):
        values = {key: (row.get(columns[key]) or "").strip() for key in OPTIONAL if key in columns}
        student = normal_id(row.get(columns[ID_COLUMN]) or "")
        if not student:
            roster.problems.append(f"line {line}: no id")
            continue
        if not SAFE_ID.fullmatch(student):
            roster.problems.append(
                f"line {line}: the id {student!r} is not letters, digits and . _ @ + - only"
            )
            continue
        if student in seen:
            roster.duplicates.append(student)
            roster.problems.append(
                f"line {line}: the id {student!r} is already on line {seen[student]}"
            )
            continue
        seen[student] = line
        roster.students.append(Student(student, **values))
    if not roster.students:
        raise ValueError(f"the roster {path} lists no student")
    return roster
