"""The two tools exercise scenarios use besides the MQI: letters for messages, and reason codes.

Messages are named by a letter, so that a prediction can read ``{'A', 'C'}`` instead of MsgIds:
a scenario puts each message through :meth:`Letters.put` (the data is the letter), which notes the
number the queue manager gave the message (``Event.msg_seq``). Events and queues name messages by
``(qmgr, msg_seq)``, never by MsgId, which can repeat (docs/engine.md, "The event log"); so they
translate back to letters, and :meth:`Letters.story` tells what the engine did in a few lines, for
``solution()``. :func:`get_reason` turns a get's outcome into the reason code a prediction names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from mqlearn.engine import Queue, QueueManager
from mqlearn.engine.events import Event
from mqlearn.engine.rule_formulas import is_expired
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError
from mqlearn.mqi.structs import GMO, MD, PMO

_MSGID_COUNTER = slice(16, 24)  # mqlearn MsgIds end with an 8-byte counter (docs/engine.md)
_SENDER = re.compile(r"from (\S+) message (\d+)")  # a channel-arrive's detail
Key = tuple[str, int]  # a message: (queue manager, msg_seq)


def _counter_name(msg_id: bytes) -> str:
    """``#n``: the name of a message without a letter (n = its MsgId's counter)."""
    return f"#{int.from_bytes(msg_id[_MSGID_COUNTER])}"


class _Names:
    """The letters of the messages in some event logs, lettered messages followed to their copies.

    A copy the queue manager makes is a new message with a number of its own, named after the
    message it copies: a channel's arrival after the sender's message its detail names; a dead
    letter after the expired message whose discard is logged just before the dead letter's put
    (rule EIP-04), else after the message in flight that the receiving end could not deliver (the
    log links them by nothing else: the earliest in flight to that queue manager with its MsgId).
    The discard of an arrival thrown away (MQRO_DISCARD_MSG) is logged by the receiving queue
    manager with the sender's number for the message: it names the message sent.
    """

    def __init__(self, letters: dict[Key, str], logs: Sequence[list[Event]]) -> None:
        self.letters = letters
        self.origin: dict[Key, Key] = {}  # copy -> the message it copies
        self.thrown: dict[Key, Key] = {}  # (qmgr, event seq) of such a discard -> the sent message
        # by receiving queue manager, in sending order: message sent -> (channel, MsgId)
        inbound: dict[str, dict[Key, tuple[str, bytes | None]]] = {}
        order = sorted(
            ((index, e) for index, log in enumerate(logs) for e in log),
            key=lambda pair: (
                pair[1].time_ms,
                pair[1].kind != "channel-send",
                pair[0],
                pair[1].seq,
            ),
        )
        for index, e in order:
            if e.msg_seq is None:
                continue
            key = (e.qmgr, e.msg_seq)
            flights = inbound.setdefault(e.qmgr, {})
            if e.kind == "channel-send":
                target = e.detail.removeprefix("to ")
                inbound.setdefault(target, {})[key] = (e.cause, e.msg_id)
            elif e.kind == "backout" and e.cause == "channel":  # stays: it will be sent again
                for waiting in inbound.values():
                    waiting.pop(key, None)
            elif e.kind == "channel-arrive":
                sender = _SENDER.search(e.detail)
                if sender is not None:
                    self.origin[key] = (sender.group(1), int(sender.group(2)))
                    flights.pop(self.origin[key], None)
            elif e.kind == "discard" and e.reason:
                sent = next(
                    (k for k, f in flights.items() if (f[0], k[1]) == (e.cause, e.msg_seq)), None
                )
                if sent is not None:
                    self.thrown[(e.qmgr, e.seq)] = sent
                    del flights[sent]
            elif e.kind == "dead-letter":
                original = _expired_before(logs[index], e) or next(
                    (k for k, (_, msg_id) in flights.items() if msg_id == e.msg_id), None
                )
                if original is not None:
                    self.origin[key] = original
                    flights.pop(original, None)

    def message(self, key: Key, msg_id: bytes) -> str:
        """The letter of a message (or of the one it copies), else ``#n``."""
        while key not in self.letters and key in self.origin:
            key = self.origin[key]
        letter = self.letters.get(key)
        return letter if letter is not None else _counter_name(msg_id)

    def of(self, e: Event) -> str:
        """The name of the message an event is about ("" for none)."""
        if e.msg_seq is None or e.msg_id is None:
            return ""
        key = (e.qmgr, e.msg_seq)
        return self.message(self.thrown.get((e.qmgr, e.seq), key), e.msg_id)


def _expired_before(log: list[Event], dead: Event) -> Key | None:
    """The expired message moved to the dead-letter queue as ``dead`` (rule EIP-04), if it was:
    its discard is logged just before the dead letter's put."""
    for position in range(dead.seq - 1, 0, -1):
        e = log[position]
        if e.kind == "put" and e.msg_seq == dead.msg_seq:
            before = log[position - 1]
            moved = before.kind == "discard" and before.msg_id == dead.msg_id
            return (before.qmgr, before.msg_seq) if moved and before.msg_seq is not None else None
    return None


class Letters:
    """Remembers which message, by ``(qmgr, msg_seq)``, belongs to which letter."""

    def __init__(self) -> None:
        self._letters: dict[Key, str] = {}
        self._qms: dict[str, QueueManager] = {}  # the queue managers messages were put on

    def put(self, q: Queue, letter: str, md: MD | None = None, pmo: PMO | None = None) -> MD:
        """MQPUT of a message whose data is ``letter``; returns the MD the put filled in."""
        md = md if md is not None else MD()
        qm = q.qm
        start = len(qm.events)
        q.put(letter.encode("ascii"), md, pmo)
        seq = next(
            (e.msg_seq for e in qm.events[start:] if e.kind == "put" and e.cause != "qmgr"), None
        )
        if seq is None:
            raise ValueError(f"{qm.name} keeps no event log (record_events=False)")
        self._letters[(qm.name, seq)] = letter
        self._qms[qm.name] = qm
        return md

    def _names(self, *qms: QueueManager) -> _Names:
        """Names for the logs of ``qms`` and of the queue managers messages were put on."""
        known = {**self._qms, **{qm.name: qm for qm in qms}}
        return _Names(self._letters, [qm.events for qm in known.values()])

    def seen(
        self, qm: QueueManager, kind: str, queue: str | None = None, cause: str | None = None
    ) -> frozenset[str]:
        """Letters of the messages that have an event of ``kind`` (on ``queue``, with ``cause``)."""
        names = self._names(qm)
        return frozenset(
            names.of(e)
            for e in qm.events
            if e.kind == kind
            and e.msg_seq is not None
            and (queue is None or e.queue == queue)
            and (cause is None or e.cause == cause)
        )

    def on_queue(self, qm: QueueManager, queue: str, *, expired: bool = False) -> tuple[str, ...]:
        """Letters of the messages on a local queue in delivery order, expired ones included
        (only the expired ones with ``expired=True``)."""
        names = self._names(qm)
        now = qm.sim.now
        return tuple(
            names.message((qm.name, m.seq), m.msgid)
            for m in qm.local(queue).store.messages()
            if not expired or is_expired(m.deadline, now)
        )

    def story(self, *qms: QueueManager) -> str:
        """The event logs of ``qms`` merged in time order, one short line per event."""
        names = self._names(*qms)
        events: Iterable[tuple[int, int, Event]] = sorted(
            (e.time_ms, index, e) for index, qm in enumerate(qms) for e in qm.events
        )
        return "\n".join(_line(e, names.of(e)) for _, _, e in events)


def _line(e: Event, who: str) -> str:
    expiry = "" if e.expiry is None else f"Expiry={e.expiry}"
    why = ", ".join(part for part in (e.cause, e.detail) if part)
    return (
        f"{e.time_ms / 1000:7.1f} s  {e.qmgr:<4} {e.queue:<9} {e.kind:<14} "
        f"{who:<3} {expiry:<11} {why}"
    ).rstrip()


def get_reason(q: Queue, md: MD | None = None, gmo: GMO | None = None) -> int:
    """MQGET; its reason code: MQRC_NONE when a message came back, else the failure's."""
    try:
        q.get(None, md, gmo)
    except MQMIError as error:
        return error.reason
    return C.MQRC_NONE
