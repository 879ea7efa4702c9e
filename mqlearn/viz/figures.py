"""Figures of a queue manager's state: pure functions, engine state in, plotly figure out.

Each view has two functions: ``<view>_spec(...)`` computes a :class:`Spec` (trace dicts holding
lists, and a layout dict) and ``<view>(...)`` turns it into a ``go.Figure``. A view always
returns the same traces in the same order, whatever the state, so a widget can copy a new spec's
arrays into the figure it already shows instead of rebuilding it (see ``mqlearn.viz.charts``).

``at_ms=None`` draws the state now; an int draws the state as it was at that virtual time, rebuilt
from the event log (:mod:`mqlearn.viz.history`). Times on axes are seconds of virtual time. A queue
manager with profile ``"ibmi"`` is labelled with IBM i short names (MDEXP, EIULIM, ...).

This module draws the timeline, the shelf and the depth chart, and is the one place to import every
view from: the tables (:mod:`mqlearn.viz.log_tables`) and the MQXQH inspector (:mod:`mqlearn.viz.xqh`)
are re-exported here.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from itertools import accumulate
from typing import TYPE_CHECKING

from mqlearn.engine.rule_formulas import is_expired
from mqlearn.viz import palette
from mqlearn.viz.history import Life, QueueHistory, history
from mqlearn.viz.log_tables import event_table, event_table_spec, report_inbox, report_inbox_spec
from mqlearn.viz.names import Vocabulary
from mqlearn.viz.spec import (
    HEIGHT,
    TEMPLATE,
    Series,
    Spec,
    figure,
    floats,
    line,
    markers,
    seconds,
    spread,
    step_value_at,
    texts,
    time_axis_end,
    time_label,
    time_line,
    titled_layout,
)
from mqlearn.viz.times import MS_PER_S, view_time
from mqlearn.viz.xqh import XqhRow, xqh_inspector, xqh_inspector_spec, xqh_rows

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from mqlearn.engine.qmgr import QueueManager

__all__ = [
    "HEIGHT",
    "MS_PER_S",
    "TEMPLATE",
    "Spec",
    "XqhRow",
    "depth",
    "depth_series",
    "depth_spec",
    "event_table",
    "event_table_spec",
    "figure",
    "report_inbox",
    "report_inbox_spec",
    "seconds",
    "shelf",
    "shelf_spec",
    "timeline",
    "timeline_spec",
    "view_time",
    "xqh_inspector",
    "xqh_inspector_spec",
    "xqh_rows",
]

TIMELINE_LANES = 200  # the latest messages drawn by default: more lanes than pixels helps no one
TICK_LABELS_MAX = 40  # lanes labelled with their message tags up to this many
LOOKAHEAD_MS = 5_000  # the timeline shows at least this much of the future
HORIZON_STEP_MS = 10_000
MARK_SPREAD = 0.5  # lanes between markers of one message at the same instant
MARK_SPREAD_SPAN = 0.8  # ... and at most this much of a lane for all of them
# Marks on the timeline, drawn in this order (palette state names).
TIMELINE_MARKS = (
    "got",
    "in-uow",
    "discarded",
    "report",
    "browsed",
    "locked",
    "sent",
    "backout",
    "dead-letter",
    "trigger",
)
SHELF_STATES = ("live", "expired", "uncommitted", "in-uow", "locked")


class _Segments:
    """Horizontal segments collected one by one and drawn as one gap-separated line trace."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.rows: list[int] = []

    def add(self, start: int, end: int, row: int) -> None:
        self.starts.append(start)
        self.ends.append(end)
        self.rows.append(row)

    def arrays(self) -> tuple[Series, Series]:
        """x (seconds) and y series: start, end, a gap (None) for each segment."""
        x: Series = []
        y: Series = []
        for start, end, row in zip(self.starts, self.ends, self.rows, strict=True):
            x += [start / MS_PER_S, end / MS_PER_S, None]
            y += [float(row), float(row), None]
        return x, y


# -- timeline -------------------------------------------------------------------------------------
def timeline_spec(
    qm: QueueManager,
    queue: str,
    at_ms: int | None = None,
    *,
    max_lanes: int | None = TIMELINE_LANES,
) -> Spec:
    """Spec of :func:`timeline`."""
    t = view_time(qm, at_ms)
    vocab = Vocabulary(qm.profile)
    hist = history(qm, queue)
    lives = [life for life in hist.lives if life.put_ms <= t]
    total = len(lives)
    if max_lanes is not None and total > max_lanes:
        lives = lives[-max_lanes:]
    first = lives[0].put_ms if lives else 0
    # the right end of the time axis, in whole steps so that small clock moves keep it still
    horizon = -(-(t + max(LOOKAHEAD_MS, (t - first) // 4)) // HORIZON_STEP_MS) * HORIZON_STEP_MS

    lifetimes = _Segments()  # put -> deadline (or the horizon)
    live = _Segments()  # on the queue, not expired
    expired = _Segments()  # on the queue, expired, not yet discarded
    marks: dict[str, tuple[list[int], list[float], list[Life]]] = {
        state: ([], [], []) for state in ("live", "expired", *TIMELINE_MARKS)
    }
    for row, life in enumerate(lives):
        deadline = life.deadline
        lifetimes.add(life.put_ms, horizon if deadline is None else min(deadline, horizon), row)
        for span in life.spans:
            start, end = span.start, span.end
            if start > t:
                break
            stop = t if end is None or end > t else end
            live_end = stop if deadline is None else min(stop, deadline)
            if live_end > start:
                live.add(start, live_end, row)
            if deadline is not None and deadline < stop:
                expired.add(max(start, deadline), stop, row)
        moments = [("live", life.put_ms)]
        if deadline is not None and is_expired(deadline, t) and life.present_at(deadline):
            moments.append(("expired", deadline))
        moments += [(state, when) for state, when in life.marks if when <= t]
        # marks of one lane at the same instant are pulled apart in y, in the order they happened
        offsets = spread([when for _, when in moments], MARK_SPREAD, MARK_SPREAD_SPAN)
        for (state, when), offset in zip(moments, offsets, strict=True):
            xs, ys, whose = marks[state]
            xs.append(when)
            ys.append(row + float(offset))
            whose.append(life)

    expiry_name = vocab.name("Expiry")
    traces = [
        line(f"lifetime: put → deadline ({expiry_name})", *lifetimes.arrays(), palette.GREY, 1),
        line("on the queue, live", *live.arrays(), palette.BLUE, 5),
        line(
            "on the queue, expired (not yet discarded)",
            *expired.arrays(),
            palette.ORANGE,
            5,
            dash="dot",
        ),
    ]
    names = {"live": "put", "expired": "deadline passed while on the queue (EXP-20)"}
    for state, (xs, ys, whose) in marks.items():
        name = names.get(state, palette.STATES[state].label)
        trace = markers(
            state,
            seconds(xs),
            floats(ys),
            texts(life.tag for life in whose),
            f"%{{text}}: {name} at %{{x:.1f}} s · {vocab.name('Priority')} %{{customdata}}"
            "<extra></extra>",
            floats(life.priority for life in whose),
        )
        trace["name"] = name
        traces.append(trace)

    rows = max(len(lives), 1)
    now_line = time_line("now", t, -0.5, rows - 0.5, time_label(qm, t), palette.NOW_LINE)
    traces.append(now_line)
    labelled = len(lives) <= TICK_LABELS_MAX
    # the title's numbers are read from what is drawn: the lanes (one lifetime segment each)
    # and the position of the "now" line
    lanes = len(lifetimes.starts)
    clipped = f" · latest {lanes} of {total} messages" if lanes < total else ""
    local = qm.local(queue)
    layout = titled_layout(
        f"Timeline of {queue} ({local.msgdlvsq}) at {now_line['x'][0]:.1f} s{clipped}",
        "virtual time (s)",
        "message (in put order)",
        xaxis={"range": [first / MS_PER_S - 0.5, horizon / MS_PER_S]},
        yaxis={
            "autorange": "reversed",
            "tickmode": "array" if labelled else "auto",
            "tickvals": list(range(len(lives))) if labelled else None,
            "ticktext": [life.tag for life in lives] if labelled else None,
        },
    )
    return Spec(traces, layout)


def timeline(
    qm: QueueManager,
    queue: str,
    at_ms: int | None = None,
    *,
    max_lanes: int | None = TIMELINE_LANES,
) -> go.Figure:
    """A lane per message from put to deadline: when it was live, when it sat expired but not
    yet discarded (rules EXP-20, EXP-21), and markers where it was got, discarded, reported,
    browsed, sent or backed out; a dotted line at the time drawn. The latest ``max_lanes``
    messages are drawn (None: all of them).

    Markers of one message that fall on the same instant (a put and a get at the same virtual
    time, a discard and its expiration report) are drawn apart: moved off the lane's centre in
    y, ``MARK_SPREAD`` (0.5) lanes apart and within ``MARK_SPREAD_SPAN`` (0.8) of a lane in all,
    the first to happen topmost. Their x is not moved: the hover text gives the true time.
    Markers of different messages never share a lane. The time axis runs at least
    ``LOOKAHEAD_MS`` (5 s), and a quarter of the time drawn, past the time drawn."""
    return figure(timeline_spec(qm, queue, at_ms, max_lanes=max_lanes))


# -- shelf ----------------------------------------------------------------------------------------
def _shelf_rows(hist: QueueHistory, t: int, now: int) -> list[tuple[Life, str]]:
    """The messages on the queue at ``t`` in delivery order, each with its state to draw."""
    if t == now:  # the engine's own order and states; expired wins but for a got message
        return [
            (life, "expired" if state != "in-uow" and life.expired_at(t) else state)
            for life, state in hist.on_queue
        ]
    return [(life, "expired" if life.expired_at(t) else "live") for life in hist.queued_at(t)]


def shelf_spec(qm: QueueManager, queue: str, at_ms: int | None = None) -> Spec:
    """Spec of :func:`shelf`."""
    t = view_time(qm, at_ms)
    vocab = Vocabulary(qm.profile)
    local = qm.local(queue)
    rows = _shelf_rows(history(qm, queue), t, qm.sim.now)
    by_state: dict[str, tuple[list[int], list[Life]]] = {s: ([], []) for s in SHELF_STATES}
    for position, (life, state) in enumerate(rows):
        positions, whose = by_state[state]
        positions.append(position)
        whose.append(life)
    priority_name, expiry_name = vocab.name("Priority"), vocab.name("Expiry")
    traces = []
    for state, (positions, whose) in by_state.items():
        # hover text that does not change as the clock runs (Expiry at put and the deadline,
        # not the remaining Expiry), so advancing the clock re-sends only what changed state
        hover = [
            f"{life.tag} · {priority_name} {life.priority} · {expiry_name} "
            f"{vocab.expiry(life.expiry)} at put · "
            + (
                "never expires"
                if life.deadline is None
                else f"deadline {life.deadline / MS_PER_S:.1f} s"
            )
            for life in whose
        ]
        traces.append(
            markers(
                state,
                floats(positions),
                floats(life.lane for life in whose),
                texts(hover),
                f"%{{text}} · position %{{x}}<extra>{palette.STATES[state].label}</extra>",
                size=11,
            )
        )
    # the title's counts are read from the marker traces drawn: every marker is a message on
    # the queue, and all but those got in a unit of work count in CURDEPTH
    drawn = {state: len(trace["x"]) for state, trace in zip(SHELF_STATES, traces, strict=True)}
    expired = drawn["expired"]
    depth = sum(drawn.values()) - drawn["in-uow"]
    if local.msgdlvsq == "FIFO":
        lanes = [local.defprty - 1.0, local.defprty + 1.0]
        y_title = f"lane (FIFO: every message at DEFPRTY {local.defprty})"
    else:
        lanes = [-0.5, qm.maxprty + 0.5]
        y_title = f"lane ({priority_name}, at most MAXPRTY {qm.maxprty})"
    notes = []
    if rows:
        notes.append(
            {
                "x": 0,
                "y": rows[0][0].lane,
                "text": "next get looks here first",
                "showarrow": True,
                "ax": 40,
                "ay": -30,
            }
        )
    layout = titled_layout(
        f"Shelf of {queue} ({local.msgdlvsq}) at {t / MS_PER_S:.1f} s: CURDEPTH {depth}, "
        f"{expired} expired not yet discarded",
        "delivery position (0 = first in delivery order)",
        y_title,
        xaxis={"range": [-0.5, max(len(rows), 10) - 0.5]},
        yaxis={"range": lanes, "dtick": 1},
        annotations=notes,
    )
    return Spec(traces, layout)


def shelf(qm: QueueManager, queue: str, at_ms: int | None = None) -> go.Figure:
    """The messages on a queue in delivery order, one row per priority lane (PRIORITY queues) or
    one lane (FIFO), live and expired-but-undiscarded drawn apart (rules EXP-22, EXP-23, EXP-25)."""
    return figure(shelf_spec(qm, queue, at_ms))


# -- depth ----------------------------------------------------------------------------------------
def depth_series(lives: Iterable[Life], now: int) -> tuple[list[int], list[int], list[int]]:
    """Times (ms) and, from each time on, CURDEPTH and how many of those messages had expired."""
    changes = [(0, 0, 0), (now, 0, 0)]  # (time, change of depth, change of expired count)
    for life in lives:
        deadline = life.deadline
        for span in life.spans:
            start, end = span.start, span.end
            changes.append((start, 1, 0))
            if end is not None:
                changes.append((end, -1, 0))
            if (
                deadline is not None
                and is_expired(deadline, now)
                and (end is None or deadline < end)
            ):
                changes.append((max(start, deadline), 0, 1))
                if end is not None:
                    changes.append((end, 0, -1))
    changes.sort(key=lambda change: change[0])  # stable: changes at one time keep their order
    t = [change[0] for change in changes]
    depth = list(accumulate(change[1] for change in changes))
    expired = list(accumulate(change[2] for change in changes))
    # the value after every change at that time
    last = [i for i in range(len(t)) if i == len(t) - 1 or t[i + 1] != t[i]]
    return [t[i] for i in last], [depth[i] for i in last], [expired[i] for i in last]


def depth_spec(qm: QueueManager, queue: str, at_ms: int | None = None) -> Spec:
    """Spec of :func:`depth`."""
    t_view = view_time(qm, at_ms)
    now: int = qm.sim.now
    local = qm.local(queue)
    hist = history(qm, queue)
    times, depth, expired = depth_series(hist.lives, now)
    # the axis runs past now and the last step is drawn to its end: a change at now is visible
    end = time_axis_end(0, now)
    x = floats(t / MS_PER_S for t in [*times, end])
    live_y = floats(
        d - e for d, e in zip([*depth, depth[-1]], [*expired, expired[-1]], strict=True)
    )
    expired_y = floats([*expired, expired[-1]])
    traces = [
        {
            "type": "scatter",
            "mode": "lines",
            "name": "live",
            "x": x,
            "y": live_y,
            "stackgroup": "depth",
            "line": {"shape": "hv", "color": palette.BLUE, "width": 1},
            "fillcolor": palette.tint(palette.BLUE, 0.5),
        },
        {
            "type": "scatter",
            "mode": "lines",
            "name": "expired, not yet discarded (counted: EXP-25)",
            "x": x,
            "y": expired_y,
            "stackgroup": "depth",
            "line": {"shape": "hv", "color": palette.ORANGE, "width": 1},
            "fillcolor": palette.tint(palette.ORANGE, 0.6),
            "fillpattern": {"shape": "/", "fgcolor": palette.VERMILLION},
        },
    ]
    by_depth = local.trigtype == "DEPTH" and local.initq is not None
    trigger_state = "on" if local.trigger else "off: it fired"
    traces.append(
        line(
            f"TRIGDPTH {local.trigdpth} (TRIGGER {trigger_state})",
            seconds([0, end] if by_depth else []),
            floats([local.trigdpth] * 2 if by_depth else []),
            palette.TRIGGER_LINE,
            2,
            dash="dash",
        )
    )
    fired = sorted(when for life in hist.lives for state, when in life.marks if state == "trigger")
    at_fire = [depth[bisect_right(times, w) - 1] for w in fired]
    traces.append(
        markers(
            "trigger",
            seconds(fired),
            floats(at_fire),
            texts(f"trigger message at {w / MS_PER_S:.1f} s" for w in fired),
            size=12,
        )
    )
    top = float(max(*depth, 1))
    label = time_label(qm, t_view)
    replayed = t_view if at_ms is not None else None
    traces.append(time_line("replay", replayed, top, 0, label, palette.VIEW_LINE))
    # the title's numbers are read back from the stacked arrays drawn, at the time drawn (the
    # replay line when replaying, else now)
    at_s = t_view / MS_PER_S
    shown_expired = int(step_value_at(x, expired_y, at_s))
    shown_depth = int(step_value_at(x, live_y, at_s)) + shown_expired
    when = f"at {at_s:.1f} s" if at_ms is None else f"at replay {at_s:.1f} s"
    layout = titled_layout(
        f"Depth of {queue} over time, {when}: CURDEPTH {shown_depth}, "
        f"{shown_expired} of them expired (not yet discarded)",
        "virtual time (s)",
        "messages on the queue (CURDEPTH)",
        xaxis={"range": [0, end / MS_PER_S]},
        yaxis={"rangemode": "tozero"},
    )
    return Spec(traces, layout)


def depth(qm: QueueManager, queue: str, at_ms: int | None = None) -> go.Figure:
    """CURDEPTH over time, live and expired-but-undiscarded messages stacked (rule EXP-25); the
    TRIGDPTH line and trigger messages on a depth-triggered queue (TRG-02); ``at_ms`` marks the
    time being replayed. The time axis runs past now (8 % of the time drawn, at least 1 s) and
    the depth at now is drawn on to the axis end, so a change at now is visible. The title gives
    CURDEPTH and the expired count at the time drawn (now, or ``at_ms``)."""
    return figure(depth_spec(qm, queue, at_ms))
