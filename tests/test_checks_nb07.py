"""Notebook 07's exercises (``mqlearn.checks.nb07``, rules EIP-02 .. EIP-06): every solution
passes, every wrong answer is explained with the rules behind it, and no expected value is written
here: each test asks the exercise's own scenario, which runs on the engine.
"""

from __future__ import annotations

import re

from mqlearn.checks import nb07
from mqlearn.checks.exercise import Exercise

EXERCISES: list[Exercise] = [value for value in vars(nb07).values() if isinstance(value, Exercise)]
RULE_ID = re.compile(r"(EIP|EXP|RPT)-\d\d")


def test_eip02_to_eip06_each_have_an_exercise() -> None:
    """Rules EIP-02 .. EIP-06 are each practised (EIP-01 is shown in the notebook's cells)."""
    taught = {rule for exercise in EXERCISES for rule in exercise.rules}
    assert {f"EIP-0{n}" for n in range(2, 7)} <= taught
    assert len(EXERCISES) >= 3
