"""Every exercise's answer (seed 0, the notebooks' own scenario) against the answer worked out by
hand from the rules, not by the engine: a wrong scenario or a wrong engine cannot grade itself right.

A new exercise needs its line here (CONTRIBUTING.md): the test fails for an exercise without one.
"""

from __future__ import annotations

import pytest

from mqlearn import CMQC as C
from mqlearn import checks
from mqlearn.checks.exercise import Exercise

# exercise: (answer, why, in the rules' words)
BY_HAND: dict[str, tuple[object, str]] = {
    "nb00.warmup": (3, "C has expired after 10 s but still counts in CURDEPTH (EXP-25)"),
    "nb01.q1": (30, "5 s - 2.04 s = 29.6 tenths left, rounded up by mqlearn (EXP-11, EXP-12)"),
    "nb01.q2": ({"B", "D"}, "Expiry 0 and negatives other than -1 are 2013 (EXP-03)"),
    "nb01.q3": (60, "the lowest cap on the path, the alias's 100, less 4 s (EXP-06)"),
    "nb01.q4": (16, "bytes 17-20 counted from 1 start at offset 16 (MD-01)"),
    "nb02.q1": (2, "the browse discards A on its way to B; C stays behind B (EXP-21, EXP-25)"),
    "nb02.q2": (
        (C.MQRC_NO_MSG_AVAILABLE, 5),
        "both expired: discarded, nothing live, the whole 5000 ms waited (EXP-26)",
    ),
    "nb02.q3": (1, "A and B expired but count, so C makes depth 3 = TRIGDPTH (TRG-02)"),
    "nb02.q4": (1, "the task at 300 s removes A (10 s) and C (100 s); B has 10 min (EXP-28)"),
    "nb02.q5": (3, "A and B on APP.IN, C on APP.OUT match APP.*; D does not (EXP-28)"),
    "nb03.q1": ({"A"}, "arrival order A, B, …: A expired, B live and returned (EXP-22)"),
    "nb03.q2": ({"A", "C"}, "priority order C(9), A(5), B(0): both expired before B (EXP-23)"),
    "nb03.q3": ({"A"}, "candidates A, C, D: A expired, C live and returned (EXP-27)"),
    "nb03.q4": ((2, 1), "FIFO keeps C and D, priority keeps D (EXP-22, EXP-23, EXP-25)"),
    "nb04.q1": (150, "a report with PASS_DISCARD_AND_EXPIRY lives 600, less 45 s (RPT-07)"),
    "nb04.q2": (60, "WITH_DATA copies up to 100 bytes; the message had 60 (RPT-04)"),
    "nb04.q3": ("DLQ", "the reply queue does not exist, so the dead-letter queue (RPT-06)"),
    "nb04.q4": (C.MQRC_UNKNOWN_OBJECT_NAME, "GONE.Q is not defined: 2085 in the MQDLH (RPT-06)"),
    "nb04.q5": (
        (3, 0),
        "no get and no expiry task: all three stay, nothing is discarded, no report (RPT-02)",
    ),
    "nb05.q1": (
        C.MQRC_NO_MSG_AVAILABLE,
        "A's 2 s began at the put and ended before the commit at 3 s (EXP-05)",
    ),
    "nb05.q2": (
        C.MQRC_NO_MSG_AVAILABLE,
        "A is back with its deadline at 5 s, gone by 6 s (UOW-01)",
    ),
    "nb05.q3": (
        (C.MQRC_NO_MSG_AVAILABLE, C.MQRC_NO_MSG_UNDER_CURSOR),
        "A locked for the browser: the other finds nothing; A expired under the cursor (LCK-01)",
    ),
    "nb05.q4": ({"B", "C"}, "A's discard stands; B comes back; C was never reached (UOW-02)"),
    "nb05.q5": (1, "only A was discarded, and its report is not backed out (EXP-29, UOW-02)"),
    "nb06.q1": ((40, 0), "100 - 60 outer; 50 - 60 embedded, set to 0 (XQH-03, XQH-05)"),
    "nb06.q2": ((0, 1), "A expired on the stopped channel's queue; its report to REPLY.Q (XQH-06)"),
    "nb06.q3": (70, "10 s less 3 s, the link's time included in mqlearn (EXP-10)"),
    "nb06.q4": (200, "30 s less the 10 s since the put; it keeps counting on the DLQ (DLQ-01)"),
    "nb07.q1": (
        (25, C.MQEI_UNLIMITED, 600, C.MQEI_UNLIMITED),
        "ms / 100; 0 and a time too long for an MQLONG of tenths are unlimited (EIP-02)",
    ),
    "nb07.q2": (50, "arrived in time; 10 s to be received less 5 s (EIP-03)"),
    "nb07.q3": ({"A"}, "FIFO: A expired before B, moved to the DLQ; C not reached (EIP-04)"),
    "nb07.q4": (1, "only desk C's copy is found expired; B's is never looked at (EIP-05)"),
    "nb07.q5": ("timeout", "nobody gets the request, no task runs in 10 s: no report (EIP-06)"),
    "nb08.q1": (550, "700 left at the unload, a new lifetime at the load, less 15 s (EXP-10)"),
    "nb08.q2": (200, "30 s less the 10 s since the put, on the DLQ as well (DLQ-01)"),
    "nb08.q3": (
        3,
        "3 + 3 > MAXDEPTH 5 with the expired ones counted: the load backs out (EXP-25)",
    ),
    "nb08.q4": (
        (3, 0),
        "caps 600 and -1 to 300: all three expired at 35 s, counted, then"
        " removed by REFRESH (EXP-06, EXP-28)",
    ),
}


@pytest.mark.parametrize("exercise", checks.exercises(), ids=lambda e: e.name)
def test_the_engine_gives_the_answer_worked_out_by_hand(exercise: Exercise) -> None:
    assert exercise.name in BY_HAND, f"work {exercise.name}'s answer out by hand and add it here"
    answer, why = BY_HAND[exercise.name]
    engine = exercise.form.read(exercise.expected())
    assert engine == exercise.form.read(answer), f"{exercise.name}: by hand {answer!r} ({why})"


def test_no_answer_is_kept_for_an_exercise_that_is_gone() -> None:
    assert set(BY_HAND) == {e.name for e in checks.exercises()}
