"""``trace_from_events`` on two queue managers joined by a channel (docs/pipeline.md, "From an
engine session"; issue 14).

A channel's get from its transmission queue discards the expired messages ahead of the one it
sends (rule XQH-06), or all of them when it finds nothing live: the conversion writes one GET row
per channel get, where its first discard is in the log, so the replay discards the same messages
at the same time with the same reports. A message that arrives already expired on the other
queue manager (the engine puts it with 0 tenths left) cannot be a PUT row (Expiry 0 is refused,
rule EXP-03): it is an ARRIVE row (trace schema v2) with Expiry 0, which the replay stores
already expired, so the first get discards it, as the engine's did. The streaming replay
(``replay_files``) gives the same tables as ``replay_local`` on these traces.

Every time in these sessions is a multiple of 100 ms, so a channel arrival's remaining Expiry in
whole tenths gives the replay exactly the engine's deadline.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import mqlearn as mq
from mqlearn import CMQC
from mqlearn.pipeline import (
    QUEUE_COLUMNS,
    TRACE_COLUMNS,
    queues_of,
    replay_local,
    trace_from_events,
)
from mqlearn.pipeline.stream import replay_files
from tests.pipeline.test_differential_engine import SETTINGS, report_after
from tests.pipeline.test_spark_replay import write_parquet
from tests.pipeline.test_stream import assert_same_as_replay_local

NO_SYNC = mq.PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
GET = mq.GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)


@dataclass
class Link:
    """QM1 puts to APP.IN on QM2 through the transmission queue QM2 and a channel."""

    sim: mq.Simulation
    qm1: mq.QueueManager
    qm2: mq.QueueManager
    channel: mq.Channel
    out: mq.Queue  # TO.APP on QM1 (a remote queue)
    app: mq.Queue  # APP.IN on QM2

    @property
    def qms(self) -> list[mq.QueueManager]:
        return [self.qm1, self.qm2]


def linked(*, latency_ms: int = 0, running: bool = True, xmitq_order: str = "PRIORITY") -> Link:
    sim = mq.Simulation()
    qm1, qm2 = mq.QueueManager("QM1", sim), mq.QueueManager("QM2", sim)
    qm1.define_qlocal("QM2", usage="XMITQ", msgdlvsq=xmitq_order)
    qm1.define_qremote("TO.APP", rname="APP.IN", rqmname="QM2")
    qm1.define_qlocal("REPLY.Q")
    qm2.define_qlocal("APP.IN")
    qm2.define_qlocal("REPLY.Q")
    qm2.define_qlocal("QM1", usage="XMITQ")  # reports addressed back to QM1 wait here
    channel = mq.Channel(qm1, qm2, xmitq="QM2", latency_ms=latency_ms)
    if not running:
        channel.stop()
    return Link(sim, qm1, qm2, channel, mq.Queue(qm1, "TO.APP"), mq.Queue(qm2, "APP.IN"))


def put(link: Link, *, reply_qmgr: str = "QM1", **md: Any) -> None:
    if md.get("Report"):
        md = {"ReplyToQ": "REPLY.Q", "ReplyToQMgr": reply_qmgr, **md}
    link.out.put(b"m", mq.MD(**md), NO_SYNC)


def get(link: Link) -> None:
    try:
        link.app.get(None, mq.MD(), GET)
    except mq.MQMIError as error:
        assert error.reason == CMQC.MQRC_NO_MSG_AVAILABLE


def replay(link: Link) -> tuple[pd.DataFrame, Any]:
    """The converted log of both queue managers and its replay up to now."""
    events = pd.concat([qm.events_frame() for qm in link.qms], ignore_index=True)
    trace = trace_from_events(events, queues_of(*link.qms))
    result = replay_local(trace, queues_of(*link.qms), end_ms=link.sim.now)
    assert result.rejected == 0
    return trace, result


def engine_outcomes(link: Link) -> Counter[tuple[Any, ...]]:
    """(qmgr, queue, MsgId, outcome, time, report) of every message on every local queue: got
    (by an application or a channel), discarded (by a get, browse, channel or scan) or queued."""
    found: Counter[tuple[Any, ...]] = Counter()
    for qm in link.qms:
        events = qm.events
        for index, e in enumerate(events):
            if e.kind in ("get", "channel-send"):
                found[(qm.name, e.queue, e.msg_id.hex(), "got", e.time_ms, None)] += 1
            elif e.kind == "discard" and not e.reason:
                report = report_after(events, index)
                found[(qm.name, e.queue, e.msg_id.hex(), "discarded", e.time_ms, report)] += 1
        for local in qm.local_queues():
            for msg_id in qm.queue_frame(local.name)["msg_id"]:
                found[(qm.name, local.name, msg_id, "queued", None, None)] += 1
    return found


def replay_outcomes(messages: pd.DataFrame) -> Counter[tuple[Any, ...]]:
    found: Counter[tuple[Any, ...]] = Counter()
    for m in messages.to_dict("records"):
        queued = m["outcome"] in ("live", "expired")
        report = f"sent to {m['report_q']} at {m['report_qmgr']}" if m["report"] else None
        outcome = "queued" if queued else m["outcome"]
        found[
            (m["qmgr"], m["queue"], m["msg_id"], outcome, None if queued else m["end_ms"], report)
        ] += 1
    return found


def engine_takes(link: Link) -> dict[tuple[str, str], list[str]]:
    """The MsgIds each queue gave to gets and channel sends, in order."""
    taken: dict[tuple[str, str], list[str]] = defaultdict(list)
    for qm in link.qms:
        for e in qm.events:
            if e.kind in ("get", "channel-send"):
                taken[(qm.name, e.queue)].append(e.msg_id.hex())
    return dict(taken)


def replay_takes(calls: pd.DataFrame) -> dict[tuple[str, str], list[str]]:
    taken: dict[tuple[str, str], list[str]] = defaultdict(list)
    got = calls[(calls["op"] == "GET") & (calls["reason"] == 0)].sort_values("seq")
    for c in got.to_dict("records"):
        taken[(c["qmgr"], c["queue"])].append(c["msg_id"])
    return dict(taken)


def assert_replays_like_the_engine(link: Link) -> None:
    _, result = replay(link)
    assert replay_outcomes(result.messages) == engine_outcomes(link)
    assert replay_takes(result.calls) == engine_takes(link)


def assert_streams_like_replay_local(link: Link, directory: Path) -> None:
    """The converted trace, written to Parquet and replayed in pieces of 2 rows by
    ``replay_files``, gives replay_local's tables."""
    trace, _ = replay(link)
    queues = queues_of(*link.qms)
    trace_path = write_parquet(trace, TRACE_COLUMNS, directory / "trace.parquet")
    queues_path = write_parquet(queues, QUEUE_COLUMNS, directory / "queues.parquet")
    out = directory / "out"
    replay_files(trace_path, queues_path, out, end_ms=link.sim.now, batch_rows=2)
    assert_same_as_replay_local(out, trace, queues, end_ms=link.sim.now)


def test_xqh06_a_channel_that_finds_only_expired_messages_discards_them_in_the_replay() -> None:
    """Rule XQH-06: with the channel stopped, A (Expiry 1 s, asking for an expiration report)
    expires on the transmission queue; when the channel starts at 3 s it discards A and finds
    nothing. The conversion writes that get as a GET row at 3 s, so the replay discards A there
    and sends its report to REPLY.Q at QM1, as the engine did (rule RPT-01)."""
    link = linked(running=False)
    put(link, Expiry=10, Report=CMQC.MQRO_EXPIRATION)
    link.sim.advance(seconds=3)
    link.channel.start()
    link.sim.advance(seconds=1)
    trace, result = replay(link)
    xmitq = trace[trace["queue"] == "QM2"]
    assert xmitq["op"].tolist() == ["PUT", "GET"]
    assert xmitq["time_ms"].tolist() == [0, 3000]
    a = result.messages[result.messages["queue"] == "QM2"].iloc[0]
    assert (a["outcome"], a["end_ms"], a["discard_cause"]) == ("discarded", 3000, "get")
    assert (a["report_q"], a["report_qmgr"]) == ("REPLY.Q", "QM1")
    get_row = result.calls[(result.calls["queue"] == "QM2") & (result.calls["op"] == "GET")]
    assert get_row[["reason", "discarded", "reports"]].values.tolist() == [[2033, 1, 1]]
    assert_replays_like_the_engine(link)


def test_xqh06_the_channel_get_is_written_before_the_reports_its_discards_put() -> None:
    """Rule XQH-06 on a PRIORITY transmission queue: A (Priority 9, expired, its report addressed
    to QM2) and B (Priority 0, live). Starting the channel discards A, whose report R (Priority
    9, like A, rule RPT-01) lands on the same transmission queue, then sends B, then R. The get
    that sent B is the GET row written at A's discard, before R's PUT row: the replay sends B
    first and R second, as the engine did, instead of letting R overtake B."""
    link = linked(running=False)
    put(link, Priority=9, Expiry=10, Report=CMQC.MQRO_EXPIRATION, reply_qmgr="QM2")
    put(link, Priority=0)
    link.sim.advance(seconds=2)
    link.channel.start()
    link.sim.advance(seconds=1)
    trace, result = replay(link)
    assert trace[trace["queue"] == "QM2"]["op"].tolist() == ["PUT", "PUT", "GET", "PUT", "GET"]
    b = result.messages[(result.messages["queue"] == "QM2") & (result.messages["priority"] == 0)]
    taken = replay_takes(result.calls)[("QM1", "QM2")]
    assert taken[0] == b["msg_id"].iloc[0]
    assert_replays_like_the_engine(link)


def test_xqh06_discards_and_a_send_share_one_get() -> None:
    """Two expired messages ahead of a live one: the channel's one get discards both and sends
    the third; the trace has one GET row for it, not one per discard."""
    link = linked(running=False, xmitq_order="FIFO")
    put(link, Expiry=10)
    put(link, Expiry=10, Report=CMQC.MQRO_EXPIRATION)
    put(link)
    link.sim.advance(seconds=2)
    link.channel.start()
    link.sim.advance(seconds=1)
    trace, result = replay(link)
    assert trace[trace["queue"] == "QM2"]["op"].tolist() == ["PUT", "PUT", "PUT", "GET"]
    calls = result.calls[result.calls["queue"] == "QM2"]
    assert calls[calls["op"] == "GET"][["reason", "discarded", "reports"]].values.tolist() == [
        [0, 2, 1]
    ]
    assert_replays_like_the_engine(link)


def test_exp10_a_message_that_arrives_already_expired_is_an_arrive_row_the_get_discards(
    tmp_path,
) -> None:
    """Rule EXP-10: the channel takes 2 s and the message lives 1 s, so it arrives on QM2
    already expired and the engine puts it with 0 tenths left. A PUT row cannot say that
    (Expiry 0 is refused with 2013, rule EXP-03): it becomes an ARRIVE row with Expiry 0, whose
    message is expired from its arrival (deadline = arrival time, rule EXP-20); the get at 3 s
    discards it and sends its report, in the replay as in the engine, and in the streaming
    replay as in replay_local."""
    link = linked(latency_ms=2000)
    put(link, Expiry=10, Report=CMQC.MQRO_EXPIRATION)
    link.sim.advance(seconds=3)
    get(link)
    trace, result = replay(link)
    app = trace[trace["queue"] == "APP.IN"]
    assert app[["op", "time_ms", "expiry"]].values.tolist() == [
        ["ARRIVE", 2000, 0],
        ["GET", 3000, -1],
    ]
    m = result.messages[result.messages["queue"] == "APP.IN"].iloc[0]
    assert (m["put_ms"], m["expiry"], m["deadline_ms"]) == (2000, 0, 2000)
    assert (m["outcome"], m["end_ms"], m["discard_cause"], m["report"]) == (
        "discarded",
        3000,
        "get",
        True,
    )
    calls = result.calls[result.calls["queue"] == "APP.IN"]
    assert calls[["op", "reason", "discarded"]].values.tolist() == [
        ["ARRIVE", 0, 0],
        ["GET", 2033, 1],
    ]
    assert calls["expiry"].iloc[0] == 0 and pd.isna(calls["expiry"].iloc[1])
    assert_replays_like_the_engine(link)
    assert_streams_like_replay_local(link, tmp_path)


def test_a_schema_v1_reader_rejects_arrive_rows_naming_the_version(tmp_path) -> None:
    """A trace declared schema v1 holds no ARRIVE row: replay_local and replay_files reject
    each one with a reason naming the version it needs (nothing dropped: accepted + rejected =
    rows); the PUT and GET rows still replay."""
    link = linked(latency_ms=2000)
    put(link, Expiry=10)
    link.sim.advance(seconds=3)
    get(link)
    trace, _ = replay(link)
    queues = queues_of(*link.qms)
    reason = (
        "op 'ARRIVE' needs trace schema v2; this trace is schema v1, whose ops are PUT, GET, "
        "BROWSE_FIRST, BROWSE_NEXT"
    )
    v1 = replay_local(trace, queues, schema_version=1)
    assert v1.rejects[["op", "reason"]].values.tolist() == [["ARRIVE", reason]]
    assert v1.accepted == len(trace) - 1
    trace_path = write_parquet(trace, TRACE_COLUMNS, tmp_path / "trace.parquet")
    queues_path = write_parquet(queues, QUEUE_COLUMNS, tmp_path / "queues.parquet")
    streamed = replay_files(trace_path, queues_path, tmp_path / "out", schema_version=1)
    assert (streamed.accepted, streamed.rejected) == (len(trace) - 1, 1)
    with pytest.raises(ValueError, match="trace schema v3 is not one this reader knows"):
        replay_local(trace, queues, schema_version=3)


def test_a_schema_v1_conversion_names_the_arrival_that_needs_v2() -> None:
    """trace_from_events(..., schema_version=1) writes schema v1: a session without an expired
    arrival converts to the same rows as v2; one with an expired arrival raises ValueError
    naming the event and the version it needs. An unknown version is refused."""
    link = linked(latency_ms=500)
    put(link, Expiry=10)
    link.sim.advance(seconds=1)
    events = pd.concat([qm.events_frame() for qm in link.qms], ignore_index=True)
    queues = queues_of(*link.qms)
    pd.testing.assert_frame_equal(
        trace_from_events(events, queues, schema_version=1), trace_from_events(events, queues)
    )
    late = linked(latency_ms=2000)
    put(late, Expiry=10)
    late.sim.advance(seconds=3)
    events = pd.concat([qm.events_frame() for qm in late.qms], ignore_index=True)
    (arrival,) = [e for e in late.qm2.events if e.kind == "put" and e.expiry == 0]
    with pytest.raises(ValueError) as raised:
        trace_from_events(events, queues_of(*late.qms), schema_version=1)
    assert str(raised.value) == (
        f"event {arrival.seq} (put on QM2/APP.IN at 2000 ms) is a message that arrived already "
        "expired: an ARRIVE row, which needs trace schema v2; this conversion writes schema v1"
    )
    with pytest.raises(ValueError, match="trace schema v3 is not one this writer knows"):
        trace_from_events(events, schema_version=3)


@pytest.mark.parametrize("latency_ms", [2000, 2500])
def test_exp28_a_scan_discards_an_arrival_expired_after_it_arrives(latency_ms: int) -> None:
    """Rule EXP-28 with scans every 2 s on QM2: a message arriving expired at 2 s (a scan's
    time; the scan comes first) or at 2.5 s is discarded by the scan at 4 s, in the replay as
    in the engine."""
    link = linked(latency_ms=latency_ms)
    link.qm2.alter_qmgr(expryint=2)
    put(link, Expiry=5, Report=CMQC.MQRO_EXPIRATION)
    link.sim.advance(seconds=5)
    trace, result = replay(link)
    assert "ARRIVE" in set(trace["op"])
    m = result.messages[result.messages["queue"] == "APP.IN"].iloc[0]
    assert (m["outcome"], m["discard_cause"], m["end_ms"]) == ("discarded", "scan", 4000)
    assert_replays_like_the_engine(link)


@pytest.mark.parametrize("arrivals", [1, 3])
def test_exp28_an_arrival_a_scan_at_its_own_time_discarded_is_written_1_ms_early(
    arrivals: int,
) -> None:
    """Rule EXP-28 with scans every 2 s on QM2 and 4 s in transit: the deliveries at 4 s were
    scheduled before the scan at 4 s (which the scan at 2 s scheduled), so the messages arrive
    expired and that scan discards them at their own arrival time, with their reports. The
    replay runs a scan before the rows of its time: the conversion writes those arrivals at
    3999 ms, ahead of the queue's rows at 4 s, and the replay discards them at 4 s too."""
    link = linked(latency_ms=4000)
    link.qm2.alter_qmgr(expryint=2)
    for _ in range(arrivals):
        put(link, Expiry=5, Report=CMQC.MQRO_EXPIRATION)
    link.sim.advance(seconds=7)
    scanned = [e for e in link.qm2.events if e.kind == "discard" and e.cause == "scan"]
    assert [e.time_ms for e in scanned] == [4000] * arrivals  # the case itself
    assert [e.time_ms for e in link.qm2.events if e.kind == "put" and e.expiry == 0] == [
        4000
    ] * arrivals
    trace, result = replay(link)
    arrive = trace[trace["op"] == "ARRIVE"]
    assert list(arrive["time_ms"]) == [3999] * arrivals
    app = result.messages[result.messages["queue"] == "APP.IN"]
    assert list(app["discard_cause"]) == ["scan"] * arrivals
    assert list(app["end_ms"]) == [4000] * arrivals and app["report"].all()
    assert_replays_like_the_engine(link)


def test_exp10_an_arrival_expired_and_never_got_is_queued_expired_until_a_scan() -> None:
    """An ARRIVE row with Expiry 0 and no get: the message stays on the queue as an expired
    one (CURDEPTH counts it, rule EXP-25) until a get or a scan (EXP-28) discards it."""
    link = linked(latency_ms=2000)
    put(link, Expiry=5)
    link.sim.advance(seconds=3)
    _, result = replay(link)
    m = result.messages[result.messages["queue"] == "APP.IN"].iloc[0]
    assert m["outcome"] == "expired"
    summary = result.summary.set_index("queue").loc["APP.IN"]
    assert (summary["puts"], summary["final_depth"], summary["final_expired"]) == (1, 1, 1)
    assert_replays_like_the_engine(link)


def test_exp10_a_message_that_arrives_with_time_left_replays_like_the_engine() -> None:
    """Rule EXP-10: 1 s in transit out of 3 s: the message arrives with 2 s left, expires on
    APP.IN at 3 s and the get at 4 s discards it, with its report, in the replay too."""
    link = linked(latency_ms=1000)
    put(link, Expiry=30, Report=CMQC.MQRO_EXPIRATION)
    link.sim.advance(seconds=4)
    get(link)
    _, result = replay(link)
    app = result.messages[result.messages["queue"] == "APP.IN"].iloc[0]
    assert (app["put_ms"], app["expiry"], app["deadline_ms"]) == (1000, 20, 3000)
    assert (app["outcome"], app["end_ms"]) == ("discarded", 4000)
    assert_replays_like_the_engine(link)


# -- random sessions -------------------------------------------------------------------------------
PUTS = st.tuples(
    st.sampled_from([-1, 5, 10, 20, 40]),  # Expiry, tenths
    st.integers(0, 9),  # Priority
    st.sampled_from([0, CMQC.MQRO_EXPIRATION, CMQC.MQRO_EXPIRATION_WITH_DATA]),
    st.sampled_from(["QM1", "QM2"]),  # where the report goes
)
# a round: the channel running or stopped, some puts through it, time passing, gets on QM2
ROUNDS = st.tuples(
    st.booleans(),
    st.lists(PUTS, max_size=4),
    st.sampled_from([100, 500, 1000, 3000]),
    st.integers(0, 2),
)


@SETTINGS
@given(
    st.sampled_from([0, 1, 2]),  # EXPRYINT of both queue managers, seconds (0: no scans)
    st.sampled_from([0, 500, 1500, 2000]),
    st.sampled_from(["FIFO", "PRIORITY"]),
    st.lists(ROUNDS, min_size=1, max_size=8),
)
def test_xqh06_channel_sessions_convert_and_replay_like_the_engine(
    expryint: int, latency_ms: int, xmitq_order: str, rounds: list[tuple[Any, ...]]
) -> None:
    """Rules XQH-06, EXP-10, EXP-21, RPT-01: random sessions of puts through a channel that is
    stopped and started, with gets on QM2. Converted and replayed, each gets and discards the
    same messages at the same times with the same reports as the engine, and each queue gives
    its messages to gets and channel sends in the same order; a message that arrived already
    expired is an ARRIVE row (rule EXP-10), 1 ms early when a scan at its own time discarded
    it (the replay runs a scan before the rows of its time): every session converts."""
    link = linked(latency_ms=latency_ms, xmitq_order=xmitq_order)
    for qm in link.qms:
        qm.alter_qmgr(expryint=expryint)
    for running, puts, advance_ms, gets in rounds:
        if running:
            link.channel.start()
        else:
            link.channel.stop()
        for expiry, priority, report, reply_qmgr in puts:
            put(link, Expiry=expiry, Priority=priority, Report=report, reply_qmgr=reply_qmgr)
        link.sim.advance(ms=advance_ms)
        for _ in range(gets):
            get(link)
    link.sim.advance(ms=latency_ms)  # nothing left in flight
    assert_replays_like_the_engine(link)
