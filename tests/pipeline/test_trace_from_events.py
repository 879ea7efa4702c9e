"""``trace_from_events`` follows each message by ``(qmgr, msg_seq)``, never by its MsgId
(docs/pipeline.md, "From an engine session"; docs/engine.md, "The event log").

Messages that share a MsgId keep their own gets, discards, expiration reports and browse order in
the converted trace and in its replay. The expected values are worked out by hand from the
scenario; the last test drives the engine with gets that match a MsgId or CorrelId and compares
the replay of the converted log with what the engine did.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest
from hypothesis import given

import mqlearn as mq
from mqlearn import CMQC
from mqlearn.pipeline import queues_of, replay_local, trace_from_events
from tests.pipeline.test_differential_engine import (
    SETTINGS,
    assert_log_replays_like_the_engine,
    scenarios,
)

SAME = b"SAME.MSGID".ljust(24, b"\0")  # one MsgId, set explicitly on every put
CORREL_1, CORREL_2 = b"1" * 24, b"2" * 24
BY_CORREL = mq.GMO(
    Version=CMQC.MQGMO_VERSION_2,
    Options=CMQC.MQGMO_NO_SYNCPOINT,
    MatchOptions=CMQC.MQMO_MATCH_CORREL_ID,
)
NO_SYNC = mq.PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)


def app_queue(**attrs: Any) -> tuple[mq.QueueManager, mq.Queue]:
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN", **attrs)
    qm.define_qlocal("REPLY.Q")
    return qm, mq.Queue(qm, "APP.IN")


def put(q: mq.Queue, data: bytes, **md: Any) -> None:
    q.put(data, mq.MD(MsgId=SAME, **md), NO_SYNC)


def pinned(seq: int) -> str:
    """The CorrelId a converted GET with this seq matches (48 hex digits)."""
    return f"{seq:048x}"


def convert(qm: mq.QueueManager) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The converted trace and the replay's messages of APP.IN."""
    trace = trace_from_events(qm.events_frame(), queues_of(qm))
    result = replay_local(trace, queues_of(qm), end_ms=qm.sim.now)
    assert result.rejected == 0
    return trace, result.messages[result.messages["queue"] == "APP.IN"]


def test_a_get_matching_the_second_messages_correlid_is_the_second_messages_get() -> None:
    """The issue's case: A and B share a MsgId; a get matching B's CorrelId takes B. Keyed by
    MsgId, the conversion would let the replay take A; keyed by msg_seq, the GET matches a
    CorrelId only B's PUT row has, so the replay takes B and A stays."""
    qm, q = app_queue()
    put(q, b"A", CorrelId=CORREL_1)
    put(q, b"B", CorrelId=CORREL_2)
    assert q.get(None, mq.MD(CorrelId=CORREL_2), BY_CORREL) == b"B"
    trace, messages = convert(qm)
    assert trace["op"].tolist() == ["PUT", "PUT", "GET"]
    assert trace["msg_id"].tolist()[:2] == [SAME.hex(), SAME.hex()]
    assert trace["correl_id"].tolist() == [pd.NA, pinned(2), pinned(2)]
    assert trace["match_options"].tolist() == [0, 0, CMQC.MQMO_MATCH_CORREL_ID]
    assert messages["put_seq"].tolist() == [0, 1]
    assert messages["outcome"].tolist() == ["live", "got"]
    assert messages["end_seq"].tolist() == [pd.NA, 2]


def test_a_matched_get_discards_only_the_expired_messages_it_met() -> None:
    """Rule EXP-27: A (CorrelId 1) and B (CorrelId 2) expire at 1 s, C (CorrelId 2) never; at
    2 s a get matching CorrelId 2 discards B and takes C, and A stays, expired. A GET without
    match options would discard A too."""
    qm, q = app_queue(msgdlvsq="FIFO")
    put(q, b"A", CorrelId=CORREL_1, Expiry=10)
    put(q, b"B", CorrelId=CORREL_2, Expiry=10)
    put(q, b"C", CorrelId=CORREL_2)
    qm.sim.advance(seconds=2)
    assert q.get(None, mq.MD(CorrelId=CORREL_2), BY_CORREL) == b"C"
    trace, messages = convert(qm)
    assert trace["op"].tolist() == ["PUT", "PUT", "PUT", "GET"]
    assert trace["correl_id"].tolist() == [pd.NA, pinned(3), pinned(3), pinned(3)]
    assert messages["outcome"].tolist() == ["expired", "discarded", "got"]
    assert messages["end_seq"].tolist() == [pd.NA, 3, 3]
    assert messages["discard_cause"].tolist() == [pd.NA, "get", pd.NA]


def test_a_matched_get_that_finds_nothing_leaves_the_other_messages() -> None:
    """A live message with CorrelId 1 and a get for CorrelId 2: 2033, and the message stays."""
    qm, q = app_queue()
    put(q, b"A", CorrelId=CORREL_1)
    with pytest.raises(mq.MQMIError) as failed:
        q.get(None, mq.MD(CorrelId=CORREL_2), BY_CORREL)
    assert failed.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE
    trace, messages = convert(qm)
    assert trace["op"].tolist() == ["PUT", "GET"]
    assert trace["correl_id"].tolist() == [pd.NA, pinned(1)]  # no message has it
    assert trace["match_options"].tolist() == [0, CMQC.MQMO_MATCH_CORREL_ID]
    assert messages["outcome"].tolist() == ["live"]


def test_gets_a_plain_get_would_repeat_stay_plain() -> None:
    """A get that took the first live message, after discarding the expired ones before it, is
    a GET without match options, however it was asked for."""
    qm, q = app_queue()
    put(q, b"A", CorrelId=CORREL_2, Expiry=10)
    put(q, b"B", CorrelId=CORREL_2)
    qm.sim.advance(seconds=2)
    assert q.get(None, mq.MD(CorrelId=CORREL_2), BY_CORREL) == b"B"
    trace, messages = convert(qm)
    assert trace["match_options"].tolist() == [0, 0, 0]
    assert trace["correl_id"].isna().all()
    assert messages["outcome"].tolist() == ["discarded", "got"]


def test_the_expiration_report_goes_with_the_message_that_asked_for_it() -> None:
    """Rule RPT-01: A (expiring, asking for an expiration report) and B (unlimited, no report)
    share a MsgId; the get at 2 s discards A, which reports, and takes B. Only A's PUT row asks
    for the report."""
    qm, q = app_queue(msgdlvsq="FIFO")
    put(q, b"A", Expiry=10, Report=CMQC.MQRO_EXPIRATION, ReplyToQ="REPLY.Q")
    put(q, b"B")
    qm.sim.advance(seconds=2)
    assert q.get(None, mq.MD(), mq.GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)) == b"B"
    trace, messages = convert(qm)
    app = trace[trace["queue"] == "APP.IN"]
    assert app["op"].tolist() == ["PUT", "PUT", "GET"]
    assert app["report"].tolist() == [CMQC.MQRO_EXPIRATION, CMQC.MQRO_NONE, CMQC.MQRO_NONE]
    assert app["reply_to_q"].tolist() == ["REPLY.Q", pd.NA, pd.NA]
    assert messages["outcome"].tolist() == ["discarded", "got"]
    assert messages["report"].tolist() == [True, False]
    assert messages["report_q"].tolist() == ["REPLY.Q", pd.NA]


def test_browse_order_follows_the_message_not_its_msgid() -> None:
    """On a PRIORITY queue A (Priority 5) comes before B (Priority 0), both with one MsgId: the
    second browse returns B, later than A, so it is a BROWSE_NEXT."""
    qm, q = app_queue()
    put(q, b"A", Priority=5)
    put(q, b"B", Priority=0)
    assert q.get(None, mq.MD(), mq.GMO(Options=CMQC.MQGMO_BROWSE_FIRST)) == b"A"
    assert q.get(None, mq.MD(), mq.GMO(Options=CMQC.MQGMO_BROWSE_NEXT)) == b"B"
    trace, messages = convert(qm)
    assert trace["op"].tolist() == ["PUT", "PUT", "BROWSE_FIRST", "BROWSE_NEXT"]
    assert messages["outcome"].tolist() == ["live", "live"]


def test_a_browse_that_discards_behind_the_cursor_is_a_browse_first() -> None:
    """Rule EXP-21: A (expiring at 1 s) is browsed at 0 s; at 2 s a BROWSE_FIRST discards A and
    finds nothing. A BROWSE_NEXT would start after A and leave it."""
    qm, q = app_queue()
    put(q, b"A", Expiry=10)
    q.get(None, mq.MD(), mq.GMO(Options=CMQC.MQGMO_BROWSE_FIRST))
    qm.sim.advance(seconds=2)
    with pytest.raises(mq.MQMIError) as failed:
        q.get(None, mq.MD(), mq.GMO(Options=CMQC.MQGMO_BROWSE_FIRST))
    assert failed.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE
    trace, messages = convert(qm)
    assert trace["op"].tolist() == ["PUT", "BROWSE_FIRST", "BROWSE_FIRST"]
    assert messages["outcome"].tolist() == ["discarded"]
    assert messages["end_seq"].tolist() == [2]


@SETTINGS
@given(scenarios())
def test_matched_gets_convert_and_replay_to_the_same_outcomes(
    scenario: tuple[pd.DataFrame, pd.DataFrame],
) -> None:
    """The engine runs the generated gets with their match options (MsgIds repeat, CorrelIds
    too); its log, converted and replayed, gets and discards the same messages at the same
    times with the same reports. Browses run without match options, which the log cannot show."""
    trace, queues = scenario
    browse = trace["op"].str.startswith("BROWSE")
    driven = trace.assign(handle=0, match_options=trace["match_options"].where(~browse, 0))
    assert_log_replays_like_the_engine(driven, queues)
