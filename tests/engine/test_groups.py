"""The match options on GroupId, MsgSeqNumber and Offset (issue 24, EXP-27: only matching messages
are candidates, so a get for group A never discards or reports an expired message of group B).
Logical order, whole groups and reassembly are in tests/engine/test_logical_order.py."""

from __future__ import annotations

import pytest

import mqlearn as mq
from mqlearn import CMQC as C
from tests.engine.helpers import APP_Q, REPLY_Q, raises_reason

PROFILES = ["distributed", "zos", "ibmi"]
GROUP_A = b"GROUP-A".ljust(24, b"\0")
GROUP_B = b"GROUP-B".ljust(24, b"\0")
NO_SYNC = mq.PMO(Options=C.MQPMO_NO_SYNCPOINT)


def queue_with_groups(profile: str) -> mq.QueueManager:
    """B1 (group B, expired, asks for a report), then A1, A2 (group A, seq 1 and 2, offset 0 and
    10) and B2 (group B, live); the expiry task off, so only gets discard."""
    qm = mq.QueueManager("QM1", profile=profile)
    qm.alter_qmgr(expryint=0)
    qm.define_qlocal(APP_Q)
    qm.define_qlocal(REPLY_Q)

    def put(data: bytes, group: bytes, seq: int, offset: int = 0, **fields: object) -> None:
        md = mq.MD(
            Version=2,
            GroupId=group,
            MsgSeqNumber=seq,
            Offset=offset,
            MsgFlags=C.MQMF_MSG_IN_GROUP,
            **fields,
        )
        qm.put1(APP_Q, data, md, NO_SYNC)

    put(b"B1", GROUP_B, 1, Expiry=10, Report=C.MQRO_EXPIRATION, ReplyToQ=REPLY_Q)
    put(b"A1", GROUP_A, 1)
    put(b"A2", GROUP_A, 2, offset=10)
    put(b"B2", GROUP_B, 2)
    qm.sim.advance(seconds=2)
    return qm


def get_matching(qm: mq.QueueManager, match: int, **fields: object) -> bytes:
    md = mq.MD(Version=2, **fields)
    gmo = mq.GMO(Version=2, Options=C.MQGMO_NO_SYNCPOINT, MatchOptions=match)
    return mq.Queue(qm, APP_Q).get(None, md, gmo)


@pytest.mark.parametrize("profile", PROFILES)
def test_exp27_a_get_for_group_a_leaves_group_bs_expired_message_alone(profile: str) -> None:
    """B1 expired first in delivery order; a get matching GroupId A returns A1 and neither
    discards B1 nor sends its report. A plain get later does both."""
    qm = queue_with_groups(profile)
    assert get_matching(qm, C.MQMO_MATCH_GROUP_ID, GroupId=GROUP_A) == b"A1"
    assert (qm.curdepth(APP_Q), qm.curdepth(REPLY_Q)) == (3, 0)
    assert get_matching(qm, C.MQMO_NONE) == b"A2"
    assert (qm.curdepth(APP_Q), qm.curdepth(REPLY_Q)) == (1, 1)


@pytest.mark.parametrize("profile", PROFILES)
def test_exp27_seq_number_and_offset_select_the_message(profile: str) -> None:
    qm = queue_with_groups(profile)
    both = C.MQMO_MATCH_GROUP_ID | C.MQMO_MATCH_MSG_SEQ_NUMBER
    assert get_matching(qm, both, GroupId=GROUP_B, MsgSeqNumber=2) == b"B2"
    assert get_matching(qm, C.MQMO_MATCH_OFFSET, Offset=10) == b"A2"
    with raises_reason(C.MQRC_NO_MSG_AVAILABLE):
        get_matching(qm, both, GroupId=GROUP_A, MsgSeqNumber=3)
    assert qm.curdepth(REPLY_Q) == 0, "B1 never was a candidate"


def test_exp27_a_null_group_id_matches_any_group() -> None:
    """As a null MsgId matches any message: MQMO_MATCH_GROUP_ID with MQGI_NONE restricts
    nothing, so the get meets (and discards) the expired B1 first."""
    qm = queue_with_groups("distributed")
    assert get_matching(qm, C.MQMO_MATCH_GROUP_ID, GroupId=C.MQGI_NONE) == b"A1"
    assert qm.curdepth(REPLY_Q) == 1
