"""MQMDE, the message descriptor extension (rule MD-07): IBM's layout, lengths and initial values.

Offsets and initial values are IBM's ("MQMDE - Message descriptor extension" and its declarations:
the RPG copy file CMQMDEH gives MESID 1-4, MEVER 5-8, MELEN 9-12, MEENC 13-16, MECSI 17-20,
MEFMT 21-28, MEFLG 29-32, MEGID 33-56, MESEQ 57-60, MEOFF 61-64, MEMFL 65-68, MEOLN 69-72).
"""

from __future__ import annotations

import struct

import pytest

import mqlearn as mq
from mqlearn.mqi import CMQC, MQMDE
from mqlearn.mqi.binary import field_offset, packed_length

OFFSETS = {
    "StrucId": 0,
    "Version": 4,
    "StrucLength": 8,
    "Encoding": 12,
    "CodedCharSetId": 16,
    "Format": 20,
    "Flags": 28,
    "GroupId": 32,
    "MsgSeqNumber": 56,
    "Offset": 60,
    "MsgFlags": 64,
    "OriginalLength": 68,
}


def test_md07_mqmde_constants_are_ibms() -> None:
    assert (CMQC.MQMDE_STRUC_ID, CMQC.MQMDE_VERSION_2, CMQC.MQMDE_LENGTH_2) == ("MDE ", 2, 72)
    assert CMQC.MQFMT_MD_EXTENSION == "MQHMDE  "


def test_md07_mqmde_is_72_bytes_with_ibms_offsets() -> None:
    assert packed_length(MQMDE, 2) == 72
    assert {name: field_offset(MQMDE, name) for name in OFFSETS} == OFFSETS


def test_md07_mqmde_initial_values() -> None:
    raw = MQMDE().pack(546)
    assert raw == (
        b"MDE "
        + struct.pack("<4i", 2, 72, 0, 0)
        + b" " * 8
        + struct.pack("<i", 0)
        + b"\0" * 24
        + struct.pack("<4i", 1, 0, 0, -1)
    )


@pytest.mark.parametrize(("encoding", "order"), [(546, "<"), (273, ">")])
def test_md07_mqmde_packs_and_unpacks_in_either_byte_order(encoding: int, order: str) -> None:
    mde = MQMDE(
        Encoding=273,
        CodedCharSetId=1208,
        Format=CMQC.MQFMT_STRING,
        GroupId=b"G" * 24,
        MsgSeqNumber=4,
        Offset=100,
        MsgFlags=CMQC.MQMF_SEGMENT,
        OriginalLength=250,
    )
    raw = mde.pack(encoding)
    assert raw[12:20] == struct.pack(order + "2i", 273, 1208)
    assert raw[56:72] == struct.pack(order + "4i", 4, 100, 2, 250)
    assert MQMDE.unpack(raw + b"data") == mde  # byte order detected from Version


def test_md07_mqmde_has_only_version_2() -> None:
    with pytest.raises(ValueError, match="versions 2 to 2"):
        MQMDE(Version=1).pack()


def test_md07_mqmde_is_exported() -> None:
    assert mq.MQMDE is MQMDE
