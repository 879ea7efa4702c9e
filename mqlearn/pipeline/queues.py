"""Queue definitions for a replay: checked once, with the engine's own attribute checks.

A bad definition is a configuration error, not a bad trace row: it raises a ValueError naming the
queue and the attribute before anything runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from mqlearn.engine.objects import QLocal, check_name
from mqlearn.engine.qmgr import PROFILES
from mqlearn.pipeline.schema import QUEUE_COLUMNS, check_columns

MAX_EXPIRY_INTERVAL_S = 99_999_999  # the range ALTER QMGR EXPRYINT accepts


@dataclass(frozen=True)
class QueueTable:
    """Checked queue definitions, one entry per (qmgr, queue), as arrays for the replay."""

    qmgr: np.ndarray  # str objects
    queue: np.ndarray
    msgdlvsq: np.ndarray
    profile: np.ndarray
    fifo: np.ndarray  # bool
    defprty: np.ndarray  # int64, as every numeric array here
    maxdepth: np.ndarray
    capexpry: np.ndarray  # tenths, -1 = NOLIMIT
    interval_ms: np.ndarray  # background expiry scan interval, 0 = none

    def __len__(self) -> int:
        return len(self.queue)

    def index(self) -> dict[tuple[str, str], int]:
        """(qmgr, queue) -> position in this table."""
        return {(m, q): i for i, (m, q) in enumerate(zip(self.qmgr, self.queue, strict=True))}

    @cached_property
    def by_queue(self) -> dict[str, list[tuple[str, int]]]:
        """queue name -> the (qmgr, position in this table) of each definition of that name
        (made once: every piece of a trace looks its queue names up in it)."""
        found: dict[str, list[tuple[str, int]]] = {}
        for i, (m, q) in enumerate(zip(self.qmgr, self.queue, strict=True)):
            found.setdefault(q, []).append((m, i))
        return found


def _definition(row: dict[str, Any]) -> tuple[str, int, int, int, str, int]:
    """One definition checked; returns (msgdlvsq, defprty, maxdepth, capexpry, profile, interval)."""
    for name in QUEUE_COLUMNS:
        if pd.isna(row[name]):
            raise ValueError(f"{name} is null")
    check_name(row["qmgr"], "queue manager name")
    capexpry = int(row["capexpry"])
    local = QLocal(
        row["queue"],
        msgdlvsq=row["msgdlvsq"],
        defprty=int(row["defprty"]),
        maxdepth=int(row["maxdepth"]),
        capexpry=capexpry,
    )
    profile = row["profile"]
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {', '.join(PROFILES)}, got {profile!r}")
    interval = int(row["expiry_interval_s"])
    if not 0 <= interval <= MAX_EXPIRY_INTERVAL_S:
        raise ValueError(f"expiry_interval_s must be 0..{MAX_EXPIRY_INTERVAL_S}, got {interval}")
    cap = -1 if local.capexpry is None else local.capexpry
    return local.msgdlvsq, local.defprty, local.maxdepth, cap, profile, interval


def queue_table(queues: pd.DataFrame) -> QueueTable:
    """Check a queue-definition frame (QUEUE_COLUMNS) and turn it into a :class:`QueueTable`."""
    check_columns(queues, QUEUE_COLUMNS, "queue definitions")
    rows = queues[list(QUEUE_COLUMNS)].to_dict("records")
    checked: list[tuple[str, int, int, int, str, int]] = []
    seen: set[tuple[str, str]] = set()
    per_qmgr: dict[str, tuple[str, int]] = {}
    for row in rows:
        key = (row["qmgr"], row["queue"])
        try:
            if key in seen:
                raise ValueError("defined twice")
            seen.add(key)
            definition = _definition(row)
        except (TypeError, ValueError) as error:
            raise ValueError(f"queue definition {key[0]}/{key[1]}: {error}") from None
        setting = (definition[4], definition[5])
        if per_qmgr.setdefault(key[0], setting) != setting:
            raise ValueError(
                f"queue definition {key[0]}/{key[1]}: profile and expiry_interval_s belong to the "
                f"queue manager, and {key[0]} has other queues with {per_qmgr[key[0]]}"
            )
        checked.append(definition)
    msgdlvsq, defprty, maxdepth, capexpry, profile, interval = [
        list(column) for column in zip(*checked, strict=True)
    ] or [[]] * 6
    return QueueTable(
        qmgr=np.array([r["qmgr"] for r in rows], dtype=object),
        queue=np.array([r["queue"] for r in rows], dtype=object),
        msgdlvsq=np.array(msgdlvsq, dtype=object),
        profile=np.array(profile, dtype=object),
        fifo=np.array([m == "FIFO" for m in msgdlvsq], dtype=bool),
        defprty=np.array(defprty, dtype=np.int64),
        maxdepth=np.array(maxdepth, dtype=np.int64),
        capexpry=np.array(capexpry, dtype=np.int64),
        interval_ms=np.array(interval, dtype=np.int64) * 1000,
    )
