"""Shared helpers for the engine's rule tests.

Plain functions rather than fixtures, so each test reads top to bottom: build queue managers, put,
move virtual time, get, and look at the event log. Everything runs on virtual time only.

Two families: the handle-level ones (:func:`new_qm`, :func:`put`, :func:`get`: a handle, options
given as flags) and the queue-manager-level ones (:func:`qm_with_queues`, :func:`put_to`,
:func:`get_from`: a queue name, MQPMO_NO_SYNCPOINT / MQGMO_NO_SYNCPOINT said explicitly, because
on the z/OS profile a call without either option runs under syncpoint). Both start a queue manager
with its background expiry task (EXP-28) off unless ``scans=True``: then only gets and browses
discard anything, however far a test moves the clock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest

import mqlearn as mq
from mqlearn import CMQC as C

QM_NAME = "QM1"
APP_Q = "APP.IN"
REPLY_Q = "APP.REPLY"  # one reply queue for every test (part 2's was "REPLY.Q")
INIT_Q = "APP.INITQ"
DEAD_Q = "DLQ"
SHORT = 10  # tenths: a one-second lifetime
XQH_LEN = 428
DLH_LEN = 172


def new_qm(*, scans: bool = False, **qm_kwargs: Any) -> mq.QueueManager:
    """A queue manager on its own fresh Simulation (time 0).

    ``scans=False`` switches the background expiry task (distributed and IBM i, EXP-28) off, so
    that only gets and browses discard anything (the lazy-expiry lesson) however far a test moves
    the clock.
    """
    qm = mq.QueueManager(QM_NAME, sim=mq.Simulation(), **qm_kwargs)
    if not scans:
        qm.alter_qmgr(expryint=0)
    return qm


def qm_with_queue(name: str = APP_Q, **queue_attrs: Any) -> tuple[mq.QueueManager, mq.Queue]:
    """A queue manager with one local queue (MQSC attributes as keywords) and a handle on it."""
    qm = new_qm()
    qm.define_qlocal(name, **queue_attrs)
    return qm, mq.Queue(qm, name)


def put(q: mq.Queue, data: bytes = b"msg", *, pmo_options: int = 0, **md_fields: Any) -> mq.MD:
    """Put ``data`` with an MD built from ``md_fields``; returns the MD (MsgId etc. filled in)."""
    md = mq.MD(**md_fields)
    q.put(data, md, mq.PMO(Options=pmo_options))
    return md


def get(
    q: mq.Queue, options: int = 0, *, md: mq.MD | None = None, **gmo_fields: Any
) -> tuple[bytes, mq.MD]:
    """MQGET with the given GMO options (0 = destructive, no wait); returns (data, returned MD)."""
    md = md if md is not None else mq.MD()
    data = q.get(None, md, mq.GMO(Options=options, **gmo_fields))
    return data, md


def browse_first(q: mq.Queue, extra: int = 0) -> tuple[bytes, mq.MD]:
    return get(q, C.MQGMO_BROWSE_FIRST | extra)


def browse_next(q: mq.Queue, extra: int = 0) -> tuple[bytes, mq.MD]:
    return get(q, C.MQGMO_BROWSE_NEXT | extra)


@contextmanager
def raises_reason(reason: int, comp: int = C.MQCC_FAILED) -> Iterator[None]:
    """Expect an MQMIError with exactly this completion and reason code."""
    with pytest.raises(mq.MQMIError) as info:
        yield
    err = info.value
    assert (err.comp, err.reason) == (comp, reason), (
        f"expected comp {comp} reason {reason} ({mq.reason_name(reason)}), "
        f"got comp {err.comp} reason {err.reason} ({mq.reason_name(err.reason)})"
    )


def assert_no_msg(q: mq.Queue, options: int = 0, **gmo_fields: Any) -> None:
    """The call finds nothing it may return: 2033 MQRC_NO_MSG_AVAILABLE (rule EXP-26)."""
    with raises_reason(C.MQRC_NO_MSG_AVAILABLE):
        get(q, options, **gmo_fields)


def events_since(qm: mq.QueueManager, mark: int) -> list[Any]:
    """Events logged after the first ``mark`` entries (``mark = len(qm.events)`` before a call)."""
    return list(qm.events[mark:])


def events_of(
    qm: mq.QueueManager, kind: str, *, queue: str | None = None, since: int = 0
) -> list[Any]:
    """Events of one kind (optionally on one queue), in log order."""
    return [e for e in qm.events[since:] if e.kind == kind and (queue is None or e.queue == queue)]


def discarded_ids(qm: mq.QueueManager, *, cause: str | None = None, since: int = 0) -> list[bytes]:
    """MsgIds of the discard events (optionally of one cause), in the order they were discarded."""
    return [e.msg_id for e in events_of(qm, "discard", since=since) if cause in (None, e.cause)]


def queue_ids(qm: mq.QueueManager, qname: str = APP_Q) -> list[str]:
    """MsgIds (hex) of the messages on a queue, in delivery order, from ``queue_frame``."""
    return list(qm.queue_frame(qname)["msg_id"])


def hexid(md: mq.MD) -> str:
    """The MsgId of ``md`` as ``queue_frame`` shows it (hex text)."""
    return md.MsgId.hex()


def drain(q: mq.Queue) -> list[mq.MD]:
    """Get every message a destructive get will still return; the MDs in the order returned."""
    got: list[mq.MD] = []
    while True:
        try:
            got.append(get(q)[1])
        except mq.MQMIError as err:
            assert err.reason == C.MQRC_NO_MSG_AVAILABLE, err
            return got


def put_expired_and_live(qm: mq.QueueManager, q: mq.Queue, pattern: str) -> list[mq.MD]:
    """Put one message per letter: ``e`` lives 1 s, ``L`` is unlimited. Then 2 s pass."""
    mds = [
        put(q, f"{i}{kind}".encode(), Expiry=SHORT if kind == "e" else C.MQEI_UNLIMITED)
        for i, kind in enumerate(pattern)
    ]
    qm.sim.advance(seconds=2)
    return mds


def syncpoint_get_discard_then_backout(report: int = C.MQRO_NONE) -> dict[str, Any]:
    """Scenario shared by EXP-29 and UOW-02.

    Two messages with a 1 s lifetime, then one unlimited message, on a FIFO queue; after 2 s a
    syncpoint get returns the live one and discards the two expired ones in front of it; then
    the unit of work is backed out. Returns the queue manager, the handle, the three MDs and the
    discard events.
    """
    qm, q = qm_with_queue(msgdlvsq="FIFO")
    qm.define_qlocal(REPLY_Q)
    reply = {"ReplyToQ": REPLY_Q} if report else {}
    expired = [put(q, b"old %d" % i, Expiry=10, Report=report, **reply) for i in range(2)]
    live = put(q, b"live")
    qm.sim.advance(seconds=2)
    mark = len(qm.events)
    data, got_md = get(q, C.MQGMO_SYNCPOINT)
    assert data == b"live"
    discards = events_of(qm, "discard", since=mark)
    qm.backout()
    return {
        "qm": qm,
        "q": q,
        "expired": expired,
        "live": live,
        "got_md": got_md,
        "discards": discards,
        "mark": mark,
    }


def qm_with_queues(
    name: str = "QM1",
    sim: mq.Simulation | None = None,
    *,
    profile: str = "distributed",
    deadq: str | None = DEAD_Q,
    queues: Iterable[str] = (APP_Q, REPLY_Q),
    scans: bool = False,
) -> mq.QueueManager:
    """A queue manager with local ``queues`` and a dead-letter queue (unless ``deadq`` is None).

    ``scans``: as for :func:`new_qm` (off unless asked for; the tests of reports, transmission
    and scans ask for them).
    """
    qm = mq.QueueManager(name, sim=sim if sim is not None else mq.Simulation(), profile=profile)
    if not scans:
        qm.alter_qmgr(expryint=0)
    for qname in queues:
        qm.define_qlocal(qname)
    if deadq is not None:
        qm.define_qlocal(deadq)
        qm.alter_qmgr(deadq=deadq)
    return qm


def put_to(qm: mq.QueueManager, qname: str, data: bytes = b"payload", **md_fields: Any) -> mq.MD:
    """MQPUT outside syncpoint; returns the MD as the put wrote it back (MsgId, context, ...)."""
    md = mq.MD(**md_fields)
    mq.Queue(qm, qname).put(data, md, mq.PMO(Options=C.MQPMO_NO_SYNCPOINT))
    return md


def put_expiring(
    qm: mq.QueueManager,
    data: bytes = b"payload",
    *,
    qname: str = APP_Q,
    expiry: int = 10,
    report: int = C.MQRO_EXPIRATION,
    reply_to: str = REPLY_Q,
    **md_fields: Any,
) -> mq.MD:
    """Put a message expiring after ``expiry`` tenths, asking for ``report`` at ``reply_to``."""
    return put_to(qm, qname, data, Expiry=expiry, Report=report, ReplyToQ=reply_to, **md_fields)


def get_from(
    qm: mq.QueueManager, qname: str, *, browse: bool = False, version: int = C.MQMD_VERSION_2
) -> tuple[bytes, mq.MD]:
    """A destructive get (or a BROWSE_FIRST) outside syncpoint; returns (data, returned MD)."""
    md = mq.MD(Version=version)
    options = C.MQGMO_NO_SYNCPOINT | (C.MQGMO_BROWSE_FIRST if browse else 0)
    data = mq.Queue(qm, qname).get(None, md, mq.GMO(Options=options))
    return data, md


def mq_reason(call: Callable[[], object]) -> int | None:
    """Run an MQI call: None when it succeeds, else the reason code of the MQMIError it raised."""
    try:
        call()
    except mq.MQMIError as err:
        assert err.comp == C.MQCC_FAILED, f"expected MQCC_FAILED, got {err}"
        return err.reason
    return None


def get_reason(qm: mq.QueueManager, qname: str, *, browse: bool = False) -> int | None:
    """The reason a get (or browse) on ``qname`` fails with, or None if it returns a message."""
    return mq_reason(lambda: get_from(qm, qname, browse=browse))


def events(qm: mq.QueueManager, kind: str, queue: str | None = None) -> list[Any]:
    """The event-log entries of one kind, optionally only those about one queue."""
    return [e for e in qm.events if e.kind == kind and (queue is None or e.queue == queue)]


def discard_causes(qm: mq.QueueManager, queue: str | None = None) -> list[str]:
    """The ``cause`` of every discard logged so far (get, browse, scan, channel, cursor)."""
    return [e.cause for e in events(qm, "discard", queue)]


def name(value: str) -> str:
    """A character field without its blank padding (headers may return names padded)."""
    return value.rstrip()


def unpack_xqh(data: bytes) -> Any:
    """The MQXQH at the start of a transmission-queue message."""
    return mq.MQXQH.unpack(data[:XQH_LEN])


def unpack_dlh(data: bytes) -> Any:
    """The MQDLH at the start of a dead-letter message."""
    return mq.MQDLH.unpack(data[:DLH_LEN])


def xqh_message(
    embedded_expiry: int,
    payload: bytes = b"payload",
    *,
    rname: str = APP_Q,
    rqmname: str = "QM2",
) -> bytes:
    """Hand-built transmission-queue data: MQXQH (embedded Expiry ``embedded_expiry``) + payload."""
    inner = mq.MD(Expiry=embedded_expiry, Format=C.MQFMT_STRING)
    header = mq.MQXQH(RemoteQName=rname, RemoteQMgrName=rqmname, MsgDesc=inner)
    return bytes(header.pack()) + payload


def put_xmit(qm: mq.QueueManager, qname: str, outer_expiry: int, data: bytes) -> mq.MD:
    """Put data that claims to start with an MQXQH (Format MQFMT_XMIT_Q_HEADER) on ``qname``."""
    return put_to(qm, qname, data, Expiry=outer_expiry, Format=C.MQFMT_XMIT_Q_HEADER)


@dataclass
class Link:
    """Two queue managers on one Simulation, joined by a channel QM1 -> QM2.

    QM1 has transmission queue ``QM2`` and remote definition ``TO.QM2`` (-> APP.IN on QM2);
    both have APP.IN, REPLY.Q and (unless switched off) a dead-letter queue DLQ.
    """

    sim: mq.Simulation
    qm1: mq.QueueManager
    qm2: mq.QueueManager
    channel: mq.Channel


def set_running(channel: mq.Channel, running: bool) -> None:
    """Start or stop a channel, whatever state it was created in."""
    if running and not channel.running:
        channel.start()
    elif not running and channel.running:
        channel.stop()


def linked_qmgrs(*, latency_ms: int = 0, running: bool = True, qm2_deadq: bool = True) -> Link:
    sim = mq.Simulation()
    qm1 = qm_with_queues("QM1", sim, scans=True)
    qm1.define_qlocal("QM2", usage="XMITQ")
    qm1.define_qremote("TO.QM2", rname=APP_Q, rqmname="QM2")
    qm2 = qm_with_queues("QM2", sim, deadq=DEAD_Q if qm2_deadq else None, scans=True)
    channel = mq.Channel(qm1, qm2, xmitq="QM2", latency_ms=latency_ms)
    set_running(channel, running)
    return Link(sim, qm1, qm2, channel)


def trigger_monitor(
    qm: mq.QueueManager, initq: str = INIT_Q, process: str = "APP.PROCESS"
) -> mq.Queue:
    """What IBM's "Conditions for a trigger event" needs besides TRIGGER and INITQ (TRG-04): the
    process definition ``process`` (APPLICID 'app') and a trigger monitor, a handle holding
    ``initq`` open for input. Returns the monitor's handle."""
    qm.define_process(process, applicid="app", replace=True)
    return mq.Queue(qm, initq, C.MQOO_INPUT_SHARED)
