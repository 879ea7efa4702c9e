"""The topology view: queue managers, their queues, and the channels that join them.

Messages are chips, as in the queue view, and they keep the learner's label as they cross a
channel (the arriving message is named after the one sent: the ``channel-arrive`` event says which
it was, and where a message that arrives expired ran out of time). Chips on a queue, a
transmission queue or a channel sit side by side in delivery order, never on top of each other; a
message carrying an MQXQH shows both Expiry fields as two countdown bars on the scale of its own
Expiry when first seen (it never changes, so the countdown and the difference between the two
fields are plain: rules XQH-03..05). Each queue has an MQGET button, each queue manager its expiry
scan (the 300 s task, or REFRESH QMGR TYPE(EXPIRY) on z/OS), each channel Start/Stop; discards
fall into the queue manager's tray and reports are seen travelling back over the return channel.
After each action the view narrates what happened, one event a step, each with one rule ID.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import anywidget
import ipywidgets as widgets
import traitlets

from mqlearn.engine import transmission
from mqlearn.engine.handle import Queue
from mqlearn.engine.message import GOT_IN_UOW, NEVER, remaining_tenths
from mqlearn.engine.rule_formulas import is_expired
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError, reason_name
from mqlearn.mqi.structs import GMO, MD
from mqlearn.viz.gui import _bundle, _Guarded
from mqlearn.viz.labels import REPORT_PREFIX, labels_for
from mqlearn.viz.queue_view import CSS, ESM
from mqlearn.viz.rule_cards import rule_cards
from mqlearn.viz.scene import TRAY_SIZE, chip

if TYPE_CHECKING:
    from mqlearn.engine.channel import Channel
    from mqlearn.engine.events import Event
    from mqlearn.engine.message import MessageView
    from mqlearn.engine.ports import QueueManagerPort
    from mqlearn.engine.qmgr import QueueManager

MIN_SCALE_TENTHS = 10
CHIPS_PER_QUEUE = 24  # chips drawn per queue or channel; the rest fold into a "+N more" chip
_EXPIRED_ON = re.compile(r"; expired on (?P<where>.+)$")  # a channel-arrive's suffix (engine)
_SCAN_CAUSES = {"scan": "EXP-28", "refresh": "EXP-28"}


def carry_labels(qms: Sequence[QueueManager]) -> None:
    """Name reports after the message they report on, then each message a channel delivered
    after the message sent (its label crosses over); each call reads only the new events."""
    senders = {qm.name: labels_for(qm) for qm in qms}
    for qm in qms:
        senders[qm.name].fold(qm.events)
    for qm in qms:
        senders[qm.name].carry(qm.events, senders)


def key(qm: QueueManagerPort, seq: int) -> str:
    """A chip's id in the topology: message numbers are per queue manager."""
    return f"{qm.name}:{seq}"


def _message_chip(
    qm: QueueManagerPort, m: MessageView, state: str, where: str, scales: dict[str, int]
) -> dict[str, Any]:
    """A message as a chip: ``where`` it is, both Expiry fields when it carries an MQXQH, and
    ``scale``: the largest Expiry its label has shown (the bars' full width, fixed)."""
    now = qm.sim.now
    deadline = None if m.deadline == NEVER else m.deadline
    label = labels_for(qm).remember(m)
    if label.startswith(REPORT_PREFIX):
        state = "report"
    c = chip(m.seq, label, m.lane, m.priority, deadline, now, state)
    c["id"], c["where"] = key(qm, m.seq), where
    if m.xdeadline is not None:
        c["embedded_expiry"] = remaining_tenths(m.xdeadline, now)
    elif (
        m.field("Format", C.MQFMT_NONE) == C.MQFMT_XMIT_Q_HEADER
        and len(m.data) >= transmission.XQH_EXPIRY_END
    ):  # a hand-built MQXQH whose embedded Expiry is not a valid lifetime: shown as it is
        encoding = m.field("Encoding", C.MQENC_NATIVE)
        c["embedded_expiry"] = transmission.embedded_expiry(m.data, encoding)
    seen = max(c["expiry"], c.get("embedded_expiry", -1), MIN_SCALE_TENTHS)
    c["scale"] = scales[label] = max(scales.get(label, 0), seen)
    return c


def _arrived_expired(qm: QueueManager) -> dict[int, str]:
    """Messages of ``qm`` that a channel delivered already expired: where they ran out."""
    found = {}
    for e in qm.events:
        if e.kind == "channel-arrive" and e.msg_seq is not None:
            match = _EXPIRED_ON.search(e.detail)
            if match:
                found[e.msg_seq] = match["where"]
    return found


def queue_name(qm: QueueManager, queue: str) -> str:
    """``transmission queue QM2`` or ``queue APP.IN``: never a queue mistaken for a qmgr."""
    xmitq = getattr(qm.objects.get(queue), "is_xmitq", False)
    return f"{'transmission queue' if xmitq else 'queue'} {queue}"


def _tray(qm: QueueManager, expired_on: dict[int, str]) -> list[dict[str, Any]]:
    """The latest messages ``qm`` discarded, as ghost chips naming the queue they were on."""
    labels = labels_for(qm)
    found = []
    for e in qm.events:
        if e.kind == "discard" and e.msg_seq is not None:
            gone = chip(e.msg_seq, labels.of(e.msg_seq, e.msg_id), 0, 0, None, 0, "discarded")
            gone.update(id=key(qm, e.msg_seq), where=e.queue, expiry=0)
            gone["ran_out"] = expired_on.get(e.msg_seq, queue_name(qm, e.queue))
            found.append(gone)
    return found[-TRAY_SIZE:]


def topology_scene(
    qms: Sequence[QueueManager],
    channels: Sequence[Channel],
    scales: dict[str, int] | None = None,
    got: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Every local queue of every queue manager as chips, every channel with its messages in
    flight in the order sent (``progress``: share of the latency gone by) and its direction in
    the order of ``qms`` (``toward``: "next" or "previous"), each queue manager's
    discarded tray and the message its last MQGET returned (``got``, by queue manager).
    ``scales`` keeps each label's bar scale from one scene to the next."""
    scales = {} if scales is None else scales
    carry_labels(qms)
    now = qms[0].sim.now
    flying = {(ch.source.name, f.view.seq) for ch in channels for f in ch.in_flight}  # held
    out_qmgrs = []
    for qm in qms:
        queues = []
        for local in qm.local_queues():
            chips: list[dict[str, Any]] = []
            more = {"count": 0, "expired": 0}
            for m in local.store.views():  # no Message made per message: a click stays cheap
                if (qm.name, m.seq) in flying or m.state == GOT_IN_UOW:
                    continue
                if len(chips) < CHIPS_PER_QUEUE:
                    chips.append(_message_chip(qm, m, "live", local.name, scales))
                else:  # folded into one "+N more" chip, counted exactly
                    more["count"] += 1
                    more["expired"] += is_expired(m.deadline, now)
            queues.append(
                {
                    "name": local.name,
                    "xmitq": local.is_xmitq,
                    "curdepth": local.store.depth,
                    "chips": chips,
                    "more": more,
                }
            )
        out_qmgrs.append(
            {
                "name": qm.name,
                "profile": qm.profile,
                "scan": scan_name(qm),
                "queues": queues,
                "tray": _tray(qm, _arrived_expired(qm)),
                "got": (got or {}).get(qm.name),
            }
        )
    order = {qm.name: i for i, qm in enumerate(qms)}
    out_channels = []
    for ch in channels:
        in_flight = []
        for f in ch.in_flight[:CHIPS_PER_QUEUE]:
            c = _message_chip(ch.source, f.view, "in-transit", ch.name, scales)
            if c["state"] == "in-transit" and c["expiry"] == 0:
                c["state"] = "expired"  # its time ran out on the way (EXP-10)
            span = max(f.arrives_ms - f.sent_ms, 1)
            c["progress"] = min(max((now - f.sent_ms) / span, 0.0), 1.0)
            in_flight.append(c)
        out_channels.append(
            {
                "name": ch.name,
                "from": ch.source.name,
                "to": ch.target.name,
                # toward the queue manager drawn after its source (right in a row, below when
                # stacked) or before it: the view picks the arrow for its layout
                "toward": "next" if order[ch.target.name] > order[ch.source.name] else "previous",
                "xmitq": ch.xmitq.name,
                "running": ch.running,
                "latency_ms": ch.latency_ms,
                "in_flight": in_flight,
                "more": {"count": max(len(ch.in_flight) - CHIPS_PER_QUEUE, 0), "expired": 0},
            }
        )
    return {"now_ms": now, "qmgrs": out_qmgrs, "channels": out_channels, "steps": []}


def scan_name(qm: QueueManager) -> str:
    """The expiry scan a learner can run on ``qm`` now, as its profile calls it (EXP-28)."""
    if qm.profile == "zos":
        return "REFRESH QMGR TYPE(EXPIRY)"
    return f"run the expiry task now (every {qm.expryint} s)" if qm.expryint else "expiry scan"


def _discard_rule(qm: QueueManager, e: Event) -> str:
    if e.cause in _SCAN_CAUSES:
        return _SCAN_CAUSES[e.cause]
    if e.cause == "channel":
        return "XQH-06"
    if e.cause == "cursor":
        return "LCK-01"
    fifo = getattr(qm.objects.get(e.queue), "msgdlvsq", "") == "FIFO"
    return "EXP-22" if fifo else "EXP-23"


def narrate_events(qm: QueueManager, events: Sequence[Event]) -> list[dict[str, Any]]:
    """One step per event worth telling: what happened to which message, and the one rule that
    explains it (the same rule wherever the event is told)."""
    labels = labels_for(qm)
    expired_on = _arrived_expired(qm)
    out: list[dict[str, Any]] = []
    for e in events:
        if e.msg_seq is None:
            continue
        name = labels.of(e.msg_seq, e.msg_id)
        at = f"{queue_name(qm, e.queue)} at {qm.name}"
        rule = ""
        if (
            e.kind == "put"
            and e.cause != "qmgr"
            and getattr(qm.objects.get(e.queue), "is_xmitq", False)
        ):
            say, rule = f"{name} waits on {at} behind an MQXQH", "XQH-01"
        elif e.kind == "channel-send":
            say, rule = f"channel {e.cause} takes {name} off {at}", "EXP-10"
        elif e.kind == "channel-arrive":
            where = expired_on.get(e.msg_seq)
            say = f"{name} arrives on {at} over channel {e.cause}"
            if where:
                say += f", already expired: its time ran out on {where}"
            rule = "EXP-10"
        elif e.kind == "discard":
            rule = _discard_rule(qm, e)
            how = {"channel": "the channel", "scan": "the expiry scan", "refresh": "REFRESH"}
            say = f"{how.get(e.cause, 'the MQGET')} discards {name}, expired on {at}"
            if e.msg_seq in expired_on:
                say += f" (it ran out on {expired_on[e.msg_seq]})"
        elif e.kind == "report":
            say, rule = f"expiration report for {name} {e.detail}", "RPT-02"
        elif e.kind == "get":
            say, rule = f"the MQGET on {at} returns {name}: Expiry is what is left", "EXP-11"
        else:
            continue
        step = {"say": f"{say} ({rule})", "id": key(qm, e.msg_seq), "rule": rule}
        out.append({**step, "t": e.time_ms})
    return out


class TopologyView(anywidget.AnyWidget):
    """The topology as chips and tracks (same ES module as the queue view, ``view="topology"``).

    Its buttons (MQGET per queue, expiry scan per queue manager, Start/Stop per channel) send
    ``{"do": "get" | "scan" | "start" | "stop", ...}`` to the kernel."""

    _esm = ESM
    _css = CSS
    view = traitlets.Unicode("topology").tag(sync=True)
    state = traitlets.Dict().tag(sync=True)
    speed = traitlets.Float(1.0, min=0.0).tag(sync=True)


class Topology(_Guarded):
    """Queue managers joined by channels, a clock, and the view's own buttons.

    Each message's bars keep the scale of the largest Expiry its label has shown, so a countdown
    never rescales while it is watched.
    """

    def __init__(self, qms: Sequence[QueueManager], channels: Sequence[Channel]) -> None:
        super().__init__()
        if not qms:
            raise ValueError("a topology needs at least one queue manager")
        if any(qm.sim is not qms[0].sim for qm in qms):
            raise ValueError("the queue managers of one topology must share one Simulation")
        self.qms, self.channels = list(qms), list(channels)
        self.scales: dict[str, int] = {}
        self.got: dict[str, dict[str, Any]] = {}
        self.caption = ""
        self._count = 0
        self.view = TopologyView()
        self.view.on_msg(self.guarded(self._on_msg))
        self.advance_buttons = self.clock_buttons(self._advance)
        for button in self.advance_buttons:
            button.layout = widgets.Layout(width="auto", min_width="4.5em")
        self.widget = widgets.VBox(
            [widgets.HBox(self.advance_buttons), self.errors, self.view],
            layout=widgets.Layout(width="100%", max_width="1400px"),
        )
        self.widget.add_class("mq-topology")
        self._since = self._marks()
        self.refresh()

    # -- what the learner can do ----------------------------------------------------------------
    def _on_msg(self, _view: Any, content: dict[str, Any], _buffers: Any) -> None:
        """A button of the view: ``{"do": "get", "qmgr", "queue"}``, ``{"do": "scan", "qmgr"}``,
        ``{"do": "start" | "stop", "channel"}``."""
        do = content.get("do")
        if do == "get":
            self.get(content["qmgr"], content["queue"])
        elif do == "scan":
            self.scan(content["qmgr"])
        elif do in ("start", "stop"):
            self.toggle(content["channel"], do == "start")
        else:
            raise ValueError(f"unknown topology action {content!r}")

    def _qm(self, name: str) -> QueueManager:
        for qm in self.qms:
            if qm.name == name:
                return qm
        raise ValueError(f"no queue manager {name!r} in this topology")

    def get(self, qmgr: str, queue: str) -> str:
        """MQGET (no wait, no syncpoint) from ``queue`` on ``qmgr``; the caption says what came."""
        qm = self._qm(qmgr)
        md = MD()
        gmo = GMO(Options=C.MQGMO_NO_WAIT | C.MQGMO_NO_SYNCPOINT)
        try:
            Queue(qm, queue).get(None, md, gmo)
        except MQMIError as error:
            why = f"{reason_name(error.reason)} ({error.reason})"
            rule = " (EXP-26)" if error.reason == C.MQRC_NO_MSG_AVAILABLE else ""
            return self._acted(f"MQGET on {queue} at {qmgr}: no live message, {why}{rule}")
        found = next((e for e in reversed(qm.events) if e.kind == "get"), None)
        if found is not None and found.msg_seq is not None:
            label = labels_for(qm).of(found.msg_seq, found.msg_id)
            got = chip(found.msg_seq, label, 0, md.Priority, None, 0, "got")
            self.got[qmgr] = {**got, "id": key(qm, found.msg_seq), "where": queue}
            self.got[qmgr]["expiry"] = md.Expiry
        return self._acted(f"MQGET on {queue} at {qmgr}: OK, Expiry {md.Expiry} left (EXP-11)")

    def scan(self, qmgr: str) -> str:
        """The profile's expiry scan on ``qmgr`` now (EXP-28)."""
        qm = self._qm(qmgr)
        count = qm.refresh_expiry("*") if qm.profile == "zos" else qm.scan()
        return self._acted(f"{scan_name(qm)} on {qmgr}: {count} expired discarded (EXP-28)")

    def toggle(self, name: str, start: bool) -> str:
        """START or STOP CHANNEL(``name``)."""
        ch = next((c for c in self.channels if c.name == name), None)
        if ch is None:
            raise ValueError(f"no channel {name!r} in this topology")
        if start:
            ch.start()
            return self._acted(f"START CHANNEL({name}): it sends at the next clock tick")
        ch.stop()
        return self._acted(
            f"STOP CHANNEL({name}): messages wait, and may expire, on {ch.xmitq.name} (XQH-06)"
        )

    def _advance(self, ms: int) -> None:
        self.qms[0].sim.advance(ms=ms)
        self._acted(f"Clock +{ms / 1000:g} s, now {self.qms[0].sim.now / 1000:.1f} s")

    # -- what it shows --------------------------------------------------------------------------
    def _marks(self) -> list[int]:
        return [len(qm.events) for qm in self.qms]

    def _acted(self, caption: str) -> str:
        """Redraw after an action: the new scene and the events since the last one, as steps."""
        carry_labels(self.qms)
        steps: list[tuple[int, int, dict[str, Any]]] = []
        for order, (qm, since) in enumerate(zip(self.qms, self._since, strict=True)):
            steps += [(s["t"], order, s) for s in narrate_events(qm, qm.events[since:])]
        self._since = self._marks()
        self.refresh(caption, [s for *_, s in sorted(steps, key=lambda t: t[:2])])
        return caption

    def refresh(self, caption: str = "", steps: Sequence[dict[str, Any]] = ()) -> None:
        scene = topology_scene(self.qms, self.channels, self.scales, self.got)
        self._count += 1
        self.caption = caption
        scene.update(n=self._count, caption=caption, steps=list(steps))
        scene["rules"] = rule_cards(caption, *(s["rule"] for s in steps))
        self.view.state = scene

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
