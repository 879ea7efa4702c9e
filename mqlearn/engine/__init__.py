"""The simulator: virtual time, queue managers, queues, channels and the event log."""

from mqlearn.engine.channel import Channel
from mqlearn.engine.events import Event
from mqlearn.engine.handle import Queue
from mqlearn.engine.qmgr import QueueManager
from mqlearn.engine.reply import reply_md, report_expired
from mqlearn.engine.simulation import Simulation

__all__ = ["Channel", "Event", "Queue", "QueueManager", "Simulation", "reply_md", "report_expired"]
