"""Messages the queue manager generates: dead letters, trigger messages and expiration reports,
and where they go.

:func:`send` puts a generated message at its destination and, when that fails, falls back as IBM
describes: reply queue → dead-letter queue → thrown away (rule RPT-06). :func:`dead_letter` puts a
message behind an MQDLH on the dead-letter queue (DLQ-01); trigger messages go through
:func:`send` from :mod:`mqlearn.engine.triggers`; :func:`expiration_report` decides whether a
discarded message asked for an expiration report and :func:`send_expiration_report` builds and
sends it (RPT-01..08; the discard that causes it is in :mod:`mqlearn.engine.mqget`, an
application's in :mod:`mqlearn.engine.reply`); :func:`dead_letter_expired` is EIP-04's other
choice. Each function reaches the queue manager through :class:`~mqlearn.engine.ports.QueueManagerPort`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mqlearn.engine import message_properties
from mqlearn.engine.descriptor import CONTEXT_FIELDS, IDENTITY_FIELDS, INITIAL
from mqlearn.engine.message import (
    CORRELID,
    CTX,
    DATA,
    EXTRA,
    MSGID,
    PRIORITY,
    PROPERTIES,
    Record,
    unflat,
)
from mqlearn.engine.rule_formulas import NEVER, deadline_of
from mqlearn.engine.transmission import original
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError, reason_name
from mqlearn.mqi.headers import MQDLH, leading_headers_length

if TYPE_CHECKING:
    from mqlearn.engine.ports import QueueManagerPort

REPORT_DATA_BYTES = 100  # _WITH_DATA reports carry the first 100 bytes of application data
PASSED_EXPIRY_TENTHS = 600  # MQRO_PASS_DISCARD_AND_EXPIRY: an expiration report lives 60 s


def send(
    qm: QueueManagerPort,
    qmgr: str,
    queue: str,
    data: bytes,
    fields: dict[str, Any],
    ctx: dict[str, Any],
    deadline: int,
    in_uow: bool = False,
) -> str:
    """Put a generated message at (queue, qmgr); on failure dead-letter it, else throw it away.

    Returns a sentence saying where it went (for the event log). ``in_uow``: a trigger message
    put in the open unit of work (rule TRG-03).
    """
    try:
        route = qm.route_to(qmgr, queue)
        qm.deliver(
            route,
            data,
            fields,
            deadline=deadline,
            ctx=ctx,
            msgid=fields.get("MsgId"),
            in_uow=in_uow,
        )
        if in_uow:
            return f"put to {queue} at {qmgr or qm.name} in the unit of work"
        return f"sent to {queue} at {qmgr or qm.name}"
    except MQMIError as error:
        reason = error.reason
    if dead_letter(qm, data, fields, ctx, deadline, reason, queue, qmgr or qm.name, in_uow):
        return f"{queue} refused it ({reason_name(reason)}): put on dead-letter queue {qm.deadq}"
    return (
        f"{queue} refused it ({reason_name(reason)}) and no dead-letter queue took it: thrown away"
    )


def dead_letter(
    qm: QueueManagerPort,
    data: bytes,
    fields: dict[str, Any],
    ctx: dict[str, Any],
    deadline: int,
    reason: int,
    dest_q: str,
    dest_qmgr: str,
    in_uow: bool = False,
) -> bool:
    """Put a message on the dead-letter queue behind an MQDLH, keeping its deadline (DLQ-01).

    The MQDLH is in the queue manager's encoding and character set (the dead letter's MD says so:
    MQENC_NATIVE, MQCCSI_Q_MGR, which the put turns into the CCSID, rule MD-04); its own
    CodedCharSetId is the original data's.
    """
    if not qm.deadq:
        return False
    date, time = qm.sim.stamp(qm.sim.now)
    ccsid = fields.get("CodedCharSetId", C.MQCCSI_Q_MGR)
    if ccsid in (C.MQCCSI_Q_MGR, C.MQCCSI_INHERIT):
        ccsid = qm.ccsid
    header = MQDLH(
        Reason=reason,
        DestQName=dest_q,
        DestQMgrName=dest_qmgr,
        Encoding=fields.get("Encoding", C.MQENC_NATIVE),
        CodedCharSetId=ccsid,
        Format=fields.get("Format", C.MQFMT_NONE),
        PutApplType=C.MQAT_QMGR,
        PutApplName=qm.name[:28],
        PutDate=date,
        PutTime=time,
    )
    dlq_fields = {
        **fields,
        "Format": C.MQFMT_DEAD_LETTER_HEADER,
        "Encoding": C.MQENC_NATIVE,
        "CodedCharSetId": C.MQCCSI_Q_MGR,
    }
    try:
        message = qm.deliver(
            qm.route(qm.deadq),
            header.pack(C.MQENC_NATIVE) + data,
            dlq_fields,
            deadline=deadline,
            ctx=ctx,
            msgid=fields.get("MsgId"),
            in_uow=in_uow,
        )
    except MQMIError:
        return False
    qm.log(qm.deadq, "dead-letter", message, reason_name(reason), reason, f"meant for {dest_q}")
    return True


# -- expiration reports (rules RPT-01..08) and EIP-04's dead letters ------------------------------
def expiration_report(qm: QueueManagerPort, queue: str, record: Record, backouts: int) -> None:
    """Send the expiration report a message discarded from ``queue`` asked for (RPT-01..07), at
    once (never in a unit of work), and log it there. ``backouts``: its BackoutCount."""
    extra = unflat(record[EXTRA]) if record[EXTRA] is not None else {}  # Report, Format
    if extra.get("Format") == C.MQFMT_XMIT_Q_HEADER:
        fields, data, _, _ = original(qm, record, backouts)  # the message inside (RPT-04)
    elif extra.get("Report", C.MQRO_NONE) & C.MQRO_EXPIRATION_WITH_FULL_DATA:
        # the stored descriptor (RPT-03 reads it): a record keeps the fields that differ from
        # their initial values, in its put context and ``extra``
        fields = {**INITIAL, **unflat(record[CTX]), **extra}
        fields["MsgId"], fields["CorrelId"] = record[MSGID], record[CORRELID]
        fields["Priority"], data = record[PRIORITY], record[DATA]
    else:
        return  # no report asked for
    where = send_expiration_report(qm, fields, data, qm.qmgr_context)
    if where is not None:
        qm.log(queue, "report", record, "expiration", detail=where)


def dead_letter_expired(qm: QueueManagerPort, queue: str, record: Record, backouts: int) -> None:
    """EIP-04 "dead-letter": a message expired on ``queue`` goes to DEADQ behind an MQDLH whose
    Reason is MQFB_EXPIRATION, with an unlimited lifetime there (so it is kept, not expired
    again). Without a DEADQ that takes it, it is simply discarded, as IBM MQ does."""
    fields, data, _, header = original(qm, record, backouts)
    dest_q, dest_qmgr = queue, qm.name
    if header is not None:
        dest_q, dest_qmgr = header.RemoteQName, header.RemoteQMgrName
    ctx = {name: fields[name] for name in CONTEXT_FIELDS}
    dead_letter(qm, data, fields, ctx, NEVER, C.MQFB_EXPIRATION, dest_q, dest_qmgr)


def send_expiration_report(
    qm: QueueManagerPort,
    fields: dict[str, Any],
    data: bytes,
    context: Callable[[dict[str, Any]], dict[str, Any]],
) -> str | None:
    """Build and send the expiration report ``fields`` asks for; None when it asks for none.

    ``context`` gives the report's context from the original's identity fields: the queue
    manager's own (PutApplType MQAT_QMGR) when it discards, an application's otherwise (RPT-08).
    Returns where the report went.
    """
    report = fields["Report"]
    level = report & C.MQRO_EXPIRATION_WITH_FULL_DATA
    if not level:
        return None
    if level == C.MQRO_EXPIRATION:
        body = b""
    elif level == C.MQRO_EXPIRATION_WITH_DATA:
        body = data[: leading_headers_length(data, fields["Format"]) + REPORT_DATA_BYTES]
    else:
        body = data
    passing = bool(report & C.MQRO_PASS_DISCARD_AND_EXPIRY)
    report_fields = {
        "Version": C.MQMD_VERSION_2,
        "Report": C.MQRO_DISCARD_MSG if passing and report & C.MQRO_DISCARD_MSG else C.MQRO_NONE,
        "MsgType": C.MQMT_REPORT,
        "Feedback": C.MQFB_EXPIRATION,
        "Encoding": fields["Encoding"],
        "CodedCharSetId": fields["CodedCharSetId"],
        "Format": fields["Format"],
        "Priority": fields["Priority"],
        "Persistence": fields["Persistence"],
        "MsgId": fields["MsgId"] if report & C.MQRO_PASS_MSG_ID else qm.new_msgid(),
        "CorrelId": fields["CorrelId"] if report & C.MQRO_PASS_CORREL_ID else fields["MsgId"],
        "ReplyToQ": "",
        "ReplyToQMgr": qm.name,
        "GroupId": fields["GroupId"],
        "MsgSeqNumber": fields["MsgSeqNumber"],
        "Offset": fields["Offset"],
        "MsgFlags": fields["MsgFlags"],
        "OriginalLength": (
            fields["OriginalLength"] if fields["OriginalLength"] != C.MQOL_UNDEFINED else len(data)
        ),
    }
    if PROPERTIES in fields:  # the original's properties a report copies (RPT-03)
        carried = message_properties.copied(fields[PROPERTIES], C.MQCOPY_REPORT)
        if carried is not None:
            report_fields[PROPERTIES] = carried
    ctx = context({name: fields[name] for name in IDENTITY_FIELDS})
    deadline = deadline_of(PASSED_EXPIRY_TENTHS, qm.sim.now) if passing else NEVER
    return send(qm, fields["ReplyToQMgr"], fields["ReplyToQ"], body, report_fields, ctx, deadline)
