"""Authority records, as the object authority manager applies them to the user ``app``.

IBM's developer configuration gives ``app`` (group mqclient) CONNECT and INQ on the queue
manager, BROWSE, GET, INQ and PUT on queues matching the profile DEV.**, and PUB and SUB on
topics under the DEV.** topic objects (DEV.BASE.TOPIC, 'dev/'); ``admin`` is mapped to mqm,
which may do anything, as may a program connected in bindings mode. The creator of a dynamic
queue is given authority to it, and a managed subscription's owner to its queue. What ``app``
tries beyond its records is 2035 MQRC_NOT_AUTHORIZED: opening another queue (the command queue,
so PCF, or SYSTEM.DEFAULT.MODEL.QUEUE), or an open option that needs an authority it lacks
(MQOO_SET, the context options, MQOO_ALTERNATE_USER_AUTHORITY). An administrator's
MQCMD_SET_AUTH_REC adds or removes authorities (:func:`set_auth_rec`).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from mqlearn.compat import CMQC, CMQCFC
from mqlearn.compat.hosting import APP_GROUP, AuthRecord, Host

APP = "app"
A = CMQCFC  # MQAUTH_* values
# The authority each MQOPEN option needs (IBM: "Authority checking for MQI calls")
NEEDED = {
    CMQC.MQOO_INPUT_AS_Q_DEF: A.MQAUTH_INPUT,
    CMQC.MQOO_INPUT_SHARED: A.MQAUTH_INPUT,
    CMQC.MQOO_INPUT_EXCLUSIVE: A.MQAUTH_INPUT,
    CMQC.MQOO_BROWSE: A.MQAUTH_BROWSE,
    CMQC.MQOO_OUTPUT: A.MQAUTH_OUTPUT,
    CMQC.MQOO_INQUIRE: A.MQAUTH_INQUIRE,
    CMQC.MQOO_SET: A.MQAUTH_SET,
    CMQC.MQOO_PASS_IDENTITY_CONTEXT: A.MQAUTH_PASS_IDENTITY_CONTEXT,
    CMQC.MQOO_PASS_ALL_CONTEXT: A.MQAUTH_PASS_ALL_CONTEXT,
    CMQC.MQOO_SET_IDENTITY_CONTEXT: A.MQAUTH_SET_IDENTITY_CONTEXT,
    CMQC.MQOO_SET_ALL_CONTEXT: A.MQAUTH_SET_ALL_CONTEXT,
    CMQC.MQOO_ALTERNATE_USER_AUTHORITY: A.MQAUTH_ALT_USER_AUTHORITY,
}
ALL_MQI = frozenset(NEEDED.values()) | {
    A.MQAUTH_CONNECT,
    A.MQAUTH_PUBLISH,
    A.MQAUTH_SUBSCRIBE,
    A.MQAUTH_RESUME,
}


@cache
def _pattern(profile: str) -> re.Pattern[str]:
    """An OAM generic profile as a regular expression: ``?`` one character and ``*`` any
    characters within a qualifier, ``**`` any number of whole qualifiers (none included)."""
    regex = re.escape(profile)
    regex = regex.replace(r"\.\*\*", "\0TAIL").replace(r"\*\*\.", "\0HEAD")
    regex = regex.replace(r"\*\*", "\0ALL").replace(r"\*", "[^.]*").replace(r"\?", "[^.]")
    regex = regex.replace("\0TAIL", r"(\.[^.]+)*").replace("\0HEAD", r"([^.]+\.)*")
    return re.compile(regex.replace("\0ALL", ".*"))


def matches(profile: str, name: str) -> bool:
    return _pattern(profile).fullmatch(name) is not None


def _records(host: Host, user: str) -> list[AuthRecord]:
    groups = host.auth_records
    return [*groups.get(user, []), *(groups.get(APP_GROUP, []) if user == APP else [])]


def has(host: Host, user: str, object_type: int, name: str, authority: int) -> bool:
    """Whether ``user`` holds ``authority`` on the object (any matching record gives it)."""
    if user != APP and user not in host.auth_records:
        return True  # admin (mqm) and bindings connections
    return any(
        record.object_type == object_type
        and authority in record.authorities
        and (object_type == CMQC.MQOT_Q_MGR or matches(record.profile, name))
        for record in _records(host, user)
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
    if name in host.created_by_app:
        return
    for option, authority in NEEDED.items():
        if options & option:
            target = CMQC.MQOT_Q_MGR if authority == A.MQAUTH_ALT_USER_AUTHORITY else CMQC.MQOT_Q
            if not has(host, user, target, name, authority):
                raise _refuse(lib, f"open {name} with option {option:#x}: no authority for it")


def check_topic(lib: Any, host: Host, user: str, topic_string: str, authority: int) -> None:
    """Publishing (MQAUTH_PUBLISH) or subscribing (MQAUTH_SUBSCRIBE) on a topic string: the
    authority comes from the topic objects above it in the topic tree."""
    if user != APP:
        return
    governing = [
        t.name
        for t in host.qm.topics.values()
        if topic_string == t.topicstr.rstrip("/") or topic_string.startswith(t.topicstr)
    ]
    if not any(has(host, user, CMQC.MQOT_TOPIC, name, authority) for name in governing):
        raise _refuse(lib, f"publish or subscribe on '{topic_string}'")


def set_auth_rec(host: Host, params: dict[int, Any]) -> None:
    """MQCMD_SET_AUTH_REC: add and remove authorities of principals or groups on a profile."""
    profile = _text(params.get(CMQCFC.MQCACF_AUTH_PROFILE_NAME, b""))
    object_type = int(params.get(CMQCFC.MQIACF_OBJECT_TYPE, CMQC.MQOT_Q))
    entities = [
        _text(e)
        for key in (CMQCFC.MQCACF_PRINCIPAL_ENTITY_NAMES, CMQCFC.MQCACF_GROUP_ENTITY_NAMES)
        for e in params.get(key, [])
    ]
    add = _auths(params.get(CMQCFC.MQIACF_AUTH_ADD_AUTHS, []))
    remove = _auths(params.get(CMQCFC.MQIACF_AUTH_REMOVE_AUTHS, []))
    for entity in entities:
        records = host.auth_records.setdefault(entity, [])
        record = next(
            (r for r in records if r.profile == profile and r.object_type == object_type), None
        )
        if record is None:
            record = AuthRecord(profile, object_type)
            records.append(record)
        record.authorities = (record.authorities - remove) | add


def _auths(values: Any) -> set[int]:
    found = set(values if isinstance(values, list) else [values])
    if found & {A.MQAUTH_ALL, A.MQAUTH_ALL_MQI}:
        found |= ALL_MQI
    return found


def _text(value: Any) -> str:
    if isinstance(value, bytes):
        value = value.decode("utf-8")
    return str(value).strip()
