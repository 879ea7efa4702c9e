"""``mq.Topic``: a topic opened for publishing, shaped like pymqi's Topic (pub, close)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mqlearn.engine.opened import Opened
from mqlearn.mqi.structs import MD, PMO

if TYPE_CHECKING:
    from mqlearn.engine.qmgr import QueueManager


class Topic(Opened):
    """``Topic(qm, topic_name=None, topic_string=None)`` opens a topic for output (MQOPEN).

    The topic string is the topic object's TOPICSTR, then "/" and ``topic_string`` when both are
    given (IBM's rule); an unknown topic object name fails here with 2085. After every ``pub``,
    ``last_comp``/``last_reason`` hold its codes, so a warning such as MQRC_NO_SUBS_MATCHED (2550,
    with MQPMO_WARN_IF_NO_SUBS_MATCHED) can be seen without an exception; a failing ``pub`` leaves
    its error's codes there (rule MQI-01).
    """

    def __init__(
        self,
        qm: QueueManager,
        topic_name: str | None = None,
        topic_string: str | None = None,
        open_opts: int | None = None,
    ) -> None:
        self.qm = qm
        self.topic_name = topic_name
        self.topic_string = qm.pubsub.full_topic_string(topic_name, topic_string)
        super().__init__(f"topic {self.topic_string!r}", open_opts, remote=True)

    def __repr__(self) -> str:
        return f"<Topic {self.topic_string!r} on {self.qm.name}>"

    def pub(self, msg: bytes, md: MD | None = None, pmo: PMO | None = None) -> None:
        """MQPUT to the topic: every matching subscription gets its own copy (rule EIP-05)."""
        self._output(self.qm.publish, self.topic_string, msg, md, pmo)
