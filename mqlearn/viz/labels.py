"""The learner's names for messages: one label per message, the same in every view.

A message is named, in this order of preference, by the label given when it was put (a letter
the workbench hands out, or one a notebook chooses), by its data when that is short printable
text (notebooks put ``b"A"``, ``b"B"`` …), else by a short id. An expiration report is named after
the message it reports on (``R·A``). Labels are keyed by the queue manager's message number
(``Event.msg_seq``), so two messages with one MsgId never share a label by accident.

They also keep what the views saw of each grouped message (GroupId, MsgSeqNumber, Offset,
MsgFlags: :mod:`mqlearn.viz.group_boxes`), so a group's label still knows its last member once that
has gone, and a replay draws a message that has left inside its group.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from string import ascii_uppercase
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from mqlearn.mqi import cmqc as C
from mqlearn.viz.names import msg_tag

if TYPE_CHECKING:
    from mqlearn.engine.events import Event
    from mqlearn.engine.message import MessageView
    from mqlearn.engine.ports import QueueManagerPort
    from mqlearn.engine.qmgr import QueueManager
    from mqlearn.viz.group_boxes import GroupFields

_HEADER_LENGTHS = {
    C.MQFMT_XMIT_Q_HEADER: C.MQXQH_LENGTH_1,
    C.MQFMT_DEAD_LETTER_HEADER: C.MQDLH_LENGTH_1,
}
_ARRIVED_FROM = re.compile(r"^from (?P<qmgr>\S+) message (?P<seq>\d+)(?:;|$)")  # channel-arrive
DATA_LABEL_CHARS = 8  # data up to this many printable characters is its own label
REPORT_PREFIX = "R·"


def letters(n: int) -> str:
    """The ``n``-th label of the sequence A, B, …, Z, AA, AB, … (``n`` counts from 0)."""
    label = ""
    n += 1
    while n:
        n, rest = divmod(n - 1, len(ascii_uppercase))
        label = ascii_uppercase[rest] + label
    return label


def data_label(data: bytes) -> str | None:
    """``data`` as a label when it is short printable ASCII text, else None."""
    if not 0 < len(data) <= DATA_LABEL_CHARS:
        return None
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        return None
    return text if text.isprintable() and text.strip() == text else None


def application_data(message: MessageView) -> bytes:
    """The data after the MQ header a queue manager put in front (MQXQH, MQDLH), if any."""
    skip = _HEADER_LENGTHS.get(message.field("Format", C.MQFMT_NONE), 0)
    return message.data[skip:]


class Labels:
    """Labels of one queue manager's messages, by message number (``msg_seq``)."""

    def __init__(self) -> None:
        self._by_seq: dict[int, str] = {}
        self._folded = 0  # events already looked at by :meth:`fold`
        self._carried = 0  # and by :meth:`carry`
        self._letters = 0  # letters handed out by :meth:`next_letter`
        self._used: set[str] = set()  # every label this queue manager's messages have had
        # msg_seq -> (queue, put time, group fields) of every grouped message a view has seen
        self._groups: dict[int, tuple[str, int, GroupFields]] = {}

    def __len__(self) -> int:
        return len(self._by_seq)

    def give(self, seq: int, label: str) -> None:
        """Name a message explicitly (a label given at put wins over everything else)."""
        if not label or not label.isprintable():
            raise ValueError(f"a label must be non-empty printable text, got {label!r}")
        self._name(seq, label)

    def _name(self, seq: int, label: str) -> None:
        self._by_seq[seq] = label
        self._used.add(label)

    def next_letter(self, taken: Iterable[str] = ()) -> str:
        """The next letter of A, B, …, Z, AA, … that no message of this queue manager has had
        as its label (nor is in ``taken``): a letter is never used twice while it lives."""
        taken = set(taken)
        while True:
            self._letters += 1
            letter = letters(self._letters - 1)
            if letter not in self._used and letter not in taken:
                return letter

    @property
    def last_letter(self) -> str:
        """The letter :meth:`next_letter` handed out last (A before the first)."""
        return letters(max(self._letters - 1, 0))

    def remember(self, message: MessageView) -> str:
        """The label of a message the views can see now, kept for when it has gone."""
        found = self._by_seq.get(message.seq)
        if found is None:
            found = self.looked_up(message)
            self._name(message.seq, found)
        return found

    def looked_up(self, message: MessageView) -> str:
        """The label :meth:`remember` gives ``message``, without keeping it."""
        found = self._by_seq.get(message.seq)
        return found or data_label(application_data(message)) or msg_tag(message.msgid)

    def of(self, seq: int | None, msg_id: bytes | None = None) -> str:
        """The label of message ``seq``; one never seen gets its MsgId tag (or ``#seq``)."""
        if seq is None:
            return "-"
        found = self._by_seq.get(seq)
        if found is not None:
            return found
        return msg_tag(msg_id) if msg_id is not None else f"#{seq}"

    def note_group(self, seq: int, queue: str, put_ms: int, fields: GroupFields) -> None:
        """Keep the group fields of message ``seq``, seen on ``queue`` (put at ``put_ms``)."""
        if seq not in self._groups:
            self._groups[seq] = (queue, put_ms, fields)

    def group_of(self, seq: int | None) -> GroupFields | None:
        """The group fields a view saw on message ``seq`` (None: none seen, or all initial)."""
        found = self._groups.get(seq) if seq is not None else None
        return None if found is None else found[2]

    def groups_seen(self, queue: str, until: int | None = None) -> list[GroupFields]:
        """The group fields of every message seen on ``queue`` (put by ``until``, if given)."""
        return [
            fields
            for where, put_ms, fields in self._groups.values()
            if where == queue and (until is None or put_ms <= until)
        ]

    def fold(self, log: Sequence[Event]) -> None:
        """Name the reports in new events after the message they report on.

        The engine logs a report's own ``put`` (cause ``qmgr``) just before the ``report`` event
        of the discarded message (docs/engine.md, "The event log"); ``log`` is the whole log.
        """
        for i in range(self._folded, len(log)):
            event = log[i]
            if event.kind != "report" or event.msg_seq is None:
                continue
            for earlier in reversed(log[self._folded : i]):
                if earlier.kind == "put" and earlier.cause == "qmgr" and earlier.qmgr == event.qmgr:
                    if earlier.msg_seq is not None and earlier.msg_seq not in self._by_seq:
                        name = self.of(event.msg_seq, event.msg_id)
                        self._name(earlier.msg_seq, REPORT_PREFIX + name)
                    break
                if earlier.kind == "discard":
                    break  # this report was thrown away: no put of it stands before
        self._folded = len(log)

    def carry(self, log: Sequence[Event], senders: Mapping[str, Labels]) -> None:
        """Name each message a channel delivered in new events after the message sent (the
        ``channel-arrive`` event names it); ``senders``: labels of the sending queue managers."""
        for event in log[self._carried :]:
            if event.kind != "channel-arrive" or event.msg_seq is None:
                continue
            found = _ARRIVED_FROM.match(event.detail)
            source = senders.get(found["qmgr"]) if found else None
            if found and source is not None and event.msg_seq not in self._by_seq:
                sent = source.of(int(found["seq"]))
                if not sent.startswith("#"):  # a message never seen keeps its fallback name
                    self._name(event.msg_seq, sent)
        self._carried = len(log)


_REGISTRY: WeakKeyDictionary[QueueManagerPort, Labels] = WeakKeyDictionary()


def labels_for(qm: QueueManagerPort) -> Labels:
    """The labels of ``qm``'s messages, shared by every view of it."""
    found = _REGISTRY.get(qm)
    if found is None:
        found = _REGISTRY[qm] = Labels()
    return found


def attach(qm: QueueManager, labels: Labels) -> None:
    """Make ``labels`` the labels of ``qm`` (a queue manager restored from a snapshot)."""
    _REGISTRY[qm] = labels
