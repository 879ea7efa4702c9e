"""What the course states as IBM MQ behaviour is IBM MQ behaviour, and what is mqlearn's own
choice says so.

The quizzes at the end of the notebooks are Markdown: a question and one answer. Where a quiz
could have more than one right answer, the question states the facts that rule the others out;
the tests here take each tempting answer (a distractor), run the case it stands for on the
engine, and check that one of the stated facts shows it to be wrong. The exercises' right answers
are never written here either: each test asks the exercise's own scenario.
"""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pytest

import mqlearn as mq
from mqlearn import CMQC, checks, patterns
from mqlearn.checks import nb02
from mqlearn.checks.answers import Choice, Numbers
from mqlearn.checks.exercise import Exercise
from mqlearn.interop import browse_amqsbcg

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
EXERCISES: list[Exercise] = checks.exercises()
NO_SYNC = mq.PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)


def by_name(exercise: Exercise) -> str:
    return exercise.name


def notebook_text(prefix: str, *, code: bool = False) -> str:
    """The cell sources of one notebook (markdown, or code), whitespace collapsed."""
    (path,) = NOTEBOOKS.glob(f"{prefix}_*.ipynb")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    kind = "code" if code else "markdown"
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == kind)
    return re.sub(r"\s+", " ", text)


def quiz(prefix: str, number: int) -> str:
    """Question ``number`` of a notebook's quiz, with its answer, whitespace collapsed."""
    text = notebook_text(prefix)
    found = re.search(rf"## Quiz .*? {number}\. (.*?)</details>", text)
    assert found, f"notebook {prefix} has no quiz question {number}"
    return found[1]


# --- placeholders are never right ------------------------------------------------------------


@pytest.mark.parametrize("exercise", EXERCISES, ids=by_name)
def test_the_example_a_missing_answer_shows_is_never_the_right_answer(exercise: Exercise) -> None:
    """``check(None)`` shows an example of the answer's form; a learner who copies it must not be
    told "Correct!" (notebook 03's exercise 2 once had its own answer as the example)."""
    example = exercise.form.example.split("  (")[0]
    if isinstance(exercise.form, Choice | Numbers):
        return  # "one of 'a', 'b'" and "(<A>, <B>)" name no answer
    typed = eval(example, {"CMQC": CMQC})
    assert exercise.form.read(typed) != exercise.expected(), f"{exercise.name}: {example}"
    assert exercise.grade(typed).correct is False


def test_every_notebook_answer_placeholder_is_none() -> None:
    """The answer cells start from ``answer = None``, which is never graded as right."""
    for path in sorted(NOTEBOOKS.glob("0*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for cell in cells:
            source = "".join(cell["source"])
            if cell["cell_type"] == "code" and ".check(answer)" in source:
                assert re.search(r"^answer = None\b", source, re.MULTILINE), (path.name, source)
    assert all(e.grade(None).correct is None for e in EXERCISES)


# --- mqlearn's choices are named as such (IBM: expiry is approximate) --------------------------

CHOICE_EXERCISES = ["nb01.q1", "nb02.q4", "nb06.q3"]  # rounding, first scan, transit time


@pytest.mark.parametrize("name", CHOICE_EXERCISES)
def test_an_exercise_that_rests_on_a_choice_of_mqlearn_says_so(name: str) -> None:
    """The question says "In mqlearn"; the feedback says what IBM allows and what mqlearn does."""
    (exercise,) = [e for e in EXERCISES if e.name == name]
    assert exercise.question.startswith("In mqlearn, ")
    assert "IBM allows" in exercise.explanation and "mqlearn" in exercise.explanation


def test_exp12_nb01_quiz3_remaining_expiry_is_rounded_up_in_mqlearn() -> None:
    """Quiz 01.3: Expiry 100, got 3.05 s later: 69.5 tenths left, mqlearn says 70."""
    text = quiz("01", 3)
    assert text.startswith("In mqlearn,") and "IBM allows" in text and "70" in text
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    qm.put1("APP.IN", b"x", mq.MD(Expiry=100))
    qm.sim.advance(ms=3_050)
    md = mq.MD()
    mq.Queue(qm, "APP.IN").get(None, md)
    assert md.Expiry == 70


def test_eip02_nb07_quizzes_on_jms_match_the_helper() -> None:
    """Quiz 07.1 (999 ms: 9 tenths in mqlearn), 07.2 (JMSExpiration is absolute) and 07.3 (ten
    years: MQEI_UNLIMITED, the real expiry in the MQRFH2)."""
    first, second, third = quiz("07", 1), quiz("07", 2), quiz("07", 3)
    assert first.startswith("In mqlearn") and "IBM allows" in first and "9 tenths" in first
    assert patterns.jms_ttl_to_expiry(999) == 9
    assert "send time + 60 000 ms" in second and "jms.Exp" in second
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    sent = patterns.JmsProducer(qm, "APP.IN").send(b"x", time_to_live=60_000)
    qm.sim.advance(seconds=20)
    assert sent.jms_expiration == 60_000, "absolute: send time 0 + 60 s, whatever the wait"
    ten_years = 10 * 365 * 24 * 3600 * 1000
    assert "MQEI_UNLIMITED" in third and patterns.jms_ttl_to_expiry(ten_years) == -1


# --- IBM i runs the expiry task (EXP-28) ---------------------------------------------------------


def test_exp28_nb02_q4_gives_the_same_answer_on_ibmi() -> None:
    """The expiry-task exercise runs on distributed; IBM i has the same task, so the same
    scenario on profile ibmi leaves the same CURDEPTH (and z/OS, with EXPRYINT off, does not)."""
    depths = {}
    for profile in ("distributed", "ibmi", "zos"):
        qm = mq.QueueManager("QM1", profile=profile)
        qm.define_qlocal("APP.IN")
        for expiry in (100, 6000, 1000):
            qm.put1("APP.IN", b"x", mq.MD(Expiry=expiry), NO_SYNC)
        qm.sim.advance(seconds=301)
        depths[profile] = qm.curdepth("APP.IN")
    assert depths["distributed"] == depths["ibmi"] == nb02.q4.expected() == 1
    assert depths["zos"] == 3


def test_exp28_rpt02_nb04_quiz3_ibmi_reports_within_the_interval() -> None:
    """Quiz 04.3: an hour on a quiet IBM i queue manager: in mqlearn the task discarded the
    message and its report was sent; on z/OS with EXPRYINT off, nothing did. The bound is
    mqlearn's: IBM gives a default interval, not a bound (issue 24, item 3)."""
    text = quiz("04", 3)
    assert text.startswith("In mqlearn, ") and "Yes, in mqlearn" in text
    assert "IBM gives that default interval but no bound" in text
    assert "within a reasonable period" in text and "not certainly" in text
    reports = {}
    for profile in ("ibmi", "zos"):
        qm = mq.QueueManager("QM1", profile=profile)
        qm.define_qlocal("APP.IN")
        qm.define_qlocal("REPLY.Q")
        md = mq.MD(Expiry=10, Report=CMQC.MQRO_EXPIRATION, ReplyToQ="REPLY.Q")
        qm.put1("APP.IN", b"x", md, NO_SYNC)
        qm.sim.advance(seconds=3600)
        reports[profile] = qm.curdepth("REPLY.Q")
    assert reports == {"ibmi": 1, "zos": 0}


# --- quizzes with exactly one right answer --------------------------------------------------------


def test_exp05_nb05_quiz1_none_of_the_batch_survives_its_commit() -> None:
    """Quiz 05.1: 1 000 puts under syncpoint from t = 0 s to t = 25 s, Expiry 600, a commit at
    t = 90 s. The answer "none" is the only one: "all of them" would need the lifetime to start
    at the commit, and "those put less than 60 s before the commit" names no message, because the
    question puts the last one at 25 s."""
    question = quiz("05", 1)
    for stated in ("Expiry 600", "the first at t = 0 s, the last at t = 25 s", "at t = 90 s"):
        assert stated in question
    assert "None." in question
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    put_at = [round(n * 25_000 / 999) for n in range(1_000)]  # 0 ms .. 25 000 ms
    for at in put_at:
        qm.sim.advance(ms=at - qm.sim.now)
        q.put(b"x", mq.MD(Expiry=600), mq.PMO(Options=CMQC.MQPMO_SYNCPOINT))
    deadlines = qm.queue_frame("APP.IN")["deadline_ms"]
    qm.sim.advance(ms=90_000 - qm.sim.now)
    qm.commit()
    got = 0
    while True:
        try:
            q.get()
        except mq.MQMIError as error:
            assert error.reason == CMQC.MQRC_NO_MSG_AVAILABLE
            break
        got += 1
    assert got == 0, "the answer: none"
    # "all of them" is wrong: every lifetime started at its MQPUT and ended before the commit
    assert list(deadlines) == [at + 60_000 for at in put_at] and max(deadlines) < 90_000
    # "only those put in the last 60 s before the commit" is wrong: there were none
    assert not [at for at in put_at if at > 90_000 - 60_000]


def amqsbcg_observation(case: str) -> dict[str, object]:
    """What the quiz 08.2 administrator would see for one explanation of "5 counted, 3 printed":
    DISPLAY QSTATUS before, whether another application holds the queue open, how many
    messages amqsbcg printed, and CURDEPTH after it."""
    qm = mq.QueueManager("QM1")
    qm.alter_qmgr(expryint=0)
    qm.define_qlocal("APP.IN")
    others: list[mq.Queue] = []
    for _ in range(3):
        qm.put1("APP.IN", b"live", mq.MD())
    if case == "expired":
        for _ in range(2):
            qm.put1("APP.IN", b"short", mq.MD(Expiry=10))
        qm.sim.advance(seconds=2)
    elif case == "uncommitted":
        for _ in range(2):
            qm.put1("APP.IN", b"in a unit of work", pmo=mq.PMO(Options=CMQC.MQPMO_SYNCPOINT))
    elif case == "locked":
        for _ in range(2):
            qm.put1("APP.IN", b"locked", mq.MD())
        for _ in range(2):  # another application browses with a lock, one message per handle
            handle = mq.Queue(qm, "APP.IN")
            handle.get(None, mq.MD(), mq.GMO(Options=CMQC.MQGMO_BROWSE_NEXT | CMQC.MQGMO_LOCK))
            others.append(handle)
    status = qm.mqsc("DIS QS(APP.IN) CURDEPTH UNCOM")
    depth = re.search(r"CURDEPTH\((\d+)\)", status)
    uncom = re.search(r"UNCOM\((\w+)\)", status)
    assert depth and uncom
    printed = browse_amqsbcg(qm, "APP.IN").count("MQGET of message number")
    return {
        "curdepth": int(depth[1]),
        "uncom": uncom[1],
        "others_open": bool(others),
        "printed": printed,
        "curdepth_after": qm.curdepth("APP.IN"),
    }


def test_exp21_nb08_quiz2_expired_is_the_only_explanation_the_question_leaves() -> None:
    """Quiz 08.2: CURDEPTH(5), UNCOM(NO), nobody else has the queue open, amqsbcg prints 3 and
    CURDEPTH is 3 afterwards. Uncommitted puts and locked messages also make a browse print 3 of
    5, and each contradicts a stated fact; expired messages match every one (EXP-21, EXP-24)."""
    question = quiz("08", 2)
    for stated in ("CURDEPTH(5) and UNCOM(NO)", "no other application has the queue open"):
        assert stated in question
    assert "prints 3 messages" in question and "then shows CURDEPTH(3)" in question
    given = {"curdepth": 5, "uncom": "NO", "others_open": False, "printed": 3, "curdepth_after": 3}
    assert amqsbcg_observation("expired") == given, "the answer: they had expired"
    uncommitted = amqsbcg_observation("uncommitted")
    assert (uncommitted["curdepth"], uncommitted["printed"]) == (5, 3), "a real distractor"
    assert uncommitted["uncom"] != "NO" and uncommitted["curdepth_after"] == 5
    locked = amqsbcg_observation("locked")
    assert (locked["curdepth"], locked["uncom"], locked["printed"]) == (5, "NO", 3)
    assert locked["others_open"] and locked["curdepth_after"] == 5


# --- facts the notebooks now state ----------------------------------------------------------------


def test_exp06_notebooks_give_capexpry_s_two_forms_with_their_releases() -> None:
    """CAPEXPRY: inside CUSTOM from 8.0.0.4, an attribute of its own from 9.3.1 / 9.4.0."""
    for prefix in ("01", "08"):
        text = notebook_text(prefix)
        assert "8.0.0.4" in text and "9.3.1" in text and "9.4.0" in text, prefix
        assert "CUSTOM('CAPEXPRY(" in text, prefix
    assert "Since MQ 9.x" not in notebook_text("01")
    assert "CUSTOM('CAPEXPRY(200)')" in notebook_text("08", code=True)


@pytest.mark.parametrize("profile", ["distributed", "zos", "ibmi"])
def test_exp06_nb01_nb08_the_two_forms_are_never_set_together(profile: str) -> None:
    """Issue 24, item 2: IBM says setting both does not work (CUSTOM's entry goes first; z/OS
    refuses with CSQM531I); nb01 and nb08 say so, and the MQSC subset refuses it."""
    for prefix in ("01", "08"):
        text = notebook_text(prefix)
        assert "CSQM531I" in text and "must be removed before the attribute is set" in text
    assert "keeps that one, whatever the attribute says" not in notebook_text("01")
    qm = mq.QueueManager("QM1", profile=profile)
    out = qm.mqsc("DEFINE QLOCAL(Q1) CAPEXPRY(100) CUSTOM('CAPEXPRY(200)')")
    assert "One valid MQSC command could not be processed." in out
    assert ("CSQM531I" in out) == (profile == "zos")
    assert "Q1" not in qm.objects


def test_notebooks_no_longer_state_the_corrected_claims() -> None:
    """Sentences the fact-check found wrong, kept out of the course and the exercises."""
    wrong = [
        "Since MQ 9.x",  # CAPEXPRY is older, and an attribute only from 9.3.1/9.4.0
        "reads back as the time-to-live that remains",  # JMSExpiration is absolute (jms.Exp)
        "the client divides by 100 and drops the remainder",  # IBM does not document rounding
        "On IBM i the embedded Expiry may even be longer",  # a page's wording, not a platform
        "when something stumbles on an expired message",  # discard triggers stated whole
        "A load is all or nothing",  # dmpmqmsg commits in batches; all-or-nothing is mqlearn's
        # issue 24, the course's words:
        "a scan discarded the message at most 300 s after it expired",  # IBM sets no bound
        "busy queues; those left to the background scan wait",  # only in mqlearn
        "or almost a whole interval later",  # IBM gives a default interval, not a bound
        "the queue manager turns it into a deadline",  # the deadline is mqlearn's model (EXP-10)
        "when the queue manager runs with the environment variable",  # IBM: it must be exported
        "runs the same scan at an interval",  # EXPRYINT scans the queues worth scanning
        "the get under the cursor discards it",  # IBM: may become eligible for discard
        "discarded it and failed with MQRC_NO_MSG_UNDER_CURSOR",  # the same, in nb05.q3
        "At most the 30 s it has left",  # eligible then, not gone
        "the cap inside CUSTOM is the one that applies, as IBM documents",  # never both
    ]
    texts = {p.name: p.read_text(encoding="utf-8") for p in NOTEBOOKS.glob("*.ipynb")}
    texts |= {p.name: p.read_text() for p in (ROOT / "mqlearn" / "checks").glob("nb*.py")}
    for name, text in texts.items():
        flat = re.sub(r"\s+", " ", text.replace('\\n",\n', " ").replace('"', " "))
        for sentence in wrong:
            assert sentence not in flat, (name, sentence)


def test_exp28_background_scans_are_hedged_where_ibm_gives_no_bound() -> None:
    """Issue 24, item 3: nb02 and nb09 give the 300 s as IBM's default interval and the bound as
    mqlearn's; nb08 says EXPRYINT scans only the queues worth scanning, REFRESH every match."""
    assert "IBM gives the task's default interval, not a bound" in notebook_text("02")
    assert "in mqlearn an expired message waits at most one interval" in notebook_text("02")
    assert "IBM gives that default interval but not a bound" in notebook_text("09")
    nb08 = notebook_text("08")
    assert "looks only at the queues the queue manager judges worth scanning" in nb08
    assert "mqlearn's interval scan looks at every queue" in nb08


def test_exp20_nb00_quiz2_and_nb06_quiz1_rule_out_a_background_scan() -> None:
    """Issue 24, item 4: the CURDEPTH answer holds only when no scan ran in the window, so the
    question says none did; the channel answer names the scan that may have come first. The
    engine: an expired message with no scan stays in CURDEPTH, one with the task goes."""
    assert "no get, no browse, and no background expiry scan" in quiz("00", 2)
    assert "unless a background expiry scan already did" in quiz("06", 1)
    depths = {}
    for expryint in (0, 30):
        qm = mq.QueueManager("QM1")
        qm.alter_qmgr(expryint=expryint)
        qm.define_qlocal("APP.IN")
        qm.put1("APP.IN", b"x", mq.MD(Expiry=10), NO_SYNC)
        qm.sim.advance(seconds=61)
        depths[expryint] = qm.curdepth("APP.IN")
    assert depths == {0: 1, 30: 0}


def test_dlq01_nb06_quiz3_a_dead_letter_becomes_eligible_and_stays() -> None:
    """Issue 24, item 10: after its 30 s the dead letter is eligible for discard, still counted
    in the DLQ's depth until something discards it (no scan here)."""
    text = quiz("06", 3)
    assert "becomes eligible for discard but stays on the DLQ, counted in CURDEPTH" in text
    qm = mq.QueueManager("QM1")
    qm.alter_qmgr(expryint=0)
    qm.define_qlocal("DLQ")
    qm.put1("DLQ", b"x", mq.MD(Expiry=300), NO_SYNC)
    qm.sim.advance(seconds=31)
    assert qm.curdepth("DLQ") == 1
    with pytest.raises(mq.MQMIError) as failed:
        mq.Queue(qm, "DLQ").get()
    assert failed.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE


def test_exp10_exp04_lck01_nb01_nb05_label_mqlearn_s_readings() -> None:
    """Issue 24, items 5, 7 and 8: the deadline, where the variable is read, and the discard
    under the cursor are mqlearn's; IBM's words are given beside them."""
    nb01 = notebook_text("01")
    assert "the queue manager decrements it, approximately" in nb01
    assert "In mqlearn that countdown is kept as a deadline" in nb01
    assert "has been exported (its value does not matter" in nb01
    assert "In mqlearn, a queue manager reads it when it is created" in nb01
    nb05 = notebook_text("05")
    assert "IBM says only that the expired message may be discarded" in nb05
    assert "in mqlearn that failing get discards it" in nb05
    assert "in mqlearn that get discards it" in nb05_confirm()


def nb05_confirm() -> str:
    """The confirmation nb05.q3 shows (LCK-01): what happened, with mqlearn's choice named."""
    (exercise,) = [e for e in EXERCISES if e.name == "nb05.q3"]
    return str(exercise.confirm)


@pytest.mark.parametrize("name", ["nb07.q4", "nb07.q5"])
def test_exp28_nb07_q4_q5_switch_the_expiry_task_off(name: str) -> None:
    """Issue 24, item 4: their answers (the reports of late reads only; the whole wait and no
    report) assume no background scan in the window, which a real queue manager may run: the
    scenario switches the task off (qm.ini ExpiryInterval 0 does the same on a real one) and the
    question says so."""
    (exercise,) = [e for e in EXERCISES if e.name == name]
    assert "expiry task is off" in exercise.question
    assert "qm.alter_qmgr(expryint=0)" in inspect.getsource(exercise.scenario)
