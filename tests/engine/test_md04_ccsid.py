"""MD-04: MQCCSI_Q_MGR (and MQCCSI_INHERIT) in a put's MQMD become the queue manager's CCSID.

Expectations worked out by hand from IBM's text: "MQMD (Message descriptor) on IBM i" (MDCSI:
"On the MQPUT and MQPUT1 calls, the queue manager changes this value in the MQMD sent with the
message to the true character-set identifier of the queue manager. As a result, the value CSQM is
never returned by the MQGET call"; CSINHT is changed the same way; "does not change the MQMD
specified on the MQPUT or MQPUT1 call"), "CodedCharSetId (MQLONG)" of the queue manager (z/OS: 500
by default), and the real amqsbcg captures of a Linux queue manager (CodedCharSetId 1208).
"""

from __future__ import annotations

import pytest

import mqlearn as mq
from mqlearn import CMQC as C
from tests.engine.helpers import (
    APP_Q,
    INIT_Q,
    REPLY_Q,
    get,
    new_qm,
    put,
    qm_with_queue,
    trigger_monitor,
)

Q_MGR = 0  # MQCCSI_Q_MGR, the initial value of MQMD.CodedCharSetId
INHERIT = -2  # MQCCSI_INHERIT
UTF8 = 1208  # a Linux queue manager created in a UTF-8 locale (the captures)
ZOS_DEFAULT = 500  # IBM: "On z/OS, ... the default value is 500"


@pytest.mark.parametrize("given", [Q_MGR, INHERIT], ids=["q-mgr", "inherit"])
def test_md04_a_get_never_returns_q_mgr_or_inherit(given: int) -> None:
    _qm, q = qm_with_queue()
    md = put(q, CodedCharSetId=given)
    assert md.CodedCharSetId == given, "the put leaves the caller's MQMD as it was"
    _, got = get(q)
    assert got.CodedCharSetId == UTF8


def test_md04_an_explicit_ccsid_is_kept() -> None:
    _qm, q = qm_with_queue()
    put(q, CodedCharSetId=819)
    assert get(q)[1].CodedCharSetId == 819


@pytest.mark.parametrize(
    ("profile", "ccsid"), [("distributed", UTF8), ("zos", ZOS_DEFAULT), ("ibmi", 37)]
)
def test_md04_default_ccsid_per_profile(profile: str, ccsid: int) -> None:
    """distributed 1208 (the captures), z/OS 500 (IBM's documented default), IBM i 37 (mqlearn's
    choice: IBM gives the creating job's CCSID, no fixed default; docs/engine.md)."""
    qm = new_qm(profile=profile)
    assert qm.ccsid == ccsid
    qm.define_qlocal(APP_Q)
    q = mq.Queue(qm, APP_Q)
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert get(q, C.MQGMO_NO_SYNCPOINT)[1].CodedCharSetId == ccsid


def test_md04_alter_qmgr_ccsid_applies_to_later_puts_only() -> None:
    qm, q = qm_with_queue()
    put(q, b"before")
    qm.alter_qmgr(ccsid=819)
    put(q, b"after")
    assert [get(q)[1].CodedCharSetId for _ in range(2)] == [UTF8, 819]


@pytest.mark.parametrize("bad", [0, -2, 65_536, True, "1208", 1208.0])
def test_md04_alter_qmgr_refuses_a_ccsid_outside_1_to_65535(bad: object) -> None:
    qm = new_qm()
    with pytest.raises(ValueError, match="CCSID"):
        qm.alter_qmgr(ccsid=bad)  # type: ignore[arg-type]
    assert qm.ccsid == UTF8


def test_md04_put1_context_puts_and_publication_copies_are_resolved_too() -> None:
    qm, q = qm_with_queue()
    qm.define_topic("PRICES", topicstr="prices")
    qm.define_sub("SUB", topicstr="prices", dest=APP_Q)
    qm.put1(APP_Q, b"a")
    put(q, b"b", pmo_options=C.MQPMO_SET_ALL_CONTEXT, PutApplName="mine")
    put(q, b"c", pmo_options=C.MQPMO_SYNCPOINT)
    qm.commit()
    mq.Topic(qm, topic_string="prices").pub(b"d")
    assert [get(q)[1].CodedCharSetId for _ in range(4)] == [UTF8] * 4


def test_md04_a_report_never_copies_zero() -> None:
    """The report copies CodedCharSetId from the original (RPT-03): the value the put sent."""
    qm, q = qm_with_queue()
    qm.define_qlocal(REPLY_Q)
    put(q, Expiry=10, Report=C.MQRO_EXPIRATION, ReplyToQ=REPLY_Q)
    qm.sim.advance(seconds=2)
    with pytest.raises(mq.MQMIError):
        get(q)
    _, report = get(mq.Queue(qm, REPLY_Q), md=mq.MD(Version=2))
    assert (report.MsgType, report.CodedCharSetId) == (C.MQMT_REPORT, UTF8)


def test_md04_dead_letter_and_its_header() -> None:
    """A dead letter's MQDLH is in the queue manager's character set (its MD says 1208), and the
    MQDLH's own CodedCharSetId is the original data's, which the original put made 1208."""
    qm, q = qm_with_queue()
    qm.define_qlocal("DLQ")
    qm.alter_qmgr(deadq="DLQ")
    qm.define_qlocal("GONE.REPLY", put="DISABLED")
    put(q, Expiry=10, Report=C.MQRO_EXPIRATION, ReplyToQ="GONE.REPLY")
    qm.sim.advance(seconds=2)
    with pytest.raises(mq.MQMIError):
        get(q)
    data, dead = get(mq.Queue(qm, "DLQ"), md=mq.MD(Version=2))
    assert (dead.Format, dead.CodedCharSetId) == (C.MQFMT_DEAD_LETTER_HEADER, UTF8)
    assert mq.MQDLH.unpack(data).CodedCharSetId == UTF8


def test_md04_trigger_message_is_in_the_queue_managers_ccsid() -> None:
    """IBM's MQTM page: character data in the MQTM is in the character set of the queue manager
    that generates it, and the MQMD's CodedCharSetId says which."""
    qm = new_qm(profile="zos")
    qm.define_qlocal(INIT_Q)
    trigger_monitor(qm)
    qm.define_qlocal(APP_Q, trigger=True, trigtype="EVERY", initq=INIT_Q, process="APP.PROCESS")
    put(mq.Queue(qm, APP_Q), pmo_options=C.MQPMO_NO_SYNCPOINT)
    _, md = get(mq.Queue(qm, INIT_Q), C.MQGMO_NO_SYNCPOINT)
    assert (md.Format, md.CodedCharSetId) == (C.MQFMT_TRIGGER, ZOS_DEFAULT)


def test_md04_remote_put_and_channel_keep_the_senders_ccsid() -> None:
    """QM1 (1208) sends to a z/OS QM2 (500): the transmission queue's outer MD and the MQXQH are
    QM1's (1208); the embedded MD carries the CCSID QM1's put sent (1208), and the message
    delivered on QM2 keeps it: the data is still in QM1's character set."""
    sim = mq.Simulation()
    qm1 = mq.QueueManager("QM1", sim=sim)
    qm2 = mq.QueueManager("QM2", sim=sim, profile="zos")
    qm1.define_qlocal("QM2", usage="XMITQ")
    qm1.define_qremote("TO.APP", rname=APP_Q, rqmname="QM2")
    qm2.define_qlocal(APP_Q)
    mq.Queue(qm1, "TO.APP").put(b"x", mq.MD(Encoding=273))
    outer = mq.MD(Version=2)
    data = mq.Queue(qm1, "QM2").get(None, outer, mq.GMO(Options=C.MQGMO_BROWSE_FIRST))
    header = mq.MQXQH.unpack(data)
    assert (outer.Encoding, outer.CodedCharSetId) == (C.MQENC_NATIVE, UTF8)
    assert (header.MsgDesc.Encoding, header.MsgDesc.CodedCharSetId) == (273, UTF8)
    mq.Channel(qm1, qm2, xmitq="QM2")
    sim.advance(seconds=1)
    got = mq.MD()
    mq.Queue(qm2, APP_Q).get(None, got, mq.GMO(Options=C.MQGMO_NO_SYNCPOINT))
    assert (got.Encoding, got.CodedCharSetId) == (273, UTF8)
