"""Exercise variants (``mqlearn.checks.variants``): every exercise of notebooks 01-08 can be drawn
from a seed, seed 0 is the notebook's own scenario, and every variant is a fair question.

For each exercise, ``VARIANT_SEEDS`` seeds (200 unless the environment variable asks for more)
are drawn and run on the engine: the answer must be the same on a second run, have the form,
differ from every misconception the feedback names and from the example a missing answer shows,
and the exercise's own check that its rules are still at work must hold; the texts (question,
hint, feedback, solution) must come out whole, and the code ``show()`` prints must be the code
that ran. The expected answers are never written here: the engine gives them.
"""

from __future__ import annotations

import os
import re
import textwrap
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from random import Random
from typing import ClassVar, Self

import pytest

from mqlearn import CMQC, checks
from mqlearn.checks.exercise import Exercise, Outcome, draw_variant
from mqlearn.checks.handouts import threshold, variety
from mqlearn.checks.students import SEED_ENV, STUDENT_ENV, current_seed, read_seed, student_seed
from mqlearn.checks.variants import Variant, literal, render
from mqlearn.checks.wellposed import problems

VARIANT_SEEDS = range(1, 1 + int(os.environ.get("MQLEARN_VARIANT_SEEDS", "200")))
EXERCISES = checks.exercises()
LESSON_EXERCISES = [e for e in EXERCISES if "01" <= e.name[2:4] <= "08"]


def by_name(exercise: Exercise) -> str:
    return exercise.name


@pytest.fixture(autouse=True)
def notebook_seed() -> Iterator[None]:
    """No student set (conftest clears the environment): the seed in use is 0 unless a test
    sets one, and a test that sets one leaves none behind."""
    checks.set_seed(None)
    yield
    checks.set_seed(None)


def test_every_lesson_exercise_has_variants() -> None:
    assert LESSON_EXERCISES
    assert [e.name for e in LESSON_EXERCISES if e.variants is None] == []


@pytest.mark.parametrize("exercise", LESSON_EXERCISES, ids=by_name)
def test_seed_0_is_the_notebook_scenario(exercise: Exercise) -> None:
    """The defaults are the scenario the notebook prints; calling the scenario without
    parameters runs it (tests and notebooks that did so before variants still do)."""
    assert exercise.variants is not None
    assert exercise.params(0) == exercise.variants()
    assert exercise.form.read(exercise.scenario().answer) == exercise.expected(0)
    assert exercise.expected() == exercise.expected(0), "no student set: seed 0"


@pytest.mark.slow
@pytest.mark.parametrize("exercise", LESSON_EXERCISES, ids=by_name)
def test_every_variant_is_well_posed(exercise: Exercise) -> None:
    """Rule-preserving variants: each seed's variant is a fair question, graded by the engine."""
    scenarios, answers = set(), Counter[object]()
    for seed in VARIANT_SEEDS:
        params = exercise.params(seed)
        outcome = exercise.outcome(seed)
        assert problems(exercise, params, outcome) == [], f"seed {seed}: {params}"
        right = exercise.form.read(outcome.answer)
        assert exercise.form.read(exercise.outcome(seed).answer) == right, f"seed {seed}: unique"
        typed = eval(exercise.form.show(right), {"CMQC": CMQC})  # what solution() prints
        assert exercise.feedback(typed, outcome, params).correct is True, f"seed {seed}"
        for misconception in exercise.misconceptions:
            tempting = outcome.facts[misconception.fact]
            feedback = exercise.feedback(tempting, outcome, params)
            assert feedback.correct is False
            said = misconception.says.format(**outcome.facts, p=params)
            assert said in feedback.text and "{" not in said, f"seed {seed}: {said}"
            assert f"({exercise.citation})" in feedback.text
        scenarios.add(repr(params))
        answers[right] += 1
    assert len(scenarios) >= 3, "the seeds give different scenarios"
    print(f"{exercise.name}: {len(scenarios)} scenarios, {len(answers)} answers")


# Questions whose variants have fewer distinct right answers than a class of 30 asks for (issue
# 21, item 5), and why: keep this list as short as it can be, and drop a name the day it passes.
FEW_ANSWERS: dict[str, str] = {
    # none now: nb07.q4 and nb07.q5, the last two (one answer per variant), were rewritten to ask
    # what the variant's numbers decide too (how many desks read late; how long request() waits)
}
VARIETY_SEEDS = 200


@pytest.mark.slow
@pytest.mark.parametrize("exercise", LESSON_EXERCISES, ids=by_name)
def test_the_variety_report_finds_enough_distinct_answers(exercise: Exercise) -> None:
    """``assign``'s variety report (``handouts.variety``) over 200 made-up students, and over a
    class of 30: at least the 4 distinct right answers a class of 30 asks for, except the
    questions FEW_ANSWERS names, which must still be short of it (else drop them there)."""
    many = variety(exercise, [f"student{n}" for n in range(VARIETY_SEEDS)])
    class_of_30 = variety(exercise, [f"s{1001 + n}" for n in range(30)])
    enough = threshold(30)
    if exercise.name in FEW_ANSWERS:
        assert many.distinct < enough, f"{exercise.name} passes now: drop it from FEW_ANSWERS"
    else:
        assert many.distinct >= enough, f"{exercise.name}: {many.distinct} distinct answers"
        assert class_of_30.distinct >= enough, f"{exercise.name}: {class_of_30.distinct} in 30"


def test_the_few_answers_list_names_lesson_exercises() -> None:
    assert set(FEW_ANSWERS) <= {e.name for e in LESSON_EXERCISES}


@pytest.mark.parametrize("exercise", LESSON_EXERCISES, ids=by_name)
def test_a_variant_shows_the_code_it_runs(
    exercise: Exercise, capsys: pytest.CaptureFixture[str]
) -> None:
    """show() prints the variant's question and code with its values written in, no parameter
    left; hint() and solution() speak of the same variant."""
    for seed in (1, 2, 3):
        exercise.show(seed)
        exercise.hint(seed)
        exercise.solution(seed)
        printed = capsys.readouterr().out
        assert f"(Your variant of this exercise: seed {seed}.)" in printed
        assert "{p." not in printed and not re.search(r"\bp\.[a-z_]+", printed), printed
        assert "Solution: answer = " + exercise.form.show(exercise.expected(seed)) in printed


def test_a_variant_is_drawn_again_until_it_is_well_posed() -> None:
    """draw_variant asks the engine about each candidate, for every exercise sharing it."""
    q1 = checks.nb03.q1
    assert q1.sharing() == [checks.nb03.q1, checks.nb03.q2, checks.nb03.q4]
    counts = [draw_variant(FourPutsLike, seed, q1.sharing())[1] for seed in range(1, 30)]
    assert max(counts) > 1, "some candidates were refused"
    for seed in range(1, 30):
        params = q1.params(seed)
        assert all(problems(e, params) == [] for e in q1.sharing())


@dataclass(frozen=True)
class FourPutsLike(checks.nb03.FourPuts):
    """nb03's puts under another name: its own stream of candidates, drawn for the test."""


def test_exercises_that_share_a_scenario_share_its_variant() -> None:
    """nb03 q1, q2 and q4 ask about the same four puts, nb05 q4 and q5 about one backout."""
    for seed in (1, 7, 12345):
        assert checks.nb03.q1.params(seed) == checks.nb03.q2.params(seed)
        assert checks.nb03.q2.params(seed) == checks.nb03.q4.params(seed)
        assert checks.nb05.q4.params(seed) == checks.nb05.q5.params(seed)


# --- whose seed ------------------------------------------------------------------------------


def test_a_student_seed_is_a_stable_hash_of_the_id() -> None:
    """Not Python's hash() (randomized per process): SHA-256, the same on every machine."""
    assert student_seed("s1234567") == 120_469_519_226_436
    assert student_seed(" S1234567 ") == student_seed("s1234567"), "case and spaces ignored"
    assert student_seed("s1234568") != student_seed("s1234567")
    assert all(student_seed(f"student{n}") != 0 for n in range(1000)), "never the notebooks'"


def test_the_seed_comes_from_an_explicit_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    assert current_seed() == 0
    monkeypatch.setenv(STUDENT_ENV, "alice")
    assert current_seed() == student_seed("alice")
    monkeypatch.setenv(SEED_ENV, "42")
    assert current_seed() == 42, "an explicit seed wins over the student"
    assert checks.set_student("bob") == student_seed("bob"), "set in the process wins"
    assert checks.nb03.q1.params() == checks.nb03.q1.params(student_seed("bob"))
    checks.set_seed(None)
    assert current_seed() == 42


@pytest.mark.parametrize("bad", ["seven", "-1", "1.5", -1, 1.5, True, None, [3]])
def test_a_seed_that_is_not_a_whole_number_is_refused_clearly(bad: object) -> None:
    if bad is None:
        assert checks.nb03.q1.params(None) == checks.nb03.q1.params(0), "None: the seed in use"
        return
    with pytest.raises(ValueError, match=r"nb03\.q1: a seed is a whole number, 0 or more"):
        checks.nb03.q1.show(seed=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="a seed is a whole number"):
        read_seed(bad)


def test_a_bad_environment_seed_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SEED_ENV, "abc")
    with pytest.raises(ValueError, match=f"{SEED_ENV}: a seed is a whole number"):
        current_seed()
    with pytest.raises(ValueError, match="a student id is a non-empty string"):
        checks.set_student("  ")


def test_an_unknown_exercise_name_lists_the_known_ones() -> None:
    assert checks.find_exercise("nb03.q2") is checks.nb03.q2
    with pytest.raises(ValueError, match=r"no exercise 'nb03\.q9'; nb03 has nb03\.q1, nb03\.q2"):
        checks.find_exercise("nb03.q9")
    with pytest.raises(ValueError, match=r"named like 'nb03\.q1', in nb00, nb01"):
        checks.find_exercise("quiz3")


# --- how a variant's code is shown -----------------------------------------------------------


@dataclass(frozen=True)
class Sample(Variant):
    SHOWN: ClassVar = {-1: "CMQC.MQEI_UNLIMITED"}
    expiry: int = 50
    name: str = "APP.IN"
    puts: list[tuple[str, int]] = field(default_factory=lambda: [("A", 10), ("B", -1)])
    marked: dict[str, int] = field(default_factory=lambda: {"Expiry": 7})

    @classmethod
    def draw(cls, rng: Random) -> Self:
        return cls(rng.randrange(1, 100))

    @property
    def seconds(self) -> str:
        return f"{self.expiry / 10:g} s"


def _sample_helper(kind: str, p: Sample) -> str:
    """A helper whose def line is shown: {p.seconds}."""
    return f"{kind} {p.name}"


def _sample(p: Sample = Sample()) -> object:
    md = dict(Expiry=p.expiry)  # {p.seconds}
    rows = p.puts  # noqa: F841
    values = max(*p.puts)
    md2 = dict(**p.marked)
    queue = f"DEFINE QLOCAL({p.name}) MAXDEPTH(5)"
    return _sample_helper("FIFO", p), md, values, md2, queue


def test_render_writes_the_values_in_and_leaves_p_out() -> None:
    shown = render(_sample, Sample(expiry=20))
    assert shown == textwrap.dedent(
        """\
        def _sample() -> object:
            md = dict(Expiry=20)  # 2 s
            rows = [("A", 10), ("B", CMQC.MQEI_UNLIMITED)]
            values = max(("A", 10), ("B", CMQC.MQEI_UNLIMITED))
            md2 = dict(Expiry=7)
            queue = "DEFINE QLOCAL(APP.IN) MAXDEPTH(5)"
            return _sample_helper("FIFO"), md, values, md2, queue
        """
    )
    helper = render(_sample_helper, Sample())
    assert helper.splitlines()[:2] == [
        "def _sample_helper(kind: str) -> str:",
        '    """A helper whose def line is shown: 5 s."""',
    ]
    assert render(_sample, None).startswith("def _sample(p: Sample = Sample()) -> object:")
    assert "noqa" not in render(_sample, None), "lint directives are not the learner's"


def test_literal_writes_python_as_ruff_formats_it() -> None:
    assert literal("it's") == '"it\'s"'
    assert literal('say "hi"') == "'say \"hi\"'"
    assert literal((1,)) == "(1,)"
    assert literal(frozenset({"B", "A"})) == "{'A', 'B'}".replace("'", '"')
    assert literal(b"AB") == 'b"AB"'
    with pytest.raises(TypeError, match="no literal"):
        literal(object())


def test_an_outcome_gives_its_numbers_for_the_checks() -> None:
    outcome = Outcome(3, {"depth": 2, "letters": frozenset("A")})
    assert outcome.number() == 3 and outcome.number("depth") == 2
    with pytest.raises(TypeError, match="letters is not a whole number"):
        outcome.number("letters")
