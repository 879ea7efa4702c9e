"""A channel's ``channel-arrive`` event says where a message that arrives expired ran out of time:
on the link (rule EXP-10: the deadline is kept across the channel) or, for an MQXQH whose embedded
Expiry governs at the destination and had passed before the send, on the transmission queue."""

from __future__ import annotations

import mqlearn as mq
from mqlearn import CMQC


def _network(latency_ms: int) -> tuple[mq.QueueManager, mq.QueueManager, mq.Channel]:
    sim = mq.Simulation()
    qm1, qm2 = mq.QueueManager("QM1", sim), mq.QueueManager("QM2", sim)
    qm1.define_qlocal("QM2", usage="XMITQ")
    qm1.define_qremote("TO.APP", rname="APP.IN", rqmname="QM2", xmitq="QM2")
    qm2.define_qlocal("APP.IN")
    return qm1, qm2, mq.Channel(qm1, qm2, xmitq="QM2", latency_ms=latency_ms)


def _arrivals(qm: mq.QueueManager) -> list[str]:
    return [e.detail for e in qm.events if e.kind == "channel-arrive"]


def test_exp10_expired_on_the_link_is_said() -> None:
    """Expiry 15 (1.5 s), sent at 0 on a 3 s link: it arrives at 3 s expired on the channel;
    a message with time left arrives with the plain detail."""
    qm1, qm2, _ = _network(3_000)
    mq.Queue(qm1, "TO.APP").put(b"B", mq.MD(Expiry=15))
    mq.Queue(qm1, "TO.APP").put(b"C", mq.MD(Expiry=600))
    qm1.sim.advance(seconds=4)
    b_seq, c_seq = (e.msg_seq for e in qm1.events if e.kind == "channel-send")
    assert _arrivals(qm2) == [
        f"from QM1 message {b_seq}; expired on channel QM1.TO.QM2",
        f"from QM1 message {c_seq}",
    ]


def test_xqh05_embedded_expiry_run_out_before_the_send_is_said() -> None:
    """An application's MQXQH, outer 100 and embedded 5 (XQH-02, XQH-05), sent at 1 s: the
    embedded deadline (0.5 s) governs at the destination and had passed on the queue."""
    qm1, qm2, channel = _network(1_000)
    channel.stop()
    header = mq.MQXQH(RemoteQName="APP.IN", RemoteQMgrName="QM2", MsgDesc=mq.MD(Expiry=5))
    md = mq.MD(Expiry=100, Format=CMQC.MQFMT_XMIT_Q_HEADER)
    mq.Queue(qm1, "QM2").put(header.pack() + b"X", md)
    qm1.sim.advance(seconds=1)
    channel.start()
    qm1.sim.advance(seconds=2)
    (detail,) = _arrivals(qm2)
    assert detail.endswith("; expired on queue QM2")
