"""``queue_frame``: the messages of a local queue as a pandas DataFrame, in delivery order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mqlearn.engine.message import STATE_NAMES
from mqlearn.engine.rule_formulas import NEVER, is_expired, remaining_tenths
from mqlearn.mqi import cmqc as C

if TYPE_CHECKING:
    import pandas as pd

    from mqlearn.engine.objects import QLocal
    from mqlearn.engine.qmgr import QueueManager

COLUMNS = (
    "position",
    "msg_id",
    "correl_id",
    "priority",
    "lane",
    "put_ms",
    "deadline_ms",
    "expiry",
    "expired",
    "state",
    "backout_count",
    "length",
    "format",
    "report",
    "reply_to_q",
    "reply_to_qmgr",
)


def queue_rows(qm: QueueManager, local: QLocal) -> list[dict[str, Any]]:
    """One dict per message on the queue (all states), in delivery order; pandas-free."""
    now = qm.sim.now
    rows = []
    for position, m in enumerate(local.store.messages()):
        state = STATE_NAMES[m.state]
        if m.locker is not None and m.state == 0:
            state = "locked"
        rows.append(
            {
                "position": position,
                "msg_id": m.msgid.hex(),
                "correl_id": m.correlid.hex(),
                "priority": m.priority,
                "lane": m.lane,
                "put_ms": m.put_ms,
                "deadline_ms": None if m.deadline == NEVER else m.deadline,
                "expiry": remaining_tenths(m.deadline, now),
                "expired": is_expired(m.deadline, now),
                "state": state,
                "backout_count": m.backouts,
                "length": len(m.data),
                "format": m.field("Format", C.MQFMT_NONE),
                "report": m.field("Report", C.MQRO_NONE),
                "reply_to_q": m.field("ReplyToQ", ""),
                "reply_to_qmgr": m.field("ReplyToQMgr", ""),
            }
        )
    return rows


def queue_frame(qm: QueueManager, local: QLocal) -> pd.DataFrame:
    import pandas as pd

    frame = pd.DataFrame(queue_rows(qm, local), columns=list(COLUMNS))
    return frame.astype({"deadline_ms": "Int64"})
