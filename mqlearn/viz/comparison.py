"""The FIFO/PRIORITY comparison: one control panel, two queues side by side (rules EXP-22, EXP-23).

It works as the workbench does: the same simple controls with the same CSS classes (Data,
Expiry, Priority, MQPUT; MQGET, ◂ Back, Step ▸, Speed, the clock; Undo, Redo), the same names
(letters per queue manager, A … Z, AA …) and the same narration and pacing in each queue view.
Both queues step together: one Step ▸ shows one more step of each get, and both walks play at the
same pace. The two columns carry the classes ``mq-compare-fifo`` and ``mq-compare-priority``.

Undo and Redo re-run the panel's journal from the state it started with: both queues live on
one queue manager, so one snapshot (the queue manager, both handles and the labels) holds both,
and the engine is deterministic, so the state reached is exact.
"""

from __future__ import annotations

import html
import pickle
from typing import Any

import ipywidgets as widgets

from mqlearn.engine.qmgr import QueueManager
from mqlearn.viz.charts import QueueCharts
from mqlearn.viz.gui import ControlPanel, QueueText, _bundle, prepare_queue_manager
from mqlearn.viz.labels import attach, labels_for
from mqlearn.viz.model import WorkbenchModel
from mqlearn.viz.queue_view import QueueStage, QueueView
from mqlearn.viz.times import MS_PER_S
from mqlearn.viz.workbench import SPEEDS, _button

_WRAP = widgets.Layout(flex_flow="row wrap", align_items="center")
_FIELD = widgets.Layout(width="13em")
_NARROW = {"description_width": "4.5em"}


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
        self._start = self._snapshot()
        self._journal: list[tuple[str, dict[str, Any]]] = []
        self._done = 0  # journal entries that make the state shown
        self.views = [QueueText(m) for m in self.models]
        self.stages = [QueueStage(m, QueueView()) for m in self.models]
        for text, stage in zip(self.views, self.stages, strict=True):
            text.follow(stage)
        self.charts = [QueueCharts(m) for m in self.models]
        self.summary = widgets.VBox([v.summary for v in self.views])  # each one mq-summary
        self._build_controls()
        columns = []
        for m, v, stage in zip(self.models, self.views, self.stages, strict=True):
            column = widgets.VBox(
                [
                    widgets.HTML(
                        f"<b>{html.escape(m.queue)} (MSGDLVSQ {m.msgdlvsq})</b>",
                        layout=widgets.Layout(margin="0"),
                    ),
                    v.result,
                    stage.view,
                ],
                layout=widgets.Layout(flex="1 1 380px", min_width="0", margin="0 0.4em"),
            )
            column.add_class(f"mq-compare-{m.msgdlvsq.lower()}")
            columns.append(column)
        chart_box = widgets.VBox(
            [
                self.summary,
                widgets.HBox([self.replay, self.live_button], layout=_WRAP),
                widgets.HBox(
                    [c.timeline.box for c in self.charts],
                    layout=widgets.Layout(flex_flow="row wrap"),
                ),
            ]
        )
        self.chart_section = widgets.Accordion(children=[chart_box], selected_index=None)
        self.chart_section.set_title(0, "Summaries, timelines and replay")
        self.chart_section.add_class("mq-charts")
        self.chart_section.observe(self.guarded(lambda _c: self.refresh(None)), "selected_index")
        self.widget = widgets.VBox(
            [
                widgets.HTML(
                    f"<h3 style='margin: 0.2em 0'>FIFO and PRIORITY side by side on "
                    f"{html.escape(qm.name)}: same puts, same gets</h3>"
                ),
                self._toolbar(),
                self.more,
                self.errors,
                widgets.HBox(columns, layout=widgets.Layout(flex_flow="row wrap")),
                self.chart_section,
            ],
            layout=widgets.Layout(width="100%", max_width="1400px"),
        )
        self.widget.add_class("mq-comparison")
        self._update_buttons()

    # -- building ---------------------------------------------------------------------------------
    def _build_controls(self) -> None:
        self.data.value, self.data.placeholder = "", "message data"
        for field, css in ((self.data, "mq-data"), (self.expiry, "mq-expiry")):
            field.add_class(css)
        self.priority.add_class("mq-priority")
        for field in (self.data, self.expiry, self.priority):
            field.layout, field.style = _FIELD, _NARROW
        self.step_button = _button("Step ▸", "mq-step", "")
        self.step_button.on_click(self.guarded(lambda _b: self._step()))
        self.step_back_button = _button(
            "◂ Back", "mq-step-back", "take back the last step shown of both gets stepped by hand"
        )
        self.step_back_button.on_click(self.guarded(lambda _b: self._step_back()))
        self.speed = widgets.Dropdown(
            options=list(SPEEDS.items()),
            value=1.0,
            description="Speed",
            tooltip="how fast both walks play",
            layout=widgets.Layout(width="11em"),
            style={"description_width": "3.5em"},
        )
        self.speed.add_class("mq-speed")
        self.speed.observe(self.guarded(self._on_speed), names="value")
        self.undo_button = _button("Undo", "mq-undo", "back to the state before the last action")
        self.undo_button.on_click(self.guarded(lambda _b: self._undo()))
        self.redo_button = _button("Redo", "mq-redo", "do the undone action again")
        self.redo_button.on_click(self.guarded(lambda _b: self._redo()))
        for button in (self.put_button, self.get_button, *self.advance_buttons):
            button.layout = widgets.Layout(width="auto", min_width="4.5em")
        for field, width in ((self.report, "30em"), (self.browse, "24em")):  # nothing cut off
            field.layout = widgets.Layout(width="100%", max_width=width)
            field.style = {"description_width": "initial"}
        for field in (self.reply_to, self.match_msg_id, self.match_correl_id):
            field.layout = widgets.Layout(width="100%", max_width="24em")
        options = widgets.HBox(
            [
                widgets.VBox([widgets.HTML("<b>MQPUT options</b>"), self.report, self.reply_to]),
                widgets.VBox(
                    [
                        widgets.HTML("<b>MQGET options</b> (for MQGET and Step)"),
                        self.browse,
                        self.match_msg_id,
                        self.match_correl_id,
                    ]
                ),
            ],
            layout=_WRAP,
        )
        self.more = widgets.Accordion(children=[options], selected_index=None)
        self.more.set_title(0, "More MQI options: reports, browse, match")
        self.more.add_class("mq-more-options")

    def _toolbar(self) -> widgets.Widget:
        put = widgets.HBox([self.data, self.expiry, self.priority, self.put_button], layout=_WRAP)
        act = widgets.HBox(
            [
                self.get_button,
                self.step_back_button,
                self.step_button,
                self.speed,
                *self.advance_buttons,
                self.undo_button,
                self.redo_button,
            ],
            layout=_WRAP,
        )
        return widgets.VBox([put, act])

    # -- actions: each one journaled, so that Undo and Redo can move between states ---------------
    def _put(self) -> None:
        self._record(
            "put",
            {
                "data": self.data.value,
                "expiry": self.expiry.value,
                "priority": self.priority.value,
                "report": self.report.value,
                "reply_to_q": self.reply_to.value,
            },
        )

    def _get(self, manual: bool = False) -> None:
        self._record(
            "get",
            {
                "browse": self.get_mode(),
                "msg_id": self.match_msg_id.value,
                "correl_id": self.match_correl_id.value,
            },
            manual,
        )

    def _advance(self, ms: int) -> None:
        self._record("advance", {"ms": ms})

    def _record(self, action: str, kwargs: dict[str, Any], manual: bool = False) -> None:
        """Run a new action on both queues, the views playing its steps, and journal it."""
        del self._journal[self._done :]  # a new action forgets what could have been redone
        self._journal.append((action, kwargs))
        self._done += 1
        for stage in self.stages:
            stage.before()
        lines = self._run(action, kwargs)
        for stage, line in zip(self.stages, lines, strict=True):
            stage.after(line, "browse" if kwargs.get("browse") else action, manual)
        self._after(lines)

    def _run(self, action: str, kwargs: dict[str, Any]) -> list[str]:
        """One journaled action on both models: their result lines."""
        first, second = self.models
        if action == "put":
            lines = [first.put(**kwargs, label="auto")]
            lines.append(second.put(**kwargs, label=first.labels.last_letter))
            return lines
        if action == "get":
            return [self._call_get(m, **kwargs) for m in self.models]
        since = len(self.qm.events)
        return [first.advance(kwargs["ms"]), second.after_advance(kwargs["ms"], since)]

    @staticmethod
    def _call_get(model: WorkbenchModel, browse: str | None, msg_id: str, correl_id: str) -> str:
        try:
            return model.get(browse=browse, msg_id=msg_id or None, correl_id=correl_id or None)
        except ValueError as error:  # what the learner typed: say so, call nothing
            return f"MQGET not called: {error}"

    def _step(self) -> None:
        """One more step of each get shown by hand (both together); a new get on both when
        neither has a step left."""
        stepped = [stage.step() for stage in self.stages]
        if not any(stepped):
            self._get(manual=True)
        for text in self.views:
            text.reveal_if_shown()
        self._update_buttons()

    def _step_back(self) -> None:
        for stage in self.stages:
            stage.step_back()
        self._update_buttons()

    def _on_speed(self, change: dict[str, Any]) -> None:
        for stage in self.stages:
            stage.view.speed = change["new"]

    def _undo(self) -> None:
        if self._done == 0:
            return
        self._goto(self._done - 1, f"Undone: {self._journal[self._done - 1][0]}")

    def _redo(self) -> None:
        if self._done == len(self._journal):
            return
        self._goto(self._done + 1, f"Redone: {self._journal[self._done][0]}")

    def _goto(self, done: int, caption: str) -> None:
        """The state after the first ``done`` journaled actions: the start, then those again."""
        self._restore(self._start)
        for action, kwargs in self._journal[:done]:
            self._run(action, kwargs)
        self._done = done
        now_s = self.qm.sim.now / MS_PER_S
        lines = [
            f"{caption}. At {now_s:.1f} s, {m.queue} CURDEPTH {self.qm.curdepth(m.queue)}"
            for m in self.models
        ]
        for stage, line in zip(self.stages, lines, strict=True):
            stage.show(line)
        self._after(lines)

    def _snapshot(self) -> bytes:
        state = (self.qm, [m.handle for m in self.models], labels_for(self.qm))
        return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)

    def _restore(self, snapshot: bytes) -> None:
        qm, handles, labels = pickle.loads(snapshot)
        for model, handle in zip(self.models, handles, strict=True):
            model.qm, model.handle, model.last_result = qm, handle, ""
        attach(qm, labels)

    def _after(self, lines: list[str]) -> None:
        super()._after(lines)
        self._update_buttons()

    def _update_buttons(self) -> None:
        self.undo_button.disabled = self._done == 0
        self.redo_button.disabled = self._done == len(self._journal)
        self.step_back_button.disabled = not any(s.can_step_back for s in self.stages)
        if any(s.pending for s in self.stages):
            self.step_button.description = "Step ▸"
            self.step_button.tooltip = "show the next step of both gets' walks"
        else:
            self.step_button.description = "Step ▸ a new MQGET"
            self.step_button.tooltip = (
                "call a new (destructive) MQGET on both queues and show both walks one step "
                "per click"
            )

    # -- what it shows ----------------------------------------------------------------------------
    def show_results(self, lines: list[str]) -> None:
        for view, line in zip(self.views, lines, strict=True):
            view.show_result(line)

    def refresh(self, at_ms: int | None) -> None:
        charts_open = self.chart_section.selected_index is not None  # else not worth drawing
        for view, charts in zip(self.views, self.charts, strict=True):
            view.refresh(at_ms)
            if charts_open:
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
