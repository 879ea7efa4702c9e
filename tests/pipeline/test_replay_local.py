"""replay_local on small hand-written traces: each test checks one rule of the replay.

The differential tests (test_differential_engine.py) compare the replay with the engine on many
generated traces; these show each rule on a trace small enough to read.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mqlearn as mq
from mqlearn import CMQC
from mqlearn.pipeline import (
    OUTPUT_COLUMNS,
    QUEUE_COLUMNS,
    TRACE_COLUMNS,
    ReconcileError,
    Replay,
    queues_of,
    replay_local,
    replay_partition,
    trace_from_events,
)

NONE = "0" * 48


def mid(k: int) -> str:
    """A MsgId as 48 hex digits."""
    return f"{k:048x}"


def put(seq: int, time: int, k: int, expiry: int = -1, priority: int = 0, **more: Any) -> dict:
    return {"seq": seq, "time_ms": time, "op": "PUT", "msg_id": mid(k), "expiry": expiry,
            "priority": priority, **more}  # fmt: skip


def get(seq: int, time: int, op: str = "GET", handle: int = 1, **more: Any) -> dict:
    return {"seq": seq, "time_ms": time, "op": op, "handle": handle, **more}


NULLABLE = {c: "Int64" if t.startswith("int") else t for c, t in TRACE_COLUMNS.items()}


def trace_of(
    rows: list[dict[str, Any]], qmgr: str = "QM1", queue: str = "Q1", dtypes: dict = TRACE_COLUMNS
) -> pd.DataFrame:
    """A trace with these rows (defaults for the columns a row leaves out)."""
    base = {
        "qmgr": qmgr, "queue": queue, "handle": 0, "msg_id": None, "correl_id": None,
        "match_options": 0, "priority": 0, "expiry": -1, "report": 0, "reply_to_q": None,
        "reply_to_qmgr": None, "persistence": 0, "data_length": 1,
    }  # fmt: skip
    frame = pd.DataFrame([{**base, **r} for r in rows], columns=list(TRACE_COLUMNS))
    return frame.astype(dtypes)


def definitions(*queues: dict[str, Any]) -> pd.DataFrame:
    base = {
        "qmgr": "QM1", "queue": "Q1", "msgdlvsq": "PRIORITY", "defprty": 0, "maxdepth": 100,
        "capexpry": -1, "profile": "ibmi", "expiry_interval_s": 0,
    }  # fmt: skip
    return pd.DataFrame([{**base, **q} for q in queues or [{}]]).astype(QUEUE_COLUMNS)


def outcomes(result: Replay) -> dict[str, tuple[Any, ...]]:
    """MsgId -> (outcome, end time, discard cause)."""
    return {
        m["msg_id"][-4:]: (m["outcome"], m["end_ms"], m["discard_cause"])
        for m in result.messages.to_dict("records")
    }


def call(result: Replay, seq: int) -> dict[str, Any]:
    calls = result.calls.set_index("seq")
    return calls.loc[seq].to_dict()


# -- delivery order and lazy discard ---------------------------------------------------------------
def test_exp22_fifo_get_discards_expired_up_to_the_first_live_one() -> None:
    """Rule EXP-22: on a FIFO queue a get discards the expired messages ahead of the first live
    one, returns it, and leaves the expired messages behind it alone."""
    rows = [put(1, 0, 1, expiry=10), put(2, 0, 2, expiry=-1), put(3, 0, 3, expiry=10),
            get(4, 2000)]  # fmt: skip
    result = replay_local(trace_of(rows), definitions({"msgdlvsq": "FIFO"}))
    assert outcomes(result) == {
        "0001": ("discarded", 2000, "get"),
        "0002": ("got", 2000, None),
        "0003": ("expired", None, None),
    }
    assert call(result, 4)["discarded"] == 1


def test_exp23_priority_get_discards_higher_and_earlier_expired_only() -> None:
    """Rule EXP-23: on a PRIORITY queue the walk goes lane by lane from the top; expired messages
    of higher priority and earlier ones of the returned message's priority go, later ones stay."""
    rows = [
        put(1, 0, 1, expiry=10, priority=9),
        put(2, 0, 2, expiry=10, priority=5),
        put(3, 0, 3, expiry=-1, priority=5),
        put(4, 0, 4, expiry=10, priority=5),
        put(5, 0, 5, expiry=10, priority=1),
        get(6, 5000),
    ]
    result = replay_local(trace_of(rows), definitions())
    got = outcomes(result)
    assert got["0001"][0] == got["0002"][0] == "discarded"
    assert got["0003"][0] == "got"
    assert got["0004"][0] == got["0005"][0] == "expired"


def test_md02_fifo_ignores_priority_and_priority_above_9_is_queued_at_9() -> None:
    """Rule MD-02: FIFO orders everything at DEFPRTY; above MAXPRTY a put is accepted with
    MQRC_PRIORITY_EXCEEDS_MAXIMUM (a warning) and ordered at 9, keeping its Priority."""
    rows = [put(1, 0, 1, priority=2), put(2, 0, 2, priority=11), get(3, 1), get(4, 2)]
    fifo = replay_local(trace_of(rows), definitions({"msgdlvsq": "FIFO", "defprty": 4}))
    assert list(fifo.calls["msg_id"].str[-1])[2:] == ["1", "2"]
    assert set(fifo.messages["lane"]) == {4}
    prio = replay_local(trace_of(rows), definitions())
    assert list(prio.calls["msg_id"].str[-1])[2:] == ["2", "1"]
    warned = call(prio, 2)
    assert (warned["comp"], warned["reason"]) == (
        CMQC.MQCC_WARNING,
        CMQC.MQRC_PRIORITY_EXCEEDS_MAXIMUM,
    )
    assert prio.messages.set_index("put_seq").loc[2, ["priority", "lane"]].tolist() == [11, 9]


def test_md02_priority_as_queue_default_takes_defprty() -> None:
    """Rule MD-02: Priority -1 (MQPRI_PRIORITY_AS_Q_DEF) is stored as the queue's DEFPRTY."""
    result = replay_local(trace_of([put(1, 0, 1, priority=-1)]), definitions({"defprty": 6}))
    assert result.messages["priority"].tolist() == [6]


def test_exp27_match_options_discard_only_matching_messages() -> None:
    """Rule EXP-27: a get matching a MsgId walks only the messages with that MsgId."""
    rows = [
        put(1, 0, 1, expiry=10),
        put(2, 0, 2, expiry=10),
        put(3, 0, 2, expiry=-1),
        get(4, 5000, msg_id=mid(2), match_options=CMQC.MQMO_MATCH_MSG_ID),
    ]
    result = replay_local(trace_of(rows), definitions())
    status = result.messages.set_index("put_seq")["outcome"].to_dict()
    assert status == {1: "expired", 2: "discarded", 3: "got"}


def test_exp27_correl_id_match_and_both_ids() -> None:
    """Rule EXP-27: CorrelId matching, and both identifiers at once (GMO MatchOptions 3)."""
    correl = {"correl_id": mid(70)}
    rows = [
        put(1, 0, 1, **correl),
        put(2, 0, 2, **correl),
        get(3, 1, correl_id=mid(70), match_options=CMQC.MQMO_MATCH_CORREL_ID),
        get(4, 2, msg_id=mid(1), correl_id=mid(71), match_options=3),
        get(5, 3, msg_id=mid(1), correl_id=mid(70), match_options=3),
    ]
    result = replay_local(trace_of(rows), definitions())
    assert call(result, 3)["msg_id"] == mid(1)
    assert call(result, 4)["reason"] == CMQC.MQRC_NO_MSG_AVAILABLE
    assert call(result, 5)["reason"] == CMQC.MQRC_NO_MSG_AVAILABLE  # mid(1) was got by seq 3


def test_match_with_none_identifier_or_bit_unset_matches_anything() -> None:
    """A null or all-zero MsgId, or an identifier without its match bit, selects nothing."""
    rows = [put(1, 0, 1), put(2, 0, 2), get(3, 1, msg_id=NONE, match_options=1),
            get(4, 2, msg_id=mid(2), match_options=0)]  # fmt: skip
    result = replay_local(trace_of(rows), definitions())
    assert result.calls["msg_id"].tolist()[2:] == [mid(1), mid(2)]


def test_exp12_remaining_expiry_is_rounded_up_and_unlimited_stays_minus_one() -> None:
    """Rules EXP-11, EXP-12: a get returns the remaining tenths rounded up, never 0."""
    rows = [put(1, 0, 1, expiry=10), put(2, 0, 2), get(3, 901), get(4, 901)]
    result = replay_local(trace_of(rows), definitions())
    assert result.calls["expiry"].tolist()[2:] == [1, -1]
    assert result.messages["got_expiry"].tolist() == [1, -1]


def test_ties_in_time_follow_seq() -> None:
    """Rows at the same time run in seq order; a message is eligible when now >= deadline."""
    rows = [put(2, 100, 1, expiry=1), get(1, 0), get(3, 200), put(4, 200, 2), get(5, 200)]
    result = replay_local(trace_of(rows).sample(frac=1, random_state=3), definitions())
    assert result.calls["seq"].tolist() == [1, 2, 3, 4, 5]
    assert result.calls["reason"].tolist() == [CMQC.MQRC_NO_MSG_AVAILABLE, 0,
                                               CMQC.MQRC_NO_MSG_AVAILABLE, 0, 0]  # fmt: skip
    assert outcomes(result)["0001"] == ("discarded", 200, "get")


# -- browse cursors ------------------------------------------------------------------------------
def test_exp24_browse_cursors_are_per_handle_and_discard_like_gets() -> None:
    """Rules EXP-21, EXP-24: BROWSE_FIRST restarts a handle's cursor, BROWSE_NEXT continues
    after it, each handle has its own; a browse discards expired messages and never shows one."""
    rows = [
        put(1, 0, 1),
        put(2, 0, 2, expiry=10),
        put(3, 0, 3),
        get(4, 10, "BROWSE_FIRST", handle=1),
        get(5, 10, "BROWSE_NEXT", handle=2),
        get(6, 2000, "BROWSE_NEXT", handle=1),
        get(7, 2000, "BROWSE_NEXT", handle=1),
        get(8, 2000, "BROWSE_FIRST", handle=1),
    ]
    result = replay_local(trace_of(rows), definitions())
    assert [m if pd.isna(m) else m[-1] for m in result.calls["msg_id"].tolist()[3:]] == [
        "1", "1", "3", pd.NA, "1"
    ]  # fmt: skip
    assert outcomes(result)["0002"] == ("discarded", 2000, "browse")
    assert result.summary["browses"].tolist() == [4]


def test_browse_next_does_not_see_a_higher_priority_arrival_until_browse_first() -> None:
    """BROWSE_NEXT continues after the cursor in delivery order: a message that arrives ahead
    of the cursor (higher priority) is only seen from BROWSE_FIRST."""
    rows = [put(1, 0, 1), get(2, 1, "BROWSE_FIRST"), put(3, 2, 2, priority=5),
            get(4, 3, "BROWSE_NEXT"), get(5, 4, "BROWSE_FIRST")]  # fmt: skip
    result = replay_local(trace_of(rows), definitions())
    assert call(result, 4)["reason"] == CMQC.MQRC_NO_MSG_AVAILABLE
    assert call(result, 5)["msg_id"] == mid(2)


# -- MQPUT checks, CAPEXPRY, MAXDEPTH --------------------------------------------------------------
@pytest.mark.parametrize(
    "fields, reason",
    [
        ({"expiry": 0}, CMQC.MQRC_EXPIRY_ERROR),
        ({"expiry": -7}, CMQC.MQRC_EXPIRY_ERROR),
        ({"priority": -2}, CMQC.MQRC_PRIORITY_ERROR),
        ({"persistence": 3}, CMQC.MQRC_PERSISTENCE_ERROR),
        ({"report": 0x00040000}, CMQC.MQRC_REPORT_OPTIONS_ERROR),
        ({"report": CMQC.MQRO_EXPIRATION}, CMQC.MQRC_MISSING_REPLY_TO_Q),
        ({"report": CMQC.MQRO_COA, "reply_to_q": "   "}, CMQC.MQRC_MISSING_REPLY_TO_Q),
        ({"report": 0x00040000, "expiry": 0}, CMQC.MQRC_REPORT_OPTIONS_ERROR),
    ],
)
def test_exp03_refused_put_is_a_failed_call_without_a_message(fields: dict, reason: int) -> None:
    """Rules EXP-03, RPT-06, MD-02: a put the queue manager refuses is a call with its reason
    code (checked in check_put_md's order) and no message."""
    result = replay_local(trace_of([put(1, 0, 1, **fields)]), definitions())
    assert (call(result, 1)["comp"], call(result, 1)["reason"]) == (CMQC.MQCC_FAILED, reason)
    assert result.messages.empty
    assert result.summary["put_failed"].tolist() == [1]


def test_exp06_capexpry_lowers_a_larger_expiry_at_put() -> None:
    """Rule EXP-06: CAPEXPRY replaces a larger Expiry, unlimited included; smaller ones stay."""
    rows = [put(1, 0, 1, expiry=-1), put(2, 0, 2, expiry=500), put(3, 0, 3, expiry=20)]
    result = replay_local(trace_of(rows), definitions({"capexpry": 50}))
    assert result.messages["expiry"].tolist() == [50, 50, 20]
    assert result.messages["deadline_ms"].tolist() == [5000, 5000, 2000]


def test_exp25_maxdepth_counts_expired_messages() -> None:
    """Rule EXP-25: expired, undiscarded messages count against MAXDEPTH: the put fails with
    MQRC_Q_FULL (2053) and makes no message."""
    rows = [put(1, 0, 1, expiry=1), put(2, 0, 2, expiry=1), put(3, 5000, 3)]
    result = replay_local(trace_of(rows), definitions({"maxdepth": 2}))
    assert call(result, 3)["reason"] == CMQC.MQRC_Q_FULL
    assert len(result.messages) == 2
    depth = result.depth.set_index("seq").loc[3]
    assert (depth["depth"], depth["expired"], depth["live"]) == (2, 2, 0)


# -- background scans -------------------------------------------------------------------------------
def test_exp28_scans_discard_at_their_own_times_and_show_in_depth() -> None:
    """Rule EXP-28: a scan every expiry_interval_s discards what has expired, before the calls
    of that time; the depth table gets a row per scan that discarded something."""
    rows = [put(1, 0, 1, expiry=10), put(2, 0, 2, expiry=25), put(3, 3000, 3), get(4, 4000)]
    queues = definitions({"profile": "distributed", "expiry_interval_s": 2})
    result = replay_local(trace_of(rows), queues)
    assert outcomes(result)["0001"] == ("discarded", 2000, "scan")
    assert outcomes(result)["0002"] == ("discarded", 4000, "scan")
    assert outcomes(result)["0003"] == ("got", 4000, None)
    depth = result.depth
    assert depth["source"].tolist() == ["call", "call", "scan", "call", "scan", "call"]
    assert depth["time_ms"].tolist() == [0, 0, 2000, 3000, 4000, 4000]


def test_exp28_ibmi_scans_every_300s_like_distributed() -> None:
    """Rule EXP-28: IBM i has the distributed expiry task; expiry_interval_s 300 scans at 300 s
    and 600 s, and a message expiring at 1 s and one expiring at 400 s go at those scans."""
    rows = [put(1, 0, 1, expiry=10), put(2, 0, 2, expiry=4000)]
    queues = definitions({"profile": "ibmi", "expiry_interval_s": 300})
    result = replay_local(trace_of(rows), queues, end_ms=700_000)
    assert outcomes(result)["0001"] == ("discarded", 300_000, "scan")
    assert outcomes(result)["0002"] == ("discarded", 600_000, "scan")


def test_end_ms_runs_the_scans_after_the_last_row() -> None:
    """With end_ms the replay covers the whole period: scans after a queue's last row still run."""
    rows = [put(1, 0, 1, expiry=10)]
    queues = definitions({"profile": "zos", "expiry_interval_s": 60})
    alone = replay_local(trace_of(rows), queues)
    assert outcomes(alone)["0001"] == ("live", None, None)
    longer = replay_local(trace_of(rows), queues, end_ms=120_000)
    assert outcomes(longer)["0001"] == ("discarded", 60_000, "scan")
    assert longer.summary[["final_depth", "end_ms"]].values.tolist() == [[0, 120_000]]
    with pytest.raises(ValueError, match="before the last row"):
        replay_local(trace_of([*rows, put(2, 9, 2)]), queues, end_ms=5)


# -- reports ----------------------------------------------------------------------------------------
def test_rpt01_reports_only_for_expiration_options_with_their_destination() -> None:
    """Rules RPT-01, RPT-02, RPT-06: a discarded message that asked for an expiration report
    produces one, addressed to ReplyToQ at ReplyToQMgr (blank: this queue manager)."""
    reply = {"reply_to_q": "REPLY.Q"}
    rows = [
        put(1, 0, 1, expiry=1, report=CMQC.MQRO_EXPIRATION, **reply),
        put(2, 0, 2, expiry=1, report=CMQC.MQRO_EXPIRATION_WITH_FULL_DATA, reply_to_qmgr="QM9",
            **reply),
        put(3, 0, 3, expiry=1, report=CMQC.MQRO_EXCEPTION, **reply),
        put(4, 0, 4, expiry=-1, report=CMQC.MQRO_EXPIRATION, **reply),
        get(5, 1000),
    ]  # fmt: skip
    result = replay_local(trace_of(rows), definitions())
    sent = result.messages.set_index("put_seq")[["report", "report_qmgr", "report_q"]]
    assert sent.loc[1].tolist() == [True, "QM1", "REPLY.Q"]
    assert sent.loc[2].tolist() == [True, "QM9", "REPLY.Q"]
    assert sent.loc[3, "report"] == sent.loc[4, "report"] == False  # noqa: E712
    assert call(result, 5)["reports"] == 2
    assert result.summary["reports"].tolist() == [2]


# -- rejects and reconciliation ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "bad, reason",
    [
        (
            {"op": "COMMIT"},
            "op is 'COMMIT', not one of PUT, GET, BROWSE_FIRST, BROWSE_NEXT, ARRIVE (trace schema v2)",
        ),
        ({"op": None}, "op is null"),
        ({"msg_id": None}, "PUT without msg_id"),
        ({"msg_id": "xyz"}, "msg_id 'xyz' is not 48 hex digits"),
        ({"msg_id": "g" * 48}, "is not 48 hex digits"),
        ({"msg_id": NONE}, "MQMI_NONE"),
        ({"correl_id": "12"}, "correl_id '12' is not 48 hex digits"),
        ({"time_ms": -5}, "time_ms -5 is negative"),
        ({"queue": "NOPE"}, "no queue definition for QM1/NOPE"),
        ({"expiry": None}, "PUT without expiry"),
        ({"data_length": -1}, "data_length -1 is negative"),
        ({"priority": 2**31}, "priority 2147483648 does not fit int32"),
    ],
)
def test_malformed_rows_are_rejected_with_their_reason(bad: dict, reason: str) -> None:
    """A malformed row is never dropped silently: it is in rejects with a reason, and the other
    rows still replay; input rows = accepted + rejected."""
    rows = [put(1, 0, 1), {**put(2, 1, 2), **bad}, get(3, 2)]
    result = replay_local(trace_of(rows, dtypes=NULLABLE), definitions())
    assert len(result.rejects) == 1
    assert reason in result.rejects["reason"][0]
    assert result.rejects["seq"].tolist() == [2]
    assert result.accepted == 2
    result.reconcile(3)


def test_get_rows_need_handle_and_valid_match_options() -> None:
    rows = [get(1, 0, match_options=4), get(2, 0, handle=None), get(3, 0, match_options=None)]
    reasons = replay_local(trace_of(rows, dtypes=NULLABLE), definitions()).rejects["reason"]
    assert reasons.tolist() == [
        "match_options 4 sets bits other than MQMO_MATCH_MSG_ID (1) and MQMO_MATCH_CORREL_ID (2)",
        "handle is null",
        "match_options is null",
    ]


def test_duplicate_seq_and_time_going_backwards_are_rejected() -> None:
    """seq must be unique across the trace; within a queue, time must not go back as seq goes
    forward (the row that goes back is the one rejected)."""
    rows = [put(1, 100, 1), put(1, 100, 2), put(2, 500, 3), put(3, 400, 4), put(4, 600, 5)]
    result = replay_local(trace_of(rows), definitions())
    assert result.rejects["reason"].tolist() == [
        "seq 1 occurs more than once in the trace",
        "seq 1 occurs more than once in the trace",
        "time_ms 400 is earlier than 500, the time of an earlier seq",
    ]
    assert result.calls["seq"].tolist() == [2, 4]
    other = trace_of([put(5, 0, 9)], queue="Q2")
    both = replay_local(pd.concat([trace_of(rows[2:]), other]), definitions({}, {"queue": "Q2"}))
    assert both.rejected == 1  # time order is per queue: Q2 at 0 after Q1 at 500 is fine


def test_reconcile_raises_when_rows_went_missing() -> None:
    result = replay_local(trace_of([put(1, 0, 1)]), definitions())
    result.reconcile(1)
    with pytest.raises(ReconcileError, match="2 input rows but 1 accepted"):
        result.reconcile(2)


GARBAGE = st.fixed_dictionaries(
    {
        "seq": st.integers(0, 8),
        "time_ms": st.integers(-2, 5000),
        "queue": st.sampled_from(["Q1", "Q2", "NOPE"]),
        "op": st.sampled_from(["PUT", "GET", "BROWSE_FIRST", "BROWSE_NEXT", "COMMIT", "put"]),
        "msg_id": st.sampled_from([None, mid(1), mid(2), NONE, "zz", mid(1).upper()]),
        "correl_id": st.sampled_from([None, mid(3), "bad"]),
        "match_options": st.integers(0, 5),
        "expiry": st.sampled_from([-1, 0, 5, 30]),
        "priority": st.integers(-2, 10),
    }
)


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(st.lists(GARBAGE, max_size=30))
def test_every_row_is_accepted_or_rejected(rows: list[dict[str, Any]]) -> None:
    """Whatever the rows, input = accepted + rejected, and every output table has its schema."""
    result = replay_local(trace_of(rows), definitions({}, {"queue": "Q2", "msgdlvsq": "FIFO"}))
    result.reconcile(len(rows))
    for name, table in result.tables().items():
        assert {c: str(t) for c, t in table.dtypes.items()} == OUTPUT_COLUMNS[name]
    assert result.rejects["reason"].notna().all()


# -- inputs in other shapes, and one queue at a time ------------------------------------------------
def test_row_order_text_storage_and_hex_case_do_not_change_the_result() -> None:
    """The same trace shuffled, with object-dtype text and upper-case hex, replays the same; ids
    come out in lower case (as the engine's .hex())."""
    rows = [put(1, 0, 1, expiry=10), put(2, 0, 0xAB), get(3, 2000, msg_id=mid(0xAB).upper(),
            match_options=1), get(4, 2000)]  # fmt: skip
    plain = replay_local(trace_of(rows), definitions())
    other = trace_of(rows).sample(frac=1, random_state=1)
    text = [c for c, t in TRACE_COLUMNS.items() if t == "string"]
    other = other.astype({c: object for c in text})
    other["msg_id"] = other["msg_id"].str.upper()
    again = replay_local(other, definitions())
    for name, table in plain.tables().items():
        pd.testing.assert_frame_equal(table, again.tables()[name])
    assert plain.calls["msg_id"].tolist()[2] == mid(0xAB)


def test_exp28_replay_partition_gives_the_hand_computed_tables_for_one_queue() -> None:
    """replay_partition (what Spark runs per queue) against an expectation worked out by hand:
    A (Expiry 10 = 1 s) and B (unlimited) put at 0; the expiry task runs every second, so at
    1 000 ms it discards A (its deadline, EXP-28); the browse and the get at 2 000 ms both find B."""
    rows = [put(1, 0, 1, expiry=10), put(2, 0, 2), get(3, 2000, "BROWSE_FIRST"), get(4, 2000)]
    queue = definitions({"profile": "distributed", "expiry_interval_s": 1}).iloc[0].to_dict()
    tables = replay_partition(trace_of(rows), queue, end_ms=5000)
    messages = tables["messages"]
    assert messages[["msg_id", "outcome", "end_ms", "discard_cause"]].values.tolist() == [
        [mid(1), "discarded", 1000, "scan"],
        [mid(2), "got", 2000, pd.NA],
    ]
    assert tables["calls"][["op", "reason", "msg_id"]].values.tolist()[2:] == [
        ["BROWSE_FIRST", 0, mid(2)],
        ["GET", 0, mid(2)],
    ]
    depth = tables["depth"]
    assert depth[["time_ms", "source", "depth"]].values.tolist() == [
        [0, "call", 1], [0, "call", 2], [1000, "scan", 1], [2000, "call", 1], [2000, "call", 0]
    ]  # fmt: skip
    summary = tables["summary"].iloc[0]
    assert (summary["puts"], summary["gets"], summary["browses"]) == (2, 1, 1)
    assert (summary["discarded_scan"], summary["max_depth"], summary["final_depth"]) == (1, 2, 0)
    assert tables["rejects"].empty


def test_replay_partition_refuses_rows_that_fail_validation() -> None:
    queue = definitions().iloc[0].to_dict()
    with pytest.raises(ValueError, match=r"fail validation, e\.g\. seq 2: time_ms -1 is negative"):
        replay_partition(trace_of([put(1, 0, 1), put(2, -1, 2)]), queue)


@pytest.mark.parametrize("rows", [[put(1, -1, 1)], []])
def test_no_accepted_rows_gives_empty_tables_with_schemas(rows: list[dict[str, Any]]) -> None:
    result = replay_local(trace_of(rows), definitions())
    assert result.accepted == 0 and result.rejected == len(rows)
    for name, table in result.tables().items():
        assert {c: str(t) for c, t in table.dtypes.items()} == OUTPUT_COLUMNS[name]


# -- from an engine session ---------------------------------------------------------------------------
def test_trace_from_events_replays_a_notebook_session() -> None:
    """A session with puts, a plain get, browses and a scan converts to a trace whose replay
    agrees with what the engine did (rules EXP-22, EXP-28, RPT-01)."""
    qm = mq.QueueManager("QM1", profile="zos")
    qm.alter_qmgr(expryint=5)
    qm.define_qlocal("APP.Q", msgdlvsq="FIFO")
    qm.define_qlocal("REPLY.Q")
    q = mq.Queue(qm, "APP.Q")
    no_sync = mq.PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
    q.put(b"a", mq.MD(Expiry=10, Report=CMQC.MQRO_EXPIRATION, ReplyToQ="REPLY.Q"), no_sync)
    q.put(b"b", mq.MD(Expiry=-1), no_sync)
    q.put(b"c", mq.MD(Expiry=20), no_sync)
    qm.sim.advance(seconds=1.5)
    q.get(None, mq.MD(), mq.GMO(Options=CMQC.MQGMO_NO_SYNCPOINT))
    q.get(None, mq.MD(), mq.GMO(Options=CMQC.MQGMO_BROWSE_FIRST))
    qm.sim.advance(seconds=6)
    with pytest.raises(mq.MQMIError):
        q.get(None, mq.MD(), mq.GMO(Options=CMQC.MQGMO_BROWSE_NEXT))
    trace = trace_from_events(qm.events_frame(), queues_of(qm))
    assert trace["op"].tolist() == ["PUT", "PUT", "PUT", "PUT", "GET", "BROWSE_FIRST",
                                    "BROWSE_NEXT"]  # fmt: skip
    result = replay_local(trace, queues_of(qm), end_ms=qm.sim.now)
    app = result.messages[result.messages["queue"] == "APP.Q"]
    assert app["outcome"].tolist() == ["discarded", "got", "discarded"]
    assert app["end_ms"].tolist() == [1500, 1500, 5000]
    assert app["discard_cause"].tolist() == ["get", pd.NA, "scan"]
    assert app["report_q"].tolist() == ["REPLY.Q", pd.NA, pd.NA]


def test_trace_from_events_refuses_what_a_trace_cannot_say() -> None:
    """Units of work are not in the trace schema: converting one is an error, not a guess."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.Q")
    qm.put("APP.Q", b"x", mq.MD(), mq.PMO(Options=CMQC.MQPMO_SYNCPOINT))
    with pytest.raises(ValueError, match="a put under syncpoint"):
        trace_from_events(qm.events_frame())


def test_queues_of_describes_every_local_queue() -> None:
    qm = mq.QueueManager("QM1", profile="ibmi")
    qm.define_qlocal("A", msgdlvsq="FIFO", defprty=3, maxdepth=7, capexpry=40)
    frame = queues_of(qm)
    assert frame.to_dict("records") == [
        {"qmgr": "QM1", "queue": "A", "msgdlvsq": "FIFO", "defprty": 3, "maxdepth": 7,
         "capexpry": 40, "profile": "ibmi", "expiry_interval_s": 300}
    ]  # fmt: skip
    assert {c: str(t) for c, t in frame.dtypes.items()} == QUEUE_COLUMNS
    assert np.array_equal(frame.columns, list(QUEUE_COLUMNS))
