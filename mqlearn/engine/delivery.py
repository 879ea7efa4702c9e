"""Messages the queue manager makes: expiration reports, dead letters, trigger messages, MQXQHs.

Each function decides what a generated message contains (IBM's table of report fields, rule
RPT-03, for reports; MQDLH for dead letters; MQTM for triggers) and hands it to
:meth:`QueueManager.deliver`. Failures fall back as IBM describes: reply queue → dead-letter
queue → thrown away (rule RPT-06).
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from mqlearn.engine.descriptor import IDENTITY_FIELDS, V2_FIELDS, message_fields
from mqlearn.engine.message import GOT_IN_UOW, Message
from mqlearn.engine.rule_formulas import NEVER, deadline_of, queued_priority, remaining_tenths
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.binary import byte_order
from mqlearn.mqi.errors import MQMIError, reason_name
from mqlearn.mqi.headers import (
    MQDLH,
    MQTM,
    MQXQH,
    XQH_EMBEDDED_EXPIRY_OFFSET,
    leading_headers_length,
)
from mqlearn.mqi.structs import MD

if TYPE_CHECKING:
    from mqlearn.engine.objects import QLocal, QRemote
    from mqlearn.engine.qmgr import QueueManager

XQH_LENGTH = C.MQXQH_LENGTH_1
DLH_LENGTH = C.MQDLH_LENGTH_1
REPORT_DATA_BYTES = 100  # _WITH_DATA reports carry the first 100 bytes of application data
PASSED_EXPIRY_TENTHS = 600  # MQRO_PASS_DISCARD_AND_EXPIRY: an expiration report lives 60 s
XQH_EXPIRY_END = XQH_EMBEDDED_EXPIRY_OFFSET + 4  # bytes needed to hold the embedded Expiry


_MQLONG = {"<": struct.Struct("<i"), ">": struct.Struct(">i")}


def _int_format(encoding: int) -> struct.Struct:
    """An MQLONG in the byte order of ``encoding`` (546 little-endian, 273 big-endian)."""
    return _MQLONG[byte_order(encoding)]


# -- transmission queues (rules XQH-01..05) --------------------------------------------------------
def wrap_for_transmission(
    qm: QueueManager,
    remote: QRemote,
    data: bytes,
    msgid: bytes,
    correlid: bytes,
    priority: int,
    expiry: int,
    extra: dict[str, Any] | None,
    ctx: dict[str, Any],
    now: int,
) -> tuple[bytes, dict[str, Any], dict[str, Any], int]:
    """Put an MQXQH in front of the data; both Expiry fields get the application's value (XQH-01).

    Returns the new data, the outer descriptor's extra fields and context, and the embedded deadline.
    """
    date, time = qm.sim.stamp(now)
    embedded = MD(**{"PutDate": date, "PutTime": time, **ctx, **(extra or {})})
    embedded.set(MsgId=msgid, CorrelId=correlid, Priority=priority, Expiry=expiry, Version=1)
    for name in V2_FIELDS:
        embedded.__dict__.pop(name, None)  # the embedded descriptor is a version-1 MQMD
    header = MQXQH(RemoteQName=remote.rname, RemoteQMgrName=remote.rqmname, MsgDesc=embedded)
    outer = {**(extra or {}), "Format": C.MQFMT_XMIT_Q_HEADER}
    outer.pop("Encoding", None)  # the MQXQH is in the queue manager's native encoding
    outer.pop("CodedCharSetId", None)  # and character set (the context's CodedCharSetId)
    outer_ctx = {**ctx, "PutApplType": C.MQAT_QMGR, "PutApplName": qm.name[:28]}
    return header.pack(C.MQENC_NATIVE) + data, outer, outer_ctx, deadline_of(expiry, now)


def embedded_expiry(data: bytes, encoding: int) -> int:
    """The Expiry inside the MQXQH at the start of ``data``."""
    value: int = _int_format(encoding).unpack_from(data, XQH_EMBEDDED_EXPIRY_OFFSET)[0]
    return value


def embedded_deadline(data: bytes, encoding: int, now: int) -> int | None:
    """Deadline of the embedded Expiry of a directly put MQXQH, if it is there and valid."""
    if len(data) < XQH_EXPIRY_END:
        return None
    expiry = embedded_expiry(data, encoding)
    return deadline_of(expiry, now) if expiry > 0 or expiry == -1 else None


def decrement_embedded(data: bytes, message: Message, now: int) -> bytes:
    """The data with the MQXQH's Expiry set to its remaining lifetime, 0 once run out (XQH-03/05)."""
    xdeadline = message.xdeadline
    if xdeadline is None or xdeadline == NEVER or len(data) < XQH_EXPIRY_END:
        return data
    packed = _int_format(message.field("Encoding", C.MQENC_NATIVE)).pack(
        remaining_tenths(xdeadline, now)
    )
    return data[:XQH_EMBEDDED_EXPIRY_OFFSET] + packed + data[XQH_EXPIRY_END:]


class Original(NamedTuple):
    """The application message behind a stored one (see :func:`original`)."""

    fields: dict[str, Any]
    data: bytes
    deadline: int
    header: MQXQH | None  # the transmission-queue header it travels behind, if any


def original(qm: QueueManager, message: Message) -> Original:
    """The application message behind a stored one: its fields, data, deadline and MQXQH.

    For an MQXQH message that is the message inside the header (reports describe it, RPT-04;
    the receiving end of a channel delivers it).
    """
    fields = message_fields(message, qm.sim.now, qm.sim)
    data = message.data
    if fields["Format"] == C.MQFMT_XMIT_Q_HEADER and len(data) >= XQH_LENGTH:
        header = MQXQH.unpack(data[:XQH_LENGTH], fields["Encoding"])
        data = data[XQH_LENGTH:]
        inner = header.MsgDesc.get()
        for name in V2_FIELDS:
            inner[name] = fields[name]
        xdeadline = message.xdeadline if message.xdeadline is not None else message.deadline
        return Original(inner, data, xdeadline, header)
    return Original(fields, data, message.deadline, None)


# -- generated messages ----------------------------------------------------------------------------
def send(
    qm: QueueManager,
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
    qm: QueueManager,
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


def expiration_report(qm: QueueManager, local: QLocal, message: Message) -> None:
    """Send the expiration report a discarded message asked for (RPT-01..07); never in a UOW."""
    wrapped = message.field("Format", "") == C.MQFMT_XMIT_Q_HEADER
    if not wrapped and not message.field("Report", 0) & C.MQRO_EXPIRATION_WITH_FULL_DATA:
        return  # the common case, decided without building the descriptor
    fields, data, _, _ = original(qm, message)
    where = send_expiration_report(qm, fields, data, qm.qmgr_context)
    if where is not None:
        qm.log(local.name, "report", message, "expiration", detail=where)


def send_expiration_report(
    qm: QueueManager,
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
    ctx = context({name: fields[name] for name in IDENTITY_FIELDS})
    deadline = deadline_of(PASSED_EXPIRY_TENTHS, qm.sim.now) if passing else NEVER
    return send(qm, fields["ReplyToQMgr"], fields["ReplyToQ"], body, report_fields, ctx, deadline)


# -- triggers (rules TRG-01, TRG-02, TRG-03) -------------------------------------------------------
def maybe_trigger(qm: QueueManager, local: QLocal, message: Message, in_uow: bool = False) -> None:
    """Generate a trigger message if this arrival meets the queue's trigger condition.

    ``in_uow``: the message was put in the open unit of work. The condition is evaluated now,
    counting uncommitted messages, and the trigger message is put in the same unit of work: it
    becomes available when the unit of work ends, committed or backed out (rule TRG-03).
    """
    kind = local.trigtype
    if (
        not local.initq
        or kind == "NONE"
        or queued_priority(message.priority, qm.maxprty) < local.trigmpri
    ):
        return
    if local.trigmpri == 0:
        count = local.store.depth  # expired, undiscarded messages count (TRG-02)
    else:
        count = sum(
            1
            for m in local.store.messages()
            if m.state != GOT_IN_UOW and queued_priority(m.priority, qm.maxprty) >= local.trigmpri
        )
    if kind == "FIRST" and count != 1:
        return
    if kind == "DEPTH":
        if count < local.trigdpth:
            return
        local.trigger = False  # as MQ does: the application switches triggering back on
    data = MQTM(QName=local.name, ProcessName=local.process, TriggerData=local.trigdata).pack()
    fields = {
        "Format": C.MQFMT_TRIGGER,
        "MsgType": C.MQMT_DATAGRAM,
        "Persistence": C.MQPER_NOT_PERSISTENT,
    }
    ctx = qm.qmgr_context()
    where = send(qm, qm.name, local.initq, data, fields, ctx, NEVER, in_uow)  # TRG-01
    qm.log(local.name, "trigger", message, kind.lower(), detail=where)
