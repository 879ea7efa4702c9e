"""The queue workbench: one queue, a few plain controls, and the animated queue view.

It starts simple: choose the queue type and the profile, then put, get, browse, step through a
get, move the clock, undo, redo, reset. The advanced MQI options (report options, syncpoint,
locks, cursors, match options, waits) and the charts (timeline, depth, event log, replay) are one
click away in two collapsed sections, and the charts are only redrawn while they are open, so a
click costs the kernel little. Every control carries a stable CSS class (docs/views.md).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from mqlearn.engine.qmgr import PROFILES, QueueManager
from mqlearn.viz.gui import ControlPanel, QueueText, _bundle, prepare_queue_manager
from mqlearn.viz.model import WorkbenchModel
from mqlearn.viz.queue_view import QueueStage, QueueView

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from mqlearn.viz.charts import AllQueueCharts

QUEUE_TYPES = ("FIFO", "PRIORITY")
SPEEDS = {"slow ×½": 0.5, "normal": 1.0, "fast ×2": 2.0, "at once": 0.0}  # a walk's play speed
_FIELD = widgets.Layout(width="14em")
_NUMBER = widgets.Layout(width="10em")
_WRAP = widgets.Layout(flex_flow="row wrap", align_items="center")
_NARROW = {"description_width": "4.5em"}
_COLUMN_WIDE = "calc(100% - 4px)"  # a field of the advanced options: as wide as its column allows


def _column() -> widgets.Layout:
    """A column of the advanced options, a gutter on its right (the next column starts there)."""
    return widgets.Layout(min_width="0", flex="1 1 22em", padding="0 1em 0 0")


def _button(text: str, css: str, tooltip: str, primary: bool = False) -> widgets.Button:
    button = widgets.Button(
        description=text,
        tooltip=tooltip,
        button_style="primary" if primary else "",
        layout=widgets.Layout(width="auto", min_width="4.5em"),
    )
    button.add_class(css)
    return button


class Workbench(ControlPanel):
    """A queue workbench: put, get, browse, step, advance, undo and watch one queue.

    ``Workbench()`` makes its own queue manager QM1 with ``queue`` (MSGDLVSQ ``msgdlvsq``: FIFO
    first, as the introduction tells it) and ``reply_q``; given a ``qm``, it defines whichever of
    them is missing there, and shows an existing ``queue`` as it is defined unless ``msgdlvsq``
    says otherwise (then a ValueError). The queue type and profile controls (and Reset) start again on a new
    QM1. A get's result line waits until the view has played its walk to the end (the view
    reports it in ``finished``), so the outcome is not read before it is seen.
    """

    def __init__(
        self,
        qm: QueueManager | None = None,
        queue: str = "APP.IN",
        *,
        msgdlvsq: str | None = None,
        profile: str | None = None,
        reply_q: str | None = "REPLY.Q",
    ) -> None:
        if msgdlvsq is None:  # the queue's own type where it exists (a program's queue), else FIFO
            msgdlvsq = (
                qm.local(queue).msgdlvsq if qm is not None and queue in qm.objects else "FIFO"
            )
        self.queue_name, self.reply_q = queue, reply_q
        self.widget = widgets.VBox(layout=widgets.Layout(width="100%", max_width="1400px"))
        self.widget.add_class("mq-workbench")
        self.queue_view = QueueView()
        self.views: QueueText | None = None
        self._build(prepare_queue_manager(qm, profile, {queue: msgdlvsq}, reply_q))

    # -- building -----------------------------------------------------------------------------------
    def _build(self, qm: QueueManager) -> None:
        """(Re)build the model and every control for ``qm``: the vocabulary follows its profile."""
        self.model = WorkbenchModel(qm, self.queue_name, self.reply_q, undo=True)
        super().__init__([self.model])
        if self.views is not None:
            self.views.unfollow()  # the lines of the queue manager Reset replaced
        self.views = QueueText(self.model)
        self.summary, self.result = self.views.summary, self.views.result
        self._charts: AllQueueCharts | None = None  # built when first needed: it loads plotly
        self.stage = QueueStage(self.model, self.queue_view)
        self.views.follow(self.stage)

        self.queue_type = widgets.ToggleButtons(
            options=list(QUEUE_TYPES),
            value=self.model.msgdlvsq,
            description="Queue type",
            tooltips=[
                "MSGDLVSQ(FIFO): arrival order",
                "MSGDLVSQ(PRIORITY): priority, then arrival",
            ],
            style={"button_width": "6.5em"},
        )
        self.queue_type.add_class("mq-queue-type")
        self.profile = widgets.Dropdown(
            options=list(PROFILES),
            value=qm.profile,
            description="Profile",
            layout=widgets.Layout(width="16em"),  # "distributed" whole, beside its arrow
        )
        self.profile.add_class("mq-profile")
        self.queue_type.observe(self.guarded(lambda _c: self.reset()), names="value")
        self.profile.observe(self.guarded(lambda _c: self.reset()), names="value")
        self.reset_button = _button(
            f"Reset ({self.model.msgdlvsq}, {qm.profile})",
            "mq-reset",
            f"start again: an empty {self.model.msgdlvsq} queue on a new QM1 of profile "
            f"{qm.profile}",
        )
        self.reset_button.on_click(self.guarded(lambda _b: self.reset()))

        self.data.value = ""
        self.data.placeholder = "message data"
        for field, css, layout in (
            (self.data, "mq-data", _FIELD),
            (self.expiry, "mq-expiry", _NUMBER),
            (self.priority, "mq-priority", _NUMBER),
        ):
            field.add_class(css)
            field.layout = layout
            field.style = _NARROW
        self.browse_button = _button(
            "Browse", "mq-browse", "MQGET with MQGMO_BROWSE_NEXT: look without removing"
        )
        self.browse_button.on_click(self.guarded(lambda _b: self._get(browse="next")))
        self.step_button = _button(
            "Step ▸", "mq-step", "an MQGET shown one candidate at a time: click again for the next"
        )
        self.step_button.on_click(self.guarded(lambda _b: self._step()))
        self.step_back_button = _button(
            "◂ Back", "mq-step-back", "take back the last step shown of a get stepped by hand"
        )
        self.step_back_button.on_click(self.guarded(lambda _b: self._step_back()))
        self.speed = widgets.Dropdown(
            options=list(SPEEDS.items()),
            value=self.queue_view.speed,
            description="Speed",
            tooltip="how fast a get's walk plays",
            layout=widgets.Layout(width="11em"),
            style={"description_width": "3.5em"},
        )
        self.speed.add_class("mq-speed")
        self.speed.observe(self.guarded(self._on_speed), names="value")
        self.undo_button = _button("Undo", "mq-undo", "back to the state before the last action")
        self.undo_button.on_click(self.guarded(lambda _b: self._undo_redo(self.model.undo)))
        self.redo_button = _button("Redo", "mq-redo", "do the undone action again")
        self.redo_button.on_click(self.guarded(lambda _b: self._undo_redo(self.model.redo)))
        for button in self.advance_buttons:
            button.layout = widgets.Layout(width="auto", min_width="4.5em")

        self.more = widgets.Accordion(children=[self._advanced()], selected_index=None)
        self.more.set_title(
            0, "More MQI options: reports, syncpoint, groups, locks, cursor, match, wait"
        )
        self.more.add_class("mq-more-options")
        # filled when first opened: a page loads no plotly (kernel or browser side) before
        self.chart_box = widgets.VBox()
        self.charts = widgets.Accordion(children=[self.chart_box], selected_index=None)
        self.charts.set_title(0, "Charts, event log and replay")
        self.charts.add_class("mq-charts")
        self.charts.observe(self.guarded(self._on_charts), names="selected_index")
        self.widget.children = [
            widgets.HTML(
                f"<h3 style='margin: 0.2em 0'>Queue workbench: {html.escape(self.queue_name)} on "
                f"{html.escape(qm.name)}</h3>"
            ),
            widgets.HBox([self.queue_type, self.profile, self.reset_button], layout=_WRAP),
            self._simple(),
            self.result,
            self.queue_view,
            self.errors,
            self.more,
            self.charts,
        ]
        self._update_buttons()

    def _simple(self) -> widgets.Widget:
        put = widgets.HBox([self.data, self.expiry, self.priority, self.put_button], layout=_WRAP)
        act = widgets.HBox(
            [
                self.get_button,
                self.browse_button,
                self.step_back_button,
                self.step_button,
                self.speed,
                *self.advance_buttons,
            ],
            layout=_WRAP,
        )
        history = widgets.HBox([self.undo_button, self.redo_button], layout=_WRAP)
        return widgets.VBox([put, widgets.HBox([act, history], layout=_WRAP)])

    def _advanced(self) -> widgets.Widget:
        # wide enough for the longest option and description: none is cut off at 800 px, and
        # none reaches into the next column: a field is its column's width less its own margins
        # (ipywidgets' 2 px each side), and the columns keep a gutter between them
        for field, width in (
            (self.report, "30em"),
            (self.persistence, "30em"),
            (self.browse, "24em"),
            (self.wait, "16em"),
        ):  # as wide as its column allows, up to what its longest option needs
            field.layout = widgets.Layout(width=_COLUMN_WIDE, max_width=width)
            field.style = {"description_width": "initial"}
        for field, width in (
            (self.reply_to, "24em"),
            (self.match_msg_id, "24em"),
            (self.match_correl_id, "24em"),
            (self.group_id, "24em"),
            (self.msg_seq_number, "16em"),
            (self.offset, "16em"),
        ):
            field.layout = widgets.Layout(width=_COLUMN_WIDE, max_width=width)
        self.msg_flags.layout = widgets.Layout(width=_COLUMN_WIDE, max_width="34em")
        self.msg_flags.style = {"description_width": "initial"}
        put = widgets.VBox(
            [
                widgets.HTML("<b>MQPUT options</b>"),
                self.report,
                self.pass_expiry,
                self.reply_to,
                self.persistence,
                self.put_syncpoint,
                widgets.HTML("<b>Group or segment</b> (a version-2 MD)"),
                self.group_id,
                self.msg_seq_number,
                self.offset,
                self.msg_flags,
            ],
            layout=_column(),
        )
        get = widgets.VBox(
            [
                widgets.HTML("<b>MQGET options</b> (for MQGET and Step)"),
                self.browse,
                self.match_msg_id,
                self.match_correl_id,
                self.lock,
                self.under_cursor,
                self.get_syncpoint,
                self.wait,
                widgets.HBox([self.commit_button, self.backout_button]),
            ],
            layout=_column(),
        )
        # both columns start at the top: their headings side by side, not one half a column lower
        columns = widgets.Layout(flex_flow="row wrap", align_items="flex-start")
        return widgets.HBox([put, get], layout=columns)

    def _chart_widgets(self) -> list[widgets.Widget]:
        v = self.chart_views
        return [
            self.summary,
            widgets.HBox([self.play, self.play_step], layout=_WRAP),
            widgets.HBox([self.replay, self.live_button], layout=_WRAP),
            v.timeline.box,
            v.depth.box,
            v.inbox,
            v.events,
        ]

    # -- actions ------------------------------------------------------------------------------------
    def reset(self) -> None:
        """Start again: an empty queue of the chosen type on a new QM1 of the chosen profile."""
        qm = prepare_queue_manager(
            None, self.profile.value, {self.queue_name: self.queue_type.value}, self.reply_q
        )
        self._build(qm)
        self.stage.show(f"New {qm.name} (profile {qm.profile}), {self.model.msgdlvsq} queue")
        self.show_results(
            [
                f"Reset: an empty {self.model.msgdlvsq} queue {self.queue_name} on a new "
                f"{qm.name}, profile {qm.profile}"
            ]
        )

    def _get(self, browse: str | None = None, manual: bool = False) -> None:
        mode = browse or self.get_mode()
        cursor = self.model.handle.cursor_seq
        start_after = cursor if mode == "next" else None
        self._act(
            lambda: self.call_get(self.model, mode),
            action="browse" if mode else "get",
            manual=manual,
            start_after=start_after,
        )

    def _step(self) -> None:
        """One candidate of a get's walk per click; a new get when the last one is all shown."""
        if not self.stage.step():
            self._get(manual=True)
        self.lines.reveal_if_shown()  # the last step shown: the outcome too
        self._update_buttons()

    def _on_speed(self, change: dict[str, Any]) -> None:
        self.queue_view.speed = change["new"]

    def _step_back(self) -> None:
        """One step of a get's walk back (the picture only: Undo takes back the get itself)."""
        self.stage.step_back()
        self._update_buttons()

    def _act(
        self,
        *actions: Callable[[], str],
        action: str = "call",
        manual: bool = False,
        start_after: int | None = None,
    ) -> None:
        """Run the actions with the queue view told what was there before and what changed."""
        self.stage.before(start_after)
        lines = [a() for a in actions]
        self.stage.after(lines[0], action, manual)
        self._after(lines)

    def _undo_redo(self, move: Any) -> None:
        line = move()
        self.stage.show(line)
        self._after([line])

    def _after(self, lines: list[str]) -> None:
        super()._after(lines)
        self._update_buttons()

    def _update_buttons(self) -> None:
        self.undo_button.disabled = not self.model.can_undo
        self.redo_button.disabled = not self.model.can_redo
        self.step_back_button.disabled = not self.stage.can_step_back
        if self.stage.pending:  # the next click shows one more step of this get
            self.step_button.description = "Step ▸"
            self.step_button.tooltip = "show the next step of this MQGET's walk"
        else:  # the next click calls the MQI: say so, it removes a message
            self.step_button.description = "Step ▸ a new MQGET"
            self.step_button.tooltip = (
                "call a new (destructive) MQGET and show its walk one step per click"
            )

    def _on_charts(self, _change: dict[str, Any]) -> None:
        if self.charts.selected_index is not None:
            if not self.chart_box.children:
                self.chart_box.children = self._chart_widgets()
            self.chart_views.refresh(self._shown_at())

    # -- what it shows ------------------------------------------------------------------------------
    @property
    def lines(self) -> QueueText:
        """The summary and result lines of the queue on screen."""
        assert self.views is not None  # set by _build
        return self.views

    def show_results(self, lines: list[str]) -> None:
        """The result line; a get's or browse's waits for its walk, which the view plays."""
        self.lines.show_result(lines[0])

    def refresh(self, at_ms: int | None) -> None:
        """The summary line always; the queue view at a replayed time; charts only when open."""
        v = self.lines
        if at_ms is not None:
            now_s = self.model.now_ms / 1000
            line = f"Replay: the queue as it was at {at_ms / 1000:.1f} s (now {now_s:.1f} s)"
            self.stage.show(line, at_ms)
            v.show_result(line + "; Back to now returns to the present")
        elif not self.stage.view.state["scene"]["live"]:
            self.stage.show("Back to now")
            v.show_result(self.model.last_result)
        v.refresh(at_ms)
        if self.charts.selected_index is not None:
            self.chart_views.refresh(at_ms)

    def text(self) -> str:
        """The summary and the last result line, as plain text."""
        return "\n".join(filter(None, [self.lines.text(), self.model.last_result]))

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        return _bundle(self.widget, self.text(), **kwargs)

    def _shown_at(self) -> int | None:
        """The virtual time the views show: None when following the clock, else the replay's."""
        return None if self._following else round(self.replay.value * 1000)

    @property
    def chart_views(self) -> AllQueueCharts:
        """The charts, the event log and the report inbox (built, and plotly loaded, on first use)."""
        if self._charts is None:
            from mqlearn.viz.charts import AllQueueCharts

            self._charts = AllQueueCharts(self.model)
        return self._charts

    @property
    def event_log(self) -> widgets.HTML:
        """The event log table, drawn at the time shown."""
        return self._drawn().events

    @property
    def inbox(self) -> widgets.HTML:
        """The report inbox of the reply queue, drawn at the time shown."""
        return self._drawn().inbox

    def _drawn(self) -> AllQueueCharts:
        """The chart views brought up to date (the charts section may be closed)."""
        self.chart_views.refresh(self._shown_at())
        return self.chart_views

    @property
    def timeline(self) -> go.Figure:
        """The timeline figure, drawn at the time shown."""
        return self._drawn().timeline.figure

    @property
    def shelf(self) -> go.Figure:
        """The shelf figure (the chips' plotly twin), drawn at the time shown."""
        return self._drawn().shelf.figure

    @property
    def depth(self) -> go.Figure:
        """The depth figure, drawn at the time shown."""
        return self._drawn().depth.figure
