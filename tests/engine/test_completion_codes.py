"""Completion and reason codes a handle keeps after every call: MQI-01.

Every expectation here is worked out by hand from IBM's text, not read from mqlearn's own tables:
the MQMD field descriptions on "MQMD (Message descriptor) on IBM i" (MDFB, MDRQ, MDRM, MDEXP...),
the reason-code page "2209 (08A1) (RC2209): MQRC_NO_MSG_LOCKED", and "MQMDE - Message descriptor
extension". Reason codes are written as numbers, with IBM's name beside them.
"""

from __future__ import annotations

import pytest

import mqlearn as mq
from mqlearn import CMQC as C
from tests.engine.helpers import (
    get,
    new_qm,
    put,
    qm_with_queue,
    raises_reason,
)

# IBM's reason codes, written out (names from the reason-code pages)
EXPIRY_ERROR = 2013  # MQRC_EXPIRY_ERROR
PRIORITY_EXCEEDS_MAXIMUM = 2049  # MQRC_PRIORITY_EXCEEDS_MAXIMUM (warning)
NO_MSG_AVAILABLE = 2033  # MQRC_NO_MSG_AVAILABLE
NO_MSG_LOCKED = 2209  # MQRC_NO_MSG_LOCKED (completion code MQCC_WARNING on IBM's page)
HOBJ_ERROR = 2019  # MQRC_HOBJ_ERROR
OPTION_NOT_VALID_FOR_TYPE = 2045  # MQRC_OPTION_NOT_VALID_FOR_TYPE
TRUNCATED_MSG_ACCEPTED = 2079  # MQRC_TRUNCATED_MSG_ACCEPTED (warning)
TRUNCATED_MSG_FAILED = 2080  # MQRC_TRUNCATED_MSG_FAILED (warning)
NO_SUBS_MATCHED = 2550  # MQRC_NO_SUBS_MATCHED (warning)
OK, WARNING, FAILED = 0, 1, 2


# -- MQI-01: last_comp / last_reason are reset by every call ---------------------------------------
def test_mqi01_a_failure_after_a_warning_leaves_its_own_codes() -> None:
    _qm, q = qm_with_queue()
    with pytest.warns(mq.MQWarning):
        put(q, Priority=12)  # above MAXPRTY 9
    assert (q.last_comp, q.last_reason) == (WARNING, PRIORITY_EXCEEDS_MAXIMUM)
    with raises_reason(EXPIRY_ERROR):
        put(q, Expiry=0)
    assert (q.last_comp, q.last_reason) == (FAILED, EXPIRY_ERROR)
    put(q)
    assert (q.last_comp, q.last_reason) == (OK, 0)


def test_mqi01_gets_set_the_codes_on_success_warning_and_failure() -> None:
    _qm, q = qm_with_queue()
    put(q, b"0123456789")
    with raises_reason(TRUNCATED_MSG_FAILED, WARNING):
        q.get(4)
    assert (q.last_comp, q.last_reason) == (WARNING, TRUNCATED_MSG_FAILED)
    q.get(4, None, mq.GMO(Options=C.MQGMO_ACCEPT_TRUNCATED_MSG))
    assert (q.last_comp, q.last_reason) == (WARNING, TRUNCATED_MSG_ACCEPTED)
    with raises_reason(NO_MSG_AVAILABLE):
        q.get()
    assert (q.last_comp, q.last_reason) == (FAILED, NO_MSG_AVAILABLE)
    put(q)
    q.get()
    assert (q.last_comp, q.last_reason) == (OK, 0)


def test_mqi01_unlock_sets_the_codes_too() -> None:
    _qm, q = qm_with_queue()
    put(q)
    get(q, C.MQGMO_BROWSE_FIRST | C.MQGMO_LOCK)
    with raises_reason(EXPIRY_ERROR):
        put(q, Expiry=-7)
    get(q, C.MQGMO_UNLOCK)
    assert (q.last_comp, q.last_reason) == (OK, 0), "a successful unlock: 0/0"
    with raises_reason(NO_MSG_LOCKED, WARNING):
        get(q, C.MQGMO_UNLOCK)
    assert (q.last_comp, q.last_reason) == (WARNING, NO_MSG_LOCKED)


def test_mqi01_closed_handle_and_remote_get_set_the_codes() -> None:
    qm, q = qm_with_queue()
    qm.define_qlocal("QM2", usage="XMITQ")
    qm.define_qremote("TO.QM2", rname="APP.IN", rqmname="QM2")
    remote = mq.Queue(qm, "TO.QM2")
    with raises_reason(OPTION_NOT_VALID_FOR_TYPE):
        remote.get()
    assert (remote.last_comp, remote.last_reason) == (FAILED, OPTION_NOT_VALID_FOR_TYPE)
    q.close()
    assert (q.last_comp, q.last_reason) == (OK, 0)
    with raises_reason(HOBJ_ERROR):
        put(q)
    assert (q.last_comp, q.last_reason) == (FAILED, HOBJ_ERROR)
    with raises_reason(HOBJ_ERROR):
        q.get()
    assert (q.last_comp, q.last_reason) == (FAILED, HOBJ_ERROR)


def test_mqi01_topic_publish_failure_after_a_warning() -> None:
    qm = new_qm()
    qm.define_topic("PRICES", topicstr="prices")
    topic = mq.Topic(qm, topic_string="prices")
    with pytest.warns(mq.MQWarning):
        topic.pub(b"x", None, mq.PMO(Options=C.MQPMO_WARN_IF_NO_SUBS_MATCHED))
    assert (topic.last_comp, topic.last_reason) == (WARNING, NO_SUBS_MATCHED)
    with raises_reason(EXPIRY_ERROR):
        topic.pub(b"x", mq.MD(Expiry=0))
    assert (topic.last_comp, topic.last_reason) == (FAILED, EXPIRY_ERROR)
    topic.pub(b"x")
    assert (topic.last_comp, topic.last_reason) == (OK, 0)
