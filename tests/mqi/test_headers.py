"""MQXQH, MQDLH and MQTM: IBM's layouts and lengths (MD-01), keyword constructors, round trips;
the Format chain of leading MQ headers that reports with data keep (RPT-04)."""

from __future__ import annotations

import re
import struct
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mqlearn.mqi import CMQC, MD, MQDLH, MQTM, MQXQH
from mqlearn.mqi.binary import field_offset
from mqlearn.mqi.headers import (
    DLH_LENGTH,
    TM_LENGTH,
    XQH_EMBEDDED_EXPIRY_OFFSET,
    XQH_LENGTH,
    XQH_MSGDESC_OFFSET,
    leading_headers_length,
)
from tests.mqi.test_structs import BIG, BYTE_ORDER, ENCODINGS, LITTLE, field_values

HEADERS = [MQXQH, MQDLH, MQTM]
Header = MQXQH | MQDLH | MQTM

# IBM's C declarations (struct tagMQDLH, tagMQTM): each field's byte offset.
DLH_OFFSETS = {
    "StrucId": 0,
    "Version": 4,
    "Reason": 8,
    "DestQName": 12,
    "DestQMgrName": 60,
    "Encoding": 108,
    "CodedCharSetId": 112,
    "Format": 116,
    "PutApplType": 124,
    "PutApplName": 128,
    "PutDate": 156,
    "PutTime": 164,
}
TM_OFFSETS = {
    "StrucId": 0,
    "Version": 4,
    "QName": 8,
    "ProcessName": 56,
    "TriggerData": 104,
    "ApplType": 168,
    "ApplId": 172,
    "EnvData": 428,
    "UserData": 556,
}


@pytest.mark.parametrize(
    ("cls", "length"),
    [(MQXQH, 428), (MQDLH, 172), (MQTM, 684)],
    ids=["MQXQH", "MQDLH", "MQTM"],
)
@ENCODINGS
def test_md01_header_lengths(cls: type[Header], length: int, encoding: int) -> None:
    assert len(cls().pack(encoding)) == length
    assert (XQH_LENGTH, DLH_LENGTH, TM_LENGTH) == (
        CMQC.MQXQH_LENGTH_1,
        CMQC.MQDLH_LENGTH_1,
        CMQC.MQTM_LENGTH_1,
    )


def test_initial_values_are_ibms() -> None:
    assert MQXQH().get() == {
        "StrucId": "XQH ",
        "Version": 1,
        "RemoteQName": "",
        "RemoteQMgrName": "",
        "MsgDesc": MD(),
    }
    assert MQDLH().get() == {
        "StrucId": "DLH ",
        "Version": 1,
        "Reason": CMQC.MQRC_NONE,
        "DestQName": "",
        "DestQMgrName": "",
        "Encoding": 0,
        "CodedCharSetId": CMQC.MQCCSI_UNDEFINED,
        "Format": CMQC.MQFMT_NONE,
        "PutApplType": 0,
        "PutApplName": "",
        "PutDate": "",
        "PutTime": "",
    }
    assert MQTM().get() == {
        "StrucId": "TM  ",
        "Version": 1,
        "QName": "",
        "ProcessName": "",
        "TriggerData": "",
        "ApplType": 0,
        "ApplId": "",
        "EnvData": "",
        "UserData": "",
    }


def test_keyword_constructors() -> None:
    xqh = MQXQH(RemoteQName="APP.IN", RemoteQMgrName="QM2", MsgDesc=MD(Expiry=100))
    assert (xqh.RemoteQName, xqh.RemoteQMgrName, xqh.MsgDesc.Expiry) == ("APP.IN", "QM2", 100)
    dlh = MQDLH(Reason=CMQC.MQRC_Q_FULL, DestQName="APP.IN", Format=CMQC.MQFMT_STRING)
    assert (dlh.Reason, dlh.Format) == (2053, "MQSTR   ")
    assert MQTM(QName="APP.IN", ApplType=CMQC.MQAT_UNIX).ApplType == 6
    with pytest.raises(TypeError, match="did you mean 'RemoteQName'"):
        MQXQH(remoteqname="APP.IN")


def test_each_xqh_gets_its_own_descriptor() -> None:
    first, second = MQXQH(), MQXQH()
    first.MsgDesc.Expiry = 5
    assert second.MsgDesc.Expiry == CMQC.MQEI_UNLIMITED
    assert MQXQH().MsgDesc.Expiry == CMQC.MQEI_UNLIMITED


def test_xqh_copy_copies_the_descriptor() -> None:
    original = MQXQH(RemoteQName="APP.IN", MsgDesc=MD(Expiry=100))
    clone = original.copy()
    clone.MsgDesc.Expiry = 1
    assert original.MsgDesc.Expiry == 100
    assert clone.RemoteQName == "APP.IN" and clone == MQXQH(
        RemoteQName="APP.IN", MsgDesc=MD(Expiry=1)
    )


def test_xqh_offsets() -> None:
    assert (XQH_MSGDESC_OFFSET, XQH_EMBEDDED_EXPIRY_OFFSET) == (104, 120) == (4 + 4 + 48 + 48, 120)
    assert XQH_MSGDESC_OFFSET + field_offset(MD, "Expiry") == XQH_EMBEDDED_EXPIRY_OFFSET


@ENCODINGS
def test_embedded_expiry_is_at_offset_120(encoding: int) -> None:
    packed = MQXQH(MsgDesc=MD(Expiry=100)).pack(encoding)
    at = XQH_EMBEDDED_EXPIRY_OFFSET
    assert packed[at : at + 4] == (100).to_bytes(4, BYTE_ORDER[encoding], signed=True)


@ENCODINGS
def test_embedded_descriptor_is_a_version_1_md(encoding: int) -> None:
    md = MD(Version=2, Expiry=100, GroupId=b"g" * 24, MsgSeqNumber=7)
    packed = MQXQH(RemoteQName="APP.IN", MsgDesc=md).pack(encoding)
    assert len(packed) == 428
    assert packed[XQH_MSGDESC_OFFSET:] == MD(Version=1, Expiry=100).pack(encoding)
    assert packed[108:112] == (1).to_bytes(4, BYTE_ORDER[encoding]), "embedded Version is 1"
    inner = MQXQH.unpack(packed).MsgDesc
    assert (inner.Version, inner.Expiry, inner.GroupId, inner.MsgSeqNumber) == (
        1,
        100,
        bytes(24),
        1,
    )
    assert md.Version == 2, "packing does not change the application's descriptor"


@pytest.mark.parametrize(("cls", "offsets"), [(MQDLH, DLH_OFFSETS), (MQTM, TM_OFFSETS)])
def test_field_offsets_follow_ibms_declaration(
    cls: type[MQDLH | MQTM], offsets: dict[str, int]
) -> None:
    assert {f.name: field_offset(cls, f.name) for f in cls._LAYOUT} == offsets


@pytest.mark.parametrize("cls", HEADERS, ids=lambda c: c.__name__)
@ENCODINGS
@given(data=st.data())
def test_round_trip(cls: type[Header], encoding: int, data: st.DataObject) -> None:
    header = cls(**data.draw(field_values(cls, 1)))
    packed = header.pack(encoding)
    assert cls.unpack(packed, encoding) == header
    assert cls.unpack(packed) == header, "the byte order is detected from the Version field"


@ENCODINGS
def test_dlh_in_front_of_the_original_data(encoding: int) -> None:
    dlh = MQDLH(
        Reason=CMQC.MQRC_Q_FULL,
        DestQName="APP.IN",
        DestQMgrName="QM1",
        Encoding=LITTLE,
        CodedCharSetId=1208,
        Format=CMQC.MQFMT_STRING,
        PutApplType=CMQC.MQAT_QMGR,
        PutApplName="QM1",
        PutDate="20260923",
        PutTime="03245799",
    )
    data = dlh.pack(encoding) + b"original"
    assert data[DLH_LENGTH:] == b"original"
    back = MQDLH.unpack(data)
    assert back == dlh and back.DestQName == "APP.IN" and back.Format == "MQSTR   "


def test_headers_pack_natively_by_default() -> None:
    assert MQDLH(Reason=1).pack()[8:12] == b"\x01\x00\x00\x00"
    assert MQDLH(Reason=1).pack(BIG)[8:12] == b"\x00\x00\x00\x01"


@pytest.mark.parametrize("cls", HEADERS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("cut", [0, 7, 8, -1])
def test_unpack_too_few_bytes_names_the_structure(cls: type[Header], cut: int) -> None:
    raw = cls().pack(LITTLE)[:cut]
    with pytest.raises(ValueError, match=cls.__name__):
        cls.unpack(raw)


def test_unpack_checks_the_structure_id() -> None:
    with pytest.raises(ValueError, match="not an MQDLH"):
        MQDLH.unpack(MQTM().pack(LITTLE))


@pytest.mark.parametrize(
    ("header", "error", "field"),
    [
        (MQXQH(MsgDesc="not an MD"), TypeError, "MQXQH.MsgDesc"),
        (MQXQH(MsgDesc=MD(Expiry="soon")), TypeError, "MD.Expiry"),
        (MQXQH(RemoteQName="Q" * 49), ValueError, "MQXQH.RemoteQName"),
        (MQDLH(Reason=None), TypeError, "MQDLH.Reason"),
        (MQDLH(Format="TOO LONG!"), ValueError, "MQDLH.Format"),
        (MQTM(ApplId="x" * 257), ValueError, "MQTM.ApplId"),
        (MQTM(Version=2), ValueError, "MQTM.Version"),
    ],
)
def test_bad_values_name_the_field(header: Any, error: type[Exception], field: str) -> None:
    with pytest.raises(error, match=re.escape(field)):
        header.pack()


# -- RPT-04: the Format chain of leading MQ headers ------------------------------------------------
def prefixed_header(strucid: bytes, length: int, fmt: bytes, *, order: str = "<") -> bytes:
    """A header with IBM's common prefix (StrucId, Version 1, StrucLength, Encoding, CCSID,
    Format, Flags), padded with zero bytes to ``length``."""
    encoding = 546 if order == "<" else 273
    fixed = struct.pack(f"{order}4s4i8si", strucid, 1, length, encoding, 1208, fmt, 0)
    return fixed + bytes(length - len(fixed))


@pytest.mark.parametrize(
    ("fmt", "strucid", "length"),
    [
        (CMQC.MQFMT_RF_HEADER_2, b"RFH ", 104),
        (CMQC.MQFMT_RF_HEADER, b"RFH ", 32),
        (CMQC.MQFMT_IMS, b"IIH ", 84),
        (CMQC.MQFMT_CICS, b"CIH ", 180),
        (CMQC.MQFMT_WORK_INFO_HEADER, b"WIH ", 120),
        (CMQC.MQFMT_REF_MSG_HEADER, b"RMH ", 108),
        (CMQC.MQFMT_DIST_HEADER, b"DH  ", 48),
        (CMQC.MQFMT_EMBEDDED_PCF, b"EPH ", 68),
        (CMQC.MQFMT_MD_EXTENSION, b"MDE ", 72),
    ],
)
@pytest.mark.parametrize("order", ["<", ">"], ids=["little", "big"])
def test_rpt04_each_chained_header_is_skipped_by_its_struclength(
    fmt: str, strucid: bytes, length: int, order: str
) -> None:
    data = prefixed_header(strucid, length, b"MQSTR   ", order=order) + b"application data"
    assert leading_headers_length(data, fmt) == length


def test_rpt04_chain_through_mqdlh_mqmde_and_rfh2() -> None:
    """MQDLH (172, Format MQHMDE) → MQMDE (72, Format MQHRF2) → MQRFH2 (40, Format MQSTR)."""
    dlh = MQDLH(Format=CMQC.MQFMT_MD_EXTENSION).pack()
    mde = prefixed_header(b"MDE ", 72, b"MQHRF2  ")
    rfh = prefixed_header(b"RFH ", 40, b"MQSTR   ")
    data = dlh + mde + rfh + b"x" * 10
    assert leading_headers_length(data, CMQC.MQFMT_DEAD_LETTER_HEADER) == 172 + 72 + 40


def test_rpt04_mqxqh_in_the_chain_names_the_next_format_in_its_embedded_md() -> None:
    xqh = MQXQH(MsgDesc=MD(Format=CMQC.MQFMT_RF_HEADER_2)).pack()
    rfh = prefixed_header(b"RFH ", 40, b"        ")
    assert leading_headers_length(xqh + rfh + b"data", CMQC.MQFMT_XMIT_Q_HEADER) == 428 + 40


def test_rpt04_ebcdic_header_characters_are_read_too() -> None:
    """A header from a z/OS or IBM i queue manager: StrucId and Format in EBCDIC."""
    rfh = prefixed_header("RFH ".encode("cp500"), 40, "MQHRF2  ".encode("cp500"), order=">")
    inner = prefixed_header("RFH ".encode("cp500"), 36, "MQSTR   ".encode("cp500"), order=">")
    assert leading_headers_length(rfh + inner + b"x", CMQC.MQFMT_RF_HEADER_2) == 76


@pytest.mark.parametrize(
    ("data", "fmt"),
    [
        (b"plain text, no header", CMQC.MQFMT_STRING),
        (b"plain text", CMQC.MQFMT_NONE),
        (MQTM().pack(), CMQC.MQFMT_TRIGGER),  # the MQTM is the message, not a header before it
        (b"RFH \x02\x00\x00\x00", CMQC.MQFMT_RF_HEADER_2),  # too short for the prefix
        (prefixed_header(b"XYZ ", 40, b"MQSTR   "), CMQC.MQFMT_RF_HEADER_2),
        (MQDLH().pack()[:100], CMQC.MQFMT_DEAD_LETTER_HEADER),
    ],
    ids=["string", "none", "trigger", "short", "strucid", "short-dlh"],
)
def test_rpt04_no_header_where_the_format_or_the_bytes_say_none(data: bytes, fmt: str) -> None:
    assert leading_headers_length(data, fmt) == 0
