"""Notebook 05 (units of work, browse cursors and locks): syncpoint, backout, 2034."""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random
from typing import ClassVar, Self

import mqlearn as mq
from mqlearn import CMQC
from mqlearn.checks.answers import LetterSet, Number, Numbers
from mqlearn.checks.exercise import Exercise, Misconception, Outcome
from mqlearn.checks.lab import Letters, get_reason
from mqlearn.checks.variants import Variant, before_and_after_an_end
from mqlearn.checks.wording import listing, plural, seconds


def _one_late() -> list[tuple[str, int]]:
    return [("A", 20)]


def _retry_outcome(qm: mq.QueueManager, reason: int, letters: Letters) -> dict[str, object]:
    """The facts of a get that a scenario of this notebook retries: what it discarded, what it
    returned (a letter, or nothing) and CURDEPTH after it."""
    discarded = sorted(letters.seen(qm, "discard"))
    got = [letter for letter in letters.seen(qm, "get") if letter not in discarded]
    return {
        "discarded": len(discarded),
        "expired": listing(discarded),
        "found": f"returned {got[-1]}"
        if reason == CMQC.MQRC_NONE and got
        else "found nothing live",
        "depth": qm.curdepth("APP.IN"),
    }


def _retried(
    qm: mq.QueueManager, reason: int, letters: Letters, put: int, **more: object
) -> Outcome:
    """The outcome of a scenario that ends with a get on APP.IN after ``put`` messages: the answer
    (its reason code, CURDEPTH after it), the facts of that get and ``more``, and the tempting
    answer that the get succeeded and took one message."""
    facts = _retry_outcome(qm, reason, letters)
    return Outcome(
        (reason, qm.curdepth("APP.IN")),
        {**facts, "success": (CMQC.MQRC_NONE, put - 1), **more},
        letters.story(qm),
    )


def _lettered(lifetimes_s: list[int]) -> list[tuple[str, int]]:
    """Messages A, B, ... with these lifetimes in whole seconds, as (letter, Expiry in tenths)."""
    return [(letter, 10 * s) for letter, s in zip("ABCDE", lifetimes_s, strict=False)]


class _Lifetimes:
    """What the variants of this notebook print in their scenario's comment."""

    messages: list[tuple[str, int]]

    @property
    def lifetimes(self) -> str:
        """ "A 2 s, B 5 s": each message's lifetime."""
        return ", ".join(f"{letter} {seconds(expiry)}" for letter, expiry in self.messages)


@dataclass(frozen=True)
class LateCommit(_Lifetimes, Variant):
    """q1: one to five messages put in one unit of work, their lifetimes in whole seconds (the
    first over before the commit, the others either way), and when the commit comes."""

    messages: list[tuple[str, int]] = field(default_factory=_one_late)
    commit_s: int = 3

    @classmethod
    def draw(cls, rng: Random) -> Self:
        commit_s = rng.randrange(2, 60)
        over = [True] + [rng.random() < 0.5 for _ in range(rng.randrange(0, 5))]
        lifetimes = [
            rng.randrange(1, commit_s) if ended else rng.randrange(commit_s + 1, commit_s + 120)
            for ended in over
        ]
        return cls(_lettered(lifetimes), commit_s)


def _commit_late(p: LateCommit = LateCommit()) -> Outcome:
    """Short-lived messages are put under syncpoint and committed after some lifetimes end."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    for letter, expiry in p.messages:  # {p.lifetimes}
        letters.put(q, letter, mq.MD(Expiry=expiry), mq.PMO(Options=CMQC.MQPMO_SYNCPOINT))
    qm.sim.advance(seconds=p.commit_s)
    qm.commit()
    reason = get_reason(q)
    # the answer: (reason, CURDEPTH after the get)
    return _retried(qm, reason, letters, len(p.messages))


q1 = Exercise(
    "nb05.q1",
    question=(
        "After the commit, a get runs on APP.IN. Which reason code does it end with, and what "
        "is CURDEPTH after it? Answer (reason code, CURDEPTH), for example (CMQC.MQRC_NONE, 0)."
    ),
    scenario=_commit_late,
    form=Numbers("the reason code", "CURDEPTH"),
    rules=("EXP-05",),
    explanation=(
        "A message's lifetime starts at MQPUT, even under syncpoint: the time it waits for the "
        "commit counts, and a message that expired before the commit is never returned after it."
    ),
    hint="When did each lifetime start: at the put, or at the commit at {p.commit_s} s?",
    confirm="{expired} expired before the commit at {p.commit_s} s; the get {found}.",
    misconceptions=(Misconception("success", "The clock started at MQPUT, not at MQCMIT."),),
    variants=LateCommit,
    teaches=lambda outcome: outcome.number("discarded") >= 1,
)


def _held_one() -> list[tuple[str, int]]:
    return [("A", 50)]


@dataclass(frozen=True)
class HeldTooLong(_Lifetimes, Variant):
    """q2: one to five messages and their lifetimes (whole seconds), the wait before the
    syncpoint get of the first (shorter than its lifetime), and how long the unit of work then
    lasts (past the end of it); the others end before the retry or after it."""

    messages: list[tuple[str, int]] = field(default_factory=_held_one)
    wait_s: int = 4
    work_s: int = 2

    @classmethod
    def draw(cls, rng: Random) -> Self:
        lifetime_s = rng.randrange(2, 120)
        wait_s = rng.randrange(1, lifetime_s)
        work_s = rng.randrange(lifetime_s - wait_s + 1, lifetime_s + 30)
        retry_s = wait_s + work_s
        others = [
            rng.randrange(1, retry_s) if rng.random() < 0.5 else rng.randrange(retry_s + 1, 300)
            for _ in range(rng.randrange(0, 5))
        ]
        return cls(_lettered([lifetime_s, *others]), wait_s, work_s)

    @property
    def left(self) -> int:
        return self.messages[0][1] - 10 * self.wait_s

    @property
    def left_s(self) -> str:
        return f"{self.left / 10:g}"


def _backout_nearly_expired(p: HeldTooLong = HeldTooLong()) -> Outcome:
    """A message got under syncpoint shortly before it expires; the unit of work is backed out
    later."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    for letter, expiry in p.messages:  # {p.lifetimes}
        letters.put(q, letter, mq.MD(Expiry=expiry))
    qm.sim.advance(seconds=p.wait_s)
    q.get(None, mq.MD(), mq.GMO(Options=CMQC.MQGMO_SYNCPOINT))  # A, Expiry {p.left} left
    qm.sim.advance(seconds=p.work_s)  # the application works on it, then fails
    qm.backout()
    depth_after_backout = qm.curdepth("APP.IN")
    reason = get_reason(q)
    # the answer: (reason, CURDEPTH after the retry)
    back = depth_after_backout == len(p.messages)
    return _retried(qm, reason, letters, len(p.messages), back=back)


q2 = Exercise(
    "nb05.q2",
    question=(
        "After the backout, the application tries again with a get. Which reason code does it "
        "end with, and what is CURDEPTH after it? Answer (reason code, CURDEPTH)."
    ),
    scenario=_backout_nearly_expired,
    form=Numbers("the reason code", "CURDEPTH"),
    rules=("UOW-01",),
    explanation=(
        "Backout puts the message back in its old place with BackoutCount + 1, but with its "
        "original deadline: the clock kept running while the application held it."
    ),
    hint="A had {p.left_s} s left when it was got. How long did the unit of work last?",
    confirm="A came back already expired; the retry discarded {expired} and {found}.",
    misconceptions=(Misconception("success", "Backout does not restart the message's lifetime."),),
    variants=HeldTooLong,
    teaches=lambda outcome: outcome.facts["back"] is True and outcome.number("discarded") >= 1,
)


def _one_locked() -> list[tuple[str, int]]:
    return [("A", 30)]


@dataclass(frozen=True)
class LockedTooLong(_Lifetimes, Variant):
    """q3: one to five messages and their lifetimes (whole seconds; the first is the one
    browsed and locked, the others end before the two gets or after them), when the locking
    browse comes (before the first one's end), and how long after it the two gets come (past
    that end)."""

    messages: list[tuple[str, int]] = field(default_factory=_one_locked)
    browse_s: int = 1
    later_s: int = 3

    @classmethod
    def draw(cls, rng: Random) -> Self:
        lifetime_s, browse_s, later_s = before_and_after_an_end(rng, 150)
        gets_s = browse_s + later_s
        others = [
            rng.randrange(1, gets_s) if rng.random() < 0.5 else rng.randrange(gets_s + 1, 290)
            for _ in range(rng.randrange(0, 5))
        ]
        return cls(_lettered([lifetime_s, *others]), browse_s, later_s)

    @property
    def expiry_s(self) -> int:
        return self.messages[0][1] // 10


def _lock_then_two_gets(p: LockedTooLong = LockedTooLong()) -> Outcome:
    """One handle browses A with a lock; A expires; another handle gets, then the first."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    browser, other = mq.Queue(qm, "APP.IN"), mq.Queue(qm, "APP.IN")  # two handles
    letters = Letters()
    for letter, expiry in p.messages:  # {p.lifetimes}
        letters.put(browser, letter, mq.MD(Expiry=expiry))
    qm.sim.advance(seconds=p.browse_s)
    browser.get(None, mq.MD(), mq.GMO(Options=CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_LOCK))
    qm.sim.advance(seconds=p.later_s)
    other_reason = get_reason(other)
    depth_between = qm.curdepth("APP.IN")
    cursor_reason = get_reason(browser, gmo=mq.GMO(Options=CMQC.MQGMO_MSG_UNDER_CURSOR))
    # the answer: (other_reason, cursor_reason, depth_between)
    other_found = _retry_outcome(qm, other_reason, letters)["found"]
    no_msg, none = CMQC.MQRC_NO_MSG_AVAILABLE, CMQC.MQRC_NONE
    return Outcome(
        (other_reason, cursor_reason, depth_between),
        {
            "lock_stops_clock": (other_reason, none, depth_between),
            "no_cursor_code": (other_reason, no_msg, depth_between),
            "other_found": other_found,
            "left": depth_between,
        },
        letters.story(qm),
    )


q3 = Exercise(
    "nb05.q3",
    question=(
        "Which reason codes do the two gets end with, and what is CURDEPTH between them "
        "(depth_between)? Answer (the other handle's get, the get under the cursor, "
        "depth_between), for example (CMQC.MQRC_NONE, CMQC.MQRC_NONE, 0)."
    ),
    scenario=_lock_then_two_gets,
    form=Numbers("the other handle's reason", "the under-cursor reason", "depth_between"),
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
        "The other get passed over the locked A and {other_found}, leaving CURDEPTH {left} (A, "
        "locked and expired, still counts); the get under the cursor found A expired and "
        "failed with MQRC_NO_MSG_UNDER_CURSOR (2034). IBM says only that A may then be "
        "discarded; in mqlearn that get discards it."
    ),
    misconceptions=(
        Misconception(
            "lock_stops_clock",
            "A lock does not stop the clock: A expired at {p.expiry_s} s.",
        ),
        Misconception(
            "no_cursor_code",
            "A get under the cursor has its own reason code for a message that is gone.",
        ),
    ),
    variants=LockedTooLong,
)

SHORT = range(1, 20)  # tenths: lifetimes over at the get, two seconds after the puts
LONG = (CMQC.MQEI_UNLIMITED, 30, 100, 600, 6000)  # lifetimes that are not


def _three_puts() -> list[tuple[str, int]]:
    return [("A", 10), ("B", CMQC.MQEI_UNLIMITED), ("C", 10)]


@dataclass(frozen=True)
class ReportsAndBackout(Variant):
    """q4 and q5: three to seven messages (letter, Expiry) asking for expiration reports: one to
    four expired ones, a live one, then more, at least one of them expired. Shared: q5 asks
    about q4's scenario."""

    SHOWN: ClassVar = {CMQC.MQEI_UNLIMITED: "CMQC.MQEI_UNLIMITED"}
    puts: list[tuple[str, int]] = field(default_factory=_three_puts)

    @classmethod
    def draw(cls, rng: Random) -> Self:
        before = [True] * rng.randrange(1, 5)  # one to four reports: q5's answer
        after = [True, *rng.choices([True, False], k=rng.randrange(0, 2))]
        rng.shuffle(after)
        expired = [*before, False, *after]
        expiries = [rng.choice(SHORT) if gone else rng.choice(LONG) for gone in expired]
        return cls(list(zip("ABCDEFG", expiries, strict=False)))


def _discard_then_backout(p: ReportsAndBackout) -> tuple[mq.QueueManager, Letters]:
    """A syncpoint get among expired messages that ask for reports, then a backout."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    qm.define_qlocal("REPLY.Q")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    for letter, expiry in p.puts:
        md = mq.MD(Expiry=expiry, Report=CMQC.MQRO_EXPIRATION, ReplyToQ="REPLY.Q")
        letters.put(q, letter, md)
    qm.sim.advance(seconds=2)
    q.get(None, mq.MD(), mq.GMO(Options=CMQC.MQGMO_SYNCPOINT))
    qm.backout()
    return qm, letters


def _after_backout(
    qm: mq.QueueManager, letters: Letters, p: ReportsAndBackout
) -> dict[str, object]:
    """Who is where after the backout, in the words q4's and q5's feedback use."""
    on_queue = letters.on_queue(qm, "APP.IN")
    expired = letters.on_queue(qm, "APP.IN", expired=True)
    discarded = sorted(letters.seen(qm, "discard"))
    back = [x for x in on_queue if x not in expired][:1]
    never = [x for x in on_queue if x in expired]
    reports = qm.curdepth("REPLY.Q")
    were = plural(len(never), "was", "were")
    its = plural(len(discarded), "its report", "their reports")
    stays = plural(len(discarded), "stays", "stay")
    return {
        "all_letters": frozenset(letter for letter, _ in p.puts),
        "live": frozenset(on_queue) - frozenset(expired),
        "reports": reports,
        "discards": len(discarded),
        "never": len(never),
        "not_got": (
            f"{listing(discarded)} {plural(len(discarded), 'was', 'were')} discarded, not got: "
            f"backout cannot bring {plural(len(discarded), 'it', 'them')} back."
        ),
        "not_reached": (
            f"{listing(never)} {were} behind {listing(back)}: the get never reached "
            f"{plural(len(never), 'it, so it is', 'them, so they are')} still there."
        ),
        "not_discarded": (
            f"Reports come at discard time, and {listing(never)} {were} not discarded."
        ),
        "q4_why": (
            f"{listing(back)} is back and {listing(never)}, behind {listing(back)}, {were} never "
            f"touched; {listing(discarded)} {stays} discarded and {its} ({reports}) "
            f"{plural(reports, 'stays', 'stay')} on REPLY.Q."
        ),
        "q5_why": (
            f"{listing(discarded)}'s {plural(len(discarded), 'report was', 'reports were')} put "
            f"when {listing(discarded)} {plural(len(discarded), 'was', 'were')} discarded and "
            f"{plural(len(discarded), 'survives', 'survive')} the backout; {listing(never)} "
            f"{plural(len(never), 'was', 'were')} never discarded, so "
            f"{plural(len(never), 'it has', 'they have')} no report yet."
        ),
    }


def _on_queue_after_backout(p: ReportsAndBackout = ReportsAndBackout()) -> Outcome:
    """The messages left on APP.IN after the backout."""
    qm, letters = _discard_then_backout(p)
    # the answer: the letters on APP.IN
    facts = _after_backout(qm, letters, p)
    return Outcome(
        frozenset(letters.on_queue(qm, "APP.IN")),
        {"restores_all": facts["all_letters"], "live_only": facts["live"], **facts},
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
    confirm="{q4_why}",
    helpers=(_discard_then_backout,),
    misconceptions=(
        Misconception("restores_all", "{not_got}"),
        Misconception("live_only", "{not_reached}"),
    ),
    variants=ReportsAndBackout,
    teaches=lambda outcome: outcome.number("discards") > 0 and outcome.number("never") > 0,
)


def _reports_after_backout(p: ReportsAndBackout = ReportsAndBackout()) -> Outcome:
    """The reports on REPLY.Q after the backout."""
    qm, letters = _discard_then_backout(p)
    # the answer: CURDEPTH of REPLY.Q
    expired = len(letters.seen(qm, "discard")) + len(letters.on_queue(qm, "APP.IN", expired=True))
    return Outcome(
        qm.curdepth("REPLY.Q"),
        {"backed_out": 0, "every_expired": expired, **_after_backout(qm, letters, p)},
        letters.story(qm),
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
    confirm="{q5_why}",
    misconceptions=(
        Misconception("backed_out", "The report was never in the unit of work."),
        Misconception("every_expired", "{not_discarded}"),
    ),
    helpers=(_discard_then_backout,),
    variants=ReportsAndBackout,
    teaches=lambda outcome: outcome.number("discards") > 0 and outcome.number("never") > 0,
)
