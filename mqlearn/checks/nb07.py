"""Notebook 07 (expiry across systems): JMS TTL, .NET lifetimes, dead letters, pub/sub, requests."""

from __future__ import annotations

import mqlearn as mq
from mqlearn import CMQC, patterns
from mqlearn.checks.answers import Choice, LetterSet, Number, Numbers
from mqlearn.checks.exercise import Exercise, Misconception, Outcome
from mqlearn.checks.lab import Letters, get_reason
from mqlearn.engine import Topic


def _jms_time_to_live() -> Outcome:
    """A JMS producer with setTimeToLive(2500) sends four messages to an IBM MQ queue."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    producer = patterns.JmsProducer(qm, "APP.IN", time_to_live=2_500)
    a = producer.send(b"A")  # the producer's time-to-live
    b = producer.send(b"B", time_to_live=0)  # for this send only
    c = producer.send(b"C", time_to_live=60_000)  # for this send only: one minute
    d = producer.send(b"D", time_to_live=250_000_000_000)  # for this send only: about 8 years
    # the answer: (a.md.Expiry, b.md.Expiry, c.md.Expiry, d.md.Expiry)
    sent = (a, b, c, d)
    expiries = tuple(m.md.Expiry for m in sent)
    ttls = (producer.time_to_live, 0, 60_000, 250_000_000_000)
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
        "2 500 ms became {a} tenths, 0 became MQEI_UNLIMITED, one minute {c} tenths; D's eight "
        "years do not fit in MQMD.Expiry, so it is MQEI_UNLIMITED there and its JMSExpiration, "
        "{d_expiration} ms, is carried in the MQRFH2."
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
)


def _time_to_be_received() -> Outcome:
    """.NET-style send from QM1 to APP.IN on QM2 over a channel that takes 0.5 s."""
    sim = mq.Simulation()
    qm1 = mq.QueueManager("QM1", sim=sim)
    qm1.define_qlocal("QM2", usage="XMITQ")
    qm2 = mq.QueueManager("QM2", sim=sim)
    qm2.define_qlocal("APP.IN")
    channel = mq.Channel(qm1, qm2, xmitq="QM2", latency_ms=500)
    patterns.msmq_send(
        channel, "APP.IN", b"A", time_to_reach_queue=2_000, time_to_be_received=10_000
    )
    sim.advance(seconds=5)
    got_md = mq.MD()
    mq.Queue(qm2, "APP.IN").get(None, got_md)
    # the answer: got_md.Expiry
    arrived = next(e.time_ms for e in qm2.events if e.kind == "channel-arrive")
    ttbr_tenths = 10_000 // patterns.MS_PER_TENTH
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
        "A is sent with TimeToReachQueue 2 s and TimeToBeReceived 10 s. It reaches APP.IN at "
        "0.5 s and is got there at 5 s. What Expiry does that get return?"
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
    confirm="TimeToBeReceived runs from the send: 5 s of the 10 s are gone, {got} tenths are left.",
    misconceptions=(
        Misconception(
            "from_arrival", "TimeToBeReceived is counted from the send, not the arrival."
        ),
        Misconception(
            "unlimited", "TimeToBeReceived still limits the wait on the destination queue."
        ),
    ),
)


def _dead_letter_channel() -> Outcome:
    """A queue manager set to move expired messages to its dead-letter queue, not discard them."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN", msgdlvsq="FIFO")
    qm.define_qlocal("DLQ")
    qm.alter_qmgr(deadq="DLQ")
    qm.expired_action = "dead-letter"
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    letters.put(q, "A", mq.MD(Expiry=10))  # 1 s
    letters.put(q, "B")  # unlimited
    letters.put(q, "C", mq.MD(Expiry=10))  # 1 s
    qm.sim.advance(seconds=2)
    q.get()
    # the answer: the letters on DLQ
    dead = frozenset(letters.on_queue(qm, "DLQ"))
    still_expired = frozenset(letters.on_queue(qm, "APP.IN", expired=True))
    return Outcome(
        dead, {"all_expired": dead | still_expired, "discarded": frozenset()}, letters.story(qm)
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
    confirm="The get met A on its way to B; C, behind B, stays on APP.IN, expired.",
    misconceptions=(
        Misconception(
            "all_expired", "C expired too, but nothing has met it: it is still on APP.IN."
        ),
        Misconception(
            "discarded",
            "IBM MQ discards expired messages, but this queue manager is set to dead-letter them.",
        ),
    ),
)


def _copies_expire_alone() -> Outcome:
    """Three subscriptions to one topic string; each desk reads its queue (or not) in its time."""
    qm = mq.QueueManager("QM1")
    for queue in ("DESK.A", "DESK.B", "DESK.C", "REPLY.Q"):
        qm.define_qlocal(queue)
    for desk in "ABC":
        qm.define_sub(desk, topicstr="prices/eur", dest=f"DESK.{desk}")
    md = mq.MD(Expiry=50, Report=CMQC.MQRO_EXPIRATION, ReplyToQ="REPLY.Q")  # 5 s
    Topic(qm, topic_string="prices/eur").pub(b"1.08", md)
    qm.sim.advance(seconds=1)
    get_reason(mq.Queue(qm, "DESK.A"))  # desk A reads at 1 s
    qm.sim.advance(seconds=5)
    get_reason(mq.Queue(qm, "DESK.C"))  # desk C reads at 6 s; desk B never reads
    # the answer: qm.curdepth("REPLY.Q")
    undiscarded = sum(int(qm.queue_frame(f"DESK.{desk}")["expired"].sum()) for desk in "ABC")
    return Outcome(
        qm.curdepth("REPLY.Q"),
        {"every_expired_copy": undiscarded + qm.curdepth("REPLY.Q"), "one_message": 0},
        Letters().story(qm),
    )


q4 = Exercise(
    "nb07.q4",
    question=(
        "A price is published with a 5 s lifetime and an expiration report requested. Three "
        "subscriptions each put a copy on their desk's queue. At 6 s, how many expiration "
        "reports are on REPLY.Q?"
    ),
    scenario=_copies_expire_alone,
    form=Number(example=2),
    rules=("EIP-05", "RPT-02"),
    explanation=(
        "Each subscriber gets its own copy, an ordinary message with its own MsgId on its own "
        "queue: each copy expires on its own, and sends its own report at the moment it is "
        "discarded, which is not the moment it expires."
    ),
    hint="For each desk: was its copy got, discarded, or neither?",
    confirm="Only desk C's get met an expired copy; desk B's copy waits, expired and silent.",
    misconceptions=(
        Misconception(
            "every_expired_copy",
            "Desk B's copy has expired, but nothing has discarded it yet, so it has not reported.",
        ),
        Misconception(
            "one_message",
            "Desk A consumed its copy, but the other copies are separate messages.",
        ),
    ),
)


def _nobody_serves() -> Outcome:
    """A request that asks for an expiration report; the program serving SERVICE.IN is down."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("SERVICE.IN")
    qm.define_qlocal("REPLY.Q")
    requester = patterns.Requester(
        qm,
        "SERVICE.IN",
        "REPLY.Q",
        timeout_ms=10_000,
        expiry=20,  # the request lives 2 s
        report=CMQC.MQRO_EXPIRATION,
    )
    outcome = requester.request(b"quote EUR")
    # the answer: outcome.status
    return Outcome(
        outcome.status,
        {"hoped_for": "expired", "waited": outcome.waited_ms / 1000},
        Letters().story(qm),
    )


q5 = Exercise(
    "nb07.q5",
    question=(
        "The requester waits up to 10 s for the reply or for the request's expiration report. "
        "What does request() come back with: 'reply', 'expired' or 'timeout'?"
    ),
    scenario=_nobody_serves,
    form=Choice(["reply", "expired", "timeout"]),
    rules=("EIP-06", "RPT-02"),
    explanation=(
        "A requester must be ready for silence. An expiration report is only sent when the "
        "expired request is discarded, and a discard needs a get, a browse or a background scan "
        "to come across the message."
    ),
    hint="The request expires at 2 s. What could discard it while the requester waits?",
    confirm=(
        "Nothing touched SERVICE.IN, so the expired request was never discarded and never "
        "reported: after {waited:.0f} s the requester knows nothing."
    ),
    misconceptions=(
        Misconception(
            "hoped_for",
            "The request did expire at 2 s, but nothing discarded it, so no report was sent.",
        ),
    ),
)
