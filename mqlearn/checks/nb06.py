"""Notebook 06 (remote queues): MQXQH's two Expiry fields, expiry in transit, dead letters."""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random
from typing import Self

import mqlearn as mq
from mqlearn import CMQC
from mqlearn.checks.answers import Number, Numbers
from mqlearn.checks.exercise import Exercise, Misconception, Outcome
from mqlearn.checks.lab import Letters
from mqlearn.checks.variants import Variant
from mqlearn.checks.wording import capitalized, duration_words, listing, plural, seconds


@dataclass(frozen=True)
class TwoFields(Variant):
    """q1: the outer and the (shorter) embedded Expiry, and a wait (whole seconds) that outlasts
    the embedded one but not the outer one."""

    outer: int = 100
    embedded: int = 50
    wait_s: int = 6

    @classmethod
    def draw(cls, rng: Random) -> Self:
        embedded_s = rng.randrange(1, 60)
        wait_s = rng.randrange(embedded_s + 1, embedded_s + 30)
        return cls(10 * rng.randrange(wait_s + 1, wait_s + 120), 10 * embedded_s, wait_s)

    @property
    def wait_words(self) -> str:
        return capitalized(duration_words(10 * self.wait_s))

    @property
    def wait_tenths(self) -> int:
        return 10 * self.wait_s


def _two_expiry_fields(p: TwoFields = TwoFields()) -> Outcome:
    """An application puts straight to a transmission queue: a longer outer Expiry, a shorter
    embedded one."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("QM2", usage="XMITQ")  # no channel: the message stays here
    xqh = mq.MQXQH(RemoteQName="APP.IN", RemoteQMgrName="QM2", MsgDesc=mq.MD(Expiry=p.embedded))
    outer = mq.MD(Expiry=p.outer, Format=CMQC.MQFMT_XMIT_Q_HEADER)
    mq.Queue(qm, "QM2").put(xqh.pack() + b"A", outer)
    qm.sim.advance(seconds=p.wait_s)
    got_md = mq.MD()
    data = mq.Queue(qm, "QM2").get(None, got_md)
    embedded = mq.MQXQH.unpack(data).MsgDesc.Expiry
    # the answer: (got_md.Expiry, embedded)
    waited = qm.sim.now // 100
    return Outcome(
        (got_md.Expiry, embedded),
        {
            "untouched": (got_md.Expiry, xqh.MsgDesc.Expiry),
            "unclamped": (got_md.Expiry, xqh.MsgDesc.Expiry - waited),
            "outer": got_md.Expiry,
        },
    )


q1 = Exercise(
    "nb06.q1",
    question=(
        "{p.wait_words} later the message is got from the transmission queue. What are the outer "
        "MQMD's Expiry and the Expiry inside the MQXQH? Answer (outer, embedded)."
    ),
    scenario=_two_expiry_fields,
    form=Numbers("outer", "embedded"),
    rules=("XQH-03", "XQH-04", "XQH-05"),
    explanation=(
        "When a message with an MQXQH is retrieved, both Expiry fields lose the time it waited. "
        "Only the outer one decides whether the message has expired; if the embedded one has "
        "run out while the outer one has not, the embedded one reads 0, never less."
    ),
    hint=(
        "Subtract {p.wait_s} s ({p.wait_tenths} tenths) from both fields. Can the embedded field "
        "go negative?"
    ),
    confirm="The outer field ({outer}) kept the message alive; the embedded one stopped at 0.",
    misconceptions=(
        Misconception("untouched", "The embedded Expiry is decremented on retrieval too."),
        Misconception("unclamped", "An embedded Expiry that has run out reads 0, not less."),
    ),
    variants=TwoFields,
)


def _linked(latency_ms: int, running: bool) -> tuple[mq.QueueManager, mq.QueueManager, mq.Channel]:
    """QM1 and QM2 on one clock, a channel QM1 -> QM2, two remote queues defined on QM1."""
    sim = mq.Simulation()
    qm1 = mq.QueueManager("QM1", sim=sim)
    qm1.define_qlocal("QM2", usage="XMITQ")
    qm1.define_qlocal("REPLY.Q")
    qm1.define_qremote("TO.APP", rname="APP.IN", rqmname="QM2")
    qm1.define_qremote("TO.NOWHERE", rname="NO.SUCH.Q", rqmname="QM2")
    qm2 = mq.QueueManager("QM2", sim=sim)
    qm2.define_qlocal("APP.IN")
    qm2.define_qlocal("DLQ")
    qm2.alter_qmgr(deadq="DLQ")
    channel = mq.Channel(qm1, qm2, xmitq="QM2", latency_ms=latency_ms)
    if not running:
        channel.stop()
    return qm1, qm2, channel


def _one_short() -> list[tuple[str, int]]:
    return [("A", 100)]


@dataclass(frozen=True)
class StoppedTooLong(Variant):
    """q2: the channel's latency, one to four messages and their lifetimes (whole seconds; at
    least one over before the channel starts, the others outliving the whole scenario), how
    long the channel stays stopped, and how long it then runs."""

    latency_ms: int = 200
    messages: list[tuple[str, int]] = field(default_factory=_one_short)
    stopped_s: int = 15
    running_s: int = 1

    @classmethod
    def draw(cls, rng: Random) -> Self:
        latency_ms = rng.choice([0, 100, 200, 500, 100 * rng.randrange(1, 30)])
        stopped_s = rng.randrange(2, 240)
        running_s = rng.randrange(1 + latency_ms // 1000, 10)
        short = [True] + [rng.random() < 0.5 for _ in range(rng.randrange(0, 4))]
        rng.shuffle(short)
        lifetimes = [
            rng.randrange(1, stopped_s) if over else rng.randrange(stopped_s + running_s + 1, 600)
            for over in short
        ]
        messages = [
            (letter, 10 * lifetime) for letter, lifetime in zip("ABCD", lifetimes, strict=False)
        ]
        return cls(latency_ms, messages, stopped_s, running_s)

    @property
    def lifetimes(self) -> str:
        """ "A 10 s": each message's lifetime, for the scenario's comment."""
        return ", ".join(f"{letter} {seconds(expiry)}" for letter, expiry in self.messages)


def _expires_in_transit(p: StoppedTooLong = StoppedTooLong()) -> Outcome:
    """The channel is stopped while short-lived messages wait on the transmission queue."""
    qm1, qm2, channel = _linked(latency_ms=p.latency_ms, running=False)
    letters = Letters()
    for letter, expiry in p.messages:  # {p.lifetimes}
        md = mq.MD(Expiry=expiry, Report=CMQC.MQRO_EXPIRATION, ReplyToQ="REPLY.Q")
        letters.put(mq.Queue(qm1, "TO.APP"), letter, md)
    qm1.sim.advance(seconds=p.stopped_s)
    channel.start()
    qm1.sim.advance(seconds=p.running_s)
    # the answer: (CURDEPTH of APP.IN on QM2, CURDEPTH of REPLY.Q on QM1)
    arrived = qm2.curdepth("APP.IN")
    discarded = sorted(letters.seen(qm1, "discard"))
    return Outcome(
        (arrived, qm1.curdepth("REPLY.Q")),
        {
            "delivered": (len(p.messages), 0),
            "silent": (arrived, 0),
            "discarded": len(discarded),
            "expired": listing(discarded),
            "was": plural(len(discarded), "was", "were"),
            "its": plural(len(discarded), "its report", "their reports"),
        },
        letters.story(qm1, qm2),
    )


q2 = Exercise(
    "nb06.q2",
    question=(
        "When the channel starts again, what are CURDEPTH of APP.IN on QM2 and CURDEPTH of "
        "REPLY.Q on QM1? Answer (APP.IN depth, REPLY.Q depth)."
    ),
    scenario=_expires_in_transit,
    form=Numbers("APP.IN depth", "REPLY.Q depth"),
    rules=("XQH-06", "EXP-10"),
    explanation=(
        "Time on a transmission queue counts against the lifetime like time anywhere else; a "
        "message can expire there, and the channel discards it when it meets it, sending the "
        "requested report back towards the reply-to queue manager."
    ),
    hint="The messages waited {p.stopped_s} s on QM1's transmission queue: {p.lifetimes}.",
    confirm="{expired} {was} discarded on QM1's transmission queue; {its} went to QM1's REPLY.Q.",
    helpers=(_linked,),
    misconceptions=(
        Misconception("delivered", "{expired} expired while waiting on the transmission queue."),
        Misconception("silent", "Each message asked for an expiration report; a discard sends it."),
    ),
    variants=StoppedTooLong,
    teaches=lambda outcome: outcome.number("discarded") > 0,
)


@dataclass(frozen=True)
class SlowLink(Variant):
    """q3: the lifetime, the link's latency (ms), and when the get comes: after the arrival,
    before the end of the lifetime; all on whole tenths, so no rounding is involved."""

    expiry: int = 100
    latency_ms: int = 2500
    get_after_s: float = 3

    @classmethod
    def draw(cls, rng: Random) -> Self:
        expiry = 10 * rng.randrange(5, 60)
        latency_ms = 100 * rng.randrange(3, expiry // 2)
        return cls(expiry, latency_ms, rng.randrange(latency_ms // 100 + 1, expiry) / 10)

    @property
    def latency_s(self) -> str:
        return f"{self.latency_ms / 1000:g}"

    @property
    def get_s(self) -> str:
        return f"{self.get_after_s:g}"

    @property
    def expiry_s(self) -> str:
        return f"{self.expiry / 10:g}"


def _transit_time(p: SlowLink = SlowLink()) -> Outcome:
    """A short-lived message crosses a slow link and is got a little after it arrives."""
    qm1, qm2, _ = _linked(latency_ms=p.latency_ms, running=True)
    put_md = Letters().put(mq.Queue(qm1, "TO.APP"), "A", mq.MD(Expiry=p.expiry))
    qm1.sim.advance(seconds=p.get_after_s)
    got_md = mq.MD()
    mq.Queue(qm2, "APP.IN").get(None, got_md)
    # the answer: got_md.Expiry
    arrived = next(e.time_ms for e in qm2.events if e.kind == "channel-arrive")
    on_destination = (qm1.sim.now - arrived) // 100
    return Outcome(
        got_md.Expiry,
        {
            "transit_free": put_md.Expiry - on_destination,
            "as_put": put_md.Expiry,
            "got": got_md.Expiry,
        },
    )


q3 = Exercise(
    "nb06.q3",
    question=(
        "In mqlearn, which counts the time on the link too, A is put to the remote queue at "
        "0 s, arrives on QM2 at {p.latency_s} s and is got there at {p.get_s} s. What Expiry does "
        "that get return?"
    ),
    scenario=_transit_time,
    form=Number(example=95),
    rules=("EXP-10",),
    explanation=(
        "The lifetime is used up on the transmission queue and on the destination queue. IBM "
        "allows a channel agent to take off the time on the link too, when it is significant, "
        "and lets it ignore small intervals; mqlearn keeps the message's deadline across the "
        "link, so the time on the way always counts."
    ),
    hint="Count every second since the put, not only the time on QM2.",
    confirm=(
        "{p.get_s} s of the {p.expiry_s} s are gone, wherever they were spent: {got} tenths are "
        "left."
    ),
    helpers=(_linked,),
    misconceptions=(
        Misconception(
            "transit_free",
            "A real channel agent may leave the link out, but in mqlearn the {p.latency_s} s on "
            "the way count as well.",
        ),
        Misconception("as_put", "The get returns what is left, not the put's value."),
    ),
    variants=SlowLink,
)


@dataclass(frozen=True)
class DeadLetterWait(Variant):
    """q4: the lifetime and when the dead letter is got (whole seconds, before its end)."""

    expiry: int = 300
    wait_s: int = 10

    @classmethod
    def draw(cls, rng: Random) -> Self:
        lifetime_s = rng.randrange(2, 300)
        return cls(10 * lifetime_s, rng.randrange(1, lifetime_s))

    @property
    def expiry_s(self) -> str:
        return seconds(self.expiry)

    @property
    def wait_words(self) -> str:
        return capitalized(duration_words(10 * self.wait_s))


def _dead_letter_expiry(p: DeadLetterWait = DeadLetterWait()) -> Outcome:
    """The remote definition names a queue QM2 does not have; QM2 has a dead-letter queue."""
    qm1, qm2, _ = _linked(latency_ms=0, running=True)  # no time on the link: see q3
    put_md = Letters().put(mq.Queue(qm1, "TO.NOWHERE"), "A", mq.MD(Expiry=p.expiry))  # {p.expiry_s}
    qm1.sim.advance(seconds=p.wait_s)
    dead_md = mq.MD()
    mq.Queue(qm2, "DLQ").get(None, dead_md)
    # the answer: dead_md.Expiry
    return Outcome(
        dead_md.Expiry,
        {"unlimited": CMQC.MQEI_UNLIMITED, "as_put": put_md.Expiry, "got": dead_md.Expiry},
    )


q4 = Exercise(
    "nb06.q4",
    question=(
        "QM2 cannot deliver A and puts it on its dead-letter queue. {p.wait_words} after the put, "
        "what Expiry does a get from QM2's DLQ return?"
    ),
    scenario=_dead_letter_expiry,
    form=Number(example=-1),
    rules=("DLQ-01", "EXP-10"),
    explanation=(
        "A message moved to the dead-letter queue (behind an MQDLH) keeps what is left of its "
        "lifetime, and that keeps counting down on the dead-letter queue."
    ),
    hint="The dead-letter queue does not reset the clock, and does not stop it either.",
    confirm=(
        "{p.wait_s} s of A's {p.expiry_s} are gone: {got} tenths left, and it can still expire on "
        "the DLQ."
    ),
    helpers=(_linked,),
    misconceptions=(
        Misconception("unlimited", "A dead letter is not given a new, unlimited lifetime."),
        Misconception("as_put", "The clock did not start again on the DLQ."),
    ),
    variants=DeadLetterWait,
)
