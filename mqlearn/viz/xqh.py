"""The MQXQH inspector: the two Expiry fields of each message on a transmission queue.

Values are read exactly as an MQGET would return them now, through the engine's own decrement of
the embedded Expiry (rules XQH-03..05), so the picture cannot disagree with a get.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import plotly.graph_objects as go

from mqlearn.engine import delivery
from mqlearn.engine.message import remaining_tenths
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.headers import MQXQH, XQH_LENGTH
from mqlearn.viz import palette
from mqlearn.viz.names import Vocabulary, msg_tag
from mqlearn.viz.spec import MS_PER_S, Spec, figure, texts, titled_layout

if TYPE_CHECKING:
    from mqlearn.engine.qmgr import QueueManager


class XqhRow(NamedTuple):
    """One message on a transmission queue: both Expiry fields as a get would see them now."""

    tag: str
    destination: str
    outer: int  # remaining tenths of the MQMD Expiry, 0 once expired, -1 unlimited
    embedded: int  # the MQXQH's embedded Expiry after the decrement (XQH-03), 0 if run out


def xqh_rows(qm: QueueManager, xmitq: str) -> list[XqhRow]:
    """The messages carrying an MQXQH on ``xmitq``, in delivery order.

    The embedded Expiry is read from the data exactly as an MQGET now would return it (the
    engine's own decrement: rules XQH-03, XQH-05); the outer one is the message's remaining Expiry.
    """
    now: int = qm.sim.now
    rows = []
    for message in qm.local(xmitq).store.messages():
        encoding = message.field("Encoding", C.MQENC_NATIVE)
        if message.field("Format", C.MQFMT_NONE) != C.MQFMT_XMIT_Q_HEADER:
            continue
        data = delivery.decrement_embedded(message.data, message, now)
        if len(data) < XQH_LENGTH:
            continue
        header = MQXQH.unpack(data[:XQH_LENGTH], encoding)
        rows.append(
            XqhRow(
                msg_tag(message.msgid),
                f"{header.RemoteQName.strip()} at {header.RemoteQMgrName.strip()}",
                remaining_tenths(message.deadline, now),
                header.MsgDesc.Expiry,
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


def xqh_inspector_spec(qm: QueueManager, xmitq: str) -> Spec:
    """Spec of :func:`xqh_inspector`."""
    vocab = Vocabulary(qm.profile)
    rows = xqh_rows(qm, xmitq)
    finite = [v for row in rows for v in (row.outer, row.embedded) if v != C.MQEI_UNLIMITED]
    top = max([*finite, 10]) * 1.15  # unlimited bars reach above every finite one
    labels = texts(f"{row.tag} → {row.destination}" for row in rows)
    expiry_name = vocab.name("Expiry")
    traces = []
    for embedded, name, color in (
        (False, f"outer MQMD {expiry_name} (decides discard: XQH-04)", palette.BLUE),
        (True, f"embedded MQXQH {expiry_name}", palette.VERMILLION),
    ):
        values = [row.embedded if embedded else row.outer for row in rows]
        others = [row.outer if embedded else row.embedded for row in rows]
        traces.append(
            {
                "type": "bar",
                "name": name,
                "x": labels,
                "y": np.asarray([top if v == C.MQEI_UNLIMITED else v for v in values], dtype=float),
                "text": texts(
                    _xqh_label(vocab, v, o, embedded) for v, o in zip(values, others, strict=True)
                ),
                "textposition": "outside",
                "hovertemplate": "%{x}: %{text}<extra></extra>",
                "marker": {
                    "color": color,
                    "pattern": {
                        "shape": ["/" if v == C.MQEI_UNLIMITED else "" for v in values],
                    },
                },
            }
        )
    now: int = qm.sim.now
    layout = titled_layout(
        f"{xmitq}: outer and embedded {expiry_name} at {now / MS_PER_S:.1f} s "
        f"({len(rows)} message(s) with an MQXQH)",
        "message on the transmission queue → its destination",
        f"remaining {expiry_name} (tenths of a second)",
        yaxis={"range": [0, top * 1.15]},
        barmode="group",
    )
    return Spec(traces, layout)


def xqh_inspector(qm: QueueManager, xmitq: str) -> go.Figure:
    """Per message on a transmission queue, the outer MQMD Expiry and the Expiry inside its MQXQH
    side by side, as an MQGET would return them now: both count down (XQH-03), only the outer
    one decides discard (XQH-04), and the embedded one stops at 0 while the outer one lives on
    (XQH-05). Unlimited values are drawn as hatched bars reaching above the others."""
    return figure(xqh_inspector_spec(qm, xmitq))
