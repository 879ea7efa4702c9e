"""Notebook 01 (expiry basics): tenths of a second, MQEI_UNLIMITED, 2013, remaining expiry, CAPEXPRY."""

from __future__ import annotations

import mqlearn as mq
from mqlearn import CMQC
from mqlearn.checks.answers import LetterSet, Number
from mqlearn.checks.exercise import Exercise, Misconception, Outcome
from mqlearn.checks.lab import Letters


def _remaining_expiry() -> Outcome:
    """A five-second message is got 2.04 s after it was put."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    put_md = Letters().put(q, "A", mq.MD(Expiry=50))
    qm.sim.advance(ms=2040)
    got_md = mq.MD()
    q.get(None, got_md)
    # the answer: got_md.Expiry
    exact = (put_md.Expiry * 100 - qm.sim.now) / 100  # tenths left, unrounded
    return Outcome(
        got_md.Expiry,
        {"as_put": put_md.Expiry, "exact": exact, "rounded_down": int(exact), "got": got_md.Expiry},
    )


q1 = Exercise(
    "nb01.q1",
    question=(
        "In mqlearn, which subtracts the exact time a message waited, what Expiry does the MD "
        "returned by the get hold?"
    ),
    scenario=_remaining_expiry,
    form=Number(example=50),
    rules=("EXP-01", "EXP-11", "EXP-12"),
    explanation=(
        "Expiry counts tenths of a second, and a get writes back what is left of the lifetime, "
        "not the value the putter chose. IBM allows the queue manager to be approximate and to "
        "ignore small intervals; mqlearn subtracts the exact time and rounds the tenths left "
        "up, so a live message never reports 0."
    ),
    hint="Expiry=50 is 5 s. How many tenths are left after 2.04 s, and which way is it rounded?",
    confirm="{exact} tenths were left, rounded up to {got}.",
    misconceptions=(
        Misconception("as_put", "The put's value is not what a get returns."),
        Misconception(
            "rounded_down",
            "Close, and a real queue manager might report that, but mqlearn rounds the "
            "remaining tenths up.",
        ),
    ),
)


def _which_puts_fail() -> Outcome:
    """Five puts with different Expiry values; which ones fail with MQRC_EXPIRY_ERROR?"""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    failed = set()
    tries = [("A", 600), ("B", 0), ("C", CMQC.MQEI_UNLIMITED), ("D", -5), ("E", 1)]
    for letter, expiry in tries:
        try:
            letters.put(q, letter, mq.MD(Expiry=expiry))
        except mq.MQMIError as error:
            if error.reason == CMQC.MQRC_EXPIRY_ERROR:
                failed.add(letter)
    # the answer: the letters in `failed`
    not_positive = {letter for letter, expiry in tries if expiry <= 0}
    return Outcome(
        failed,
        {"not_positive": not_positive, "depth": qm.curdepth("APP.IN")},
        letters.story(qm),
    )


q2 = Exercise(
    "nb01.q2",
    question="Which of the five puts fail with MQRC_EXPIRY_ERROR (2013)?",
    scenario=_which_puts_fail,
    form=LetterSet(),
    rules=("EXP-02", "EXP-03"),
    explanation=(
        "A lifetime must be a positive number of tenths, or MQEI_UNLIMITED (-1), which means the "
        "message never expires; any other value makes MQPUT fail and nothing is put."
    ),
    hint="Look up the value of CMQC.MQEI_UNLIMITED. Is it one of the five Expiry values?",
    confirm="The other {depth} messages were put.",
    misconceptions=(
        Misconception(
            "not_positive", "-1 is not an error: it is MQEI_UNLIMITED, the MD's initial Expiry."
        ),
    ),
)


def _capped_expiry() -> Outcome:
    """An unlimited message is put through an alias; both the alias and its target cap Expiry."""
    qm = mq.QueueManager("QM1")
    local_cap = 600  # one minute
    qm.define_qlocal("APP.IN", capexpry=local_cap)
    qm.define_qalias("APP.ALIAS", target="APP.IN", capexpry=100)  # ten seconds
    Letters().put(mq.Queue(qm, "APP.ALIAS"), "A", mq.MD(Expiry=CMQC.MQEI_UNLIMITED))
    qm.sim.advance(seconds=4)
    got_md = mq.MD()
    mq.Queue(qm, "APP.IN").get(None, got_md)
    # the answer: got_md.Expiry
    return Outcome(
        got_md.Expiry,
        {
            "unlimited": CMQC.MQEI_UNLIMITED,
            "local_cap_only": local_cap - qm.sim.now // 100,
            "got": got_md.Expiry,
        },
    )


q3 = Exercise(
    "nb01.q3",
    question="The message is got from APP.IN four seconds later. What Expiry does the get return?",
    scenario=_capped_expiry,
    form=Number(example=600),
    rules=("EXP-06", "EXP-11"),
    explanation=(
        "CAPEXPRY lowers a longer lifetime (MQEI_UNLIMITED included) when the message is put, "
        "and when several definitions on the way have a cap the lowest one wins; the get then "
        "returns what is left of the capped lifetime."
    ),
    hint="Which cap is lower, the alias's or the local queue's? Then subtract the 4 s wait.",
    confirm="The alias's cap of 100 tenths won; 4 s later {got} tenths are left.",
    misconceptions=(
        Misconception("unlimited", "The cap applies to MQEI_UNLIMITED too."),
        Misconception("local_cap_only", "The alias is on the path as well, and its cap is lower."),
    ),
)


def _mdexp_offset() -> Outcome:
    """Pack an MQMD whose Expiry is 0x12345678 and find its four bytes."""
    md = mq.MD(Expiry=0x12345678)
    raw = md.pack(CMQC.MQENC_NORMAL)  # big-endian integers, as on IBM i
    # the answer: where the four bytes 12 34 56 78 start
    offset = raw.index((0x12345678).to_bytes(4, "big"))
    facts = {"offset": offset, "last": offset + 3, "one_based": offset + 1, "length": len(raw)}
    return Outcome(offset, facts)


q4 = Exercise(
    "nb01.q4",
    question=(
        "IBM i documents the Expiry field as MDEXP, bytes 17-20 of the MQMD. Counting from 0, as "
        "Python does, at which offset of the packed MD does Expiry start?"
    ),
    scenario=_mdexp_offset,
    form=Number(example=20),
    rules=("MD-01", "MD-03"),
    explanation=(
        "MDEXP is the IBM i name of Expiry: a 4-byte signed integer after StrucId, Version, "
        "Report and MsgType, each 4 bytes long. IBM's byte positions count from 1."
    ),
    hint="Four fields of four bytes come before it.",
    confirm="Counted from 0, MDEXP fills offsets {offset}-{last} of the {length}-byte MD.",
    misconceptions=(
        Misconception("one_based", "That is IBM's 1-based position; Python counts from 0."),
    ),
)
