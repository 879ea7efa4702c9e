"""The simulator: virtual time, queue managers, queues, topics, channels and the event log."""

from mqlearn.engine.channel import Channel
from mqlearn.engine.events import Event
from mqlearn.engine.handle import Queue
from mqlearn.engine.message_properties import MessageHandle, Property
from mqlearn.engine.qmgr import QueueManager
from mqlearn.engine.reply import reply_md, report_expired
from mqlearn.engine.simulation import Simulation
from mqlearn.engine.topic import Topic

__all__ = [
    "Channel",
    "Event",
    "MessageHandle",
    "Property",
    "Queue",
    "QueueManager",
    "Simulation",
    "Topic",
    "reply_md",
    "report_expired",
]
