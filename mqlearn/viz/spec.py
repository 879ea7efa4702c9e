"""What every figure is made of: the :class:`Spec` (plain trace and layout dicts), the template,
and the pieces the views share (time lines, marker traces in a state's style, titled layouts).

A figure function computes a spec; :func:`figure` turns it into a ``go.Figure``. A widget sends the
spec itself, serialised, to the page's plotly renderer instead (``mqlearn.viz.charts.LiveFigure``).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from mqlearn.viz import palette
from mqlearn.viz.times import MS_PER_S

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from mqlearn.engine.qmgr import QueueManager

HEIGHT = 360
HOVER = "%{text}<extra></extra>"
# A time axis runs past its last time ("now") by this share of its span, and at least by
# TIME_MARGIN_MIN_MS: a change at now is then drawn inside the plot, not on its right edge.
TIME_MARGIN_SHARE = 0.08
TIME_MARGIN_MIN_MS = 1_000
_AXIS = {"showgrid": True, "gridcolor": "#E5E5E5", "showline": True, "linecolor": "#444444"}
# A small white template: plotly's named templates are large and copied into every figure,
# which costs a widget a tenth of a second each time it is created.
TEMPLATE = {
    "layout": {
        "paper_bgcolor": "white",
        "plot_bgcolor": "white",
        "colorway": [
            palette.BLUE,
            palette.ORANGE,
            palette.BLUISH_GREEN,
            palette.VERMILLION,
            palette.REDDISH_PURPLE,
            palette.SKY_BLUE,
            palette.YELLOW,
            palette.BLACK,
        ],
        "xaxis": _AXIS,
        "yaxis": _AXIS,
        "hovermode": "closest",
    }
}


class Spec(NamedTuple):
    """A figure as plain data: plotly trace dicts (lists inside) and a layout dict."""

    traces: list[dict[str, Any]]
    layout: dict[str, Any]


def figure(spec: Spec) -> go.Figure:
    """The plotly figure of a spec."""
    from mqlearn.viz.plotly_setup import Figure  # plotly loads with the first figure drawn

    return Figure(data=spec.traces, layout=spec.layout)


# -- shared pieces ---------------------------------------------------------------------------------
# Series are plain lists, not numpy arrays: the figures are drawn where numpy is not installed too
# (the JupyterLite course, docs/teaching.md). None is a gap in a line, as plotly reads it.
Series = list[float | None]


def seconds(values: Iterable[float | None]) -> Series:
    """Virtual milliseconds as seconds (None stays None: a gap in a line)."""
    return [None if v is None else v / MS_PER_S for v in values]


def floats(values: Iterable[float]) -> list[float]:
    return [float(v) for v in values]


def texts(values: Iterable[str]) -> list[str]:
    return [str(v) for v in values]


def time_axis_end(first_ms: float, last_ms: float, minimum_ms: float = TIME_MARGIN_MIN_MS) -> float:
    """The right end of a time axis whose data runs from ``first_ms`` to ``last_ms`` (now):
    ``last_ms`` plus a margin of TIME_MARGIN_SHARE of the span, at least ``minimum_ms``, so that
    the latest change is drawn inside the plot instead of on its right edge."""
    return last_ms + max((last_ms - first_ms) * TIME_MARGIN_SHARE, minimum_ms)


def step_value_at(x: Sequence[float], y: Sequence[float], at: float) -> float:
    """The value of a step series (``x`` ascending, each ``y`` holding from its ``x`` on) at
    ``at``: the ``y`` of the last ``x`` at or before ``at`` (0 before the first ``x``). Titles read
    their numbers back from the arrays they plot with it, so title and plot cannot disagree."""
    i = bisect_right(x, at) - 1
    return float(y[i]) if i >= 0 else 0.0


def spread(values: Sequence[float], step: float = 0.3, span: float = 0.8) -> list[float]:
    """Offsets that pull apart equal ``values``: the k values equal to one another get offsets
    centred on 0, ``step`` apart (closer when k is large, so that they stay within ``span``), in
    the order given; a value that occurs once gets 0."""
    offsets = [0.0] * len(values)
    where: dict[float, list[int]] = {}
    for i, value in enumerate(values):
        where.setdefault(value, []).append(i)
    for indices in where.values():
        k = len(indices)
        if k > 1:
            gap = min(step, span / (k - 1))
            for j, i in enumerate(indices):
                offsets[i] = (j - (k - 1) / 2) * gap
    return offsets


def titled_layout(
    title: str,
    x_title: str,
    y_title: str,
    *,
    xaxis: dict[str, Any] | None = None,
    yaxis: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "title": {"text": title, "font": {"size": 14}},
        "xaxis": {"title": {"text": x_title}, "zeroline": False, **(xaxis or {})},
        "yaxis": {"title": {"text": y_title}, "zeroline": False, **(yaxis or {})},
        "height": HEIGHT,
        "template": TEMPLATE,
        "margin": {"l": 60, "r": 20, "t": 60, "b": 90},
        "legend": {"orientation": "h", "yanchor": "top", "y": -0.3},  # below the x-axis title
        **extra,
    }


def markers(
    state: str,
    x: Sequence[float | None],
    y: Sequence[float | None],
    text: list[str],
    hover: str = HOVER,
    customdata: list[float] | None = None,
    **marker: Any,
) -> dict[str, Any]:
    """A marker trace in a state's style. ``hover`` is a plotly hovertemplate: per-point values
    go in ``text`` (message tags) and ``customdata`` (numbers), which plotly checks fast."""
    style = palette.style(state)
    return {
        "type": "scatter",
        "mode": "markers",
        "name": style.label,
        "showlegend": len(x) > 0,
        "x": x,
        "y": y,
        "text": text,
        "customdata": customdata,
        "hovertemplate": hover,
        "marker": {
            "symbol": style.symbol,
            "color": style.color,
            "size": 9,
            "line": {"width": 1.5, "color": style.color},
            **marker,
        },
    }


def line(
    name: str,
    x: Sequence[float | None],
    y: Sequence[float | None],
    color: str,
    width: float,
    **line: Any,
) -> dict[str, Any]:
    return {
        "type": "scatter",
        "mode": "lines",
        "name": name,
        "showlegend": len(x) > 0,
        "x": x,
        "y": y,
        "hoverinfo": "skip",
        "line": {"color": color, "width": width, **line},
    }


def time_line(
    name: str, t_ms: int | None, y_from: float, y_to: float, label: str, color: str
) -> dict[str, Any]:
    """A dotted vertical line at ``t_ms`` from ``y_from`` to ``y_to``, labelled at ``y_from``
    (none when ``t_ms`` is None). A trace, not a layout shape: moving a trace costs a widget
    a fraction of what re-laying out a figure does."""
    at = [] if t_ms is None else [t_ms, t_ms]
    return {
        "type": "scatter",
        "mode": "lines+text",
        "name": name,
        "showlegend": False,
        "x": seconds(at),
        "y": floats([y_from, y_to] if at else []),
        "text": texts([label, ""] if at else []),
        # left of the line: the axis ends a little after now, and text past it was cut off
        "textposition": "top left",
        "cliponaxis": False,
        "textfont": {"color": color},
        "hoverinfo": "skip",
        "line": {"color": color, "dash": "dot", "width": 1.5},
    }


def time_label(qm: QueueManager, t: int) -> str:
    now: int = qm.sim.now
    if t == now:
        return f"now {t / MS_PER_S:.1f} s"
    return f"replay {t / MS_PER_S:.1f} s (now {now / MS_PER_S:.1f} s)"
