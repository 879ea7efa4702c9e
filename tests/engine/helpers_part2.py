"""Shared helpers for the rule tests, part 2 (reports, transmission queues, dead letters, scans).

Plain functions, so every test reads top to bottom: build queue managers, put, move virtual time,
get, and look at the event log. All puts and gets say MQPMO_NO_SYNCPOINT / MQGMO_NO_SYNCPOINT
explicitly, because on the z/OS profile a call without either option runs under syncpoint.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import mqlearn as mq
from mqlearn import CMQC as C

APP_Q = "APP.IN"
REPLY_Q = "REPLY.Q"
DEAD_Q = "DLQ"
XQH_LEN = 428
DLH_LEN = 172


def qm_with_queues(
    name: str = "QM1",
    sim: mq.Simulation | None = None,
    *,
    profile: str = "distributed",
    deadq: str | None = DEAD_Q,
    queues: Iterable[str] = (APP_Q, REPLY_Q),
) -> mq.QueueManager:
    """A queue manager with local ``queues`` and a dead-letter queue (unless ``deadq`` is None).

    Its background expiry task runs (EXP-28), unlike ``helpers_part1.new_qm``'s by default.
    """
    qm = mq.QueueManager(name, sim=sim if sim is not None else mq.Simulation(), profile=profile)
    for qname in queues:
        qm.define_qlocal(qname)
    if deadq is not None:
        qm.define_qlocal(deadq)
        qm.alter_qmgr(deadq=deadq)
    return qm


def put(qm: mq.QueueManager, qname: str, data: bytes = b"payload", **md_fields: Any) -> mq.MD:
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
    return put(qm, qname, data, Expiry=expiry, Report=report, ReplyToQ=reply_to, **md_fields)


def get(
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
    return mq_reason(lambda: get(qm, qname, browse=browse))


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
    return put(qm, qname, data, Expiry=outer_expiry, Format=C.MQFMT_XMIT_Q_HEADER)


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
    qm1 = qm_with_queues("QM1", sim)
    qm1.define_qlocal("QM2", usage="XMITQ")
    qm1.define_qremote("TO.QM2", rname=APP_Q, rqmname="QM2")
    qm2 = qm_with_queues("QM2", sim, deadq=DEAD_Q if qm2_deadq else None)
    channel = mq.Channel(qm1, qm2, xmitq="QM2", latency_ms=latency_ms)
    set_running(channel, running)
    return Link(sim, qm1, qm2, channel)
