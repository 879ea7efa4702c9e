"""Notebook NN (a title): the exercises of notebooks/NN_a_title.ipynb.

The template of an exercise module: copy it to ``mqlearn/checks/nbNN.py`` (NN = the notebook's
number) and replace the example. Nothing registers it: ``mqlearn.checks`` finds ``nbNN`` by its
name, and every ``Exercise`` defined here is one of the notebook's exercises (CONTRIBUTING.md).
The expected answer is never written down: the scenario computes it on the engine.

Each exercise has variants: its parameters in one frozen dataclass (the defaults are the
notebook's scenario, ``draw`` picks another within the bounds that keep the rule), read by the
scenario as ``p.name`` and by the texts as ``{p.name}``; ``show()`` prints the code with the
values written in.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import Self

import mqlearn as mq
from mqlearn.checks.answers import LetterSet
from mqlearn.checks.exercise import Exercise, Misconception, Outcome
from mqlearn.checks.lab import Letters
from mqlearn.checks.variants import Variant
from mqlearn.checks.wording import capitalized, duration_words


@dataclass(frozen=True)
class ShortThenLong(Variant):
    """q1: A's lifetime (over at the get), B's (not over) in tenths, the wait in seconds."""

    a: int = 10
    b: int = 600
    wait_s: int = 2

    @classmethod
    def draw(cls, rng: Random) -> Self:
        wait_s = rng.randrange(2, 60)
        a = rng.randrange(1, 10 * wait_s - 9)
        return cls(a, rng.randrange(10 * wait_s + 10, 6_000), wait_s)

    @property
    def later(self) -> str:
        return capitalized(duration_words(10 * self.wait_s))


def _one_get_on_a_fifo_queue(p: ShortThenLong = ShortThenLong()) -> Outcome:
    """A (short-lived) then B (long-lived) on a FIFO queue; one get a little later."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN", msgdlvsq="FIFO")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    letters.put(q, "A", mq.MD(Expiry=p.a))
    letters.put(q, "B", mq.MD(Expiry=p.b))
    qm.sim.advance(seconds=p.wait_s)
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
        "A (Expiry {p.a}) and then B (Expiry {p.b}) are put to a FIFO queue. {p.later} later one "
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
    variants=ShortThenLong,
    teaches=lambda outcome: bool(outcome.answer),  # the get discarded something (EXP-22)
)
