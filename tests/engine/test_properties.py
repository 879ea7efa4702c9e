"""Property-based tests: random operation sequences against the engine and a reference model.

Hypothesis generates sequences of puts (priority 0-12, Expiry unlimited or 1-100 tenths, with or
without syncpoint), clock advances, gets (plain, matching an earlier MsgId, with or without
syncpoint), browses, commits and backouts. The same sequence drives the engine and the deliberately
simple model in ``reference_model.py``; the tests check that they agree and that no message is ever
lost or counted twice (rules EXP-05, EXP-11, EXP-12, EXP-20..27, EXP-29, UOW-01/02, XQH-06, DLQ-01,
RPT-01..06).

Every queue manager here switches its background expiry task off (``alter_qmgr(expryint=0)``,
EXP-28), so the only discards are the ones a get or browse causes. Left on, the task would scan
every 300 s of virtual time, and a scan firing in the middle of an ``advance`` would discard
messages the model expects a later get to discard. Time is virtual and hypothesis is derandomized,
so every run is the same.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import mqlearn as mq
from mqlearn import CMQC
from tests.engine.reference_model import GetResult, ReferenceQueue

APP_Q = "APP.Q"
NO_SUCH_ID = b"NOT-A-REAL-MSGID".ljust(24, b"\x00")  # matches nothing: a get must give 2033

PROPERTY_SETTINGS = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

Op = tuple[Any, ...]


# -- strategies ----------------------------------------------------------------------------------
OpKinds = dict[str, tuple[int, tuple[str, ...]]]  # kind -> (weight, the fields it takes)


def op_lists(kinds: OpKinds, **fields: st.SearchStrategy[Any]) -> st.SearchStrategy[list[Op]]:
    """Sequences of 10-40 operations, long enough for messages to expire in between.

    Each operation draws a kind (``sampled_from`` a list holding each kind ``weight`` times) and a
    value for every field, then keeps the fields its kind takes: ``("put", 5, 30, False)``. One
    flat shape for every operation (no ``flatmap``) keeps hypothesis's shrinking quick.
    """
    names = list(fields)
    pool = [kind for kind, (weight, _) in kinds.items() for _ in range(weight)]

    def build(drawn: tuple[Any, ...]) -> Op:
        kind, values = drawn[0], dict(zip(names, drawn[1:], strict=True))
        return (kind, *(values[name] for name in kinds[kind][1]))

    one = st.tuples(st.sampled_from(pool), *fields.values()).map(build)
    return st.lists(one, min_size=15, max_size=40)


# MQEI_UNLIMITED one time in four, else 1-100 tenths.
expiries = st.tuples(st.sampled_from([True, True, True, False]), st.integers(1, 100)).map(
    lambda drawn: drawn[1] if drawn[0] else CMQC.MQEI_UNLIMITED
)
COMMON_FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "priority": st.integers(0, 12),  # 10-12 exceed MAXPRTY: queued at 9, warning 2049 (MD-02)
    "expiry": expiries,
    "syncpoint": st.sampled_from([False, False, True]),
    "ms": st.integers(0, 5000),
    "index": st.integers(0, 999),  # picks one of the messages put so far
}

local_ops = op_lists(
    {
        "put": (6, ("priority", "expiry", "syncpoint")),
        "advance": (3, ("ms",)),
        "advance_to_deadline": (2, ("index",)),
        "get": (4, ("syncpoint",)),
        "get_match": (1, ("index", "syncpoint")),
        "browse_first": (1, ()),
        "browse_next": (1, ()),
        "commit": (1, ()),
        "backout": (1, ()),
    },
    **COMMON_FIELDS,
)


# -- small engine helpers ------------------------------------------------------------------------
def put_quietly(q: mq.Queue, data: bytes, md: mq.MD, syncpoint: bool = False) -> bytes:
    """Put and return the MsgId; a priority above MAXPRTY warns (2049), which is expected here."""
    options = CMQC.MQPMO_SYNCPOINT if syncpoint else CMQC.MQPMO_NO_SYNCPOINT
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mq.MQWarning)
        q.put(data, md, mq.PMO(Options=options))
    return md.MsgId


def try_get(q: mq.Queue, md: mq.MD, options: int) -> bytes | None:
    """MQGET; None for 2033 (nothing live to return, EXP-26). Other failures propagate."""
    try:
        return q.get(None, md, mq.GMO(Options=options))
    except mq.MQMIError as error:
        if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
            raise
        return None


def queued_ids(qm: mq.QueueManager, qname: str, skip_state: str | None = None) -> list[bytes]:
    """MsgIds on a queue in delivery order (``queue_frame``), leaving out rows in ``skip_state``."""
    frame = qm.queue_frame(qname)
    return [
        bytes.fromhex(msg_id) if isinstance(msg_id, str) else msg_id
        for msg_id, state in zip(frame["msg_id"], frame["state"], strict=True)
        if state != skip_state
    ]


def ids_of(
    events: Iterable[Any], kind: str, queue: str | None = None, cause: str | None = None
) -> list[bytes]:
    """MsgIds of the logged events of one kind (optionally on one queue / with one cause)."""
    return [
        e.msg_id
        for e in events
        if e.kind == kind
        and (queue is None or e.queue == queue)
        and (cause is None or e.cause == cause)
    ]


def event_balance(qm: mq.QueueManager, qname: str) -> int:
    """docs/engine.md "Conservation": puts - gets - discards - channel-sends - backed-out puts
    + restored gets, counted from the event log of one local queue."""
    sign = {"put": 1, "get": -1, "discard": -1, "channel-send": -1}
    total = 0
    for e in qm.events:
        if e.queue != qname:
            continue
        if e.kind == "backout":  # cause "put": a put undone; otherwise a message restored
            total += -1 if e.cause == "put" else 1
        else:
            total += sign.get(e.kind, 0)
    return total


def exactly_once(expected: Iterable[bytes], *outcomes: Iterable[bytes]) -> Counter[bytes]:
    """Counter of every MsgId in ``outcomes`` whose count is not exactly one per expected MsgId."""
    seen: Counter[bytes] = Counter()
    for outcome in outcomes:
        seen.update(outcome)
    want = Counter(expected)
    return Counter({k: seen[k] for k in set(seen) | set(want) if seen[k] != want[k]})


# -- one local queue, engine and model side by side ----------------------------------------------
class Observed(NamedTuple):
    """What one operation did: the message returned, the (MsgId, cause) discards, the Expiry."""

    returned: bytes | None = None
    discards: tuple[tuple[bytes, str], ...] = ()
    expiry: int | None = None


EngineGet = tuple[bytes | None, int | None]
Outcome = tuple[GetResult | None, EngineGet]
NOTHING: Outcome = (None, (None, None))


@dataclass
class Step:
    op: Op
    now: int
    engine: Observed
    model: Observed


@dataclass
class LocalRun:
    """The engine queue manager and the reference model, driven by the same operations."""

    fifo: bool
    qm: mq.QueueManager = field(init=False)
    q: mq.Queue = field(init=False)
    model: ReferenceQueue = field(init=False)
    put_ids: list[bytes] = field(default_factory=list)
    deadlines: dict[bytes, int | None] = field(default_factory=dict)
    seen_events: int = 0

    def __post_init__(self) -> None:
        self.qm = mq.QueueManager("QM1", profile="ibmi")
        self.qm.alter_qmgr(expryint=0)  # no background scan: see module doc
        self.qm.define_qlocal(APP_Q, msgdlvsq="FIFO" if self.fifo else "PRIORITY")
        self.q = mq.Queue(self.qm, APP_Q)
        self.model = ReferenceQueue(fifo=self.fifo)

    @property
    def now(self) -> int:
        return self.qm.sim.now

    def apply(self, op: Op) -> Step:
        kind, *args = op
        now = self.now
        model, (returned, expiry) = getattr(self, f"_{kind}")(*args)
        new_events = self.qm.events[self.seen_events :]
        self.seen_events = len(self.qm.events)
        discards = tuple((e.msg_id, e.cause) for e in new_events if e.kind == "discard")
        return Step(op, now, Observed(returned, discards, expiry), _observed(kind, model))

    # Each operation runs on the engine and on the model and returns
    # (the model's GetResult or None, (the engine's MsgId or None, its md.Expiry or None)).
    def _put(self, priority: int, expiry: int, syncpoint: bool) -> Outcome:
        md = mq.MD(Priority=priority, Expiry=expiry)
        msg_id = put_quietly(self.q, b"m%d" % len(self.put_ids), md, syncpoint)
        self.put_ids.append(msg_id)
        self.deadlines[msg_id] = None if expiry == -1 else self.now + expiry * 100
        self.model.put(msg_id, priority, expiry, self.now, syncpoint)
        return NOTHING

    def _advance(self, ms: int) -> Outcome:
        self.qm.sim.advance(ms=ms)
        assert self.model.advance(self.now) == []
        return NOTHING

    def _advance_to_deadline(self, index: int) -> Outcome:
        """Land exactly on an earlier message's deadline: at that instant it has expired."""
        deadline = self.deadlines[self.put_ids[index % len(self.put_ids)]] if self.put_ids else None
        return self._advance(max(0, deadline - self.now) if deadline is not None else 0)

    def _engine_get(self, options: int, match: bytes = CMQC.MQMI_NONE) -> EngineGet:
        md = mq.MD(MsgId=match)
        if try_get(self.q, md, options) is None:
            return None, None
        return md.MsgId, md.Expiry

    def _get(self, syncpoint: bool) -> Outcome:
        engine = self._engine_get(_get_options(syncpoint))
        return self.model.get(self.now, syncpoint=syncpoint), engine

    def _get_match(self, index: int, syncpoint: bool) -> Outcome:
        target = self.put_ids[index % len(self.put_ids)] if self.put_ids else NO_SUCH_ID
        engine = self._engine_get(_get_options(syncpoint), target)
        return self.model.get(self.now, match_msg_id=target, syncpoint=syncpoint), engine

    def _browse_first(self) -> Outcome:
        engine = self._engine_get(CMQC.MQGMO_BROWSE_FIRST)
        return self.model.browse_first(self.now), engine

    def _browse_next(self) -> Outcome:
        engine = self._engine_get(CMQC.MQGMO_BROWSE_NEXT)
        return self.model.browse_next(self.now), engine

    def _commit(self) -> Outcome:
        self.qm.commit()
        self.model.commit()
        return NOTHING

    def _backout(self) -> Outcome:
        self.qm.backout()
        self.model.backout()
        return NOTHING


def _observed(kind: str, result: GetResult | None) -> Observed:
    """The model's result in the engine's terms: discards carry the cause the log should show."""
    if result is None:
        return Observed()
    cause = "browse" if kind.startswith("browse") else "get"
    return Observed(result.msg_id, tuple((m, cause) for m in result.discarded), result.expiry)


def _get_options(syncpoint: bool) -> int:
    return CMQC.MQGMO_SYNCPOINT if syncpoint else CMQC.MQGMO_NO_SYNCPOINT


def ceil_tenths(ms: int) -> int:
    return -(-ms // 100)


# -- property 1: the engine is the model ---------------------------------------------------------
@PROPERTY_SETTINGS
@given(fifo=st.booleans(), ops=local_ops)
def test_exp22_exp23_exp27_engine_agrees_with_reference_model(fifo: bool, ops: list[Op]) -> None:
    """EXP-21..23, EXP-27, UOW-01/02: same messages returned, same discards, order and cause."""
    run = LocalRun(fifo)
    assert_agrees(run, ops)
    event(
        f"discards: {len(run.model.discarded)}, backed-out puts: {len(run.model.backed_out_puts)}"
    )


def assert_agrees(run: LocalRun, ops: list[Op]) -> None:
    """Apply ``ops`` to engine and model; after each, both returned and discarded the same."""
    for op in ops:
        step = run.apply(op)
        assert step.engine.returned == step.model.returned, (
            f"{op} at {step.now} ms: engine returned {step.engine.returned!r}, "
            f"the reference model {step.model.returned!r}"
        )
        assert step.engine.discards == step.model.discards, (
            f"{op} at {step.now} ms: the engine discarded {step.engine.discards}, the model "
            f"{step.model.discards} (expired candidates ahead of the first live one go)"
        )
    assert queued_ids(run.qm, APP_Q) == run.model.queued(), "messages left on the queue differ"


def test_exp21_browse_first_that_finds_nothing_still_restarts_the_cursor() -> None:
    """BROWSE_FIRST restarts the cursor (docs/engine.md) even when it only discards and gets 2033:
    a higher-priority message put afterwards is then the next one BROWSE_NEXT sees."""
    assert_agrees(
        LocalRun(fifo=False),
        [
            ("put", 0, 1, False),  # 1 tenth to live
            ("browse_first",),  # the cursor is on it
            ("advance", 100),
            ("browse_first",),  # discards it (EXP-21) and finds nothing: 2033
            ("put", 1, CMQC.MQEI_UNLIMITED, False),
            ("browse_next",),  # a restarted cursor sees the new message
        ],
    )


# -- property 2: what a get returns --------------------------------------------------------------
@PROPERTY_SETTINGS
@given(fifo=st.booleans(), ops=local_ops)
def test_exp24_exp11_exp12_returned_message_live_and_expiry_positive_or_unlimited(
    fifo: bool, ops: list[Op]
) -> None:
    """EXP-24: never an expired message; EXP-11/12: md.Expiry > 0 (remaining, rounded up) or -1."""
    run = LocalRun(fifo)
    for op in ops:
        step = run.apply(op)
        msg_id, expiry = step.engine.returned, step.engine.expiry
        if msg_id is None:
            continue
        deadline = run.deadlines[msg_id]
        assert deadline is None or step.now < deadline, (
            f"{op} at {step.now} ms returned a message that expired at {deadline} ms (EXP-24)"
        )
        assert expiry == -1 or expiry > 0, f"{op}: returned md.Expiry {expiry} (EXP-11)"
        want = -1 if deadline is None else ceil_tenths(deadline - step.now)
        assert expiry == want, f"{op}: md.Expiry {expiry}, remaining rounded up is {want} (EXP-12)"


# -- property 3: conservation on one queue -------------------------------------------------------
@PROPERTY_SETTINGS
@given(fifo=st.booleans(), ops=local_ops)
def test_exp25_exp05_conservation_and_depth(fifo: bool, ops: list[Op]) -> None:
    """EXP-25: CURDEPTH counts expired and uncommitted messages (minus gets in the open unit of
    work); every message put ends exactly once as got, discarded, backed out or still queued."""
    run = LocalRun(fifo)
    for op in ops:
        step = run.apply(op)
        assert run.qm.curdepth(APP_Q) == run.model.curdepth(), f"CURDEPTH after {op}"
        if not run.model.open_gets():  # the log identity is unambiguous without open gets
            assert event_balance(run.qm, APP_Q) == run.qm.curdepth(APP_Q), (
                f"event-log conservation identity broken after {op} at {step.now} ms"
            )
    run.apply(("commit",))
    events = run.qm.events
    got = Counter(ids_of(events, "get", APP_Q))
    got.subtract(ids_of(events, "backout", APP_Q, cause="get"))
    got_ids = list((+got).elements())
    outcomes = {
        "got": got_ids,
        "discarded": ids_of(events, "discard", APP_Q),
        "backed-out put": ids_of(events, "backout", APP_Q, cause="put"),
        "still queued": queued_ids(run.qm, APP_Q),
    }
    wrong = exactly_once(run.put_ids, *outcomes.values())
    assert not wrong, f"messages not accounted for exactly once: {dict(wrong)}; {outcomes}"
    model = {
        "got": run.model.got,
        "discarded": run.model.discarded,
        "backed-out put": run.model.backed_out_puts,
        "still queued": run.model.queued(),
    }
    for name, ids in outcomes.items():
        assert Counter(ids) == Counter(model[name]), f"{name}: engine {ids}, model {model[name]}"


# -- property 4: conservation across a channel ---------------------------------------------------
@dataclass
class ChannelRun:
    """QM1 --channel--> QM2; TO.APP reaches APP.IN (MAXDEPTH 3), TO.NOWHERE a queue that does not
    exist, so QM2 dead-letters what it cannot deliver."""

    latency_ms: int
    put_ids: list[bytes] = field(default_factory=list)

    def __post_init__(self) -> None:
        sim = mq.Simulation()
        self.qm1 = mq.QueueManager("QM1", sim=sim, profile="ibmi")
        self.qm2 = mq.QueueManager("QM2", sim=sim, profile="ibmi")
        for qm in (self.qm1, self.qm2):
            qm.alter_qmgr(expryint=0)  # no background scans
        self.qm1.define_qlocal("QM2", usage="XMITQ")
        self.qm1.define_qremote("TO.APP", rname="APP.IN", rqmname="QM2")
        self.qm1.define_qremote("TO.NOWHERE", rname="NO.SUCH.Q", rqmname="QM2")
        self.qm2.define_qlocal("APP.IN", maxdepth=3)
        self.qm2.define_qlocal("DLQ")
        self.qm2.alter_qmgr(deadq="DLQ")
        self.channel = mq.Channel(self.qm1, self.qm2, xmitq="QM2", latency_ms=self.latency_ms)
        self.handles = {
            name: mq.Queue(qm, name)
            for qm, name in [
                (self.qm1, "TO.APP"),
                (self.qm1, "TO.NOWHERE"),
                (self.qm2, "APP.IN"),
                (self.qm2, "DLQ"),
            ]
        }

    def apply(self, op: Op) -> None:
        kind, *args = op
        if kind == "put":
            target, priority, expiry = args
            md = mq.MD(Priority=priority, Expiry=expiry)
            self.put_ids.append(put_quietly(self.handles[target], b"payload", md))
        elif kind == "advance":
            self.qm1.sim.advance(ms=args[0])
        elif kind == "get":
            try_get(self.handles[args[0]], mq.MD(), CMQC.MQGMO_NO_SYNCPOINT)
        elif kind == "stop":
            self.channel.stop()
        elif kind == "start":
            self.channel.start()

    def in_flight_ids(self) -> list[bytes]:
        """MsgIds the channel has taken off the XMITQ and not yet delivered (``ch.in_flight``)."""
        return [flight.view.msgid for flight in self.channel.in_flight]


channel_ops = op_lists(
    {
        "put": (4, ("target", "priority", "expiry")),
        "advance": (3, ("ms",)),
        "get": (2, ("queue",)),
        "stop": (1, ()),
        "start": (1, ()),
    },
    target=st.sampled_from(["TO.APP", "TO.NOWHERE"]),
    queue=st.sampled_from(["APP.IN", "DLQ"]),
    **COMMON_FIELDS,
)


@PROPERTY_SETTINGS
@given(latency_ms=st.integers(0, 3000), ops=channel_ops)
def test_exp10_xqh06_dlq01_conservation_across_a_channel(latency_ms: int, ops: list[Op]) -> None:
    """EXP-10, XQH-06, DLQ-01: across QM1 -> channel -> QM2 every message ends exactly once:
    got at the destination, discarded (anywhere), dead-lettered (still on or got from the DLQ),
    queued at the destination, or still on the transmission queue / in flight."""
    run = ChannelRun(latency_ms)
    for op in ops:
        run.apply(op)
    events1, events2 = run.qm1.events, run.qm2.events
    dead_lettered = ids_of(events2, "get", "DLQ") + queued_ids(run.qm2, "DLQ")
    outcomes = {
        "got at destination": ids_of(events2, "get", "APP.IN"),
        "discarded": ids_of(events1, "discard") + ids_of(events2, "discard"),
        "dead-lettered": dead_lettered,
        "queued at destination": queued_ids(run.qm2, "APP.IN"),
        # The engine keeps a message in flight on the XMITQ as "got in unit of work" until it
        # arrives (docs/engine.md says the channel takes it "off" the queue): count it once.
        "on the XMITQ": queued_ids(run.qm1, "QM2", skip_state="got in unit of work"),
        "in flight": run.in_flight_ids(),
    }
    for name, ids in outcomes.items():
        event(f"some {name}") if ids else None
    wrong = exactly_once(run.put_ids, *outcomes.values())
    assert not wrong, f"messages not accounted for exactly once: {dict(wrong)}; {outcomes}"
    for qm, qname in [(run.qm2, "APP.IN"), (run.qm2, "DLQ")] + [(run.qm1, "QM2")] * (
        not run.channel.in_flight
    ):
        assert event_balance(qm, qname) == qm.curdepth(qname), f"event-log identity on {qname}"
    discarded_on_dlq = ids_of(events2, "discard", "DLQ")
    assert Counter(ids_of(events2, "dead-letter")) == Counter(dead_lettered + discarded_on_dlq), (
        "every message on, got from or discarded on the DLQ got there through one dead-letter put"
    )


# -- property 5: one expiration report per discard that asked for one ---------------------------
REPORT_OPTIONS = [
    CMQC.MQRO_NONE,
    CMQC.MQRO_EXPIRATION,
    CMQC.MQRO_EXPIRATION_WITH_DATA,
    CMQC.MQRO_EXPIRATION_WITH_FULL_DATA,
]


def expected_report_data(report: int, payload: bytes) -> bytes:
    """RPT-04: no data, the first 100 bytes (no MQ headers here), or everything."""
    if report == CMQC.MQRO_EXPIRATION_WITH_FULL_DATA:
        return payload
    if report == CMQC.MQRO_EXPIRATION_WITH_DATA:
        return payload[:100]
    return b""


@dataclass
class ReportRun:
    """APP.Q whose messages ask for expiration reports to REPLY.Q (MAXDEPTH 2) or to a queue that
    does not exist; the DLQ (MAXDEPTH 1) takes what cannot be delivered, the rest is thrown away."""

    put_ids: list[bytes] = field(default_factory=list)
    requested: dict[bytes, tuple[int, bytes]] = field(default_factory=dict)  # report, payload

    def __post_init__(self) -> None:
        self.qm = mq.QueueManager("QM1", profile="ibmi")
        self.qm.alter_qmgr(expryint=0)  # no background scan
        for name, maxdepth in [(APP_Q, 5000), ("REPLY.Q", 2), ("DLQ", 1)]:
            self.qm.define_qlocal(name, maxdepth=maxdepth)
        self.qm.alter_qmgr(deadq="DLQ")
        self.q = mq.Queue(self.qm, APP_Q)

    def apply(self, op: Op) -> None:
        kind, *args = op
        if kind == "put":
            priority, expiry, report, reply_to, length = args
            md = mq.MD(Priority=priority, Expiry=expiry, Report=report, ReplyToQ=reply_to)
            payload = bytes(i % 251 for i in range(length))
            msg_id = put_quietly(self.q, payload, md)
            self.put_ids.append(msg_id)
            if report != CMQC.MQRO_NONE:
                self.requested[msg_id] = (report, payload)
        elif kind == "advance":
            self.qm.sim.advance(ms=args[0])
        elif kind == "get":
            try_get(self.q, mq.MD(), _get_options(args[0]))
        elif kind == "browse":
            try_get(self.q, mq.MD(), CMQC.MQGMO_BROWSE_FIRST)
        elif kind in ("commit", "backout"):
            getattr(self.qm, kind)()

    def drain(self, qname: str) -> list[tuple[mq.MD, bytes]]:
        """Get every report, as a program reading reports does: with a version-2 MD, so the
        report's OriginalLength (RPT-03) stays in the MD instead of an MQMDE (MD-07)."""
        handle = mq.Queue(self.qm, qname)
        drained = []
        while True:
            md = mq.MD(Version=CMQC.MQMD_VERSION_2)
            data = try_get(handle, md, CMQC.MQGMO_NO_SYNCPOINT)
            if data is None:
                return drained
            drained.append((md, data))


report_ops = op_lists(
    {
        "put": (5, ("priority", "expiry", "report", "reply_to", "length")),
        "advance": (4, ("ms",)),
        "get": (4, ("syncpoint",)),
        "browse": (1, ()),
        "commit": (1, ()),
        "backout": (1, ()),
    },
    report=st.sampled_from(REPORT_OPTIONS),
    reply_to=st.sampled_from(["REPLY.Q", "NO.SUCH.Q"]),
    length=st.integers(0, 150),  # of the message data
    **COMMON_FIELDS,
)


def check_report(run: ReportRun, md: mq.MD, body: bytes) -> None:
    """An expiration report (RPT-03) for a message that asked for one, with the right data."""
    assert (md.MsgType, md.Feedback) == (CMQC.MQMT_REPORT, CMQC.MQFB_EXPIRATION)
    assert md.CorrelId in run.requested, "CorrelId = the original MsgId (RPT-05)"
    report, payload = run.requested[md.CorrelId]
    assert body == expected_report_data(report, payload), "report data (RPT-04)"


def thrown_away(event: Any) -> bool:
    """A ``report`` event whose detail says the report went nowhere (RPT-06, last resort)."""
    return "thrown away" in event.detail


@PROPERTY_SETTINGS
@given(ops=report_ops)
def test_rpt01_rpt02_rpt06_one_report_per_discard_that_asked_for_one(ops: list[Op]) -> None:
    """RPT-01/02/06, EXP-29: every discarded message that asked for an expiration report yields
    exactly one: on the reply queue, on the DLQ (behind an MQDLH), or a logged "thrown away"."""
    run = ReportRun()
    for op in ops:
        run.apply(op)
    run.apply(("commit",))
    events = run.qm.events
    discarded = ids_of(events, "discard", APP_Q)
    wanting = [m for m in discarded if m in run.requested]
    report_events = [e for e in events if e.kind == "report"]
    assert Counter(e.msg_id for e in report_events) == Counter(wanting), (
        "one report event per discarded message that asked for a report, none for the others"
    )
    on_reply_q = run.drain("REPLY.Q")
    on_dlq = run.drain("DLQ")
    for md, data in on_reply_q:
        check_report(run, md, data)
    for md, data in on_dlq:
        reason = mq.MQDLH.unpack(data[:172]).Reason
        assert reason in (CMQC.MQRC_Q_FULL, CMQC.MQRC_UNKNOWN_OBJECT_NAME), reason
        check_report(run, md, data[172:])
    for route, found in [("reply queue", on_reply_q), ("DLQ", on_dlq)]:
        event(f"reports on the {route}: {bool(found)}")
    event(f"reports thrown away: {any(thrown_away(e) for e in report_events)}")
    wrong = exactly_once(
        wanting,
        [md.CorrelId for md, _ in on_reply_q + on_dlq],
        [e.msg_id for e in report_events if thrown_away(e)],
    )
    assert not wrong, f"reports not accounted for exactly once: {dict(wrong)}"
