"""Dynamic queues: MQOPEN of a model queue makes a local queue named after the OD's DynamicQName
("AMQ.*" by default: the '*' becomes a suffix unique within the queue manager), with the model's
attributes. A temporary dynamic queue (DEFTYPE TEMPDYN, SYSTEM.DEFAULT.MODEL.QUEUE's) is deleted,
messages and all, when the handle that made it is closed; a permanent one only on MQCO_DELETE
(empty) or MQCO_DELETE_PURGE.
"""

from __future__ import annotations

from typing import Any

from mqlearn.compat import CMQC
from mqlearn.compat.hosting import Host
from mqlearn.mqi.errors import MQMIError  # the engine's: engine_call turns it into the library's

MAX_NAME = 48


def dynamic_name(host: Host, pattern: str) -> str:
    """The queue name a DynamicQName gives: a trailing '*' becomes a unique suffix."""
    if not pattern:
        pattern = "AMQ.*"
    if pattern.endswith("*"):
        prefix = pattern[:-1][:33]
        return (prefix + host.unique_suffix())[:MAX_NAME]
    return pattern


def create(lib: Any, host: Host, model_name: str, pattern: str) -> str:
    """Make the dynamic queue an open of ``model_name`` asks for; returns its name."""
    model = host.models[model_name]
    name = dynamic_name(host, pattern)
    if name in host.qm.objects:
        raise lib.MQMIError(CMQC.MQCC_FAILED, CMQC.MQRC_OBJECT_ALREADY_EXISTS)
    host.qm.define_qlocal(name, **model.attrs)
    host.dynamic[name] = model.deftype
    return name


def delete(host: Host, name: str) -> None:
    """Delete a dynamic queue and whatever is on it (no reports: MQ generates none)."""
    if name in host.qm.objects:
        host.qm.clear_qlocal(name)
        host.qm.delete_queue(name)
    host.dynamic.pop(name, None)
    host.opened.pop(name, None)


def on_close(host: Host, name: str, options: int, *, creator: bool) -> None:
    """What MQCLOSE does to a dynamic queue: the handle that made a temporary one deletes it;
    MQCO_DELETE (empty) or MQCO_DELETE_PURGE delete a permanent one."""
    deftype = host.dynamic.get(name)
    if deftype is None:
        return
    if (deftype == "TEMPDYN" and creator) or options & CMQC.MQCO_DELETE_PURGE:
        delete(host, name)
    elif options & CMQC.MQCO_DELETE:
        if host.qm.curdepth(name):
            raise MQMIError(CMQC.MQCC_FAILED, CMQC.MQRC_Q_NOT_EMPTY)
        delete(host, name)


def host_forget(host: Host, name: str) -> None:
    """A queue was deleted by command: forget what the shims kept about it."""
    host.dynamic.pop(name, None)
    host.opened.pop(name, None)
