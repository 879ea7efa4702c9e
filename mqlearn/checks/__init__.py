"""Self-checking prediction exercises for the course notebooks.

In a notebook::

    from mqlearn.checks import nb03
    nb03.q1.show()          # the question and the scenario's code
    answer = {"A"}          # your prediction
    nb03.q1.check(answer)   # runs the scenario on the engine and compares
    nb03.q1.hint()
    nb03.q1.solution()

Exercises are found, not registered: the module ``nbNN`` of this package holds the exercises of
notebook ``notebooks/NN_*.ipynb``, and every :class:`Exercise` defined in it is one of them
(:func:`exercise_modules`, :func:`exercises`). Adding a notebook with exercises touches that
notebook and its module only (CONTRIBUTING.md).

``Letters`` (messages named by a letter) and ``get_reason`` (a get's reason code) are the two
tools the scenarios use; notebooks use them too, so their logs read like the exercises'.

Every exercise of notebooks 01-08 has variants drawn from a seed (:mod:`.variants`); a student
gets theirs with ``set_student("id")`` or the environment variable ``MQLEARN_STUDENT``
(:mod:`.students`), and ``progress.show()`` shows what they have checked (:mod:`.progress`).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from types import ModuleType

from mqlearn.checks.exercise import Exercise, Feedback, Misconception, Outcome
from mqlearn.checks.lab import Letters, get_reason
from mqlearn.checks.students import current_seed, set_seed, set_student, student_seed

NOTEBOOK_MODULE = re.compile(r"nb(\d\d)")  # nb03 holds the exercises of notebooks/03_*.ipynb


def exercise_modules() -> list[ModuleType]:
    """The exercise modules of this package (``nb00``, ``nb01``, …), in notebook order."""
    names = sorted(
        info.name for info in pkgutil.iter_modules(__path__) if NOTEBOOK_MODULE.fullmatch(info.name)
    )
    return [importlib.import_module(f"{__name__}.{name}") for name in names]


def exercises(module: ModuleType | None = None) -> list[Exercise]:
    """Every exercise of ``module`` (default: of every exercise module), in definition order."""
    modules = exercise_modules() if module is None else [module]
    return [value for m in modules for value in vars(m).values() if isinstance(value, Exercise)]


def find_exercise(name: str) -> Exercise:
    """The exercise called ``name`` (``"nb03.q1"``); ValueError naming the ones there are."""
    module_name, _, _ = str(name).partition(".")
    modules = {m.__name__.rsplit(".", 1)[1]: m for m in exercise_modules()}
    if module_name not in modules:
        raise ValueError(
            f"no exercise {name!r}: exercises are named like 'nb03.q1', in {', '.join(modules)}"
        )
    found = {e.name: e for e in exercises(modules[module_name])}
    if name not in found:
        raise ValueError(f"no exercise {name!r}; {module_name} has {', '.join(found)}")
    return found[name]


def __getattr__(name: str) -> ModuleType:
    """``checks.nb03`` without importing it first."""
    if NOTEBOOK_MODULE.fullmatch(name):
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError:
            pass
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Exercise",
    "Feedback",
    "Letters",
    "Misconception",
    "Outcome",
    "current_seed",
    "exercise_modules",
    "exercises",
    "find_exercise",
    "get_reason",
    "set_seed",
    "set_student",
    "student_seed",
]
