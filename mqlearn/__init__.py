"""mqlearn: learn IBM MQ message expiry on an exact simulator with a virtual clock.

The names mirror pymqi/ibmmq (MD, GMO, PMO, Queue.put/get, MQMIError) so that what a learner types
here transfers to real MQ code; see docs/engine.md for the behaviour and ../shared rules for IDs.
"""

from mqlearn.engine import Channel, Event, Queue, QueueManager, Simulation, reply_md, report_expired
from mqlearn.mqi import (
    CMQC,
    GMO,
    MD,
    MQDLH,
    MQTM,
    MQXQH,
    PMO,
    MQMIError,
    MQWarning,
    reason_name,
)

__version__ = "0.1.0"

__all__ = [
    "CMQC",
    "GMO",
    "MD",
    "MQDLH",
    "MQTM",
    "MQXQH",
    "PMO",
    "Channel",
    "Event",
    "MQMIError",
    "MQWarning",
    "Queue",
    "QueueManager",
    "Simulation",
    "reason_name",
    "reply_md",
    "report_expired",
]
