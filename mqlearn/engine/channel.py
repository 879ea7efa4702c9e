"""A sender/receiver channel pair moving messages from a transmission queue to another queue manager.

The sending end takes each available message off the transmission queue (a get: expired messages
ahead of it are discarded there, rule XQH-06) and the receiving end puts it ``latency_ms`` later at
the destination named in its MQXQH. The message keeps its absolute deadline, so the time it spent
on the transmission queue and in transit is subtracted from its Expiry (rule EXP-10).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mqlearn.engine.descriptor import CONTEXT_FIELDS
from mqlearn.engine.generated import dead_letter
from mqlearn.engine.message import DEADLINE, GOT_IN_UOW, SEQ, MessageView, Record
from mqlearn.engine.mqget import walk
from mqlearn.engine.objects import QLocal
from mqlearn.engine.ports import QueueManagerPort
from mqlearn.engine.transmission import original
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError, reason_name


@dataclass
class InFlight:
    """A message between the two ends: sent at ``sent_ms``, due at ``arrives_ms``."""

    message: Record
    sent_ms: int
    arrives_ms: int

    @property
    def view(self) -> MessageView:
        """The message as the views read it (got in the channel's unit of work)."""
        return MessageView(*self.message, GOT_IN_UOW, None, 0)


class Channel:
    """``Channel(qm1, qm2, xmitq="QM2", latency_ms=200)``: moves messages qm1 → qm2 while running."""

    def __init__(
        self,
        source: QueueManagerPort,
        target: QueueManagerPort,
        *,
        xmitq: str,
        latency_ms: int = 0,
        name: str | None = None,
    ) -> None:
        if source.sim is not target.sim:
            raise ValueError("both queue managers of a channel must share one Simulation")
        if type(latency_ms) is not int or latency_ms < 0:
            raise ValueError(f"latency_ms must be a non-negative int, got {latency_ms!r}")
        queue = source.local(xmitq)
        if not queue.is_xmitq:
            raise ValueError(f"{xmitq} on {source.name} is not USAGE(XMITQ)")
        self.source, self.target, self.xmitq = source, target, queue
        self.latency_ms = latency_ms
        self.name = name or f"{source.name}.TO.{target.name}"
        self.running = True
        self.in_flight: list[InFlight] = []
        self._pump_pending = False
        source.listen(xmitq, self._wake)
        self._wake()

    def __repr__(self) -> str:
        state = "RUNNING" if self.running else "STOPPED"
        return f"<Channel {self.name} {state}, {len(self.in_flight)} in flight>"

    def stop(self) -> None:
        """STOP CHANNEL: messages wait (and may expire) on the transmission queue."""
        self.running = False

    def start(self) -> None:
        """START CHANNEL: resumes sending at the next clock tick."""
        self.running = True
        self._wake()

    def _wake(self) -> None:
        if self.running and not self._pump_pending:
            self._pump_pending = True
            self.source.sim.schedule(0, self._pump)

    def _pump(self) -> None:
        """Send everything available now (expired messages on the way are discarded)."""
        self._pump_pending = False
        source, queue = self.source, self.xmitq
        while self.running:
            store = queue.store
            message, expired = walk(store.candidates(), source.sim.now, store.hidden(self))
            for old in expired:
                source.discard(queue, old, "channel")
            if message is None:
                return
            self._send(queue, message)

    def _send(self, queue: QLocal, message: Record) -> None:
        sim = self.source.sim
        queue.store.hold(message)  # off CURDEPTH while in flight
        flight = InFlight(message, sim.now, sim.now + self.latency_ms)
        self.in_flight.append(flight)
        self.source.log(
            queue.name, "channel-send", message, self.name, detail=f"to {self.target.name}"
        )
        sim.schedule(self.latency_ms, lambda: self._arrive(flight))

    def _arrive(self, flight: InFlight) -> None:
        source, target, queue = self.source, self.target, self.xmitq
        message = flight.message
        self.in_flight.remove(flight)
        fields, data, deadline, header = original(source, message, queue.store.backouts(message))
        ctx = {name: fields[name] for name in CONTEXT_FIELDS}
        if header is None:  # not an MQXQH message: nowhere to deliver it
            self._undeliverable(message, fields, data, ctx, deadline, C.MQRC_FORMAT_ERROR, "", "")
            return
        dest_q, dest_qmgr = header.RemoteQName, header.RemoteQMgrName
        try:
            arrived = target.deliver(
                target.route_to(dest_qmgr, dest_q),
                data,
                fields,
                deadline=deadline,
                ctx=ctx,
                msgid=fields["MsgId"],
            )
        except MQMIError as error:
            self._undeliverable(
                message, fields, data, ctx, deadline, error.reason, dest_q, dest_qmgr
            )
            return
        queue.store.remove(message)
        detail = f"from {source.name} message {message[SEQ]}"  # the sender's msg_seq: see docs
        if arrived[DEADLINE] <= flight.arrives_ms:  # it arrives expired: say where it ran out
            on_link = flight.sent_ms < arrived[DEADLINE]  # after it left (EXP-10), or before
            where = f"channel {self.name}" if on_link else f"queue {queue.name}"
            detail += f"; expired on {where}"
        target.log(dest_q, "channel-arrive", arrived, self.name, detail=detail)

    def _undeliverable(
        self,
        message: Record,
        fields: dict[str, Any],
        data: bytes,
        ctx: dict[str, Any],
        deadline: int,
        reason: int,
        dest_q: str,
        dest_qmgr: str,
    ) -> None:
        """Receiving end cannot put it: dead-letter queue, discard (MQRO_DISCARD_MSG), or stop."""
        source, target, queue = self.source, self.target, self.xmitq
        report: int = fields.get("Report", 0)
        if report & C.MQRO_DISCARD_MSG:
            queue.store.remove(message)
            target.log(
                dest_q, "discard", message, self.name, reason, "undeliverable: MQRO_DISCARD_MSG"
            )
        elif dead_letter(
            target, data, fields, ctx, deadline, reason, dest_q, dest_qmgr or target.name
        ):
            queue.store.remove(message)
        else:  # nowhere to go: the message stays on the transmission queue, the channel stops
            queue.store.release(message)
            self.running = False
            source.log(
                queue.name,
                "backout",
                message,
                "channel",
                reason,
                f"channel {self.name} stopped: {reason_name(reason)} and no dead-letter queue",
            )
