"""What-if sweeps: one simulated queue per point of a parameter grid, run as Spark tasks.

A scenario is one queue with a fixed traffic (``rate_per_s``, ``hours``, one consumer outage an
hour on average) and five knobs: the mean outage length, the TTL distribution, the priority mix,
the background expiry interval (EXP-28) and the queue's CAPEXPRY (EXP-06). Its trace comes from
the trace generator and is replayed with the engine's rules (``replay_local``); the result is one
row of expiry figures. Every scenario draws from the same seed, so two scenarios that differ in
one knob see the same arrivals: the difference in their rows is that knob's effect.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from mqlearn.pipeline.generate import PRIORITY_MIXES, QueuePlan, Workload, queue_ops
from mqlearn.pipeline.replay import replay_local
from mqlearn.pipeline.schema import QUEUE_COLUMNS, TRACE_COLUMNS
from mqlearn.pipeline.spark import arrow_to_pandas, spark_ddl

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

QMGR, QUEUE, REPLY_Q = "QM01", "SWEEP.Q", "SWEEP.REPLY"
MS_PER_H = 3_600_000

# Named TTL distributions: (median TTL in s, log-normal sigma, share of unlimited expiries)
TTL_PROFILES: dict[str, tuple[float, float, float]] = {
    "short": (5.0, 0.5, 0.0),
    "minute": (60.0, 1.0, 0.2),
    "long": (900.0, 1.0, 0.5),
}

KNOBS = ("outage_s", "ttl", "priority_mix", "expiry_interval_s", "capexpry")
RESULT_COLUMNS: dict[str, str] = {
    "scenario": "int64",
    "outage_s": "float64",
    "ttl": "string",
    "priority_mix": "string",
    "expiry_interval_s": "int64",
    "capexpry": "int64",
    "puts": "int64",
    "put_failed": "int64",
    "got": "int64",
    "discarded_get": "int64",
    "discarded_browse": "int64",
    "discarded_scan": "int64",
    "expired_left": "int64",
    "expiry_rate": "float64",
    "reports": "int64",
    "max_depth": "int64",
    "max_expired": "int64",
    "p90_zombie_ms": "float64",
}


@dataclass(frozen=True)
class SweepGrid:
    """The values of each knob (every combination is a scenario) and the fixed traffic."""

    outage_s: Sequence[float] = (0.0, 300.0, 1800.0)
    ttl: Sequence[str] = tuple(TTL_PROFILES)
    priority_mix: Sequence[str] = ("default", "two-level")
    expiry_interval_s: Sequence[int] = (0, 300)
    capexpry: Sequence[int] = (-1, 600)
    rate_per_s: float = 2.0
    hours: float = 4.0
    seed: int = 0

    def __post_init__(self) -> None:
        for knob in KNOBS:
            if not len(getattr(self, knob)):
                raise ValueError(f"{knob} needs at least one value")
        unknown = [t for t in self.ttl if t not in TTL_PROFILES]
        if unknown:
            raise ValueError(f"ttl {unknown} not among {', '.join(TTL_PROFILES)}")
        unknown = [m for m in self.priority_mix if m not in PRIORITY_MIXES]
        if unknown:
            raise ValueError(f"priority_mix {unknown} not among {', '.join(PRIORITY_MIXES)}")
        if any(v < 0 for v in self.outage_s) or any(v < 0 for v in self.expiry_interval_s):
            raise ValueError("outage_s and expiry_interval_s values must be >= 0")
        if any(v == 0 or v < -1 for v in self.capexpry):
            raise ValueError("capexpry values must be -1 (NOLIMIT) or tenths > 0")
        if not (self.rate_per_s > 0 and self.hours > 0):
            raise ValueError("rate_per_s and hours must be > 0")

    def scenarios(self) -> pd.DataFrame:
        """One row per combination of knob values, numbered from 0."""
        rows = itertools.product(*(getattr(self, knob) for knob in KNOBS))
        frame = pd.DataFrame(list(rows), columns=list(KNOBS))
        frame.insert(0, "scenario", np.arange(len(frame), dtype=np.int64))
        return frame


def _plan(grid: SweepGrid, knobs: Mapping[str, Any]) -> tuple[QueuePlan, pd.DataFrame]:
    """The scenario's queue (its workload and definition) and its definitions table."""
    median_s, sigma, unlimited = TTL_PROFILES[knobs["ttl"]]
    workload = Workload(
        rate_per_s=grid.rate_per_s,
        outages_per_h=1.0,
        outage_mean_s=float(knobs["outage_s"]),
        ttl_median_s=median_s,
        ttl_sigma=sigma,
        unlimited_share=unlimited,
        priority_mix=knobs["priority_mix"],
        report_share=0.2,
    )
    definition = {
        "qmgr": QMGR,
        "queue": QUEUE,
        "msgdlvsq": "PRIORITY",
        "defprty": 0,
        "maxdepth": 5000,
        "capexpry": int(knobs["capexpry"]),
        "profile": "distributed",
        "expiry_interval_s": int(knobs["expiry_interval_s"]),
    }
    plan = QueuePlan(0, QMGR, QUEUE, REPLY_Q, definition, workload)
    return plan, pd.DataFrame([definition]).astype(QUEUE_COLUMNS)


def _peak(values: pd.Series) -> int:
    return int(values.max()) if len(values) else 0


def run_scenario(grid: SweepGrid, knobs: Mapping[str, Any]) -> dict[str, Any]:
    """Generate and replay one scenario; its row of RESULT_COLUMNS."""
    plan, definitions = _plan(grid, knobs)
    trace = arrow_to_pandas(
        queue_ops(grid.seed, plan, int(grid.hours * MS_PER_H), 1), TRACE_COLUMNS
    )
    result = replay_local(trace, definitions)
    summary = result.summary.select_dtypes("number").sum()  # one queue (none if no call)
    messages = result.messages
    discarded = messages[messages["outcome"] == "discarded"]
    zombie = (discarded["end_ms"] - discarded["deadline_ms"]).to_numpy(dtype=np.float64)
    expired_left = int((messages["outcome"] == "expired").sum())
    expired = len(discarded) + expired_left
    return {
        **{knob: knobs[knob] for knob in ("scenario", *KNOBS)},
        "puts": int(summary["puts"]),
        "put_failed": int(summary["put_failed"]),
        "got": int((messages["outcome"] == "got").sum()),
        "discarded_get": int(summary["discarded_get"]),
        "discarded_browse": int(summary["discarded_browse"]),
        "discarded_scan": int(summary["discarded_scan"]),
        "expired_left": expired_left,
        "expiry_rate": expired / len(messages) if len(messages) else 0.0,
        "reports": int(summary["reports"]),
        "max_depth": _peak(result.summary["max_depth"]),
        "max_expired": _peak(result.depth["expired"]),
        "p90_zombie_ms": float(np.percentile(zombie, 90)) if len(zombie) else float("nan"),
    }


def sweep(spark: SparkSession, grid: SweepGrid) -> pd.DataFrame:
    """Run every scenario of ``grid`` as Spark tasks; one row per scenario, by scenario number."""
    scenarios = grid.scenarios()
    slices = min(len(scenarios), 4 * spark.sparkContext.defaultParallelism)

    def run(batches: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
        for batch in batches:
            rows = [run_scenario(grid, knobs) for knobs in batch.to_dict("records")]
            yield pd.DataFrame(rows, columns=list(RESULT_COLUMNS))

    frame = spark.createDataFrame(scenarios).repartition(slices, "scenario")
    result = frame.mapInPandas(run, spark_ddl(RESULT_COLUMNS)).toPandas()
    return result.astype(RESULT_COLUMNS).sort_values("scenario", ignore_index=True)
