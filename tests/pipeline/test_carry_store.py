"""The store of messages queued across the cuts of a trace (issue 27): which of them a piece is
handed (``carry_store.Store.take``), on traces written out so that the answer is known, each replayed
in pieces against replay_local (one piece). The property tests of test_stream.py and
test_backlog.py check the same on generated traces; these pin down what is left out."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mqlearn.mqi import cmqc as C
from mqlearn.pipeline import QUEUE_COLUMNS, TRACE_COLUMNS, replay_local
from mqlearn.pipeline.batches import BatchReplay
from tests.pipeline.test_spark_replay import canonical
from tests.pipeline.test_stream import replay_in_pieces

UNLIMITED = -1


def queue(msgdlvsq: str, maxdepth: int = 100, interval_s: int = 0) -> pd.DataFrame:
    row = {
        "qmgr": "QM1",
        "queue": "Q1",
        "msgdlvsq": msgdlvsq,
        "defprty": 0,
        "maxdepth": maxdepth,
        "capexpry": -1,
        "profile": "distributed",
        "expiry_interval_s": interval_s,
    }
    return pd.DataFrame([row]).astype(QUEUE_COLUMNS)


def trace(calls: list[tuple[int, str, int, int]]) -> pd.DataFrame:
    """(time_ms, op, priority, expiry) per call, in seq order, on QM1/Q1."""
    rows = [
        {
            "seq": 10 * k,
            "time_ms": time_ms,
            "qmgr": "QM1",
            "queue": "Q1",
            "op": op,
            "handle": 1,
            "msg_id": f"{k + 1:048x}" if op == "PUT" else None,
            "correl_id": None,
            "match_options": 0,
            "priority": priority,
            "expiry": expiry,
            "report": 0,
            "reply_to_q": "",
            "reply_to_qmgr": "",
            "persistence": 0,
            "data_length": 1,
        }
        for k, (time_ms, op, priority, expiry) in enumerate(calls)
    ]
    return pd.DataFrame(rows).astype(TRACE_COLUMNS)


# four messages in lane 0 that expire after 1 s, and one there that does not; then, 5 s
# later, gets that always find a message put just before them in lane 9 (unlimited); then two
# gets, the second of which reaches lane 0. In pieces of 5 rows.
BEHIND_A_BUSY_LANE = [
    *((t, "PUT", 0, 10) for t in range(4)),
    (1500, "PUT", 0, UNLIMITED),
    (5000, "PUT", 9, UNLIMITED),
    (5001, "GET", 0, 0),
    (5002, "PUT", 9, UNLIMITED),
    (5003, "GET", 0, 0),
    (5004, "PUT", 9, UNLIMITED),
    (6000, "GET", 0, 0),
    (6001, "GET", 0, 0),
]


def taken_and_stored(trace: pd.DataFrame, queues: pd.DataFrame, size: int) -> list[tuple]:
    """Per piece: how many stored messages it was handed, and how many were stored before it."""
    seen: list[tuple[int, int]] = []
    stored = [0]

    def after(replay: BatchReplay) -> None:
        seen.append((len(replay.store.taken_slots), stored[-1]))
        stored.append(len(replay.store))

    got = replay_in_pieces(trace, queues, size, after)
    for name, table in replay_local(trace, queues).tables().items():
        pd.testing.assert_frame_equal(canonical(got[name]), canonical(table), obj=name)
    return seen


def test_exp21_expired_messages_behind_a_busy_higher_lane_stay_out_of_the_piece() -> None:
    """EXP-21, EXP-24, MD-02: on a priority queue without background scans, the messages in
    lane 0 stay queued while every get finds a live message put in lane 9 before it: the piece
    with those gets is not handed them (no walk can reach them); the last piece, where a get
    does reach them (and discards the expired ones), is (it completes the queue)."""
    seen = taken_and_stored(trace(BEHIND_A_BUSY_LANE), queue("PRIORITY"), 5)
    assert seen == [(0, 0), (0, 5), (6, 6)]


@pytest.mark.parametrize(("expiry", "gap_ms", "taken"), [(50, 1, 0), (1, 1, 0), (1, 100, 5)])
def test_exp20_a_higher_message_shields_the_lane_while_it_is_live(expiry, gap_ms, taken) -> None:
    """EXP-20, EXP-21, MD-02: the messages put in lane 9 before the gets expire (after 5 s or
    0.1 s): as long as each is live when the get after it comes, no get can reach lane 0; one
    that expired by then (0.1 s Expiry, the get 0.1 s later: now >= deadline) no longer
    shields it, and the piece is handed lane 0 up to its live message."""
    put, get = (lambda t: (t, "PUT", 9, expiry)), (lambda t: (t, "GET", 0, 0))
    steps = [put, get, put, get, put]
    calls = [
        *BEHIND_A_BUSY_LANE[:5],
        *(step(5000 + k * gap_ms) for k, step in enumerate(steps)),
        *BEHIND_A_BUSY_LANE[10:],
    ]
    seen = taken_and_stored(trace(calls), queue("PRIORITY"), 5)
    assert seen[1] == (taken, 5)


def test_exp21_a_get_before_any_higher_message_can_reach_the_lane() -> None:
    """EXP-21, EXP-24: the same, but the first get of the second piece comes before the first
    put into lane 9: it may walk into lane 0, so the piece is handed the messages there up to
    the first live one (that get discards the expired ones and takes it)."""
    calls = [*BEHIND_A_BUSY_LANE[:5], (4999, "GET", 0, 0), *BEHIND_A_BUSY_LANE[5:]]
    seen = taken_and_stored(trace(calls), queue("PRIORITY"), 5)
    assert seen[1] == (5, 5)


@pytest.mark.parametrize("maxdepth", [8, 7])
def test_exp25_a_queue_that_could_refuse_a_put_hands_its_lanes_to_every_get(maxdepth) -> None:
    """EXP-25: when the stored messages and the piece's puts could reach MAXDEPTH, a put may be
    refused (adding no message above the lane), so no get is taken to stop above it."""
    seen = taken_and_stored(trace(BEHIND_A_BUSY_LANE), queue("PRIORITY", maxdepth=maxdepth), 5)
    assert seen[1] == ((0, 5) if maxdepth >= 8 else (5, 5))


@pytest.mark.parametrize(("interval_s", "taken"), [(0, 0), (2, 4)])
def test_exp28_a_scan_in_the_piece_hands_it_the_expired_messages(interval_s, taken) -> None:
    """EXP-28: the four messages expired before the second piece starts (at 1.5 s) stay out of
    it without background scans; with a scan every 2 s, the scans at 2 s and 4 s fall in that
    piece and the first discards them, so it is handed them."""
    seen = taken_and_stored(trace(BEHIND_A_BUSY_LANE), queue("PRIORITY", interval_s=interval_s), 5)
    assert seen[1] == (taken, 5)


def test_stored_columns_keep_the_widest_values_the_trace_allows() -> None:
    """Tooling: the store keeps each column in the narrowest type its values fit (a byte for a
    priority, 32 bits for the MQLONG fields): a message with the largest Expiry and DataLength
    an MQLONG holds, then one that expires with an expiration report of its full data,
    priority 9, persistence as the queue's default, each stored across the cuts (pieces of
    one row), replay as in one piece."""
    calls = [(0, "PUT", 9, 2**31 - 1), (1, "PUT", 9, 10), (3000, "GET", 0, 0), (3001, "GET", 0, 0)]
    rows = trace(calls)
    puts = rows["op"] == "PUT"
    rows.loc[puts, "data_length"] = 2**31 - 1
    rows.loc[puts, "persistence"] = 2  # MQPER_PERSISTENCE_AS_Q_DEF
    report = [C.MQRO_EXCEPTION_WITH_FULL_DATA | C.MQRO_PAN, C.MQRO_EXPIRATION_WITH_FULL_DATA]
    rows.loc[puts, "report"] = np.array(report, dtype=np.int32)
    rows.loc[puts, "reply_to_q"] = "REPLY.Q"
    seen = taken_and_stored(rows, queue("PRIORITY"), 1)
    assert [stored for _, stored in seen] == [0, 1, 2, 1]  # every message stored at a cut
