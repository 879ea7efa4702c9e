"""Notebook 02 (lazy expiry): eligible vs discarded, CURDEPTH, depth triggers, background scans."""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random
from typing import ClassVar, Self

import mqlearn as mq
from mqlearn import CMQC
from mqlearn.checks.answers import Number, Numbers
from mqlearn.checks.exercise import Exercise, Misconception, Outcome
from mqlearn.checks.lab import Letters, get_reason
from mqlearn.checks.variants import Variant, around_the_first_live_one
from mqlearn.checks.wording import duration_words, listing, plural, seconds

EXPIRED_BY = 10  # tenths: every short lifetime drawn ends at least this long before the call


def _over_by_then(rng: Random, wait_s: int) -> int:
    """A lifetime (tenths) that has ended at least EXPIRED_BY before a call ``wait_s`` later."""
    return rng.randrange(1, 10 * wait_s - EXPIRED_BY + 1)


def _around_b() -> list[tuple[str, int]]:
    return [("A", 20), ("B", 100), ("C", 20)]


@dataclass(frozen=True)
class AroundALiveOne(Variant):
    """q1: three to nine messages' lifetimes (tenths), expired ones before the
    first live one and after it, and the wait (seconds)."""

    messages: list[tuple[str, int]] = field(default_factory=_around_b)
    wait_s: int = 5

    @classmethod
    def draw(cls, rng: Random) -> Self:
        wait_s = rng.randrange(2, 60)
        lifetimes = around_the_first_live_one(
            rng,
            lambda: _over_by_then(rng, wait_s),
            lambda: rng.randrange(10 * wait_s + EXPIRED_BY, 6_000),
        )
        return cls(list(zip("ABCDEFGHI", lifetimes, strict=False)), wait_s)

    @property
    def lifetimes(self) -> str:
        """ "A 2 s, B 10 s, C 2 s": each message's lifetime, for the scenario's comment."""
        return ", ".join(f"{letter} {seconds(expiry)}" for letter, expiry in self.messages)


def _depth_after_browse(p: AroundALiveOne = AroundALiveOne()) -> Outcome:
    """Short-lived messages around a long-lived one, then one browse."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    for letter, expiry in p.messages:  # {p.lifetimes}
        letters.put(q, letter, mq.MD(Expiry=expiry))
    qm.sim.advance(seconds=p.wait_s)
    depth_before = qm.curdepth("APP.IN")
    q.get(None, mq.MD(), mq.GMO(Options=CMQC.MQGMO_BROWSE_FIRST))
    # the answer: CURDEPTH now
    live = int((~qm.queue_frame("APP.IN")["expired"]).sum())
    discarded = letters.seen(qm, "discard")
    order = [letter for letter, _ in p.messages]
    browsed = next(letter for letter in order if letter not in discarded)
    behind = order[order.index(browsed) + 1 :]
    return Outcome(
        qm.curdepth("APP.IN"),
        {
            "before": depth_before,
            "live": live,
            "discarded": len(discarded),
            "passed": listing(sorted(discarded)),
            "browsed": browsed,
            "behind": listing(behind),
            "count": plural(len(behind), "counts", "count"),
        },
        letters.story(qm),
    )


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
    confirm="The browse discarded {passed} on its way to {browsed}; {behind}, behind {browsed}, "
    "still {count}.",
    misconceptions=(
        Misconception("before", "A browse discards too, not only a destructive get."),
        Misconception("live", "Expired messages that no call has met still count."),
    ),
    variants=AroundALiveOne,
    teaches=lambda outcome: outcome.number("discarded") > 0,
)


@dataclass(frozen=True)
class BothExpired(Variant):
    """q2: two lifetimes, both over when the get comes, and how long the get would wait (ms,
    whole seconds)."""

    a: int = 10
    b: int = 10
    wait_s: int = 2
    wait_interval: int = 5000

    @classmethod
    def draw(cls, rng: Random) -> Self:
        wait_s = rng.randrange(2, 120)
        interval = 1000 * rng.choice([1, 2, 5, 10, 15, 20, 30, 45, 60, rng.randrange(3, 120)])
        return cls(_over_by_then(rng, wait_s), _over_by_then(rng, wait_s), wait_s, interval)


def _get_with_wait(p: BothExpired = BothExpired()) -> Outcome:
    """Both messages have expired; the consumer waits a few seconds for one."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    letters.put(q, "A", mq.MD(Expiry=p.a))
    letters.put(q, "B", mq.MD(Expiry=p.b))
    qm.sim.advance(seconds=p.wait_s)
    reason = get_reason(q, gmo=mq.GMO(Options=CMQC.MQGMO_WAIT, WaitInterval=p.wait_interval))
    # the answer: (reason, seconds waited); the clock started at 0 ms
    waited_s = qm.sim.now // 1000 - p.wait_s
    no_msg = CMQC.MQRC_NO_MSG_AVAILABLE
    return Outcome(
        (reason, waited_s),
        {
            "success": (CMQC.MQRC_NONE, 0),
            "at_once": (no_msg, 0),
            "expiry_error": (CMQC.MQRC_EXPIRY_ERROR, 0),
            "discarded": len(letters.seen(qm, "discard")),
        },
        letters.story(qm),
    )


q2 = Exercise(
    "nb02.q2",
    question=(
        "Which reason code does the get end with (0 if it returns a message), and how many "
        "seconds does it wait first? Answer (reason code, seconds), for example "
        "(CMQC.MQRC_NONE, 0)."
    ),
    scenario=_get_with_wait,
    form=Numbers("the reason code", "the seconds waited"),
    rules=("EXP-24", "EXP-26"),
    explanation=(
        "An expired message is never handed to an application, and a waiting get is not woken "
        "by one: a consumer that finds only expired messages is simply told there is nothing."
    ),
    hint="The get discards both messages. What is left for it to return, and what could end "
    "its wait early?",
    confirm="The consumer waited its whole WaitInterval and is told nothing about expiry: there "
    "was just no message.",
    misconceptions=(
        Misconception("success", "Expired messages are never returned, not even to a get."),
        Misconception(
            "at_once",
            "A get that waits is not ended by expired messages: it waits its whole interval.",
        ),
        Misconception(
            "expiry_error",
            "2013 is about putting an invalid Expiry; the consumer learns nothing about expiry.",
        ),
    ),
    variants=BothExpired,
    teaches=lambda outcome: outcome.number("discarded") == 2,
)


def _two_early() -> list[tuple[str, int]]:
    return [("A", 10), ("B", 10)]


def _one_late() -> list[tuple[str, int]]:
    return [("C", CMQC.MQEI_UNLIMITED)]


@dataclass(frozen=True)
class DepthTrigger(Variant):
    """q3: TRIGDPTH 2 to 5; one to four messages put first, all expired by the wait (tenths);
    then fewer live messages than TRIGDPTH (Expiry unlimited or longer than the wait)."""

    SHOWN: ClassVar = {CMQC.MQEI_UNLIMITED: "CMQC.MQEI_UNLIMITED"}
    trigdpth: int = 3
    early: list[tuple[str, int]] = field(default_factory=_two_early)
    wait_s: int = 2
    late: list[tuple[str, int]] = field(default_factory=_one_late)

    @classmethod
    def draw(cls, rng: Random) -> Self:
        trigdpth = rng.randrange(2, 6)
        wait_s = rng.randrange(2, 120)
        n_early = rng.randrange(1, 5)
        n_late = rng.randrange(1, trigdpth)
        letters = "ABCDEFGH"
        early = [(letters[i], _over_by_then(rng, wait_s)) for i in range(n_early)]
        late = [
            (letters[n_early + i], rng.choice([CMQC.MQEI_UNLIMITED, rng.randrange(10, 36_000)]))
            for i in range(n_late)
        ]
        return cls(trigdpth, early, wait_s, late)


def _depth_trigger(p: DepthTrigger = DepthTrigger()) -> Outcome:
    """A queue triggered at depth TRIGDPTH, with its process and a trigger monitor (TRG-04),
    holds expired messages when live ones arrive; the expiry task is off, so nothing discards
    them (on a real queue manager too: qm.ini ExpiryInterval 0)."""
    qm = mq.QueueManager("QM1")
    qm.alter_qmgr(expryint=0)  # the expiry task is off: no background scan
    qm.define_qlocal("INIT.Q")
    qm.define_process("APP.PROC", applicid="/opt/app/start")
    qm.define_qlocal(
        "APP.IN",
        trigger=True,
        trigtype="DEPTH",
        trigdpth=p.trigdpth,
        initq="INIT.Q",
        process="APP.PROC",
    )
    mq.Queue(qm, "INIT.Q", CMQC.MQOO_INPUT_SHARED)  # the trigger monitor, waiting on INIT.Q
    q = mq.Queue(qm, "APP.IN", CMQC.MQOO_OUTPUT)
    letters = Letters()
    for letter, expiry in p.early:
        letters.put(q, letter, mq.MD(Expiry=expiry))
    qm.sim.advance(seconds=p.wait_s)
    for letter, expiry in p.late:
        letters.put(q, letter, mq.MD(Expiry=expiry))
    # the answer: (CURDEPTH of INIT.Q, CURDEPTH of APP.IN)
    live = int((~qm.queue_frame("APP.IN")["expired"]).sum())
    return Outcome(
        (qm.curdepth("INIT.Q"), qm.curdepth("APP.IN")),
        {
            "live_only": (int(live >= p.trigdpth), qm.curdepth("APP.IN")),
            "expired_gone": (int(live >= p.trigdpth), live),
            "live": live,
            "depth": qm.curdepth("APP.IN"),
            "trigdpth": p.trigdpth,
        },
        letters.story(qm),
    )


q3 = Exercise(
    "nb02.q3",
    question=(
        "After the last put, how many trigger messages are on the initiation queue INIT.Q, and "
        "what is CURDEPTH of APP.IN? Answer (INIT.Q's depth, APP.IN's depth), for example (0, 0)."
    ),
    scenario=_depth_trigger,
    form=Numbers("INIT.Q's depth", "APP.IN's depth"),
    rules=("TRG-02", "TRG-04", "EXP-25"),
    explanation=(
        "Depth triggering looks at the queue depth, and expired messages that nothing has "
        "discarded yet are part of that depth. The process definition and the monitor holding "
        "INIT.Q open are there, so nothing else stops the trigger event."
    ),
    hint="TRIGDPTH is {p.trigdpth}. Nothing gets from APP.IN and the expiry task is off: what "
    "is CURDEPTH of APP.IN after each put?",
    confirm="The expired messages still count: CURDEPTH reached TRIGDPTH or not whatever their "
    "lifetimes, and a DEPTH trigger fires at most once before TRIGGER is set again.",
    misconceptions=(
        Misconception("live_only", "The trigger counts expired, undiscarded messages too."),
        Misconception(
            "expired_gone",
            "Expired messages stay on APP.IN, counted in CURDEPTH, until something discards "
            "them, and here nothing does.",
        ),
    ),
    variants=DepthTrigger,
    teaches=lambda outcome: outcome.number("live") < outcome.number("trigdpth"),
)

SCAN_S = 300  # mqlearn's expiry task first runs 300 s after the queue manager is created


def _three_lifetimes() -> list[tuple[str, int]]:
    return [("A", 100), ("B", 6000), ("C", 1000)]


@dataclass(frozen=True)
class ThreeLifetimes(Variant):
    """q4: three to seven lifetimes (tenths), each over before the first scan, after it, or not
    by the look (at least one of the first kind and one of the last), and the look (seconds)."""

    messages: list[tuple[str, int]] = field(default_factory=_three_lifetimes)
    look_s: int = 301

    @classmethod
    def draw(cls, rng: Random) -> Self:
        look_s = rng.randrange(SCAN_S + 1, 2 * SCAN_S)
        ends = {  # lifetimes (whole seconds) that end before the scan, between it and the look, after
            "before": (1, SCAN_S - 1),
            "between": (SCAN_S + 1, look_s),
            "long": (look_s + 1, 3_600),
        }
        others = ["before", "long", "between"] if look_s > SCAN_S + 2 else ["before", "long"]
        kinds = ["before", "long", *rng.choices(others, k=rng.randrange(1, 6))]
        rng.shuffle(kinds)
        lifetimes = [10 * rng.randrange(*ends[kind]) for kind in kinds]
        return cls(list(zip("ABCDEFG", lifetimes, strict=False)), look_s)

    @property
    def lifetimes(self) -> str:
        """ "A 10 s, B 10 min, C 100 s": each message's lifetime, for the scenario's comment."""
        return ", ".join(f"{letter} {seconds(expiry)}" for letter, expiry in self.messages)


def _expiry_task(p: ThreeLifetimes = ThreeLifetimes()) -> Outcome:
    """Distributed profile: the queue manager's expiry task runs every 300 s by default."""
    qm = mq.QueueManager("QM1", profile="distributed")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    for letter, expiry in p.messages:  # {p.lifetimes}
        letters.put(q, letter, mq.MD(Expiry=expiry))
    qm.sim.advance(seconds=p.look_s)
    # the answer: CURDEPTH now
    removed = sorted(letters.seen(qm, "discard"))
    kept = letters.on_queue(qm, "APP.IN")
    expired = letters.on_queue(qm, "APP.IN", expired=True)
    return Outcome(
        qm.curdepth("APP.IN"),
        {
            "no_scan": len(qm.queue_frame("APP.IN")) + len(removed),
            "removed": listing(removed),
            "kept": _kept_words(kept, expired, dict(p.messages)),
            "scans": len(removed),
        },
        letters.story(qm),
    )


def _kept_words(kept: tuple[str, ...], expired: tuple[str, ...], lifetimes: dict[str, int]) -> str:
    """What became of the messages the scan left: "B lives for ten minutes." for the notebook."""
    alive = [letter for letter in kept if letter not in expired]
    parts = []
    if len(alive) == 1 and not expired:
        parts.append(f"{alive[0]} lives for {duration_words(lifetimes[alive[0]])}")
    elif alive:
        parts.append(f"{listing(alive)} {plural(len(alive), 'is', 'are')} still live")
    if expired:
        has, counts = plural(len(expired), "has", "have"), plural(len(expired), "counts", "count")
        parts.append(f"{listing(expired)} {has} expired since, and still {counts}")
    return "; ".join(parts) + "."


q4 = Exercise(
    "nb02.q4",
    question=(
        "In mqlearn, whose expiry task first runs 300 s after the queue manager starts, no "
        "application touches APP.IN for {p.look_s} seconds. What is CURDEPTH then?"
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
    confirm="mqlearn's scan at 300 s removed {removed}; {kept}",
    misconceptions=(
        Misconception(
            "no_scan", "Without a get, only a background scan can help, and in mqlearn one ran."
        ),
    ),
    variants=ThreeLifetimes,
    teaches=lambda outcome: outcome.number("scans") > 0,
)


def _four_places() -> list[tuple[str, str]]:
    return [("APP.IN", "A"), ("APP.IN", "B"), ("APP.OUT", "C"), ("OTHER.Q", "D")]


@dataclass(frozen=True)
class FourPlaces(Variant):
    """q5: the queue of each of four to seven messages (at least one on OTHER.Q, one on an
    APP.* queue), their common lifetime, and when the scan is asked for."""

    places: list[tuple[str, str]] = field(default_factory=_four_places)
    expiry: int = 10
    wait_s: int = 60

    @classmethod
    def draw(cls, rng: Random) -> Self:
        queues = [rng.choice(["APP.IN", "APP.OUT"]), "OTHER.Q"]
        queues += rng.choices(["APP.IN", "APP.OUT", "OTHER.Q"], k=rng.randrange(2, 6))
        rng.shuffle(queues)  # four to seven messages: one to six discarded
        wait_s = rng.randrange(2, 600)
        expiry = _over_by_then(rng, wait_s)
        return cls(list(zip(queues, "ABCDEFG", strict=False)), expiry, wait_s)

    @property
    def how_many(self) -> str:
        """The number of messages in words: "four" for the notebook's."""
        return ("four", "five", "six", "seven")[len(self.places) - 4]


def _refresh_expiry(p: FourPlaces = FourPlaces()) -> Outcome:
    """z/OS profile: an operator asks for an expiry scan of the queues named APP.*."""
    qm = mq.QueueManager("QM1", profile="zos")
    for name in ("APP.IN", "APP.OUT", "OTHER.Q"):
        qm.define_qlocal(name)
    letters = Letters()
    no_syncpoint = mq.PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)  # z/OS puts default to syncpoint
    for name, letter in p.places:
        letters.put(mq.Queue(qm, name), letter, mq.MD(Expiry=p.expiry), no_syncpoint)
    qm.sim.advance(seconds=p.wait_s)
    discarded = qm.refresh_expiry("APP.*")  # REFRESH QMGR TYPE(EXPIRY) NAME(APP.*)
    # the answer: discarded
    scanned = sorted(letters.seen(qm, "discard"))
    waiting = letters.on_queue(qm, "OTHER.Q")
    return Outcome(
        discarded,
        {
            "all_queues": discarded + qm.curdepth("OTHER.Q"),
            "scanned": f"{listing(scanned)} {plural(len(scanned), 'was', 'were')}",
            "waiting": f"{listing(waiting)} on OTHER.Q {plural(len(waiting), 'waits', 'wait')}",
        },
        letters.story(qm),
    )


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
    hint="All {p.how_many} messages have expired. Which queues does the generic name APP.* match?",
    confirm="{scanned} on APP.* queues; {waiting} for a get or a later scan.",
    misconceptions=(Misconception("all_queues", "OTHER.Q does not match APP.*."),),
    variants=FourPlaces,
    teaches=lambda outcome: outcome.number() > 0,
)
