"""Transmission queues: the MQXQH in front of a message bound for another queue manager.

A put through a remote definition wraps the message in an MQXQH whose embedded MQMD carries the
application's Expiry (rule XQH-01); a get decrements that embedded Expiry (XQH-03, XQH-05); reports,
dead letters and the receiving end of a channel unwrap it again (:func:`original`).
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any, NamedTuple

from mqlearn.engine.descriptor import V2_FIELDS, message_fields
from mqlearn.engine.message import (
    DATA,
    DEADLINE,
    PROPERTIES,
    XDEADLINE,
    MessageView,
    Record,
    field,
)
from mqlearn.engine.rule_formulas import NEVER, deadline_of, remaining_tenths
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.binary import byte_order
from mqlearn.mqi.headers import MQXQH, XQH_EMBEDDED_EXPIRY_OFFSET, XQH_LENGTH
from mqlearn.mqi.structs import MD

if TYPE_CHECKING:
    from mqlearn.engine.objects import QRemote
    from mqlearn.engine.ports import QueueManagerPort

XQH_EXPIRY_END = XQH_EMBEDDED_EXPIRY_OFFSET + 4  # bytes needed to hold the embedded Expiry

_MQLONG = {"<": struct.Struct("<i"), ">": struct.Struct(">i")}


def _int_format(encoding: int) -> struct.Struct:
    """An MQLONG in the byte order of ``encoding`` (546 little-endian, 273 big-endian)."""
    return _MQLONG[byte_order(encoding)]


def wrap_for_transmission(
    qm: QueueManagerPort,
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
    The message's properties stay with the message on the transmission queue (rule XQH-01).
    """
    date, time = qm.sim.stamp(now)
    described = {name: value for name, value in (extra or {}).items() if name != PROPERTIES}
    embedded = MD(**{"PutDate": date, "PutTime": time, **ctx, **described})
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


def decrement_embedded(data: bytes, record: Record | MessageView, now: int) -> bytes:
    """The data with the MQXQH's Expiry set to its remaining lifetime, 0 once run out (XQH-03/05)."""
    xdeadline = record[XDEADLINE]
    if xdeadline is None or xdeadline == NEVER or len(data) < XQH_EXPIRY_END:
        return data
    packed = _int_format(field(record, "Encoding", C.MQENC_NATIVE)).pack(
        remaining_tenths(xdeadline, now)
    )
    return data[:XQH_EMBEDDED_EXPIRY_OFFSET] + packed + data[XQH_EXPIRY_END:]


class Original(NamedTuple):
    """The application message behind a stored one (see :func:`original`)."""

    fields: dict[str, Any]
    data: bytes
    deadline: int
    header: MQXQH | None  # the transmission-queue header it travels behind, if any


def original(qm: QueueManagerPort, record: Record, backouts: int = 0) -> Original:
    """The application message behind a stored one: its fields, data, deadline and MQXQH.

    For an MQXQH message that is the message inside the header (reports describe it, RPT-04;
    the receiving end of a channel delivers it). ``backouts``: its BackoutCount. The fields
    include the message's properties (under PROPERTIES) when it has any (rules XQH-01, DLQ-01, RPT-03).
    """
    fields = message_fields(record, qm.sim.now, qm.sim, backouts)
    props = field(record, PROPERTIES, None)
    if props is not None:
        fields[PROPERTIES] = props
    data = record[DATA]
    if fields["Format"] == C.MQFMT_XMIT_Q_HEADER and len(data) >= XQH_LENGTH:
        header = MQXQH.unpack(data[:XQH_LENGTH], fields["Encoding"])
        data = data[XQH_LENGTH:]
        inner = header.MsgDesc.get()
        for name in V2_FIELDS:
            inner[name] = fields[name]
        if props is not None:
            inner[PROPERTIES] = props
        xdeadline = record[XDEADLINE]
        return Original(inner, data, record[DEADLINE] if xdeadline is None else xdeadline, header)
    return Original(fields, data, record[DEADLINE], None)
