"""Notebook 08's exercises (``mqlearn.checks.nb08``: dumps, dead letters, MQSC): every solution
passes, every wrong answer is explained with the rules behind it, and no expected value is written
here: each test asks the exercise's own scenario, which runs on the engine.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqlearn import CMQC, checks
from mqlearn.checks import nb08
from mqlearn.checks.answers import Number
from mqlearn.checks.exercise import Exercise
from mqlearn.interop import parse_dmpmqmsg
from tests.test_checks import by_name, cites_rules, wrong_answer

EXERCISES: list[Exercise] = [value for value in vars(nb08).values() if isinstance(value, Exercise)]
RULE_ID = re.compile(r"(EXP|DLQ)-\d\d")


def test_notebook_08_rules_each_have_an_exercise() -> None:
    """The rules notebook 08 teaches through files and MQSC are each practised: the remaining
    lifetime in a dump (EXP-01, EXP-11), dead letters (DLQ-01), depth (EXP-25), scans (EXP-28)."""
    taught = {rule for exercise in EXERCISES for rule in exercise.rules}
    assert {"EXP-01", "EXP-11", "DLQ-01", "EXP-25", "EXP-28"} <= taught
    assert len(EXERCISES) >= 3


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_name)
def test_exercise_names_its_module_and_rules(exercise: Exercise) -> None:
    """Feedback tells the learner to call e.g. nb08.q1.hint(): that name must resolve."""
    module_name, attribute = exercise.name.split(".")
    assert getattr(getattr(checks, module_name), attribute) is exercise
    assert all(RULE_ID.fullmatch(rule) for rule in exercise.rules)


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_name)
def test_solution_passes(exercise: Exercise, capsys: pytest.CaptureFixture[str]) -> None:
    """The answer ``solution()`` prints, typed in as Python, is graded correct."""
    exercise.solution()
    printed = capsys.readouterr().out
    typed = re.match(r"Solution: answer = (.+)", printed)
    assert typed is not None, printed
    feedback = exercise.grade(eval(typed.group(1), {"CMQC": CMQC}))
    assert feedback.correct is True, feedback.text
    assert feedback.text.startswith("Correct!")
    assert cites_rules(exercise, printed), "the solution says which rules make it right"


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_name)
def test_wrong_answer_explains_the_rule(exercise: Exercise) -> None:
    feedback = exercise.grade(wrong_answer(exercise, exercise.expected()))
    assert feedback.correct is False
    assert cites_rules(exercise, feedback.text), feedback.text
    assert f"{exercise.name}.hint()" in feedback.text


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_name)
def test_misconceptions_are_wrong_and_get_their_own_sentence(exercise: Exercise) -> None:
    outcome = exercise.scenario()
    right = exercise.form.read(outcome.answer)
    assert exercise.misconceptions, "name a tempting answer"
    for misconception in exercise.misconceptions:
        tempting = outcome.facts[misconception.fact]
        assert exercise.form.read(tempting) != right, misconception.fact
        feedback = exercise.grade(tempting)
        assert feedback.correct is False
        assert misconception.says.format(**outcome.facts) in feedback.text
        assert cites_rules(exercise, feedback.text)


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_name)
def test_missing_or_misshapen_answer_is_not_graded_wrong_silently(exercise: Exercise) -> None:
    assert exercise.grade(None).correct is None
    misshapen = exercise.grade(object())
    assert misshapen.correct is False and misshapen.text.startswith(exercise.name)


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_name)
def test_show_prints_the_scenario_but_not_the_answer(
    exercise: Exercise, capsys: pytest.CaptureFixture[str]
) -> None:
    exercise.show()
    exercise.hint()
    printed = capsys.readouterr().out
    assert exercise.name in printed and "mq." in printed
    assert "# the answer" not in printed and "return Outcome" not in printed
    assert "Hint: " in printed


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_name)
def test_checking_prints_only_the_feedback(
    exercise: Exercise, capsys: pytest.CaptureFixture[str]
) -> None:
    """A scenario runs on every check: it must print nothing of its own into the notebook."""
    exercise.check(exercise.expected())
    assert capsys.readouterr().out.startswith("Correct!")


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_name)
def test_grading_is_deterministic(exercise: Exercise) -> None:
    wrong = wrong_answer(exercise, exercise.expected())
    assert exercise.grade(wrong) == exercise.grade(wrong)
    assert exercise.expected() == exercise.expected()


NUMBER_EXERCISES = [e for e in EXERCISES if isinstance(e.form, Number)]


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=-(2**31), max_value=2**31 - 1), st.sampled_from(NUMBER_EXERCISES))
def test_any_other_number_is_wrong_and_explained(guess: int, exercise: Exercise) -> None:
    right = exercise.expected()
    feedback = exercise.grade(guess)
    assert feedback.correct is (guess == right)
    if guess != right:
        assert cites_rules(exercise, feedback.text)


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
