"""Whose variant of the exercises runs: a seed, chosen explicitly, 0 (the notebooks') otherwise.

A student's seed is a hash (SHA-256) of their student id, the same on every machine and in every
run, so an instructor can recompute it and two students rarely share a variant. The seed in use is,
first match wins:

1. ``set_seed(n)`` or ``set_student("id")`` in this Python process;
2. the environment variable ``MQLEARN_SEED`` (a whole number), then ``MQLEARN_STUDENT`` (an id);
3. 0: the scenario printed in the notebooks.
"""

from __future__ import annotations

import hashlib
import os

STUDENT_ENV = "MQLEARN_STUDENT"
SEED_ENV = "MQLEARN_SEED"
_SEED_BYTES = 6  # 48 bits: plenty of variants, and a seed a person can still read out

_chosen: int | None = None  # set by set_seed / set_student
_chosen_student: str | None = None  # the id set_student was given (None after set_seed)


def student_seed(student: str) -> int:
    """The seed of ``student`` (an id such as ``"s1234567"``; case and surrounding spaces are
    ignored). Never 0, which is the notebooks' own scenario."""
    if not isinstance(student, str) or not student.strip():
        raise ValueError(f"a student id is a non-empty string, such as 's1234567'; got {student!r}")
    digest = hashlib.sha256(b"mqlearn-student:" + student.strip().casefold().encode()).digest()
    return int.from_bytes(digest[:_SEED_BYTES]) or 1


def read_seed(value: object) -> int:
    """A seed from ``value``: a whole number ≥ 0, or its decimal digits; ValueError otherwise."""
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise ValueError(f"a seed is a whole number, 0 or more, such as 7; got {value!r}")


def set_seed(seed: int | None) -> None:
    """Use variant ``seed`` of every exercise from now on (None: back to the environment's)."""
    global _chosen, _chosen_student
    _chosen = None if seed is None else read_seed(seed)
    _chosen_student = None


def set_student(student: str | None) -> int | None:
    """Use the variants of ``student`` from now on, and return their seed (None: back to the
    environment's)."""
    global _chosen_student
    seed = None if student is None else student_seed(student)
    set_seed(seed)
    _chosen_student = None if student is None else student.strip().casefold()
    return seed


def current_student() -> str | None:
    """The student id in use (trimmed, case-folded): the one ``set_student`` was given, else
    ``MQLEARN_STUDENT``'s; None when a seed was chosen by number or nobody is named. It labels
    the learner's progress record; it decides nothing in grading (docs/teaching.md)."""
    if _chosen is not None:
        return _chosen_student
    if os.environ.get(SEED_ENV, "").strip():
        return None
    student = os.environ.get(STUDENT_ENV, "").strip().casefold()
    return student or None


def current_seed() -> int:
    """The seed in use (see the module docstring)."""
    if _chosen is not None:
        return _chosen
    seed = os.environ.get(SEED_ENV, "").strip()
    if seed:
        try:
            return read_seed(seed)
        except ValueError as error:
            raise ValueError(f"{SEED_ENV}: {error}") from None
    student = os.environ.get(STUDENT_ENV, "").strip()
    return student_seed(student) if student else 0
