"""The notebook exercises (``mqlearn.checks``): every solution passes, every wrong answer is
explained with the rule it breaks, and answers are read forgivingly but never wrongly.

The expected values are never written here either: each test asks the exercise's own scenario,
which runs on the engine.
"""

from __future__ import annotations

import re
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mqlearn as mq
from mqlearn import CMQC, checks
from mqlearn.checks.answers import Choice, LetterList, LetterSet, Number, Numbers, Reason
from mqlearn.checks.exercise import Exercise
from mqlearn.checks.lab import Letters, get_reason

MODULES: list[ModuleType] = checks.exercise_modules()  # found by name: nb00, nb01, …
EXERCISES: list[Exercise] = checks.exercises()
RULE_ID = re.compile(r"(EXP|RPT|UOW|LCK|RPL|DLQ|TRG|XQH|MD|EIP)-\d\d")


def by_name(exercise: Exercise) -> str:
    return exercise.name


def wrong_answer(exercise: Exercise, right: object) -> object:
    """An answer of the right shape that differs from the right one."""
    form = exercise.form
    if isinstance(form, LetterSet):
        assert isinstance(right, frozenset)
        return right ^ {"A"}
    if isinstance(form, LetterList):
        assert isinstance(right, tuple)
        return [*right, "Z"]
    if isinstance(form, Numbers):
        assert isinstance(right, tuple)
        return (right[0] + 1, *right[1:])
    if isinstance(form, Choice):
        return next(option for option in form.options if option != right)
    assert isinstance(right, int)
    return right + 1


def cites_rules(exercise: Exercise, text: str) -> bool:
    return f"({exercise.citation})" in text and all(rule in text for rule in exercise.rules)


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_name)
def test_exercise_names_its_module_and_rules(exercise: Exercise) -> None:
    """Feedback tells the learner to call e.g. nb03.q1.hint(): that name must resolve."""
    module_name, attribute = exercise.name.split(".")
    assert getattr(getattr(checks, module_name), attribute) is exercise
    assert all(RULE_ID.fullmatch(rule) for rule in exercise.rules)


def test_notebooks_01_to_08_have_at_least_three_exercises_each() -> None:
    for module in MODULES[1:]:
        count = sum(isinstance(value, Exercise) for value in vars(module).values())
        assert count >= 3, module.__name__


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_name)
def test_solution_passes(exercise: Exercise, capsys: pytest.CaptureFixture[str]) -> None:
    """The answer ``solution()`` prints, typed in as Python, is graded correct."""
    exercise.solution()
    printed = capsys.readouterr().out
    typed = re.match(r"Solution: answer = (.+)", printed)
    assert typed is not None, printed
    answer = eval(typed.group(1), {"CMQC": CMQC})
    feedback = exercise.grade(answer)
    assert feedback.correct is True, feedback.text
    assert feedback.text.startswith("Correct!")
    assert cites_rules(exercise, printed), "the solution says which rules make it right"


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_name)
def test_wrong_answer_explains_the_rule(exercise: Exercise) -> None:
    wrong = wrong_answer(exercise, exercise.expected())
    feedback = exercise.grade(wrong)
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
        assert misconception.says.format(**outcome.facts, p=exercise.params()) in feedback.text
        assert cites_rules(exercise, feedback.text)


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_name)
def test_missing_answer_asks_for_a_prediction_without_failing(
    exercise: Exercise, capsys: pytest.CaptureFixture[str]
) -> None:
    assert exercise.grade(None).correct is None
    exercise.check(None)
    assert "replace None with your prediction" in capsys.readouterr().out


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_name)
def test_answer_of_the_wrong_shape_says_what_shape(exercise: Exercise) -> None:
    feedback = exercise.grade(object())
    assert feedback.correct is False
    assert feedback.text.startswith(exercise.name)


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_name)
def test_show_prints_the_question_and_the_scenario_but_not_the_answer(
    exercise: Exercise, capsys: pytest.CaptureFixture[str]
) -> None:
    exercise.show()
    exercise.hint()
    printed = capsys.readouterr().out
    assert exercise.name in printed
    assert "mq." in printed, "the scenario's code is shown"
    assert "# the answer" not in printed and "return Outcome" not in printed.split("def ")[-1]
    assert "Hint: " in printed


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


# --- reading answers ------------------------------------------------------------------------


def test_letter_set_reads_what_learners_type() -> None:
    form = LetterSet()
    assert form.read({"a", "C "}) == frozenset({"A", "C"})
    assert form.read(["B"]) == form.read("b") == form.read(b"B") == frozenset({"B"})
    assert form.read({}) == form.read(set()) == frozenset()
    assert form.show(frozenset({"C", "A"})) == "{'A', 'C'}"
    assert form.show(frozenset()) == "set()"
    with pytest.raises(ValueError, match="letters"):
        form.read(3)
    with pytest.raises(ValueError, match="letter"):
        form.read({""})


def test_letter_list_keeps_order_and_refuses_sets() -> None:
    form = LetterList()
    assert form.read(["b", "a"]) == ("B", "A")
    with pytest.raises(ValueError, match="order"):
        form.read({"A", "B"})


def test_reason_reads_numbers_cmqc_names_and_ibm_i_names() -> None:
    form = Reason()
    expected = CMQC.MQRC_NO_MSG_AVAILABLE
    for typed in (expected, str(expected), "MQRC_NO_MSG_AVAILABLE", "no_msg_available", "RC2033"):
        assert form.read(typed) == expected
    assert form.show(expected) == "CMQC.MQRC_NO_MSG_AVAILABLE"
    assert form.read("MQFB_EXPIRATION") == CMQC.MQFB_EXPIRATION, "an MQDLH Reason may be one"
    assert form.show(123_456) == "123456", "no CMQC name: shown as the number"
    for bad in ("MQRC_NO_SUCH_THING", "MQEI_UNLIMITED", "RC99999", True, 20.33):
        with pytest.raises(ValueError):
            form.read(bad)


def test_numbers_need_exactly_their_count() -> None:
    form = Numbers("outer", "embedded")
    assert form.read([40, 0]) == (40, 0)
    with pytest.raises(ValueError, match="2 numbers"):
        form.read((40,))
    with pytest.raises(ValueError, match="embedded"):
        form.read((40, "0"))


def test_number_refuses_bools_and_text() -> None:
    for bad in (True, "30", 3.0):
        with pytest.raises(ValueError, match="whole number"):
            Number().read(bad)


def test_choice_ignores_case_and_names_the_options() -> None:
    form = Choice(["DLQ", "nowhere"])
    assert form.read(" dlq ") == "DLQ"
    with pytest.raises(ValueError, match="one of 'DLQ', 'nowhere'"):
        form.read("REPLY.Q")


def test_exercise_without_rules_is_refused() -> None:
    with pytest.raises(ValueError, match="rules"):
        Exercise(
            "nb99.q1",
            question="?",
            scenario=checks.nb00.warmup.scenario,
            form=Number(),
            rules=(),
            explanation="",
            hint="",
        )


# --- the scenario toolkit -------------------------------------------------------------------


def test_letters_translate_msgids_and_tell_the_story() -> None:
    """EXP-22 seen through letters: the get discards A and returns B."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    letters.put(q, "A", mq.MD(Expiry=10))
    letters.put(q, "B")
    qm.sim.advance(seconds=2)
    assert get_reason(q) == CMQC.MQRC_NONE
    assert letters.seen(qm, "discard") == frozenset({"A"})
    assert letters.seen(qm, "get", queue="APP.IN", cause="") == frozenset({"B"})
    assert letters.on_queue(qm, "APP.IN") == ()
    assert get_reason(q) == CMQC.MQRC_NO_MSG_AVAILABLE
    q.put(b"not a letter")
    assert letters.on_queue(qm, "APP.IN") == ("#3",)  # named by its MsgId's counter
    story = letters.story(qm).splitlines()
    assert story[2].split()[:5] == ["2.0", "s", "QM1", "APP.IN", "discard"]
    assert story[2].split()[5:] == ["A", "Expiry=0", "get"]


def _named(story: str) -> list[tuple[str, ...]]:
    """(queue manager, queue, kind, letter) of each line of a story (every event names one)."""
    return [tuple(line.split()[2:6]) for line in story.splitlines()]


def test_letters_follow_msg_seq_not_a_repeated_msgid() -> None:
    """Two messages put with one MsgId; a get matching the second's CorrelId takes the second,
    and the first stays: the letters say so (by MsgId, both would be the later letter)."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    same = b"SAME.MSGID".ljust(24, b"\0")
    letters.put(q, "A", mq.MD(MsgId=same, CorrelId=b"1" * 24))
    letters.put(q, "B", mq.MD(MsgId=same, CorrelId=b"2" * 24))
    gmo = mq.GMO(Version=CMQC.MQGMO_VERSION_2, MatchOptions=CMQC.MQMO_MATCH_CORREL_ID)
    assert q.get(None, mq.MD(CorrelId=b"2" * 24), gmo) == b"B"
    assert letters.seen(qm, "get") == frozenset({"B"})
    assert letters.on_queue(qm, "APP.IN") == ("A",)
    assert _named(letters.story(qm)) == [
        ("QM1", "APP.IN", "put", "A"),
        ("QM1", "APP.IN", "put", "B"),
        ("QM1", "APP.IN", "get", "B"),
    ]


def test_letters_follow_a_message_to_its_copies() -> None:
    """A channel's arrival and a dead letter are new messages named after the one they copy,
    never after another message with the same MsgId (rules EIP-04, XQH-01)."""
    sim = mq.Simulation()
    qm1, qm2 = mq.QueueManager("QM1", sim=sim), mq.QueueManager("QM2", sim=sim)
    qm1.define_qlocal("QM2", usage="XMITQ")
    qm1.define_qremote("TO.APP", rname="APP.IN", rqmname="QM2")
    qm2.define_qlocal("APP.IN", msgdlvsq="FIFO")
    qm2.define_qlocal("DLQ")
    qm2.alter_qmgr(deadq="DLQ")
    qm2.expired_action = "dead-letter"
    mq.Channel(qm1, qm2, xmitq="QM2", latency_ms=500)
    letters = Letters()
    same = b"SAME.MSGID".ljust(24, b"\0")
    letters.put(mq.Queue(qm2, "APP.IN"), "B", mq.MD(MsgId=same, Expiry=10))  # 1 s
    letters.put(mq.Queue(qm1, "TO.APP"), "A", mq.MD(MsgId=same))  # reaches QM2 at 0.5 s
    sim.advance(seconds=2)
    assert letters.on_queue(qm2, "APP.IN") == ("B", "A")  # B expired at 1 s, nothing met it
    assert get_reason(mq.Queue(qm2, "APP.IN")) == CMQC.MQRC_NONE  # moves B to DLQ, takes A
    assert letters.seen(qm2, "get") == frozenset({"A"})
    assert letters.on_queue(qm2, "DLQ") == ("B",)
    assert letters.on_queue(qm2, "APP.IN") == ()
    assert _named(letters.story(qm1, qm2)) == [  # at one time, QM1's events first
        ("QM1", "QM2", "put", "A"),
        ("QM1", "QM2", "channel-send", "A"),
        ("QM2", "APP.IN", "put", "B"),
        ("QM2", "APP.IN", "put", "A"),
        ("QM2", "APP.IN", "channel-arrive", "A"),
        ("QM2", "APP.IN", "discard", "B"),
        ("QM2", "DLQ", "put", "B"),
        ("QM2", "DLQ", "dead-letter", "B"),
        ("QM2", "APP.IN", "get", "A"),
    ]


def test_letters_name_an_arrival_thrown_away_after_the_message_sent() -> None:
    """The receiving queue manager logs the discard of an undeliverable MQRO_DISCARD_MSG arrival
    with the sender's number for it; the letter is the sent message's, not that of the
    receiver's message with the same number."""
    sim = mq.Simulation()
    qm1, qm2 = mq.QueueManager("QM1", sim=sim), mq.QueueManager("QM2", sim=sim)
    qm1.define_qlocal("QM2", usage="XMITQ")
    qm1.define_qremote("TO.NOWHERE", rname="NOWHERE", rqmname="QM2")
    qm2.define_qlocal("APP.IN")
    mq.Channel(qm1, qm2, xmitq="QM2", latency_ms=500)
    letters = Letters()
    letters.put(mq.Queue(qm2, "APP.IN"), "X")  # message 1 of QM2
    letters.put(mq.Queue(qm1, "TO.NOWHERE"), "A", mq.MD(Report=CMQC.MQRO_DISCARD_MSG))  # 1 of QM1
    sim.advance(seconds=1)
    assert letters.seen(qm2, "discard") == frozenset({"A"})
    assert letters.on_queue(qm2, "APP.IN") == ("X",)


def test_letters_follow_an_undeliverable_arrival_to_the_dead_letter_queue() -> None:
    """Rule DLQ-01: QM2 has no queue NOWHERE, so A arrives on its DLQ as a new message, A."""
    sim = mq.Simulation()
    qm1, qm2 = mq.QueueManager("QM1", sim=sim), mq.QueueManager("QM2", sim=sim)
    qm1.define_qlocal("QM2", usage="XMITQ")
    qm1.define_qremote("TO.NOWHERE", rname="NOWHERE", rqmname="QM2")
    qm2.define_qlocal("DLQ")
    qm2.alter_qmgr(deadq="DLQ")
    mq.Channel(qm1, qm2, xmitq="QM2", latency_ms=500)
    letters = Letters()
    letters.put(mq.Queue(qm1, "TO.NOWHERE"), "A")
    sim.advance(seconds=1)
    assert letters.on_queue(qm2, "DLQ") == ("A",)
    assert letters.seen(qm2, "dead-letter") == frozenset({"A"})
