"""The topology view: queue managers, their queues, and the channels that join them.

Messages are chips, as in the queue view, and they keep the learner's label as they cross a
channel (the arriving message is named after the one sent: the ``channel-arrive`` event says which
it was). A message carrying an MQXQH, on a transmission queue or in flight, shows both Expiry
fields as two countdown bars on one fixed scale (the largest Expiry it has seen put), so the
embedded one can be watched running out while the outer one lasts (rules XQH-03..05), and a
message whose time runs out in transit is seen to (EXP-10). Starting and stopping a channel is a
button of the :class:`Topology` widget.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import anywidget
import ipywidgets as widgets
import traitlets

from mqlearn.engine import transmission
from mqlearn.engine.message import GOT_IN_UOW, NEVER, remaining_tenths
from mqlearn.mqi import cmqc as C
from mqlearn.viz.gui import _bundle, _Guarded
from mqlearn.viz.labels import labels_for
from mqlearn.viz.queue_view import CSS, ESM
from mqlearn.viz.rule_cards import rule_cards
from mqlearn.viz.scene import chip

if TYPE_CHECKING:
    from mqlearn.engine.channel import Channel
    from mqlearn.engine.message import MessageView
    from mqlearn.engine.ports import QueueManagerPort
    from mqlearn.engine.qmgr import QueueManager

MIN_SCALE_TENTHS = 10


def carry_labels(qms: Sequence[QueueManager]) -> None:
    """Name each message a channel delivered after the message sent (its label crosses over);
    each call reads only the events logged since the last one."""
    senders = {qm.name: labels_for(qm) for qm in qms}
    for qm in qms:
        senders[qm.name].carry(qm.events, senders)


def _xqh_chip(qm: QueueManagerPort, m: MessageView, state: str) -> dict[str, Any]:
    now = qm.sim.now
    deadline = None if m.deadline == NEVER else m.deadline
    c = chip(m.seq, labels_for(qm).remember(m), m.lane, m.priority, deadline, now, state)
    if m.xdeadline is not None:
        c["embedded_expiry"] = remaining_tenths(m.xdeadline, now)
    elif (
        m.field("Format", C.MQFMT_NONE) == C.MQFMT_XMIT_Q_HEADER
        and len(m.data) >= transmission.XQH_EXPIRY_END
    ):  # a hand-built MQXQH whose embedded Expiry is not a valid lifetime: shown as it is
        encoding = m.field("Encoding", C.MQENC_NATIVE)
        c["embedded_expiry"] = transmission.embedded_expiry(m.data, encoding)
    return c


def topology_scene(
    qms: Sequence[QueueManager], channels: Sequence[Channel], scale_tenths: int
) -> dict[str, Any]:
    """Every local queue of every queue manager as chips, every channel with its messages in
    flight (``progress``: share of the latency gone by). ``scale_tenths`` is the bars' full width."""
    carry_labels(qms)
    now = qms[0].sim.now
    flying = {(ch.source.name, f.view.seq) for ch in channels for f in ch.in_flight}
    out_qmgrs = []
    for qm in qms:
        queues = []
        for local in qm.local_queues():
            chips = [
                _xqh_chip(qm, m, "live")
                for m in local.store.messages()
                if (qm.name, m.seq) not in flying and m.state != GOT_IN_UOW
            ]
            queues.append(
                {
                    "name": local.name,
                    "xmitq": local.is_xmitq,
                    "curdepth": local.store.depth,
                    "chips": chips,
                }
            )
        out_qmgrs.append({"name": qm.name, "profile": qm.profile, "queues": queues})
    out_channels = []
    for ch in channels:
        in_flight = []
        for f in ch.in_flight:
            c = _xqh_chip(ch.source, f.view, "in-transit")
            if c["expiry"] == 0:
                c["state"] = "expired"  # its time ran out on the way (EXP-10)
            span = max(f.arrives_ms - f.sent_ms, 1)
            c["progress"] = min(max((now - f.sent_ms) / span, 0.0), 1.0)
            in_flight.append(c)
        out_channels.append(
            {
                "name": ch.name,
                "from": ch.source.name,
                "to": ch.target.name,
                "xmitq": ch.xmitq.name,
                "running": ch.running,
                "latency_ms": ch.latency_ms,
                "in_flight": in_flight,
            }
        )
    return {
        "now_ms": now,
        "scale_tenths": scale_tenths,
        "qmgrs": out_qmgrs,
        "channels": out_channels,
        "caption": "",
    }


def largest_expiry(scene: dict[str, Any]) -> int:
    """The largest finite Expiry a chip of the scene shows (either field)."""
    chips = [c for qm in scene["qmgrs"] for q in qm["queues"] for c in q["chips"]]
    chips += [c for ch in scene["channels"] for c in ch["in_flight"]]
    values = [c["expiry"] for c in chips] + [c.get("embedded_expiry", -1) for c in chips]
    return max([v for v in values if v > 0], default=0)


class TopologyView(anywidget.AnyWidget):
    """The topology as chips and tracks (same ES module as the queue view, ``view="topology"``)."""

    _esm = ESM
    _css = CSS
    view = traitlets.Unicode("topology").tag(sync=True)
    state = traitlets.Dict().tag(sync=True)


class Topology(_Guarded):
    """Queue managers joined by channels, a clock, and a Start/Stop button per channel.

    The bars' scale is fixed: it only grows (when a message with a longer Expiry is put), so a
    countdown never rescales while it is watched.
    """

    def __init__(self, qms: Sequence[QueueManager], channels: Sequence[Channel]) -> None:
        super().__init__()
        if not qms:
            raise ValueError("a topology needs at least one queue manager")
        if any(qm.sim is not qms[0].sim for qm in qms):
            raise ValueError("the queue managers of one topology must share one Simulation")
        self.qms, self.channels = list(qms), list(channels)
        self.scale = MIN_SCALE_TENTHS
        self.view = TopologyView()
        self.advance_buttons = self.clock_buttons(self._advance)
        self.channel_buttons: list[widgets.Button] = []
        for ch in self.channels:
            button = widgets.Button(layout=widgets.Layout(width="auto"))
            button.add_class("mq-channel-toggle")
            button.on_click(self.guarded(lambda _b, ch=ch: self._toggle(ch)))
            self.channel_buttons.append(button)
        self.widget = widgets.VBox(
            [
                widgets.HBox([*self.advance_buttons, *self.channel_buttons]),
                self.errors,
                self.view,
            ]
        )
        self.widget.add_class("mq-topology")
        self.refresh()

    def refresh(self, caption: str = "") -> None:
        scene = topology_scene(self.qms, self.channels, self.scale)
        self.scale = scene["scale_tenths"] = max(self.scale, largest_expiry(scene))
        scene["caption"] = caption
        scene["rules"] = rule_cards(caption)
        self.view.state = scene
        for ch, button in zip(self.channels, self.channel_buttons, strict=True):
            verb = "STOP" if ch.running else "START"
            button.description = f"{verb} CHANNEL({ch.name})"
            button.tooltip = f"{verb.lower()} the channel from {ch.source.name} to {ch.target.name}"

    def _advance(self, ms: int) -> None:
        self.qms[0].sim.advance(ms=ms)
        self.refresh(f"Clock +{ms / 1000:g} s")

    def _toggle(self, ch: Channel) -> None:
        if ch.running:
            ch.stop()
            self.refresh(f"{ch.name} stopped: messages wait, and may expire, on {ch.xmitq.name}")
        else:
            ch.start()
            self.refresh(f"{ch.name} started: it sends at the next clock tick")

    def text(self) -> str:
        """The topology in words (for nbval and static renders)."""
        scene = self.view.state
        parts = []
        for qm in scene["qmgrs"]:
            for q in qm["queues"]:
                labels = ", ".join(c["label"] for c in q["chips"]) or "empty"
                parts.append(f"{qm['name']} {q['name']}: {labels}")
        for ch in scene["channels"]:
            flying = ", ".join(c["label"] for c in ch["in_flight"]) or "nothing"
            parts.append(f"{ch['name']} in flight: {flying}")
        return f"At {scene['now_ms'] / 1000:.1f} s. " + "; ".join(parts)

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        return _bundle(self.widget, self.text(), **kwargs)
