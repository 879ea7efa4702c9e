"""Synthetic MQ traces: realistic traffic, deterministic from a seed, generated inside Spark.

Every queue gets a :class:`Workload`: producers putting as a Poisson process, steady or in bursts;
a consumer that takes the messages one at a time (a single server: it waits for a message, spends
an exponential service time on it, then issues the next MQGET), stopped by outages and slowed
down now and then, so backlogs build up and drain; a mix of unlimited and finite expiries whose
TTLs follow a log-normal law; a priority mix; expiration reports asked for on a share of the
finite-expiry messages; some gets that ask for one MsgId (request-reply style); a monitor that
browses the queue now and then.

A queue is the unit of generation: its operations come from a numpy generator seeded by
``(seed, queue index)``, so the trace depends on the seed only, never on how Spark splits the
work, and a 100M-operation trace never passes through the driver (``generate_frame`` expands one
Spark row per queue with ``mapInArrow``). ``generate_local`` runs the same code in this process.

``seq`` orders the whole trace by time: ``(time_ms * queue count + queue index) * 1024 + rank``,
``rank`` being the operation's place among its queue's operations in the same millisecond.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from mqlearn.mqi import cmqc as C
from mqlearn.pipeline.schema import OPS, QUEUE_COLUMNS, TRACE_COLUMNS
from mqlearn.pipeline.spark import arrow_schema, arrow_to_pandas, spark_ddl

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

MS_PER_S = 1000
MS_PER_H = 3_600_000
RANK_SLOTS = 1024  # operations one queue may have in one millisecond
MAX_QUEUE_EVENTS = 10_000_000  # one queue is generated in one task: keep it in memory
FILE_ROWS = 500_000  # about this many rows a task (and a Parquet file, whole queues in each)

# Shares of the choices a generator draws (values are CMQC's).
PRIORITY_MIXES: dict[str, dict[int, float]] = {
    "default": {C.MQPRI_PRIORITY_AS_Q_DEF: 1.0},
    "two-level": {0: 0.85, 9: 0.15},
    "spread": dict.fromkeys(range(10), 0.1),
    "mostly-low": {0: 0.5, 1: 0.2, 2: 0.1, 4: 0.1, 5: 0.05, 8: 0.05},
}
REPORT_MIX = {
    C.MQRO_EXPIRATION: 0.6,
    C.MQRO_EXPIRATION_WITH_DATA: 0.3,
    C.MQRO_EXPIRATION_WITH_FULL_DATA: 0.1,
}
PERSISTENT_SHARE = 0.3
MEDIAN_DATA_LENGTH = 1024
MAX_DATA_LENGTH = 4 * 1024 * 1024
MAX_EXPIRY = 999_999_999

PRODUCER_HANDLES = 4  # producers use handles 1..4
CONSUMER_HANDLES = 3  # consumers use handles 101..103
CONSUMER_HANDLE_BASE = 101
MONITOR_HANDLE = 900  # the browsing monitor
MEAN_BROWSE_NEXTS = 3
OP_PUT, OP_GET, OP_BROWSE_FIRST, OP_BROWSE_NEXT = (
    OPS.index(op) for op in ("PUT", "GET", "BROWSE_FIRST", "BROWSE_NEXT")
)


@dataclass(frozen=True)
class Workload:
    """One queue's traffic. Rates are per second of virtual time, lengths in seconds."""

    rate_per_s: float = 5.0
    """Producers' long-run mean put rate (bursts included)."""
    bursty: bool = False
    burst_every_s: float = 900.0
    burst_length_s: float = 60.0
    burst_factor: float = 8.0
    """Put rate inside a burst, relative to the rate outside."""
    consumer_ratio: float = 1.25
    """The consumer's capacity relative to ``rate_per_s`` (never below ``min_capacity_per_s``)."""
    min_capacity_per_s: float = 20.0
    """A consumer takes at most 50 ms per message, however quiet its queue."""
    outages_per_h: float = 0.5
    outage_mean_s: float = 180.0
    """Mean length of a consumer outage (exponential): no gets at all."""
    slowdowns_per_h: float = 1.0
    slowdown_mean_s: float = 300.0
    slowdown_factor: float = 0.3
    """The consumer's speed during a slowdown, relative to its normal speed."""
    unlimited_share: float = 0.5
    """Share of puts with Expiry MQEI_UNLIMITED; the others get a log-normal TTL."""
    ttl_median_s: float = 30.0
    ttl_sigma: float = 1.0
    priority_mix: str = "default"
    report_share: float = 0.1
    """Share of finite-expiry puts asking for an expiration report (REPORT_MIX)."""
    match_share: float = 0.02
    """Extra gets, per put, that ask for the MsgId of a message put earlier."""
    puts_per_sweep: float = 0.0
    """Mean number of puts between two sweeps of a browsing monitor (BROWSE_FIRST, then
    BROWSE_NEXTs); 0 = no monitor."""
    long_outage_at_s: float = 0.0
    long_outage_s: float = 0.0
    """One long stop of the consumer (0 = none), from ``long_outage_at_s`` for ``long_outage_s``
    seconds: the producers go on, so a deep backlog builds up for hours."""
    catch_up_factor: float = 3.0
    """After the long stop, the consumer works this many times faster for as long as it was
    stopped (more instances started: a burst of gets that drains the backlog)."""

    def __post_init__(self) -> None:
        if self.priority_mix not in PRIORITY_MIXES:
            raise ValueError(
                f"priority_mix {self.priority_mix!r} is not one of {', '.join(PRIORITY_MIXES)}"
            )
        positive = ("rate_per_s", "consumer_ratio", "min_capacity_per_s", "ttl_median_s")
        for name in (*positive, "burst_every_s", "burst_length_s", "burst_factor"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be > 0, got {getattr(self, name)}")
        if not self.catch_up_factor > 0:
            raise ValueError(f"catch_up_factor must be > 0, got {self.catch_up_factor}")
        for name in (
            "outages_per_h",
            "outage_mean_s",
            "slowdowns_per_h",
            "slowdown_mean_s",
            "long_outage_at_s",
            "long_outage_s",
        ):
            if not getattr(self, name) >= 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)}")
        for name in ("unlimited_share", "report_share", "match_share", "slowdown_factor"):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"{name} must be within [0, 1], got {getattr(self, name)}")
        if self.ttl_sigma < 0 or self.puts_per_sweep < 0:
            raise ValueError("ttl_sigma and puts_per_sweep must be >= 0")

    def ops_per_put(self) -> float:
        """Expected operations per put (the put, its get, matching gets, browses): sizes traces."""
        browses = (1 + MEAN_BROWSE_NEXTS) / self.puts_per_sweep if self.puts_per_sweep else 0.0
        return 2 + self.match_share + browses


# Queue families: (share of the queues, workload). The family names the queue: APP.<FAMILY>.nnnn.
FAMILIES: dict[str, tuple[float, Workload]] = {
    "REQUEST": (
        0.35,
        Workload(
            unlimited_share=0.1,
            ttl_median_s=10,
            ttl_sigma=0.7,
            report_share=0.3,
            priority_mix="two-level",
            match_share=0.05,
        ),
    ),
    "EVENT": (
        0.3,
        Workload(unlimited_share=0.3, ttl_median_s=300, ttl_sigma=1.0, report_share=0.05),
    ),
    "NOTIFY": (
        0.2,
        Workload(
            unlimited_share=0.0,
            ttl_median_s=60,
            ttl_sigma=1.2,
            priority_mix="spread",
            puts_per_sweep=200,
        ),
    ),
    "BATCH": (
        0.15,
        Workload(
            unlimited_share=0.8,
            ttl_median_s=3600,
            ttl_sigma=0.5,
            report_share=0.0,
            priority_mix="mostly-low",
            outage_mean_s=900,
        ),
    ),
}
REPLY_QUEUES_PER_QMGR = 4


@dataclass(frozen=True)
class TraceSpec:
    """What to generate. ``events`` is the expected number of operations (Poisson: about)."""

    seed: int = 0
    events: int = 100_000
    queues: int = 20
    qmgrs: int = 2
    hours: float = 6.0
    bursty_share: float = 0.3
    """Share of queues whose producers put in bursts."""
    outage_share: float = 0.0
    """Share of queues whose consumer stops once for a quarter of the span, starting within its
    first half, then catches up in a burst (``Workload.long_outage_s``): deep backlogs."""

    def __post_init__(self) -> None:
        for name in ("events", "queues", "qmgrs"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        if not self.hours > 0:
            raise ValueError(f"hours must be > 0, got {self.hours}")
        if self.qmgrs > self.queues:
            raise ValueError(f"qmgrs ({self.qmgrs}) cannot exceed queues ({self.queues})")
        for name in ("bursty_share", "outage_share"):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"{name} must be within [0, 1], got {getattr(self, name)}")
        if self.seed < 0:
            raise ValueError(f"seed must be >= 0, got {self.seed}")

    @property
    def duration_ms(self) -> int:
        return int(self.hours * MS_PER_H)


@dataclass(frozen=True)
class QueuePlan:
    """One generated queue: where it lives, its definition and its workload."""

    index: int
    qmgr: str
    queue: str
    reply_to_q: str
    definition: dict[str, Any]
    workload: Workload


# ---------------------------------------------------------------------------------------------
# Planning (driver side, small): queues, their definitions and workloads.
# ---------------------------------------------------------------------------------------------


def qmgr_name(k: int) -> str:
    return f"QM{k + 1:02d}"


def _qmgr_settings(rng: np.random.Generator) -> dict[str, Any]:
    """Profile and background expiry interval: queue-manager attributes, shared by its queues."""
    profile = str(rng.choice(["distributed", "zos", "ibmi"], p=[0.8, 0.15, 0.05]))
    if profile == "zos":  # EXPRYINT: off by default
        interval = int(rng.choice([0, 60], p=[0.5, 0.5]))
    else:  # distributed, ibmi: the expiry task, 300 s by default, sometimes tuned or off (EXP-28)
        interval = int(rng.choice([300, 0, 60], p=[0.8, 0.1, 0.1]))
    return {"profile": profile, "expiry_interval_s": interval}


def _definition(rng: np.random.Generator, qmgr: dict[str, Any]) -> dict[str, Any]:
    """A queue definition as real estates have them: mostly MQ defaults, some tuned queues."""
    return {
        "msgdlvsq": str(rng.choice(["PRIORITY", "FIFO"], p=[0.7, 0.3])),
        "defprty": int(rng.choice([0, 5], p=[0.9, 0.1])),
        "maxdepth": int(rng.choice([5000, 50_000, 100_000], p=[0.6, 0.3, 0.1])),
        "capexpry": int(rng.choice([-1, 600, 36_000], p=[0.9, 0.05, 0.05])),
        **qmgr,
    }


def plan_queues(spec: TraceSpec) -> list[QueuePlan]:
    """The application queues of a trace, with definitions and workloads drawn from the seed.

    Traffic is spread over the queues by log-normal weights: a few hot queues, a long tail.
    """
    rng = np.random.default_rng([spec.seed, spec.queues, spec.qmgrs])
    qmgrs = [_qmgr_settings(rng) for _ in range(spec.qmgrs)]
    names = list(FAMILIES)
    family_of = rng.choice(len(names), size=spec.queues, p=[FAMILIES[n][0] for n in names])
    every = min(spec.queues, len(names))  # each family at least once when there is room
    family_of[:every] = rng.permutation(len(names))[:every]
    weights = rng.lognormal(0.0, 1.0, size=spec.queues)
    bursty = rng.random(spec.queues) < spec.bursty_share
    # long outages draw from a stream of their own: a trace without them stays as it was
    other = np.random.default_rng([spec.seed, spec.queues, spec.qmgrs, 1])
    stopped = other.random(spec.queues) < spec.outage_share
    span_s = spec.hours * 3600
    stop_at = other.random(spec.queues) * span_s / 2
    plans = []
    for index in range(spec.queues):
        family = names[family_of[index]]
        base = FAMILIES[family][1]
        events = spec.events * weights[index] / weights.sum()
        if events > MAX_QUEUE_EVENTS:
            raise ValueError(
                f"{spec.events} events over {spec.queues} queues puts about {events:.0f} on one "
                f"queue, more than {MAX_QUEUE_EVENTS} (one task holds a queue): add queues"
            )
        rate = events / (spec.hours * 3600 * base.ops_per_put())
        plans.append(
            QueuePlan(
                index=index,
                qmgr=qmgr_name(index % spec.qmgrs),
                queue=f"APP.{family}.{index + 1:04d}",
                reply_to_q=f"APP.REPLY.{index % REPLY_QUEUES_PER_QMGR + 1:02d}",
                definition=_definition(rng, qmgrs[index % spec.qmgrs]),
                workload=replace(
                    base,
                    bursty=bool(bursty[index]),
                    rate_per_s=float(rate),
                    long_outage_at_s=float(stop_at[index]) if stopped[index] else 0.0,
                    long_outage_s=span_s / 4 if stopped[index] else 0.0,
                ),
            )
        )
    return plans


def queue_definitions(spec: TraceSpec) -> pd.DataFrame:
    """The queue-definitions table: every application queue and the reply queues."""
    plans = plan_queues(spec)
    rows = [{"qmgr": p.qmgr, "queue": p.queue, **p.definition} for p in plans]
    for plan in plans[: spec.qmgrs]:  # queue k lives on queue manager k % qmgrs
        settings = {key: plan.definition[key] for key in ("profile", "expiry_interval_s")}
        for r in range(REPLY_QUEUES_PER_QMGR):
            rows.append(
                {
                    "qmgr": plan.qmgr,
                    "queue": f"APP.REPLY.{r + 1:02d}",
                    "msgdlvsq": "FIFO",
                    "defprty": 0,
                    "maxdepth": 100_000,
                    "capexpry": -1,
                    **settings,
                }
            )
    return pd.DataFrame(rows, columns=list(QUEUE_COLUMNS)).astype(QUEUE_COLUMNS)


# ---------------------------------------------------------------------------------------------
# One queue's operations (executor side).
# ---------------------------------------------------------------------------------------------


def _intervals(rng: np.random.Generator, per_h: float, mean_s: float, end_ms: int) -> np.ndarray:
    """Poisson-started intervals of exponential length, as an ``(n, 2)`` array of ms."""
    count = rng.poisson(per_h * end_ms / MS_PER_H)
    starts = np.sort(rng.random(count) * end_ms)
    return np.column_stack([starts, starts + rng.exponential(mean_s * MS_PER_S, size=count)])


def _piecewise(
    end: float, base: float, modifiers: Sequence[tuple[np.ndarray, float]]
) -> tuple[np.ndarray, np.ndarray]:
    """Edges and per-piece values on ``[0, end)``: ``base`` times the factor of every interval
    set (``(n, 2)`` arrays) that covers a piece."""
    cuts = [np.array([0.0, end])] + [intervals.ravel() for intervals, _ in modifiers]
    edges = np.unique(np.clip(np.concatenate(cuts), 0.0, end))
    mids = (edges[:-1] + edges[1:]) / 2
    values = np.full(len(mids), base)
    for intervals, factor in modifiers:
        covered = ((intervals[:, :1] <= mids) & (mids < intervals[:, 1:])).any(axis=0)
        values[covered] *= factor
    return edges, values


def _poisson_times(rng: np.random.Generator, edges: np.ndarray, rates: np.ndarray) -> np.ndarray:
    """Sorted arrival times (ms) of a Poisson process with a piecewise-constant rate (per ms)."""
    lengths = np.diff(edges)
    counts = rng.poisson(rates * lengths)
    offsets = rng.random(counts.sum())
    return np.sort(np.repeat(edges[:-1], counts) + offsets * np.repeat(lengths, counts))


def _consumer_times(
    rng: np.random.Generator,
    arrivals: np.ndarray,
    edges: np.ndarray,
    speed: np.ndarray,
    mean_ms: float,
) -> np.ndarray:
    """When a single consumer finishes each message (``np.inf`` if not before the end).

    Time is measured in the consumer's own working time ``W(t)`` (the integral of its speed: flat
    during an outage). There, departures follow the single-server recursion
    ``d[i] = max(a[i], d[i-1]) + s[i]``, solved in closed form as
    ``d = S + running max(a - S_before)`` with ``S`` the running sum of service times.
    """
    work = np.concatenate([[0.0], np.cumsum(speed * np.diff(edges))])
    piece = np.clip(np.searchsorted(edges, arrivals, side="right") - 1, 0, len(speed) - 1)
    a = work[piece] + (arrivals - edges[piece]) * speed[piece]
    service = np.cumsum(rng.exponential(mean_ms, size=len(arrivals)))
    done = service + np.maximum.accumulate(a - np.concatenate([[0.0], service[:-1]]))
    # back to virtual time: the first edge whose working time reaches ``done``, then inside it
    k = np.searchsorted(work, done, side="left")
    inside = k < len(work)
    k = np.clip(k, 1, len(work) - 1)
    times = edges[k - 1] + (done - work[k - 1]) / np.where(speed[k - 1] > 0, speed[k - 1], 1.0)
    return np.where(inside, times, np.inf)


def _browse_sweeps(
    rng: np.random.Generator, w: Workload, end: float
) -> tuple[np.ndarray, np.ndarray]:
    """A monitor's sweeps: BROWSE_FIRST, then a geometric number of BROWSE_NEXTs 1 ms apart.
    Returns their times and op codes (indexes into OPS)."""
    if not w.puts_per_sweep:
        return np.empty(0), np.empty(0, dtype=np.int64)
    rate = np.array([w.rate_per_s / MS_PER_S / w.puts_per_sweep])
    firsts = _poisson_times(rng, np.array([0.0, end]), rate)
    sizes = rng.geometric(1 / (1 + MEAN_BROWSE_NEXTS), size=len(firsts))  # the first + nexts
    step = np.arange(sizes.sum()) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    times = np.repeat(firsts, sizes) + step
    ops = np.where(step == 0, OP_BROWSE_FIRST, OP_BROWSE_NEXT)
    inside = times < end
    return times[inside], ops[inside]


def _pick(rng: np.random.Generator, mix: dict[int, float], size: int) -> np.ndarray:
    values = np.fromiter(mix, dtype=np.int64)
    shares = np.fromiter(mix.values(), dtype=float)
    return rng.choice(values, size=size, p=shares / shares.sum())


def _put_columns(rng: np.random.Generator, w: Workload, n: int) -> dict[str, np.ndarray]:
    """The descriptor of each put: priority, expiry, report, persistence, data length."""
    unlimited = rng.random(n) < w.unlimited_share
    ttl_tenths = np.rint(rng.lognormal(np.log(w.ttl_median_s * 10), w.ttl_sigma, size=n))
    expiry = np.where(unlimited, C.MQEI_UNLIMITED, np.clip(ttl_tenths, 1, MAX_EXPIRY))
    wants_report = ~unlimited & (rng.random(n) < w.report_share)
    report = np.where(wants_report, _pick(rng, REPORT_MIX, n), C.MQRO_NONE)
    persistent = rng.random(n) < PERSISTENT_SHARE
    length = rng.lognormal(np.log(MEDIAN_DATA_LENGTH), 1.0, size=n)
    return {
        "handle": rng.integers(1, PRODUCER_HANDLES + 1, size=n),
        "priority": _pick(rng, PRIORITY_MIXES[w.priority_mix], n),
        "expiry": expiry.astype(np.int64),
        "report": report,
        "reply": wants_report.astype(np.int64),
        "persistence": np.where(persistent, C.MQPER_PERSISTENT, C.MQPER_NOT_PERSISTENT),
        "data_length": np.clip(np.rint(length), 0, MAX_DATA_LENGTH).astype(np.int64),
    }


def _seq(time_ms: np.ndarray, queue_index: int, queue_count: int) -> np.ndarray:
    """Trace-wide order: time, then queue, then rank within the queue's millisecond."""
    starts = np.flatnonzero(np.concatenate([[True], time_ms[1:] != time_ms[:-1]]))
    rank = np.arange(len(time_ms)) - np.repeat(starts, np.diff(np.append(starts, len(time_ms))))
    if len(rank) and rank.max() >= RANK_SLOTS:
        raise ValueError(
            f"more than {RANK_SLOTS} operations in one millisecond on one queue: "
            "lower events or raise hours"
        )
    return (time_ms * queue_count + queue_index) * RANK_SLOTS + rank


_HEX_DIGITS = np.frombuffer(b"0123456789abcdef", dtype=np.uint8)


def msg_ids(qmgr: str, counters: np.ndarray) -> pa.StringArray:
    """MsgIds as the engine makes them (``AMQ `` + qmgr name padded to 12 + an 8-byte counter), as
    48 lower-case hex digits, built as one Arrow buffer."""
    n = len(counters)
    prefix = np.frombuffer((b"AMQ " + qmgr.encode("ascii").ljust(12)[:12]).hex().encode(), np.uint8)
    raw = counters.astype(">u8").view(np.uint8).reshape(n, 8)
    digits = np.empty((n, 48), dtype=np.uint8)
    digits[:, : len(prefix)] = prefix
    digits[:, len(prefix) :: 2] = _HEX_DIGITS[raw >> 4]
    digits[:, len(prefix) + 1 :: 2] = _HEX_DIGITS[raw & 0x0F]
    offsets = np.arange(n + 1, dtype=np.int32) * 48
    return pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(digits))


def queue_ops(seed: int, plan: QueuePlan, duration_ms: int, queue_count: int) -> pa.Table:
    """Every operation on one queue, sorted by seq, as an Arrow table of TRACE_COLUMNS."""
    rng = np.random.default_rng([seed, plan.index])
    w = plan.workload
    end = float(duration_ms)
    on_h = 3600 / (w.burst_every_s + w.burst_length_s) if w.bursty else 0.0
    bursts = _intervals(rng, on_h, w.burst_length_s, duration_ms)
    outages = _intervals(rng, w.outages_per_h, w.outage_mean_s, duration_ms)
    slowdowns = _intervals(rng, w.slowdowns_per_h, w.slowdown_mean_s, duration_ms)

    burst_share = w.burst_length_s / (w.burst_every_s + w.burst_length_s) if w.bursty else 0.0
    base_rate = w.rate_per_s / MS_PER_S / (1 + (w.burst_factor - 1) * burst_share)
    put_times = _poisson_times(rng, *_piecewise(end, base_rate, [(bursts, w.burst_factor)]))
    stop = np.array([[w.long_outage_at_s, w.long_outage_at_s + w.long_outage_s]]) * MS_PER_S
    stop = stop if w.long_outage_s else np.empty((0, 2))
    catch_up = stop + w.long_outage_s * MS_PER_S  # as long as the stop, right after it
    speed = _piecewise(
        end,
        1.0,
        [
            (outages, 0.0),
            (slowdowns, w.slowdown_factor),
            (stop, 0.0),
            (catch_up, w.catch_up_factor),
        ],
    )
    capacity = max(w.consumer_ratio * w.rate_per_s, w.min_capacity_per_s)
    got_times = _consumer_times(rng, put_times, *speed, MS_PER_S / capacity)
    got_times = got_times[got_times < end]
    match_times = np.sort(rng.random(rng.poisson(w.match_share * len(put_times))) * end)
    # a matching get asks for the MsgId of a put made before it (request-reply style)
    earlier = np.searchsorted(put_times, match_times, side="left")
    match_times = match_times[earlier > 0]
    matched_put = np.floor(rng.random(len(match_times)) * earlier[earlier > 0]).astype(np.int64)
    browse_times, browse_ops = _browse_sweeps(rng, w, end)
    puts = _put_columns(rng, w, len(put_times))

    n_put, n_get, n_match = len(put_times), len(got_times), len(match_times)
    times = np.concatenate([put_times, got_times, match_times, browse_times])
    order = np.argsort(times, kind="stable")
    time_ms = np.floor(times[order]).astype(np.int64)
    op = np.concatenate([np.full(n_put, OP_PUT), np.full(n_get + n_match, OP_GET), browse_ops])
    op = op[order]
    consumers = CONSUMER_HANDLE_BASE + rng.integers(0, CONSUMER_HANDLES, size=n_get + n_match)
    handle = np.concatenate([puts["handle"], consumers, np.full(len(browse_ops), MONITOR_HANDLE)])
    # the put a row makes (PUT) or asks for by MsgId (matching GET), -1 for none
    put_row = np.concatenate(
        [np.arange(n_put), np.full(n_get, -1), matched_put, np.full(len(browse_ops), -1)]
    )[order]
    seq = _seq(time_ms, plan.index, queue_count)
    is_put = op == OP_PUT
    put_seq = np.empty(n_put, dtype=np.int64)
    put_seq[put_row[is_put]] = seq[is_put]  # a MsgId counts on its put's seq: unique in the trace
    ids = msg_ids(plan.qmgr, put_seq).take(pa.array(put_row, mask=put_row < 0))

    def on_puts(name: str, other: int) -> np.ndarray:
        column = np.full(len(op), other, dtype=np.int64)
        column[is_put] = puts[name][put_row[is_put]]
        return column

    reply = pa.array(on_puts("reply", 0).astype(bool))
    columns = {
        "seq": seq,
        "time_ms": time_ms,
        "qmgr": pa.repeat(plan.qmgr, len(op)),
        "queue": pa.repeat(plan.queue, len(op)),
        "op": pa.array(OPS).take(pa.array(op)),
        "handle": handle[order],
        "msg_id": ids,
        "correl_id": pa.nulls(len(op), pa.string()),
        "match_options": np.where(~is_put & (put_row >= 0), C.MQMO_MATCH_MSG_ID, C.MQMO_NONE),
        "priority": on_puts("priority", C.MQPRI_PRIORITY_AS_Q_DEF),
        "expiry": on_puts("expiry", C.MQEI_UNLIMITED),
        "report": on_puts("report", C.MQRO_NONE),
        "reply_to_q": pc.if_else(reply, plan.reply_to_q, ""),
        "reply_to_qmgr": pc.if_else(reply, plan.qmgr, ""),
        "persistence": on_puts("persistence", C.MQPER_NOT_PERSISTENT),
        "data_length": on_puts("data_length", 0),
    }
    schema = arrow_schema(TRACE_COLUMNS)
    return pa.table([pa.array(columns[f.name], type=f.type) for f in schema], schema=schema)


# ---------------------------------------------------------------------------------------------
# Running it: in this process, or as Spark tasks.
# ---------------------------------------------------------------------------------------------


def _queue_tables(spec: TraceSpec, indexes: Sequence[int]) -> Iterator[pa.Table]:
    plans = plan_queues(spec)
    for index in indexes:
        yield queue_ops(spec.seed, plans[index], spec.duration_ms, spec.queues)


def generate_local(spec: TraceSpec) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The trace (sorted by seq) and the queue definitions, generated in this process."""
    table = pa.concat_tables(_queue_tables(spec, range(spec.queues)))
    table = table.take(pc.sort_indices(table, [("seq", "ascending")]))
    return arrow_to_pandas(table, TRACE_COLUMNS), queue_definitions(spec)


def generate_frame(spark: SparkSession, spec: TraceSpec) -> DataFrame:
    """The trace as a Spark DataFrame: one Spark row per queue, expanded by ``mapInArrow``;
    each task makes whole queues, about FILE_ROWS rows, so each file written holds whole queues
    (the replay then reads files in its tasks, without a shuffle)."""
    plan_queues(spec)  # bad specs fail here, on the driver
    wanted = max(4 * spark.sparkContext.defaultParallelism, math.ceil(spec.events / FILE_ROWS))
    slices = min(spec.queues, wanted)

    def expand(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            for table in _queue_tables(spec, batch.column("id").to_pylist()):
                yield from table.to_batches()

    return spark.range(spec.queues, numPartitions=slices).mapInArrow(
        expand, spark_ddl(TRACE_COLUMNS)
    )


@dataclass(frozen=True)
class GeneratedTrace:
    """Where ``generate`` wrote the trace and queue definitions, and the trace's row count."""

    trace: Path
    queues: Path
    rows: int


def generate(spark: SparkSession, spec: TraceSpec, out: str | Path) -> GeneratedTrace:
    """Write ``out/trace`` and ``out/queues`` (Parquet directories) for ``spec``, replacing them."""
    out = Path(out)
    trace_path, queues_path = out / "trace", out / "queues"
    generate_frame(spark, spec).write.mode("overwrite").parquet(str(trace_path))
    queues = spark.createDataFrame(queue_definitions(spec))
    queues.coalesce(1).write.mode("overwrite").parquet(str(queues_path))
    rows = spark.read.parquet(str(trace_path)).count()
    return GeneratedTrace(trace_path, queues_path, rows)
