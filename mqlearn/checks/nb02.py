"""Notebook 02 (lazy expiry): eligible vs discarded, CURDEPTH, depth triggers, background scans."""

from __future__ import annotations

import mqlearn as mq
from mqlearn import CMQC
from mqlearn.checks.answers import Number, Reason
from mqlearn.checks.exercise import Exercise, Misconception, Outcome
from mqlearn.checks.lab import Letters, get_reason


def _depth_after_browse() -> Outcome:
    """Two short-lived messages around a long-lived one, then one browse."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    letters.put(q, "A", mq.MD(Expiry=20))  # 2 s
    letters.put(q, "B", mq.MD(Expiry=100))  # 10 s
    letters.put(q, "C", mq.MD(Expiry=20))  # 2 s
    qm.sim.advance(seconds=5)
    depth_before = qm.curdepth("APP.IN")
    q.get(None, mq.MD(), mq.GMO(Options=CMQC.MQGMO_BROWSE_FIRST))
    # the answer: CURDEPTH now
    live = int((~qm.queue_frame("APP.IN")["expired"]).sum())
    return Outcome(qm.curdepth("APP.IN"), {"before": depth_before, "live": live}, letters.story(qm))


q1 = Exercise(
    "nb02.q1",
    question="After the browse, what is CURDEPTH of APP.IN?",
    scenario=_depth_after_browse,
    form=Number(example=3),
    rules=("EXP-21", "EXP-25"),
    explanation=(
        "An expired message leaves the queue only when a browse or a get would have returned it "
        "had it still been alive; until then it counts in CURDEPTH like any other message."
    ),
    hint="Which message does BROWSE_FIRST return, and which expired messages stand before it?",
    confirm="The browse discarded A on its way to B; C, behind B, still counts.",
    misconceptions=(
        Misconception("before", "A browse discards too, not only a destructive get."),
        Misconception("live", "Expired messages that no call has met still count."),
    ),
)


def _get_with_wait() -> Outcome:
    """Both messages have expired; the consumer waits up to five seconds for one."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    letters.put(q, "A", mq.MD(Expiry=10))
    letters.put(q, "B", mq.MD(Expiry=10))
    qm.sim.advance(seconds=2)
    reason = get_reason(q, gmo=mq.GMO(Options=CMQC.MQGMO_WAIT, WaitInterval=5000))
    # the answer: reason
    return Outcome(
        reason,
        {"success": CMQC.MQRC_NONE, "expiry_error": CMQC.MQRC_EXPIRY_ERROR},
        letters.story(qm),
    )


q2 = Exercise(
    "nb02.q2",
    question="Which reason code does the get end with (0 if it returns a message)?",
    scenario=_get_with_wait,
    form=Reason(),
    rules=("EXP-24", "EXP-26"),
    explanation=(
        "An expired message is never handed to an application, and a waiting get is not woken "
        "by one: a consumer that finds only expired messages is simply told there is nothing."
    ),
    hint="The get discards both messages. What is left for it to return?",
    confirm="The consumer is told nothing about expiry: there was just no message.",
    misconceptions=(
        Misconception("success", "Expired messages are never returned, not even to a get."),
        Misconception(
            "expiry_error",
            "2013 is about putting an invalid Expiry; the consumer learns nothing about expiry.",
        ),
    ),
)


def _depth_trigger() -> Outcome:
    """A queue triggered at depth 3 holds two expired messages when a third arrives."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("INIT.Q")
    qm.define_qlocal("APP.IN", trigger=True, trigtype="DEPTH", trigdpth=3, initq="INIT.Q")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    letters.put(q, "A", mq.MD(Expiry=10))
    letters.put(q, "B", mq.MD(Expiry=10))
    qm.sim.advance(seconds=2)
    letters.put(q, "C", mq.MD(Expiry=CMQC.MQEI_UNLIMITED))
    # the answer: CURDEPTH of INIT.Q
    live = int((~qm.queue_frame("APP.IN")["expired"]).sum())
    return Outcome(
        qm.curdepth("INIT.Q"), {"live_only": int(live >= 3), "live": live}, letters.story(qm)
    )


q3 = Exercise(
    "nb02.q3",
    question="How many trigger messages are on the initiation queue INIT.Q after C is put?",
    scenario=_depth_trigger,
    form=Number(example=0),
    rules=("TRG-02", "EXP-25"),
    explanation=(
        "Depth triggering looks at the queue depth, and expired messages that nothing has "
        "discarded yet are part of that depth."
    ),
    hint="TRIGDPTH is 3. What is CURDEPTH of APP.IN right after C arrives?",
    confirm="A and B have expired but still count: depth 3 fired the trigger with one live message.",
    misconceptions=(
        Misconception("live_only", "The trigger counts expired, undiscarded messages too."),
    ),
)


def _expiry_task() -> Outcome:
    """Distributed profile: the queue manager's expiry task runs every 300 s by default."""
    qm = mq.QueueManager("QM1", profile="distributed")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    letters.put(q, "A", mq.MD(Expiry=100))  # 10 s
    letters.put(q, "B", mq.MD(Expiry=6000))  # 10 min
    letters.put(q, "C", mq.MD(Expiry=1000))  # 100 s
    qm.sim.advance(seconds=301)
    # the answer: CURDEPTH now
    return Outcome(
        qm.curdepth("APP.IN"),
        {"no_scan": len(qm.queue_frame("APP.IN")) + len(letters.seen(qm, "discard"))},
        letters.story(qm),
    )


q4 = Exercise(
    "nb02.q4",
    question=(
        "In mqlearn, whose expiry task first runs 300 s after the queue manager starts, no "
        "application touches APP.IN for 301 seconds. What is CURDEPTH then?"
    ),
    scenario=_expiry_task,
    form=Number(example=3),
    rules=("EXP-28",),
    explanation=(
        "On distributed and IBM i queue managers an internal expiry task scans the queues "
        "every 300 s unless tuned otherwise, and removes every expired message it finds without "
        "any get. IBM allows the first scan to come at any point after the queue manager "
        "starts (it gives the interval, not the moment); mqlearn runs it exactly 300 s after "
        "the queue manager is created."
    ),
    hint="Which messages have expired by the time the 300 s scan runs?",
    confirm="mqlearn's scan at 300 s removed A and C; B lives for ten minutes.",
    misconceptions=(
        Misconception(
            "no_scan", "Without a get, only a background scan can help, and in mqlearn one ran."
        ),
    ),
)


def _refresh_expiry() -> Outcome:
    """z/OS profile: an operator asks for an expiry scan of the queues named APP.*."""
    qm = mq.QueueManager("QM1", profile="zos")
    for name in ("APP.IN", "APP.OUT", "OTHER.Q"):
        qm.define_qlocal(name)
    letters = Letters()
    no_syncpoint = mq.PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)  # z/OS puts default to syncpoint
    for name, letter in [("APP.IN", "A"), ("APP.IN", "B"), ("APP.OUT", "C"), ("OTHER.Q", "D")]:
        letters.put(mq.Queue(qm, name), letter, mq.MD(Expiry=10), no_syncpoint)
    qm.sim.advance(seconds=60)
    discarded = qm.refresh_expiry("APP.*")  # REFRESH QMGR TYPE(EXPIRY) NAME(APP.*)
    # the answer: discarded
    return Outcome(discarded, {"all_queues": discarded + qm.curdepth("OTHER.Q")}, letters.story(qm))


q5 = Exercise(
    "nb02.q5",
    question="How many messages does REFRESH QMGR TYPE(EXPIRY) NAME(APP.*) discard?",
    scenario=_refresh_expiry,
    form=Number(example=4),
    rules=("EXP-28",),
    explanation=(
        "On z/OS, EXPRYINT is off by default, so nothing scans on its own; REFRESH QMGR "
        "TYPE(EXPIRY) scans on request, but only the queues whose names match NAME."
    ),
    hint="All four messages have expired. Which queues does the generic name APP.* match?",
    confirm="A, B and C were on APP.* queues; D on OTHER.Q waits for a get or a later scan.",
    misconceptions=(Misconception("all_queues", "OTHER.Q does not match APP.*."),),
)
