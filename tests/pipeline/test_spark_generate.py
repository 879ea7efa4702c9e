"""The trace generator (issue 5): deterministic from its seed, inside Spark or not, and realistic.

The traces it writes must be valid MQ traffic: every row passes validation, expiries are
MQEI_UNLIMITED or positive tenths (EXP-01, EXP-02), priorities are -1 or 0..9 (MD-02), a message
asking for an expiration report names a reply-to queue (RPT-06).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from mqlearn import CMQC
from mqlearn.pipeline import QUEUE_COLUMNS, TRACE_COLUMNS, replay_local
from mqlearn.pipeline.generate import (
    MAX_QUEUE_EVENTS,
    TraceSpec,
    Workload,
    generate,
    generate_local,
    queue_definitions,
)
from mqlearn.pipeline.schema import OPS_OF_VERSION
from mqlearn.pipeline.spark import arrow_to_pandas

SPEC = TraceSpec(seed=11, events=6000, queues=8, qmgrs=2, hours=2)
REPORTS = (
    CMQC.MQRO_EXPIRATION,
    CMQC.MQRO_EXPIRATION_WITH_DATA,
    CMQC.MQRO_EXPIRATION_WITH_FULL_DATA,
)


@pytest.fixture(scope="module")
def local_trace() -> tuple[pd.DataFrame, pd.DataFrame]:
    return generate_local(SPEC)


def read_trace(directory: Path) -> pd.DataFrame:
    frame = arrow_to_pandas(pq.read_table(directory), TRACE_COLUMNS)
    return frame.sort_values("seq", ignore_index=True)


def test_same_seed_same_trace_in_spark_and_in_process(spark, tmp_path, local_trace) -> None:
    """Tooling, no behaviour rule: the trace depends on the seed only. Spark (one task per
    queue, any partitioning) writes exactly what ``generate_local`` makes; so does a second run."""
    first = generate(spark, SPEC, tmp_path / "a")
    again = generate(spark, SPEC, tmp_path / "b")
    trace, queues = local_trace
    assert first.rows == len(trace)
    pd.testing.assert_frame_equal(read_trace(first.trace), trace)
    pd.testing.assert_frame_equal(read_trace(again.trace), trace)
    written = arrow_to_pandas(pq.read_table(first.queues), QUEUE_COLUMNS)
    pd.testing.assert_frame_equal(written, queues)


def test_another_seed_another_trace(local_trace) -> None:
    """Tooling, no behaviour rule: the seed matters."""
    other, _ = generate_local(TraceSpec(**{**SPEC.__dict__, "seed": SPEC.seed + 1}))
    trace, _ = local_trace
    assert len(other) != len(trace) or not other["time_ms"].equals(trace["time_ms"])


def test_generated_trace_is_valid_and_ordered(local_trace) -> None:
    """EXP-01, EXP-02, MD-02, RPT-06: every row is accepted by the replay's validation; seq is
    unique and follows time; every PUT has its own MsgId (48 hex digits, as the engine makes)."""
    trace, queues = local_trace
    result = replay_local(trace, queues)
    assert result.rejected == 0 and result.accepted == len(trace)
    assert trace["seq"].is_unique and trace["time_ms"].is_monotonic_increasing
    assert list(trace.columns) == list(TRACE_COLUMNS)
    puts = trace[trace["op"] == "PUT"]
    assert puts["msg_id"].is_unique
    assert puts["msg_id"].str.fullmatch("[0-9a-f]{48}").all()
    assert ((puts["expiry"] == CMQC.MQEI_UNLIMITED) | (puts["expiry"] > 0)).all()
    assert puts["priority"].between(CMQC.MQPRI_PRIORITY_AS_Q_DEF, 9).all()
    reporting = puts[puts["report"] != CMQC.MQRO_NONE]
    assert reporting["report"].isin(REPORTS).all()
    assert (reporting["reply_to_q"] != "").all() and (reporting["reply_to_qmgr"] != "").all()
    used = set(zip(trace["qmgr"], trace["queue"], strict=True))
    assert used <= set(zip(queues["qmgr"], queues["queue"], strict=True))


def test_generated_traffic_has_the_realistic_mix(local_trace) -> None:
    """EXP-01, EXP-02: unlimited and finite expiries, TTLs from seconds to hours, several
    priorities, expiration reports, matching gets and browse sweeps; and the replay shows what
    consumer outages do: some messages expire and are discarded (EXP-21)."""
    trace, queues = local_trace
    puts = trace[trace["op"] == "PUT"]
    assert set(trace["op"]) == set(OPS_OF_VERSION[1])  # the generator writes schema v1
    finite = puts.loc[puts["expiry"] > 0, "expiry"]
    assert 0.2 < len(finite) / len(puts) < 0.95
    assert finite.min() < 100 and finite.max() > 10_000  # under 10 s and over 1000 s
    assert puts["priority"].nunique() >= 4
    assert (puts["report"] != CMQC.MQRO_NONE).sum() > 0
    assert ((trace["op"] == "GET") & (trace["match_options"] == CMQC.MQMO_MATCH_MSG_ID)).any()
    assert set(queues["msgdlvsq"]) == {"FIFO", "PRIORITY"}
    discarded = replay_local(trace, queues).messages["outcome"].eq("discarded").sum()
    assert 0 < discarded < 0.5 * len(puts)


def test_reply_queues_are_defined_on_every_qmgr() -> None:
    """RPT-06: reports go to ReplyToQ at ReplyToQMgr; the definitions hold those queues."""
    trace, queues = generate_local(SPEC)
    puts = trace[(trace["op"] == "PUT") & (trace["report"] != CMQC.MQRO_NONE)]
    targets = set(zip(puts["reply_to_qmgr"], puts["reply_to_q"], strict=True))
    assert targets <= set(zip(queues["qmgr"], queues["queue"], strict=True))


def test_definitions_share_profile_and_interval_per_qmgr() -> None:
    """EXP-28: the background expiry interval and the profile are queue-manager attributes;
    distributed and IBM i have the expiry task (300 s, tuned or off), z/OS EXPRYINT (off or set)."""
    queues = queue_definitions(TraceSpec(seed=3, queues=40, qmgrs=5))
    per_qmgr = queues.groupby("qmgr")[["profile", "expiry_interval_s"]].nunique()
    assert (per_qmgr == 1).all().all()
    intervals = queues.groupby("profile")["expiry_interval_s"].unique()
    assert set(intervals["ibmi"]) == {60}, "this seed's IBM i queue manager has a tuned task"
    assert set(intervals["distributed"]) == {300}
    assert set(intervals["zos"]) == {0}


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (dict(events=0), "events must be >= 1"),
        (dict(queues=2, qmgrs=3), "qmgrs (3) cannot exceed queues (2)"),
        (dict(hours=0), "hours must be > 0"),
        (dict(bursty_share=2), "bursty_share must be within [0, 1]"),
        (dict(outage_share=-0.1), "outage_share must be within [0, 1]"),
    ],
)
def test_bad_spec_is_refused(spec, message) -> None:
    """Tooling, no behaviour rule: a bad spec raises ValueError naming the field."""
    with pytest.raises(ValueError, match=re.escape(message)):
        TraceSpec(**spec)


def test_too_many_events_for_one_queue_is_refused() -> None:
    """Tooling, no behaviour rule: one task holds one queue, so a queue's size is capped."""
    from mqlearn.pipeline.generate import plan_queues

    with pytest.raises(ValueError, match="add queues"):
        plan_queues(TraceSpec(events=4 * MAX_QUEUE_EVENTS, queues=2, qmgrs=1))


def test_bad_workload_is_refused() -> None:
    """Tooling, no behaviour rule: workload knobs are checked by name."""
    with pytest.raises(ValueError, match="priority_mix 'urgent'"):
        Workload(priority_mix="urgent")
    with pytest.raises(ValueError, match="unlimited_share must be within"):
        Workload(unlimited_share=1.5)
    assert np.isclose(Workload(match_share=0.0).ops_per_put(), 2.0)
