"""plotly charts inside widgets: the queue's timeline, shelf and depth, the event log, the report
inbox, and the MQXQH inspector.

Each figure is redrawn from its new spec after an action, and only when the spec changed
(:class:`LiveFigure` says why it is not a ``go.FigureWidget``). Importing this module loads plotly;
the workbench imports it when its charts section is first opened.
"""

from __future__ import annotations

import html
import json
from typing import Any

import ipywidgets as widgets

from mqlearn.engine.qmgr import QueueManager
from mqlearn.viz import figures
from mqlearn.viz.gui import _bundle, _Guarded
from mqlearn.viz.model import WorkbenchModel
from mqlearn.viz.plotly_setup import go, to_json_plotly
from mqlearn.viz.spec import Spec
from mqlearn.viz.text import xqh_summary
from mqlearn.viz.text_view import TextView


def same(a: Any, b: Any) -> bool:
    """Deep equality for spec values (series are lists; a gap in a line is None, equal to None)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        if len(a) != len(b):
            return False
        scalar = (str, int, float)
        if all(isinstance(x, scalar) for x in a) and all(isinstance(y, scalar) for y in b):
            return list(a) == list(b)  # table columns: compared at once
        return all(same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and bool(a == b)


class LiveFigure:
    """A plotly figure in an ``ipywidgets.Output``, redrawn from each new spec that differs.

    Not a ``go.FigureWidget``, on purpose: in plotly 7 a FigureWidget is an anywidget that loads
    its own copy of plotly.js (about 5 MB) per figure, and anywidget's front end gives a widget 2 s
    to initialise and then ignores its updates for good (a fixed timeout in anywidget 0.9 to 0.11).
    Measured here, one load took about 6 s under Voila, so the workbench's figures froze after
    their first draw. An Output shows the figure through the page's plotly renderer (the
    ``application/vnd.plotly.v1+json`` mime type), which loads plotly.js once per page.
    """

    def __init__(self, spec: Spec, css_class: str) -> None:
        self.box = widgets.Output(layout=widgets.Layout(width="100%"))
        self.box.add_class(css_class)
        self._shown = spec
        self._send(spec)

    @property
    def figure(self) -> go.Figure:
        """The figure shown now, as a ``go.Figure`` (built on request: drawing does not need one)."""
        return go.Figure(data=self._shown.traces, layout=self._shown.layout)

    def show(self, spec: Spec) -> None:
        """Redraw from ``spec``; a spec equal to the one shown sends nothing."""
        shown = self._shown
        if len(spec.traces) != len(shown.traces):
            raise ValueError(
                f"a view must keep its traces: {len(shown.traces)} shown, {len(spec.traces)} given"
            )
        if same(spec.traces, shown.traces) and same(spec.layout, shown.layout):
            return
        self._shown = spec
        self._send(spec)

    def _send(self, spec: Spec) -> None:
        # The spec is serialised as it is: figures.py builds it from plotly's own attribute names
        # and tests check it through go.Figure, so validating it again here would only cost time.
        plotly_json = json.loads(to_json_plotly({"data": spec.traces, "layout": spec.layout}))
        title = spec.layout.get("title", {})
        text = title.get("text", "figure") if isinstance(title, dict) else str(title)
        bundle = {"application/vnd.plotly.v1+json": plotly_json, "text/plain": f"<{text}>"}
        self.box.outputs = ({"output_type": "display_data", "data": bundle, "metadata": {}},)


def html_table(spec: Spec) -> str:
    """A table spec (``figures.event_table_spec``, ``report_inbox_spec``) as an HTML table:
    plain text in the page, for readers, browser tests and static renders alike, and far
    lighter for a widget than a plotly table."""
    table = spec.traces[0]
    header = "".join(f"<th>{html.escape(str(h))}</th>" for h in table["header"]["values"])
    rows = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(cell))}</td>" for cell in row) + "</tr>"
        for row in zip(*table["cells"]["values"], strict=True)
    )
    title = html.escape(spec.layout["title"]["text"])
    return (
        f"<div style='max-height: {figures.HEIGHT}px; overflow: auto; font-size: 12px'>"
        f"<b>{title}</b><table style='border-collapse: collapse'><thead><tr>{header}</tr>"
        f"</thead><tbody>{rows}</tbody></table></div>"
    )


class QueueCharts:
    """The plotly charts of one queue: its timeline and its shelf."""

    def __init__(self, model: WorkbenchModel) -> None:
        self.model = model
        qm, queue = model.qm, model.queue
        self.timeline = LiveFigure(figures.timeline_spec(qm, queue), "mq-timeline")
        self.shelf = LiveFigure(figures.shelf_spec(qm, queue), "mq-shelf")

    def refresh(self, at_ms: int | None) -> None:
        """Redraw every chart at ``at_ms`` (None: now)."""
        qm, queue = self.model.qm, self.model.queue
        self.timeline.show(figures.timeline_spec(qm, queue, at_ms))
        self.shelf.show(figures.shelf_spec(qm, queue, at_ms))


class AllQueueCharts(QueueCharts):
    """:class:`QueueCharts` plus the depth chart, the event log and the report inbox."""

    def __init__(self, model: WorkbenchModel) -> None:
        super().__init__(model)
        qm, queue = model.qm, model.queue
        self.depth = LiveFigure(figures.depth_spec(qm, queue), "mq-depth")
        self.events = widgets.HTML(html_table(figures.event_table_spec(qm)))
        self.events.add_class("mq-eventlog")
        self.inbox = widgets.HTML()
        self.inbox.add_class("mq-inbox")
        self._show_inbox()

    def refresh(self, at_ms: int | None) -> None:
        super().refresh(at_ms)
        qm = self.model.qm
        self.depth.show(figures.depth_spec(qm, self.model.queue, at_ms))
        self.events.value = html_table(figures.event_table_spec(qm, at_ms=at_ms))
        self._show_inbox()

    def _show_inbox(self) -> None:
        reply_q = self.model.reply_q
        self.inbox.layout.display = "none" if reply_q is None else None
        if reply_q is not None:
            self.inbox.value = html_table(figures.report_inbox_spec(self.model.qm, reply_q))


class XqhInspector(_Guarded):
    """The two Expiry fields of every message on a transmission queue, with clock buttons to
    watch them count down (rules XQH-03..05)."""

    def __init__(self, qm: QueueManager, xmitq: str) -> None:
        super().__init__()
        self.qm = qm
        self.xmitq = xmitq
        self.view = LiveFigure(figures.xqh_inspector_spec(qm, xmitq), "mq-xqh")
        self.summary = TextView(xqh_summary(qm, xmitq))
        self.summary.add_class("mq-summary")
        self.advance_buttons = self.clock_buttons(self._advance)
        self.widget = widgets.VBox(
            [widgets.HBox(self.advance_buttons), self.summary, self.errors, self.view.box]
        )
        self.widget.add_class("mq-xqh-inspector")

    @property
    def figure(self) -> go.Figure:
        """The inspector figure shown now."""
        return self.view.figure

    def _advance(self, ms: int) -> None:
        self.qm.sim.advance(ms=ms)
        self.refresh()

    def refresh(self) -> None:
        self.summary.value = xqh_summary(self.qm, self.xmitq)
        self.view.show(figures.xqh_inspector_spec(self.qm, self.xmitq))

    def text(self) -> str:
        return xqh_summary(self.qm, self.xmitq)

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        return _bundle(self.widget, self.text(), **kwargs)
