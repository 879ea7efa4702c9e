"""The parameters of an IBM MQ application activity trace, as its textual forms spell them.

IBM's samples print the same PCF parameters under different names: ``amqsact -v`` uses its own
labels (``Operation Id``, ``Resolved_Q_Name``, ``Reply_to_Q``), the C ``amqsevt -o json`` turns
the constant's name into camelCase with ``Q`` spelled ``Queue`` (``MQCACF_RESOLVED_Q_NAME`` ->
``resolvedQueueName``), the Go ``amqsevtg`` does the same without that (``resolvedQName``) or keeps
the constant (``-d s``). :func:`canonical` maps all of them to one name per parameter; unknown
names map to None and are ignored. Values come as numbers, numeric text, hexadecimal options
(``0x00002044``), ``{"name": ..., "value": ...}`` objects or constant names (``MQXF_PUT``,
``Put``, ``Expiration``, ``Priority As Queue Def``); :func:`integer` reads them all.

Sources (docs/pipeline.md, "Importing real activity traces"): IBM's ``amqsact0.c`` and
``amqsevta.c`` samples, ``amqsevtg`` in github.com/ibm-messaging/mq-metric-samples, the value
tables of github.com/ibm-messaging/mq-golang (``ibmmq/mqistr.go``, ``ibmmq/mqiPCFstr.go``) and
IBM's "Application activity trace message reference".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mqlearn.mqi import cmqc as C

# MQXF_* operation identifiers (cmqxc.h), the values of MQIACF_OPERATION_ID
MQXF: dict[str, int] = {
    "MQXF_INIT": 1,
    "MQXF_TERM": 2,
    "MQXF_CONN": 3,
    "MQXF_CONNX": 4,
    "MQXF_DISC": 5,
    "MQXF_OPEN": 6,
    "MQXF_CLOSE": 7,
    "MQXF_PUT1": 8,
    "MQXF_PUT": 9,
    "MQXF_GET": 10,
    "MQXF_DATA_CONV_ON_GET": 11,
    "MQXF_INQ": 12,
    "MQXF_SET": 13,
    "MQXF_BEGIN": 14,
    "MQXF_CMIT": 15,
    "MQXF_BACK": 16,
    "MQXF_STAT": 18,
    "MQXF_CB": 19,
    "MQXF_CTL": 20,
    "MQXF_CALLBACK": 21,
    "MQXF_SUB": 22,
    "MQXF_SUBRQ": 23,
    "MQXF_XACLOSE": 24,
    "MQXF_XACOMMIT": 25,
    "MQXF_XACOMPLETE": 26,
    "MQXF_XAEND": 27,
    "MQXF_XAFORGET": 28,
    "MQXF_XAOPEN": 29,
    "MQXF_XAPREPARE": 30,
    "MQXF_XARECOVER": 31,
    "MQXF_XAROLLBACK": 32,
    "MQXF_XASTART": 33,
    "MQXF_AXREG": 34,
    "MQXF_AXUNREG": 35,
}
OPERATION_NAMES = {value: name for name, value in MQXF.items()}
MQCMD_ACTIVITY_TRACE = 209  # the PCF command of an activity trace message
MQOT_Q, MQOT_TOPIC = 1, 8


def _constants(prefix: str) -> dict[str, int]:
    return {k: v for k, v in vars(C).items() if k.startswith(prefix) and isinstance(v, int)}


# The value sets whose constants a sample may print instead of the number.
ENUMS: dict[str, dict[str, int]] = {
    "operation": MQXF,
    "comp_code": {"MQCC_OK": 0, "MQCC_WARNING": 1, "MQCC_FAILED": 2, "MQCC_UNKNOWN": -1},
    "reason_code": {k: v for k, v in vars(C).items() if k.startswith("MQRC_")},
    "priority": {"MQPRI_PRIORITY_AS_Q_DEF": -1, "MQPRI_PRIORITY_AS_PARENT": -2},
    "persistence": {
        "MQPER_NOT_PERSISTENT": 0,
        "MQPER_PERSISTENT": 1,
        "MQPER_PERSISTENCE_AS_Q_DEF": 2,
        "MQPER_PERSISTENCE_AS_PARENT": -1,
    },
    "expiry": {"MQEI_UNLIMITED": -1},
    "report": {k: v for k, v in _constants("MQRO_").items() if 0 <= v < 2**31},
    "msg_type": {"MQMT_REQUEST": 1, "MQMT_REPLY": 2, "MQMT_REPORT": 4, "MQMT_DATAGRAM": 8},
    "object_type": {"MQOT_Q": MQOT_Q, "MQOT_TOPIC": MQOT_TOPIC},
}

# canonical name -> the names the samples give the parameter, normalised by _normal()
_ALIASES: dict[str, tuple[str, ...]] = {
    # the header of an activity trace message
    "qmgr": ("qmgrname", "qmanager"),
    "appl_name": ("applname", "applicationname"),
    "process_id": ("processid", "applicationpid"),
    "sequence_number": ("sequencenumber", "seqnumber"),
    "connection_id": ("connectionid",),
    "event_type": ("eventtype",),
    # every operation
    "operation": ("operationid",),
    "thread_id": ("threadid", "applicationtid"),
    "operation_date": ("operationdate",),
    "operation_time": ("operationtime",),
    "highres_time": ("highrestime",),
    "comp_code": ("compcode", "completioncode"),
    "reason_code": ("reasoncode",),
    "hobj": ("hobj",),
    # MQOPEN, MQPUT, MQPUT1, MQGET
    "object_type": ("objecttype",),
    "object_name": ("objectname",),
    "object_qmgr": ("objectqmgrname",),
    "resolved_q": ("resolvedqname",),
    "resolved_qmgr": ("resolvedqmgr", "resolvedqmgrname"),
    "resolved_local_q": ("resolvedlocalqname",),
    "resolved_local_qmgr": ("resolvedlocalqmgr", "resolvedlocalqmgrname"),
    "put_options": ("putoptions",),
    "get_options": ("getoptions",),
    "recs_present": ("recspresent",),
    "msg_length": ("msglength",),
    # the message descriptor
    "report": ("report", "reportoptions"),
    "msg_type": ("msgtype",),
    "expiry": ("expiry",),
    "priority": ("priority",),
    "persistence": ("persistence",),
    "msg_id": ("msgid",),
    "correl_id": ("correlid",),
    "reply_to_q": ("replytoq",),
    "reply_to_qmgr": ("replytoqmgr",),
    "put_date": ("putdate",),
    "put_time": ("puttime",),
}
_CANONICAL = {alias: name for name, aliases in _ALIASES.items() for alias in aliases}
_RAW_CONSTANT = re.compile(r"MQ[A-Z0-9]+_[A-Z0-9_]+")


def _normal(name: str) -> str:
    """``Resolved_Q_Name`` / ``resolvedQueueName`` / ``MQCACF_RESOLVED_Q_NAME`` -> resolvedqname."""
    name = name.strip()
    if _RAW_CONSTANT.fullmatch(name):
        name = name.split("_", 1)[1]
    return re.sub(r"[\s_]", "", name).lower().replace("queue", "q")


def canonical(name: str) -> str | None:
    """The canonical name of a parameter as a sample spells it, or None if not one we use."""
    return _CANONICAL.get(_normal(name))


def _pretty(constant: str) -> str:
    """A constant as the samples print it readably: MQPRI_PRIORITY_AS_Q_DEF -> priorityasqdef
    (after _normal: case, spaces and the Q/Queue spelling do not matter)."""
    return _normal(constant.split("_", 1)[1])


_BY_NAME: dict[str, dict[str, int]] = {
    family: {
        **{_pretty(k): v for k, v in names.items()},
        **{k.lower(): v for k, v in names.items()},
    }
    for family, names in ENUMS.items()
}


def integer(value: Any, family: str | None = None) -> int:
    """An integer parameter as any sample prints it; raises ValueError if it is not one."""
    if isinstance(value, Mapping):
        if "value" not in value:
            raise ValueError(f"no 'value' in {dict(value)!r}")
        return integer(value["value"], family)
    if isinstance(value, bool) or value is None:
        raise ValueError(f"not an integer: {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    text = str(value).strip()
    if re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    if re.fullmatch(r"0[xX][0-9a-fA-F]{1,8}", text):
        number = int(text, 16)
        return number - 2**32 if number >= 2**31 else number
    names = _BY_NAME.get(family or "", {})
    for key in (text.lower(), _normal(text)):
        if key in names:
            return names[key]
    raise ValueError(f"not an integer{f' ({family})' if family else ''}: {value!r}")


def hex_id(value: Any) -> str:
    """A byte-string parameter (MsgId, CorrelId) as lower-case hex; raises ValueError."""
    text = re.sub(r"\s", "", str(value)).lower()
    if not re.fullmatch(r"([0-9a-f]{2})*", text):
        raise ValueError(f"not hexadecimal bytes: {value!r}")
    return text


def text(value: Any) -> str:
    """A string parameter without the blanks and NULs that pad MQ names."""
    return str(value).rstrip(" \x00")


@dataclass
class Operation:
    """One MQI operation of an activity trace (a ``MQGACF_ACTIVITY_TRACE`` group)."""

    line: int  # where it starts in the file, from 1
    fields: dict[str, Any] = field(default_factory=dict)  # canonical name -> value as printed


@dataclass
class Record:
    """One activity trace message: its header parameters and its operations.

    ``not_trace`` says why a record of the file is not an activity trace (another event), or is
    None. ``md_correl_id`` is the message descriptor's CorrelId (the connection id), when the
    form shows it (``amqsact``).
    """

    line: int
    header: dict[str, Any] = field(default_factory=dict)
    operations: list[Operation] = field(default_factory=list)
    not_trace: str | None = None
    md_correl_id: str | None = None


class ActivityFormatError(ValueError):
    """The file is not in the format it was said to be in (names the file and line)."""
