"""Notebook 05 (units of work, browse cursors and locks): syncpoint, backout, 2034."""

from __future__ import annotations

import mqlearn as mq
from mqlearn import CMQC
from mqlearn.checks.answers import LetterSet, Number, Numbers, Reason
from mqlearn.checks.exercise import Exercise, Misconception, Outcome
from mqlearn.checks.lab import Letters, get_reason


def _commit_late() -> Outcome:
    """A two-second message is put under syncpoint and committed three seconds later."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    letters.put(q, "A", mq.MD(Expiry=20), mq.PMO(Options=CMQC.MQPMO_SYNCPOINT))
    qm.sim.advance(seconds=3)
    qm.commit()
    reason = get_reason(q)
    # the answer: reason
    return Outcome(reason, {"success": CMQC.MQRC_NONE}, letters.story(qm))


q1 = Exercise(
    "nb05.q1",
    question="After the commit, a get runs on APP.IN. Which reason code does it end with?",
    scenario=_commit_late,
    form=Reason(),
    rules=("EXP-05",),
    explanation=(
        "A message's lifetime starts at MQPUT, even under syncpoint: the time it waits for the "
        "commit counts, and a message that expired before the commit is never returned after it."
    ),
    hint="When did A's two seconds start: at the put, or at the commit?",
    confirm="A expired at 2 s, before the commit at 3 s; the get found nothing live.",
    misconceptions=(Misconception("success", "The clock started at MQPUT, not at MQCMIT."),),
)


def _backout_nearly_expired() -> Outcome:
    """A message got under syncpoint with one second left; the unit of work is backed out later."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    letters.put(q, "A", mq.MD(Expiry=50))
    qm.sim.advance(seconds=4)
    q.get(None, mq.MD(), mq.GMO(Options=CMQC.MQGMO_SYNCPOINT))  # A, Expiry 10 left
    qm.sim.advance(seconds=2)  # the application works on it, then fails
    qm.backout()
    depth_after_backout = qm.curdepth("APP.IN")
    reason = get_reason(q)
    # the answer: reason
    return Outcome(
        reason,
        {"success": CMQC.MQRC_NONE, "depth": depth_after_backout},
        letters.story(qm),
    )


q2 = Exercise(
    "nb05.q2",
    question="After the backout, the application tries again with a get. Which reason code?",
    scenario=_backout_nearly_expired,
    form=Reason(),
    rules=("UOW-01",),
    explanation=(
        "Backout puts the message back in its old place with BackoutCount + 1, but with its "
        "original deadline: the clock kept running while the application held it."
    ),
    hint="A had 1 s left when it was got. How long did the unit of work last?",
    confirm="A came back (CURDEPTH {depth}) already expired, and the get discarded it.",
    misconceptions=(Misconception("success", "Backout does not restart the message's lifetime."),),
)


def _lock_then_two_gets() -> Outcome:
    """One handle browses A with a lock; A expires; another handle gets, then the first."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    browser, other = mq.Queue(qm, "APP.IN"), mq.Queue(qm, "APP.IN")  # two handles
    letters = Letters()
    letters.put(browser, "A", mq.MD(Expiry=30))
    qm.sim.advance(seconds=1)
    browser.get(None, mq.MD(), mq.GMO(Options=CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_LOCK))
    qm.sim.advance(seconds=3)
    other_reason = get_reason(other)
    cursor_reason = get_reason(browser, gmo=mq.GMO(Options=CMQC.MQGMO_MSG_UNDER_CURSOR))
    # the answer: (other_reason, cursor_reason)
    no_msg, none = CMQC.MQRC_NO_MSG_AVAILABLE, CMQC.MQRC_NONE
    return Outcome(
        (other_reason, cursor_reason),
        {"lock_stops_clock": (no_msg, none), "no_cursor_code": (no_msg, no_msg)},
        letters.story(qm),
    )


q3 = Exercise(
    "nb05.q3",
    question=(
        "Which reason codes do the two gets end with? Answer (the other handle's get, the get "
        "under the cursor), for example (CMQC.MQRC_NONE, CMQC.MQRC_NONE)."
    ),
    scenario=_lock_then_two_gets,
    form=Numbers("the other handle's reason", "the under-cursor reason"),
    rules=("LCK-01", "EXP-21"),
    explanation=(
        "A lock keeps other handles away from the message, but not expiry: a locked message "
        "expires on time, and a get for the message under the cursor then finds it gone. A get "
        "on another handle never considers a message locked by someone else."
    ),
    hint=(
        "For the other handle the locked A is not a candidate at all. For the first handle, "
        "MQGMO_MSG_UNDER_CURSOR asks for A and nothing else."
    ),
    confirm=(
        "The other get found no candidate (2033); the get under the cursor found A expired, "
        "discarded it and failed with MQRC_NO_MSG_UNDER_CURSOR (2034)."
    ),
    misconceptions=(
        Misconception("lock_stops_clock", "A lock does not stop the clock: A expired at 3 s."),
        Misconception(
            "no_cursor_code",
            "A get under the cursor has its own reason code for a message that is gone.",
        ),
    ),
)


def _discard_then_backout() -> tuple[mq.QueueManager, Letters]:
    """A syncpoint get among expired messages that ask for reports, then a backout."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    qm.define_qlocal("REPLY.Q")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    for letter, expiry in [("A", 10), ("B", CMQC.MQEI_UNLIMITED), ("C", 10)]:
        md = mq.MD(Expiry=expiry, Report=CMQC.MQRO_EXPIRATION, ReplyToQ="REPLY.Q")
        letters.put(q, letter, md)
    qm.sim.advance(seconds=2)
    q.get(None, mq.MD(), mq.GMO(Options=CMQC.MQGMO_SYNCPOINT))
    qm.backout()
    return qm, letters


def _on_queue_after_backout() -> Outcome:
    """The messages left on APP.IN after the backout."""
    qm, letters = _discard_then_backout()
    # the answer: the letters on APP.IN
    return Outcome(
        frozenset(letters.on_queue(qm, "APP.IN")),
        {
            "restores_all": frozenset("ABC"),
            "live_only": frozenset("B"),
            "reports": qm.curdepth("REPLY.Q"),
        },
        letters.story(qm),
    )


q4 = Exercise(
    "nb05.q4",
    question="After the backout, which messages are on APP.IN?",
    scenario=_on_queue_after_backout,
    form=LetterSet(),
    rules=("UOW-02", "EXP-29"),
    explanation=(
        "Backout restores the messages the unit of work got, and nothing else: discarding an "
        "expired message, and sending its report, are never part of a unit of work."
    ),
    hint="Which message did the get return, which did it discard on the way, which did it not "
    "reach?",
    confirm=(
        "B is back and C, behind B, was never touched; A stays discarded and its report "
        "({reports}) stays on REPLY.Q."
    ),
    helpers=(_discard_then_backout,),
    misconceptions=(
        Misconception("restores_all", "A was discarded, not got: backout cannot bring it back."),
        Misconception(
            "live_only", "C was behind B: the get never reached it, so it is still there."
        ),
    ),
)


def _reports_after_backout() -> Outcome:
    """The reports on REPLY.Q after the backout."""
    qm, letters = _discard_then_backout()
    # the answer: CURDEPTH of REPLY.Q
    expired = len(letters.seen(qm, "discard")) + len(letters.on_queue(qm, "APP.IN", expired=True))
    return Outcome(
        qm.curdepth("REPLY.Q"), {"backed_out": 0, "every_expired": expired}, letters.story(qm)
    )


q5 = Exercise(
    "nb05.q5",
    question="In the scenario of q4, how many reports are on REPLY.Q after the backout?",
    scenario=_reports_after_backout,
    form=Number(example=0),
    rules=("EXP-29", "RPT-02"),
    explanation=(
        "The report for a discarded message is put at once, outside the application's unit of "
        "work, so a backout cannot take it back; and only a discard makes a report."
    ),
    hint="Was the report part of the unit of work that was backed out? Which messages were "
    "actually discarded?",
    confirm=(
        "A's report was put when A was discarded and survives the backout; C was never "
        "discarded, so it has no report yet."
    ),
    misconceptions=(
        Misconception("backed_out", "The report was never in the unit of work."),
        Misconception("every_expired", "Reports come at discard time, and C was not discarded."),
    ),
    helpers=(_discard_then_backout,),
)
