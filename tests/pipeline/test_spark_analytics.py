"""Analytics of a replay (issue 5) on a trace whose answers are worked out by hand, and their
figures.

QMA/Q1 (FIFO, no background scan): A (Expiry 10 tenths, asks for an expiration report to
QMA/REPLY.Q), B (unlimited) and C (Expiry 20) are put at 0 ms. A get at 5 000 ms discards A
(deadline 1 000 ms: 4 000 ms of zombie time) and returns B (EXP-22); C, behind B, stays, expired,
counting in the depth (EXP-25). D is put in the second hour (4 000 000 ms) and a get at
4 000 100 ms discards C (zombie time 3 998 100 ms) and returns D. QMA/Q2 gets what it puts.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import plotly.graph_objects as go
import pytest

from mqlearn import CMQC
from mqlearn.pipeline import QUEUE_COLUMNS, TRACE_COLUMNS
from mqlearn.pipeline import analytics as A
from mqlearn.pipeline.spark_replay import replay_spark
from mqlearn.viz import pipeline_figures as F
from tests.pipeline.test_spark_replay import queue_frame, row, write_parquet

pytestmark = pytest.mark.slow

IDS = {name: f"{k:048x}" for k, name in enumerate("ABCDE", start=1)}
HOUR = 3_600_000
SPAN = 4_000_100  # Q1's first to last call


@pytest.fixture(scope="module")
def tables(spark, tmp_path_factory: pytest.TempPathFactory) -> dict:
    root: Path = tmp_path_factory.mktemp("analytics")
    report = {
        "report": CMQC.MQRO_EXPIRATION,
        "reply_to_q": "REPLY.Q",
        "reply_to_qmgr": "QMA",
    }
    trace = pd.DataFrame(
        [
            row(1, 0, "PUT", msg_id=IDS["A"], expiry=10, **report),
            row(2, 0, "PUT", msg_id=IDS["B"]),
            row(3, 0, "PUT", msg_id=IDS["C"], expiry=20),
            row(4, 5000, "GET"),
            row(5, 4_000_000, "PUT", msg_id=IDS["D"]),
            row(6, 4_000_100, "GET"),
            row(7, 10, "PUT", "Q2", msg_id=IDS["E"]),
            row(8, 20, "GET", "Q2"),
        ]
    ).astype(TRACE_COLUMNS)
    queues = queue_frame("Q1", "Q2", "REPLY.Q").astype(QUEUE_COLUMNS)
    replay_spark(
        spark,
        write_parquet(trace, TRACE_COLUMNS, root / "trace.parquet"),
        write_parquet(queues, QUEUE_COLUMNS, root / "queues.parquet"),
        root / "out",
    )
    return A.load(spark, root / "out")


def test_exp21_exp22_expiry_by_queue(tables) -> None:
    """EXP-21, EXP-22: two of Q1's four messages expired and were discarded by gets."""
    frame = A.expiry_by_queue(tables)
    q1 = frame.iloc[0]
    assert (q1["queue"], q1["messages"], q1["got"], q1["discarded"]) == ("Q1", 4, 2, 2)
    assert (q1["expired_left"], q1["expired"], q1["reports"]) == (0, 2, 1)
    assert q1["expiry_rate"] == 0.5
    q2 = frame.iloc[1]
    assert (q2["queue"], q2["expired"], q2["expiry_rate"]) == ("Q2", 0, 0.0)


def test_exp21_expiry_by_hour(tables) -> None:
    """EXP-21: of the messages put in hour 0, A and C expired; A was discarded in hour 0 and C
    in hour 1; D, put in hour 1, was got."""
    frame = A.expiry_by_hour(tables).set_index("hour")
    assert frame.loc[0, ["messages", "expired", "discards"]].tolist() == [4, 2, 1]
    assert frame.loc[1, ["messages", "expired", "discards"]].tolist() == [1, 0, 1]
    assert frame.loc[0, "expiry_rate"] == 0.5
    per_queue = A.expiry_by_hour(tables, by_queue=True)
    q1 = per_queue[per_queue["queue"] == "Q1"].set_index("hour")
    assert q1.loc[0, "expiry_rate"] == pytest.approx(2 / 3)


def test_exp21_zombie_time_is_deadline_to_discard(tables) -> None:
    """EXP-20, EXP-21: an expired message stays until a get meets it; zombie time is the time
    from its deadline to that discard."""
    frame = A.zombie_times(tables)
    get = frame.set_index("discard_cause").loc["get"]
    assert get["discarded"] == 2
    assert get["max_ms"] == 3_998_100
    assert get["mean_ms"] == (4000 + 3_998_100) / 2
    histogram = A.zombie_histogram(tables)
    assert histogram[["low_ms", "discarded"]].values.tolist() == [[1000, 1], [1_000_000, 1]]


def test_exp25_depth_inflation_counts_expired_messages(tables) -> None:
    """EXP-25: expired messages count in the depth until discarded. Q1 holds A 5 000 ms, B
    5 000 ms, C 4 000 100 ms and D 100 ms; A is expired for 4 000 ms and C for 3 998 100 ms;
    both are expired at once from 2 000 to 5 000 ms."""
    frame = A.depth_inflation(tables).set_index("queue")
    q1 = frame.loc["Q1"]
    assert q1["span_ms"] == SPAN
    assert q1["mean_depth"] == pytest.approx((5000 + 5000 + 4_000_100 + 100) / SPAN)
    assert q1["mean_expired"] == pytest.approx((4000 + 3_998_100) / SPAN)
    assert q1["expired_share"] == pytest.approx(4_002_100 / 4_010_200)
    assert (q1["max_depth"], q1["max_expired"]) == (3, 2)
    assert frame.loc["Q2", "expired_share"] == 0.0


def test_rpt02_report_volume_per_reply_queue(tables) -> None:
    """RPT-01, RPT-02: only A asked for an expiration report; it was sent when A was discarded,
    to QMA/REPLY.Q."""
    frame = A.report_volume(tables)
    assert frame.to_dict("records") == [
        {"report_qmgr": "QMA", "report_q": "REPLY.Q", "reports": 1, "from_queues": 1}
    ]


def test_top_offenders_lists_queues_with_expired_messages(tables) -> None:
    """EXP-21, EXP-25: Q1 is the only queue with expired messages."""
    frame = A.top_offenders(tables, n=5)
    assert frame["queue"].tolist() == ["Q1"]
    assert frame.loc[0, "p90_zombie_ms"] in (4000, 3_998_100)
    with pytest.raises(ValueError, match="n must be >= 1"):
        A.top_offenders(tables, n=0)


def test_depth_series_of_one_queue(tables) -> None:
    """EXP-25: the depth series shows C still counted (expired) after the first get."""
    series = A.depth_series(tables, "QMA", "Q1")
    after_first_get = series[series["seq"] == 4].iloc[0]
    assert (after_first_get["depth"], after_first_get["expired"]) == (1, 1)
    thinned = A.depth_series(tables, "QMA", "Q1", points=2)
    assert len(thinned) <= 2 and thinned["depth"].max() == 3
    with pytest.raises(ValueError, match="no depth rows for QMA/NOPE"):
        A.depth_series(tables, "QMA", "NOPE")


def test_figures_are_titled_and_labelled(tables) -> None:
    """Tooling, no behaviour rule: every analytics figure has a title, axis titles and data."""
    figures = [
        F.expiry_by_queue(A.expiry_by_queue(tables)),
        F.expiry_by_hour(A.expiry_by_hour(tables)),
        F.expiry_heatmap(A.expiry_by_hour(tables, by_queue=True)),
        F.zombie_histogram(A.zombie_histogram(tables)),
        F.depth_inflation(A.depth_inflation(tables)),
        F.depth_series(A.depth_series(tables, "QMA", "Q1"), "QMA/Q1"),
        F.report_volume(A.report_volume(tables)),
    ]
    for figure in figures:
        assert isinstance(figure, go.Figure) and figure.data
        assert figure.layout.title.text
        assert figure.layout.xaxis.title.text and figure.layout.yaxis.title.text
    table = F.top_offenders(A.top_offenders(tables))
    assert table.layout.title.text and list(table.data[0].cells.values[0]) == ["QMA/Q1"]
