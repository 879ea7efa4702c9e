"""Self-checking prediction exercises for the course notebooks (``nb00`` ... ``nb08``).

In a notebook::

    from mqlearn.checks import nb03
    nb03.q1.show()          # the question and the scenario's code
    answer = {"A"}          # your prediction
    nb03.q1.check(answer)   # runs the scenario on the engine and compares
    nb03.q1.hint()
    nb03.q1.solution()

``Letters`` (messages named by a letter) and ``get_reason`` (a get's reason code) are the two
tools the scenarios use; notebooks use them too, so their logs read like the exercises'.
"""

from mqlearn.checks import nb00, nb01, nb02, nb03, nb04, nb05, nb06, nb07, nb08
from mqlearn.checks.exercise import Exercise, Feedback, Misconception, Outcome
from mqlearn.checks.lab import Letters, get_reason

__all__ = [
    "Exercise",
    "Feedback",
    "Letters",
    "Misconception",
    "Outcome",
    "get_reason",
    "nb00",
    "nb01",
    "nb02",
    "nb03",
    "nb04",
    "nb05",
    "nb06",
    "nb07",
    "nb08",
]
