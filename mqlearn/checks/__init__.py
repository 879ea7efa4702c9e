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
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from types import ModuleType

from mqlearn.checks.exercise import Exercise, Feedback, Misconception, Outcome
from mqlearn.checks.lab import Letters, get_reason

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
    "exercise_modules",
    "exercises",
    "get_reason",
]
