"""The two tools exercise scenarios use besides the MQI: letters for messages, and reason codes.

Messages are named by a letter, so that a prediction can read ``{'A', 'C'}`` instead of MsgIds:
a scenario puts each message through :meth:`Letters.put` (the data is the letter); afterwards the
MsgIds in the event log translate back to letters, and :meth:`Letters.story` tells what the engine
did in a few lines, for ``solution()``. :func:`get_reason` turns a get's outcome into the reason
code a prediction names.
"""

from __future__ import annotations

from collections.abc import Iterable

from mqlearn.engine import Queue, QueueManager
from mqlearn.engine.events import Event
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError
from mqlearn.mqi.structs import GMO, MD, PMO

_MSGID_COUNTER = slice(16, 24)  # mqlearn MsgIds end with an 8-byte counter (docs/engine.md)


class Letters:
    """Remembers which MsgId belongs to which letter."""

    def __init__(self) -> None:
        self._names: dict[bytes, str] = {}

    def put(self, q: Queue, letter: str, md: MD | None = None, pmo: PMO | None = None) -> MD:
        """MQPUT of a message whose data is ``letter``; returns the MD the put filled in."""
        md = md if md is not None else MD()
        q.put(letter.encode("ascii"), md, pmo)
        self._names[md.MsgId] = letter
        return md

    def name(self, msg_id: bytes) -> str:
        """The letter of a message put here, else ``#n`` (n = the MsgId's counter)."""
        letter = self._names.get(msg_id)
        return letter if letter is not None else f"#{int.from_bytes(msg_id[_MSGID_COUNTER])}"

    def seen(
        self, qm: QueueManager, kind: str, queue: str | None = None, cause: str | None = None
    ) -> frozenset[str]:
        """Letters of the messages that have an event of ``kind`` (on ``queue``, with ``cause``)."""
        return frozenset(
            self.name(e.msg_id)
            for e in qm.events
            if e.kind == kind
            and e.msg_id is not None
            and (queue is None or e.queue == queue)
            and (cause is None or e.cause == cause)
        )

    def on_queue(self, qm: QueueManager, queue: str, *, expired: bool = False) -> tuple[str, ...]:
        """Letters of the messages on a local queue in delivery order, expired ones included
        (only the expired ones with ``expired=True``)."""
        frame = qm.queue_frame(queue)
        if expired:
            frame = frame[frame["expired"]]
        return tuple(self.name(bytes.fromhex(msg_id)) for msg_id in frame["msg_id"])

    def story(self, *qms: QueueManager) -> str:
        """The event logs of ``qms`` merged in time order, one short line per event."""
        events: Iterable[tuple[int, int, Event]] = sorted(
            (e.time_ms, index, e) for index, qm in enumerate(qms) for e in qm.events
        )
        return "\n".join(self._line(e) for _, _, e in events)

    def _line(self, e: Event) -> str:
        who = "" if e.msg_id is None else self.name(e.msg_id)
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
