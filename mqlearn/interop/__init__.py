"""Real IBM MQ formats: dmpmqmsg dumps, amqsbcg-style prints and an MQSC subset (docs/interop.md)."""

from mqlearn.engine.qmgr import QueueManager
from mqlearn.interop.amqsbcg import browse_amqsbcg, format_amqsbcg, format_amqsbcg_run
from mqlearn.interop.dmpmqmsg import (
    DumpedMessage,
    dump_dmpmqmsg,
    format_dmpmqmsg,
    load_dmpmqmsg,
    parse_dmpmqmsg,
)
from mqlearn.interop.dump_errors import DumpFormatError
from mqlearn.interop.mqsc import run as run_mqsc

# qm.mqsc(...) runs this layer's MQSC: registered here, as the engine cannot import it
QueueManager.mqsc_runner = run_mqsc

__all__ = [
    "DumpFormatError",
    "DumpedMessage",
    "browse_amqsbcg",
    "dump_dmpmqmsg",
    "format_amqsbcg",
    "format_amqsbcg_run",
    "format_dmpmqmsg",
    "load_dmpmqmsg",
    "parse_dmpmqmsg",
    "run_mqsc",
]
