"""mqlearn: learn IBM MQ message expiry on an exact simulator with a virtual clock.

The names mirror pymqi/ibmmq (MD, GMO, PMO, Queue.put/get, MQMIError) so that what a learner types
here transfers to real MQ code; see docs/engine.md for the behaviour and for the rule IDs (EXP-22,
RPT-03, ...) that tests and notebooks cite.
"""

from typing import Any

from mqlearn import interop, patterns
from mqlearn.engine import (
    Channel,
    Event,
    MessageHandle,
    Property,
    Queue,
    QueueManager,
    Simulation,
    Topic,
    reply_md,
    report_expired,
)
from mqlearn.mqi import (
    CMQC,
    GMO,
    MD,
    MQDLH,
    MQMDE,
    MQTM,
    MQXQH,
    PMO,
    MQMIError,
    MQWarning,
    reason_name,
)

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """``mq.viz``, ``mq.checks`` and ``mq.pipeline`` load on first use: they pull in plotly,
    ipywidgets or pyspark, which a script that only drives the engine does not need."""
    if name in ("viz", "checks", "pipeline"):
        import importlib

        return importlib.import_module(f"mqlearn.{name}")
    raise AttributeError(f"module 'mqlearn' has no attribute {name!r}")


__all__ = [
    "CMQC",
    "GMO",
    "MD",
    "MQDLH",
    "MQMDE",
    "MQTM",
    "MQXQH",
    "PMO",
    "Channel",
    "Event",
    "MQMIError",
    "MQWarning",
    "MessageHandle",
    "Property",
    "Queue",
    "QueueManager",
    "Simulation",
    "Topic",
    "interop",
    "patterns",
    "reason_name",
    "reply_md",
    "report_expired",
]
