"""Read a whole queue the way IBM's utilities do: one MQGET after another until 2033."""

from __future__ import annotations

from mqlearn.engine import Queue, QueueManager
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError
from mqlearn.mqi.structs import GMO, MD


def read_all(qm: QueueManager, queue: str, gmo: GMO) -> list[tuple[MD, bytes]]:
    """Every message ``queue`` returns with ``gmo``'s options, each in a version-2 MD.

    The calls are real ones on the simulated queue, so expired messages met on the way are
    discarded, never returned (rules EXP-21, EXP-24), and each Expiry is the remaining lifetime
    (EXP-11). Each call gets its own copy of ``gmo``. Opening a missing queue raises 2085.
    """
    handle = Queue(qm, queue)
    messages: list[tuple[MD, bytes]] = []
    try:
        while True:
            md = MD(Version=C.MQMD_VERSION_2)
            try:
                data = handle.get(None, md, gmo.copy())
            except MQMIError as error:
                if error.reason == C.MQRC_NO_MSG_AVAILABLE:
                    return messages
                raise
            messages.append((md, data))
    finally:
        handle.close()
