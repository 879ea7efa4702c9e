"""The messages still queued at a cut of a trace, as the replay left them (not as trace rows).

A trace replayed in pieces (:mod:`mqlearn.pipeline.batches`) carries, for every queue cut by a
piece, the messages still queued on it. They are carried as what the replay had computed for
them: their queue, put seq and time, priority and lane, stored Expiry and deadline, the Report
and the values the messages table shows, their identifiers as words (to be numbered again for
the next piece's matching gets, never parsed again) and their text. The next piece starts its
queues from them (:mod:`mqlearn.pipeline.kernel`: present from the start, ahead of the piece's
own messages in every lane); they are not validated, encoded or replayed again.

Their values live in a :class:`Backlog`, an append-only store of slots that outlives the pieces:
a piece appends the messages its rows left queued (once each, their text as one chunk), and a
:class:`Carried` set is only the slots of its messages and their order by deadline. Taking part
of a set, or joining two, moves two integers per message, never the values or the text; a
message's text is read from its chunk only when a table shows it. Slots of messages that have
left stay behind until the store holds more than 1.5 times the live ones
(:meth:`Carried.compacted`), so copying them costs a constant per message over the whole trace,
not per piece it is carried through.

The messages of one queue are kept in arrival (put seq) order; queues may come in any order.
A store is never changed where a set points into it (appends fill slots no set holds yet,
compaction makes a new store): a piece's tables may be built in another thread while the next
piece is replayed.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from mqlearn.pipeline.arrays import take
from mqlearn.pipeline.order import group_order

# the text a message keeps: its identifiers, and where its expiration report would go
TEXT = pa.schema(
    [(name, pa.string()) for name in ("msg_id", "correl_id", "reply_to_q", "report_qmgr")]
)
# per message, beside its text: name -> (dtype, trailing shape)
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
}
MAX_CHUNKS = 8  # text chunks a store holds before they are joined into one
SPARE_SLOTS = 16_384  # slots of messages gone a store may hold beyond half as many as live ones


@dataclass(frozen=True)
class Backlog:
    """Slots ``0:size`` of per-message values (:data:`COLUMNS`, arrays with room to grow) and
    their text: chunk ``k`` of ``chunks`` (:data:`TEXT`) holds slots ``starts[k]:starts[k+1]``.
    Stores made by appending share the arrays; ``filled`` (shared too) says how many slots of
    them hold values, so that only the latest store appends in place."""

    values: dict[str, np.ndarray]
    size: int
    starts: np.ndarray  # first slot of each chunk, then size
    chunks: tuple[pa.Table, ...]
    filled: np.ndarray  # one int64

    @classmethod
    def empty(cls) -> Backlog:
        values: dict[str, np.ndarray] = {
            name: np.zeros((0, *shape), dtype=dtype) for name, (dtype, shape) in COLUMNS.items()
        }
        return cls(values, 0, np.zeros(1, dtype=np.int64), (), np.zeros(1, dtype=np.int64))

    def append(self, values: dict[str, np.ndarray], text: pa.Table) -> tuple[Backlog, np.ndarray]:
        """This store with ``n`` more messages (values per :data:`COLUMNS`, text per
        :data:`TEXT`), and their slots. The arrays grow by half; slots this store holds are
        left as they are."""
        n = text.num_rows
        if not n:
            return self, np.zeros(0, dtype=np.int64)
        size = self.size + n
        room = len(self.values["part"])
        fresh = size > room or self.filled[0] != self.size  # else the slots after ours are free
        filled = np.array([size], dtype=np.int64) if fresh else self.filled
        grown = {}
        for name, array in self.values.items():
            if fresh:
                bigger = np.empty(
                    (max(size, room + room // 2), *array.shape[1:]), dtype=array.dtype
                )
                bigger[: self.size] = array[: self.size]
                array = bigger
            array[self.size : size] = values[name]
            grown[name] = array
        chunks, starts = (*self.chunks, text), np.append(self.starts, size)
        if len(chunks) > MAX_CHUNKS:
            chunks = (pa.concat_tables(chunks).combine_chunks(),)
            starts = np.array([0, size], dtype=np.int64)
        filled[0] = size
        slots = np.arange(self.size, size, dtype=np.int64)
        return Backlog(grown, size, starts, chunks, filled), slots

    def text(self, name: str, slots: np.ndarray) -> pa.Array:
        """The text ``name`` of these slots (null where a slot is -1), read chunk by chunk."""
        wanted = np.flatnonzero(slots >= 0)
        if not len(wanted):
            return pa.nulls(len(slots), pa.string())
        chunk = np.searchsorted(self.starts, slots[wanted], "right") - 1
        if chunk[0] == chunk[-1] and (chunk == chunk[0]).all():  # one chunk: no regrouping
            column = self.chunks[chunk[0]][name].chunk(0)
            return take(column, np.where(slots >= 0, slots - self.starts[chunk[0]], -1))
        order = group_order(chunk, len(self.chunks))
        bounds = np.searchsorted(chunk[order], np.arange(len(self.chunks) + 1))
        pieces = []
        for k, (lo, hi) in enumerate(itertools.pairwise(bounds.tolist())):
            if hi > lo:
                rows = slots[wanted[order[lo:hi]]] - self.starts[k]
                pieces.append(self.chunks[k][name].chunk(0).take(pa.array(rows)))
        gathered = pa.concat_arrays(pieces)  # in (chunk, position) order
        at = np.full(len(slots), -1, dtype=np.int64)
        at[wanted[order]] = np.arange(len(wanted))
        return take(gathered, at)


@dataclass(frozen=True)
class Carried:
    """Messages still queued (see the module docstring): their slots in ``store``, and
    ``by_deadline``, their positions in this set with each queue's messages by (deadline,
    arrival), the order the replay's scans and expired counts walk (queues interleaved in any
    way): kept from the pieces before, so that a piece sorts only its own messages by
    deadline."""

    store: Backlog
    slots: np.ndarray
    by_deadline: np.ndarray

    def __len__(self) -> int:
        return len(self.slots)

    @classmethod
    def empty(cls) -> Carried:
        return cls(Backlog.empty(), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))

    def column(self, name: str) -> np.ndarray:
        """The values ``name`` (of :data:`COLUMNS`) of these messages, in order."""
        values: np.ndarray = self.store.values[name][self.slots]
        return values

    @property
    def part(self) -> np.ndarray:
        return self.column("part")

    def text(self, name: str, positions: np.ndarray) -> pa.Array:
        """The text ``name`` of the messages at ``positions`` in this set (-1: null)."""
        return self.store.text(name, np.where(positions >= 0, self.slots[positions], -1))

    def take(self, positions: np.ndarray) -> Carried:
        """These messages (positions in this set, increasing)."""
        renumbered = np.full(len(self) + 1, -1, dtype=np.int64)
        renumbered[positions] = np.arange(len(positions))
        by_deadline = renumbered[self.by_deadline]
        return Carried(self.store, self.slots[positions], by_deadline[by_deadline >= 0])

    def of_queues(self, wanted: np.ndarray) -> tuple[Carried, Carried]:
        """(the messages of the queues ``wanted`` holds (bool per QueueTable position), the
        others)."""
        mine = wanted[self.part]
        none = Carried(self.store, self.slots[:0], self.by_deadline[:0])
        if mine.all():
            return self, none
        if not mine.any():
            return none, self
        return self.take(np.flatnonzero(mine)), self.take(np.flatnonzero(~mine))

    def and_then(
        self, values: dict[str, np.ndarray], text: pa.Table, by_deadline: np.ndarray
    ) -> Carried:
        """These messages followed by new ones (of other queues, or after these in arrival
        order), stored in this set's store; ``by_deadline`` is that of the whole result."""
        store, slots = self.store.append(values, text)
        return Carried(store, np.concatenate((self.slots, slots)), by_deadline)

    def joined(self, other: Carried) -> Carried:
        """Both sets (of different queues), of one store."""
        if other.store is not self.store:
            raise ValueError("carried sets of two stores cannot be joined")
        by_deadline = np.concatenate((self.by_deadline, other.by_deadline + len(self)))
        return Carried(self.store, np.concatenate((self.slots, other.slots)), by_deadline)

    def compacted(self) -> Carried:
        """This set in a store of its own messages only, when the store holds more than
        1.5 times them plus :data:`SPARE_SLOTS` slots (else this set): the slots of messages
        gone are dropped once they outnumber half the live ones, a copy amortised over their
        appends."""
        store = self.store
        if store.size <= len(self) + len(self) // 2 + SPARE_SLOTS:
            return self
        values = {name: array[self.slots] for name, array in store.values.items()}
        text = pa.table({name: store.text(name, self.slots) for name in TEXT.names}, schema=TEXT)
        fresh, slots = Backlog.empty().append(values, text)
        return Carried(fresh, slots, self.by_deadline)
