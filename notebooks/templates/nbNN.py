"""Notebook NN (a title): the exercises of notebooks/NN_a_title.ipynb.

The template of an exercise module: copy it to ``mqlearn/checks/nbNN.py`` (NN = the notebook's
number) and replace the example. Nothing registers it: ``mqlearn.checks`` finds ``nbNN`` by its
name, and every ``Exercise`` defined here is one of the notebook's exercises (CONTRIBUTING.md).
The expected answer is never written down: the scenario computes it on the engine.
"""

from __future__ import annotations

import mqlearn as mq
from mqlearn.checks.answers import LetterSet
from mqlearn.checks.exercise import Exercise, Misconception, Outcome
from mqlearn.checks.lab import Letters


def _one_get_on_a_fifo_queue() -> Outcome:
    """A (1 s) then B (1 min) on a FIFO queue; one get two seconds later."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN", msgdlvsq="FIFO")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    letters.put(q, "A", mq.MD(Expiry=10))
    letters.put(q, "B", mq.MD(Expiry=600))
    qm.sim.advance(seconds=2)
    q.get(None, mq.MD())
    # the answer: the letters the get discarded (from here on, show() hides the lines)
    return Outcome(
        letters.seen(qm, "discard"),
        {"returned": letters.seen(qm, "get")},  # a tempting wrong answer, named below
        letters.story(qm),
    )


q1 = Exercise(
    "nbNN.q1",
    question=(
        "A (Expiry 10) and then B (Expiry 600) are put to a FIFO queue. Two seconds later one "
        "destructive get runs. Which messages does it discard?"
    ),
    scenario=_one_get_on_a_fifo_queue,
    form=LetterSet(),
    rules=("EXP-22",),
    explanation=(
        "A get walks the queue in delivery order and discards the expired messages it meets on "
        "its way to the first live one, which it returns."
    ),
    hint="Which message has expired after two seconds, and which one does the get return?",
    confirm="A had expired and stood before B, so the get discarded A and returned B.",
    misconceptions=(
        Misconception("returned", "That is the message the get returned, not one it discarded."),
    ),
)
