"""Dead letters at the receiving end of a channel (rule DLQ-01).

QM1 sends a message to a queue QM2 does not have. QM2 puts it on its dead-letter queue behind an
MQDLH; the message keeps its remaining expiry there, which keeps counting down, and it can expire
on the dead-letter queue like anywhere else.
"""

from __future__ import annotations

import pytest

from mqlearn import CMQC as C
from tests.engine.helpers import (
    DEAD_Q,
    DLH_LEN,
    Link,
    discard_causes,
    events,
    get_from,
    get_reason,
    linked_qmgrs,
    name,
    put_to,
    unpack_dlh,
)

LOST = b"nobody is waiting for this"


def send_to_unknown_queue(link: Link, expiry: int = 600, report: int = C.MQRO_NONE) -> None:
    """Put on QM1 for queue NO.SUCH.Q at QM2 (QM2 has no such queue); let the channel run 1 s."""
    link.qm1.define_qremote("TO.NOWHERE", rname="NO.SUCH.Q", rqmname="QM2")
    put_to(link.qm1, "TO.NOWHERE", LOST, Expiry=expiry, Report=report, Format=C.MQFMT_STRING)
    link.sim.advance(seconds=1)


@pytest.fixture
def link() -> Link:
    return linked_qmgrs()


def test_dlq01_undeliverable_arrival_goes_to_dlq_behind_mqdlh(link: Link) -> None:
    send_to_unknown_queue(link)
    assert link.qm2.curdepth(DEAD_Q) == 1
    assert len(events(link.qm2, "dead-letter")) == 1
    data, md = get_from(link.qm2, DEAD_Q)
    assert md.Format == C.MQFMT_DEAD_LETTER_HEADER
    assert len(data) == DLH_LEN + len(LOST), "MQDLH (172 bytes) + the original data"
    dlh = unpack_dlh(data)
    assert dlh.Reason == C.MQRC_UNKNOWN_OBJECT_NAME
    assert (name(dlh.DestQName), name(dlh.DestQMgrName)) == ("NO.SUCH.Q", "QM2")
    assert dlh.Format == C.MQFMT_STRING, "the MQDLH keeps the original Format"
    assert data[DLH_LEN:] == LOST


def test_dlq01_remaining_expiry_keeps_counting_down_on_the_dlq(link: Link) -> None:
    send_to_unknown_queue(link, expiry=600)  # arrives at t = 0 (latency 0), found at t = 1 s
    link.sim.advance(seconds=9)
    _, first = get_from(link.qm2, DEAD_Q, browse=True)
    link.sim.advance(seconds=20)
    _, second = get_from(link.qm2, DEAD_Q, browse=True)
    assert (first.Expiry, second.Expiry) == (500, 300), "60 s lifetime, read at 10 s and 30 s"


def test_dlq01_message_can_expire_on_the_dlq(link: Link) -> None:
    send_to_unknown_queue(link, expiry=50)
    link.sim.advance(seconds=10)
    assert link.qm2.curdepth(DEAD_Q) == 1, "expired on the DLQ, not yet discarded"
    assert get_reason(link.qm2, DEAD_Q) == C.MQRC_NO_MSG_AVAILABLE
    assert discard_causes(link.qm2, DEAD_Q) == ["get"]


def test_dlq01_discard_msg_option_drops_instead_of_dead_lettering(link: Link) -> None:
    send_to_unknown_queue(link, report=C.MQRO_DISCARD_MSG)
    assert link.qm2.curdepth(DEAD_Q) == 0
    assert link.qm1.curdepth("QM2") == 0


def test_dlq01_no_dlq_channel_stops_and_message_returns_to_xmitq() -> None:
    link = linked_qmgrs(qm2_deadq=False)
    send_to_unknown_queue(link, expiry=50)
    assert not link.channel.running
    assert link.qm1.curdepth("QM2") == 1, "back on the transmission queue"
    link.sim.advance(seconds=10)
    assert get_reason(link.qm1, "QM2") == C.MQRC_NO_MSG_AVAILABLE, "and it expires there"
