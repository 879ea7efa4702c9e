"""The developer container's authority records, as the object authority manager applies them.

IBM's developer configuration gives the user ``app`` CONNECT and INQ on the queue manager,
BROWSE, GET, INQ and PUT on queues named DEV.**, and PUB and SUB on topics under the DEV.**
topic objects (DEV.BASE.TOPIC, 'dev/'); ``admin`` is mapped to mqm, which may do anything, as
may a program connected in bindings mode. The creator of a dynamic queue is given authority to
it, and a managed subscription's owner to its queue. Anything else ``app`` tries is 2035
MQRC_NOT_AUTHORIZED: opening another queue (the command queue, so PCF, or
SYSTEM.DEFAULT.MODEL.QUEUE), or an open option that needs more than those authorities (MQOO_SET,
the context options, MQOO_ALTERNATE_USER_AUTHORITY).
"""

from __future__ import annotations

from typing import Any

from mqlearn.compat import CMQC
from mqlearn.compat.hosting import Host

APP = "app"
# MQOPEN options app's authorities (BROWSE, GET, INQ, PUT) allow
_ALLOWED = (
    CMQC.MQOO_INPUT_AS_Q_DEF
    | CMQC.MQOO_INPUT_SHARED
    | CMQC.MQOO_INPUT_EXCLUSIVE
    | CMQC.MQOO_BROWSE
    | CMQC.MQOO_OUTPUT
    | CMQC.MQOO_INQUIRE
    | CMQC.MQOO_FAIL_IF_QUIESCING
    | CMQC.MQOO_BIND_AS_Q_DEF
    | CMQC.MQOO_BIND_ON_OPEN
    | CMQC.MQOO_BIND_NOT_FIXED
    | CMQC.MQOO_CO_OP
    | CMQC.MQOO_READ_AHEAD
    | CMQC.MQOO_NO_READ_AHEAD
    | CMQC.MQOO_READ_AHEAD_AS_Q_DEF
)


def _refuse(lib: Any, what: str) -> Exception:
    error: Exception = lib.MQMIError(
        CMQC.MQCC_FAILED, CMQC.MQRC_NOT_AUTHORIZED, detail=f"user app may not {what}"
    )
    return error


def check_queue(lib: Any, host: Host, user: str, name: str, options: int) -> None:
    """MQOPEN of a queue (or a model queue) by ``user``."""
    if user != APP or (name not in host.qm.objects and name not in host.models):
        return  # an unknown name is 2085, which MQOPEN finds first
    if not (name.startswith("DEV.") or name in host.created_by_app):
        raise _refuse(lib, f"open queue {name} (app has authority to DEV.** only)")
    if options & ~_ALLOWED:
        raise _refuse(lib, f"open {name} with options {options:#x} (app has BROWSE,GET,INQ,PUT)")


def check_topic(lib: Any, host: Host, user: str, topic_string: str) -> None:
    """Publishing or subscribing on a topic string by ``user``: app may use the topics under
    a DEV.** topic object."""
    if user != APP:
        return
    governing = [
        t
        for t in host.qm.topics.values()
        if topic_string == t.topicstr.rstrip("/") or topic_string.startswith(t.topicstr)
    ]
    if not any(t.name.startswith("DEV.") for t in governing):
        raise _refuse(lib, f"publish or subscribe on '{topic_string}' (not under DEV.BASE.TOPIC)")
