"""Notebook 08 (real MQ files): dmpmqmsg dumps reloaded, dead letters unloaded, MQSC on expiry."""

from __future__ import annotations

import re
from dataclasses import dataclass
from random import Random
from typing import ClassVar, Self

import mqlearn as mq
from mqlearn import CMQC, patterns
from mqlearn.checks.answers import Number, Numbers
from mqlearn.checks.exercise import Exercise, Misconception, Outcome
from mqlearn.checks.lab import Letters
from mqlearn.checks.variants import Variant
from mqlearn.checks.wording import listing, number_words, plural, seconds
from mqlearn.interop import dump_dmpmqmsg, load_dmpmqmsg, parse_dmpmqmsg

TENTHS_PER_S = 10  # MQMD.Expiry counts tenths of a second
_CURDEPTH = re.compile(r"CURDEPTH\((\d+)\)")


def _order_dump(*expiries: int) -> str:
    """A dmpmqmsg file with one order per Expiry value (the other A lines keep MQMD's initial
    values, as a file without them would)."""
    lines = ["* DMPMQMSG Version:10.0.0.0 Created:Thu Jan  1 08:59:00 2026", ""]
    for number, expiry in enumerate(expiries, start=1):
        lines += [f"A FMT {CMQC.MQFMT_STRING}", f"A EXP {expiry}", f'S "order {number}"', ""]
    return "\n".join(lines)


def _curdepths(mqsc_output: str) -> tuple[int, ...]:
    """Every CURDEPTH(n) that runmqsc printed, in order."""
    return tuple(int(depth) for depth in _CURDEPTH.findall(mqsc_output))


@dataclass(frozen=True)
class Reload(Variant):
    """q1: the lifetime, and three waits (whole seconds): before the unload, of the file, and
    after the load; the message outlives the unload and the wait after the load."""

    expiry: int = 900
    unload_s: int = 20
    file_s: int = 30
    after_s: int = 15

    @classmethod
    def draw(cls, rng: Random) -> Self:
        lifetime_s = rng.randrange(20, 280)
        unload_s = rng.randrange(1, lifetime_s - 10)
        after_s = rng.randrange(1, lifetime_s - unload_s)
        return cls(10 * lifetime_s, unload_s, rng.randrange(1, 300 - unload_s - after_s), after_s)

    @property
    def expiry_s(self) -> str:
        return seconds(self.expiry)


def _reloaded(p: Reload = Reload()) -> Outcome:
    """PROD and TEST share one clock; a dump of PROD's queue waits before it is loaded."""
    sim = mq.Simulation()
    prod = mq.QueueManager("PROD", sim=sim)
    prod.define_qlocal("APP.ORDERS")
    test = mq.QueueManager("TEST", sim=sim)
    test.define_qlocal("APP.ORDERS")
    put_md = mq.MD(Expiry=p.expiry)  # {p.expiry_s}
    mq.Queue(prod, "APP.ORDERS").put(b"order 1", put_md)
    sim.advance(seconds=p.unload_s)
    dump = dump_dmpmqmsg(prod, "APP.ORDERS", browse=False)  # unload: the queue is emptied
    sim.advance(seconds=p.file_s)
    load_dmpmqmsg(test, "APP.ORDERS", dump)
    sim.advance(seconds=p.after_s)
    browsed = mq.MD()
    browse = mq.GMO(Options=CMQC.MQGMO_BROWSE_FIRST | CMQC.MQGMO_NO_WAIT)
    mq.Queue(test, "APP.ORDERS").get(None, browsed, browse)
    # the answer: browsed.Expiry
    in_file = parse_dmpmqmsg(dump)[0].md.Expiry
    put_ms = next(e.time_ms for e in prod.events if e.kind == "put")
    loaded_ms = next(e.time_ms for e in test.events if e.kind == "put")
    since_put = (sim.now - put_ms) // patterns.MS_PER_TENTH
    since_load = (sim.now - loaded_ms) // patterns.MS_PER_TENTH
    return Outcome(
        browsed.Expiry,
        {
            "in_file": in_file,
            "since_load": since_load,
            "original_deadline": put_md.Expiry - since_put,
            "original_restarted": put_md.Expiry - since_load,
            "browsed": browsed.Expiry,
        },
        Letters().story(prod, test),
    )


q1 = Exercise(
    "nb08.q1",
    question=(
        "A message put on PROD with Expiry {p.expiry} ({p.expiry_s}) is unloaded with dmpmqmsg "
        "{p.unload_s} s later. The file waits {p.file_s} s, is loaded onto TEST, and {p.after_s} s "
        "after the load the message is browsed there. What Expiry does the browse return?"
    ),
    scenario=_reloaded,
    form=Number(example=300),
    rules=("EXP-01", "EXP-11"),
    explanation=(
        "dmpmqmsg writes each message's Expiry as MQGET returned it: the lifetime left at "
        "unload. Loading puts the message with that value, and a put starts a lifetime: it "
        "counts from the load, on the loading queue manager's clock. Nothing in the file "
        "remembers the original deadline, and the time the file spent waiting does not count."
    ),
    hint="Read the A EXP line the unload wrote, then let only the time since the load run off.",
    confirm=(
        "The file said A EXP {in_file}; {since_load} tenths have passed since the load, so "
        "{browsed} are left."
    ),
    misconceptions=(
        Misconception(
            "in_file",
            "The loaded message's lifetime runs on: 15 s have passed since the load.",
        ),
        Misconception(
            "original_deadline",
            "The original deadline is not in the file: the load starts a new lifetime from "
            "what was left at unload.",
        ),
        Misconception(
            "original_restarted",
            "The file holds the lifetime left at unload (A EXP), not the {p.expiry} the putter "
            "chose.",
        ),
    ),
    variants=Reload,
)


@dataclass(frozen=True)
class StoppedThenDumped(Variant):
    """q2: the lifetime, how long the channel is stopped, and how long after that the dead
    letter queue is dumped (whole seconds, all within the lifetime)."""

    expiry: int = 300
    stopped_s: int = 5
    later_s: int = 5

    @classmethod
    def draw(cls, rng: Random) -> Self:
        lifetime_s = rng.randrange(10, 290)
        stopped_s = rng.randrange(1, lifetime_s // 2)
        return cls(10 * lifetime_s, stopped_s, rng.randrange(1, lifetime_s - stopped_s))

    @property
    def expiry_s(self) -> str:
        return seconds(self.expiry)

    @property
    def dumped_s(self) -> int:
        return self.stopped_s + self.later_s


def _dead_letter_dump(p: StoppedThenDumped = StoppedThenDumped()) -> Outcome:
    """QM1 sends an order to a queue QM2 does not have; QM2's dead-letter queue is unloaded."""
    sim = mq.Simulation()
    qm1 = mq.QueueManager("QM1", sim=sim)
    qm1.define_qlocal("QM2", usage="XMITQ")
    qm1.define_qremote("ORDERS", rname="APP.ORDERS", rqmname="QM2")  # QM2 has no APP.ORDERS
    qm2 = mq.QueueManager("QM2", sim=sim)
    qm2.define_qlocal("QM2.DLQ")
    qm2.alter_qmgr(deadq="QM2.DLQ")
    channel = mq.Channel(qm1, qm2, xmitq="QM2")
    channel.stop()
    put_md = mq.MD(Expiry=p.expiry, Format=CMQC.MQFMT_STRING)  # {p.expiry_s}
    mq.Queue(qm1, "ORDERS").put(b"order 42", put_md)
    sim.advance(seconds=p.stopped_s)
    channel.start()  # the order reaches QM2 at {p.stopped_s} s and lands on QM2.DLQ
    sim.advance(seconds=p.later_s)
    dump = dump_dmpmqmsg(qm2, "QM2.DLQ")
    # the answer: the number on the dump's "A EXP" line
    dumped = parse_dmpmqmsg(dump)[0].md
    arrived = next(e.time_ms for e in qm2.events if e.kind == "dead-letter")
    return Outcome(
        dumped.Expiry,
        {
            "unlimited": CMQC.MQEI_UNLIMITED,
            "as_put": put_md.Expiry,
            "since_arrival": put_md.Expiry - (sim.now - arrived) // patterns.MS_PER_TENTH,
            "dumped": dumped.Expiry,
            "gone": (put_md.Expiry - dumped.Expiry) // TENTHS_PER_S,
            "lifetime": put_md.Expiry // TENTHS_PER_S,
            "format": dumped.Format.strip(),
        },
        Letters().story(qm1, qm2),
    )


q2 = Exercise(
    "nb08.q2",
    question=(
        "An order with Expiry {p.expiry} ({p.expiry_s}) waits {p.stopped_s} s on QM1's "
        "transmission queue, then reaches QM2, which has no queue APP.ORDERS and puts it on its "
        "dead-letter queue. At {p.dumped_s} s the dead-letter queue is dumped. What number "
        "follows 'A EXP' in the dump?"
    ),
    scenario=_dead_letter_dump,
    form=Number(example=100),
    rules=("DLQ-01", "EXP-10", "EXP-11"),
    explanation=(
        "A dump records the lifetime left when it was taken. A message moved to a dead-letter "
        "queue behind an MQDLH keeps the lifetime it had left, and it keeps counting down "
        "there; every second since the put counts, the ones on the transmission queue too."
    ),
    hint="How many seconds have passed since the order was put, wherever it spent them?",
    confirm=(
        "{gone} s of the {lifetime} s are gone: the dump of the {format} message says "
        "A EXP {dumped}."
    ),
    misconceptions=(
        Misconception(
            "unlimited",
            "Dead letters are not kept for ever: the message keeps its remaining expiry.",
        ),
        Misconception(
            "as_put",
            "A dump records the lifetime left at unload, not the Expiry the putter set.",
        ),
        Misconception(
            "since_arrival",
            "The time on QM1's transmission queue counts too, not only the time on the "
            "dead-letter queue.",
        ),
    ),
    variants=StoppedThenDumped,
)


@dataclass(frozen=True)
class NearlyFull(Variant):
    """q3: MAXDEPTH, the messages already on the queue (the expired ones first, 1 s lifetimes),
    the wait, and the dump's orders: the load does not fit, part of it would."""

    SHOWN: ClassVar = {CMQC.MQEI_UNLIMITED: "CMQC.MQEI_UNLIMITED"}
    maxdepth: int = 5
    old: tuple[int, ...] = (10, 10, CMQC.MQEI_UNLIMITED)
    wait_s: int = 5
    loaded: tuple[int, ...] = (CMQC.MQEI_UNLIMITED,) * 3

    @classmethod
    def draw(cls, rng: Random) -> Self:
        expired, live = rng.randrange(1, 4), rng.randrange(0, 3)
        maxdepth = rng.randrange(expired + live + 1, expired + live + 4)
        room = maxdepth - expired - live
        loads = rng.randrange(room + 1, room + 4)
        old = (10,) * expired + (rng.choice([CMQC.MQEI_UNLIMITED, 36_000]),) * live
        orders = tuple(rng.choice([CMQC.MQEI_UNLIMITED, 6_000, 36_000]) for _ in range(loads))
        return cls(maxdepth, old, rng.randrange(2, 60), orders)

    @property
    def expired_count(self) -> int:
        return sum(1 for expiry in self.old if expiry == 10)

    @property
    def old_comment(self) -> str:
        count = self.expired_count
        if count == len(self.old):
            return f"{plural(count, 'it lives', 'all of them live')} 1 s"
        return f"{number_words(count)} of them {plural(count, 'lives', 'live')} 1 s"

    @property
    def old_words(self) -> str:
        return f"{number_words(len(self.old))} {plural(len(self.old), 'message', 'messages')}"

    @property
    def expired_words(self) -> str:
        count, total = self.expired_count, len(self.old)
        if count == total:
            return plural(count, "which expired", "all of which expired")
        return f"{number_words(count)} of which expired"

    @property
    def expired_ago(self) -> int:
        return self.wait_s - 1

    @property
    def loaded_words(self) -> str:
        count = len(self.loaded)
        return f"{number_words(count)} {plural(count, 'order', 'orders')}"


def _load_into_a_nearly_full_queue(p: NearlyFull = NearlyFull()) -> Outcome:
    """A dump of orders is loaded onto a queue that holds expired messages."""
    qm = mq.QueueManager("QM1")
    qm.mqsc(f"DEFINE QLOCAL(APP.IN) MAXDEPTH({p.maxdepth})")
    q = mq.Queue(qm, "APP.IN")
    for expiry in p.old:  # {p.old_comment}
        q.put(b"old", mq.MD(Expiry=expiry))
    qm.sim.advance(seconds=p.wait_s)
    before = qm.queue_frame("APP.IN")
    dump = _order_dump(*p.loaded)
    refused = CMQC.MQRC_NONE
    try:
        load_dmpmqmsg(qm, "APP.IN", dump)
    except mq.MQMIError as error:
        refused = error.reason
    shown = qm.mqsc("DISPLAY QSTATUS(APP.IN) CURDEPTH")
    # the answer: the CURDEPTH that DISPLAY QSTATUS shows
    (depth,) = _curdepths(shown)
    backed_out = sum(1 for e in qm.events if e.kind == "backout" and e.cause == "put")
    live_before = int((~before["expired"]).sum())
    in_dump = len(parse_dmpmqmsg(dump))
    return Outcome(
        depth,
        {
            "partial": len(before) + backed_out,
            "expired_ignored": len(before) + in_dump,
            "put_makes_room": live_before + in_dump,
            "refused_put": backed_out + 1,
            "reason": mq.reason_name(refused),
        },
        Letters().story(qm),
    )


q3 = Exercise(
    "nb08.q3",
    question=(
        "APP.IN has MAXDEPTH({p.maxdepth}) and holds {p.old_words}, {p.expired_words} "
        "{p.expired_ago} s ago. A dump of {p.loaded_words} is loaded onto it with mqlearn's "
        "load_dmpmqmsg, which by default puts the whole file in one unit of work. What CURDEPTH "
        "does DISPLAY QSTATUS show then?"
    ),
    scenario=_load_into_a_nearly_full_queue,
    form=Number(example=2),
    rules=("EXP-25", "EXP-21"),
    explanation=(
        "Expired messages that nothing has discarded still count in the depth, for the "
        "queue-full limit too, and a put never discards them: only a get, a browse or a scan "
        "does. IBM's dmpmqmsg commits every -t messages and keeps the batches it committed; "
        "mqlearn's load_dmpmqmsg, by default, makes the whole load one unit of work, so one "
        "refused put backs it all out (transaction_limit= gives dmpmqmsg's batches)."
    ),
    hint="How many puts fit under MAXDEPTH({p.maxdepth})? And what happens to those that fitted?",
    confirm=(
        "Put {refused_put} of the load was refused with {reason}, so the whole load was backed "
        "out and APP.IN is as it was."
    ),
    misconceptions=(
        Misconception(
            "partial",
            "By default load_dmpmqmsg does not keep the puts that fitted: it backs them all out.",
        ),
        Misconception(
            "expired_ignored",
            "The two expired messages count towards MAXDEPTH as long as they are on the queue.",
        ),
        Misconception(
            "put_makes_room",
            "MQPUT does not discard expired messages to make room: only a get, a browse or a "
            "scan discards.",
        ),
    ),
    helpers=(_order_dump,),
    variants=NearlyFull,
    teaches=lambda outcome: outcome.number("partial") > outcome.number(),
)


@dataclass(frozen=True)
class CappedDump(Variant):
    """q4: the queue's CAPEXPRY, the dump's A EXP values (one above the cap, one unlimited, the
    rest anything), and a wait (whole seconds) after which every capped lifetime is over."""

    SHOWN: ClassVar = {CMQC.MQEI_UNLIMITED: "CMQC.MQEI_UNLIMITED"}
    cap: int = 300
    dumped: tuple[int, ...] = (600, CMQC.MQEI_UNLIMITED, 100)
    wait_s: int = 35

    @classmethod
    def draw(cls, rng: Random) -> Self:
        cap_s = rng.randrange(5, 120)
        wait_s = rng.randrange(cap_s + 1, cap_s + 60)
        others = [10 * rng.randrange(1, cap_s + 1) for _ in range(rng.randrange(0, 5))]
        dumped = [10 * rng.randrange(wait_s + 1, wait_s + 600), CMQC.MQEI_UNLIMITED, *others]
        rng.shuffle(dumped)
        return cls(10 * cap_s, tuple(dumped), wait_s)

    @property
    def count_words(self) -> str:
        return number_words(len(self.dumped))

    @property
    def exp_list(self) -> str:
        return listing([str(expiry) for expiry in self.dumped])


def _refresh_on_z(p: CappedDump = CappedDump()) -> Outcome:
    """A z/OS queue manager: a capped queue defined with MQSC, a dump loaded, then a scan."""
    qm = mq.QueueManager("ZQM1", profile="zos")
    qm.mqsc(f"DEFINE QLOCAL(APP.IN) MSGDLVSQ(FIFO) CAPEXPRY({p.cap})")
    dump = _order_dump(*p.dumped)
    load_dmpmqmsg(qm, "APP.IN", dump)
    qm.sim.advance(seconds=p.wait_s)
    shown = qm.mqsc(
        "DISPLAY QSTATUS(APP.IN) CURDEPTH\n"
        "REFRESH QMGR TYPE(EXPIRY) NAME(APP.*)\n"
        "DISPLAY QSTATUS(APP.IN) CURDEPTH"
    )
    # the answer: the two CURDEPTH values, before and after REFRESH
    depths = _curdepths(shown)
    elapsed = qm.sim.now // patterns.MS_PER_TENTH
    cap = qm.local("APP.IN").capexpry
    assert cap is not None, "APP.IN was defined with CAPEXPRY(300)"
    uncapped_live = sum(
        1
        for message in parse_dmpmqmsg(dump)
        if message.md.Expiry == CMQC.MQEI_UNLIMITED or message.md.Expiry > elapsed
    )
    return Outcome(
        depths,
        {
            "not_counted": (depths[1], depths[1]),
            "cap_skipped": (depths[0], uncapped_live),
            "refresh_idle": (depths[0], depths[0]),
            "cap_s": cap // TENTHS_PER_S,
            "elapsed_s": elapsed // TENTHS_PER_S,
        },
        Letters().story(qm),
    )


q4 = Exercise(
    "nb08.q4",
    question=(
        "On a z/OS queue manager, APP.IN is defined with CAPEXPRY({p.cap}), and a dump of "
        "{p.count_words} orders with A EXP {p.exp_list} is loaded. {p.wait_s} s later runmqsc runs "
        "DISPLAY QSTATUS, REFRESH QMGR TYPE(EXPIRY), DISPLAY QSTATUS. Which two CURDEPTH values "
        "does it show? Answer (before, after)."
    ),
    scenario=_refresh_on_z,
    form=Numbers("before", "after"),
    rules=("EXP-06", "EXP-25", "EXP-28"),
    explanation=(
        "A load puts its messages like any application, so the queue's CAPEXPRY lowers every "
        "Expiry above it, unlimited included. Expired messages stay in CURDEPTH until something "
        "discards them; on z/OS, REFRESH QMGR TYPE(EXPIRY) scans the queues it names and "
        "discards every expired message, without any get."
    ),
    hint=(
        "First apply the cap to each A EXP value; then see which lifetimes are over at "
        "{p.wait_s} s."
    ),
    confirm=(
        "With the cap no lifetime was longer than {cap_s} s, so at {elapsed_s} s every message "
        "had expired: all counted in CURDEPTH before the scan, none after."
    ),
    misconceptions=(
        Misconception(
            "not_counted",
            "CURDEPTH counts expired messages until they are discarded.",
        ),
        Misconception(
            "cap_skipped",
            "CAPEXPRY caps the puts of a load too, MQEI_UNLIMITED included.",
        ),
        Misconception(
            "refresh_idle",
            "REFRESH QMGR TYPE(EXPIRY) discards the expired messages it finds, with no get.",
        ),
    ),
    helpers=(_order_dump,),
    variants=CappedDump,
)
