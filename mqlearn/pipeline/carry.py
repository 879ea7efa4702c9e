"""The messages queued before a piece of a trace, as the replay left them (not as trace rows).

A trace replayed in pieces (:mod:`mqlearn.pipeline.batches`) keeps, for every queue cut by a
piece, the messages still queued on it (:mod:`mqlearn.pipeline.carry_store`), as what the replay had
computed for them: their queue, put seq and time, priority and lane, stored Expiry and deadline,
the Report and the values the messages table shows, their identifiers as words (numbered again
for the next piece's matching gets, never parsed again; their text is written from the words
when a table shows it) and the names an expiration report would go to, as numbers in a list of
names (:class:`Names`). A piece is handed those its replay can reach as a :class:`Carried` set
(:mod:`mqlearn.pipeline.kernel`: present from the start, ahead of the piece's own messages in
every lane); they are not validated, encoded or replayed again.

A :class:`Carried` set is not a copy: it is the store's columns and the slots of the messages
handed, in delivery order (by queue, lane descending, then arrival), so the piece places them
with arithmetic on per-lane counts and copies each column once, straight into its own (no
sort, no gather to an intermediate copy). Beside them, a set keeps its messages' positions by
arrival and by (deadline, arrival), each queue's together, queues ascending: the orders the
messages table and the replay's scans walk, so that a piece orders only its own messages.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pyarrow as pa

from mqlearn.pipeline.arrays import take

# per message: name -> (dtype, trailing shape)
COLUMNS: dict[str, tuple[type, tuple[int, ...]]] = {
    "part": (np.int64, ()),  # QueueTable position of its queue
    "seq": (np.int64, ()),
    "put_ms": (np.int64, ()),
    "priority": (np.int64, ()),  # as stored
    "lane": (np.int64, ()),
    "expiry": (np.int64, ()),  # as stored, after CAPEXPRY
    "deadline": (np.int64, ()),
    "report": (np.int64, ()),
    "persistence": (np.int64, ()),
    "data_length": (np.int64, ()),
    "msg_words": (np.uint64, (3,)),  # the MsgId's 24 bytes
    "correl_words": (np.uint64, (3,)),
    "correl_null": (np.bool_, ()),  # no CorrelId
    "reply_to_q": (np.int64, ()),  # number in Names, -1: null
    "report_qmgr": (np.int64, ()),  # where its expiration report would go (number in Names)
}


class Names:
    """The names carried messages refer to (reply queues and queue managers), numbered in the
    order they were first met; shared by every set of one replay, only ever added to (a
    reader in another thread sees at least every name its numbers refer to)."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.numbers: dict[str, int] = {}
        self.lock = threading.Lock()

    def numbers_of(self, texts: pa.Array) -> np.ndarray:
        """The number of each text (-1 for null), new ones added."""
        encoded = texts.dictionary_encode()
        known = np.empty(len(encoded.dictionary) + 1, dtype=np.int64)
        known[-1] = -1  # the number of a null (its index is filled with -1)
        with self.lock:
            for k, text in enumerate(encoded.dictionary.to_pylist()):
                number = self.numbers.get(text)
                if number is None:
                    number = self.numbers[text] = len(self.texts)
                    self.texts.append(text)
                known[k] = number
        return known[encoded.indices.fill_null(-1).to_numpy().astype(np.int64)]

    def text(self, numbers: np.ndarray) -> pa.Array:
        """The text of each number (null for -1)."""
        known = self.texts[: int(numbers.max(initial=-1)) + 1]
        return take(pa.array(known, pa.string()), numbers)


@dataclass(frozen=True)
class Carried:
    """Messages queued before a piece (see the module docstring): ``at``, their places in
    ``columns`` (per :data:`COLUMNS`: a store's slots, each in a type its values fit, maybe
    narrower than the one named there), in delivery order;
    ``by_arrival`` and ``by_deadline``, positions in the set, each queue's messages together
    (queues ascending) in arrival order and by (deadline, arrival), except that in
    ``by_deadline`` the messages expired already when their queue's replay in the piece starts
    may come first in any order (the first scan in the piece discards them all at once, and the
    expired count counts them from its start), and those that cannot expire during it (deadline
    after its end) last in any order (the scans and the expired count stop at the first message
    not expired yet)."""

    columns: dict[str, np.ndarray]
    at: np.ndarray
    by_arrival: np.ndarray
    by_deadline: np.ndarray
    names: Names

    def __len__(self) -> int:
        return len(self.at)

    def column(self, name: str) -> np.ndarray:
        """The values ``name`` (of :data:`COLUMNS`) of these messages, in delivery order."""
        values: np.ndarray = self.columns[name][self.at]
        return values

    @property
    def part(self) -> np.ndarray:
        return self.column("part")


class Cold(NamedTuple):
    """The messages queued before a piece that its replay cannot reach and is not handed
    (:mod:`mqlearn.pipeline.carry_store`): per QueueTable position and lane (``q * 10 + 9 - lane``)
    how many, and per QueueTable position how many of them are expired already (they count in
    the queue's depth, and those in its expired count, from the piece's start to its end)."""

    lanes: np.ndarray
    expired: np.ndarray
