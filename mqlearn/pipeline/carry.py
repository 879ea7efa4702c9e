"""The messages still queued at a cut of a trace, as the replay left them (not as trace rows).

A trace replayed in pieces (:mod:`mqlearn.pipeline.batches`) carries, for every queue cut by a
piece, the messages still queued on it. They are carried as what the replay had computed for
them: their queue, put seq and time, priority and lane, stored Expiry and deadline, the Report
and the values the messages table shows, their identifiers as words (to be numbered again for
the next piece's matching gets, never parsed again) and their text. The next piece starts its
queues from them (:mod:`mqlearn.pipeline.kernel`: present from the start, ahead of the piece's
own messages in every lane); they are not validated, encoded or replayed again, so a piece costs
what its own rows cost plus copying the arrays of the messages carried through it.

The messages of one queue are kept in arrival (put seq) order; queues may come in any order.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np
import pyarrow as pa

# the text a message keeps: its identifiers, and where its expiration report would go
TEXT = pa.schema(
    [(name, pa.string()) for name in ("msg_id", "correl_id", "reply_to_q", "report_qmgr")]
)


@dataclass(frozen=True)
class Carried:
    """Per message still queued (see the module docstring)."""

    part: np.ndarray  # QueueTable position of its queue
    seq: np.ndarray
    put_ms: np.ndarray
    priority: np.ndarray  # as stored
    lane: np.ndarray
    expiry: np.ndarray  # as stored, after CAPEXPRY
    deadline: np.ndarray
    report: np.ndarray
    persistence: np.ndarray
    data_length: np.ndarray
    msg_words: np.ndarray  # (n, 3) uint64: the MsgId's 24 bytes
    correl_words: np.ndarray  # (n, 3) uint64
    correl_null: np.ndarray  # bool: no CorrelId
    text: pa.Table  # TEXT

    def __len__(self) -> int:
        return len(self.part)

    @classmethod
    def empty(cls) -> Carried:
        arrays = {f.name: np.zeros(0, dtype=np.int64) for f in fields(cls)}
        for name in ("msg_words", "correl_words"):
            arrays[name] = np.zeros((0, 3), dtype=np.uint64)
        arrays["correl_null"] = np.zeros(0, dtype=bool)
        return cls(**{**arrays, "text": TEXT.empty_table()})

    def take(self, positions: np.ndarray) -> Carried:
        """These messages (positions in this set), in that order."""
        arrays = {
            f.name: getattr(self, f.name)[positions] for f in fields(self) if f.name != "text"
        }
        return Carried(**arrays, text=self.text.take(pa.array(positions, pa.int64())))

    def of_queues(self, wanted: np.ndarray) -> tuple[Carried, Carried]:
        """(the messages of the queues ``wanted`` holds (bool per QueueTable position), the
        others)."""
        mine = wanted[self.part]
        if mine.all():
            return self, Carried.empty()
        if not mine.any():
            return Carried.empty(), self
        return self.take(np.flatnonzero(mine)), self.take(np.flatnonzero(~mine))

    def __add__(self, other: Carried) -> Carried:
        """Both sets (of different queues)."""
        if not len(other):
            return self
        if not len(self):
            return other
        arrays = {
            f.name: np.concatenate((getattr(self, f.name), getattr(other, f.name)))
            for f in fields(self)
            if f.name != "text"
        }
        return Carried(**arrays, text=pa.concat_tables([self.text, other.text]).combine_chunks())
