"""MQ headers carried in message data: MQXQH, MQDLH, MQTM and MQMDE, with IBM's names and initial
values.

Layouts follow IBM's C declarations (``struct tagMQXQH``, ``tagMQDLH``, ``tagMQTM``, ``tagMQMDE``);
the packing is
:mod:`mqlearn.mqi.binary`'s, shared with the MD. A header is in the character set and encoding of
the queue manager that wrote it, so ``pack`` defaults to MQENC_NATIVE and ``unpack`` detects the
byte order from the header's Version.
"""

from __future__ import annotations

from typing import Any, Self

from mqlearn.mqi import cmqc as C
from mqlearn.mqi.binary import field_offset, pack_struct, unpack_struct
from mqlearn.mqi.structs import MD, Field, MQStruct


class _Header(MQStruct):
    """A header structure: ``pack`` to bytes in a given encoding, ``unpack`` from bytes."""

    def pack(self, encoding: int = C.MQENC_NATIVE) -> bytes:
        """The header as IBM lays it out, integers in ``encoding``'s byte order (default native)."""
        return pack_struct(self, encoding)

    @classmethod
    def unpack(cls, raw: bytes, encoding: int | None = None) -> Self:
        """Read the header from the start of ``raw`` (message data may follow it)."""
        return unpack_struct(cls, raw, encoding)


class MQXQH(_Header):
    """Transmission-queue header: where a message on a transmission queue is going, and its MQMD.

    ``MsgDesc`` is the application's descriptor, always embedded as a version-1 MQMD (324 bytes),
    whatever its ``Version`` says. Its Expiry is the message's second Expiry (rules XQH-01..05).
    Each MQXQH gets its own fresh ``MD()`` unless one is given.
    """

    _LAYOUT = (
        Field("StrucId", "c", 4),
        Field("Version", "l", 4),
        Field("RemoteQName", "c", 48),
        Field("RemoteQMgrName", "c", 48),
        Field("MsgDesc", "md", C.MQMD_LENGTH_1),
    )
    StrucId: str = C.MQXQH_STRUC_ID
    Version: int = C.MQXQH_VERSION_1
    RemoteQName: str = ""
    RemoteQMgrName: str = ""
    MsgDesc: MD

    def __init__(self, **fields: Any) -> None:
        super().__init__(**fields)
        if "MsgDesc" not in self.__dict__:
            self.MsgDesc = MD()

    def copy(self) -> MQXQH:
        """A copy with its own copy of ``MsgDesc``: changing one header never changes the other."""
        fields = dict(self.__dict__)
        fields["MsgDesc"] = self.MsgDesc.copy()
        return MQXQH(**fields)


class MQDLH(_Header):
    """Dead-letter header: why a message is on the dead-letter queue and where it was going.

    ``Encoding``, ``CodedCharSetId`` and ``Format`` describe the data after the MQDLH (the original
    message), not the MQDLH itself.
    """

    _LAYOUT = (
        Field("StrucId", "c", 4),
        Field("Version", "l", 4),
        Field("Reason", "l", 4),
        Field("DestQName", "c", 48),
        Field("DestQMgrName", "c", 48),
        Field("Encoding", "l", 4),
        Field("CodedCharSetId", "l", 4),
        Field("Format", "c", 8),
        Field("PutApplType", "l", 4),
        Field("PutApplName", "c", 28),
        Field("PutDate", "c", 8),
        Field("PutTime", "c", 8),
    )
    StrucId: str = C.MQDLH_STRUC_ID
    Version: int = C.MQDLH_VERSION_1
    Reason: int = C.MQRC_NONE
    DestQName: str = ""
    DestQMgrName: str = ""
    Encoding: int = 0
    CodedCharSetId: int = C.MQCCSI_UNDEFINED
    Format: str = C.MQFMT_NONE
    PutApplType: int = 0
    PutApplName: str = ""
    PutDate: str = ""
    PutTime: str = ""


class MQTM(_Header):
    """Trigger message: which queue fired a trigger and which process to start (rule TRG-01)."""

    _LAYOUT = (
        Field("StrucId", "c", 4),
        Field("Version", "l", 4),
        Field("QName", "c", 48),
        Field("ProcessName", "c", 48),
        Field("TriggerData", "c", 64),
        Field("ApplType", "l", 4),
        Field("ApplId", "c", 256),
        Field("EnvData", "c", 128),
        Field("UserData", "c", 128),
    )
    StrucId: str = C.MQTM_STRUC_ID
    Version: int = C.MQTM_VERSION_1
    QName: str = ""
    ProcessName: str = ""
    TriggerData: str = ""
    ApplType: int = 0
    ApplId: str = ""
    EnvData: str = ""
    UserData: str = ""


class MQMDE(_Header):
    """Message descriptor extension: the version-2 MQMD fields, in front of the message data.

    An MQGET with a version-1 MQMD returns one ahead of the data when the message has a
    version-2 field with a non-default value (rule MD-07; IBM's page "MQMDE - Message descriptor
    extension"). ``Encoding``, ``CodedCharSetId`` and ``Format`` describe the data after the MQMDE;
    the MQMDE itself is in the queue manager's encoding and character set. 72 bytes.
    """

    # MQMDE_VERSION_2 is its only version: every field is a version-2 field
    _LAYOUT = (
        Field("StrucId", "c", 4, 2),
        Field("Version", "l", 4, 2),
        Field("StrucLength", "l", 4, 2),
        Field("Encoding", "l", 4, 2),
        Field("CodedCharSetId", "l", 4, 2),
        Field("Format", "c", 8, 2),
        Field("Flags", "l", 4, 2),
        Field("GroupId", "b", 24, 2),
        Field("MsgSeqNumber", "l", 4, 2),
        Field("Offset", "l", 4, 2),
        Field("MsgFlags", "l", 4, 2),
        Field("OriginalLength", "l", 4, 2),
    )
    StrucId: str = C.MQMDE_STRUC_ID
    Version: int = C.MQMDE_VERSION_2
    StrucLength: int = C.MQMDE_LENGTH_2
    Encoding: int = 0
    CodedCharSetId: int = C.MQCCSI_UNDEFINED
    Format: str = C.MQFMT_NONE
    Flags: int = C.MQMDEF_NONE
    GroupId: bytes = C.MQGI_NONE
    MsgSeqNumber: int = 1
    Offset: int = 0
    MsgFlags: int = C.MQMF_NONE
    OriginalLength: int = C.MQOL_UNDEFINED


XQH_LENGTH = C.MQXQH_LENGTH_1
DLH_LENGTH = C.MQDLH_LENGTH_1
TM_LENGTH = C.MQTM_LENGTH_1
MDE_LENGTH = C.MQMDE_LENGTH_2
# Where the embedded descriptor, and its Expiry, sit in a packed MQXQH: 104 and 120.
XQH_MSGDESC_OFFSET = field_offset(MQXQH, "MsgDesc")
XQH_EMBEDDED_EXPIRY_OFFSET = XQH_MSGDESC_OFFSET + field_offset(MD, "Expiry")


# -- the Format chain of MQ header structures at the start of message data ---------------------
# Formats naming a header that starts with IBM's common prefix (StrucId, Version, StrucLength,
# Encoding, CodedCharSetId, Format), with the StrucId it must have: MQCIH, MQDH, MQEPH, MQIIH,
# MQMDE, MQRFH, MQRFH2, MQRMH and MQWIH. StrucLength covers what belongs to the structure (an
# MQRFH2's NameValueData, an MQDH's records), so it can be skipped without knowing its layout.
CHAINED_HEADERS = {
    C.MQFMT_CICS: "CIH ",
    C.MQFMT_DIST_HEADER: "DH  ",
    C.MQFMT_EMBEDDED_PCF: "EPH ",
    C.MQFMT_IMS: "IIH ",
    C.MQFMT_MD_EXTENSION: "MDE ",
    C.MQFMT_RF_HEADER: "RFH ",
    C.MQFMT_RF_HEADER_2: "RFH ",
    C.MQFMT_REF_MSG_HEADER: "RMH ",
    C.MQFMT_WORK_INFO_HEADER: "WIH ",
}
_PREFIX_LENGTH = 28  # StrucId, Version, StrucLength, Encoding, CodedCharSetId, Format
_DLH_FORMAT_OFFSET = field_offset(MQDLH, "Format")
_MD_FORMAT_OFFSET = XQH_MSGDESC_OFFSET + field_offset(MD, "Format")
_EBCDIC = "cp037"  # StrucIds and format names are upper-case letters, digits and blanks: the
# same bytes in every EBCDIC code page IBM MQ uses (37, 500, 1047, ...)


def _chars(raw: bytes, expected: str) -> str | None:
    """How to decode a header whose StrucId should be ``expected``: latin-1 or EBCDIC, or None
    when the bytes are neither (then the data is not that header)."""
    for codec in ("latin-1", _EBCDIC):
        if raw[:4].decode(codec) == expected:
            return codec
    return None


def _mqlong(raw: bytes, offset: int, order: str) -> int:
    chunk = raw[offset : offset + 4]
    if order == "<":
        return int.from_bytes(chunk, "little", signed=True)
    return int.from_bytes(chunk, "big", signed=True)


def _order(raw: bytes) -> str:
    """Byte order of a header, from its Version (a small number), as ``unpack`` detects it."""
    return "<" if 0 < _mqlong(raw, 4, "<") < 256 else ">"


def leading_headers_length(data: bytes, fmt: str) -> int:
    """How many bytes of ``data`` are MQ header structures, following the Format chain from
    ``fmt`` (the Format of the descriptor the data belongs to). Rule RPT-04: a report "with data"
    carries these in addition to the first 100 bytes of application data.

    The chain goes through the headers named by :data:`CHAINED_HEADERS` (by their StrucLength),
    the MQDLH (172 bytes) and the MQXQH (428 bytes; the next Format is its embedded MD's). It
    stops at the first Format that names no header, and at anything that does not hold the header
    its Format announces (wrong StrucId, too short, a StrucLength that does not fit): what is left
    is application data.
    """
    offset = 0
    while True:
        rest = data[offset:]
        if fmt == C.MQFMT_DEAD_LETTER_HEADER:
            length, format_at, expected = DLH_LENGTH, _DLH_FORMAT_OFFSET, C.MQDLH_STRUC_ID
        elif fmt == C.MQFMT_XMIT_Q_HEADER:
            length, format_at, expected = XQH_LENGTH, _MD_FORMAT_OFFSET, C.MQXQH_STRUC_ID
        elif fmt in CHAINED_HEADERS:
            expected = CHAINED_HEADERS[fmt]
            if len(rest) < _PREFIX_LENGTH:
                return offset
            length, format_at = _mqlong(rest, 8, _order(rest)), 20
            if length < _PREFIX_LENGTH:
                return offset
        else:
            return offset
        if len(rest) < length:
            return offset
        codec = _chars(rest, expected)
        if codec is None:
            return offset
        fmt = rest[format_at : format_at + 8].decode(codec).split("\0")[0].ljust(8)
        offset += length
