"""Notebook 07 (expiry across systems): JMS TTL, .NET lifetimes, dead letters, pub/sub, requests."""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random
from typing import ClassVar, Self

import mqlearn as mq
from mqlearn import CMQC, patterns
from mqlearn.checks.answers import LetterSet, Number, Numbers
from mqlearn.checks.exercise import Exercise, Misconception, Outcome
from mqlearn.checks.lab import Letters, get_reason
from mqlearn.checks.variants import Variant, around_the_first_live_one
from mqlearn.checks.wording import duration_words, listing, number_words, plural, seconds
from mqlearn.engine import Topic

MS_PER_YEAR = 365.25 * 24 * 3600 * 1000
TOO_LONG_MS = 2**31 * patterns.MS_PER_TENTH  # MQMD.Expiry (an MQLONG of tenths) cannot hold it


class Milliseconds(Variant):
    """Parameters in milliseconds, written in the code with underscores from 1 000 up."""

    def shown(self, value: object) -> str | None:
        if isinstance(value, int) and not isinstance(value, bool) and value >= 1000:
            return f"{value:_}"
        return None


@dataclass(frozen=True)
class FourTimesToLive(Milliseconds):
    """q1: the producer's time-to-live, one set for a send (whole tenths), and one too long for
    MQMD.Expiry; B's time-to-live stays 0."""

    a_ttl: int = 2_500
    c_ttl: int = 60_000
    d_ttl: int = 250_000_000_000

    @classmethod
    def draw(cls, rng: Random) -> Self:
        a_ttl = 100 * rng.randrange(1, 1_000)
        c_ttl = rng.choice([60_000, 1_000 * rng.randrange(1, 3_600)])
        d_ttl = 1_000_000_000 * rng.randrange(TOO_LONG_MS // 10**9 + 1, 1_000)
        return cls(a_ttl, c_ttl, d_ttl)

    @property
    def a_ms(self) -> str:
        return f"{self.a_ttl:,}".replace(",", " ")

    @property
    def c_words(self) -> str:
        return duration_words(self.c_ttl // patterns.MS_PER_TENTH)

    @property
    def d_years(self) -> int:
        return round(self.d_ttl / MS_PER_YEAR)

    @property
    def d_years_words(self) -> str:
        return number_words(self.d_years)


def _jms_time_to_live(p: FourTimesToLive = FourTimesToLive()) -> Outcome:
    """A JMS producer with a time-to-live sends four messages to an IBM MQ queue."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    producer = patterns.JmsProducer(qm, "APP.IN", time_to_live=p.a_ttl)
    a = producer.send(b"A")  # the producer's time-to-live
    b = producer.send(b"B", time_to_live=0)  # for this send only
    c = producer.send(b"C", time_to_live=p.c_ttl)  # for this send only: {p.c_words}
    d = producer.send(b"D", time_to_live=p.d_ttl)  # for this send only: about {p.d_years} years
    # the answer: (a.md.Expiry, b.md.Expiry, c.md.Expiry, d.md.Expiry)
    sent = (a, b, c, d)
    expiries = tuple(m.md.Expiry for m in sent)
    ttls = (producer.time_to_live, 0, p.c_ttl, p.d_ttl)
    return Outcome(
        expiries,
        {
            "milliseconds": ttls,
            "zero": tuple(0 if e == CMQC.MQEI_UNLIMITED else e for e in expiries),
            "producer_only": (a.md.Expiry,) * len(expiries),
            "too_long_kept": (*expiries[:3], ttls[3] // patterns.MS_PER_TENTH),
            "a": a.md.Expiry,
            "c": c.md.Expiry,
            "d_expiration": d.jms_expiration,
        },
    )


q1 = Exercise(
    "nb07.q1",
    question=(
        "IBM MQ's JMS client turns each time-to-live into MQMD.Expiry. Which Expiry do the "
        "four messages carry on APP.IN? Answer (A, B, C, D)."
    ),
    scenario=_jms_time_to_live,
    form=Numbers("A", "B", "C", "D"),
    rules=("EIP-02", "EXP-01"),
    explanation=(
        "JMS counts a time-to-live in milliseconds and MQMD.Expiry counts tenths of a second. A "
        "time-to-live of 0 means the message never expires, and a time-to-live given to send() "
        "applies to that message only. MQMD.Expiry is a 32-bit MQLONG, so it cannot hold more "
        "than 214 748 364.7 s: a longer time-to-live is put as MQEI_UNLIMITED, and the real "
        "expiration time travels only in the MQRFH2 (jms.Exp), where a JMS consumer reads it."
    ),
    hint=(
        "Convert milliseconds to tenths; remember what JMS means by a time-to-live of 0, and "
        "how large a number MQMD.Expiry can hold."
    ),
    confirm=(
        "{p.a_ms} ms became {a} tenths, 0 became MQEI_UNLIMITED, {p.c_words} {c} tenths; D's "
        "{p.d_years_words} years do not fit in MQMD.Expiry, so it is MQEI_UNLIMITED there and its "
        "JMSExpiration, {d_expiration} ms, is carried in the MQRFH2."
    ),
    misconceptions=(
        Misconception("milliseconds", "MQMD.Expiry counts tenths of a second: divide by 100."),
        Misconception(
            "zero",
            "In JMS a time-to-live of 0 means for ever, which MQ writes as MQEI_UNLIMITED (-1); "
            "an Expiry of 0 would be refused by MQPUT.",
        ),
        Misconception(
            "producer_only", "A time-to-live passed to send() overrides the producer's for it."
        ),
        Misconception(
            "too_long_kept",
            "MQMD.Expiry is an MQLONG (at most 2 147 483 647 tenths): a longer time-to-live is "
            "put as MQEI_UNLIMITED, with the real expiration in the MQRFH2.",
        ),
    ),
    variants=FourTimesToLive,
)


@dataclass(frozen=True)
class TwoLifetimes(Milliseconds):
    """q2: the link's latency (shorter than TimeToReachQueue), TimeToBeReceived, and when the
    message is got (after it arrives, before TimeToBeReceived is over); ms and whole seconds."""

    latency_ms: int = 500
    reach_ms: int = 2_000
    receive_ms: int = 10_000
    get_s: int = 5

    @classmethod
    def draw(cls, rng: Random) -> Self:
        latency_ms = 100 * rng.randrange(1, 30)
        reach_ms = 1_000 * rng.randrange(latency_ms // 1_000 + 1, 10)
        receive_s = rng.randrange(max(5, reach_ms // 1_000 + 1), 120)
        get_s = rng.randrange(latency_ms // 1_000 + 1, receive_s)
        return cls(latency_ms, reach_ms, 1_000 * receive_s, get_s)

    @property
    def latency_s(self) -> str:
        return f"{self.latency_ms / 1000:g}"

    @property
    def reach_s(self) -> str:
        return f"{self.reach_ms / 1000:g}"

    @property
    def receive_s(self) -> str:
        return f"{self.receive_ms / 1000:g}"


def _time_to_be_received(p: TwoLifetimes = TwoLifetimes()) -> Outcome:
    """.NET-style send from QM1 to APP.IN on QM2 over a channel that takes a little time."""
    sim = mq.Simulation()
    qm1 = mq.QueueManager("QM1", sim=sim)
    qm1.define_qlocal("QM2", usage="XMITQ")
    qm2 = mq.QueueManager("QM2", sim=sim)
    qm2.define_qlocal("APP.IN")
    channel = mq.Channel(qm1, qm2, xmitq="QM2", latency_ms=p.latency_ms)
    patterns.msmq_send(
        channel, "APP.IN", b"A", time_to_reach_queue=p.reach_ms, time_to_be_received=p.receive_ms
    )
    sim.advance(seconds=p.get_s)
    got_md = mq.MD()
    mq.Queue(qm2, "APP.IN").get(None, got_md)
    # the answer: got_md.Expiry
    arrived = next(e.time_ms for e in qm2.events if e.kind == "channel-arrive")
    ttbr_tenths = p.receive_ms // patterns.MS_PER_TENTH
    return Outcome(
        got_md.Expiry,
        {
            "from_arrival": ttbr_tenths - (sim.now - arrived) // patterns.MS_PER_TENTH,
            "unlimited": CMQC.MQEI_UNLIMITED,
            "got": got_md.Expiry,
        },
        Letters().story(qm1, qm2),
    )


q2 = Exercise(
    "nb07.q2",
    question=(
        "A is sent with TimeToReachQueue {p.reach_s} s and TimeToBeReceived {p.receive_s} s. It "
        "reaches APP.IN at {p.latency_s} s and is got there at {p.get_s} s. What Expiry does that "
        "get return?"
    ),
    scenario=_time_to_be_received,
    form=Number(example=100),  # 50 would be the answer itself
    rules=("EIP-03", "EXP-10"),
    explanation=(
        "TimeToReachQueue only bounds the trip to the destination queue. TimeToBeReceived bounds "
        "the whole life of the message, from the send, including the wait on the destination "
        "queue; the time spent on the way counts too."
    ),
    hint="Which of the two lifetimes still applies once A is on APP.IN, and from when is it counted?",
    confirm=(
        "TimeToBeReceived runs from the send: {p.get_s} s of the {p.receive_s} s are gone, {got} "
        "tenths are left."
    ),
    misconceptions=(
        Misconception(
            "from_arrival", "TimeToBeReceived is counted from the send, not the arrival."
        ),
        Misconception(
            "unlimited", "TimeToBeReceived still limits the wait on the destination queue."
        ),
    ),
    variants=TwoLifetimes,
)


def _around_unlimited() -> list[tuple[str, int]]:
    return [("A", 10), ("B", CMQC.MQEI_UNLIMITED), ("C", 10)]


@dataclass(frozen=True)
class AroundAnUnlimitedOne(Variant):
    """q3: three to nine messages in the order put (letters not in alphabetical order, so
    that which ones the get meets differs), their lifetimes (short ones, and unlimited ones), and
    the wait (seconds)."""

    SHOWN: ClassVar = {CMQC.MQEI_UNLIMITED: "CMQC.MQEI_UNLIMITED"}
    messages: list[tuple[str, int]] = field(default_factory=_around_unlimited)
    wait_s: int = 2

    @classmethod
    def draw(cls, rng: Random) -> Self:
        wait_s = rng.randrange(2, 60)
        lifetimes = around_the_first_live_one(
            rng, lambda: rng.randrange(1, 10 * wait_s - 9), lambda: CMQC.MQEI_UNLIMITED
        )
        order = rng.sample("ABCDEFGHI"[: len(lifetimes)], k=len(lifetimes))
        return cls(list(zip(order, lifetimes, strict=True)), wait_s)

    @property
    def lifetimes(self) -> str:
        """ "A 1 s, B unlimited, C 1 s": each message's lifetime, for the scenario's comment."""
        return ", ".join(
            f"{letter} {'unlimited' if expiry == CMQC.MQEI_UNLIMITED else seconds(expiry)}"
            for letter, expiry in self.messages
        )


def _dead_letter_channel(p: AroundAnUnlimitedOne = AroundAnUnlimitedOne()) -> Outcome:
    """A queue manager set to move expired messages to its dead-letter queue, not discard them."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN", msgdlvsq="FIFO")
    qm.define_qlocal("DLQ")
    qm.alter_qmgr(deadq="DLQ")
    qm.expired_action = "dead-letter"
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    for letter, expiry in p.messages:  # {p.lifetimes}
        letters.put(q, letter, mq.MD(Expiry=expiry))
    qm.sim.advance(seconds=p.wait_s)
    q.get()
    # the answer: the letters on DLQ
    dead = frozenset(letters.on_queue(qm, "DLQ"))
    still_expired = letters.on_queue(qm, "APP.IN", expired=True)
    order = [letter for letter, _ in p.messages]
    got = next(letter for letter in order if letter not in dead)
    return Outcome(
        dead,
        {
            "all_expired": dead | frozenset(still_expired),
            "discarded": frozenset(),
            "met": listing([letter for letter in order if letter in dead]),
            "got": got,
            "left": listing(list(still_expired)),
            "stays": plural(len(still_expired), "stays", "stay"),
            "left_it": plural(len(still_expired), "it", "them"),
        },
        letters.story(qm),
    )


q3 = Exercise(
    "nb07.q3",
    question=(
        "This queue manager moves expired messages to its dead-letter queue instead of "
        "discarding them. After the get, which messages are on DLQ?"
    ),
    scenario=_dead_letter_channel,
    form=LetterSet(),
    rules=("EIP-04", "EXP-22"),
    explanation=(
        "Moving an expired message to a Dead Letter Channel happens where a discard would have "
        "happened, and nowhere else: a get on a FIFO queue discards the expired messages in "
        "front of the first live one and leaves the ones behind it where they are."
    ),
    hint="Which messages does the get come across before it finds a live one?",
    confirm="The get met {met} on its way to {got}; {left}, behind {got}, {stays} on APP.IN, "
    "expired.",
    misconceptions=(
        Misconception(
            "all_expired",
            "{left} expired too, but nothing has met {left_it}: {left} {stays} on APP.IN.",
        ),
        Misconception(
            "discarded",
            "IBM MQ discards expired messages, but this queue manager is set to dead-letter them.",
        ),
    ),
    variants=AroundAnUnlimitedOne,
)


def _desks_a_to_c() -> list[tuple[str, int | None]]:
    return [("A", 1), ("B", None), ("C", 6)]


@dataclass(frozen=True)
class DeskReads(Variant):
    """q4: the price's lifetime (whole seconds) and three to seven desks, each reading its
    queue once before the end, once after it, or never (None); at least one reads after the end
    and at least one never reads, so a report is sent and an expired copy stays unreported."""

    expiry: int = 50
    desks: list[tuple[str, int | None]] = field(default_factory=_desks_a_to_c)

    @classmethod
    def draw(cls, rng: Random) -> Self:
        lifetime_s = rng.randrange(2, 120)
        count = rng.randrange(3, 8)
        late = rng.randrange(1, count)
        never = rng.randrange(1, count - late + 1)
        reads: list[int | None] = [
            *(rng.randrange(1, lifetime_s) for _ in range(count - late - never)),
            *(rng.randrange(lifetime_s + 1, lifetime_s + 60) for _ in range(late)),
            *([None] * never),
        ]
        rng.shuffle(reads)
        return cls(10 * lifetime_s, list(zip("ABCDEFG", reads, strict=False)))

    @property
    def expiry_s(self) -> str:
        return seconds(self.expiry)

    @property
    def reads(self) -> list[tuple[str, int]]:
        """The desks that read, in the order of their reads (seconds after the publish)."""
        return sorted(
            ((desk, read_s) for desk, read_s in self.desks if read_s is not None),
            key=lambda read: read[1],
        )

    @property
    def last_s(self) -> int:
        return self.reads[-1][1]

    @property
    def count_words(self) -> str:
        return number_words(len(self.desks)).capitalize()

    @property
    def schedule(self) -> str:
        """ "A at 1 s, C at 6 s; B never": when each desk reads, for the scenario's comment."""
        never = [desk for desk, read_s in self.desks if read_s is None]
        reads = ", ".join(f"{desk} at {read_s} s" for desk, read_s in self.reads)
        return f"{reads}; {listing(never)} never"


def _desks_whose(desks: list[str], thing: str, things: str) -> str:
    """ "Desk C's get", "The gets of desks C and E": the desks' things, to start a sentence."""
    if len(desks) == 1:
        return f"Desk {desks[0]}'s {thing}"
    return f"The {things} of desks {listing(desks)}"


def _copies_expire_alone(p: DeskReads = DeskReads()) -> Outcome:
    """One subscription per desk to one topic string; each desk reads its queue once in its time,
    or never. The expiry task is off, so no background scan discards a copy (true on a real
    queue manager with ExpiryInterval 0, not only in mqlearn: issue 24)."""
    qm = mq.QueueManager("QM1")
    qm.alter_qmgr(expryint=0)  # the expiry task is off: no background scan
    qm.define_qlocal("REPLY.Q")
    for desk, _ in p.desks:
        qm.define_qlocal(f"DESK.{desk}")
        qm.define_sub(desk, topicstr="prices/eur", dest=f"DESK.{desk}")
    md = mq.MD(Expiry=p.expiry, Report=CMQC.MQRO_EXPIRATION, ReplyToQ="REPLY.Q")  # {p.expiry_s}
    Topic(qm, topic_string="prices/eur").pub(b"1.08", md)
    for desk, read_s in p.reads:  # {p.schedule}
        qm.sim.advance(ms=1000 * read_s - qm.sim.now)
        get_reason(mq.Queue(qm, f"DESK.{desk}"))
    # the answer: qm.curdepth("REPLY.Q")
    unread = [d for d, _ in p.desks if int(qm.queue_frame(f"DESK.{d}")["expired"].sum())]
    late = [desk for desk, read_s in p.reads if read_s * 10 > p.expiry]
    return Outcome(
        qm.curdepth("REPLY.Q"),
        {
            "every_expired_copy": len(unread) + qm.curdepth("REPLY.Q"),
            "one_message": 0,
            "late_gets": _desks_whose(late, "get", "gets"),
            "unread_copies": _desks_whose(unread, "copy", "copies"),
            "met": plural(len(late), "met", "each met"),
            "wait": plural(len(unread), "waits", "wait"),
            "them": plural(len(unread), "it", "them"),
        },
        Letters().story(qm),
    )


q4 = Exercise(
    "nb07.q4",
    question=(
        "A price is published with a {p.expiry_s} lifetime and an expiration report requested. "
        "{p.count_words} subscriptions each put a copy on their desk's queue, and the queue "
        "manager's expiry task is off. Each desk gets from its queue once, at the time shown, or "
        "never. At {p.last_s} s, how many expiration reports are on REPLY.Q?"
    ),
    scenario=_copies_expire_alone,
    form=Number(example=0),
    rules=("EIP-05", "RPT-02"),
    explanation=(
        "Each subscriber gets its own copy, an ordinary message with its own MsgId on its own "
        "queue: each copy expires on its own, and sends its own report at the moment it is "
        "discarded, which is not the moment it expires."
    ),
    hint="For each desk: was its copy got, discarded, or neither?",
    confirm=(
        "{late_gets} {met} an expired copy and discarded it: one report a copy. "
        "{unread_copies} {wait}, expired and silent."
    ),
    misconceptions=(
        Misconception(
            "every_expired_copy",
            "{unread_copies} expired too, but nothing has discarded {them} yet: no report.",
        ),
        Misconception(
            "one_message",
            "The desks that read in time consumed their own copies, but the copies are separate "
            "messages: each one a get finds expired is discarded and reports on its own.",
        ),
    ),
    variants=DeskReads,
    teaches=lambda outcome: outcome.number() >= 1,
)


@dataclass(frozen=True)
class Unserved(Milliseconds):
    """q5: the request's lifetime (whole seconds) and the requester's timeout (longer, whole
    seconds); the expiry task is off, so no scan discards the request and sends its report."""

    timeout_ms: int = 10_000
    expiry: int = 20

    @classmethod
    def draw(cls, rng: Random) -> Self:
        expiry_s = rng.randrange(1, 30)
        return cls(1_000 * rng.randrange(expiry_s + 1, 120), 10 * expiry_s)

    @property
    def expiry_s(self) -> str:
        return seconds(self.expiry)

    @property
    def timeout_s(self) -> str:
        return f"{self.timeout_ms / 1000:g}"


def _nobody_serves(p: Unserved = Unserved()) -> Outcome:
    """A request that asks for an expiration report; the program serving SERVICE.IN is down and
    the expiry task is off (so the answer holds on a real queue manager too: issue 24)."""
    qm = mq.QueueManager("QM1")
    qm.alter_qmgr(expryint=0)  # the expiry task is off: no background scan
    qm.define_qlocal("SERVICE.IN")
    qm.define_qlocal("REPLY.Q")
    requester = patterns.Requester(
        qm,
        "SERVICE.IN",
        "REPLY.Q",
        timeout_ms=p.timeout_ms,
        expiry=p.expiry,  # the request lives {p.expiry_s}
        report=CMQC.MQRO_EXPIRATION,
    )
    outcome = requester.request(b"quote EUR")
    # the answer: (outcome.waited_ms // 1000, qm.curdepth("REPLY.Q")), once request() returns
    waited_s = outcome.waited_ms // 1000
    return Outcome(
        (waited_s, qm.curdepth("REPLY.Q")),
        {
            "hoped_for": (p.expiry // 10, 1),
            "late_report": (waited_s, 1),
            "status": outcome.status,
            "waited": waited_s,
        },
        Letters().story(qm),
    )


q5 = Exercise(
    "nb07.q5",
    question=(
        "The requester waits up to {p.timeout_s} s for the reply or for the request's expiration "
        "report; the queue manager's expiry task is off. How many seconds does request() wait "
        "before it comes back, and how many messages are on REPLY.Q then? Answer (seconds, "
        "messages)."
    ),
    scenario=_nobody_serves,
    form=Numbers("the seconds request() waits", "the messages on REPLY.Q"),
    rules=("EIP-06", "RPT-02"),
    explanation=(
        "A requester must be ready for silence. An expiration report is only sent when the "
        "expired request is discarded, and a discard needs a get, a browse or a background scan "
        "to come across the message."
    ),
    hint="The request expires at {p.expiry_s}. What could discard it while the requester waits?",
    confirm=(
        "Nothing touched SERVICE.IN, so the expired request was never discarded and never "
        "reported: request() comes back '{status}' after {waited} s, and the requester knows "
        "nothing."
    ),
    misconceptions=(
        Misconception(
            "hoped_for",
            "The request did expire at {p.expiry_s}, but nothing discarded it, so no report was "
            "sent and nothing ended the wait early.",
        ),
        Misconception(
            "late_report",
            "The requester did wait its whole timeout, but expiry alone sends nothing: the "
            "report would be sent when something discarded the request, and nothing did.",
        ),
    ),
    variants=Unserved,
)
