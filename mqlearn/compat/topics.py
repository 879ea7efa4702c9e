"""Topic (MQOPEN of a topic, MQPUT to it) and Subscription (MQSUB, and the MQCLOSE that ends
a subscription) for the shims; the subscription work is in :mod:`mqlearn.compat.subscribing`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mqlearn.compat import CMQC, CMQCFC, authority, subscribing
from mqlearn.compat.calls import T, common_q_args, encode_payload, engine_call, text
from mqlearn.compat.convert import from_engine, md_in, pmo_in
from mqlearn.compat.mqopts import MQOpts
from mqlearn.engine import Topic as EngineTopic

if TYPE_CHECKING:
    from mqlearn.compat.connection import QueueManager


class Topic:
    """A topic opened for publishing (``Topic(qmgr, topic_name=..., topic_string=...)``)."""

    def __init__(
        self,
        queue_manager: QueueManager,
        topic_name: Any = None,
        topic_string: Any = None,
        topic_desc: MQOpts | None = None,
        open_opts: int | None = None,
    ) -> None:
        self._qmgr = queue_manager
        self._lib = queue_manager._LIB
        self.topic_name = topic_name
        self.topic_string = topic_string
        self._desc = topic_desc
        self._handle: EngineTopic | None = None
        if topic_desc is not None:
            self.topic_name = topic_desc.ObjectName or None
            self.topic_string = topic_desc.get_vs("ObjectString")
        if open_opts:
            self._real_open(open_opts)

    def _real_open(self, options: int) -> None:
        host = self._qmgr._connected()
        name = text(self.topic_name) or None
        string = text(self.topic_string) or None
        with engine_call(self._lib, host):
            handle = EngineTopic(host.qm, name, string, options)
            authority.check_topic(
                self._lib, host, self._qmgr._user, handle.topic_string, CMQCFC.MQAUTH_PUBLISH
            )
            self._handle = handle

    def open(
        self,
        topic_name: Any = None,
        topic_string: Any = None,
        topic_desc: MQOpts | None = None,
        open_opts: int | None = None,
    ) -> None:
        if self._handle is not None:
            raise self._lib.PYIFError("The Topic is already open.")
        if topic_name:
            self.topic_name = topic_name
        if topic_string:
            self.topic_string = topic_string
        if topic_desc is not None:
            self.topic_name = topic_desc.ObjectName or None
            self.topic_string = topic_desc.get_vs("ObjectString")
        if open_opts:
            self._real_open(open_opts)

    def pub(self, msg: Any, *opts: Any) -> None:
        """MQPUT to the topic: every matching subscription gets its own copy (rule EIP-05)."""
        if isinstance(msg, str) and not self._lib.flavour.pub_str:
            raise TypeError(  # pymqi's Topic.pub takes bytes only (its Queue.put encodes str)
                "Python 3 style string (unicode) found but not allowed here: "
                f"`{msg}`. Convert to bytes."
            )
        md, pmo = common_q_args(self._lib, *opts)
        data = encode_payload(msg, md, self._qmgr)
        if pmo is None:
            pmo = self._lib.PMO()
        if self._handle is None:
            self._real_open(CMQC.MQOO_OUTPUT)
        assert self._handle is not None
        host = self._qmgr._connected()
        emd, epmo = md_in(md), pmo_in(pmo)
        with engine_call(self._lib, host):
            self._handle.pub(data, emd, epmo)
            warning = self._handle.last_reason
            if warning:
                raise self._lib.MQMIError(CMQC.MQCC_WARNING, warning)
            from_engine(emd, md)
            from_engine(epmo, pmo)

    put = pub  # ibmmq's alias (MQPUT is the verb underneath)

    def __del__(self) -> None:
        try:
            if self._handle is not None:
                self.close()
        except Exception:  # as in both libraries
            pass

    def sub(self, *opts: Any) -> Subscription:
        sub_desc = opts[0] if opts else None
        sub_queue = opts[1] if len(opts) > 1 else None
        subscription = Subscription(self._qmgr)
        subscription.sub(
            sub_desc=sub_desc,
            sub_queue=sub_queue,
            topic_name=self.topic_name,
            topic_string=self.topic_string,
        )
        return subscription

    def close(self, options: int = CMQC.MQCO_NONE) -> None:
        if self._handle is None:
            raise self._lib.PYIFError("Topic not open.")
        self._handle.close()
        self._handle = None

    def __enter__(self: T) -> T:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._handle is not None:
            self.close()


class Subscription:
    """MQSUB: a subscription and the queue its publications arrive on."""

    def __init__(
        self,
        queue_manager: QueueManager,
        sub_desc: MQOpts | None = None,
        sub_name: Any = None,
        sub_queue: Any = None,
        sub_opts: int | None = None,
        topic_name: Any = None,
        topic_string: Any = None,
    ) -> None:
        self._qmgr = queue_manager
        self._lib = queue_manager._LIB
        self.sub_queue: Any = sub_queue
        self.sub_name = sub_name
        self.sub_opts = sub_opts
        self.topic_name = topic_name
        self.topic_string = topic_string
        self._subscription: str | None = None
        self._managed: str | None = None
        self._durable = False
        if sub_desc is not None:
            self.sub(sub_desc=sub_desc)

    def get_sub_queue(self) -> Any:
        return self.sub_queue

    def get(self, max_length: int | None = None, *opts: Any) -> bytes:
        data: bytes = self.sub_queue.get(max_length, *opts)
        return data

    def sub(
        self,
        sub_desc: MQOpts | None = None,
        sub_queue: Any = None,
        sub_name: Any = None,
        sub_opts: int | None = None,
        topic_name: Any = None,
        topic_string: Any = None,
    ) -> None:
        if topic_name:
            self.topic_name = topic_name
        if topic_string:
            self.topic_string = topic_string
        if sub_name:
            self.sub_name = sub_name
        if sub_desc is None:
            sub_desc = self._lib.SD()
            sub_desc.Options = sub_opts or (
                CMQC.MQSO_CREATE | CMQC.MQSO_NON_DURABLE | CMQC.MQSO_MANAGED
            )
            if self.sub_name:
                sub_desc.set_vs("SubName", self.sub_name)
            if self.topic_name:
                sub_desc.ObjectName = self.topic_name
            if self.topic_string:
                sub_desc.set_vs("ObjectString", self.topic_string)
        elif not isinstance(sub_desc, MQOpts) or type(sub_desc).__name__ != "SD":
            raise TypeError("sub_desc must be a SD(sub descriptor) object.")
        if sub_queue is not None:
            self.sub_queue = sub_queue
        host = self._qmgr._connected()
        with engine_call(self._lib, host):
            subscribing.subscribe(self, host, sub_desc)

    def close(
        self,
        sub_close_options: int = CMQC.MQCO_NONE,
        close_sub_queue: bool = False,
        close_sub_queue_options: int = CMQC.MQCO_NONE,
    ) -> None:
        if self._subscription is None:
            raise self._lib.PYIFError("Subscription not open.")
        host = self._qmgr._connected()
        with engine_call(self._lib, host):
            subscribing.unsubscribe(self, host, sub_close_options)
        queue = self.sub_queue
        if close_sub_queue and queue is not None and queue.get_handle() is not None:
            queue.close(close_sub_queue_options)

    def __enter__(self: T) -> T:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._subscription is not None:
            self.close(close_sub_queue=True)

    def __del__(self) -> None:
        """Both libraries close a subscription left open (a non-durable one then ends)."""
        try:
            if self._subscription is not None:
                self.close()
        except Exception:  # as in both libraries
            pass
