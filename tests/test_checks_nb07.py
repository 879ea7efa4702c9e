"""Notebook 07's exercises (``mqlearn.checks.nb07``, rules EIP-02 .. EIP-06): every solution
passes, every wrong answer is explained with the rules behind it, and no expected value is written
here: each test asks the exercise's own scenario, which runs on the engine.
"""

from __future__ import annotations

import re

import pytest

from mqlearn import CMQC, checks
from mqlearn.checks import nb07
from mqlearn.checks.answers import Choice
from mqlearn.checks.exercise import Exercise
from tests.test_checks import by_name, cites_rules, wrong_answer

EXERCISES: list[Exercise] = [value for value in vars(nb07).values() if isinstance(value, Exercise)]
RULE_ID = re.compile(r"(EIP|EXP|RPT)-\d\d")


def test_eip02_to_eip06_each_have_an_exercise() -> None:
    """Rules EIP-02 .. EIP-06 are each practised (EIP-01 is shown in the notebook's cells)."""
    taught = {rule for exercise in EXERCISES for rule in exercise.rules}
    assert {f"EIP-0{n}" for n in range(2, 7)} <= taught
    assert len(EXERCISES) >= 3


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_name)
def test_exercise_names_its_module_and_rules(exercise: Exercise) -> None:
    """Feedback tells the learner to call e.g. nb07.q1.hint(): that name must resolve."""
    module_name, attribute = exercise.name.split(".")
    assert getattr(getattr(checks, module_name), attribute) is exercise
    assert all(RULE_ID.fullmatch(rule) for rule in exercise.rules)
    assert any(rule.startswith("EIP-") for rule in exercise.rules)


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_name)
def test_solution_passes(exercise: Exercise, capsys: pytest.CaptureFixture[str]) -> None:
    """The answer ``solution()`` prints, typed in as Python, is graded correct."""
    exercise.solution()
    printed = capsys.readouterr().out
    typed = re.match(r"Solution: answer = (.+)", printed)
    assert typed is not None, printed
    feedback = exercise.grade(eval(typed.group(1), {"CMQC": CMQC}))
    assert feedback.correct is True, feedback.text
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
    assert exercise.misconceptions or isinstance(exercise.form, Choice), "name a tempting answer"
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
def test_grading_is_deterministic(exercise: Exercise) -> None:
    wrong = wrong_answer(exercise, exercise.expected())
    assert exercise.grade(wrong) == exercise.grade(wrong)
    assert exercise.expected() == exercise.expected()
