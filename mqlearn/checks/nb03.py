"""Notebook 03 (FIFO vs priority): which expired messages one get discards, with and without match
options."""

from __future__ import annotations

import mqlearn as mq
from mqlearn import CMQC
from mqlearn.checks.answers import LetterSet, Numbers
from mqlearn.checks.exercise import Exercise, Misconception, Outcome
from mqlearn.checks.lab import Letters


def _one_get(msgdlvsq: str) -> tuple[mq.QueueManager, Letters]:
    """The four puts, two seconds, one destructive get with MQMO_NONE on a queue of this kind."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN", msgdlvsq=msgdlvsq)
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    unlimited = CMQC.MQEI_UNLIMITED
    for letter, expiry, priority in [("A", 10, 5), ("B", unlimited, 0), ("C", 10, 9), ("D", 10, 0)]:
        letters.put(q, letter, mq.MD(Expiry=expiry, Priority=priority))
    qm.sim.advance(seconds=2)
    q.get(None, mq.MD(), mq.GMO(Version=CMQC.MQGMO_VERSION_2, MatchOptions=CMQC.MQMO_NONE))
    return qm, letters


def _all_expired(qm: mq.QueueManager, letters: Letters) -> frozenset[str]:
    """Every expired message: the ones discarded and the ones still on the queue."""
    return letters.seen(qm, "discard") | frozenset(letters.on_queue(qm, "APP.IN", expired=True))


def _fifo_get() -> Outcome:
    """The four puts on a FIFO queue, then one get."""
    fifo, letters = _one_get("FIFO")
    # the answer: the letters discarded
    priority, other = _one_get("PRIORITY")
    return Outcome(
        letters.seen(fifo, "discard"),
        {
            "all_expired": _all_expired(fifo, letters),
            "priority_order": other.seen(priority, "discard"),
        },
        letters.story(fifo),
    )


q1 = Exercise(
    "nb03.q1",
    question=(
        "Four messages are put to a FIFO queue (MSGDLVSQ(FIFO)), with these Expiry and Priority "
        "values: A (10, 5), B (unlimited, 0), C (10, 9), D (10, 0). Two seconds later one "
        "destructive get runs with MatchOptions MQMO_NONE. Which messages does it discard?"
    ),
    scenario=_fifo_get,
    form=LetterSet(),
    rules=("EXP-22", "MD-02"),
    explanation=(
        "A FIFO queue delivers in arrival order, whatever each message's Priority says. A get "
        "walks that order and discards the expired messages it meets until it reaches the first "
        "live one, which it returns; expired messages behind it stay where they are."
    ),
    hint="Write the four letters in arrival order, then stop at the first live message.",
    confirm="Only A stood before B, the first live message; C and D stay behind it.",
    helpers=(_one_get,),
    misconceptions=(
        Misconception("all_expired", "A get is not a scan: it stops at the first live message."),
        Misconception(
            "priority_order", "That is what a priority queue would do; FIFO ignores Priority."
        ),
    ),
)


def _priority_get() -> Outcome:
    """The four puts on a priority queue, then one get."""
    priority, letters = _one_get("PRIORITY")
    # the answer: the letters discarded
    fifo, other = _one_get("FIFO")
    return Outcome(
        letters.seen(priority, "discard"),
        {"all_expired": _all_expired(priority, letters), "fifo_order": other.seen(fifo, "discard")},
        letters.story(priority),
    )


q2 = Exercise(
    "nb03.q2",
    question=(
        "The same four puts go to a priority queue (MSGDLVSQ(PRIORITY)) and the same get runs "
        "two seconds later. Which messages does it discard now?"
    ),
    scenario=_priority_get,
    form=LetterSet(example="{'B', 'D'}"),  # the default example is this exercise's answer
    rules=("EXP-23",),
    explanation=(
        "A priority queue delivers the highest priority first, in arrival order within one "
        "priority. The get discards expired messages of higher priority than the message it "
        "returns, and expired ones of the same priority that arrived before it; the rest stay."
    ),
    hint="Order the letters by Priority (9 first), then by arrival. Where is the first live one?",
    confirm="C (9) and A (5) came before B (0); D has B's priority but arrived after it, so stays.",
    helpers=(_one_get,),
    misconceptions=(
        Misconception("all_expired", "D is behind B: same priority, later arrival."),
        Misconception("fifo_order", "That is the FIFO answer; here Priority decides the order."),
    ),
)


def _match_correl_id() -> Outcome:
    """A get that matches one CorrelId, among expired messages with two different CorrelIds."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    order_1, order_2 = b"ORDER-1".ljust(24, b"\0"), b"ORDER-2".ljust(24, b"\0")
    letters.put(q, "A", mq.MD(Expiry=10, CorrelId=order_1))
    letters.put(q, "B", mq.MD(Expiry=10, CorrelId=order_2))
    letters.put(q, "C", mq.MD(Expiry=CMQC.MQEI_UNLIMITED, CorrelId=order_1))
    letters.put(q, "D", mq.MD(Expiry=10, CorrelId=order_1))
    qm.sim.advance(seconds=2)
    md = mq.MD(CorrelId=order_1)
    q.get(None, md, mq.GMO(Version=CMQC.MQGMO_VERSION_2, MatchOptions=CMQC.MQMO_MATCH_CORREL_ID))
    # the answer: the letters discarded
    return Outcome(
        letters.seen(qm, "discard"),
        {"without_match": frozenset("AB"), "all_expired": frozenset("ABD")},
        letters.story(qm),
    )


q3 = Exercise(
    "nb03.q3",
    question="The get asks for CorrelId ORDER-1 only. Which messages does it discard?",
    scenario=_match_correl_id,
    form=LetterSet(),
    rules=("EXP-27",),
    explanation=(
        "With match options only the messages that match are candidates, so only expired "
        "messages that this get could have returned are discarded."
    ),
    hint="Cross out the message whose CorrelId is ORDER-2 first, then apply the FIFO-walk.",
    confirm="B does not match, so it is no candidate and stays; D is behind C, the match returned.",
    misconceptions=(
        Misconception("without_match", "B does not match ORDER-1, so the get never considers it."),
        Misconception("all_expired", "D stands behind C, the message the get returns."),
    ),
)


def _depths_after_get() -> Outcome:
    """CURDEPTH of both queues after the single get of q1 and q2."""
    fifo, _ = _one_get("FIFO")
    priority, _ = _one_get("PRIORITY")
    # the answer: (CURDEPTH of the FIFO queue, CURDEPTH of the priority queue)
    puts = sum(e.kind == "put" for e in fifo.events)
    return Outcome(
        (fifo.curdepth("APP.IN"), priority.curdepth("APP.IN")),
        {"got_only": (puts - 1, puts - 1), "live_only": (0, 0)},
    )


q4 = Exercise(
    "nb03.q4",
    question=(
        "After that one get, what is CURDEPTH of each queue? Answer (FIFO depth, priority depth)."
    ),
    scenario=_depths_after_get,
    form=Numbers("FIFO depth", "priority depth"),
    rules=("EXP-22", "EXP-23", "EXP-25"),
    explanation=(
        "Each queue loses the message returned and the expired messages that get discarded; "
        "expired messages it did not meet still count in CURDEPTH."
    ),
    hint="Use your answers to q1 and q2: four puts, minus one got, minus the discards.",
    confirm="The FIFO queue still holds C and D (both expired); the priority queue holds D.",
    helpers=(_one_get,),
    misconceptions=(
        Misconception("got_only", "The discarded messages are gone too."),
        Misconception("live_only", "Expired messages behind the returned one still count."),
    ),
)
