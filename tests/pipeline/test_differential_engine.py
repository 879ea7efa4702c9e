"""Differential tests: ``replay_local`` against the engine driven call by call (issue 5).

Hypothesis writes traces over one or two queue managers with one or two queues each (FIFO or
PRIORITY, small MAXDEPTH, CAPEXPRY, every profile and short expiry-scan intervals), rows that
tie in time, and every operation with descriptor values the queue manager accepts, warns about or
refuses. The same trace drives the engine (``mq.QueueManager`` + ``mq.Queue`` put/get with the
row's MD/GMO values, the Simulation advanced to each row's time) and ``replay_local``; they must
agree on every call's reason, returned MsgId and remaining Expiry, CURDEPTH and the number of
expired messages after every call, and on every discard (which message, by which call or scan,
at what time) with its expiration report and where it was sent.

Rules: EXP-03, EXP-06, EXP-11, EXP-12, EXP-21..28, RPT-01, RPT-06, MD-02.
Reports are addressed to REPLY.Q, which is not in the trace, so they never change a traced queue.
"""

from __future__ import annotations

import warnings
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
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

REPLY_Q = "REPLY.Q"
QMGRS = ("QMA", "QMB")
QUEUES = ("Q1", "Q2")
IDS = [f"{k:048x}" for k in (1, 2, 3)] + ["0" * 46 + "AB", "0" * 46 + "ab"]  # the last two: same id
CORRELS = [None, "0" * 48, f"{7:048x}", f"{8:048x}"]
REPORTS = [
    0,
    CMQC.MQRO_EXPIRATION,
    CMQC.MQRO_EXPIRATION_WITH_DATA,
    CMQC.MQRO_EXPIRATION_WITH_FULL_DATA | CMQC.MQRO_PASS_MSG_ID,
    CMQC.MQRO_COA,
    CMQC.MQRO_EXCEPTION,
    0x00400000,  # half of MQRO_EXPIRATION_WITH_DATA: not an option (2061)
    0x00040000,  # a reserved bit (2061)
]
SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# -- strategies ----------------------------------------------------------------------------------
@st.composite
def queue_defs(draw: st.DrawFn) -> pd.DataFrame:
    rows = []
    for qmgr in QMGRS[: draw(st.integers(1, 2))]:
        profile = draw(st.sampled_from(["distributed", "zos", "ibmi"]))
        interval = draw(st.sampled_from([0, 1, 2, 5]))
        for queue in QUEUES[: draw(st.integers(1, 2))]:
            rows.append(
                {
                    "qmgr": qmgr,
                    "queue": queue,
                    "msgdlvsq": draw(st.sampled_from(["FIFO", "PRIORITY"])),
                    "defprty": draw(st.integers(0, 9)),
                    "maxdepth": draw(st.integers(0, 6)),
                    "capexpry": draw(st.one_of(st.just(-1), st.integers(1, 40))),
                    "profile": profile,
                    "expiry_interval_s": interval,
                }
            )
    return pd.DataFrame(rows).astype(QUEUE_COLUMNS)


@st.composite
def trace_rows(draw: st.DrawFn, places: list[tuple[str, str]]) -> pd.DataFrame:
    rows = []
    time = 0
    for seq in range(draw(st.integers(1, 40))):
        time += draw(st.sampled_from([0, 0, 1, 99, 100, 101, 500, 1000, 3000]))
        qmgr, queue = draw(st.sampled_from(places))
        op = draw(
            st.sampled_from(["PUT", "PUT", "PUT", "GET", "GET", "BROWSE_FIRST", "BROWSE_NEXT"])
        )
        row: dict[str, Any] = {
            "seq": seq * 10,
            "time_ms": time,
            "qmgr": qmgr,
            "queue": queue,
            "op": op,
            "handle": draw(st.integers(0, 2)),
            "correl_id": draw(st.sampled_from(CORRELS)),
            "match_options": 0,
            "priority": 0,
            "expiry": -1,
            "report": 0,
            "reply_to_q": None,
            "reply_to_qmgr": None,
            "persistence": 0,
            "data_length": 0,
        }
        if op == "PUT":
            row.update(
                msg_id=draw(st.sampled_from(IDS)),
                priority=draw(st.integers(-2, 11)),
                expiry=draw(
                    st.one_of(st.just(-1), st.integers(1, 60), st.sampled_from([0, -2, 2**31 - 1]))
                ),
                report=draw(st.sampled_from(REPORTS)),
                reply_to_q=draw(st.sampled_from([None, REPLY_Q, REPLY_Q, "  "])),
                reply_to_qmgr=draw(st.sampled_from([None, "", *sorted({p[0] for p in places})])),
                persistence=draw(st.sampled_from([0, 1, 2, 3])),
                data_length=draw(st.integers(0, 3)),
            )
        else:
            row.update(
                msg_id=draw(st.sampled_from([None, *IDS])),
                match_options=draw(st.integers(0, 3)),
            )
        rows.append(row)
    return pd.DataFrame(rows).astype(TRACE_COLUMNS)


@st.composite
def scenarios(draw: st.DrawFn) -> tuple[pd.DataFrame, pd.DataFrame]:
    queues = draw(queue_defs())
    places = list(zip(queues["qmgr"], queues["queue"], strict=True))
    return draw(trace_rows(places)), queues


# -- the engine, driven call by call --------------------------------------------------------------
@dataclass
class EngineRun:
    qms: dict[str, mq.QueueManager]
    calls: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    spans: list[tuple[str, int, int, int]] = field(default_factory=list)  # qmgr, start, end, seq


def build_engine(queues: pd.DataFrame) -> dict[str, mq.QueueManager]:
    sim = mq.Simulation()
    qms: dict[str, mq.QueueManager] = {}
    for qmgr, group in queues.groupby("qmgr", sort=False):
        first = group.iloc[0]
        qm = mq.QueueManager(str(qmgr), sim, profile=first["profile"], enforce_max_expiry=False)
        qm.alter_qmgr(expryint=int(first["expiry_interval_s"]))
        for q in group.to_dict("records"):
            qm.define_qlocal(
                q["queue"],
                msgdlvsq=q["msgdlvsq"],
                defprty=int(q["defprty"]),
                maxdepth=int(q["maxdepth"]),
                capexpry=None if q["capexpry"] == -1 else int(q["capexpry"]),
            )
        qm.define_qlocal(REPLY_Q)
        qms[str(qmgr)] = qm
    for qm in qms.values():  # routes for reports addressed to the other queue manager
        for other in qms:
            if other != qm.name:
                qm.define_qlocal(other, usage="XMITQ")
    return qms


def _ident(hex_id: Any, none: bytes) -> bytes:
    return none if pd.isna(hex_id) else bytes.fromhex(hex_id)


def _call(handle: mq.Queue, row: dict[str, Any]) -> tuple[int, str | None, int | None]:
    """One trace row as MQPUT or MQGET; returns (reason, MsgId, Expiry returned)."""
    md = mq.MD(
        MsgId=_ident(row["msg_id"], CMQC.MQMI_NONE),
        CorrelId=_ident(row["correl_id"], CMQC.MQCI_NONE),
    )
    try:
        if row["op"] == "PUT":
            md.set(
                Priority=row["priority"],
                Expiry=row["expiry"],
                Report=row["report"],
                ReplyToQ="" if pd.isna(row["reply_to_q"]) else row["reply_to_q"],
                ReplyToQMgr="" if pd.isna(row["reply_to_qmgr"]) else row["reply_to_qmgr"],
                Persistence=row["persistence"],
            )
            pmo = mq.PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", mq.MQWarning)
                handle.put(b"x" * row["data_length"], md, pmo)
            return handle.last_reason, None, None
        options = {
            "GET": CMQC.MQGMO_NO_SYNCPOINT,
            "BROWSE_FIRST": CMQC.MQGMO_BROWSE_FIRST,
            "BROWSE_NEXT": CMQC.MQGMO_BROWSE_NEXT,
        }[row["op"]]
        gmo = mq.GMO(
            Version=CMQC.MQGMO_VERSION_2, Options=options, MatchOptions=row["match_options"]
        )
        handle.get(None, md, gmo)
        return handle.last_reason, md.MsgId.hex(), md.Expiry
    except mq.MQMIError as error:
        return error.reason, None, None


def run_engine(trace: pd.DataFrame, queues: pd.DataFrame) -> EngineRun:
    run = EngineRun(build_engine(queues))
    handles: dict[tuple[Any, ...], mq.Queue] = {}
    sim = next(iter(run.qms.values())).sim
    for row in trace.sort_values(["time_ms", "seq"]).to_dict("records"):
        sim.run_until(row["time_ms"])
        qm = run.qms[row["qmgr"]]
        key = (row["qmgr"], row["queue"], "put" if row["op"] == "PUT" else row["handle"])
        if key not in handles:
            handles[key] = mq.Queue(qm, row["queue"])
        start = len(qm.events)
        reason, msg_id, expiry = _call(handles[key], row)
        run.spans.append((qm.name, start, len(qm.events), row["seq"]))
        frame = qm.queue_frame(row["queue"])
        run.calls[row["seq"]] = (
            reason,
            msg_id,
            expiry,
            qm.curdepth(row["queue"]),
            int(frame["expired"].sum()),
        )
    return run


def report_after(events: list[mq.Event], index: int) -> str | None:
    """The detail of the report a discard produced: logged after the report's own put, before
    the next discard."""
    for event in events[index + 1 : index + 3]:
        if event.kind == "discard":
            break
        if event.kind == "report":
            return event.detail
    return None


def engine_discards(run: EngineRun) -> Counter[tuple[Any, ...]]:
    """(qmgr, queue, call seq or scan time, cause, MsgId, report destination) per discard."""
    owner = {}
    for qmgr, start, end, seq in run.spans:
        for index in range(start, end):
            owner[(qmgr, index)] = seq
    found: Counter[tuple[Any, ...]] = Counter()
    for qm in run.qms.values():
        events = qm.events
        for index, event in enumerate(events):
            if event.kind != "discard" or event.queue in (REPLY_Q, *run.qms):
                continue
            report = report_after(events, index)
            when = ("scan", event.time_ms) if event.cause == "scan" else owner[(qm.name, index)]
            found[(qm.name, event.queue, when, event.cause, event.msg_id.hex(), report)] += 1
    return found


def replay_discards(messages: pd.DataFrame) -> Counter[tuple[Any, ...]]:
    found: Counter[tuple[Any, ...]] = Counter()
    for m in messages[messages["outcome"] == "discarded"].to_dict("records"):
        cause = m["discard_cause"]
        when = ("scan", m["end_ms"]) if cause == "scan" else m["end_seq"]
        report = f"sent to {m['report_q']} at {m['report_qmgr']}" if m["report"] else None
        found[(m["qmgr"], m["queue"], when, cause, m["msg_id"], report)] += 1
    return found


def replay_calls(result: Any) -> dict[int, tuple[Any, ...]]:
    depth = result.depth[result.depth["source"] == "call"].set_index("seq")
    calls = {}
    for c in result.calls.to_dict("records"):
        got = c["op"] != "PUT" and c["reason"] in (0,)
        calls[c["seq"]] = (
            c["reason"],
            c["msg_id"] if got else None,
            c["expiry"] if got else None,
            int(depth.loc[c["seq"], "depth"]),
            int(depth.loc[c["seq"], "expired"]),
        )
    return calls


# -- the tests ------------------------------------------------------------------------------------
@SETTINGS
@given(scenarios())
def test_exp21_28_replay_local_matches_the_engine_call_by_call(
    scenario: tuple[pd.DataFrame, pd.DataFrame],
) -> None:
    """Rules EXP-03, EXP-06, EXP-11/12, EXP-21..28, RPT-01/06, MD-02: replay == engine."""
    trace, queues = scenario
    result = replay_local(trace, queues, end_ms=int(trace["time_ms"].max()))
    assert result.rejected == 0
    run = run_engine(trace, queues)
    assert replay_calls(result) == run.calls
    assert replay_discards(result.messages) == engine_discards(run)


@SETTINGS
@given(scenarios())
def test_exp21_28_engine_session_converts_and_replays_to_the_same_outcomes(
    scenario: tuple[pd.DataFrame, pd.DataFrame],
) -> None:
    """An engine session's event log, converted with trace_from_events and replayed, discards
    the same messages at the same times with the same reports, and gets the same ones."""
    trace, queues = scenario
    plain = trace.assign(match_options=0, handle=0)  # the log cannot tell options or handles
    assert_log_replays_like_the_engine(plain, queues)


def assert_log_replays_like_the_engine(trace: pd.DataFrame, queues: pd.DataFrame) -> None:
    """Run ``trace`` on the engine; its event log, converted and replayed, must get and discard
    the same messages at the same times with the same reports."""
    run = run_engine(trace, queues)
    qms = list(run.qms.values())
    events = pd.concat([qm.events_frame() for qm in qms], ignore_index=True)
    converted = trace_from_events(events, queues_of(*qms))
    result = replay_local(converted, queues_of(*qms), end_ms=int(trace["time_ms"].max()))
    assert result.rejected == 0
    replayed = result.messages[result.messages["queue"].isin(QUEUES)]
    assert replay_outcomes(replayed) == engine_outcomes(run)


def engine_outcomes(run: EngineRun) -> Counter[tuple[Any, ...]]:
    """(qmgr, queue, MsgId, outcome, time, report) of every message put on a traced queue."""
    found: Counter[tuple[Any, ...]] = Counter()
    for qm in run.qms.values():
        events = qm.events
        for index, e in enumerate(events):
            if e.queue not in QUEUES or e.kind not in ("get", "discard"):
                continue
            report = report_after(events, index)
            outcome = "got" if e.kind == "get" else "discarded"
            found[(qm.name, e.queue, e.msg_id.hex(), outcome, e.time_ms, report)] += 1
        for queue in QUEUES:
            if queue in qm.objects:
                for msg_id in qm.queue_frame(queue)["msg_id"]:
                    found[(qm.name, queue, msg_id, "queued", None, None)] += 1
    return found


def replay_outcomes(messages: pd.DataFrame) -> Counter[tuple[Any, ...]]:
    found: Counter[tuple[Any, ...]] = Counter()
    for m in messages.to_dict("records"):
        queued = m["outcome"] in ("live", "expired")
        report = f"sent to {m['report_q']} at {m['report_qmgr']}" if m["report"] else None
        outcome = "queued" if queued else m["outcome"]
        when = None if queued else m["end_ms"]
        found[(m["qmgr"], m["queue"], m["msg_id"], outcome, when, report)] += 1
    return found


@pytest.mark.parametrize(
    "profile, interval, expected",
    [
        ("distributed", 300, [300_000, 600_000]),
        ("ibmi", 300, [300_000, 600_000]),
        ("ibmi", 0, []),
        ("zos", 7, [7_000, 308_000]),
    ],
)
def test_exp28_scan_times_follow_the_profile(
    profile: str, interval: int, expected: list[int]
) -> None:
    """Rule EXP-28: distributed and IBM i scan every expiry_interval_s (300 s by default, 0 = off)
    from time 0, z/OS every EXPRYINT; the replay discards at exactly the engine's scan times.
    Message 1 expires at 5 s, message 2 at 1 s + 301 s = 302 s: the first scan at or after each."""
    queues = pd.DataFrame(
        [
            {
                "qmgr": "QMA",
                "queue": "Q1",
                "msgdlvsq": "PRIORITY",
                "defprty": 0,
                "maxdepth": 100,
                "capexpry": -1,
                "profile": profile,
                "expiry_interval_s": interval,
            }
        ]
    ).astype(QUEUE_COLUMNS)
    base = {
        "qmgr": "QMA",
        "queue": "Q1",
        "handle": 0,
        "correl_id": None,
        "match_options": 0,
        "priority": 0,
        "report": 0,
        "reply_to_q": None,
        "reply_to_qmgr": None,
        "persistence": 0,
        "data_length": 1,
    }
    rows = [
        {**base, "seq": 1, "time_ms": 0, "op": "PUT", "msg_id": IDS[0], "expiry": 50},
        {**base, "seq": 2, "time_ms": 1000, "op": "PUT", "msg_id": IDS[1], "expiry": 3010},
        {**base, "seq": 3, "time_ms": 700_000, "op": "PUT", "msg_id": IDS[2], "expiry": -1},
    ]
    trace = pd.DataFrame(rows).astype(TRACE_COLUMNS)
    result = replay_local(trace, queues, end_ms=700_000)
    run = run_engine(trace, queues)
    assert replay_discards(result.messages) == engine_discards(run)
    scans = result.messages.loc[result.messages["discard_cause"] == "scan", "end_ms"].tolist()
    assert scans == expected
