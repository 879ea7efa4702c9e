"""The event log: what happened, when, where and to which message (docs/engine.md, "The event log")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import pandas as pd

KINDS = (
    "put",
    "publish",
    "get",
    "browse",
    "discard",
    "report",
    "dead-letter",
    "trigger",
    "commit",
    "backout",
    "scan",
    "channel-send",
    "channel-arrive",
    "clear",
    "failed",
)


class Event(NamedTuple):
    """One entry of the log. ``expiry`` is the remaining Expiry in tenths at that moment;
    ``deadline`` the exact virtual time (ms) the message becomes eligible for discard (rule
    EXP-20), None when it never does or the event concerns no message.

    ``msg_seq`` names the message the event concerns: a number its queue manager gave it when it
    arrived, never reused (MsgIds can repeat; this cannot). A message keeps it through a unit of
    work and a backout; a copy that a channel delivers, a report or a dead letter is a new message
    with a number of its own.
    """

    seq: int
    time_ms: int
    qmgr: str
    queue: str
    kind: str
    msg_id: bytes | None
    msg_seq: int | None
    priority: int | None
    expiry: int | None
    cause: str
    reason: int
    detail: str
    deadline: int | None


COLUMNS = Event._fields


def events_frame(events: list[Event]) -> pd.DataFrame:
    """The log as a pandas DataFrame, MsgIds as hex text (pandas is imported only here)."""
    import pandas as pd

    rows: list[dict[str, Any]] = [e._asdict() for e in events]
    for row in rows:
        if row["msg_id"] is not None:
            row["msg_id"] = row["msg_id"].hex()
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    integers = {"msg_seq": "Int64", "priority": "Int64", "expiry": "Int64", "deadline": "Int64"}
    return frame.astype(integers)
