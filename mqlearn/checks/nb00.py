"""Notebook 00 (start here): a warm-up exercise to practise ``check``, ``hint`` and ``solution``."""

from __future__ import annotations

import mqlearn as mq
from mqlearn import CMQC
from mqlearn.checks.answers import Number
from mqlearn.checks.exercise import Exercise, Misconception, Outcome
from mqlearn.checks.lab import Letters


def _depth_after_three_puts() -> Outcome:
    """Three puts, one of them with a short lifetime, then ten seconds pass."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    letters.put(q, "A", mq.MD(Expiry=CMQC.MQEI_UNLIMITED))
    letters.put(q, "B", mq.MD(Expiry=600))  # one minute
    letters.put(q, "C", mq.MD(Expiry=50))  # five seconds
    qm.sim.advance(seconds=10)
    # the answer: CURDEPTH now
    depth = qm.curdepth("APP.IN")
    live = int((~qm.queue_frame("APP.IN")["expired"]).sum())
    return Outcome(depth, {"depth": depth, "live": live}, letters.story(qm))


warmup = Exercise(
    "nb00.warmup",
    question="After these three puts and ten seconds of virtual time, what is CURDEPTH?",
    scenario=_depth_after_three_puts,
    form=Number(example=2),
    rules=("EXP-20", "EXP-25"),
    explanation=(
        "A message whose lifetime has run out is only eligible for discard: it stays on the "
        "queue, and counts in CURDEPTH, until a get, a browse or an expiry scan meets it."
    ),
    hint="Has anything happened in those ten seconds that could remove message C?",
    confirm="C expired after 5 s but nothing has met it yet, so all {depth} messages still count.",
    misconceptions=(
        Misconception(
            "live",
            "That is the number of live messages; expiry alone removes nothing.",
        ),
    ),
)
