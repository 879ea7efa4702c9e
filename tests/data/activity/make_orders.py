"""Write orders.amqsact.txt, orders.amqsevt.json and orders.amqsevtg.json: one activity, three forms.

    python tests/data/activity/make_orders.py tests/data/activity

Each operation is a list of (PCF parameter, kind, value), in the order IBM's "Variable parameters
for application activity MQI operations" lists them; the header follows "Application activity
trace message data". Three renderers print the same records the way IBM's samples do:

- amqsact -v: printMonitoring, printMonitoringRecord, printMonInteger, printMonString and
  printMonByteString of amqsact0.c (labels from its MonitoringIntegerFields, MonitoringStringFields,
  MonitoringByteStringFields tables);
- amqsevt -o json: formatEvent, lookup, formatConstantBase, jsonFormatAttr, printLineNN, isNumeric
  and removeComma of amqsevta.c (MQ 9.1);
- amqsevtg (default output): printElem, prettyName and prettyValString of
  github.com/ibm-messaging/mq-metric-samples amqsevtg/format.go, with Go's sorted map keys.

Not a capture from a running queue manager: see README.md and docs/pipeline.md.
"""

from __future__ import annotations

import json
import re
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

OUT = Path(sys.argv[1])
T0 = datetime(2024, 3, 14, 9, 0, 0, tzinfo=UTC)
EPOCH_US = int(T0.timestamp()) * 1_000_000


def msgid(n: int) -> bytes:
    return b"AMQ QM1".ljust(16, b" ") + bytes.fromhex(f"65F2C0500100{n:04X}")


ZERO = bytes(24)
CONN = {
    "orders-app": b"AMQCQM1".ljust(16, b" ") + bytes.fromhex("65F2C05001000010"),
    "billing": b"AMQCQM1".ljust(16, b" ") + bytes.fromhex("65F2C05001000020"),
}
I, S, B, I64 = "int", "str", "bytes", "int64"


def at(seconds: float) -> tuple[str, str, int]:
    moment = T0 + timedelta(seconds=seconds)
    us = EPOCH_US + round(seconds * 1_000_000)
    return moment.strftime("%Y-%m-%d"), moment.strftime("%H:%M:%S"), us


def common(op: int, tid: int, seconds: float) -> list:
    date, time, us = at(seconds)
    return [
        ("MQIACF_OPERATION_ID", I, op),
        ("MQIACF_THREAD_ID", I, tid),
        ("MQCACF_OPERATION_DATE", S, date),
        ("MQCACF_OPERATION_TIME", S, time),
        ("MQIAMO64_HIGHRES_TIME", I64, us),
    ]


def conn(tid: int, seconds: float, appl: str) -> list:
    return common(4, tid, seconds) + [
        ("MQBACF_CONNECTION_ID", B, CONN[appl]),
        ("MQCA_Q_MGR_NAME", S, "QM1"),
        ("MQIACF_COMP_CODE", I, 0),
        ("MQIACF_REASON_CODE", I, 0),
        ("MQIACF_CONNECT_OPTIONS", I, 0x40),
    ]


def open_(tid: int, seconds: float, hobj: int, queue: str, options: int) -> list:
    return common(6, tid, seconds) + [
        ("MQIACF_OBJECT_TYPE", I, 1),
        ("MQCACF_OBJECT_NAME", S, queue),
        ("MQCACF_OBJECT_Q_MGR_NAME", S, ""),
        ("MQIACF_HOBJ", I, hobj),
        ("MQIACF_COMP_CODE", I, 0),
        ("MQIACF_REASON_CODE", I, 0),
        ("MQIACF_OPEN_OPTIONS", I, options),
        ("MQCACF_RESOLVED_Q_NAME", S, queue),
        ("MQCACF_RESOLVED_Q_MGR", S, "QM1"),
        ("MQCACF_RESOLVED_LOCAL_Q_NAME", S, queue),
        ("MQCACF_RESOLVED_LOCAL_Q_MGR", S, "QM1"),
        ("MQIACF_RESOLVED_TYPE", I, 1),
    ]


def close(tid: int, seconds: float, hobj: int) -> list:
    return common(7, tid, seconds) + [
        ("MQIACF_HOBJ", I, hobj),
        ("MQIACF_CLOSE_OPTIONS", I, 0),
        ("MQIACF_COMP_CODE", I, 0),
        ("MQIACF_REASON_CODE", I, 0),
    ]


def simple(op: int, tid: int, seconds: float) -> list:
    return common(op, tid, seconds) + [
        ("MQIACF_COMP_CODE", I, 0),
        ("MQIACF_REASON_CODE", I, 0),
    ]


def md(report, expiry, priority, persistence, mid, reply_q, reply_qmgr, put_at) -> list:
    put_date, put_time = "", ""
    if put_at is not None:
        moment = T0 + timedelta(seconds=put_at)
        put_date = moment.strftime("%Y%m%d")
        put_time = moment.strftime("%H%M%S") + f"{moment.microsecond // 10000:02d}"
    return [
        ("MQIACF_REPORT", I, report),
        ("MQIACF_MSG_TYPE", I, 8),
        ("MQIACF_EXPIRY", I, expiry),
        ("MQCACH_FORMAT_NAME", S, "MQSTR" if put_at is not None else ""),
        ("MQIACF_PRIORITY", I, priority),
        ("MQIACF_PERSISTENCE", I, persistence),
        ("MQBACF_MSG_ID", B, mid),
        ("MQBACF_CORREL_ID", B, ZERO),
        ("MQCACF_REPLY_TO_Q", S, reply_q),
        ("MQCACF_REPLY_TO_Q_MGR", S, reply_qmgr),
        ("MQIA_CODED_CHAR_SET_ID", I, 1208 if put_at is not None else 0),
        ("MQIACF_ENCODING", I, 546),
        ("MQCACF_PUT_DATE", S, put_date),
        ("MQCACF_PUT_TIME", S, put_time),
    ]


def put(
    tid,
    seconds,
    hobj,
    queue,
    *,
    expiry,
    priority,
    report=0,
    persistence=0,
    n,
    reply_q="",
    reply_qmgr="",
    length=100,
    put1=False,
    comp=0,
    reason=0,
    options=0x2044,
):
    resolved = comp == 0
    head = common(8 if put1 else 9, tid, seconds)
    params = []
    if put1:
        params += [
            ("MQIACF_OBJECT_TYPE", I, 1),
            ("MQCACF_OBJECT_NAME", S, queue),
            ("MQCACF_OBJECT_Q_MGR_NAME", S, ""),
            ("MQIACF_COMP_CODE", I, comp),
            ("MQIACF_REASON_CODE", I, reason),
            ("MQIACF_PUT_OPTIONS", I, options),
        ]
    else:
        params += [
            ("MQIACF_HOBJ", I, hobj),
            ("MQIACF_PUT_OPTIONS", I, options),
            ("MQIACF_COMP_CODE", I, comp),
            ("MQIACF_REASON_CODE", I, reason),
        ]
    params += [
        ("MQIACF_MSG_LENGTH", I, length),
        ("MQIACF_RECS_PRESENT", I, 0),
        ("MQIACF_KNOWN_DEST_COUNT", I, 1 if resolved else 0),
        ("MQIACF_UNKNOWN_DEST_COUNT", I, 0),
        ("MQIACF_INVALID_DEST_COUNT", I, 0 if resolved else 1),
    ]
    if not put1:
        params += [("MQCACF_OBJECT_NAME", S, queue)]
    if resolved:
        params += [
            ("MQCACF_RESOLVED_Q_NAME", S, queue),
            ("MQCACF_RESOLVED_Q_MGR", S, "QM1"),
            ("MQCACF_RESOLVED_LOCAL_Q_NAME", S, queue),
            ("MQCACF_RESOLVED_LOCAL_Q_MGR", S, "QM1"),
        ]
    params += md(
        report,
        expiry,
        priority,
        persistence,
        msgid(n) if resolved else ZERO,
        reply_q,
        reply_qmgr,
        seconds if resolved else None,
    )
    return head + params


def get(
    tid,
    seconds,
    hobj,
    queue,
    options,
    *,
    found=None,
    expiry=-1,
    priority=-1,
    persistence=2,
    report=0,
    reply_q="",
    reply_qmgr="",
    length=0,
    put_at=None,
):
    ok = found is not None
    return (
        common(10, tid, seconds)
        + [
            ("MQIACF_HOBJ", I, hobj),
            ("MQIACF_GET_OPTIONS", I, options),
            ("MQIACF_COMP_CODE", I, 0 if ok else 2),
            ("MQIACF_REASON_CODE", I, 0 if ok else 2033),
            ("MQIACF_MSG_LENGTH", I, length if ok else 0),
            ("MQIACF_BUFFER_LENGTH", I, 4096),
            ("MQCACF_OBJECT_NAME", S, queue),
            ("MQCACF_RESOLVED_Q_NAME", S, queue),
        ]
        + md(
            report,
            expiry,
            priority,
            persistence,
            msgid(found) if ok else ZERO,
            reply_q,
            reply_qmgr,
            put_at if ok else None,
        )
    )


EXPIRATION, WITH_DATA = 0x200000, 0x600000
BROWSE_FIRST, NO_SYNC, SYNC, FIQ = 0x10, 0x4, 0x2, 0x2000
RECORDS = [
    {
        "appl": "orders-app",
        "pid": 4242,
        "user": "app",
        "start": 0.0,
        "end": 12.2,
        "ops": [
            conn(1, 0.000, "orders-app"),
            open_(1, 0.010, 2, "APP.ORDERS", 0x2010),
            put(
                1,
                0.100,
                2,
                "APP.ORDERS",
                expiry=50,
                priority=4,
                report=EXPIRATION,
                n=1,
                reply_q="APP.REPORTS",
                reply_qmgr="QM1",
                length=512,
            ),
            put(1, 0.200, 2, "APP.ORDERS", expiry=600, priority=4, persistence=1, n=2, length=256),
            put(1, 0.300, 2, "APP.ORDERS", expiry=-1, priority=1, n=3, length=128),
            put(
                1,
                0.400,
                None,
                "APP.AUDIT",
                expiry=30,
                priority=0,
                report=WITH_DATA,
                n=4,
                reply_q="APP.REPORTS",
                reply_qmgr="QM1",
                length=64,
                put1=True,
            ),
            put(
                1,
                0.500,
                None,
                "APP.ORDRES",
                expiry=30,
                priority=0,
                n=0,
                put1=True,
                comp=2,
                reason=2085,
            ),
            put(1, 12.000, 2, "APP.ORDERS", expiry=20, priority=0, n=5, length=32),
            put(1, 12.050, 2, "APP.ORDERS", expiry=-1, priority=0, n=6, length=32, options=0x2042),
            simple(16, 1, 12.060),
            close(1, 12.100, 2),
            simple(5, 1, 12.200),
        ],
    },
    {
        "appl": "billing",
        "pid": 5151,
        "user": "billing",
        "start": 7.9,
        "end": 20.3,
        "ops": [
            conn(7, 7.900, "billing"),
            open_(7, 7.950, 3, "APP.ORDERS", 0x2009),
            get(
                7,
                8.000,
                3,
                "APP.ORDERS",
                BROWSE_FIRST | NO_SYNC | FIQ,
                found=2,
                expiry=522,
                priority=4,
                persistence=1,
                length=256,
                put_at=0.2,
            ),
            get(
                7,
                9.000,
                3,
                "APP.ORDERS",
                NO_SYNC | FIQ,
                found=2,
                expiry=512,
                priority=4,
                persistence=1,
                length=256,
                put_at=0.2,
            ),
            get(
                7,
                10.000,
                3,
                "APP.ORDERS",
                NO_SYNC | FIQ,
                found=3,
                expiry=-1,
                priority=1,
                persistence=0,
                length=128,
                put_at=0.3,
            ),
            get(7, 11.000, 3, "APP.ORDERS", NO_SYNC | FIQ),
            open_(7, 19.950, 4, "APP.AUDIT", 0x2001),
            get(7, 20.000, 4, "APP.AUDIT", NO_SYNC | FIQ),
            get(7, 20.100, 4, "APP.AUDIT", SYNC | FIQ),
            simple(15, 7, 20.150),
            close(7, 20.200, 4),
            close(7, 20.250, 3),
            simple(5, 7, 20.300),
        ],
    },
]


def header(rec) -> list:
    sd, st, _ = at(rec["start"])
    ed, et, _ = at(rec["end"])
    return [
        ("MQCA_Q_MGR_NAME", S, "QM1"),
        ("MQCACF_HOST_NAME", S, "mqhost1"),
        ("MQCAMO_START_DATE", S, sd),
        ("MQCAMO_START_TIME", S, st),
        ("MQCAMO_END_DATE", S, ed),
        ("MQCAMO_END_TIME", S, et),
        ("MQIA_COMMAND_LEVEL", I, 930),
        ("MQIACF_SEQUENCE_NUMBER", I, 0),
        ("MQCACF_APPL_NAME", S, rec["appl"]),
        ("MQIA_APPL_TYPE", I, 6),
        ("MQIACF_PROCESS_ID", I, rec["pid"]),
        ("MQCACF_USER_IDENTIFIER", S, rec["user"]),
        ("MQIACF_API_CALLER_TYPE", I, 1),
        ("MQIACF_API_ENVIRONMENT", I, 3),
        ("MQIACF_TRACE_DETAIL", I, 2),
        ("MQIACF_TRACE_DATA_LENGTH", I, 0),
        ("MQIACF_POINTER_SIZE", I, 8),
        ("MQIA_PLATFORM", I, 3),
    ]


# value names the samples print
MQXF = {
    4: "MQXF_CONNX",
    5: "MQXF_DISC",
    6: "MQXF_OPEN",
    7: "MQXF_CLOSE",
    8: "MQXF_PUT1",
    9: "MQXF_PUT",
    10: "MQXF_GET",
    15: "MQXF_CMIT",
    16: "MQXF_BACK",
}
MQCC = {0: "MQCC_OK", 1: "MQCC_WARNING", 2: "MQCC_FAILED"}
MQRC = {0: "MQRC_NONE", 2033: "MQRC_NO_MSG_AVAILABLE", 2085: "MQRC_UNKNOWN_OBJECT_NAME"}
MQOT = {1: "MQOT_Q"}
MQMT = {8: "MQMT_DATAGRAM"}
MQAT = {6: "MQAT_UNIX"}
MQPL = {3: "MQPL_UNIX"}
MQPRI = {-1: "MQPRI_PRIORITY_AS_Q_DEF"}
MQPER = {0: "MQPER_NOT_PERSISTENT", 1: "MQPER_PERSISTENT", 2: "MQPER_PERSISTENCE_AS_Q_DEF"}
MQRO = {0: "MQRO_NONE", EXPIRATION: "MQRO_EXPIRATION", WITH_DATA: "MQRO_EXPIRATION_WITH_DATA"}
MQXACT = {1: "MQXACT_EXTERNAL"}
MQXE = {3: "MQXE_OTHER"}
MQEI = {-1: "MQEI_UNLIMITED"}

# -- amqsact -v ---------------------------------------------------------------------------------
ACT_LABELS = {
    "MQCA_Q_MGR_NAME": "QueueManager",
    "MQCACF_HOST_NAME": "Host Name",
    "MQCAMO_START_DATE": "IntervalStartDate",
    "MQCAMO_START_TIME": "IntervalStartTime",
    "MQCAMO_END_DATE": "IntervalEndDate",
    "MQCAMO_END_TIME": "IntervalEndTime",
    "MQIA_COMMAND_LEVEL": "CommandLevel",
    "MQIACF_SEQUENCE_NUMBER": "SeqNumber",
    "MQCACF_APPL_NAME": "ApplicationName",
    "MQIA_APPL_TYPE": "Application Type",
    "MQIACF_PROCESS_ID": "ApplicationPid",
    "MQCACF_USER_IDENTIFIER": "UserId",
    "MQIACF_API_CALLER_TYPE": "API Caller Type",
    "MQIACF_API_ENVIRONMENT": "API Environment",
    "MQIACF_TRACE_DETAIL": "Trace Detail Level",
    "MQIACF_TRACE_DATA_LENGTH": "Trace Data Length",
    "MQIACF_POINTER_SIZE": "Pointer size",
    "MQIA_PLATFORM": "Platform",
    "MQIACF_OPERATION_ID": "Operation Id",
    "MQIACF_THREAD_ID": "ApplicationTid",
    "MQCACF_OPERATION_DATE": "OperationDate",
    "MQCACF_OPERATION_TIME": "OperationTime",
    "MQIAMO64_HIGHRES_TIME": "High Res Time",
    "MQBACF_CONNECTION_ID": "ConnectionId",
    "MQIACF_COMP_CODE": "Completion Code",
    "MQIACF_REASON_CODE": "Reason Code",
    "MQIACF_CONNECT_OPTIONS": "Connect Options",
    "MQIACF_OBJECT_TYPE": "Object_type",
    "MQCACF_OBJECT_NAME": "Object_name",
    "MQCACF_OBJECT_Q_MGR_NAME": "Object_Q_mgr_name",
    "MQIACF_HOBJ": "Hobj",
    "MQIACF_OPEN_OPTIONS": "Open_options",
    "MQCACF_RESOLVED_Q_NAME": "Resolved_Q_Name",
    "MQCACF_RESOLVED_Q_MGR": "Resolved_Q_mgr",
    "MQCACF_RESOLVED_LOCAL_Q_NAME": "Resolved_local_Q_name",
    "MQCACF_RESOLVED_LOCAL_Q_MGR": "Resolved_local_Q_mgr",
    "MQIACF_RESOLVED_TYPE": "Resolved_type",
    "MQIACF_CLOSE_OPTIONS": "Close Options",
    "MQIACF_PUT_OPTIONS": "Put Options",
    "MQIACF_GET_OPTIONS": "Get Options",
    "MQIACF_MSG_LENGTH": "Msg length",
    "MQIACF_BUFFER_LENGTH": "Buffer Length",
    "MQIACF_RECS_PRESENT": "Recs_present",
    "MQIACF_KNOWN_DEST_COUNT": "Known_dest_count",
    "MQIACF_UNKNOWN_DEST_COUNT": "Unknown_dest_count",
    "MQIACF_INVALID_DEST_COUNT": "Invalid_dest_count",
    "MQIACF_REPORT": "Report Options",
    "MQIACF_MSG_TYPE": "Msg_type",
    "MQIACF_EXPIRY": "Expiry",
    "MQCACH_FORMAT_NAME": "Format_name",
    "MQIACF_PRIORITY": "Priority",
    "MQIACF_PERSISTENCE": "Persistence",
    "MQBACF_MSG_ID": "Msg_id",
    "MQBACF_CORREL_ID": "Correl_id",
    "MQCACF_REPLY_TO_Q": "Reply_to_Q ",
    "MQCACF_REPLY_TO_Q_MGR": "Reply_to_Q_Mgr",
    "MQIA_CODED_CHAR_SET_ID": "Coded_char_set_id",
    "MQIACF_ENCODING": "Encoding",
    "MQCACF_PUT_DATE": "Put_date",
    "MQCACF_PUT_TIME": "Put_time",
}
ACT_NAMED = {
    "MQIACF_OPERATION_ID": MQXF,
    "MQIACF_COMP_CODE": MQCC,
    "MQIACF_OBJECT_TYPE": MQOT,
    "MQIACF_RESOLVED_TYPE": MQOT,
    "MQIACF_MSG_TYPE": MQMT,
    "MQIA_APPL_TYPE": MQAT,
    "MQIA_PLATFORM": MQPL,
    "MQIACF_API_CALLER_TYPE": MQXACT,
    "MQIACF_API_ENVIRONMENT": MQXE,
}


def hexdump(indent: str, label: str, data: bytes) -> list[str]:
    """printMonByteString of amqsact0.c."""
    out = f"{indent}{label}:"
    i = 0
    while True:
        out += f"\n{indent}{i:08X}: "
        j, chars = 0, ""
        while j < 16 and i < len(data):
            if j % 2 == 0:
                out += " "
            out += f"{data[i]:02X}"
            chars += chr(data[i]) if 32 <= data[i] < 127 else "."
            j += 1
            i += 1
        while j < 16:
            if j % 2 == 0:
                out += " "
            out += "  "
            chars += " "
            j += 1
        out += f"  '{chars}'"
        if i >= len(data):
            break
    return out.split("\n")


def act_param(indent: str, name: str, kind: str, value) -> list[str]:
    label = ACT_LABELS[name]
    if kind == B:
        return hexdump(indent, label, value)
    if kind == S:
        return [f"{indent}{label}: '{value}'"]
    named = ACT_NAMED.get(name, {})
    return [f"{indent}{label}: {named.get(value, value)}"]


def amqsact() -> str:
    lines: list[str] = []
    for rec in RECORDS:
        lines.append("MonitoringType: MQI Activity Trace")
        lines += hexdump("", "Correl_id", CONN[rec["appl"]])
        for param in header(rec):
            lines += act_param("", *param)
        for number, op in enumerate(rec["ops"]):
            lines.append(f"MQI Operation: {number}")
            for param in op:
                lines += act_param("  ", *param)
        lines.append("=" * 77)
        lines.append("")
    return "\n".join(lines) + "\n"


# -- amqsevt -o json (C) --------------------------------------------------------------------------
FORCE_UPPER = [
    "Amqp",
    "Clwl",
    "Cpi",
    "Crl",
    "Csp",
    "Dns",
    "Dn",
    "Idpw",
    "Igq",
    "Ip ",
    "Ipv",
    "Ldap",
    "Lu62",
    "Mca ",
    "Mqi",
    "Mqsc",
    "Mr ",
    "Mru",
    "Pcf",
    "Sctq",
    "Ssl",
    "Tcp",
]


def c_lookup(name: str) -> str:
    """lookup(): _Q_ -> _QUEUE_, _Q at the end -> _QUEUE."""
    if "_Q_" in name:
        head, tail = name.split("_Q_", 1)
        return f"{head}_QUEUE_{tail}"
    if name.endswith("_Q"):
        return name[:-2] + "_QUEUE"
    return name


def c_format_constant(s: str) -> str:
    """formatConstantBase(s, TRUE)."""
    if "_" not in s:
        return s
    if s == "MQOT_Q":
        return "Queue"
    chars, swap, first = list(s), False, True
    for k, c in enumerate(chars):
        if not c.isspace():
            if c.isupper() and swap:
                chars[k] = c.lower()
            if c == "_":
                swap = False
                if first:
                    first = False
                else:
                    chars[k] = " "
            else:
                swap = True
    s = "".join(chars)
    for m in FORCE_UPPER:
        s = s.replace(m, m.upper())
    s = s.replace("Zos", "zOS", 1).replace(" Os", " OS", 1).replace("_Os", "_OS", 1)
    idx = s.find("_")
    return s if idx < 0 or idx == len(s) - 1 else s[idx + 1 :]


def c_attr(s: str) -> str:
    """jsonFormatAttr()."""
    if "_" in s:
        return s
    out, upper = "", False
    for c in s:
        if c != " ":
            out += c.upper() if upper else c.lower()
            upper = False
        else:
            upper = True
    return out


def c_key(name: str) -> str:
    return c_attr(c_format_constant(c_lookup(name)))


C_FN = {
    "MQIACF_OPERATION_ID": MQXF,
    "MQIACF_OBJECT_TYPE": MQOT,
    "MQIA_APPL_TYPE": MQAT,
    "MQIA_PLATFORM": MQPL,
}
C_HEX = ("MQIACF_CONNECT_OPTIONS", "MQIACF_GET_OPTIONS", "MQIACF_PUT_OPTIONS", "MQIACF_ENCODING")


def c_value(name: str, kind: str, value) -> str:
    if kind == B:
        return '"' + value.hex().upper() + '"'
    if kind == S:
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if kind == I64:
        return str(value)
    if name in ("MQIACF_COMP_CODE", "MQIACF_REASON_CODE"):
        table = MQCC if name == "MQIACF_COMP_CODE" else MQRC
        return f'{{ "name" : "{c_format_constant(c_lookup(table[value]))}",\n\t"value" : {value} }}'
    if name in ("MQIACF_OPEN_OPTIONS", "MQIACF_CLOSE_OPTIONS"):
        flags = [(0x8, "brw"), (0x2000, "fiq"), (0x1, "in_as_q"), (0x10, "out")]
        shown = ", ".join(f'"{n}"' for bit, n in flags if value & bit) or '"None"'
        return f' {{ "options" : {value},\n\t "optionsString" : [ {shown} ] }}'
    if name in C_HEX:
        text = f"0x{value & 0xFFFFFFFF:08X}"
    elif name in C_FN:
        text = c_format_constant(c_lookup(C_FN[name][value]))
    else:
        text = str(value)
    return text if text.isdigit() else f'"{text}"'


def amqsevt() -> str:
    out = ""
    for rec in RECORDS:
        lines: list[str] = []

        def add(line: str) -> None:
            lines.append(line)

        def remove_comma() -> None:
            if lines and lines[-1].endswith(","):
                lines[-1] = lines[-1][:-1]

        _, _, end_us = at(rec["end"])
        created = datetime.fromtimestamp(end_us // 1_000_000, UTC)
        add("{")
        add('"eventSource" : { "objectName": "SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE",')
        add('                    "objectType" : "Queue" },')
        add('"eventType" : {')
        add('    "name" : "Activity Trace",')
        add('    "value" : 209')
        add("  },")
        add('"eventReason" : {')
        add('    "name" : "None",')
        add('    "value" : 0')
        add("  },")
        add('"eventCreation" : {')
        add(f'    "timeStamp"  : "{created:%Y-%m-%dT%H:%M:%SZ}",')
        add(f'    "epoch"      : {int(created.timestamp())}')
        add("  },")
        add('"eventData" : {')
        for name, kind, value in header(rec):
            add(f'  "{c_key(name)}" : {c_value(name, kind, value)},')
        for number, op in enumerate(rec["ops"]):
            if number == 0:
                add('"activityTrace" : [ {')
            else:
                remove_comma()
                add("},")
                add("{")
            for name, kind, value in op:
                add(f'  "{c_key(name)}" : {c_value(name, kind, value)},')
        remove_comma()
        add("} ")
        add("]")
        remove_comma()
        add("}")
        remove_comma()
        add("}")
        out += "\n" + "\n".join(lines) + "\n"
    return out


# -- amqsevtg (Go) ----------------------------------------------------------------------------------
def go_key(name: str) -> str:
    """prettyName()."""
    out, found, after = "", False, False
    for c in name:
        if found:
            if c == "_":
                after = True
                continue
            out += c.upper() if after else c.lower()
            after = False
        elif c == "_":
            found = True
    return out


def go_pretty(s: str) -> str:
    """prettyValString()."""
    if s == "MQOT_Q":
        s = "Queue"
    if "_" not in s:
        return s
    s = s.replace("_Q_", "_QUEUE_")
    s = re.sub("_Q$", "_QUEUE", s)
    out, found, upper = "", False, True
    for c in s:
        if found:
            if c == "_":
                c, upper = " ", True
            if upper and c != " ":
                c, upper = c.upper(), False
            else:
                c = c.lower()
            out += c
        elif c == "_":
            found = True
    for m in FORCE_UPPER:
        out = out.replace(m, m.upper())
    return out.replace("Zos", "zOS").replace(" Os", " OS").replace("_Os", "_OS")


GO_PREFIX = {
    "MQIACF_OPERATION_ID": MQXF,
    "MQIACF_OBJECT_TYPE": MQOT,
    "MQIACF_RESOLVED_TYPE": MQOT,
    "MQIACF_MSG_TYPE": MQMT,
    "MQIA_APPL_TYPE": MQAT,
    "MQIA_PLATFORM": MQPL,
    "MQIACF_PRIORITY": MQPRI,
    "MQIACF_PERSISTENCE": MQPER,
    "MQIACF_REPORT": MQRO,
    "MQIACF_API_CALLER_TYPE": MQXACT,
    "MQIACF_API_ENVIRONMENT": MQXE,
}
GMO_BITS = {
    0x2: "MQGMO_SYNCPOINT",
    0x4: "MQGMO_NO_SYNCPOINT",
    0x10: "MQGMO_BROWSE_FIRST",
    0x2000: "MQGMO_FAIL_IF_QUIESCING",
    0x1: "MQGMO_WAIT",
}
PMO_BITS = {
    0x2: "MQPMO_SYNCPOINT",
    0x4: "MQPMO_NO_SYNCPOINT",
    0x40: "MQPMO_NEW_MSG_ID",
    0x2000: "MQPMO_FAIL_IF_QUIESCING",
}
OO_BITS = {
    0x1: "MQOO_INPUT_AS_Q_DEF",
    0x8: "MQOO_BROWSE",
    0x10: "MQOO_OUTPUT",
    0x2000: "MQOO_FAIL_IF_QUIESCING",
}
CNO_BITS = {0x40: "MQCNO_HANDLE_SHARE_BLOCK"}


def go_value(name: str, kind: str, value):
    if kind == B:
        return value.hex().upper()
    if kind in (S, I64):
        return value
    if name in ("MQIACF_COMP_CODE", "MQIACF_REASON_CODE"):
        table = MQCC if name == "MQIACF_COMP_CODE" else MQRC
        return {"name": go_pretty(table[value]), "value": value}
    if name.endswith("_OPTIONS"):
        bits = {
            "MQIACF_GET_OPTIONS": GMO_BITS,
            "MQIACF_PUT_OPTIONS": PMO_BITS,
            "MQIACF_OPEN_OPTIONS": OO_BITS,
            "MQIACF_CONNECT_OPTIONS": CNO_BITS,
            "MQIACF_CLOSE_OPTIONS": {},
        }[name]
        names = [go_pretty(bits[b]) for b in sorted(bits) if value & b] or ["None"]
        return {"options": names, "value": value, "valueHex": f"0x{value:08X}"}
    table = GO_PREFIX.get(name)
    if table and value in table:
        return go_pretty(table[value])
    return value


def amqsevtg() -> str:
    out = ""
    for rec in RECORDS:
        _, _, end_us = at(rec["end"])
        created = datetime.fromtimestamp(end_us // 1_000_000, UTC)
        data = {go_key(n): go_value(n, k, v) for n, k, v in header(rec)}
        data["activityTrace"] = [
            {go_key(n): go_value(n, k, v) for n, k, v in op} for op in rec["ops"]
        ]
        event = {
            "eventSource": {
                "objectName": "SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE",
                "objectType": "Queue",
                "queueManager": "QM1",
            },
            "eventType": {"name": "Activity Trace", "value": 209},
            "msgType": {"name": "App Activity", "value": 26},
            "eventReason": {"name": "None", "value": 0},
            "eventCreation": {
                "timeStamp": f"{created:%Y-%m-%dT%H:%M:%SZ}",
                "epoch": int(created.timestamp()),
            },
            "eventData": _sorted(data),
        }
        out += json.dumps(event, indent=2) + "\n"
    return out


def _sorted(value):
    """encoding/json writes a Go map's keys in sorted order."""
    if isinstance(value, dict):
        return {k: _sorted(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted(v) for v in value]
    return value


OUT.mkdir(parents=True, exist_ok=True)
(OUT / "orders.amqsact.txt").write_text(amqsact())
(OUT / "orders.amqsevt.json").write_text(amqsevt())
(OUT / "orders.amqsevtg.json").write_text(amqsevtg())
