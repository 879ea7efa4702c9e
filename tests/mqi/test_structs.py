"""MD: IBM's initial values, typo protection and the byte-exact layout of rule MD-01."""

from __future__ import annotations

import itertools
import re
from typing import Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mqlearn.mqi import CMQC, GMO, MD, PMO, MQStruct
from mqlearn.mqi.binary import field_offset, pack_struct, packed_length, unpack_md, unpack_struct
from mqlearn.mqi.shortnames import from_short_name

LITTLE, BIG = CMQC.MQENC_NATIVE, CMQC.MQENC_NORMAL  # 546 (x86) and 273
ENCODINGS = pytest.mark.parametrize("encoding", [LITTLE, BIG], ids=["546", "273"])
BYTE_ORDER: dict[int, Literal["little", "big"]] = {LITTLE: "little", BIG: "big"}

# Seed 003, "Initial values": the MQMD a program starts from.
MD_INITIAL_VALUES: dict[str, Any] = {
    "StrucId": "MD  ",
    "Version": 1,
    "Report": 0,
    "MsgType": 8,
    "Expiry": -1,
    "Feedback": 0,
    "Encoding": 546,
    "CodedCharSetId": 0,
    "Format": " " * 8,
    "Priority": -1,
    "Persistence": 2,
    "MsgId": bytes(24),
    "CorrelId": bytes(24),
    "BackoutCount": 0,
    "ReplyToQ": "",
    "ReplyToQMgr": "",
    "UserIdentifier": "",
    "AccountingToken": bytes(32),
    "ApplIdentityData": "",
    "PutApplType": 0,
    "PutApplName": "",
    "PutDate": "",
    "PutTime": "",
    "ApplOriginData": "",
    "GroupId": bytes(24),
    "MsgSeqNumber": 1,
    "Offset": 0,
    "MsgFlags": 0,
    "OriginalLength": -1,
}

# Seed 003, "RPG declaration": each MQMD field's first and last byte, counted from 1.
RPG_LAYOUT = {
    "MDSID": (1, 4),
    "MDVER": (5, 8),
    "MDREP": (9, 12),
    "MDMT": (13, 16),
    "MDEXP": (17, 20),
    "MDFB": (21, 24),
    "MDENC": (25, 28),
    "MDCSI": (29, 32),
    "MDFMT": (33, 40),
    "MDPRI": (41, 44),
    "MDPER": (45, 48),
    "MDMID": (49, 72),
    "MDCID": (73, 96),
    "MDBOC": (97, 100),
    "MDRQ": (101, 148),
    "MDRM": (149, 196),
    "MDUID": (197, 208),
    "MDACC": (209, 240),
    "MDAID": (241, 272),
    "MDPAT": (273, 276),
    "MDPAN": (277, 304),
    "MDPD": (305, 312),
    "MDPT": (313, 320),
    "MDAOD": (321, 324),
    "MDGID": (325, 348),
    "MDSEQ": (349, 352),
    "MDOFF": (353, 356),
    "MDMFL": (357, 360),
    "MDOLN": (361, 364),
}


def keeps_blanks(name: str, length: int) -> bool:
    """Character fields holding IBM constants come back full width; names come back trimmed."""
    return name in ("StrucId", "Format") or length == 1


def field_values(cls: type[MQStruct], version: int) -> st.SearchStrategy[dict[str, Any]]:
    """Valid values for every field of ``cls`` at ``version``, as unpacking returns them."""
    chars = st.characters(min_codepoint=0, max_codepoint=255)
    fields: dict[str, st.SearchStrategy[Any]] = {}
    for f in cls._LAYOUT:
        if f.version > version or f.name in ("StrucId", "Version"):
            continue
        if f.kind == "l":
            fields[f.name] = st.integers(-(2**31), 2**31 - 1)
        elif f.kind == "q":
            fields[f.name] = st.integers(-(2**63), 2**63 - 1)
        elif f.kind == "b":
            fields[f.name] = st.binary(min_size=f.length, max_size=f.length)
        elif f.kind == "md":
            fields[f.name] = field_values(MD, 1).map(lambda values: MD(**values))
        elif keeps_blanks(f.name, f.length):
            fields[f.name] = st.text(chars, min_size=f.length, max_size=f.length)
        else:
            fields[f.name] = st.text(chars, max_size=f.length).map(lambda s: s.rstrip(" "))
    return st.fixed_dictionaries(fields)


def test_md01_initial_values_are_ibms() -> None:
    assert MD().get() == MD_INITIAL_VALUES
    assert list(MD_INITIAL_VALUES) == [f.name for f in MD._LAYOUT], "IBM's field order"


def test_setting_a_misspelt_field_fails() -> None:
    md = MD()
    with pytest.raises(AttributeError, match="did you mean 'Expiry'"):
        md.expiry = 50
    with pytest.raises(TypeError, match="no field 'Expirey'"):
        MD(Expirey=50)
    assert md.Expiry == CMQC.MQEI_UNLIMITED


@ENCODINGS
def test_md01_packs_to_324_bytes_as_version_1_and_364_as_version_2(encoding: int) -> None:
    assert len(MD().pack(encoding)) == CMQC.MQMD_LENGTH_1 == 324
    assert len(MD(Version=2).pack(encoding)) == CMQC.MQMD_LENGTH_2 == 364
    assert (packed_length(MD, 1), packed_length(MD, 2)) == (324, 364)


@ENCODINGS
def test_md01_expiry_is_bytes_17_to_20(encoding: int) -> None:
    packed = MD(Expiry=600).pack(encoding)
    assert packed[16:20] == (600).to_bytes(4, BYTE_ORDER[encoding], signed=True)
    assert MD().pack(encoding)[16:20] == b"\xff\xff\xff\xff", "MQEI_UNLIMITED is -1"
    assert field_offset(MD, "Expiry") == 16


def marked_md() -> MD:
    """A version-2 MD whose every field holds a value that shows where it lands."""
    md = MD(Version=2)
    for number, f in enumerate(MD._LAYOUT):
        if f.kind == "l" and f.name != "Version":
            setattr(md, f.name, 1000 + number)
        elif f.kind == "c" and f.name != "StrucId":
            setattr(md, f.name, f"F{number}"[: f.length])
        elif f.kind == "b":
            setattr(md, f.name, bytes([number]) * f.length)
    return md


@pytest.mark.parametrize(("short", "span"), list(RPG_LAYOUT.items()))
@ENCODINGS
def test_md01_every_field_sits_where_the_rpg_declaration_says(
    short: str, span: tuple[int, int], encoding: int
) -> None:
    first, last = span
    name = from_short_name(short)
    md = marked_md()
    value = getattr(md, name)
    if isinstance(value, int):
        expected = value.to_bytes(4, BYTE_ORDER[encoding], signed=True)
    elif isinstance(value, str):
        expected = value.ljust(last - first + 1).encode("ascii")
    else:
        expected = value
    assert field_offset(MD, name) == first - 1
    assert md.pack(encoding)[first - 1 : last] == expected


def test_md01_rpg_table_covers_the_whole_descriptor() -> None:
    spans = sorted(RPG_LAYOUT.values())
    assert spans[0][0] == 1 and spans[-1][1] == 364
    assert all(a[1] + 1 == b[0] for a, b in itertools.pairwise(spans)), "no gaps"
    assert [from_short_name(s) for s in RPG_LAYOUT] == [f.name for f in MD._LAYOUT]


@pytest.mark.parametrize("version", [1, 2])
@ENCODINGS
@given(data=st.data())
def test_md01_round_trip(version: int, encoding: int, data: st.DataObject) -> None:
    md = MD(Version=version, **data.draw(field_values(MD, version)))
    packed = md.pack(encoding)
    assert len(packed) == packed_length(MD, version)
    assert MD.unpack(packed, encoding) == md
    assert MD.unpack(packed) == md, "the byte order is detected from the Version field"


def test_md01_byte_orders_differ_exactly_in_the_integer_fields() -> None:
    md = marked_md()
    little, big = md.pack(LITTLE), md.pack(BIG)
    for f in MD._LAYOUT:
        start = field_offset(MD, f.name)
        a, b = little[start : start + f.length], big[start : start + f.length]
        if f.kind == "l":
            assert a == b[::-1] and a != b, f.name
        else:
            assert a == b, f.name


def test_md01_pack_defaults_to_native_encoding_whatever_the_data_encoding() -> None:
    """An MQMD is always in the queue manager's native encoding; its Encoding field describes the
    message data, so it does not change how the descriptor itself is packed."""
    assert MD(Encoding=BIG, Expiry=1).pack()[16:20] == b"\x01\x00\x00\x00"
    assert MD(Encoding=BIG, Expiry=1).pack(BIG)[16:20] == b"\x00\x00\x00\x01"
    assert MD(Encoding=0, Expiry=1).pack() == MD(Expiry=1, Encoding=0).pack(LITTLE)


def test_character_fields_are_blank_padded_and_returned_trimmed() -> None:
    md = MD(ReplyToQ="REPLY.Q", Format=CMQC.MQFMT_STRING)
    packed = md.pack(LITTLE)
    assert packed[100:148] == b"REPLY.Q" + b" " * 41
    back = MD.unpack(packed)
    assert back.ReplyToQ == "REPLY.Q"
    assert back.Format == "MQSTR   " == CMQC.MQFMT_STRING, "Format keeps its 8 characters"
    assert back.StrucId == CMQC.MQMD_STRUC_ID


def test_only_blanks_are_trimmed() -> None:
    back = MD.unpack(MD(ReplyToQ=" Q\t\x00").pack(LITTLE))
    assert back.ReplyToQ == " Q\t\x00"


def test_short_identifiers_are_nul_padded() -> None:
    back = MD.unpack(MD(MsgId=b"abc").pack(LITTLE))
    assert back.MsgId == b"abc" + bytes(21)


def test_a_real_captured_descriptor_round_trips() -> None:
    """Values from a real dmpmqmsg capture of a dead-letter queue message (MQMD v2)."""
    md = MD(
        Version=2,
        Encoding=546,
        CodedCharSetId=1208,
        Format="MQSTR   ",
        Priority=0,
        Persistence=1,
        MsgId=bytes.fromhex("414D5120514D31202020202020202020DAA1AD6A02AE0640"),
        ReplyToQMgr="QM1",
        UserIdentifier="mqm",
        AccountingToken=bytes.fromhex(
            "0431303031000000000000000000000000000000000000000000000000000006"
        ),
        PutApplType=CMQC.MQAT_UNIX,
        PutApplName="amqsput",
        PutDate="20260922",
        PutTime="02342828",
    )
    packed = md.pack(LITTLE)
    assert packed[48:56] == b"AMQ QM1 ", "MsgId starts with the product id and queue manager"
    assert packed[208] == 4 and packed[239] == 6, "AccountingToken: length byte and type byte"
    assert packed[304:320] == b"2026092202342828"
    assert MD.unpack(packed) == md


def test_unpack_ignores_data_after_the_descriptor() -> None:
    md = MD(Expiry=77)
    assert unpack_md(md.pack(BIG) + b"message data") == md


@pytest.mark.parametrize(
    ("fields", "error", "field"),
    [
        ({"Expiry": "600"}, TypeError, "MD.Expiry"),
        ({"Expiry": 6.0}, TypeError, "MD.Expiry"),
        ({"Expiry": 2**31}, ValueError, "MD.Expiry"),
        ({"Priority": -(2**31) - 1}, ValueError, "MD.Priority"),
        ({"ReplyToQ": "Q" * 49}, ValueError, "MD.ReplyToQ"),
        ({"ReplyToQ": b"REPLY.Q"}, TypeError, "MD.ReplyToQ"),
        ({"PutApplName": "caf\u20ac"}, ValueError, "MD.PutApplName"),
        ({"Format": "MQSTRING!"}, ValueError, "MD.Format"),
        ({"MsgId": b"x" * 25}, ValueError, "MD.MsgId"),
        ({"MsgId": "x" * 24}, TypeError, "MD.MsgId"),
        ({"CorrelId": None}, TypeError, "MD.CorrelId"),
        ({"Version": 3}, ValueError, "MD.Version"),
        ({"Version": "2"}, TypeError, "MD.Version"),
    ],
)
def test_bad_values_name_the_field(
    fields: dict[str, Any], error: type[Exception], field: str
) -> None:
    with pytest.raises(error, match=re.escape(field)):
        MD(**fields).pack(LITTLE)


def test_version_1_ignores_version_2_fields() -> None:
    packed = MD(Version=1, GroupId=b"g" * 24, MsgSeqNumber=5).pack(LITTLE)
    assert len(packed) == 324 and b"g" not in packed
    assert MD.unpack(packed).MsgSeqNumber == 1, "absent fields keep their initial values"


@pytest.mark.parametrize("encoding", [0, CMQC.MQENC_AS_PUBLISHED, 3])
def test_unsupported_integer_encodings_are_refused(encoding: int) -> None:
    with pytest.raises(ValueError, match="integer encoding"):
        MD().pack(encoding)


@pytest.mark.parametrize("raw", [b"", b"MD  \x01\x00\x00", MD().pack(LITTLE)[:323]])
def test_unpack_too_few_bytes_names_the_structure(raw: bytes) -> None:
    with pytest.raises(ValueError, match="MD"):
        MD.unpack(raw)


def test_unpack_a_version_2_descriptor_cut_to_324_bytes_fails() -> None:
    with pytest.raises(ValueError, match="MD version 2 needs 364 bytes, got 324"):
        MD.unpack(MD(Version=2).pack(BIG)[:324])


def test_unpack_checks_the_structure_id() -> None:
    with pytest.raises(ValueError, match="not an MD"):
        MD.unpack(b"XQH " + MD().pack(LITTLE)[4:])


def test_unpack_with_the_wrong_encoding_fails() -> None:
    with pytest.raises(ValueError, match=r"MD\.Version"):
        MD.unpack(MD().pack(LITTLE), BIG)


@pytest.mark.parametrize(
    ("cls", "lengths"),
    [
        (
            GMO,
            (CMQC.MQGMO_LENGTH_1, CMQC.MQGMO_LENGTH_2, CMQC.MQGMO_LENGTH_3, CMQC.MQGMO_LENGTH_4),
        ),
        (PMO, (CMQC.MQPMO_LENGTH_1, CMQC.MQPMO_LENGTH_2, CMQC.MQPMO_LENGTH_3)),
    ],
)
def test_options_structures_pack_to_ibms_lengths(
    cls: type[MQStruct], lengths: tuple[int, ...]
) -> None:
    for version, length in enumerate(lengths, start=1):
        assert len(pack_struct(cls(Version=version), LITTLE)) == length


@ENCODINGS
@given(data=st.data())
def test_gmo_round_trip_keeps_one_character_codes(encoding: int, data: st.DataObject) -> None:
    gmo = GMO(Version=3, **data.draw(field_values(GMO, 3)))
    assert unpack_struct(GMO, pack_struct(gmo, encoding)) == gmo
    assert unpack_struct(GMO, pack_struct(GMO(Version=2), encoding)).GroupStatus == " "


@ENCODINGS
@given(data=st.data())
def test_message_handle_fields_round_trip(encoding: int, data: st.DataObject) -> None:
    """GMO version 4 (MsgHandle) and PMO version 3 (OriginalMsgHandle, NewMsgHandle): MQHMSG
    is an 8-byte integer, at IBM's offsets (GMO 104, PMO 160 and 168)."""
    gmo = GMO(Version=4, **data.draw(field_values(GMO, 4)))
    assert unpack_struct(GMO, pack_struct(gmo, encoding)) == gmo
    pmo = PMO(Version=3, **data.draw(field_values(PMO, 3)))
    assert unpack_struct(PMO, pack_struct(pmo, encoding)) == pmo
    assert field_offset(GMO, "MsgHandle") == 104
    assert (field_offset(PMO, "OriginalMsgHandle"), field_offset(PMO, "NewMsgHandle")) == (160, 168)
