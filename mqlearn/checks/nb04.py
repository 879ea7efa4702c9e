"""Notebook 04 (expiration reports): the report's descriptor, its data, and where it goes."""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import Self

import mqlearn as mq
from mqlearn import CMQC
from mqlearn.checks.answers import Choice, Number, Numbers, Reason
from mqlearn.checks.exercise import Exercise, Misconception, Outcome
from mqlearn.checks.lab import Letters, get_reason
from mqlearn.checks.variants import Variant
from mqlearn.checks.wording import capitalized, duration_words, listing, number_words
from mqlearn.mqi.errors import reason_name

REPORT_LIFETIME_S = 60  # what MQRO_PASS_DISCARD_AND_EXPIRY gives an expiration report (RPT-07)


@dataclass(frozen=True)
class ExpiredThenGot(Variant):
    """A lifetime (tenths) and a wait (whole seconds) after which it is over, a common shape of
    this notebook's scenarios."""

    expiry: int = 10
    wait_s: int = 2

    @classmethod
    def draw(cls, rng: Random) -> Self:
        wait_s = rng.randrange(2, 120)
        return cls(rng.randrange(1, 10 * wait_s - 9), wait_s)


@dataclass(frozen=True)
class ReportWaits(Variant):
    """q1: the message's lifetime, when the get discards it, and how long its report waits
    (whole seconds, within the report's own lifetime)."""

    expiry: int = 50
    wait_s: int = 6
    report_wait_s: int = 45

    @classmethod
    def draw(cls, rng: Random) -> Self:
        wait_s = rng.randrange(2, 120)
        return cls(rng.randrange(1, 10 * wait_s - 9), wait_s, rng.randrange(1, REPORT_LIFETIME_S))


def _report_expiry(p: ReportWaits = ReportWaits()) -> Outcome:
    """A message asks for an expiration report with MQRO_PASS_DISCARD_AND_EXPIRY."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    qm.define_qlocal("REPLY.Q")
    letters = Letters()
    report = CMQC.MQRO_EXPIRATION | CMQC.MQRO_PASS_DISCARD_AND_EXPIRY
    md = mq.MD(Expiry=p.expiry, Report=report, ReplyToQ="REPLY.Q")
    letters.put(mq.Queue(qm, "APP.IN"), "A", md)
    qm.sim.advance(seconds=p.wait_s)
    get_reason(mq.Queue(qm, "APP.IN"))  # 2033: A is discarded and its report sent
    qm.sim.advance(seconds=p.report_wait_s)  # the report waits on REPLY.Q
    report_md = mq.MD(Version=CMQC.MQMD_VERSION_2)  # reports are read with a version-2 MD
    mq.Queue(qm, "REPLY.Q").get(None, report_md)
    # the answer: report_md.Expiry
    sent = next(e for e in qm.events if e.kind == "put" and e.queue == "REPLY.Q")
    return Outcome(
        report_md.Expiry,
        {"unlimited": CMQC.MQEI_UNLIMITED, "fresh": sent.expiry, "got": report_md.Expiry},
        letters.story(qm),
    )


q1 = Exercise(
    "nb04.q1",
    question=(
        "The expiration report waits {p.report_wait_s} s on REPLY.Q before it is got. What Expiry "
        "does that get return?"
    ),
    scenario=_report_expiry,
    form=Number(example=-1),
    rules=("RPT-03", "RPT-07", "EXP-11"),
    explanation=(
        "A report normally never expires (MQEI_UNLIMITED). MQRO_PASS_DISCARD_AND_EXPIRY makes "
        "reports and replies inherit the original's remaining lifetime, and since an expired "
        "message has none left, an expiration report gets a fixed lifetime instead; like any "
        "message's, it counts down while the report waits."
    ),
    hint=(
        "Start from the fixed lifetime of an expiration report sent with "
        "MQRO_PASS_DISCARD_AND_EXPIRY (600 tenths), then take off the wait."
    ),
    confirm=(
        "The report started with {fresh} tenths (60 s); {p.report_wait_s} s later {got} are left."
    ),
    misconceptions=(
        Misconception(
            "unlimited",
            "That is a report's usual Expiry, but this message set MQRO_PASS_DISCARD_AND_EXPIRY.",
        ),
        Misconception(
            "fresh", "Right lifetime, but the report waited {p.report_wait_s} s before the get."
        ),
    ),
    variants=ReportWaits,
)


@dataclass(frozen=True)
class ShortMessage(Variant):
    """q2: the length of a message shorter than the 100 bytes _WITH_DATA keeps, its lifetime,
    and the wait after which it is over."""

    length: int = 60
    expiry: int = 10
    wait_s: int = 2

    @classmethod
    def draw(cls, rng: Random) -> Self:
        wait_s = rng.randrange(2, 120)
        return cls(rng.randrange(1, 100), rng.randrange(1, 10 * wait_s - 9), wait_s)


def _report_data_length(p: ShortMessage = ShortMessage()) -> Outcome:
    """A short message asks for MQRO_EXPIRATION_WITH_DATA."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    qm.define_qlocal("REPLY.Q")
    md = mq.MD(Expiry=p.expiry, Report=CMQC.MQRO_EXPIRATION_WITH_DATA, ReplyToQ="REPLY.Q")
    mq.Queue(qm, "APP.IN").put(b"x" * p.length, md)
    qm.sim.advance(seconds=p.wait_s)
    get_reason(mq.Queue(qm, "APP.IN"))  # 2033: the message is discarded, its report sent
    report_md = mq.MD(Version=CMQC.MQMD_VERSION_2)  # reports are read with a version-2 MD
    data = mq.Queue(qm, "REPLY.Q").get(None, report_md)
    # the answer: len(data)
    return Outcome(len(data), {"hundred": 100, "none": 0, "length": len(data)})


q2 = Exercise(
    "nb04.q2",
    question="How many bytes of data does the report carry?",
    scenario=_report_data_length,
    form=Number(example=0),
    rules=("RPT-04",),
    explanation=(
        "MQRO_EXPIRATION sends no data, MQRO_EXPIRATION_WITH_DATA the leading MQ headers plus "
        "the start of the application data, and MQRO_EXPIRATION_WITH_FULL_DATA everything."
    ),
    hint="_WITH_DATA keeps *up to* the first hundred bytes of application data.",
    confirm="The message is shorter than 100 bytes, so the report holds all {length} of them.",
    misconceptions=(
        Misconception("hundred", "At most 100 bytes: this message does not have that many."),
        Misconception("none", "No data is what plain MQRO_EXPIRATION gives."),
    ),
    variants=ShortMessage,
)

SYSTEM_DLQ = "SYSTEM.DEAD.LETTER.QUEUE"
REPORT_PLACES = ("GONE.Q", "REPLY.Q", "DLQ", SYSTEM_DLQ, "nowhere")  # q3's choices


@dataclass(frozen=True)
class DeadLetterQueue(Variant):
    """q3: the message's ReplyToQ (GONE.Q, which does not exist, or REPLY.Q), whether REPLY.Q
    takes puts, the queue manager's DEADQ (one of two queues defined, none, or a queue that
    does not exist), the lifetime and the wait. Drawn so that each place is as likely."""

    reply_q: str = "GONE.Q"
    reply_put: str = "ENABLED"
    deadq: str = "DLQ"
    expiry: int = 10
    wait_s: int = 2

    @classmethod
    def draw(cls, rng: Random) -> Self:
        timing = ExpiredThenGot.draw(rng)
        refused = rng.choice([("GONE.Q", "ENABLED"), ("REPLY.Q", "DISABLED")])
        reply_q, reply_put = ("REPLY.Q", "ENABLED") if rng.random() < 0.25 else refused
        deadq = rng.choice(["DLQ", SYSTEM_DLQ, rng.choice(["", "NO.SUCH.DLQ"])])
        return cls(reply_q, reply_put, deadq, timing.expiry, timing.wait_s)


def _missing_reply_queue(p: DeadLetterQueue = DeadLetterQueue()) -> Outcome:
    """The message names a reply-to queue; the queue manager may have a DLQ."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    qm.define_qlocal("REPLY.Q", put=p.reply_put)
    qm.define_qlocal("DLQ")
    qm.define_qlocal("SYSTEM.DEAD.LETTER.QUEUE")
    qm.alter_qmgr(deadq=p.deadq)
    letters = Letters()
    md = mq.MD(Expiry=p.expiry, Report=CMQC.MQRO_EXPIRATION, ReplyToQ=p.reply_q)
    letters.put(mq.Queue(qm, "APP.IN"), "A", md)
    qm.sim.advance(seconds=p.wait_s)
    get_reason(mq.Queue(qm, "APP.IN"))  # 2033: A is discarded, a report is due
    # the answer: the queue the report landed on
    landed = [e.queue for e in qm.events if e.kind == "put" and e.cause == "qmgr"]
    where = landed[0] if landed else "nowhere"
    if where == p.reply_q:
        went = f"{where} takes it: the report goes where the message asked."
    elif where == "nowhere":
        went = "No dead-letter queue could take it, so the queue manager threw it away."
    else:
        went = f"It waits on {where}, this queue manager's DEADQ, behind an MQDLH saying why."
    return Outcome(where, {"where_it_went": went}, letters.story(qm))


q3 = Exercise(
    "nb04.q3",
    question=(
        "Where does the expiration report end up: 'GONE.Q', 'REPLY.Q', 'DLQ', "
        "'SYSTEM.DEAD.LETTER.QUEUE' or 'nowhere'?"
    ),
    scenario=_missing_reply_queue,
    form=Choice(REPORT_PLACES),
    rules=("RPT-06",),
    explanation=(
        "A report goes to the message's ReplyToQ; when it cannot be put there it goes to the "
        "dead-letter queue the queue manager's DEADQ names, and only when that fails too (or "
        "there is none) is it thrown away."
    ),
    hint="Can the report be put to {p.reply_q}? Which queue does the queue manager's DEADQ name?",
    confirm="{where_it_went}",
    variants=DeadLetterQueue,
)


@dataclass(frozen=True)
class RefusedReport(Variant):
    """q4: why the report cannot be put where the message says: its ReplyToQ does not exist,
    REPLY.Q is PUT(DISABLED) or full (MAXDEPTH 0), or ReplyToQMgr names a queue manager this one
    has no route to; and the lifetime and the wait."""

    reply_q: str = "GONE.Q"
    reply_qmgr: str = ""
    put: str = "ENABLED"
    maxdepth: int = 5000
    expiry: int = 10
    wait_s: int = 2

    @classmethod
    def draw(cls, rng: Random) -> Self:
        timing = ExpiredThenGot.draw(rng)
        refused = rng.choice(
            [
                ("GONE.Q", "", "ENABLED", 5000),
                ("REPLY.Q", "", "DISABLED", 5000),
                ("REPLY.Q", "", "ENABLED", 0),
                ("REPLY.Q", "QM9", "ENABLED", 5000),
            ]
        )
        return cls(*refused, timing.expiry, timing.wait_s)


def _dead_letter_reason(p: RefusedReport = RefusedReport()) -> Outcome:
    """The report cannot be put where the message asks; read the MQDLH in front of it on the
    DLQ."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    qm.define_qlocal("DLQ")
    qm.alter_qmgr(deadq="DLQ")
    qm.define_qlocal("REPLY.Q", put=p.put, maxdepth=p.maxdepth)
    md = mq.MD(
        Expiry=p.expiry, Report=CMQC.MQRO_EXPIRATION, ReplyToQ=p.reply_q, ReplyToQMgr=p.reply_qmgr
    )
    Letters().put(mq.Queue(qm, "APP.IN"), "A", md)
    qm.sim.advance(seconds=p.wait_s)
    get_reason(mq.Queue(qm, "APP.IN"))
    dead_md = mq.MD(Version=CMQC.MQMD_VERSION_2)  # version 2: the data starts with the MQDLH
    dlh = mq.MQDLH.unpack(mq.Queue(qm, "DLQ").get(None, dead_md))
    # the answer: dlh.Reason
    return Outcome(
        dlh.Reason,
        {
            "feedback": dead_md.Feedback,
            "no_msg": CMQC.MQRC_NO_MSG_AVAILABLE,
            "name": reason_name(dlh.Reason),
            "destination": f"{dlh.DestQName.strip()} at {dlh.DestQMgrName.strip()}",
        },
    )


q4 = Exercise(
    "nb04.q4",
    question="The report on the DLQ starts with an MQDLH. Which Reason does the MQDLH give?",
    scenario=_dead_letter_reason,
    form=Reason(example="MQRC_NOT_AUTHORIZED"),
    rules=("RPT-06",),
    explanation=(
        "The dead-letter header records why the message could not be put where it was going: "
        "the reason code the failed put to the reply-to queue would have returned."
    ),
    hint="The report goes to ReplyToQ {p.reply_q}. What would a put there fail with?",
    confirm="{name}: the put of the report to {destination} failed with that reason.",
    misconceptions=(
        Misconception(
            "feedback",
            "258 (MQFB_EXPIRATION) is the report's Feedback field, not why it was dead-lettered.",
        ),
        Misconception("no_msg", "2033 is what the consumer's get returned, not the put's reason."),
    ),
    variants=RefusedReport,
)


@dataclass(frozen=True)
class NobodyLooks(Variant):
    """q5: two to six messages asking for reports, their lifetime, and a wait (whole seconds)
    after which they are all over."""

    letters: str = "ABC"
    expiry: int = 10
    wait_s: int = 60

    @classmethod
    def draw(cls, rng: Random) -> Self:
        wait_s = rng.randrange(2, 600)
        return cls("ABCDEF"[: rng.randrange(2, 7)], rng.randrange(1, 10 * wait_s - 9), wait_s)

    @property
    def later(self) -> str:
        if self.wait_s == 60:
            return "A minute"
        return capitalized(duration_words(10 * self.wait_s))

    @property
    def any_of_them(self) -> str:
        return listing(list(self.letters), "or")

    @property
    def all_of_them(self) -> str:
        count = len(self.letters)
        return "Both" if count == 2 else f"All {number_words(count)}"


def _reports_before_any_get(p: NobodyLooks = NobodyLooks()) -> Outcome:
    """Messages ask for expiration reports; nobody gets anything for a while."""
    qm = mq.QueueManager("QM1")
    qm.alter_qmgr(expryint=0)  # qm.ini ExpiryInterval=0: this queue manager runs no expiry task
    qm.define_qlocal("APP.IN")
    qm.define_qlocal("REPLY.Q")
    q = mq.Queue(qm, "APP.IN")
    letters = Letters()
    for letter in p.letters:
        md = mq.MD(Expiry=p.expiry, Report=CMQC.MQRO_EXPIRATION, ReplyToQ="REPLY.Q")
        letters.put(q, letter, md)
    qm.sim.advance(seconds=p.wait_s)
    # the answer: (CURDEPTH of APP.IN, CURDEPTH of REPLY.Q)
    eligible = int(qm.queue_frame("APP.IN")["expired"].sum())
    return Outcome(
        (qm.curdepth("APP.IN"), qm.curdepth("REPLY.Q")),
        {"at_eligibility": (0, eligible), "reported_kept": (eligible, eligible)},
        letters.story(qm),
    )


q5 = Exercise(
    "nb04.q5",
    question=(
        "This queue manager runs no expiry task (ExpiryInterval 0). {p.later} later, how many "
        "messages are on APP.IN, and how many reports are waiting on REPLY.Q? Answer "
        "(APP.IN depth, REPLY.Q depth)."
    ),
    scenario=_reports_before_any_get,
    form=Numbers("APP.IN depth", "REPLY.Q depth"),
    rules=("RPT-02", "EXP-20"),
    explanation=(
        "An expiration report is sent when the message is actually discarded, not at the moment "
        "it becomes eligible; and becoming eligible discards nothing by itself."
    ),
    hint="Has anything discarded {p.any_of_them} yet? This queue manager runs no expiry task.",
    confirm="{p.all_of_them} are eligible, none discarded: all still count, no reports yet.",
    misconceptions=(
        Misconception(
            "at_eligibility",
            "An expired message stays on the queue until something discards it, and its report "
            "waits for the discard.",
        ),
        Misconception("reported_kept", "Reports wait for the discard, not for eligibility."),
    ),
    variants=NobodyLooks,
)
