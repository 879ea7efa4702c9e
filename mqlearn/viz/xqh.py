"""The MQXQH inspector: the two Expiry fields of each message on a transmission queue.

Values are read exactly as an MQGET would return them now, through the engine's own decrement of
the embedded Expiry (rules XQH-03..05), so the picture cannot disagree with a get.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from mqlearn.engine import transmission
from mqlearn.engine.message import remaining_tenths
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.headers import MQXQH, XQH_LENGTH
from mqlearn.viz import palette
from mqlearn.viz.labels import labels_for
from mqlearn.viz.names import Vocabulary
from mqlearn.viz.spec import HEIGHT, Spec, figure, floats, texts, titled_layout
from mqlearn.viz.times import MS_PER_S

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from mqlearn.engine.qmgr import QueueManager

BAR_WIDTH = 0.38  # x units per bar; a message's two bars sit either side of its tick
BAR_GAP = 0.02  # half the gap between them
MIN_SLOTS = 3  # the x axis has room for at least this many messages (no giant bars)
UNLIMITED_HEIGHT = 1.1  # unlimited bars are drawn this many scales high (above every finite one)
MARK_HEIGHT = 0.12  # the height, in scales, of the markers that say what a 0 means
RANGE_HEIGHT = 1.25  # the y axis runs to this many scales (room for the labels on top)
LEGEND_ROOM = 50  # pixels added below the plot for the legend's second row
# a clamped embedded Expiry: a flat stub in the embedded bars' colour
CLAMPED = palette.Style(palette.VERMILLION, "line-ew", "clamped at 0", "—")


class XqhRow(NamedTuple):
    """One message on a transmission queue: both Expiry fields as a get would see them now,
    and as they were when it was put."""

    tag: str  # the learner's label for the message (mqlearn.viz.labels), as on every view
    destination: str
    outer: int  # remaining tenths of the MQMD Expiry, 0 once expired, -1 unlimited
    embedded: int  # the MQXQH's embedded Expiry after the decrement (XQH-03), 0 if run out
    outer_at_put: int  # the outer Expiry when the message was put (-1 unlimited)
    embedded_at_put: int  # the embedded Expiry when the message was put (-1 unlimited)


def xqh_rows(qm: QueueManager, xmitq: str) -> list[XqhRow]:
    """The messages carrying an MQXQH on ``xmitq``, in delivery order.

    The embedded Expiry is read from the data exactly as an MQGET now would return it (the
    engine's own decrement: rules XQH-03, XQH-05); the outer one is the message's remaining Expiry.
    """
    now: int = qm.sim.now
    labels = labels_for(qm)
    rows = []
    for message in qm.local(xmitq).store.messages():
        encoding = message.field("Encoding", C.MQENC_NATIVE)
        if message.field("Format", C.MQFMT_NONE) != C.MQFMT_XMIT_Q_HEADER:
            continue
        data = transmission.decrement_embedded(message.data, message, now)
        if len(data) < XQH_LENGTH:
            continue
        header = MQXQH.unpack(data[:XQH_LENGTH], encoding)
        embedded = header.MsgDesc.Expiry
        xdeadline = message.xdeadline
        rows.append(
            XqhRow(
                labels.remember(message),
                f"{header.RemoteQName.strip()} at {header.RemoteQMgrName.strip()}",
                remaining_tenths(message.deadline, now),
                embedded,
                remaining_tenths(message.deadline, message.put_ms),
                embedded if xdeadline is None else remaining_tenths(xdeadline, message.put_ms),
            )
        )
    return rows


def _xqh_label(vocab: Vocabulary, value: int, other: int, embedded: bool) -> str:
    if value == C.MQEI_UNLIMITED:
        return vocab.expiry(value)
    if value == 0 and embedded and other != 0:
        return "0 (clamped: XQH-05)"
    if value == 0:
        return "0 (expired: discarded by the next get)"
    return str(value)


def xqh_scale(rows: list[XqhRow]) -> int:
    """The top of the inspector's y scale: the largest finite Expiry of ``rows`` as put (or now,
    if larger), at least 10, rounded up to 1, 2 or 5 times a power of ten. Expiry values only
    count down, so the scale stays put while the clock runs and the countdown can be seen."""
    finite = [
        value
        for row in rows
        for value in (row.outer_at_put, row.embedded_at_put, row.outer, row.embedded)
        if value != C.MQEI_UNLIMITED
    ]
    largest = int(max([*finite, 10]))
    power: int = 10 ** (len(str(largest)) - 1)
    return next(step * power for step in (1, 2, 5, 10) if step * power >= largest)


def xqh_inspector_spec(qm: QueueManager, xmitq: str) -> Spec:
    """Spec of :func:`xqh_inspector`."""
    vocab = Vocabulary(qm.profile)
    rows = xqh_rows(qm, xmitq)
    scale = xqh_scale(rows)
    unlimited_height = scale * UNLIMITED_HEIGHT  # unlimited bars reach above every finite one
    names = [f"{row.tag} → {row.destination}" for row in rows]
    position = floats(range(len(rows)))
    expiry_name = vocab.name("Expiry")
    traces: list[dict[str, Any]] = []
    for embedded, offset, name, color in (
        (
            False,
            -BAR_GAP - BAR_WIDTH,
            f"outer MQMD {expiry_name} (decides discard: XQH-04)",
            palette.BLUE,
        ),
        (True, BAR_GAP, f"embedded MQXQH {expiry_name}", palette.VERMILLION),
    ):
        values = [row.embedded if embedded else row.outer for row in rows]
        others = [row.outer if embedded else row.embedded for row in rows]
        unlimited = [v == C.MQEI_UNLIMITED for v in values]
        traces.append(
            {
                "type": "bar",
                "name": name,
                "x": position,
                "y": floats(
                    unlimited_height if u else v for u, v in zip(unlimited, values, strict=True)
                ),
                "width": BAR_WIDTH,
                "offset": offset,
                # ``text`` is the bar's full label, shown in the hover text; drawn on the bar is
                # the value alone (what a get returns), as longer words would collide with the
                # next bar's: what a 0 means is said by a marker above it and its legend entry
                "text": texts(
                    _xqh_label(vocab, v, o, embedded) for v, o in zip(values, others, strict=True)
                ),
                "texttemplate": ["0" if v == 0 else "%{text}" for v in values],
                "textposition": ["inside" if u else "outside" for u in unlimited],
                "hovertext": texts(names),
                "hovertemplate": f"%{{hovertext}}: {name} %{{text}}<extra></extra>",
                "insidetextfont": {"color": palette.BLACK},  # on the hatching of unlimited bars
                "marker": {
                    "color": color,
                    "pattern": {"shape": ["/" if u else "" for u in unlimited], "solidity": 0.2},
                },
            }
        )
    # the meaning of a 0, once per bar: a marker above the bar's "0" and a legend entry
    clamped = [i for i, row in enumerate(rows) if row.embedded == 0 and row.outer != 0]
    expired = [i for i, row in enumerate(rows) if row.outer == 0]
    above_zero = scale * MARK_HEIGHT
    for state, which, x_offset, name, hover in (
        (
            "clamped",
            clamped,
            BAR_GAP + BAR_WIDTH / 2,
            f"embedded {expiry_name} ran out, held at 0 (XQH-05)",
            f"embedded {expiry_name} 0 (clamped: XQH-05)",
        ),
        (
            "expired",
            expired,
            0.0,
            "expired: the next get or channel discards it",
            f"outer {expiry_name} 0 (expired: discarded by the next get)",
        ),
    ):
        style = palette.style("expired") if state == "expired" else CLAMPED
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": name,
                "showlegend": len(which) > 0,
                "x": [position[i] + x_offset for i in which],
                "y": [above_zero] * len(which),
                "text": texts(f"{names[i]}: {hover}" for i in which),
                "hovertemplate": "%{text}<extra></extra>",
                "marker": {
                    "symbol": style.symbol,
                    "color": style.color,
                    "size": 11,
                    "line": {"width": 2, "color": style.color},
                },
            }
        )
    # the title's numbers are read from what is drawn: one group of bars per message
    shown = len(traces[0]["x"])
    now: int = qm.sim.now
    layout = titled_layout(
        f"transmission queue {xmitq}: outer and embedded {expiry_name} at {now / MS_PER_S:.1f} s "
        f"({shown} message(s) with an MQXQH)",
        "message on the transmission queue → its destination",
        f"remaining {expiry_name} (tenths of a second)",
        xaxis={
            "range": [-0.5, max(shown, MIN_SLOTS) - 0.5],
            "tickmode": "array",
            "tickvals": list(range(shown)),
            "ticktext": [f"{row.tag}<br>→ {row.destination}" for row in rows],
            "showgrid": False,
        },
        yaxis={"range": [0, scale * RANGE_HEIGHT]},
        barmode="overlay",
        # fixed margins and a legend at the foot of the figure: the markers' legend entries come
        # and go, and must not shrink the plot (the scale would seem to change)
        height=HEIGHT + LEGEND_ROOM,
        margin={"l": 60, "r": 20, "t": 60, "b": 90 + LEGEND_ROOM, "autoexpand": False},
        legend={
            "orientation": "h",
            "yanchor": "top",
            "y": -0.34,  # below the two-line tick labels and the axis title
            "entrywidth": 0.5,  # two entries a row: at most two rows
            "entrywidthmode": "fraction",
        },
    )
    return Spec(traces, layout)


def xqh_inspector(qm: QueueManager, xmitq: str) -> go.Figure:
    """Per message on a transmission queue, the outer MQMD Expiry and the Expiry inside its MQXQH
    side by side, as an MQGET would return them now: both count down (XQH-03), only the outer
    one decides discard (XQH-04), and the embedded one stops at 0 while the outer one lives on
    (XQH-05). Unlimited values are drawn as hatched bars reaching above the others.

    The y scale is fixed by the values as put (:func:`xqh_scale`), so it does not change as the
    clock runs and the countdown shows. Each bar is labelled with its value only; a 0 gets a
    marker above it with a legend entry saying what it means (the embedded Expiry held at 0 by
    XQH-05, or the message expired), and the hover text says it in full."""
    return figure(xqh_inspector_spec(qm, xmitq))
