"""The widgets' common parts: the control panel, the callback guard and the queue's text lines.

The widgets only compose: actions go to :class:`~mqlearn.viz.model.WorkbenchModel`, the queue is
drawn by :mod:`mqlearn.viz.queue_view`, and plotly charts live in :mod:`mqlearn.viz.charts`, which
this module does not import, so a widget without charts never loads plotly. Every widget also shows
its state as text (``.summary``) and puts that text in its ``text/plain`` output, so nbval, Voila
and static renders show something meaningful.

A callback that fails is not swallowed: its traceback is shown in the widget's error area
(``.errors``) and kept in ``.failures``.
"""

from __future__ import annotations

import traceback
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from mqlearn.engine.qmgr import QueueManager
from mqlearn.mqi import cmqc as C
from mqlearn.viz.group_boxes import flag_names
from mqlearn.viz.model import WorkbenchModel
from mqlearn.viz.names import EXPIRATION_REPORTS, PERSISTENCES, Vocabulary
from mqlearn.viz.text import summary
from mqlearn.viz.text_view import TextView
from mqlearn.viz.times import MS_PER_S

if TYPE_CHECKING:
    from mqlearn.viz.queue_view import QueueStage

QMGR_NAME = "QM1"
ADVANCE_STEPS_MS = (100, 1_000, 10_000)  # the clock buttons: +0.1 s, +1 s, +10 s
ADVANCE_CLASSES = {100: "mq-advance-100ms", 1_000: "mq-advance-1s", 10_000: "mq-advance-10s"}
PLAY_INTERVAL_MS = 1_000  # wall-clock ms between two ticks of the play button
PLAY_TICKS = 100_000  # the play button's range; it stops there
_WIDE = {"description_width": "initial"}
# MsgFlags a learner can put: none, a group member, a segment, a segment of a group member
_IN, _LAST = C.MQMF_MSG_IN_GROUP, C.MQMF_LAST_MSG_IN_GROUP
MSG_FLAG_CHOICES = (
    C.MQMF_NONE,
    _IN,
    _LAST,
    C.MQMF_SEGMENT,
    C.MQMF_LAST_SEGMENT,
    _IN | C.MQMF_SEGMENT,
    _IN | C.MQMF_LAST_SEGMENT,
    _LAST | C.MQMF_SEGMENT,
    _LAST | C.MQMF_LAST_SEGMENT,
)


def prepare_queue_manager(
    qm: QueueManager | None, profile: str | None, queues: dict[str, str], reply_q: str | None
) -> QueueManager:
    """The queue manager a widget works on: ``qm``, or a new one named QM1 with ``profile``.

    Local queues in ``queues`` (name → MSGDLVSQ) and ``reply_q`` are defined if missing; an
    existing queue with another MSGDLVSQ, or a ``profile`` other than ``qm``'s, is a ValueError.
    """
    if qm is None:
        qm = QueueManager(QMGR_NAME, profile=profile or "distributed")
    elif profile is not None and profile != qm.profile:
        raise ValueError(f"profile {profile!r} given, but {qm.name} has profile {qm.profile!r}")
    wanted: dict[str, str | None] = {**queues}
    if reply_q is not None:
        wanted.setdefault(reply_q, None)
    for name, msgdlvsq in wanted.items():
        if name not in qm.objects:
            qm.define_qlocal(name, msgdlvsq=msgdlvsq or "PRIORITY")
        elif msgdlvsq is not None and qm.local(name).msgdlvsq != msgdlvsq:
            raise ValueError(
                f"{name} exists with MSGDLVSQ({qm.local(name).msgdlvsq}), not {msgdlvsq}"
            )
    return qm


class _Guarded:
    """Runs widget callbacks so that a failure shows up in ``.errors`` and ``.failures``."""

    def __init__(self) -> None:
        self.errors = widgets.Output(layout=widgets.Layout(max_height="12em", overflow="auto"))
        self.errors.add_class("mq-errors")
        self.failures: list[str] = []

    def guarded(self, callback: Callable[..., None]) -> Callable[..., None]:
        def run(*args: Any) -> None:
            try:
                callback(*args)
            except Exception:
                text = traceback.format_exc()
                self.failures.append(text)
                self.errors.append_stderr(text)

        return run

    def clock_buttons(self, advance: Callable[[int], None]) -> list[widgets.Button]:
        """The +0.1 s / +1 s / +10 s buttons, each calling ``advance(ms)``."""
        buttons = []
        for ms in ADVANCE_STEPS_MS:
            button = widgets.Button(
                description=f"+{ms / MS_PER_S:g} s",
                tooltip=f"advance the virtual clock by {ms / MS_PER_S:g} s",
                layout=widgets.Layout(width="5.5em"),
            )
            button.add_class(ADVANCE_CLASSES[ms])
            button.on_click(self.guarded(lambda _b, ms=ms: advance(ms)))
            buttons.append(button)
        return buttons


class ControlPanel(_Guarded, ABC):
    """Put, get, clock, unit-of-work and replay controls driving one or more models alike.

    Subclasses draw the views in :meth:`refresh`; ``at_ms`` is None when showing the present.
    """

    def __init__(self, models: Sequence[WorkbenchModel]) -> None:
        super().__init__()
        self.models = list(models)
        first = self.models[0]
        if any(m.qm.sim is not first.qm.sim for m in self.models):
            raise ValueError("the models of one control panel must share one clock (Simulation)")
        v = self.vocab = Vocabulary(self.qm.profile)
        self._following = True  # the replay slider follows the clock
        self._moving_slider = False

        # put panel
        self.data = widgets.Text(value="hello", description="Data", style=_WIDE)
        self.expiry = widgets.IntText(
            value=100,
            description=v.name("Expiry"),
            tooltip=f"tenths of a second; -1 = {v.name('MQEI_UNLIMITED')}",
        )
        self.priority = widgets.IntText(
            value=0, description=v.name("Priority"), tooltip="0-9; -1 = the queue's DEFPRTY"
        )
        self.report = widgets.Dropdown(
            options=[(v.name("MQRO_NONE"), C.MQRO_NONE)]
            + [(v.name(n), getattr(C, n)) for n in EXPIRATION_REPORTS],
            value=C.MQRO_NONE,
            description=v.name("Report"),
        )
        self.pass_expiry = widgets.Checkbox(
            value=False, description=v.name("MQRO_PASS_DISCARD_AND_EXPIRY"), style=_WIDE
        )
        self.reply_to = widgets.Text(
            value=first.reply_q or "", description=v.name("ReplyToQ"), style=_WIDE
        )
        self.persistence = widgets.Dropdown(
            options=[(v.name(n), getattr(C, n)) for n in PERSISTENCES],
            value=C.MQPER_PERSISTENCE_AS_Q_DEF,
            description=v.name("Persistence"),
        )
        self.put_syncpoint = widgets.Checkbox(
            value=False, description=v.name("MQPMO_SYNCPOINT"), style=_WIDE
        )
        # a version-2 MD's group fields (blank GroupId and these initial values: a plain message)
        self.group_id = widgets.Text(
            value="",
            description=v.name("GroupId"),
            placeholder=f"blank: {v.name('MQGI_NONE')}",
            tooltip="up to 24 characters, padded with nulls",
            style=_WIDE,
        )
        self.msg_seq_number = widgets.BoundedIntText(
            value=1, min=1, max=999_999_999, description=v.name("MsgSeqNumber"), style=_WIDE
        )
        self.offset = widgets.BoundedIntText(
            value=0, min=0, max=999_999_999, description=v.name("Offset"), style=_WIDE
        )
        self.msg_flags = widgets.Dropdown(
            options=[(flag_names(f, v), f) for f in MSG_FLAG_CHOICES],
            value=C.MQMF_NONE,
            description=v.name("MsgFlags"),
        )
        for field, css in (
            (self.group_id, "mq-group-id"),
            (self.msg_seq_number, "mq-msg-seq-number"),
            (self.offset, "mq-offset"),
            (self.msg_flags, "mq-msg-flags"),
        ):
            field.add_class(css)
        self.put_button = widgets.Button(
            description="MQPUT", button_style="primary", tooltip="put one message"
        )
        self.put_button.add_class("mq-put")
        self.put_button.on_click(self.guarded(lambda _b: self._put()))

        # get panel
        self.browse = widgets.Dropdown(
            options=[
                ("MQGET (destructive)", "get"),
                (v.name("MQGMO_BROWSE_FIRST"), "first"),
                (v.name("MQGMO_BROWSE_NEXT"), "next"),
            ],
            value="get",  # a visible default (None would show an empty dropdown)
            description="Get mode",
        )
        self.match_msg_id = widgets.Text(
            description=f"match {v.name('MsgId')}",
            placeholder="QM1#3 or 48 hex digits",
            style=_WIDE,
        )
        self.match_correl_id = widgets.Text(
            description=f"match {v.name('CorrelId')}",
            placeholder="QM1#3 or 48 hex digits",
            style=_WIDE,
        )
        self.lock = widgets.Checkbox(value=False, description=v.name("MQGMO_LOCK"), style=_WIDE)
        self.under_cursor = widgets.Checkbox(
            value=False, description=v.name("MQGMO_MSG_UNDER_CURSOR"), style=_WIDE
        )
        self.get_syncpoint = widgets.Checkbox(
            value=False, description=v.name("MQGMO_SYNCPOINT"), style=_WIDE
        )
        self.wait = widgets.IntText(
            value=0,
            description=f"{v.name('MQGMO_WAIT')} (ms)",
            style=_WIDE,
            tooltip="0 = no wait",
        )
        self.get_button = widgets.Button(
            description="MQGET", button_style="primary", tooltip="get or browse one message"
        )
        self.get_button.add_class("mq-get")
        self.get_button.on_click(self.guarded(lambda _b: self._get()))

        # clock, unit of work, replay
        self.advance_buttons = self.clock_buttons(self._advance)
        self.play = widgets.Play(
            value=0,
            min=0,
            max=PLAY_TICKS,
            step=1,
            interval=PLAY_INTERVAL_MS,
            description="Play",
            tooltip="advance the clock one play step per second",
        )
        self.play.add_class("mq-play")
        self.play.observe(self.guarded(self._on_play), names="value")
        self.play_step = widgets.Dropdown(
            options=[(f"{ms / MS_PER_S:g} s per tick", ms) for ms in ADVANCE_STEPS_MS],
            value=1_000,
            description="Play step",
        )
        self.commit_button = widgets.Button(description="MQCMIT", tooltip="commit the unit of work")
        self.commit_button.on_click(self.guarded(lambda _b: self._act(self.models[0].commit)))
        self.backout_button = widgets.Button(
            description="MQBACK", tooltip="back out the unit of work"
        )
        self.backout_button.on_click(self.guarded(lambda _b: self._act(self.models[0].backout)))
        self.replay = widgets.FloatSlider(
            value=0.0,
            min=0.0,
            max=0.0,
            step=0.1,
            description="Replay t (s)",
            readout_format=".1f",
            continuous_update=False,
            style=_WIDE,
        )
        self.replay.add_class("mq-replay")
        self.replay.observe(self.guarded(self._on_replay), names="value")
        self.live_button = widgets.Button(description="Back to now", tooltip="stop replaying")
        self.live_button.add_class("mq-live")
        self.live_button.on_click(self.guarded(lambda _b: self._go_live()))

    @property
    def qm(self) -> QueueManager:
        """The queue manager the controls drive (an undo may have replaced it)."""
        return self.models[0].qm

    # -- the controls as boxes --------------------------------------------------------------------
    def controls(self) -> widgets.Widget:
        put_box = widgets.VBox(
            [
                widgets.HTML("<b>Put</b>"),
                self.data,
                self.expiry,
                self.priority,
                self.report,
                self.pass_expiry,
                self.reply_to,
                self.persistence,
                self.put_syncpoint,
                self.put_button,
            ]
        )
        get_box = widgets.VBox(
            [
                widgets.HTML("<b>Get / browse</b>"),
                self.browse,
                self.match_msg_id,
                self.match_correl_id,
                self.lock,
                self.under_cursor,
                self.get_syncpoint,
                self.wait,
                self.get_button,
                widgets.HBox([self.commit_button, self.backout_button]),
            ]
        )
        clock_box = widgets.VBox(
            [
                widgets.HTML("<b>Clock</b>"),
                widgets.HBox(self.advance_buttons),
                widgets.HBox([self.play, self.play_step]),
                widgets.HBox([self.replay, self.live_button]),
            ]
        )
        # the columns wrap rather than overlap when the page is narrow (JupyterLab with its
        # file browser open, 800 px screens)
        return widgets.HBox(
            [put_box, get_box, clock_box], layout=widgets.Layout(flex_flow="row wrap")
        )

    # -- actions ----------------------------------------------------------------------------------
    def _put(self) -> None:
        """MQPUT on every model; the copies of one click share the first one's letter."""
        report = self.report.value | (
            C.MQRO_PASS_DISCARD_AND_EXPIRY if self.pass_expiry.value else 0
        )
        first = self.models[0]

        def put(model: WorkbenchModel) -> str:
            return model.put(
                data=self.data.value,
                expiry=self.expiry.value,
                priority=self.priority.value,
                report=report,
                reply_to_q=self.reply_to.value,
                persistence=self.persistence.value,
                syncpoint=self.put_syncpoint.value,
                label="auto" if model is first else first.labels.last_letter,
                group_id=self.group_id.value.encode("utf-8") or None,
                msg_seq_number=self.msg_seq_number.value,
                offset=self.offset.value,
                msg_flags=self.msg_flags.value,
            )

        self._act(*(lambda m=m: put(m) for m in self.models))

    def _get(self) -> None:
        mode = self.get_mode()
        self._act(*(lambda m=m: self.call_get(m, mode) for m in self.models))

    def get_mode(self) -> str | None:
        """The Get mode dropdown as ``WorkbenchModel.get``'s ``browse`` (None: destructive)."""
        mode: str | None = self.browse.value
        return None if mode == "get" else mode

    def call_get(self, model: WorkbenchModel, browse: str | None) -> str:
        """MQGET on ``model`` with the get panel's options; a bad match field is said, not raised."""
        try:
            return model.get(
                browse=browse,
                msg_id=self.match_msg_id.value or None,
                correl_id=self.match_correl_id.value or None,
                lock=self.lock.value,
                under_cursor=self.under_cursor.value,
                syncpoint=self.get_syncpoint.value,
                wait_ms=self.wait.value,
            )
        except ValueError as error:  # what the learner typed: say so, call nothing
            return f"MQGET not called: {error}"

    def _advance(self, ms: int) -> None:
        first, *others = self.models
        since = len(self.qm.events)
        self._act(  # one clock: advanced once, by the first model
            lambda: first.advance(ms), *(lambda m=m: m.after_advance(ms, since) for m in others)
        )

    def _act(self, *actions: Callable[[], str]) -> None:
        self._after([action() for action in actions])

    def _after(self, lines: list[str]) -> None:
        self._following = True
        self._move_slider()
        self.show_results(lines)
        self.refresh(None)

    def _on_play(self, change: dict[str, Any]) -> None:
        ticks = change["new"] - change["old"]
        if ticks > 0:  # the play button jumps back to 0 when it is reset: not time travel
            self._advance(ticks * self.play_step.value)

    def _on_replay(self, change: dict[str, Any]) -> None:
        if self._moving_slider:
            return
        at_ms = round(change["new"] * MS_PER_S)
        self._following = at_ms >= self.qm.sim.now
        self.refresh(None if self._following else at_ms)

    def _go_live(self) -> None:
        self._following = True
        self._move_slider()
        self.refresh(None)

    def _move_slider(self) -> None:
        """Stretch the replay slider to now and, when following the clock, move it there."""
        self._moving_slider = True
        try:
            now_s = self.qm.sim.now / MS_PER_S
            self.replay.max = now_s
            if self._following:
                self.replay.value = now_s
        finally:
            self._moving_slider = False

    def replay_at(self, seconds: float) -> None:
        """Show the state at ``seconds`` of virtual time, as moving the replay slider does."""
        self.replay.value = seconds

    # -- what the composed widgets draw -----------------------------------------------------------
    @abstractmethod
    def show_results(self, lines: list[str]) -> None:
        """Show the result lines of one action, one per model."""

    @abstractmethod
    def refresh(self, at_ms: int | None) -> None:
        """Redraw the views at ``at_ms`` (None: now)."""


class QueueText:
    """The two text lines of one queue every widget shows: its summary and the last result.

    Following a :class:`QueueStage` (:meth:`follow`), the result of a get or browse waits until
    the stage's view reports its walk played to the end: the line reveals the outcome when the
    walk reaches it, not before (Visualgo's pacing).
    """

    def __init__(self, model: WorkbenchModel) -> None:
        self.model = model
        self.summary = TextView(summary(model.qm, model.queue))
        self.summary.add_class("mq-summary")
        self.result = TextView("(no call yet)")
        self.result.add_class("mq-result")
        self._stage: QueueStage | None = None
        self._held: tuple[int, str] | None = None  # (transition n, the line it hides yet)

    def follow(self, stage: QueueStage) -> None:
        """Hold each walk's result line until ``stage``'s view has played the walk."""
        self._stage = stage
        stage.view.observe(self._on_finished, names="finished")

    def unfollow(self) -> None:
        if self._stage is not None:
            self._stage.view.unobserve(self._on_finished, names="finished")
            self._stage = None

    def refresh(self, at_ms: int | None) -> None:
        """The summary at ``at_ms`` (None: now)."""
        self.summary.value = summary(self.model.qm, self.model.queue, at_ms)

    def show_result(self, line: str) -> None:
        stage = self._stage
        t = stage.transition if stage is not None else None
        if (
            stage is not None
            and t is not None
            and any(s["op"] == "stop" for s in t["steps"])
            and stage.walking
            and stage.view.speed > 0
        ):
            self._held = (t["n"], line)
            verb = "Browse" if t["action"] == "browse" else "MQGET"
            self.result.value = (
                f"{verb} on {self.model.queue}: follow its walk in the view below; the outcome "
                "shows here when the walk reaches it"
            )
            return
        self._held = None
        self.result.value = line

    def reveal_if_shown(self) -> None:
        """A walk stepped by hand to its last step: its outcome now."""
        stage = self._stage
        t = stage.transition if stage is not None else None
        if stage is not None and t is not None and not stage.pending:
            self._on_finished({"new": t["n"]})

    def _on_finished(self, change: dict[str, Any]) -> None:
        if self._held is not None and change["new"] == self._held[0]:
            self.result.value = self._held[1]
            self._held = None

    def text(self) -> str:
        return summary(self.model.qm, self.model.queue)


def _bundle(box: widgets.Widget, text: str, **kwargs: Any) -> dict[str, Any]:
    """The widget's display data with the text summary as its ``text/plain``."""
    data: dict[str, Any] = box._repr_mimebundle_(**kwargs) or {}
    data["text/plain"] = text
    return data
