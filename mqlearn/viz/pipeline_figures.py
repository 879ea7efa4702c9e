"""Figures of a replay's analytics (``mqlearn.pipeline.analytics`` frames in, plotly out).

Pure functions: each takes the pandas frame the analytics function of the same name returns and
draws it, titled, with labelled axes, in the workbook's palette (live blue, expired orange,
discarded vermillion, reports purple, got green).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from mqlearn.viz import palette
from mqlearn.viz.figures import TEMPLATE
from mqlearn.viz.plotly_setup import go
from mqlearn.viz.spec import time_axis_end

HEIGHT = 420
MS_PER_S = 1000
MS_PER_H = 3_600_000
CAUSE_COLORS = {"get": palette.VERMILLION, "browse": palette.SKY_BLUE, "scan": palette.BLACK}


def _layout(title: str, x_title: str, y_title: str, **extra: Any) -> dict[str, Any]:
    return {
        "title": {"text": title},
        "xaxis": {"title": {"text": x_title}},
        "yaxis": {"title": {"text": y_title}},
        "height": HEIGHT,
        "template": TEMPLATE,
        "margin": {"l": 60, "r": 20, "t": 60, "b": 40},
        "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.0, "x": 0},
        **extra,
    }


def _names(frame: pd.DataFrame) -> list[str]:
    return [f"{m}/{q}" for m, q in zip(frame["qmgr"], frame["queue"], strict=True)]


def expiry_by_queue(frame: pd.DataFrame, top: int = 15) -> go.Figure:
    """The ``top`` queues by expired messages: discarded and still-expired bars, the expiry
    rate in the hover text."""
    rows = frame.head(top).iloc[::-1]  # most expired on top
    names = _names(rows)
    hover = [
        f"{n}: {e} of {m} messages expired ({r:.2%})"
        for n, e, m, r in zip(
            names, rows["expired"], rows["messages"], rows["expiry_rate"], strict=True
        )
    ]
    bars = [
        ("discarded", rows["discarded"], palette.VERMILLION, "discarded"),
        ("expired", rows["expired_left"], palette.ORANGE, "expired, still on the queue at the end"),
    ]
    traces = [
        go.Bar(
            y=names,
            x=values,
            orientation="h",
            name=label,
            marker={"color": color},
            hovertext=hover,
            hoverinfo="text",
        )
        for _, values, color, label in bars
    ]
    return go.Figure(
        traces,
        _layout(
            f"Expired messages per queue (top {len(rows)})",
            "expired messages",
            "queue",
            barmode="stack",
        ),
    )


def expiry_by_hour(frame: pd.DataFrame) -> go.Figure:
    """Messages put per hour (bars) and the share of them that expired (line, right axis)."""
    traces = [
        go.Bar(
            x=frame["hour"],
            y=frame["messages"],
            name="messages put",
            marker={"color": palette.BLUE},
        ),
        go.Scatter(
            x=frame["hour"],
            y=frame["expiry_rate"] * 100,
            name="expired (% of those put)",
            mode="lines+markers",
            marker={"color": palette.ORANGE, "symbol": palette.style("expired").symbol, "size": 9},
            yaxis="y2",
        ),
    ]
    layout = _layout("Expiry rate per hour of put time", "hour of the trace", "messages put")
    layout["yaxis2"] = {
        "title": {"text": "expired (%)"},
        "overlaying": "y",
        "side": "right",
        "rangemode": "tozero",
    }
    return go.Figure(traces, layout)


def expiry_heatmap(frame: pd.DataFrame, top: int = 15) -> go.Figure:
    """Expiry rate per queue and hour (``expiry_by_hour(..., by_queue=True)``), for the ``top``
    queues with the most expired messages."""
    totals = frame.groupby(["qmgr", "queue"], sort=False)["expired"].sum()
    chosen = totals.sort_values(ascending=False, kind="mergesort").head(top).index
    rows = frame.set_index(["qmgr", "queue"]).loc[list(chosen)].reset_index()
    grid = rows.pivot_table(
        index=["qmgr", "queue"], columns="hour", values="expiry_rate", sort=False
    ).reindex(list(chosen))
    names = [f"{m}/{q}" for m, q in grid.index]
    heat = go.Heatmap(
        z=grid.to_numpy() * 100,
        x=list(grid.columns),
        y=names,
        colorscale=[[0, "white"], [1, palette.VERMILLION]],
        colorbar={"title": {"text": "expired (%)"}},
        hovertemplate="%{y}, hour %{x}: %{z:.1f}% expired<extra></extra>",
    )
    return go.Figure(
        [heat],
        _layout(f"Expiry rate per queue and hour (top {len(names)})", "hour of put time", "queue"),
    )


def zombie_histogram(frame: pd.DataFrame) -> go.Figure:
    """Discarded messages per zombie-time bin (deadline to discard), one bar colour per cause."""
    labels = {
        low: _bin_label(low, high)
        for low, high in zip(frame["low_ms"], frame["high_ms"], strict=True)
    }
    order = [labels[low] for low in sorted(labels)]
    traces = []
    for cause, color in CAUSE_COLORS.items():
        rows = frame[frame["discard_cause"] == cause]
        if len(rows):
            traces.append(
                go.Bar(
                    x=[labels[low] for low in rows["low_ms"]],
                    y=rows["discarded"],
                    name=f"discarded by a {cause}",
                    marker={"color": color},
                )
            )
    layout = _layout(
        "Zombie time: from deadline to discard",
        "time an expired message stayed on its queue",
        "discarded messages",
        barmode="stack",
    )
    layout["xaxis"] |= {"categoryorder": "array", "categoryarray": order}
    return go.Figure(traces, layout)


def _duration(ms: int) -> str:
    for unit, size in (("h", MS_PER_H), ("min", 60_000), ("s", MS_PER_S)):
        if ms >= size:
            return f"{ms / size:.3g} {unit}"
    return f"{ms} ms"


def _bin_label(low: int, high: Any) -> str:
    if pd.isna(high):
        return f"≥ {_duration(int(low))}"
    return f"{_duration(int(low))} – {_duration(int(high))}"


def depth_inflation(frame: pd.DataFrame, top: int = 15) -> go.Figure:
    """Time-weighted mean depth of the ``top`` most inflated queues, split live / expired
    (rule EXP-25: expired messages count in the depth until they are discarded)."""
    rows = frame.head(top).iloc[::-1]
    names = _names(rows)
    traces = [
        go.Bar(
            y=names,
            x=rows[column],
            orientation="h",
            name=palette.style(state).label,
            marker={"color": palette.style(state).color},
        )
        for column, state in (("mean_live", "live"), ("mean_expired", "expired"))
    ]
    return go.Figure(
        traces,
        _layout(
            "Depth inflation: mean depth made of expired messages",
            "mean depth (time-weighted)",
            "queue",
            barmode="stack",
        ),
    )


def depth_series(frame: pd.DataFrame, title: str) -> go.Figure:
    """One queue's depth over time, live and expired stacked (``analytics.depth_series``).

    The time axis runs past the last row (8 % of the span, at least a second) and the last
    depth is drawn on to its end, so a change at the last time is not hidden on the edge."""
    times = frame["time_ms"].to_numpy(dtype=float)
    last = slice(-1, None)  # the last row again, at the axis end (none in an empty frame)
    end = time_axis_end(times[0], times[-1]) if len(times) else None
    hours = np.append(times, [end] if end is not None else []) / MS_PER_H
    traces = []
    for column, state in (("live", "live"), ("expired", "expired")):
        values = frame[column].to_numpy(dtype=float)
        traces.append(
            go.Scatter(
                x=hours,
                y=np.append(values, values[last]),
                name=palette.style(state).label,
                mode="lines",
                line={"shape": "hv", "color": palette.style(state).color, "width": 1},
                stackgroup="depth",
            )
        )
    layout = _layout(title, "time (hours)", "messages on the queue")
    if len(hours):
        layout["xaxis"]["range"] = [hours[0], hours[-1]]
    return go.Figure(traces, layout)


def report_volume(frame: pd.DataFrame) -> go.Figure:
    """Expiration reports per reply queue."""
    names = [f"{m}/{q}" for m, q in zip(frame["report_qmgr"], frame["report_q"], strict=True)]
    bar = go.Bar(
        x=names,
        y=frame["reports"],
        name=palette.style("report").label,
        marker={"color": palette.style("report").color},
        hovertext=[
            f"{n}: from {k} queue(s)" for n, k in zip(names, frame["from_queues"], strict=True)
        ],
    )
    return go.Figure([bar], _layout("Expiration reports per reply queue", "reply queue", "reports"))


def top_offenders(frame: pd.DataFrame) -> go.Figure:
    """The top offending queues as a table."""
    header = [
        "queue",
        "messages",
        "expired",
        "expiry rate",
        "reports",
        "p90 zombie",
        "expired share",
    ]
    zombie = ["" if pd.isna(ms) else _duration(int(ms)) for ms in frame["p90_zombie_ms"]]
    cells = [
        _names(frame),
        frame["messages"].tolist(),
        frame["expired"].tolist(),
        [f"{r:.2%}" for r in frame["expiry_rate"]],
        frame["reports"].tolist(),
        zombie,
        [f"{s:.0%}" for s in np.nan_to_num(frame["expired_share"].to_numpy(dtype=float))],
    ]
    table = go.Table(
        header={"values": header, "fill": {"color": palette.tint(palette.ORANGE)}},
        cells={"values": cells},
    )
    return go.Figure(
        [table],
        {
            "title": {"text": "Top offending queues (most expired messages)"},
            "template": TEMPLATE,
            "height": HEIGHT,
            "margin": {"l": 20, "r": 20, "t": 60, "b": 20},
        },
    )
