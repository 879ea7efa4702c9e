"""Notebook 03 (FIFO vs priority): which expired messages one get discards, with and without match
options."""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random
from typing import ClassVar, Self

import mqlearn as mq
from mqlearn import CMQC
from mqlearn.checks.answers import LetterSet, Numbers
from mqlearn.checks.exercise import Exercise, Misconception, Outcome
from mqlearn.checks.lab import Letters
from mqlearn.checks.variants import Variant
from mqlearn.checks.wording import listing, plural

SHORT = range(1, 20)  # tenths: lifetimes over at the get, two seconds after the puts
LONG = (CMQC.MQEI_UNLIMITED, 30, 100, 600, 6000)  # lifetimes that are not


def _four_puts() -> list[tuple[str, int, int]]:
    return [("A", 10, 5), ("B", CMQC.MQEI_UNLIMITED, 0), ("C", 10, 9), ("D", 10, 0)]


@dataclass(frozen=True)
class FourPuts(Variant):
    """q1, q2 and q4: four messages (letter, Expiry, Priority) in arrival order, some expired
    at the get; q1, q2 and q4 ask about the same four, so they share one variant."""

    SHOWN: ClassVar = {CMQC.MQEI_UNLIMITED: "unlimited"}
    puts: list[tuple[str, int, int]] = field(default_factory=_four_puts)

    @classmethod
    def draw(cls, rng: Random) -> Self:
        expired = [True, True, False, *rng.choices([True, False], weights=[3, 1])]
        rng.shuffle(expired)
        expiries = [rng.choice(SHORT) if gone else rng.choice(LONG) for gone in expired]
        priorities = [rng.randrange(10) for _ in expired]
        names = rng.sample("ABCD", k=4)  # arrival order is not alphabetical: more answers
        return cls(list(zip(names, expiries, priorities, strict=True)))

    @property
    def values(self) -> str:
        """The puts as the question lists them: A (10, 5), B (unlimited, 0), …"""
        return ", ".join(
            f"{letter} ({'unlimited' if e == CMQC.MQEI_UNLIMITED else e}, {priority})"
            for letter, e, priority in self.puts
        )

    @property
    def top_priority(self) -> int:
        return max(priority for _, _, priority in self.puts)


def _one_get(msgdlvsq: str, p: FourPuts) -> tuple[mq.QueueManager, Letters]:
    """The four puts, two seconds, one destructive get with MQMO_NONE on a queue of this kind."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN", msgdlvsq=msgdlvsq)
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    unlimited = CMQC.MQEI_UNLIMITED  # noqa: F841 - the name the puts are shown with
    for letter, expiry, priority in p.puts:
        letters.put(q, letter, mq.MD(Expiry=expiry, Priority=priority))
    qm.sim.advance(seconds=2)
    q.get(None, mq.MD(), mq.GMO(Version=CMQC.MQGMO_VERSION_2, MatchOptions=CMQC.MQMO_NONE))
    return qm, letters


def _in_order(
    letters: frozenset[str] | tuple[str, ...], p: FourPuts, by_priority: bool
) -> list[str]:
    """``letters`` in delivery order: arrival, or highest priority first then arrival."""
    arrival = [letter for letter, _, _ in p.puts]
    priority = {letter: prio for letter, _, prio in p.puts}
    key = (lambda x: (-priority[x], arrival.index(x))) if by_priority else arrival.index
    return sorted(letters, key=key)


def _all_expired(qm: mq.QueueManager, letters: Letters) -> frozenset[str]:
    """Every expired message: the ones discarded and the ones still on the queue."""
    return letters.seen(qm, "discard") | frozenset(letters.on_queue(qm, "APP.IN", expired=True))


def _fifo_get(p: FourPuts = FourPuts()) -> Outcome:
    """The four puts on a FIFO queue, then one get."""
    fifo, letters = _one_get("FIFO", p)
    # the answer: the letters discarded
    priority, other = _one_get("PRIORITY", p)
    discarded = letters.seen(fifo, "discard")
    returned = sorted(letters.seen(fifo, "get"))
    behind = _in_order(_all_expired(fifo, letters) - discarded, p, by_priority=False)
    stood = _in_order(discarded, p, by_priority=False)
    return Outcome(
        discarded,
        {
            "all_expired": _all_expired(fifo, letters),
            "priority_order": other.seen(priority, "discard"),
            "stood": f"Only {stood[0]} stood" if len(stood) == 1 else f"{listing(stood)} stood",
            "returned": listing(returned),
            "behind": f"{listing(behind)} {plural(len(behind), 'stays', 'stay')}",
        },
        letters.story(fifo),
    )


q1 = Exercise(
    "nb03.q1",
    question=(
        "Four messages are put to a FIFO queue (MSGDLVSQ(FIFO)), with these Expiry and Priority "
        "values: {p.values}. Two seconds later one "
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
    confirm="{stood} before {returned}, the first live message; {behind} behind it.",
    helpers=(_one_get,),
    misconceptions=(
        Misconception("all_expired", "A get is not a scan: it stops at the first live message."),
        Misconception(
            "priority_order", "That is what a priority queue would do; FIFO ignores Priority."
        ),
    ),
    variants=FourPuts,
    teaches=lambda outcome: bool(outcome.answer),
)


def _priority_get(p: FourPuts = FourPuts()) -> Outcome:
    """The four puts on a priority queue, then one get."""
    priority, letters = _one_get("PRIORITY", p)
    # the answer: the letters discarded
    fifo, other = _one_get("FIFO", p)
    discarded = letters.seen(priority, "discard")
    (returned,) = letters.seen(priority, "get")
    return Outcome(
        discarded,
        {
            "all_expired": _all_expired(priority, letters),
            "fifo_order": other.seen(fifo, "discard"),
            "why": _priority_why(discarded, returned, _all_expired(priority, letters), p),
            "behind": _priority_behind(discarded, returned, _all_expired(priority, letters), p),
        },
        letters.story(priority),
    )


def _priority_behind(
    discarded: frozenset[str], returned: str, expired: frozenset[str], p: FourPuts
) -> str:
    """Where the expired messages the get left stand: "D is behind B: same priority, later
    arrival." for the notebook's four puts."""
    priority = {letter: prio for letter, _, prio in p.puts}
    return " ".join(
        f"{x} is behind {returned}: "
        + (
            "same priority, later arrival."
            if priority[x] == priority[returned]
            else "lower priority."
        )
        for x in _in_order(expired - discarded, p, by_priority=True)
    )


def _priority_why(
    discarded: frozenset[str], returned: str, expired: frozenset[str], p: FourPuts
) -> str:
    """Why these and no others: "C (9) and A (5) came before B (0); D has B's priority but
    arrived after it, so stays." for the notebook's four puts."""
    priority = {letter: prio for letter, _, prio in p.puts}
    came = listing(f"{x} ({priority[x]})" for x in _in_order(discarded, p, by_priority=True))
    why = f"{came} came before {returned} ({priority[returned]})"
    kept = _in_order(expired - discarded, p, by_priority=True)
    reasons = [
        f"{x} has {returned}'s priority but arrived after it"
        if priority[x] == priority[returned]
        else f"{x} has a lower priority"
        for x in kept
    ]
    if kept:
        stay = plural(len(kept), "stays", "both stay" if len(kept) == 2 else "all stay")
        why += f"; {listing(reasons)}, so {stay}"
    return why + "."


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
    hint=(
        "Order the letters by Priority ({p.top_priority} first), then by arrival. Where is the "
        "first live one?"
    ),
    confirm="{why}",
    helpers=(_one_get,),
    misconceptions=(
        Misconception("all_expired", "{behind}"),
        Misconception("fifo_order", "That is the FIFO answer; here Priority decides the order."),
    ),
    variants=FourPuts,
    teaches=lambda outcome: bool(outcome.answer),
)

ORDER_1, ORDER_2 = b"ORDER-1".ljust(24, b"\0"), b"ORDER-2".ljust(24, b"\0")


@dataclass(frozen=True)
class TwoOrders(Variant):
    """q3: four messages, each with a CorrelId and an Expiry: expired ORDER-1 and ORDER-2
    messages (in either order), a live ORDER-1 one, and an expired ORDER-1 one behind it."""

    SHOWN: ClassVar = {
        ORDER_1: "order_1",
        ORDER_2: "order_2",
        CMQC.MQEI_UNLIMITED: "CMQC.MQEI_UNLIMITED",
    }
    a_expiry: int = 10
    a_correl: bytes = ORDER_1
    b_expiry: int = 10
    b_correl: bytes = ORDER_2
    c_expiry: int = CMQC.MQEI_UNLIMITED
    c_correl: bytes = ORDER_1
    d_expiry: int = 10
    d_correl: bytes = ORDER_1
    names: str = "ABCD"  # the letters of the four, in arrival order

    @classmethod
    def draw(cls, rng: Random) -> Self:
        e = [rng.choice(SHORT), rng.choice(SHORT), rng.choice(LONG), rng.choice(SHORT)]
        c = [*rng.sample([ORDER_1, ORDER_2], k=2), ORDER_1, ORDER_1]
        names = "".join(rng.sample("ABCD", k=4))  # not alphabetical: more distinct answers
        return cls(e[0], c[0], e[1], c[1], e[2], c[2], e[3], c[3], names)

    @property
    def a_letter(self) -> str:
        return self.names[0]

    @property
    def b_letter(self) -> str:
        return self.names[1]

    @property
    def c_letter(self) -> str:
        return self.names[2]

    @property
    def d_letter(self) -> str:
        return self.names[3]

    @property
    def unmatched(self) -> str:
        others = [x for x, (_, correl) in self.all.items() if correl != ORDER_1]
        return plural(len(others), "the message", "the messages")

    @property
    def all(self) -> dict[str, tuple[int, bytes]]:
        """Each letter's (Expiry, CorrelId)."""
        return {
            self.a_letter: (self.a_expiry, self.a_correl),
            self.b_letter: (self.b_expiry, self.b_correl),
            self.c_letter: (self.c_expiry, self.c_correl),
            self.d_letter: (self.d_expiry, self.d_correl),
        }


def _match_correl_id(p: TwoOrders = TwoOrders()) -> Outcome:
    """A get that matches one CorrelId, among expired messages with two different CorrelIds."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    order_1, order_2 = b"ORDER-1".ljust(24, b"\0"), b"ORDER-2".ljust(24, b"\0")  # noqa: F841
    letters.put(q, p.a_letter, mq.MD(Expiry=p.a_expiry, CorrelId=p.a_correl))
    letters.put(q, p.b_letter, mq.MD(Expiry=p.b_expiry, CorrelId=p.b_correl))
    letters.put(q, p.c_letter, mq.MD(Expiry=p.c_expiry, CorrelId=p.c_correl))
    letters.put(q, p.d_letter, mq.MD(Expiry=p.d_expiry, CorrelId=p.d_correl))
    qm.sim.advance(seconds=2)
    md = mq.MD(CorrelId=order_1)
    q.get(None, md, mq.GMO(Version=CMQC.MQGMO_VERSION_2, MatchOptions=CMQC.MQMO_MATCH_CORREL_ID))
    # the answer: the letters discarded
    discarded = letters.seen(qm, "discard")
    returned = sorted(letters.seen(qm, "get"))
    expired = discarded | frozenset(letters.on_queue(qm, "APP.IN", expired=True))
    stayed = expired - discarded
    other = sorted(x for x in stayed if p.all[x][1] != ORDER_1)
    behind = sorted(x for x in stayed if p.all[x][1] == ORDER_1)
    return Outcome(
        discarded,
        {
            "without_match": _discarded_without_match(p),
            "all_expired": expired,
            "why": _match_why(other, behind, returned),
            "got": len(returned),
            "other": len(other),
            "behind": len(behind),
            "never_considered": _never_considered(other),
            "behind_the_match": (
                f"{listing(behind)} {plural(len(behind), 'stands', 'stand')} behind "
                f"{listing(returned)}, the message the get returns."
            ),
        },
        letters.story(qm),
    )


def _never_considered(other: list[str]) -> str:
    """ "B does not match ORDER-1, so the get never considers it." for the notebook's four."""
    does, it = plural(len(other), "does", "do"), plural(len(other), "it", "them")
    return f"{listing(other)} {does} not match ORDER-1, so the get never considers {it}."


def _discarded_without_match(p: TwoOrders) -> frozenset[str]:
    """What the same get would discard with MQMO_NONE (asked of the engine)."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    for letter, (expiry, correl_id) in p.all.items():
        letters.put(q, letter, mq.MD(Expiry=expiry, CorrelId=correl_id))
    qm.sim.advance(seconds=2)
    q.get(None, mq.MD(), mq.GMO(Version=CMQC.MQGMO_VERSION_2, MatchOptions=CMQC.MQMO_NONE))
    return letters.seen(qm, "discard")


def _match_why(other: list[str], behind: list[str], returned: list[str]) -> str:
    """Why the expired messages that stayed did: "B does not match, so it is no candidate and
    stays; D is behind C, the match returned." for the notebook's four."""
    parts = []
    if other:
        it, does = plural(len(other), "it is", "they are"), plural(len(other), "does", "do")
        stays = plural(len(other), "stays", "stay")
        parts.append(f"{listing(other)} {does} not match, so {it} no candidate and {stays}")
    if behind:
        match = listing(returned) if returned else "nothing"
        are = plural(len(behind), "is", "are")
        parts.append(f"{listing(behind)} {are} behind {match}, the match returned")
    return "; ".join(parts) + "."


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
    hint=("Cross out {p.unmatched} whose CorrelId is ORDER-2 first, then apply the FIFO-walk."),
    confirm="{why}",
    misconceptions=(
        Misconception("without_match", "{never_considered}"),
        Misconception("all_expired", "{behind_the_match}"),
    ),
    variants=TwoOrders,
    teaches=lambda outcome: (
        bool(outcome.answer)
        and outcome.number("got") == 1
        and outcome.number("other") > 0
        and outcome.number("behind") > 0
    ),
)


def _depths_after_get(p: FourPuts = FourPuts()) -> Outcome:
    """CURDEPTH of both queues after the single get of q1 and q2."""
    fifo, _ = _one_get("FIFO", p)
    priority, _ = _one_get("PRIORITY", p)
    # the answer: (CURDEPTH of the FIFO queue, CURDEPTH of the priority queue)
    fifo_again, letters = _one_get("FIFO", p)  # the same runs, to name what is left
    priority_again, other = _one_get("PRIORITY", p)
    puts = sum(e.kind == "put" for e in fifo.events)
    return Outcome(
        (fifo.curdepth("APP.IN"), priority.curdepth("APP.IN")),
        {
            "got_only": (puts - 1, puts - 1),
            "live_only": (0, 0),
            "fifo_left": _holds(fifo_again, letters),
            "priority_left": _holds(priority_again, other),
        },
    )


def _holds(qm: mq.QueueManager, letters: Letters) -> str:
    """What a queue holds after the get: "C and D (both expired)" for the notebook's FIFO one."""
    left = letters.on_queue(qm, "APP.IN")
    expired = letters.on_queue(qm, "APP.IN", expired=True)
    if len(left) < 2 or not expired:
        return listing(left)
    if len(expired) == len(left):
        note = "both expired" if len(left) == 2 else "all expired"
    else:
        note = f"{listing(expired)} expired"
    return f"{listing(left)} ({note})"


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
    confirm="The FIFO queue still holds {fifo_left}; the priority queue holds {priority_left}.",
    helpers=(_one_get,),
    misconceptions=(
        Misconception("got_only", "The discarded messages are gone too."),
        Misconception("live_only", "Expired messages behind the returned one still count."),
    ),
    variants=FourPuts,
)
