"""MQOPEN options decide which calls a handle may make (rule MQI-02).

Expectations from IBM's reason-code pages: 2036 MQRC_NOT_OPEN_FOR_BROWSE (a browse, or
MQGMO_MSG_UNDER_CURSOR, without MQOO_BROWSE), 2037 MQRC_NOT_OPEN_FOR_INPUT (MQGET without an
MQOO_INPUT_ option), 2039 MQRC_NOT_OPEN_FOR_OUTPUT (MQPUT without MQOO_OUTPUT), 2045
MQRC_OPTION_NOT_VALID_FOR_TYPE (input or browse on a remote queue), 2046 MQRC_OPTIONS_ERROR.
"""

from __future__ import annotations

import pytest

import mqlearn as mq
from mqlearn import CMQC as C

BROWSE_FIRST = mq.GMO(Options=C.MQGMO_BROWSE_FIRST)


def queue_manager() -> mq.QueueManager:
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    qm.define_qlocal("QM2", usage="XMITQ")
    qm.define_qremote("TO.QM2", rname="APP.IN", rqmname="QM2", xmitq="QM2")
    return qm


def reason(call: object) -> int:
    with pytest.raises(mq.MQMIError) as raised:
        call()  # type: ignore[operator]
    return raised.value.reason


def test_mqi02_output_only_handle_refuses_gets_2037_and_browses_2036() -> None:
    qm = queue_manager()
    q = mq.Queue(qm, "APP.IN", C.MQOO_OUTPUT)
    q.put(b"A")
    assert reason(lambda: q.get()) == 2037
    assert (q.last_comp, q.last_reason) == (C.MQCC_FAILED, 2037)
    assert reason(lambda: q.get(None, mq.MD(), BROWSE_FIRST)) == 2036
    assert qm.curdepth("APP.IN") == 1, "nothing was got"


def test_mqi02_input_only_handle_refuses_puts_2039_and_browses_2036() -> None:
    qm = queue_manager()
    mq.Queue(qm, "APP.IN", C.MQOO_OUTPUT).put(b"A")
    q = mq.Queue(qm, "APP.IN", C.MQOO_INPUT_SHARED)
    assert reason(lambda: q.put(b"B")) == 2039
    assert reason(lambda: q.get(None, mq.MD(), BROWSE_FIRST)) == 2036
    assert q.get() == b"A"


def test_mqi02_browse_only_handle_browses_but_gets_nothing_2037() -> None:
    qm = queue_manager()
    mq.Queue(qm, "APP.IN", C.MQOO_OUTPUT).put(b"A")
    q = mq.Queue(qm, "APP.IN", C.MQOO_BROWSE)
    assert q.get(None, mq.MD(), BROWSE_FIRST) == b"A"
    under_cursor = mq.GMO(Options=C.MQGMO_MSG_UNDER_CURSOR)
    assert reason(lambda: q.get(None, mq.MD(), under_cursor)) == 2037
    assert reason(lambda: q.get()) == 2037


def test_mqi02_get_under_the_cursor_needs_browse_and_input() -> None:
    qm = queue_manager()
    mq.Queue(qm, "APP.IN", C.MQOO_OUTPUT).put(b"A")
    under_cursor = mq.GMO(Options=C.MQGMO_MSG_UNDER_CURSOR)
    q = mq.Queue(qm, "APP.IN", C.MQOO_INPUT_AS_Q_DEF)
    assert reason(lambda: q.get(None, mq.MD(), under_cursor)) == 2036
    both = mq.Queue(qm, "APP.IN", C.MQOO_INPUT_AS_Q_DEF | C.MQOO_BROWSE)
    both.get(None, mq.MD(), BROWSE_FIRST)
    assert both.get(None, mq.MD(), under_cursor) == b"A"


@pytest.mark.parametrize(
    "options",
    [C.MQOO_INPUT_SHARED | C.MQOO_INPUT_EXCLUSIVE, C.MQOO_INPUT_AS_Q_DEF | C.MQOO_INPUT_SHARED,
     1 << 30, -1],
)  # fmt: skip
def test_mqi02_invalid_open_options_are_2046(options: int) -> None:
    assert reason(lambda: mq.Queue(queue_manager(), "APP.IN", options)) == 2046


def test_mqi02_a_remote_queue_opens_for_output_only_2045() -> None:
    qm = queue_manager()
    for options in (C.MQOO_INPUT_AS_Q_DEF, C.MQOO_BROWSE):
        assert reason(lambda o=options: mq.Queue(qm, "TO.QM2", o)) == 2045
    mq.Queue(qm, "TO.QM2", C.MQOO_OUTPUT).put(b"A")
    assert qm.curdepth("QM2") == 1


def test_mqi02_a_topic_opens_for_output_only() -> None:
    qm = queue_manager()
    assert reason(lambda: mq.Topic(qm, topic_string="a/b", open_opts=C.MQOO_BROWSE)) == 2045
    mq.Topic(qm, topic_string="a/b", open_opts=C.MQOO_OUTPUT).pub(b"x")


def test_mqi02_a_handle_opened_without_options_puts_gets_and_browses() -> None:
    """mqlearn's convenience (pymqi would open it on first use, for that use only)."""
    qm = queue_manager()
    q = mq.Queue(qm, "APP.IN")
    q.put(b"A")
    assert q.get(None, mq.MD(), BROWSE_FIRST) == b"A"
    assert q.get() == b"A"
    assert q.open_opts == C.MQOO_INPUT_AS_Q_DEF | C.MQOO_BROWSE | C.MQOO_OUTPUT


def test_mqi02_open_options_must_be_an_int() -> None:
    with pytest.raises(TypeError, match="open_opts must be an int"):
        mq.Queue(queue_manager(), "APP.IN", "MQOO_OUTPUT")  # type: ignore[arg-type]
