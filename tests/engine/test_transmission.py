"""Transmission queues, the MQXQH and its two Expiry fields, channels (XQH-01..06, EXP-10).

A message on a transmission queue carries two descriptors: the outer MQMD and the MD embedded in
the MQXQH at the start of the data. Only the outer Expiry decides discard (XQH-04); both are
decremented when the message is retrieved (XQH-03); an embedded Expiry that ran out reads 0
(XQH-05).
"""

from __future__ import annotations

import pytest

import mqlearn as mq
from mqlearn import CMQC as C
from tests.engine.helpers import (
    APP_Q,
    REPLY_Q,
    XQH_LEN,
    discard_causes,
    events,
    get_from,
    get_reason,
    linked_qmgrs,
    mq_reason,
    name,
    put_expiring,
    put_to,
    put_xmit,
    qm_with_queues,
    set_running,
    unpack_xqh,
    xqh_message,
)


def qm_with_xmitq(profile: str = "distributed", usage: str = "XMITQ") -> mq.QueueManager:
    """QM1 with a queue named QM2 (a transmission queue unless ``usage`` says otherwise)."""
    qm = qm_with_queues(profile=profile, scans=True)
    qm.define_qlocal("QM2", usage=usage)
    return qm


# --- XQH-01: a put to a remote queue --------------------------------------------------------


def test_xqh01_remote_put_lands_on_xmitq_behind_an_mqxqh() -> None:
    qm = qm_with_xmitq()
    qm.define_qremote("TO.QM2", rname=APP_Q, rqmname="QM2")
    md = put_to(qm, "TO.QM2", b"hello", Expiry=300, Format=C.MQFMT_STRING)
    assert md.Expiry == 300, "Expiry is input-only: the put leaves it alone"
    data, outer = get_from(qm, "QM2", browse=True)
    assert outer.Format == C.MQFMT_XMIT_Q_HEADER
    assert outer.Expiry == 300
    assert (outer.PutApplType, name(outer.PutApplName)) == (C.MQAT_QMGR, "QM1")
    xqh = unpack_xqh(data)
    assert (name(xqh.RemoteQName), name(xqh.RemoteQMgrName)) == (APP_Q, "QM2")
    assert xqh.MsgDesc.Expiry == outer.Expiry == 300, "both Expiry fields = the application's"
    assert xqh.MsgDesc.Version == C.MQMD_VERSION_1
    assert xqh.MsgDesc.Format == C.MQFMT_STRING
    assert xqh.MsgDesc.MsgId == md.MsgId
    assert data[XQH_LEN:] == b"hello"


# --- XQH-02: an application putting straight to a transmission queue -----------------------

VALID_XQH = xqh_message(50)


@pytest.mark.parametrize(
    ("outer", "data"),
    [
        (100, xqh_message(200)),  # embedded longer than outer
        (100, xqh_message(C.MQEI_UNLIMITED)),
        (100, xqh_message(0)),  # embedded invalid
        (100, VALID_XQH[:110]),  # too short to hold the embedded Expiry
        (100, VALID_XQH),
    ],
    ids=["longer", "unlimited", "zero", "short", "shorter"],
)
def test_xqh02_ibmi_does_not_check_the_embedded_expiry(outer: int, data: bytes) -> None:
    qm = qm_with_xmitq("ibmi")
    put_xmit(qm, "QM2", outer, data)
    assert qm.curdepth("QM2") == 1


@pytest.mark.parametrize("profile", ["distributed", "zos"])
@pytest.mark.parametrize(
    ("outer", "embedded"),
    [(100, 50), (100, 100), (100, 1), (C.MQEI_UNLIMITED, 50), (C.MQEI_UNLIMITED, -1)],
)
def test_xqh02_consistent_pair_accepted(profile: str, outer: int, embedded: int) -> None:
    qm = qm_with_xmitq(profile)
    put_xmit(qm, "QM2", outer, xqh_message(embedded))
    assert qm.curdepth("QM2") == 1


@pytest.mark.parametrize("profile", ["distributed", "zos"])
@pytest.mark.parametrize(
    ("outer", "data"),
    [
        (100, xqh_message(0)),
        (100, xqh_message(-5)),
        (100, xqh_message(101)),
        (100, xqh_message(C.MQEI_UNLIMITED)),
        (100, VALID_XQH[:110]),
    ],
    ids=["zero", "negative", "longer", "unlimited-under-finite", "short"],
)
def test_xqh02_inconsistent_pair_rejected_with_2013(profile: str, outer: int, data: bytes) -> None:
    qm = qm_with_xmitq(profile)
    assert mq_reason(lambda: put_xmit(qm, "QM2", outer, data)) == C.MQRC_EXPIRY_ERROR
    assert qm.curdepth("QM2") == 0, "a rejected put leaves nothing behind"
    assert [e.reason for e in events(qm, "failed")] == [C.MQRC_EXPIRY_ERROR]


# --- XQH-03 / 04 / 05: the seed scenario "XQH with two different Expiry values" --------------


@pytest.mark.parametrize("usage", ["XMITQ", "NORMAL"])
@pytest.mark.parametrize(
    ("outer", "embedded", "wait_s", "outer_left", "embedded_left"),
    [(100, 50, 6, 40, 0), (100, 80, 3, 70, 50)],
)
def test_xqh03_05_both_expiry_fields_decremented_on_get(
    usage: str, outer: int, embedded: int, wait_s: int, outer_left: int, embedded_left: int
) -> None:
    """Seed scenario: outer 100 / embedded 50, after 6 s -> 40 and 0 (the embedded one ran out,
    XQH-05, yet the message is returned: XQH-04); outer 100 / embedded 80 after 3 s -> 70 and 50.
    XQH-03 holds on any queue, transmission queue or not."""
    qm = qm_with_xmitq(usage=usage)
    put_xmit(qm, "QM2", outer, xqh_message(embedded, b"body"))
    qm.sim.advance(seconds=wait_s)
    data, md = get_from(qm, "QM2")
    assert md.Expiry == outer_left
    assert unpack_xqh(data).MsgDesc.Expiry == embedded_left
    assert data[XQH_LEN:] == b"body"


def test_xqh03_remote_put_both_fields_decremented_on_get() -> None:
    qm = qm_with_xmitq()
    qm.define_qremote("TO.QM2", rname=APP_Q, rqmname="QM2")
    put_to(qm, "TO.QM2", b"hello", Expiry=100)
    qm.sim.advance(seconds=3)
    data, outer = get_from(qm, "QM2")
    assert (outer.Expiry, unpack_xqh(data).MsgDesc.Expiry) == (70, 70)


def test_xqh04_outer_expiry_alone_decides_discard() -> None:
    """ibmi accepts an embedded Expiry longer than the outer one; the outer one still rules."""
    qm = qm_with_xmitq("ibmi")
    put_xmit(qm, "QM2", 50, xqh_message(1000))
    qm.sim.advance(seconds=6)
    assert get_reason(qm, "QM2") == C.MQRC_NO_MSG_AVAILABLE
    assert discard_causes(qm, "QM2") == ["get"]


def test_xqh03_short_data_left_alone_on_get() -> None:
    qm = qm_with_xmitq(usage="NORMAL")
    put_xmit(qm, "QM2", 100, b"too short for an MQXQH")
    qm.sim.advance(seconds=3)
    data, md = get_from(qm, "QM2")
    assert (data, md.Expiry) == (b"too short for an MQXQH", 70)


# --- XQH-06: expiry on an intermediate transmission queue -----------------------------------


def test_xqh06_expires_on_xmitq_while_channel_stopped() -> None:
    link = linked_qmgrs(running=False)
    original = put_expiring(link.qm1, qname="TO.QM2", expiry=10)
    link.sim.advance(seconds=5)
    assert link.qm1.curdepth("QM2") == 1, "expired, not yet discarded"
    assert events(link.qm1, "report") == []

    link.channel.start()
    link.sim.advance(seconds=1)
    assert discard_causes(link.qm1, "QM2") == ["channel"]
    assert link.qm1.curdepth("QM2") == 0
    assert link.qm2.curdepth(APP_Q) == 0, "the expired message never reaches its destination"
    _, report = get_from(link.qm1, REPLY_Q)
    assert (report.Feedback, report.CorrelId) == (C.MQFB_EXPIRATION, original.MsgId)


def test_xqh06_report_travels_back_from_an_intermediate_qmgr() -> None:
    """QM1 -> QM2 -> QM3: the message expires on QM2's transmission queue QM3 (channel stopped);
    QM2 discards it and sends the report back over its channel to QM1's REPLY.Q."""
    sim = mq.Simulation()
    qm1 = qm_with_queues("QM1", sim, scans=True)
    qm1.define_qlocal("QM2", usage="XMITQ")
    qm1.define_qremote("TO.QM3", rname=APP_Q, rqmname="QM3", xmitq="QM2")
    qm2 = qm_with_queues("QM2", sim, scans=True)
    qm2.define_qlocal("QM3", usage="XMITQ")
    qm2.define_qlocal("QM1", usage="XMITQ")
    qm3 = qm_with_queues("QM3", sim, scans=True)
    set_running(mq.Channel(qm1, qm2, xmitq="QM2"), True)
    set_running(mq.Channel(qm2, qm1, xmitq="QM1"), True)
    onward = mq.Channel(qm2, qm3, xmitq="QM3")
    set_running(onward, False)

    original = put_expiring(qm1, qname="TO.QM3", expiry=20)
    sim.advance(seconds=1)
    assert qm2.curdepth("QM3") == 1, "the message waits on QM2's transmission queue"
    sim.advance(seconds=5)
    onward.start()
    sim.advance(seconds=1)

    assert discard_causes(qm2, "QM3") == ["channel"]
    assert qm3.curdepth(APP_Q) == 0
    _, report = get_from(qm1, REPLY_Q)
    assert (report.Feedback, report.CorrelId) == (C.MQFB_EXPIRATION, original.MsgId)
    assert name(report.ReplyToQMgr) == "QM2", "the generating queue manager"


# --- EXP-10: time on the transmission queue and in transit counts ---------------------------


def test_exp10_remaining_expiry_reduced_by_xmitq_wait_and_latency() -> None:
    link = linked_qmgrs(latency_ms=1500, running=False)
    put_to(link.qm1, "TO.QM2", b"travel", Expiry=100)
    link.sim.advance(seconds=2)  # 2 s waiting on the transmission queue
    link.channel.start()
    link.sim.advance(seconds=2)  # taken at 2.0 s, arrives at 3.5 s, waits 0.5 s on APP.IN
    (arrival,) = events(link.qm2, "channel-arrive")
    assert (arrival.time_ms, arrival.expiry) == (3500, 65)
    data, md = get_from(link.qm2, APP_Q)
    assert data == b"travel"
    assert md.Expiry == 60, "100 - 20 (xmitq) - 15 (transit) - 5 (destination queue)"


def test_exp10_embedded_expiry_governs_at_the_destination() -> None:
    link = linked_qmgrs(latency_ms=1000)
    put_xmit(link.qm1, "QM2", 100, xqh_message(50, b"inner"))
    link.sim.advance(seconds=2)
    data, md = get_from(link.qm2, APP_Q)
    assert (data, md.Expiry) == (b"inner", 30)


def test_exp10_embedded_expiry_run_out_arrives_expired() -> None:
    link = linked_qmgrs(running=False)
    put_xmit(link.qm1, "QM2", 100, xqh_message(20, b"inner"))
    link.sim.advance(seconds=3)
    link.channel.start()
    link.sim.advance(seconds=1)
    assert link.qm2.curdepth(APP_Q) == 1, "it arrives (embedded Expiry 0), expired on arrival"
    assert get_reason(link.qm2, APP_Q) == C.MQRC_NO_MSG_AVAILABLE
    assert discard_causes(link.qm2, APP_Q) == ["get"]
