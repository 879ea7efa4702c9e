"""Is a variant of an exercise a fair question? The engine says, for each drawn variant.

A variant is well-posed when the engine runs it, its answer has the exercise's form, no tempting
wrong answer the feedback names (a misconception) is the right answer, the example a missing
answer shows is not the right answer either, and the exercise's own cheap check (``teaches``)
finds the rule still at work (say, that the get discarded something). ``Exercise.params`` draws
again until a variant is well-posed for every exercise that shares its parameters, so no student
ever gets an ill-posed variant; the tests run the same check on hundreds of seeds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mqlearn.checks.answers import AnswerForm, Choice, Numbers
from mqlearn.mqi import cmqc

if TYPE_CHECKING:
    from mqlearn.checks.exercise import Exercise, Outcome
    from mqlearn.checks.variants import Variant


def example_answer(form: AnswerForm) -> object | None:
    """The answer a learner would give by copying the form's example (None when it names no
    answer, as ``(<outer>, <embedded>)`` or ``one of 'a', 'b'`` do)."""
    if isinstance(form, Choice | Numbers):
        return None
    typed = form.example.split("  (")[0]
    return form.read(eval(typed, {"__builtins__": {"set": set}, "CMQC": cmqc}))


def problems(
    exercise: Exercise, params: Variant | None, outcome: Outcome | None = None
) -> list[str]:
    """What makes variant ``params`` of ``exercise`` ill-posed, as sentences (none: it is fine)."""
    if outcome is None:
        try:
            outcome = exercise.scenario() if params is None else exercise.scenario(params)
        except Exception as error:  # a variant the engine refuses is not a question
            return [f"the scenario fails: {type(error).__name__}: {error}"]
    found = []
    try:
        right = exercise.form.read(outcome.answer)
    except ValueError as error:
        return [f"the answer {outcome.answer!r} does not have the exercise's form: {error}"]
    for misconception in exercise.misconceptions:
        tempting = outcome.facts.get(misconception.fact)
        try:
            if exercise.form.read(tempting) == right:
                found.append(f"the misconception {misconception.fact!r} is the right answer")
        except ValueError:
            found.append(f"the misconception {misconception.fact!r} is no answer: {tempting!r}")
    if example_answer(exercise.form) == right:
        found.append(f"the example answer {exercise.form.example!r} is the right answer")
    if exercise.teaches is not None and not exercise.teaches(outcome):
        found.append(f"the outcome no longer shows {exercise.citation}")
    return found
