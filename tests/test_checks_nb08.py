"""Notebook 08's exercises (``mqlearn.checks.nb08``: dumps, dead letters, MQSC): every solution
passes, every wrong answer is explained with the rules behind it, and no expected value is written
here: each test asks the exercise's own scenario, which runs on the engine.
"""

from __future__ import annotations

import re

import pytest

from mqlearn import CMQC
from mqlearn.checks import nb08
from mqlearn.checks.exercise import Exercise
from mqlearn.interop import parse_dmpmqmsg
from tests.test_checks import by_name

EXERCISES: list[Exercise] = [value for value in vars(nb08).values() if isinstance(value, Exercise)]
RULE_ID = re.compile(r"(EXP|DLQ)-\d\d")


def test_notebook_08_rules_each_have_an_exercise() -> None:
    """The rules notebook 08 teaches through files and MQSC are each practised: the remaining
    lifetime in a dump (EXP-01, EXP-11), dead letters (DLQ-01), depth (EXP-25), scans (EXP-28)."""
    taught = {rule for exercise in EXERCISES for rule in exercise.rules}
    assert {"EXP-01", "EXP-11", "DLQ-01", "EXP-25", "EXP-28"} <= taught
    assert len(EXERCISES) >= 3


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_name)
def test_checking_prints_only_the_feedback(
    exercise: Exercise, capsys: pytest.CaptureFixture[str]
) -> None:
    """A scenario runs on every check: it must print nothing of its own into the notebook."""
    exercise.check(exercise.expected())
    assert capsys.readouterr().out.startswith("Correct!")


def test_exp11_the_reload_answer_is_the_dumped_lifetime_minus_time_since_load() -> None:
    """Rules EXP-01 and EXP-11: q1's answer is the file's A EXP less the time since the load,
    so it differs from every reading that keeps the original deadline or Expiry."""
    facts = nb08.q1.scenario().facts
    assert nb08.q1.expected() == facts["in_file"] - facts["since_load"]


def test_dlq01_the_dead_letter_dump_is_an_mqdlh_message() -> None:
    """Rule DLQ-01: q2's message sits on the dead-letter queue behind an MQDLH."""
    assert nb08.q2.scenario().facts["format"] == CMQC.MQFMT_DEAD_LETTER_HEADER.strip()


def test_order_dump_is_a_dump_the_reader_accepts() -> None:
    """The exercises' dump helper writes one message per Expiry, each read back with it."""
    messages = parse_dmpmqmsg(nb08._order_dump(600, CMQC.MQEI_UNLIMITED))
    assert [m.md.Expiry for m in messages] == [600, CMQC.MQEI_UNLIMITED]
    assert [m.data for m in messages] == [b"order 1", b"order 2"]
    assert all(m.md.Format == CMQC.MQFMT_STRING for m in messages)
