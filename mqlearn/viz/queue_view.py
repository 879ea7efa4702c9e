"""The animated queue view: an anywidget whose ES module and CSS ship inside the package.

No CDN, no bundler, no build step: ``static/views.js`` is a few hundred lines of plain
JavaScript that draws the scene of :mod:`mqlearn.viz.scene` as chips and plays each transition's
steps on them (a get walking the queue, discards falling into the tray, a report flying to the
reply queue), honouring ``prefers-reduced-motion``. :class:`QueueStage` decides what to send,
so every picture can be checked without a browser.
"""

from __future__ import annotations

from importlib.resources import files
from typing import TYPE_CHECKING, Any

import anywidget
import traitlets

from mqlearn.viz.group_boxes import with_detail
from mqlearn.viz.names import Vocabulary
from mqlearn.viz.rule_cards import rule_cards
from mqlearn.viz.scene import TRAY_SIZE, chip, chips_in_order, narrate, queue_scene, steps

if TYPE_CHECKING:
    from mqlearn.viz.model import WorkbenchModel

_STATIC = files("mqlearn.viz").joinpath("static")
ESM = _STATIC.joinpath("views.js").read_text(encoding="utf-8")  # both views, one module
CSS = _STATIC.joinpath("views.css").read_text(encoding="utf-8")


class QueueView(anywidget.AnyWidget):
    """The chips of one queue. ``state`` = {"scene", "transition"}; ``shown`` = steps of a
    transition revealed so far when the learner steps through it by hand; ``speed`` scales how
    fast a walk plays (2 = twice as fast, 0 = at once, as under reduced motion)."""

    _esm = ESM
    _css = CSS
    view = traitlets.Unicode("queue").tag(sync=True)
    state = traitlets.Dict().tag(sync=True)
    shown = traitlets.Int(0).tag(sync=True)
    speed = traitlets.Float(1.0, min=0.0).tag(sync=True)
    # set by the browser: the number (``n``) of the last transition whose walk reached its end
    finished = traitlets.Int(0).tag(sync=True)


class QueueStage:
    """What a :class:`QueueView` shows of a :class:`WorkbenchModel`, action after action.

    Call :meth:`before` ahead of an action and :meth:`after` once it is done: the view gets the
    new scene and the steps between the two. ``manual`` transitions wait for :meth:`step`, and
    :meth:`step_back` takes a step back (Visualgo's step forward and back).
    """

    def __init__(self, model: WorkbenchModel, view: QueueView | None = None) -> None:
        self.model = model
        self.view = view if view is not None else QueueView()
        self._count = 0  # transitions sent (the view plays each new one once)
        self._before: dict[str, Any] | None = None
        self._since = 0
        self._start_after: int | None = None
        self.view.state = {"scene": self.scene(), "transition": None}

    @property
    def transition(self) -> dict[str, Any] | None:
        found: dict[str, Any] | None = self.view.state.get("transition")
        return found

    @property
    def pending(self) -> bool:
        """A transition is waiting for more Step clicks."""
        t = self.transition
        return t is not None and bool(t["manual"]) and self.view.shown < len(t["steps"])

    def scene(self, at_ms: int | None = None) -> dict[str, Any]:
        m = self.model
        return queue_scene(
            m.qm,
            m.queue,
            m.labels,
            at_ms=at_ms,
            tray=self._tray(at_ms),
            reply_q=m.reply_q,
            cursor=m.handle.cursor_seq,
        )

    def _tray(self, at_ms: int | None) -> list[dict[str, Any]]:
        """The latest discarded messages of the queue, from the log (so undo restores it)."""
        m = self.model
        vocab = Vocabulary(m.qm.profile)
        found: list[dict[str, Any]] = []
        for e in reversed(m.qm.events):
            if at_ms is not None and e.time_ms > at_ms:
                continue
            if e.kind == "discard" and e.queue == m.queue and e.msg_seq is not None:
                label = m.labels.of(e.msg_seq, e.msg_id)
                gone = chip(e.msg_seq, label, 0, e.priority or 0, None, 0, "discarded")
                found.append(
                    with_detail({**gone, "expiry": 0}, m.labels.group_of(e.msg_seq), vocab)
                )
                if len(found) == TRAY_SIZE:
                    break
        found.reverse()
        return found

    def before(self, start_after: int | None = None) -> None:
        """Remember the scene before an action (``start_after``: where a browse-next starts)."""
        self._before = self.view.state.get("scene") or self.scene()
        self._since = len(self.model.qm.events)
        self._start_after = start_after

    def after(self, caption: str, action: str, manual: bool = False) -> None:
        """Send the new scene and the steps that led to it (``manual``: one per Step)."""
        m = self.model
        before = self._before if self._before is not None else self.scene()
        events = m.qm.events[self._since :]
        m.labels.fold(m.qm.events)
        played = steps(before, events, m.queue, m.labels, self._start_after)
        scene = self.scene()
        self._count += 1
        summary = f"{self._count}. {narrate(played) or caption}"
        transition = {
            "n": self._count,
            "action": action,
            "caption": caption,
            # numbered, so a repeat still shows; the caption when no step says more
            "summary": summary,
            "manual": manual,
            # a walk can be stepped back or scrubbed: the view redraws this and replays up to there
            "before": before if played else None,
            "steps": played,
            "entering": [s["id"] for s in played if s["op"] == "put" and s["queue"] == m.queue],
            "got": _got(before, played),
            "stop_mark": _stop_mark(before, scene, played),
            # the cards of the rules the narration cites (step by step, or in the summary)
            "rules": rule_cards(summary, *(str(s.get("rule", "")) for s in played)),
        }
        with self.view.hold_sync():
            self.view.shown = 1 if manual else len(played)
            self.view.state = {"scene": scene, "transition": transition}
        self._before = None

    def show(self, caption: str, at_ms: int | None = None) -> None:
        """Draw the queue at ``at_ms`` (None: now) with no steps (undo, redo, replay, reset)."""
        self._count += 1
        transition = {
            "n": self._count,
            "action": "show",
            "caption": caption,
            "summary": caption,
            "manual": False,
            "before": None,
            "steps": [],
            "entering": [],
            "got": None,
            "stop_mark": None,
            "rules": rule_cards(caption),
        }
        with self.view.hold_sync():
            self.view.shown = 0
            self.view.state = {"scene": self.scene(at_ms), "transition": transition}

    @property
    def walking(self) -> bool:
        """The transition on screen has steps the view has not yet reported played to the end
        (the result line waits for them: it reveals the outcome when the walk reaches it)."""
        t = self.transition
        return t is not None and bool(t["steps"]) and self.view.finished != t["n"]

    def step(self) -> bool:
        """Reveal one more step of a manual transition; False when none is waiting."""
        if not self.pending:
            return False
        self.view.shown += 1
        return True

    @property
    def can_step_back(self) -> bool:
        """A walk shown by hand has a step on screen that :meth:`step_back` can take back."""
        t = self.transition
        return t is not None and bool(t["manual"]) and self.view.shown > 0

    def step_back(self) -> bool:
        """Take back the last step shown of a manual transition; False when there is none.

        Only the picture goes back: the MQGET itself has run (an MQI call is atomic), which is
        what Undo takes back."""
        if not self.can_step_back:
            return False
        self.view.shown -= 1
        return True


def _got(before: dict[str, Any], played: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The chip a get returned, as it looked before (drawn in the "returned" box)."""
    for s in played:
        if s["op"] == "return":
            for c in chips_in_order(before):
                if c["id"] == s["id"]:
                    return {**c, "state": "got"}
    return None


def _stop_mark(
    before: dict[str, Any], after: dict[str, Any], played: list[dict[str, Any]]
) -> dict[str, Any] | None:
    """Where a get's walk stopped, drawn on the new scene: just ahead of the first message that
    was behind the one it returned (None: it went to the end, or there was no walk)."""
    stop = next((s for s in played if s["op"] == "stop"), None)
    if stop is None or stop["id"] is None:
        return None
    order = [c["id"] for c in chips_in_order(before)]
    remaining = {c["id"] for c in chips_in_order(after)}
    behind = order[order.index(stop["id"]) + 1 :] if stop["id"] in order else []
    return {"before": next((seq for seq in behind if seq in remaining), None)}
