"""ReplyToQ and ReplyToQMgr as MQPUT sends them: RPL-02 and RPL-03.

Every expectation here is worked out by hand from IBM's text, not read from mqlearn's own tables:
the ReplyToQ and ReplyToQMgr field descriptions (MDRQ, MDRM) on "MQMD (Message descriptor) on
IBM i". Reason codes are written as numbers, with IBM's name beside them.
"""

from __future__ import annotations

import mqlearn as mq
from mqlearn import CMQC as C
from tests.engine.helpers import (
    APP_Q,
    REPLY_Q,
    get,
    put,
    qm_with_queue,
    raises_reason,
)

# IBM's reason codes, written out (names from the reason-code pages)
NO_MSG_AVAILABLE = 2033  # MQRC_NO_MSG_AVAILABLE


# -- RPL-03 / RPL-02: ReplyToQMgr and ReplyToQ as MQPUT sends them ---------------------------------
def test_rpl03_blank_reply_to_q_still_gets_this_queue_managers_name() -> None:
    """As the amqsbcg capture of an amqsput message shows: ReplyToQ blank, ReplyToQMgr 'QM1'."""
    _qm, q = qm_with_queue()
    md = put(q)
    assert md.ReplyToQMgr == "QM1"
    _, got = get(q)
    assert (got.ReplyToQ, got.ReplyToQMgr) == ("", "QM1")


def test_rpl03_put1_publish_and_syncpoint_puts_fill_reply_to_qmgr() -> None:
    qm, q = qm_with_queue()
    qm.define_topic("PRICES", topicstr="prices")
    qm.define_sub("SUB", topicstr="prices", dest=APP_Q)
    qm.put1(APP_Q, b"a", mq.MD(Expiry=100))
    q.put(b"b", mq.MD(), mq.PMO(Options=C.MQPMO_SYNCPOINT))
    qm.commit()
    q.put(b"c", mq.MD(UserIdentifier="me"), mq.PMO(Options=C.MQPMO_SET_IDENTITY_CONTEXT))
    publisher = mq.MD()
    mq.Topic(qm, topic_string="prices").pub(b"d", publisher)
    assert publisher.ReplyToQMgr == "QM1"
    got = [get(q)[1].ReplyToQMgr for _ in range(4)]
    assert got == ["QM1"] * 4


def test_rpl03_a_given_reply_to_qmgr_is_kept() -> None:
    _qm, q = qm_with_queue()
    put(q, ReplyToQMgr="QM7")
    assert get(q)[1].ReplyToQMgr == "QM7"


def test_rpl03_message_arriving_over_a_channel_keeps_the_senders_name() -> None:
    sim = mq.Simulation()
    qm1, qm2 = mq.QueueManager("QM1", sim=sim), mq.QueueManager("QM2", sim=sim)
    qm1.define_qlocal("QM2", usage="XMITQ")
    qm1.define_qremote("TO.APP", rname=APP_Q, rqmname="QM2")
    qm2.define_qlocal(APP_Q)
    mq.Channel(qm1, qm2, xmitq="QM2")
    mq.Queue(qm1, "TO.APP").put(b"x")
    sim.advance(seconds=1)
    _, got = get(mq.Queue(qm2, APP_Q))
    assert (got.ReplyToQ, got.ReplyToQMgr) == ("", "QM1")


def test_rpl02_reply_to_q_naming_a_remote_definition_sends_its_rname_and_rqmname() -> None:
    qm, q = qm_with_queue()
    qm.define_qlocal("QM2", usage="XMITQ")
    qm.define_qremote("REPLIES.AT.QM2", rname="APP.REPLIES", rqmname="QM2")
    md = put(q, ReplyToQ="REPLIES.AT.QM2", MsgType=1)  # a request
    assert (md.ReplyToQ, md.ReplyToQMgr) == ("REPLIES.AT.QM2", "QM2"), "ReplyToQ: input only"
    _, got = get(q)
    assert (got.ReplyToQ, got.ReplyToQMgr) == ("APP.REPLIES", "QM2")


def test_rpl02_put1_and_publication_copies_resolve_the_remote_definition_too() -> None:
    qm, q = qm_with_queue()
    qm.define_qlocal("QM2", usage="XMITQ")
    qm.define_qremote("REPLIES.AT.QM2", rname="APP.REPLIES", rqmname="QM2")
    qm.define_topic("PRICES", topicstr="prices")
    qm.define_sub("SUB", topicstr="prices", dest=APP_Q)
    qm.put1(APP_Q, b"a", mq.MD(ReplyToQ="REPLIES.AT.QM2"))
    publisher = mq.MD(ReplyToQ="REPLIES.AT.QM2")
    mq.Topic(qm, topic_string="prices").pub(b"b", publisher)
    assert (publisher.ReplyToQ, publisher.ReplyToQMgr) == ("REPLIES.AT.QM2", "QM2")
    got = [get(q)[1] for _ in range(2)]
    assert [(md.ReplyToQ, md.ReplyToQMgr) for md in got] == [("APP.REPLIES", "QM2")] * 2


def test_rpl02_no_substitution_when_reply_to_qmgr_is_given() -> None:
    """IBM substitutes only "if the MDRM field is blank"."""
    qm, q = qm_with_queue()
    qm.define_qlocal("QM2", usage="XMITQ")
    qm.define_qremote("REPLIES.AT.QM2", rname="APP.REPLIES", rqmname="QM2")
    put(q, ReplyToQ="REPLIES.AT.QM2", ReplyToQMgr="QM9")
    _, got = get(q)
    assert (got.ReplyToQ, got.ReplyToQMgr) == ("REPLIES.AT.QM2", "QM9")


def test_rpl02_a_local_reply_queue_is_unchanged() -> None:
    qm, q = qm_with_queue()
    qm.define_qlocal(REPLY_Q)
    put(q, ReplyToQ=REPLY_Q)
    _, got = get(q)
    assert (got.ReplyToQ, got.ReplyToQMgr) == (REPLY_Q, "QM1")


def test_rpl02_the_expiration_report_goes_to_the_remote_definitions_target() -> None:
    """The report follows the substituted names: it leaves for QM2 addressed to APP.REPLIES."""
    qm, q = qm_with_queue()
    qm.define_qlocal("QM2", usage="XMITQ")
    qm.define_qremote("REPLIES.AT.QM2", rname="APP.REPLIES", rqmname="QM2")
    put(q, Expiry=10, Report=C.MQRO_EXPIRATION, ReplyToQ="REPLIES.AT.QM2")
    qm.sim.advance(seconds=2)
    with raises_reason(NO_MSG_AVAILABLE):
        get(q)
    data = mq.Queue(qm, "QM2").get(None, mq.MD(Version=2))
    header = mq.MQXQH.unpack(data[: C.MQXQH_LENGTH_1])
    assert (header.RemoteQName, header.RemoteQMgrName) == ("APP.REPLIES", "QM2")
