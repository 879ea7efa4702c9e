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
    "nb02.q3": (
        (1, 3),
        "A and B expired but count, so C makes depth 3 = TRIGDPTH, with a process and a monitor "
        "(TRG-02, TRG-04); nothing discards them, so APP.IN's depth is 3",
    ),
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
        (C.MQRC_NO_MSG_AVAILABLE, 0),
        "A's 2 s began at the put and ended before the commit at 3 s: discarded (EXP-05)",
    ),
    "nb05.q2": (
        (C.MQRC_NO_MSG_AVAILABLE, 0),
        "A is back with its deadline at 5 s, gone by 6 s: discarded (UOW-01)",
    ),
    "nb05.q3": (
        (C.MQRC_NO_MSG_AVAILABLE, C.MQRC_NO_MSG_UNDER_CURSOR, 1),
        "A locked for the browser: the other finds nothing, A still counts; A expired under"
        " the cursor (LCK-01, EXP-25)",
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
    "nb07.q5": ((10, 0), "nobody gets the request, no task runs: a whole 10 s, no report (EIP-06)"),
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


# Variants whose answer is not seed 0's (issue 21: variants worth their name), worked out by hand
# from the rules for the parameters written here, not drawn: (exercise, parameters, answer, why).
N = checks  # short, for the table below
BY_HAND_VARIANTS: list[tuple[str, object, object, str]] = [
    (
        "nb02.q1",
        N.nb02.AroundALiveOne([("A", 20), ("B", 30), ("C", 900), ("D", 10), ("E", 900)], 5),
        3,
        "A and B over at 5 s, discarded on the way to C; C, D and E count (EXP-21, EXP-25)",
    ),
    (
        "nb02.q2",
        N.nb02.BothExpired(10, 10, 2, 45_000),
        (C.MQRC_NO_MSG_AVAILABLE, 45),
        "both discarded; no expired message ends the wait: 45 000 ms (EXP-26)",
    ),
    (
        "nb02.q3",
        N.nb02.DepthTrigger(5, [("A", 10), ("B", 20)], 30, [("C", -1), ("D", 900)]),
        (0, 4),
        "depth 4 < TRIGDPTH 5, expired A and B counted: no trigger; nothing discards (TRG-02)",
    ),
    (
        "nb02.q3",
        N.nb02.DepthTrigger(4, [("A", 10), ("B", 20), ("C", 30)], 30, [("D", 900)]),
        (1, 4),
        "D makes depth 4 = TRIGDPTH with one live message: one trigger message (TRG-02, TRG-04)",
    ),
    (
        "nb02.q4",
        N.nb02.ThreeLifetimes([("A", 100), ("B", 3300), ("C", 200), ("D", 9000)], 400),
        2,
        "the scan at 300 s removes A and C; B (330 s) expired after it and counts; D lives",
    ),
    (
        "nb04.q3",
        N.nb04.DeadLetterQueue("REPLY.Q", "DISABLED", "SYSTEM.DEAD.LETTER.QUEUE", 10, 2),
        "SYSTEM.DEAD.LETTER.QUEUE",
        "REPLY.Q is PUT(DISABLED), so the DEADQ the queue manager names (RPT-06)",
    ),
    (
        "nb04.q3",
        N.nb04.DeadLetterQueue("REPLY.Q", "ENABLED", "", 10, 2),
        "REPLY.Q",
        "the reply-to queue takes the report; no dead-letter queue is needed (RPT-06)",
    ),
    (
        "nb04.q4",
        N.nb04.RefusedReport("REPLY.Q", "QM9", "ENABLED", 5000, 10, 2),
        C.MQRC_UNKNOWN_REMOTE_Q_MGR,
        "no transmission queue to QM9: 2087 in the MQDLH (RPT-06)",
    ),
    (
        "nb04.q4",
        N.nb04.RefusedReport("REPLY.Q", "", "DISABLED", 5000, 10, 2),
        C.MQRC_PUT_INHIBITED,
        "REPLY.Q is PUT(DISABLED): 2051 in the MQDLH (RPT-06)",
    ),
    (
        "nb04.q5",
        N.nb04.NobodyLooks("ABCDE", 10, 60),
        (5, 0),
        "no get, no task: five eligible messages stay, no report (RPT-02, EXP-20)",
    ),
    (
        "nb05.q1",
        N.nb05.LateCommit([("A", 20), ("B", 100), ("C", 20)], 5),
        (C.MQRC_NONE, 1),
        "A's 2 s ended before the commit at 5 s: discarded; B returned; C stays (EXP-05)",
    ),
    (
        "nb05.q2",
        N.nb05.HeldTooLong([("A", 50), ("B", 30), ("C", 600)], 4, 2),
        (C.MQRC_NONE, 0),
        "A back, expired at 5 s; B over at 3 s; both discarded, C returned at 6 s (UOW-01)",
    ),
    (
        "nb05.q3",
        N.nb05.LockedTooLong([("A", 30), ("B", 20), ("C", 600), ("D", 900)], 1, 3),
        (C.MQRC_NONE, C.MQRC_NO_MSG_UNDER_CURSOR, 2),
        "the other get passes A (locked), discards B (2 s), returns C: A and D count; A expired"
        " under the cursor at 3 s: 2034 (LCK-01, EXP-21)",
    ),
    (
        "nb06.q2",
        N.nb06.StoppedTooLong(200, [("A", 100), ("B", 3000), ("C", 50)], 15, 1),
        (1, 2),
        "A and C expire on the stopped channel's queue (two reports); B arrives (XQH-06)",
    ),
    (
        "nb07.q3",
        N.nb07.AroundAnUnlimitedOne([("C", 10), ("A", 10), ("D", -1), ("B", 10)], 2),
        {"A", "C"},
        "FIFO: C and A expired before D, moved to the DLQ; B behind D stays (EIP-04)",
    ),
    (
        "nb07.q4",
        N.nb07.DeskReads(300, [("A", 40), ("B", None), ("C", 10), ("D", 31), ("E", 29)]),
        2,
        "30 s: C (10 s) and E (29 s) get theirs; D (31 s) and A (40 s) discard: 2; B never (EIP-05)",
    ),
    (
        "nb07.q4",
        N.nb07.DeskReads(1000, [("A", None), ("B", 101), ("C", None), ("D", 99)]),
        1,
        "100 s: D reads in time, B's get discards its copy; A and C never read, silent (RPT-02)",
    ),
    (
        "nb07.q5",
        N.nb07.Unserved(45_000, 300),
        (45, 0),
        "the request expires at 30 s, but nothing gets or scans SERVICE.IN: a whole 45 s (EIP-06)",
    ),
    (
        "nb07.q5",
        N.nb07.Unserved(3_000, 10),
        (3, 0),
        "expired at 1 s, never discarded, no report: request() times out after 3 s (RPT-02)",
    ),
]


@pytest.mark.parametrize(
    ("name", "params", "answer", "why"), BY_HAND_VARIANTS, ids=[row[0] for row in BY_HAND_VARIANTS]
)
def test_a_variant_gives_the_answer_worked_out_by_hand(
    name: str, params: object, answer: object, why: str
) -> None:
    exercise = checks.find_exercise(name)
    engine = exercise.form.read(exercise.scenario(params).answer)
    assert engine == exercise.form.read(answer), f"{name}: by hand {answer!r} ({why})"
