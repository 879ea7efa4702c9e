"""What a replay says about expiry: Spark aggregations of the output tables, small pandas results.

Every function takes the replay's tables as Spark DataFrames (``load(spark, out)``) and returns a
pandas DataFrame small enough to print or plot (one row per queue, hour, bin or reply queue), so
they work the same on a thousand-row replay and on a 100M-event one.

- ``expiry_by_queue`` and ``expiry_by_hour``: how many messages expired (discarded, or still on
  the queue past their deadline at the end of the trace) out of those put (rules EXP-20, EXP-21).
- ``zombie_times`` / ``zombie_histogram``: "zombie time", from a message's deadline to its actual
  discard. Expiry is lazy: an expired message stays until a get, a browse or a scan meets it
  (EXP-21, EXP-28), and meanwhile it still counts in the depth (EXP-25).
- ``depth_inflation``: the time-weighted share of the depth made of expired messages.
- ``report_volume``: expiration reports per reply queue (generated at discard: RPT-02).
- ``top_offenders``: the queues with the most expired messages, with the figures above.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from mqlearn.pipeline.replay import TABLES

if TYPE_CHECKING:
    from pyspark.sql import Column, DataFrame, SparkSession

Tables = Mapping[str, "DataFrame"]

MS_PER_H = 3_600_000
QUEUE = ["qmgr", "queue"]
ZOMBIE_QUANTILES = (0.5, 0.9, 0.99)
ZOMBIE_ACCURACY = 100_000  # percentile_approx: rank error at most 1/100 000 of the count
# zombie-time bins (ms): 0, then powers of ten from 100 ms to 1e8 ms (about 28 hours) and beyond
ZOMBIE_EDGES = (0, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000)


def load(spark: SparkSession, out: str | Path) -> dict[str, DataFrame]:
    """The replay's five tables under ``out`` as Spark DataFrames."""
    return {name: spark.read.parquet(str(Path(out) / name)) for name in TABLES}


def _counts() -> list[Column]:
    from pyspark.sql import functions as F

    return [
        F.count("*").alias("messages"),
        F.sum((F.col("outcome") == "got").cast("long")).alias("got"),
        F.sum((F.col("outcome") == "discarded").cast("long")).alias("discarded"),
        F.sum((F.col("outcome") == "expired").cast("long")).alias("expired_left"),
    ]


def _with_rate(frame: pd.DataFrame) -> pd.DataFrame:
    frame["expired"] = frame["discarded"] + frame["expired_left"]
    frame["expiry_rate"] = frame["expired"] / frame["messages"]
    return frame


def expiry_by_queue(tables: Tables) -> pd.DataFrame:
    """Per queue: messages put, got, discarded, expired but left on the queue, expiry rate and
    reports, most expired first."""
    from pyspark.sql import functions as F

    messages = tables["messages"]
    frame = messages.groupBy(*QUEUE).agg(
        *_counts(), F.sum(F.col("report").cast("long")).alias("reports")
    )
    result = _with_rate(frame.toPandas())
    return result.sort_values(["expired", *QUEUE], ascending=[False, True, True], ignore_index=True)


def expiry_by_hour(tables: Tables, *, by_queue: bool = False) -> pd.DataFrame:
    """Per hour of put time (and per queue with ``by_queue``): messages put, how many of them
    expired, the expiry rate; and ``discards``, the discards that happened in that hour."""
    from pyspark.sql import functions as F

    messages = tables["messages"]
    keys = [*QUEUE, "hour"] if by_queue else ["hour"]
    put = messages.withColumn("hour", F.floor(F.col("put_ms") / MS_PER_H).cast("long"))
    by_put = put.groupBy(*keys).agg(*_counts())
    discards = (
        messages.where(F.col("outcome") == "discarded")
        .withColumn("hour", F.floor(F.col("end_ms") / MS_PER_H).cast("long"))
        .groupBy(*keys)
        .agg(F.count("*").alias("discards"))
    )
    frame = by_put.join(discards, keys, "full_outer").toPandas()
    counts = ["messages", "got", "discarded", "expired_left", "discards"]
    frame[counts] = frame[counts].fillna(0).astype("int64")
    result = _with_rate(frame)
    result["expiry_rate"] = result["expiry_rate"].fillna(0.0)  # an hour with discards, no puts
    return result.sort_values(keys, ignore_index=True)


def _zombie(messages: DataFrame) -> DataFrame:
    from pyspark.sql import functions as F

    discarded = messages.where(F.col("outcome") == "discarded")
    return discarded.select(
        *QUEUE,
        "discard_cause",
        (F.col("end_ms") - F.col("deadline_ms")).alias("zombie_ms"),
    )


def zombie_times(tables: Tables, *, by_queue: bool = False) -> pd.DataFrame:
    """Zombie time of discarded messages (deadline to discard, ms) per discard cause (get,
    browse, scan; and per queue with ``by_queue``): count, mean, quantiles, maximum."""
    from pyspark.sql import functions as F

    keys = [*QUEUE, "discard_cause"] if by_queue else ["discard_cause"]
    quantiles = F.percentile_approx("zombie_ms", list(ZOMBIE_QUANTILES), ZOMBIE_ACCURACY)
    frame = (
        _zombie(tables["messages"])
        .groupBy(*keys)
        .agg(
            F.count("*").alias("discarded"),
            F.mean("zombie_ms").alias("mean_ms"),
            quantiles.alias("q"),
            F.max("zombie_ms").alias("max_ms"),
        )
        .toPandas()
    )
    for k, q in enumerate(ZOMBIE_QUANTILES):
        frame[f"p{round(q * 100)}_ms"] = frame["q"].map(lambda values, k=k: int(values[k]))
    return frame.drop(columns="q").sort_values(keys, ignore_index=True)


def zombie_histogram(tables: Tables) -> pd.DataFrame:
    """Discarded messages per zombie-time bin (ZOMBIE_EDGES) and discard cause; ``low_ms`` is
    the bin's lower edge, ``high_ms`` its upper one (None for the last, open bin)."""
    from pyspark.sql import functions as F

    edges = list(ZOMBIE_EDGES)
    bin_of = F.lit(0)
    for k, edge in enumerate(edges[1:], start=1):
        bin_of = F.when(F.col("zombie_ms") >= edge, F.lit(k)).otherwise(bin_of)
    counts = (
        _zombie(tables["messages"])
        .groupBy(bin_of.alias("bin"), "discard_cause")
        .agg(F.count("*").alias("discarded"))
        .toPandas()
    )
    counts["low_ms"] = [edges[k] for k in counts["bin"]]
    counts["high_ms"] = pd.array(
        [edges[k + 1] if k + 1 < len(edges) else None for k in counts["bin"]], dtype="Int64"
    )
    return counts.sort_values(["bin", "discard_cause"], ignore_index=True)


def _lifetimes(tables: Tables) -> DataFrame:
    """Per message: when it was on its queue (``put_ms`` to ``until_ms``: its end, or the
    queue's last call if it is still there) and, if it expired there, from ``deadline_ms``."""
    from pyspark.sql import functions as F

    last = tables["summary"].select(*QUEUE, "last_ms")
    messages = tables["messages"].join(last, QUEUE)
    return messages.select(
        *QUEUE,
        "put_ms",
        "deadline_ms",
        F.coalesce("end_ms", "last_ms").alias("until_ms"),
    )


def depth_inflation(tables: Tables) -> pd.DataFrame:
    """Per queue, over its trace (first to last call): the mean depth, the mean number of
    expired messages in it, their share, and the peaks; most inflated first.

    Exact, from the messages: each one adds its time on the queue to the depth and its time past
    its deadline to the expired count (rule EXP-25: expired messages count in the depth until
    they are discarded). The expired peak is swept from deadlines and discards; the depth peak
    is the summary's (the depth only grows at a put, which is a call).
    """
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    lives = _lifetimes(tables)
    expired_for = F.greatest(F.col("until_ms") - F.col("deadline_ms"), F.lit(0))
    totals = lives.groupBy(*QUEUE).agg(
        F.sum(F.col("until_ms") - F.col("put_ms")).alias("depth_ms"),
        F.sum(F.coalesce(expired_for, F.lit(0))).alias("expired_ms"),
    )
    # +1 when a message passes its deadline, -1 when it leaves; at equal times the +1 first
    # (a message discarded at t was still there, expired, just before)
    expired = lives.where(F.col("deadline_ms") < F.col("until_ms"))
    steps = expired.select(*QUEUE, F.col("deadline_ms").alias("t"), F.lit(1).alias("step")).union(
        expired.select(*QUEUE, F.col("until_ms").alias("t"), F.lit(-1).alias("step"))
    )
    running = (
        Window.partitionBy(*QUEUE)
        .orderBy("t", F.desc("step"))
        .rowsBetween(Window.unboundedPreceding, Window.currentRow)
    )
    peaks = (
        steps.withColumn("expired", F.sum("step").over(running))
        .groupBy(*QUEUE)
        .agg(F.max("expired").alias("max_expired"))
    )
    summary = tables["summary"].select(
        *QUEUE, (F.col("last_ms") - F.col("first_ms")).alias("span_ms"), "max_depth"
    )
    frame = summary.join(totals, QUEUE, "left").join(peaks, QUEUE, "left").toPandas()
    frame = frame.fillna({"depth_ms": 0, "expired_ms": 0, "max_expired": 0})
    span = frame["span_ms"].where(frame["span_ms"] > 0)
    frame["mean_depth"] = (frame["depth_ms"] / span).fillna(0.0)
    frame["mean_expired"] = (frame["expired_ms"] / span).fillna(0.0)
    frame["mean_live"] = frame["mean_depth"] - frame["mean_expired"]
    in_depth = frame["depth_ms"].where(frame["depth_ms"] > 0)
    frame["expired_share"] = (frame["expired_ms"] / in_depth).fillna(0.0)
    frame["max_expired"] = frame["max_expired"].astype("int64")
    frame = frame.drop(columns=["depth_ms", "expired_ms"])
    return frame.sort_values(
        ["expired_share", *QUEUE], ascending=[False, True, True], ignore_index=True
    )


def depth_series(tables: Tables, qmgr: str, queue: str, *, points: int = 2000) -> pd.DataFrame:
    """One queue's depth over time (time_ms, depth, expired, live); past ``points`` rows, the
    row with the highest depth of each of ``points`` equal time slices."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    rows = tables["depth"].where((F.col("qmgr") == qmgr) & (F.col("queue") == queue))
    bounds = rows.agg(F.min("time_ms"), F.max("time_ms"), F.count("*")).first()
    if bounds is None or not bounds[2]:
        raise ValueError(f"no depth rows for {qmgr}/{queue}")
    first, last, count = bounds
    if count > points:
        width = max(1, -(-(last - first + 1) // points))
        slice_of = F.floor((F.col("time_ms") - first) / width)
        best = Window.partitionBy(slice_of).orderBy(F.desc("depth"), "time_ms", "seq")
        rows = rows.withColumn("_rank", F.row_number().over(best)).where("_rank = 1")
    frame = rows.select("time_ms", "seq", "source", "depth", "expired", "live").toPandas()
    return frame.sort_values(["time_ms", "seq"], ignore_index=True, na_position="first")


def report_volume(tables: Tables) -> pd.DataFrame:
    """Expiration reports per reply queue (ReplyToQMgr/ReplyToQ of the discarded messages) and
    how many queues' messages sent them, most reports first."""
    from pyspark.sql import functions as F

    reported = tables["messages"].where(F.col("report"))
    frame = (
        reported.groupBy("report_qmgr", "report_q")
        .agg(
            F.count("*").alias("reports"),
            F.countDistinct(*QUEUE).alias("from_queues"),
        )
        .toPandas()
    )
    return frame.sort_values(
        ["reports", "report_qmgr", "report_q"], ascending=[False, True, True], ignore_index=True
    )


def top_offenders(tables: Tables, n: int = 10) -> pd.DataFrame:
    """The ``n`` queues with the most expired messages, with their expiry rate, p90 zombie time
    and expired share of the depth."""
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    queues = expiry_by_queue(tables).head(n)
    queues = queues[queues["expired"] > 0]
    zombies = zombie_overall(tables)
    inflation = depth_inflation(tables)[[*QUEUE, "expired_share", "max_expired"]]
    frame = queues.merge(zombies, on=QUEUE, how="left").merge(inflation, on=QUEUE, how="left")
    columns = [*QUEUE, "messages", "expired", "expiry_rate", "reports", "p90_zombie_ms"]
    return frame[[*columns, "expired_share", "max_expired"]].reset_index(drop=True)


def zombie_overall(tables: Tables) -> pd.DataFrame:
    """Per queue, all causes together: discarded messages and their p90 zombie time (ms)."""
    from pyspark.sql import functions as F

    frame = (
        _zombie(tables["messages"])
        .groupBy(*QUEUE)
        .agg(F.percentile_approx("zombie_ms", 0.9, ZOMBIE_ACCURACY).alias("p90_zombie_ms"))
        .toPandas()
    )
    frame["p90_zombie_ms"] = frame["p90_zombie_ms"].astype(np.int64)
    return frame
