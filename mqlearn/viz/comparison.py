"""The FIFO/PRIORITY comparison: one control panel, two queues side by side (rules EXP-22, EXP-23)."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from mqlearn.engine.qmgr import QueueManager
from mqlearn.viz.charts import QueueCharts
from mqlearn.viz.gui import ControlPanel, QueueText, _bundle, prepare_queue_manager
from mqlearn.viz.model import WorkbenchModel
from mqlearn.viz.queue_view import QueueStage
from mqlearn.viz.times import MS_PER_S


class Comparison(ControlPanel):
    """One control panel driving a FIFO and a PRIORITY queue side by side: the same puts and
    gets, different discards (rules EXP-22 and EXP-23)."""

    def __init__(
        self,
        qm: QueueManager | None = None,
        *,
        fifo_queue: str = "FIFO.Q",
        priority_queue: str = "PRIORITY.Q",
        profile: str | None = None,
        reply_q: str | None = "REPLY.Q",
    ) -> None:
        qm = prepare_queue_manager(
            qm, profile, {fifo_queue: "FIFO", priority_queue: "PRIORITY"}, reply_q
        )
        self.fifo_model = WorkbenchModel(qm, fifo_queue, reply_q)
        self.priority_model = WorkbenchModel(qm, priority_queue, reply_q)
        super().__init__([self.fifo_model, self.priority_model])
        self.views = [QueueText(m) for m in self.models]
        self.charts = [QueueCharts(m) for m in self.models]
        self.summary = widgets.VBox([v.summary for v in self.views])  # each one mq-summary
        self.stages = [QueueStage(m) for m in self.models]
        columns = [
            widgets.VBox(
                [
                    widgets.HTML(f"<b>{html.escape(m.queue)} (MSGDLVSQ {m.msgdlvsq})</b>"),
                    v.result,
                    v.summary,
                    stage.view,
                    charts.timeline.box,
                ],
                layout=widgets.Layout(flex="1 1 380px", min_width="0"),
            )
            for m, v, stage, charts in zip(
                self.models, self.views, self.stages, self.charts, strict=True
            )
        ]
        self.widget = widgets.VBox(
            [
                widgets.HTML(
                    f"<h3>FIFO and PRIORITY side by side on {html.escape(qm.name)}: same puts, "
                    "same gets</h3>"
                ),
                self.controls(),
                self.errors,
                widgets.HBox(columns, layout=widgets.Layout(flex_flow="row wrap")),
            ]
        )
        self.widget.add_class("mq-comparison")

    def _act(self, *actions: Callable[[], str]) -> None:
        """Every action on both queues, each queue view playing the steps on its own queue."""
        for stage in self.stages:
            stage.before()
        lines = [action() for action in actions]
        for stage, line in zip(self.stages, lines, strict=True):
            stage.after(line, "call")
        self._after(lines)

    def show_results(self, lines: list[str]) -> None:
        for view, line in zip(self.views, lines, strict=True):
            view.show_result(line)

    def refresh(self, at_ms: int | None) -> None:
        for view, charts in zip(self.views, self.charts, strict=True):
            view.refresh(at_ms)
            charts.refresh(at_ms)
        if at_ms is not None:
            for stage in self.stages:
                stage.show(f"Replay: the queue as it was at {at_ms / MS_PER_S:.1f} s", at_ms)

    def text(self) -> str:
        return "\n".join(
            filter(
                None,
                (
                    t
                    for m, v in zip(self.models, self.views, strict=True)
                    for t in (v.text(), m.last_result)
                ),
            )
        )

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        return _bundle(self.widget, self.text(), **kwargs)
