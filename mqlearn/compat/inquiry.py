"""MQINQ and MQSET for the shims, and the attribute values PCF inquiries return: each selector
(MQIA_* / MQCA_*) read from the engine's definitions, character values blank-padded to IBM's
length for the attribute as MQINQ returns them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mqlearn.compat import CMQC
from mqlearn.compat.hosting import Host
from mqlearn.engine.objects import QAlias, QLocal, QRemote, QueueDefinition

Q_NAME = CMQC.MQ_Q_NAME_LENGTH  # 48
COMMAND_LEVEL = 940  # the developer container simulated is MQ 9.4
VERSION = "09040000"  # MQCA_VERSION: VVRRMMFF


def pad(value: str, length: int = Q_NAME) -> bytes:
    return value.encode("ascii").ljust(length, b" ")


def _qtype(d: QueueDefinition) -> int:
    qtypes: dict[type[QueueDefinition], int] = {
        QLocal: CMQC.MQQT_LOCAL,
        QAlias: CMQC.MQQT_ALIAS,
        QRemote: CMQC.MQQT_REMOTE,
    }
    return qtypes[type(d)]


def _inhibited(value: str) -> int:
    inhibited: int = CMQC.MQQA_PUT_INHIBITED if value == "DISABLED" else CMQC.MQQA_PUT_ALLOWED
    return inhibited


def _persistence(d: QueueDefinition) -> int:
    persistence: int = CMQC.MQPER_PERSISTENT if d.defpsist == "YES" else CMQC.MQPER_NOT_PERSISTENT
    return persistence


def queue_attributes(host: Host, d: QueueDefinition) -> dict[int, Callable[[], Any]]:
    """The selectors a queue answers, each with how to read its value now."""
    attrs: dict[int, Callable[[], Any]] = {
        CMQC.MQCA_Q_NAME: lambda: pad(d.name),
        CMQC.MQIA_Q_TYPE: lambda: _qtype(d),
        CMQC.MQIA_DEF_PRIORITY: lambda: d.defprty,
        CMQC.MQIA_DEF_PERSISTENCE: lambda: _persistence(d),
        CMQC.MQIA_INHIBIT_PUT: lambda: _inhibited(d.put),
        CMQC.MQIA_CAP_EXPIRY: lambda: -1 if d.capexpry is None else d.capexpry,
        CMQC.MQCA_Q_DESC: lambda: pad("", CMQC.MQ_Q_DESC_LENGTH),
        CMQC.MQCA_CREATION_DATE: lambda: pad(host.created[0], CMQC.MQ_DATE_LENGTH),
        CMQC.MQCA_CREATION_TIME: lambda: pad(host.created[1], CMQC.MQ_TIME_LENGTH),
        CMQC.MQIA_DEFINITION_TYPE: lambda: (
            CMQC.MQQDT_TEMPORARY_DYNAMIC
            if host.dynamic.get(d.name) == "TEMPDYN"
            else CMQC.MQQDT_PERMANENT_DYNAMIC
            if d.name in host.dynamic
            else CMQC.MQQDT_PREDEFINED
        ),
    }
    if isinstance(d, QLocal):
        attrs.update(
            {
                CMQC.MQIA_CURRENT_Q_DEPTH: lambda: host.qm.curdepth(d.name),  # rule EXP-25
                CMQC.MQIA_MAX_Q_DEPTH: lambda: d.maxdepth,
                CMQC.MQIA_MAX_MSG_LENGTH: lambda: 4194304,
                CMQC.MQIA_INHIBIT_GET: lambda: (
                    CMQC.MQQA_GET_INHIBITED if d.get == "DISABLED" else CMQC.MQQA_GET_ALLOWED
                ),
                CMQC.MQIA_MSG_DELIVERY_SEQUENCE: lambda: (
                    CMQC.MQMDS_FIFO if d.msgdlvsq == "FIFO" else CMQC.MQMDS_PRIORITY
                ),
                CMQC.MQIA_USAGE: lambda: (
                    CMQC.MQUS_TRANSMISSION if d.usage == "XMITQ" else CMQC.MQUS_NORMAL
                ),
                CMQC.MQIA_OPEN_INPUT_COUNT: lambda: host.opened.get(d.name, [0, 0])[0],
                CMQC.MQIA_OPEN_OUTPUT_COUNT: lambda: host.opened.get(d.name, [0, 0])[1],
                CMQC.MQIA_TRIGGER_CONTROL: lambda: int(d.trigger),
                CMQC.MQIA_TRIGGER_DEPTH: lambda: d.trigdpth,
                CMQC.MQIA_TRIGGER_MSG_PRIORITY: lambda: d.trigmpri,
                CMQC.MQCA_TRIGGER_DATA: lambda: pad(d.trigdata, CMQC.MQ_TRIGGER_DATA_LENGTH),
                CMQC.MQCA_INITIATION_Q_NAME: lambda: pad(d.initq or ""),
                CMQC.MQCA_BACKOUT_REQ_Q_NAME: lambda: pad(""),
                CMQC.MQIA_BACKOUT_THRESHOLD: lambda: 0,
                CMQC.MQIA_HARDEN_GET_BACKOUT: lambda: CMQC.MQQA_BACKOUT_HARDENED,
                CMQC.MQIA_SHAREABILITY: lambda: CMQC.MQQA_SHAREABLE,
                CMQC.MQIA_DEF_INPUT_OPEN_OPTION: lambda: CMQC.MQOO_INPUT_SHARED,
                CMQC.MQIA_TRIGGER_TYPE: lambda: {
                    "FIRST": CMQC.MQTT_FIRST,
                    "EVERY": CMQC.MQTT_EVERY,
                    "DEPTH": CMQC.MQTT_DEPTH,
                    "NONE": CMQC.MQTT_NONE,
                }[d.trigtype],
            }
        )
    if isinstance(d, QAlias):
        attrs[CMQC.MQCA_BASE_Q_NAME] = lambda: pad(d.target)
    if isinstance(d, QRemote):
        attrs[CMQC.MQCA_REMOTE_Q_NAME] = lambda: pad(d.rname)
        attrs[CMQC.MQCA_REMOTE_Q_MGR_NAME] = lambda: pad(d.rqmname)
        attrs[CMQC.MQCA_XMIT_Q_NAME] = lambda: pad(d.xmitq or "")
    return attrs


def qmgr_attributes(host: Host) -> dict[int, Callable[[], Any]]:
    qm = host.qm
    return {
        CMQC.MQCA_Q_MGR_NAME: lambda: pad(qm.name),
        CMQC.MQCA_DEAD_LETTER_Q_NAME: lambda: pad(qm.deadq or ""),
        CMQC.MQIA_MAX_PRIORITY: lambda: qm.maxprty,
        CMQC.MQIA_TRIGGER_INTERVAL: lambda: qm.trigint,  # TRIGINT, milliseconds (rule TRG-06)
        CMQC.MQIA_CODED_CHAR_SET_ID: lambda: qm.ccsid,
        CMQC.MQIA_PLATFORM: lambda: CMQC.MQPL_UNIX,
        CMQC.MQIA_COMMAND_LEVEL: lambda: COMMAND_LEVEL,
        CMQC.MQCA_VERSION: lambda: pad(VERSION, CMQC.MQ_VERSION_LENGTH),
        CMQC.MQIA_MAX_MSG_LENGTH: lambda: 4194304,
        CMQC.MQIA_SYNCPOINT: lambda: CMQC.MQSP_AVAILABLE,
        CMQC.MQCA_COMMAND_INPUT_Q_NAME: lambda: pad("SYSTEM.ADMIN.COMMAND.QUEUE"),
        CMQC.MQCA_Q_MGR_DESC: lambda: pad("", CMQC.MQ_Q_MGR_DESC_LENGTH),
    }


def _answer(lib: Any, attrs: dict[int, Callable[[], Any]], selectors: Any) -> Any:
    wanted = selectors if isinstance(selectors, list) else [selectors]
    values = {}
    for selector in wanted:
        if selector not in attrs:
            raise lib.MQMIError(CMQC.MQCC_FAILED, CMQC.MQRC_SELECTOR_ERROR)
        values[selector] = attrs[selector]()
    return values if isinstance(selectors, list) else values[selectors]


def inquire_queue(lib: Any, host: Host, name: str, selectors: Any) -> Any:
    return _answer(lib, queue_attributes(host, host.qm.definition(name)), selectors)


def inquire_qmgr(lib: Any, host: Host, selectors: Any) -> Any:
    return _answer(lib, qmgr_attributes(host), selectors)


# MQSET may change these (IBM: InhibitGet, InhibitPut, the trigger attributes), as MQSC names.
SETTABLE: dict[int, tuple[str, Callable[[Any], Any]]] = {
    CMQC.MQIA_INHIBIT_PUT: (
        "put",
        lambda v: "DISABLED" if v == CMQC.MQQA_PUT_INHIBITED else "ENABLED",
    ),
    CMQC.MQIA_INHIBIT_GET: (
        "get",
        lambda v: "DISABLED" if v == CMQC.MQQA_GET_INHIBITED else "ENABLED",
    ),
    CMQC.MQIA_TRIGGER_CONTROL: ("trigger", lambda v: bool(v)),
    CMQC.MQIA_TRIGGER_DEPTH: ("trigdpth", int),
    CMQC.MQIA_TRIGGER_MSG_PRIORITY: ("trigmpri", int),
    CMQC.MQCA_TRIGGER_DATA: (
        "trigdata",
        lambda v: (v.decode() if isinstance(v, bytes) else v).strip(),
    ),
}


def set_queue(lib: Any, host: Host, name: str, values: dict[int, Any]) -> None:
    """MQSET: 2067 for a selector MQSET cannot change."""
    changes = {}
    for selector, value in values.items():
        if selector not in SETTABLE:
            raise lib.MQMIError(CMQC.MQCC_FAILED, CMQC.MQRC_SELECTOR_ERROR)
        attr, convert = SETTABLE[selector]
        changes[attr] = convert(value)
    host.qm.alter(name, **changes)
