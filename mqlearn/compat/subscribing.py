"""MQSUB and the MQCLOSE of a subscription, on the engine's DEFINE SUB.

A managed subscription (MQSO_MANAGED) gets a queue the queue manager makes for it, as MQ does:
SYSTEM.MANAGED.NDURABLE.* for a non-durable one (deleted, publications and all, when the
subscription is closed), SYSTEM.MANAGED.DURABLE.* for a durable one (kept with the subscription,
which outlives the connection and is resumed by name with MQSO_RESUME, until closed with
MQCO_REMOVE_SUB). Each subscription's queue receives its own copy of a publication, which
expires on its own (rule EIP-05).
"""

from __future__ import annotations

from typing import Any

from mqlearn.compat import CMQC, CMQCFC, authority, dynamic
from mqlearn.compat.hosting import Host


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bytes):
        value = value.split(b"\0", 1)[0].decode("utf-8")
    return str(value).strip()


def subscribe(sub: Any, host: Host, sd: Any) -> None:
    from mqlearn.compat.queue import Queue

    lib = sub._lib
    qm = host.qm
    options = sd.Options
    durable = bool(options & CMQC.MQSO_DURABLE)
    managed = bool(options & CMQC.MQSO_MANAGED)
    name = _text(sd.get_vs("SubName"))
    if durable and not name:
        raise lib.MQMIError(CMQC.MQCC_FAILED, CMQC.MQRC_SUB_NAME_ERROR)
    existing = qm.subscriptions.get(name) if name else None
    if options & CMQC.MQSO_RESUME and not options & CMQC.MQSO_CREATE:
        if existing is None:
            raise lib.MQMIError(CMQC.MQCC_FAILED, CMQC.MQRC_NO_SUBSCRIPTION)
        dest = existing.dest
    else:
        if existing is not None:
            if not options & CMQC.MQSO_RESUME:
                raise lib.MQMIError(CMQC.MQCC_FAILED, CMQC.MQRC_SUB_ALREADY_EXISTS)
            dest = existing.dest
        else:
            topic_object = _text(sd.ObjectName) or None
            topic_string = _text(sd.get_vs("ObjectString")) or None
            full = qm.pubsub.full_topic_string(topic_object, topic_string)
            authority.check_topic(lib, host, sub._qmgr._user, full, CMQCFC.MQAUTH_SUBSCRIBE)
            if managed:
                model = "SYSTEM.DURABLE.MODEL.QUEUE" if durable else "SYSTEM.NDURABLE.MODEL.QUEUE"
                prefix = "SYSTEM.MANAGED.DURABLE.*" if durable else "SYSTEM.MANAGED.NDURABLE.*"
                dest = dynamic.create(lib, host, model, prefix)
                host.dynamic.pop(dest)  # the subscription, not a handle's close, ends it
                host.created_by_app.add(dest)  # the subscriber may get from it
            else:
                queue = sub.sub_queue
                if queue is None:
                    raise lib.MQMIError(CMQC.MQCC_FAILED, CMQC.MQRC_HOBJ_ERROR)
                dest = queue.get_name() if hasattr(queue, "get_name") else _text(queue)
            if not name:
                name = f"{qm.name}.NDURABLE.{host.unique_suffix()}"
            try:
                qm.define_sub(name, dest=dest, topicstr=topic_string, topicobj=topic_object)
            except Exception:
                if managed:
                    dynamic.delete(host, dest)
                raise
    sub._subscription = name
    sub._durable = durable
    sub._managed = dest if managed else None
    if managed or sub.sub_queue is None:
        queue = Queue(sub._qmgr)
        queue._od = lib.OD(ObjectName=dest.encode("ascii"))
        queue._open_opts = CMQC.MQOO_INPUT_AS_Q_DEF | CMQC.MQOO_BROWSE
        queue._real_open()
        sub.sub_queue = queue
    sd.ObjectName = sd.ObjectName
    if hasattr(sd, "SubNameVSLength"):
        sd.set_vs("SubName", name)


def unsubscribe(sub: Any, host: Host, options: int) -> None:
    name = sub._subscription
    remove = not sub._durable or options & CMQC.MQCO_REMOVE_SUB
    if remove and name in host.qm.subscriptions:
        host.qm.delete_sub(name)
        if sub._managed:
            queue = sub.sub_queue
            if queue is not None and queue.get_handle() is not None:
                queue._handle.close()
                queue._handle = None
            dynamic.delete(host, sub._managed)
    sub._subscription = None
