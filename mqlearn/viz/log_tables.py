"""The event log and the report inbox as tables (plotly Table figures, pure functions).

States are shown by glyph (``✕ discard``), names by profile (``MDEXP`` on IBM i), reason codes by
name: the text alone says what happened.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mqlearn.engine.descriptor import message_fields
from mqlearn.engine.rule_formulas import is_expired
from mqlearn.mqi import cmqc as C
from mqlearn.viz import palette
from mqlearn.viz.labels import labels_for
from mqlearn.viz.names import FEEDBACKS, MSG_TYPES, Vocabulary, msg_tag
from mqlearn.viz.spec import HEIGHT, TEMPLATE, Spec, figure
from mqlearn.viz.times import MS_PER_S, view_time

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from mqlearn.engine.qmgr import QueueManager

EVENT_ROWS = 20
INBOX_ROWS = 50


def _table(title: str, columns: list[str], cells: list[list[str]]) -> Spec:
    """A table trace, one row per entry of ``cells``. States are shown by glyph, not by row
    colour: plotly checks colours one by one, which would cost a widget update more than every
    other change together."""
    trace = {
        "type": "table",
        "header": {
            "values": columns,
            "fill": {"color": palette.tint(palette.BLUE, 0.3)},
            "align": "left",
        },
        "cells": {
            "values": [list(column) for column in zip(*cells, strict=True)]
            if cells
            else [[] for _ in columns],
            "align": "left",
            "height": 24,
        },
    }
    layout = {
        "title": {"text": title},
        "template": TEMPLATE,
        "height": HEIGHT,
        "margin": {"l": 10, "r": 10, "t": 50, "b": 10},
    }
    return Spec([trace], layout)


def event_table_spec(
    qm: QueueManager, queue: str | None = None, last: int = EVENT_ROWS, at_ms: int | None = None
) -> Spec:
    """Spec of :func:`event_table`."""
    t = view_time(qm, at_ms)
    if last < 1:
        raise ValueError(f"last must be at least 1, got {last!r}")
    vocab = Vocabulary(qm.profile)
    labels = labels_for(qm)
    chosen = []
    for event in reversed(qm.events):
        if event.time_ms <= t and (queue is None or event.queue == queue):
            chosen.append(event)
            if len(chosen) == last:
                break
    columns = [
        "seq",
        "time (s)",
        "queue",
        "event",
        "message",
        vocab.name("Priority"),
        vocab.name("Expiry"),
        "cause",
        "reason",
        "detail",
    ]
    cells = [
        [
            str(e.seq),
            f"{e.time_ms / MS_PER_S:.1f}",
            e.queue,
            palette.kind_label(e.kind),
            labels.of(e.msg_seq, e.msg_id) if e.msg_seq is not None else "",
            "" if e.priority is None else str(e.priority),
            vocab.expiry(e.expiry),
            e.cause,
            vocab.reason(e.reason) if e.reason else "",
            e.detail,
        ]
        for e in chosen
    ]
    shown = [_properties(qm, e.msg_seq) for e in chosen]
    if any(shown):  # a column of its own only when some message in view carries properties
        columns.append("properties")
        for row, text in zip(cells, shown, strict=True):
            row.append(text)
    where = f" on {queue}" if queue is not None else ""
    return _table(
        f"Event log: last {len(chosen)} event(s){where}, newest first",
        columns,
        cells,
    )


def _properties(qm: QueueManager, seq: int | None) -> str:
    """A message's properties as the table shows them: ``name = value (MQTYPE_...)``, "; "."""
    if seq is None:
        return ""
    return "; ".join(p.shown() for p in qm.properties_of(seq))


def event_table(
    qm: QueueManager, queue: str | None = None, last: int = EVENT_ROWS, at_ms: int | None = None
) -> go.Figure:
    """The last ``last`` events of the log (all queues, or one), newest first; ``Expiry`` is the
    remaining Expiry at that moment and reasons are shown by name."""
    return figure(event_table_spec(qm, queue, last, at_ms))


def report_inbox_spec(qm: QueueManager, queue: str, last: int = INBOX_ROWS) -> Spec:
    """Spec of :func:`report_inbox`."""
    vocab = Vocabulary(qm.profile)
    local = qm.local(queue)
    now: int = qm.sim.now
    cells: list[list[str]] = []
    total = reports = 0
    for message in local.store.messages():
        total += 1
        is_report = message.field("MsgType", C.MQMT_DATAGRAM) == C.MQMT_REPORT
        reports += is_report
        if len(cells) == last:
            continue
        fields = message_fields(message, now, qm.sim)
        expired = is_expired(message.deadline, now)
        state = "expired" if expired else "report" if is_report else "live"
        cells.append(
            [
                f"{palette.STATES[state].glyph} {total}",
                msg_tag(fields["MsgId"]),
                vocab.value(fields["MsgType"], MSG_TYPES),
                vocab.value(fields["Feedback"], FEEDBACKS),
                msg_tag(fields["CorrelId"]) if any(fields["CorrelId"]) else "",
                vocab.expiry(fields["Expiry"]) + (" (expired)" if expired else ""),
                vocab.report(fields["Report"]),
                str(len(message.data)),
                f"{fields['PutDate']} {fields['PutTime']}",
            ]
        )
    columns = [
        "#",
        vocab.name("MsgId"),
        vocab.name("MsgType"),
        vocab.name("Feedback"),
        f"{vocab.name('CorrelId')} (= original {vocab.name('MsgId')})",
        vocab.name("Expiry"),
        vocab.name("Report"),
        "data length",
        f"{vocab.name('PutDate')} {vocab.name('PutTime')} (GMT)",
    ]
    shown = f", first {len(cells)} shown" if len(cells) < total else ""
    return _table(
        f"Report inbox {queue}: {total} message(s), {reports} report(s){shown}",
        columns,
        cells,
    )


def report_inbox(qm: QueueManager, queue: str, last: int = INBOX_ROWS) -> go.Figure:
    """The messages on a reply queue in delivery order with the descriptor fields a report
    reader needs: MsgType, Feedback (MQFB_EXPIRATION), CorrelId (the original's MsgId by default,
    RPT-05), Expiry (MQEI_UNLIMITED unless RPT-07), Report, data length (RPT-04)."""
    return figure(report_inbox_spec(qm, queue, last))
