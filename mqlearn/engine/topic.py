"""``mq.Topic``: a topic opened for publishing, shaped like pymqi's Topic (pub, close)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mqlearn.engine import open_options
from mqlearn.engine.validate import fail
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError
from mqlearn.mqi.structs import MD, PMO

if TYPE_CHECKING:
    from mqlearn.engine.qmgr import QueueManager


class Topic:
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
        self.topic_string = qm.full_topic_string(topic_name, topic_string)
        self.open_opts = open_options.checked(open_opts, what="a topic", remote=True)
        self.last_comp = C.MQCC_OK
        self.last_reason = C.MQRC_NONE
        self.closed = False

    def __repr__(self) -> str:
        return f"<Topic {self.topic_string!r} on {self.qm.name}>"

    def pub(self, msg: bytes, md: MD | None = None, pmo: PMO | None = None) -> None:
        """MQPUT to the topic: every matching subscription gets its own copy (rule EIP-05)."""
        try:
            if self.closed:
                raise fail(C.MQRC_HOBJ_ERROR, f"handle for topic {self.topic_string!r} is closed")
            open_options.check_put(self.open_opts, f"topic {self.topic_string!r}")
            warning = self.qm.publish(self.topic_string, msg, md, pmo)
        except MQMIError as error:  # rule MQI-01: a failing call sets the codes too
            self.last_comp, self.last_reason = error.comp, error.reason
            raise
        self.last_comp = C.MQCC_WARNING if warning else C.MQCC_OK
        self.last_reason = warning

    def close(self) -> None:
        """MQCLOSE."""
        self.last_comp, self.last_reason = C.MQCC_OK, C.MQRC_NONE
        self.closed = True
