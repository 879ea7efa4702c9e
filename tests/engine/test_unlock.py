"""MQGMO_UNLOCK when the locked message has gone: LCK-02.

Every expectation here is worked out by hand from IBM's text, not read from mqlearn's own tables:
the MQMD field descriptions on "MQMD (Message descriptor) on IBM i" (MDFB, MDRQ, MDRM, MDEXP...),
the reason-code page "2209 (08A1) (RC2209): MQRC_NO_MSG_LOCKED", and "MQMDE - Message descriptor
extension". Reason codes are written as numbers, with IBM's name beside them.
"""

from __future__ import annotations

import mqlearn as mq
from mqlearn import CMQC as C
from tests.engine.helpers import (
    APP_Q,
    events_of,
    get,
    put,
    qm_with_queue,
    raises_reason,
)

# IBM's reason codes, written out (names from the reason-code pages)
NO_MSG_AVAILABLE = 2033  # MQRC_NO_MSG_AVAILABLE
NO_MSG_UNDER_CURSOR = 2034  # MQRC_NO_MSG_UNDER_CURSOR
NO_MSG_LOCKED = 2209  # MQRC_NO_MSG_LOCKED (completion code MQCC_WARNING on IBM's page)
OK, WARNING, FAILED = 0, 1, 2


# -- LCK-02: MQGMO_UNLOCK when the locked message has gone -----------------------------------------
def test_lck02_unlock_after_the_locked_message_expired_under_the_cursor_is_2209() -> None:
    qm, q = qm_with_queue()
    put(q, Expiry=10)  # 1 s
    get(q, C.MQGMO_BROWSE_FIRST | C.MQGMO_LOCK)
    qm.sim.advance(seconds=2)
    with raises_reason(NO_MSG_UNDER_CURSOR):  # rule LCK-01: discarded under the cursor
        get(q, C.MQGMO_MSG_UNDER_CURSOR)
    with raises_reason(NO_MSG_LOCKED, WARNING):
        get(q, C.MQGMO_UNLOCK)
    assert (q.last_comp, q.last_reason) == (WARNING, NO_MSG_LOCKED)
    with raises_reason(NO_MSG_LOCKED, WARNING):  # and the handle holds no lock afterwards
        get(q, C.MQGMO_UNLOCK)


def test_lck02_unlock_after_the_locked_message_was_discarded_by_a_get_is_2209() -> None:
    qm, q = qm_with_queue()
    put(q, b"A", Expiry=10)
    get(q, C.MQGMO_BROWSE_FIRST | C.MQGMO_LOCK)
    qm.sim.advance(seconds=2)
    with raises_reason(NO_MSG_AVAILABLE):  # the handle's own get meets A expired: discarded
        get(q)
    assert [e.cause for e in events_of(qm, "discard")] == ["get"]
    with raises_reason(NO_MSG_LOCKED, WARNING):
        get(q, C.MQGMO_UNLOCK)


def test_lck02_unlock_after_the_locked_message_was_got_is_2209() -> None:
    _qm, q = qm_with_queue()
    put(q, b"A")
    get(q, C.MQGMO_BROWSE_FIRST | C.MQGMO_LOCK)
    assert get(q, C.MQGMO_MSG_UNDER_CURSOR)[0] == b"A"
    with raises_reason(NO_MSG_LOCKED, WARNING):
        get(q, C.MQGMO_UNLOCK)


def test_lck02_unlock_of_a_message_still_there_releases_it() -> None:
    qm, q = qm_with_queue()
    other = mq.Queue(qm, APP_Q)
    put(q, b"A")
    get(q, C.MQGMO_BROWSE_FIRST | C.MQGMO_LOCK)
    with raises_reason(NO_MSG_AVAILABLE):
        get(other)  # locked by q
    get(q, C.MQGMO_UNLOCK)
    assert (q.last_comp, q.last_reason) == (OK, 0)
    assert get(other)[0] == b"A"
