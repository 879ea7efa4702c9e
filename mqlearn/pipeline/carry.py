"""The messages still queued at a cut of a trace, as the replay left them (not as trace rows).

A trace replayed in pieces (:mod:`mqlearn.pipeline.batches`) carries, for every queue cut by a
piece, the messages still queued on it. They are carried as what the replay had computed for
them: their queue, put seq and time, priority and lane, stored Expiry and deadline, the Report
and the values the messages table shows, their identifiers as words (numbered again for the
next piece's matching gets, never parsed again; their text is written from the words when a
table shows it) and the names an expiration report would go to, as numbers in a list of names
(:class:`Names`). The next piece starts its queues from them (:mod:`mqlearn.pipeline.kernel`:
present from the start, ahead of the piece's own messages in every lane); they are not
validated, encoded or replayed again.

A :class:`Carried` set holds them as whole columns in **delivery order**: by queue
(QueueTable position), lane descending, then arrival, the order the replay numbers a piece's
messages in. A piece therefore places them with arithmetic on per-lane counts (no sort, no
gather through an index), and the next set is its still-queued messages taken as they lie.
Beside the columns, a set keeps its messages' positions by arrival and by (deadline, arrival),
each queue's together, queues ascending: the orders the messages table and the replay's scans
walk, kept from the pieces before, so that a piece orders only its own messages. Nothing in a
set is changed once made (a piece's tables may be built in another thread while the next
piece is replayed).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from mqlearn.pipeline.arrays import take
from mqlearn.pipeline.ids import hex_text

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
# the texts a table may show of a carried message: written from words, or looked up in Names
TEXTS = ("msg_id", "correl_id", "reply_to_q", "report_qmgr")


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
    """Messages still queued (see the module docstring): ``values`` per :data:`COLUMNS` in
    delivery order; ``by_arrival`` and ``by_deadline``, positions in the set, each queue's
    messages together (queues ascending) in arrival order and by (deadline, arrival)."""

    values: dict[str, np.ndarray]
    by_arrival: np.ndarray
    by_deadline: np.ndarray
    names: Names

    def __len__(self) -> int:
        return len(self.by_arrival)

    @classmethod
    def empty(cls, names: Names | None = None) -> Carried:
        values = {
            name: np.zeros((0, *shape), dtype=dtype) for name, (dtype, shape) in COLUMNS.items()
        }
        none = np.zeros(0, dtype=np.int64)
        return cls(values, none, none, Names() if names is None else names)

    def column(self, name: str) -> np.ndarray:
        """The values ``name`` (of :data:`COLUMNS`) of these messages, in delivery order."""
        return self.values[name]

    @property
    def part(self) -> np.ndarray:
        return self.values["part"]

    def text(self, name: str, positions: np.ndarray) -> pa.Array:
        """The text ``name`` (of :data:`TEXTS`) of the messages at ``positions`` (-1: null)."""
        missing = positions < 0
        at = np.where(missing, 0, positions)
        if name in ("msg_id", "correl_id"):
            prefix = "msg" if name == "msg_id" else "correl"
            null = missing | (self.values["correl_null"][at] if prefix == "correl" else False)
            if not len(self):
                return pa.nulls(len(positions), pa.string())
            return hex_text(self.values[f"{prefix}_words"][at], null)
        if not len(self):
            return pa.nulls(len(positions), pa.string())
        return self.names.text(np.where(missing, -1, self.values[name][at]))

    def take(self, keep: np.ndarray) -> Carried:
        """The messages where ``keep`` (bool per message) holds, in the same orders."""
        renumbered = np.cumsum(keep) - 1
        values = {name: array[keep] for name, array in self.values.items()}
        by_arrival = self.by_arrival[keep[self.by_arrival]]
        by_deadline = self.by_deadline[keep[self.by_deadline]]
        return Carried(values, renumbered[by_arrival], renumbered[by_deadline], self.names)

    def of_queues(self, wanted: np.ndarray) -> tuple[Carried, Carried]:
        """(the messages of the queues ``wanted`` holds (bool per QueueTable position), the
        others)."""
        mine = wanted[self.part]
        if mine.all():
            return self, Carried.empty(self.names)
        if not mine.any():
            return Carried.empty(self.names), self
        return self.take(mine), self.take(~mine)

    def joined(self, other: Carried) -> Carried:
        """Both sets (of different queues, of one replay), in delivery order."""
        if not len(other):
            return self
        if not len(self):
            return other
        if other.names is not self.names:
            raise ValueError("carried sets of two replays cannot be joined")
        part = np.concatenate((self.part, other.part))
        order = np.argsort(part, kind="stable")  # the queues of each set stay in their order
        at = np.empty(len(order), dtype=np.int64)
        at[order] = np.arange(len(order))
        values = {
            name: np.concatenate((array, other.values[name]))[order]
            for name, array in self.values.items()
        }

        def by(first: np.ndarray, second: np.ndarray) -> np.ndarray:
            positions = at[np.concatenate((first, second + len(self)))]
            return positions[np.argsort(values["part"][positions], kind="stable")]

        return Carried(
            values,
            by(self.by_arrival, other.by_arrival),
            by(self.by_deadline, other.by_deadline),
            self.names,
        )
