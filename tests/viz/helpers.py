"""Shared helpers for the view tests: scripted queue managers and ways to read figures back."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

import mqlearn as mq
from mqlearn import CMQC as C
from mqlearn.mqi.headers import MQXQH
from mqlearn.viz.model import WorkbenchModel

APP_Q = "APP.IN"
REPLY_Q = "REPLY.Q"
XMITQ = "QM2"


def new_model(
    msgdlvsq: str = "PRIORITY", *, profile: str = "distributed", reply_q: str | None = REPLY_Q
) -> WorkbenchModel:
    """A model on a fresh QM1 with APP.IN (``msgdlvsq``) and a reply queue."""
    qm = mq.QueueManager("QM1", profile=profile)
    qm.define_qlocal(APP_Q, msgdlvsq=msgdlvsq)
    if reply_q is not None:
        qm.define_qlocal(reply_q)
    return WorkbenchModel(qm, APP_Q, reply_q)


def trace(fig: go.Figure | go.FigureWidget, name: str) -> Any:
    """The trace called ``name`` (ValueError listing the names there are)."""
    for t in fig.data:
        if t.name == name:
            return t
    raise ValueError(f"no trace {name!r}; traces: {[t.name for t in fig.data]}")


def count(fig: go.Figure | go.FigureWidget, name: str) -> int:
    x = trace(fig, name).x
    return 0 if x is None else len(x)


def tags_of(fig: go.Figure | go.FigureWidget, name: str) -> list[str]:
    """The message tags of a marker trace's points (the start of each point's text)."""
    text = trace(fig, name).text
    return [] if text is None else [str(t).split(" · ")[0] for t in text]


def column(fig: go.Figure, header: str) -> list[str]:
    """A table column by its header text."""
    table = fig.data[0]
    return list(table.cells.values[list(table.header.values).index(header)])


def xmit_qm(profile: str = "distributed") -> mq.QueueManager:
    """QM1 with a transmission queue QM2 and a remote queue TO.QM2 (APP.IN at QM2) through it."""
    qm = mq.QueueManager("QM1", profile=profile)
    qm.define_qlocal(XMITQ, usage="XMITQ")
    qm.define_qremote("TO.QM2", rname=APP_Q, rqmname="QM2", xmitq=XMITQ)
    return qm


def put_direct_xqh(qm: mq.QueueManager, outer: int, embedded: int, data: bytes = b"body") -> None:
    """An application's own MQXQH put straight onto the transmission queue (rule XQH-02);
    ``data`` after it is the message's label on every view."""
    header = MQXQH(RemoteQName=APP_Q, RemoteQMgrName="QM2", MsgDesc=mq.MD(Expiry=embedded))
    md = mq.MD(Expiry=outer, Format=C.MQFMT_XMIT_Q_HEADER)
    mq.Queue(qm, XMITQ).put(header.pack() + data, md, mq.PMO())
