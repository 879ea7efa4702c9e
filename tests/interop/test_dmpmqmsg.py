"""dmpmqmsg files: the real sample round-trips, every record type, expiry, and bad input.

The file format is IBM's queue load/unload utility's (qload, productised as dmpmqmsg); the real
sample is a `dmpmqmsg -f stdout` capture, banner lines included. Expiry in a dump is the
remaining lifetime at unload (rule EXP-11) and starts again at load (EXP-01).
"""

from __future__ import annotations

import inspect
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mqlearn as mq
from mqlearn import CMQC as C
from mqlearn.engine.simulation import DEFAULT_START
from mqlearn.interop import (
    DumpFormatError,
    dump_dmpmqmsg,
    format_dmpmqmsg,
    load_dmpmqmsg,
    parse_dmpmqmsg,
)

SAMPLES = Path(__file__).parent / "samples"
SAMPLE = (SAMPLES / "dlq-dump.txt").read_text(encoding="latin-1")
BANNER_LINES = 2  # "5724-H72 (C) Copyright IBM Corp..." and "IBM MQ Queue Load/Unload Utility"
SAMPLE_CREATED = datetime(2026, 9, 22, 2, 34, 33, tzinfo=UTC)  # the sample header's Created:
QUEUE = "APP.DLQ"
HEADER = "* DMPMQMSG Version:10.0.0.0 Created:Thu Jan  1 09:00:00 2026\n\n"


def new_qm(start: datetime = DEFAULT_START, **queue: Any) -> mq.QueueManager:
    """QM1 with QUEUE defined, background expiry off (lazy expiry only)."""
    qm = mq.QueueManager("QM1", sim=mq.Simulation(start=start))
    qm.alter_qmgr(expryint=0)
    qm.define_qlocal(QUEUE, **queue)
    return qm


def one(attributes: str, data: str = "X 00\n") -> mq.MD:
    """The descriptor of a one-message dump made of these A lines."""
    [message] = parse_dmpmqmsg(attributes + data)
    return message.md


def browse_all(qm: mq.QueueManager, queue: str = QUEUE) -> list[tuple[mq.MD, bytes]]:
    handle = mq.Queue(qm, queue)
    found: list[tuple[mq.MD, bytes]] = []
    while True:
        md = mq.MD(Version=2)
        try:
            data = handle.get(None, md, mq.GMO(Options=C.MQGMO_BROWSE_NEXT))
        except mq.MQMIError as error:
            assert error.reason == C.MQRC_NO_MSG_AVAILABLE
            return found
        found.append((md, data))


# ---------------------------------------------------------------------------------------------
# the real sample
def test_real_sample_loads_and_dumps_back_byte_for_byte() -> None:
    """Load the captured dump, dump the queue: every line but the two banner lines comes back.

    The virtual clock starts at the sample's Created: time, so even the header matches.
    """
    qm = new_qm(SAMPLE_CREATED)
    assert load_dmpmqmsg(qm, QUEUE, SAMPLE) == 1
    dumped = dump_dmpmqmsg(qm, QUEUE)
    expected = "".join(SAMPLE.splitlines(keepends=True)[BANNER_LINES:])
    assert dumped == expected


def test_real_sample_message_lines_survive_any_clock() -> None:
    """With another clock only the header's Created: differs; the message lines are identical."""
    qm = new_qm()
    qm.sim.advance(seconds=3600)
    load_dmpmqmsg(qm, QUEUE, SAMPLE)
    message_lines = SAMPLE.splitlines()[BANNER_LINES + 4 :]
    dumped = dump_dmpmqmsg(qm, QUEUE).splitlines()
    assert dumped[0] == "* DMPMQMSG Version:10.0.0.0 Created:Thu Jan  1 10:00:00 2026"
    assert dumped[1:4] == ["* Qmgr  = QM1", f"* Queue = {QUEUE}", ""]
    assert dumped[4:] == message_lines


def test_real_sample_context_is_preserved_by_set_all_context() -> None:
    """MQPMO_SET_ALL_CONTEXT: MsgId, identity and origin context come from the file."""
    qm = new_qm()
    load_dmpmqmsg(qm, QUEUE, SAMPLE)
    [(md, data)] = browse_all(qm)
    assert md.MsgId.hex().upper() == "414D5120514D31202020202020202020DAA1AD6A02AE0640"
    assert (md.UserIdentifier, md.PutApplType, md.PutApplName) == ("mqm", C.MQAT_UNIX, "amqsput")
    assert (md.PutDate, md.PutTime) == ("20260922", "02342828")
    assert md.AccountingToken[:5] == b"\x041001" and md.AccountingToken[-1] == 6
    assert (md.ReplyToQ, md.ReplyToQMgr, md.ApplIdentityData) == ("", "QM1", "")
    assert (md.Format, md.CodedCharSetId, md.Persistence) == (C.MQFMT_STRING, 1208, 1)
    assert data.startswith(b'{"original":{"orderId":"13"') and len(data) == 238


def test_sample_loads_from_a_path_and_from_bytes(tmp_path: Path) -> None:
    path = tmp_path / "dump.txt"
    path.write_bytes(SAMPLE.encode("latin-1"))
    for source in (path, str(path), SAMPLE.encode("latin-1")):
        qm = new_qm()
        assert load_dmpmqmsg(qm, QUEUE, source) == 1
        assert qm.curdepth(QUEUE) == 1


def test_banner_lines_are_skipped_only_before_the_header() -> None:
    """A stdout capture starts with the program banner; without a header there is no banner."""
    assert len(parse_dmpmqmsg(SAMPLE)) == 1
    banner = "".join(SAMPLE.splitlines(keepends=True)[:BANNER_LINES])
    with pytest.raises(DumpFormatError) as caught:
        parse_dmpmqmsg(banner + "A RPT 0\nX 00\n")
    assert caught.value.line == 1


# ---------------------------------------------------------------------------------------------
# attribute lines
LONG_KEYS = {
    "VER": "Version",
    "RPT": "Report",
    "MST": "MsgType",
    "EXP": "Expiry",
    "FDB": "Feedback",
    "ENC": "Encoding",
    "CCS": "CodedCharSetId",
    "PRI": "Priority",
    "PER": "Persistence",
    "BOC": "BackoutCount",
    "PAT": "PutApplType",
    "MSQ": "MsgSeqNumber",
    "OFF": "Offset",
    "MSF": "MsgFlags",
    "ORL": "OriginalLength",
}
CHAR_KEYS = {
    "RTQ": ("ReplyToQ", "REPLY.Q"),
    "RTM": ("ReplyToQMgr", "QM2"),
    "USR": ("UserIdentifier", "alice"),
    "PAN": ("PutApplName", "payroll.exe"),
    "PTD": ("PutDate", "20260101"),
    "PTT": ("PutTime", "09000000"),
    "AID": ("ApplIdentityData", "identity"),
    "AOD": ("ApplOriginData", "ORIG"),
}
HEX_KEYS = {
    "MSI": ("MsgId", 24),
    "COI": ("CorrelId", 24),
    "ACC": ("AccountingToken", 32),
    "GRP": ("GroupId", 24),
}


@pytest.mark.parametrize(("key", "field"), LONG_KEYS.items())
def test_every_long_key_sets_its_field(key: str, field: str) -> None:
    md = one(f"A {key} -12345\n")
    assert getattr(md, field) == -12345
    assert {k: v for k, v in md.get().items() if k != field} == {
        k: v for k, v in mq.MD().get().items() if k != field
    }


@pytest.mark.parametrize(("key", "field_value"), CHAR_KEYS.items())
def test_every_character_key_sets_its_field(key: str, field_value: tuple[str, str]) -> None:
    field, value = field_value
    assert getattr(one(f"A {key} {value}   \n"), field) == value, "trailing blanks are padding"


def test_format_keeps_its_eight_characters() -> None:
    assert one("A FMT MQSTR   \n").Format == C.MQFMT_STRING
    assert one("A FMT MQHRF2\n").Format == C.MQFMT_RF_HEADER_2


@pytest.mark.parametrize(("key", "field_length"), HEX_KEYS.items())
def test_every_byte_key_sets_its_field(key: str, field_length: tuple[str, int]) -> None:
    field, length = field_length
    value = bytes(range(1, length + 1))
    assert getattr(one(f"A {key} {value.hex().upper()}\n"), field) == value
    assert getattr(one(f"A {key} {value.hex()}\n"), field) == value, "lowercase hex too"


def test_short_hex_value_replaces_only_the_leading_bytes() -> None:
    """As qload's ConvertHex: the rest of the field keeps its value (zeros initially)."""
    assert one("A MSI 414D51\n").MsgId == b"AMQ" + bytes(21)


def test_aix_and_aox_are_character_fields_written_in_hex() -> None:
    md = one("A AIX " + b"id".ljust(32).hex().upper() + "\nA AOX 41424320\n")
    assert (md.ApplIdentityData, md.ApplOriginData) == ("id", "ABC")


def test_attribute_line_without_value_keeps_the_initial_value() -> None:
    """qload: a line shorter than 7 characters has no value."""
    md = one("A EXP\nA RTQ \nA MSI\n")
    assert (md.Expiry, md.ReplyToQ, md.MsgId) == (C.MQEI_UNLIMITED, "", C.MQMI_NONE)


def test_absent_attribute_lines_take_ibm_initial_values() -> None:
    """Each message starts from MQMD_DEFAULT: Version 1, MsgType 8, Expiry -1, Priority -1..."""
    md = one("A RPT 0\n")
    assert md.get() == mq.MD().get()
    assert (md.Version, md.MsgType, md.Expiry, md.Priority, md.Persistence) == (
        C.MQMD_VERSION_1,
        C.MQMT_DATAGRAM,
        C.MQEI_UNLIMITED,
        C.MQPRI_PRIORITY_AS_Q_DEF,
        C.MQPER_PERSISTENCE_AS_Q_DEF,
    )
    assert (md.Encoding, md.CodedCharSetId, md.Format) == (C.MQENC_NATIVE, 0, C.MQFMT_NONE)
    assert (md.MsgSeqNumber, md.OriginalLength) == (1, C.MQOL_UNDEFINED)


def test_each_message_starts_again_from_initial_values() -> None:
    first, second = parse_dmpmqmsg("A EXP 50\nA PRI 7\nX 01\n\nA RPT 0\nX 02\n")
    assert (first.md.Expiry, first.md.Priority) == (50, 7)
    assert (second.md.Expiry, second.md.Priority) == (C.MQEI_UNLIMITED, C.MQPRI_PRIORITY_AS_Q_DEF)
    assert (first.line, second.line) == (1, 5)


def test_n_line_message_gets_initial_descriptor_and_queue_defaults() -> None:
    """An N line (written by -dN) means "no MQMD": the load puts with MQMD_DEFAULT."""
    [message] = parse_dmpmqmsg("* comment\nN\nX 4869\n")
    assert message.md.get() == mq.MD().get() and message.data == b"Hi"
    qm = new_qm(defprty=4)
    load_dmpmqmsg(qm, QUEUE, "N\nX 4869\n\nN\nX 21\n")
    [(md1, data1), (md2, data2)] = browse_all(qm)
    assert (data1, data2) == (b"Hi", b"!")
    assert md1.Priority == 4, "Priority -1 takes the queue's DEFPRTY"
    assert md1.MsgId != md2.MsgId and md1.MsgId != C.MQMI_NONE, "MsgId none: a new one"
    assert md1.Expiry == C.MQEI_UNLIMITED


# ---------------------------------------------------------------------------------------------
# data lines
def test_x_lines_concatenate_and_may_carry_an_ascii_column() -> None:
    """Option -da appends '<printable>' after the hex; the reader ignores it."""
    text = "A RPT 0\nX 48656C6C6F" + " " * 42 + "<Hello>\nX 2C20776F726C64  <, world>\n"
    assert parse_dmpmqmsg(text)[0].data == b"Hello, world"


def test_empty_x_line_is_an_empty_message() -> None:
    assert parse_dmpmqmsg("A RPT 0\nX \n")[0].data == b""
    assert parse_dmpmqmsg("A RPT 0\nX\n")[0].data == b""


def test_s_lines_quoted_with_escapes() -> None:
    """In quotes, ~" stands for " and ~~ for ~ (qload's ESCAPE_CHAR)."""
    text = 'A RPT 0\nS "say ~"hi~" ~~ bye"\nS "  two  "\n'
    assert parse_dmpmqmsg(text)[0].data == b'say "hi" ~ bye  two  '


def test_s_line_unquoted_is_taken_literally_without_trailing_blanks() -> None:
    assert parse_dmpmqmsg("A RPT 0\nS plain text   \n")[0].data == b"plain text"


def test_t_lines_each_end_with_a_line_feed() -> None:
    """qload appends LF to every T line's content (so a CRLF file loads as LF text)."""
    text = "A RPT 0\nT first line\nT\nT  indented\r\n"
    assert parse_dmpmqmsg(text)[0].data == b"first line\n\n indented\n"


def test_mixed_data_lines_concatenate_in_order() -> None:
    text = 'A RPT 0\nS "abc"\nX 00FF\nT xyz\nS "~~"\n'
    assert parse_dmpmqmsg(text)[0].data == b"abc\x00\xffxyz\n~"


def test_comments_and_empty_lines_are_ignored_anywhere() -> None:
    text = "* top\n\nA RPT 0\n* between\nX 01\n\n* Index 2\nX 02\n\n"
    assert parse_dmpmqmsg(text)[0].data == b"\x01\x02"


def test_latin1_characters_are_bytes() -> None:
    assert parse_dmpmqmsg("A USR jos\xe9\nT caf\xe9\n")[0].data == b"caf\xe9\n"


# ---------------------------------------------------------------------------------------------
# the writer
def full_md(version: int) -> mq.MD:
    """A descriptor with no initial values left."""
    return mq.MD(
        Version=version,
        Report=C.MQRO_EXPIRATION,
        MsgType=C.MQMT_REQUEST,
        Expiry=600,
        Feedback=0,
        Encoding=273,
        CodedCharSetId=819,
        Format=C.MQFMT_STRING,
        Priority=5,
        Persistence=1,
        MsgId=b"M" * 24,
        CorrelId=b"C" * 24,
        BackoutCount=2,
        ReplyToQ="REPLY.Q",
        ReplyToQMgr="QM2",
        UserIdentifier="alice",
        AccountingToken=bytes(range(32)),
        ApplIdentityData="who",
        PutApplType=C.MQAT_UNIX,
        PutApplName="app",
        PutDate="20260101",
        PutTime="09000000",
        ApplOriginData="ori",
        GroupId=b"G" * 24,
        MsgSeqNumber=3,
        Offset=100,
        MsgFlags=C.MQMF_MSG_IN_GROUP,
        OriginalLength=42,
    )


def test_writer_uses_ibm_order_and_version_2_lines_only_for_version_2() -> None:
    keys_v2 = [
        line[2:5]
        for line in format_dmpmqmsg([(full_md(2), b"x")], created=SAMPLE_CREATED).splitlines()
        if line.startswith("A ")
    ]
    assert keys_v2 == [
        "VER", "RPT", "MST", "EXP", "FDB", "ENC", "CCS", "FMT", "PRI", "PER", "MSI", "COI",
        "BOC", "RTQ", "RTM", "USR", "ACC", "AIX", "PAT", "PAN", "PTD", "PTT", "AOX",
        "GRP", "MSQ", "OFF", "MSF", "ORL",
    ]  # fmt: skip
    text_v1 = format_dmpmqmsg([(full_md(1), b"x")], created=SAMPLE_CREATED)
    keys_v1 = [line[2:5] for line in text_v1.splitlines() if line.startswith("A ")]
    assert keys_v1 == keys_v2[1:23]


def test_writer_keeps_trailing_blanks_and_writes_25_bytes_per_x_line() -> None:
    text = format_dmpmqmsg([(full_md(2), bytes(60))], created=SAMPLE_CREATED)
    lines = text.splitlines()
    assert "A RTQ " + "REPLY.Q".ljust(48) in lines
    assert "A USR alice       " in lines and "A FMT MQSTR   " in lines
    assert "A AOX 6F726920" in lines, "ApplOriginData 'ori' + blank, in hex"
    assert [len(line) for line in lines if line.startswith("X ")] == [52, 52, 22]
    assert text.endswith("X " + "00" * 10 + "\n\n"), "each message ends with an empty line"


def test_writer_header_and_empty_message() -> None:
    text = format_dmpmqmsg([(mq.MD(), b"")], created=DEFAULT_START)
    assert text.startswith(HEADER)
    assert text.endswith("A AOX 20202020\nX \n\n")


V2_FIELDS = ("GroupId", "MsgSeqNumber", "Offset", "MsgFlags", "OriginalLength")


@pytest.mark.parametrize("version", [1, 2])
def test_written_descriptor_reads_back_equal(version: int) -> None:
    """Every field survives format then parse; a version-1 dump has no GRP..ORL lines, so
    those fields read back as their initial values."""
    md = full_md(version)
    [back] = parse_dmpmqmsg(format_dmpmqmsg([(md, b"data")], created=SAMPLE_CREATED))
    expected = md.get()
    if version == 1:
        expected.update({field: getattr(mq.MD, field) for field in V2_FIELDS})
    assert back.md.get() == expected and back.data == b"data"


latin1_text = st.text(
    alphabet=st.characters(min_codepoint=0x21, max_codepoint=0xFF, exclude_characters="\x7f"),
    max_size=8,
)


@st.composite
def descriptors(draw: st.DrawFn) -> mq.MD:
    """Any descriptor the writer can write (character fields without line breaks or NULs)."""
    long = st.integers(-(2**31), 2**31 - 1)
    md = mq.MD(Version=draw(st.sampled_from([1, 2])))
    for field in md._LAYOUT:
        if field.name in ("StrucId", "Version"):
            continue
        if field.kind == "l":
            setattr(md, field.name, draw(long))
        elif field.kind == "b":
            setattr(md, field.name, draw(st.binary(min_size=field.length, max_size=field.length)))
        else:
            text = draw(latin1_text)[: field.length]
            setattr(md, field.name, text.ljust(8) if field.name == "Format" else text)
    if md.Version == 1:  # a version-1 descriptor has no version-2 fields to write
        for name in V2_FIELDS:
            setattr(md, name, getattr(mq.MD, name))
    return md


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(descriptors(), st.binary(max_size=80)), max_size=4))
def test_any_written_dump_reads_back_the_same(messages: list[tuple[mq.MD, bytes]]) -> None:
    """Invariant: parse(format(messages)) gives the same descriptors and data back."""
    back = parse_dmpmqmsg(format_dmpmqmsg(messages, created=SAMPLE_CREATED, qmgr="QM1"))
    assert [(m.md.get(), m.data) for m in back] == [(md.get(), data) for md, data in messages]


# ---------------------------------------------------------------------------------------------
# load and dump on queues
def test_version_2_fields_survive_a_load_and_dump() -> None:
    """A version-2 file's group fields are put and dumped back (dumps use a version-2 MQMD)."""
    qm = new_qm()
    text = "A VER 2\nA GRP " + "AB" * 24 + "\nA MSQ 3\nA OFF 0\nA MSF 8\nX 01\n"
    load_dmpmqmsg(qm, QUEUE, text)
    lines = dump_dmpmqmsg(qm, QUEUE).splitlines()
    assert "A VER 2" in lines and "A GRP " + "AB" * 24 in lines
    assert lines[-6:] == ["A MSQ 3", "A OFF 0", "A MSF 8", "A ORL -1", "X 01", ""]


def test_version_1_file_puts_no_version_2_fields() -> None:
    """Without A VER the descriptor is version 1, so GRP..ORL are not part of the put."""
    qm = new_qm()
    load_dmpmqmsg(qm, QUEUE, "A GRP " + "AB" * 24 + "\nA MSQ 3\nX 01\n")
    [(md, _)] = browse_all(qm)
    assert (md.GroupId, md.MsgSeqNumber) == (C.MQGI_NONE, 1)


def test_exp11_dump_records_remaining_expiry() -> None:
    """Rule EXP-11: the Expiry a dump writes is what is left (600 put, 25 s later 350)."""
    qm = new_qm()
    load_dmpmqmsg(qm, QUEUE, "A EXP 600\nX 01\n")
    qm.sim.advance(seconds=25)
    assert "A EXP 350" in dump_dmpmqmsg(qm, QUEUE).splitlines()


def test_exp01_expiry_counts_down_again_from_load_time() -> None:
    """Rule EXP-01: a reloaded message lives its recorded remaining lifetime from the load on.

    Unloaded at t = 25 s with 35 s left (original deadline t = 60 s), then loaded at t = 40 s
    onto another queue: it lives until t = 75 s, not 60 s.
    """
    qm = new_qm()
    qm.define_qlocal("COPY")
    load_dmpmqmsg(qm, QUEUE, "A EXP 600\nX 01\n")
    qm.sim.advance(seconds=25)
    dump = dump_dmpmqmsg(qm, QUEUE)
    qm.sim.advance(seconds=15)
    load_dmpmqmsg(qm, "COPY", dump)
    qm.sim.advance(seconds=25)  # t = 65 s: the original has expired, the copy has 10 s left
    assert browse_all(qm) == []
    [(md, _)] = browse_all(qm, "COPY")
    assert md.Expiry == 100


def test_exp20_exp25_exp21_loaded_message_expires_lazily() -> None:
    """Rules EXP-20, EXP-25, EXP-21: expired loaded messages stay in CURDEPTH until a browse.

    dump_dmpmqmsg browses, so it discards the expired message and dumps no message at all.
    """
    qm = new_qm()
    load_dmpmqmsg(qm, QUEUE, "A EXP 10\nX 01\n\nA EXP -1\nX 02\n")
    qm.sim.advance(seconds=5)
    assert qm.curdepth(QUEUE) == 2, "EXP-20/EXP-25: eligible, not yet discarded, still counted"
    dump = dump_dmpmqmsg(qm, QUEUE)
    assert [m.data for m in parse_dmpmqmsg(dump)] == [b"\x02"], "EXP-24: never dumped"
    assert qm.curdepth(QUEUE) == 1, "EXP-21: the browse discarded it"


def test_dump_without_browse_empties_the_queue() -> None:
    qm = new_qm()
    load_dmpmqmsg(qm, QUEUE, SAMPLE)
    browsed = dump_dmpmqmsg(qm, QUEUE)
    assert qm.curdepth(QUEUE) == 1
    assert dump_dmpmqmsg(qm, QUEUE, browse=False) == browsed
    assert qm.curdepth(QUEUE) == 0


def test_dump_of_an_empty_queue_is_the_header_alone() -> None:
    assert dump_dmpmqmsg(new_qm(), QUEUE) == (
        "* DMPMQMSG Version:10.0.0.0 Created:Thu Jan  1 09:00:00 2026\n"
        f"* Qmgr  = QM1\n* Queue = {QUEUE}\n\n"
    )


# ---------------------------------------------------------------------------------------------
# malformed input: DumpFormatError with the line, nothing put
BAD_FILES = [
    ("A RPT 0\nX 4G\n", 2, "expected hex digits, found 'G'"),
    ("A RPT 0\nX 414\n", 2, "odd number of hex digits"),
    ("A RPT 0\nX 41 42\n", 2, "expected hex digits, found ' ' at column 5"),
    ("A MSI 41ZZ\nX 00\n", 1, "A MSI: expected hex digits"),
    ("A MSI 123\nX 00\n", 1, "A MSI: odd number of hex digits"),
    ("A MSI " + "00" * 25 + "\nX 00\n", 1, "the field holds 24 bytes, the value has 25"),
    ("A RPT 0\nA FBK 0\nX 00\n", 2, "unknown attribute key 'FBK'"),
    ("X 00\n", 1, "expected a message attribute line (A or N), found message data"),
    ("A RPT 0\nX 00\n\nQ 1\n", 4, "expected more message data"),
    ("A RPT 0\nX 00\n\nT x\n\nA RPT 0\n", 6, "expected message data (an X, S or T line)"),
    ("A RPT 0\nA EXP 50\n", 2, "found the end of the file"),
    ("A RPT 0\nN\nX 00\n", 2, "for the message that starts at line 1, found an N line"),
    ("A RPT 0\nX 00", 2, "the last line has no line break"),
    ("A EXP soon\nX 00\n", 1, "A EXP: expected a whole number, found 'soon'"),
    ("A EXP 2147483648\nX 00\n", 1, "does not fit in an MQLONG"),
    ("A EXP5\nX 00\n", 1, "expected a space after the key EXP"),
    ("A EX\nX 00\n", 1, "expected 'A <key> <value>'"),
    ("A USR " + "u" * 13 + "\nX 00\n", 1, "the field holds 12 characters, the value has 13"),
    ('A RPT 0\nS "open\n', 2, "expected a closing"),
    ('A RPT 0\nS "a~b"\n', 2, "found '~b'"),
    ('A RPT 0\nS "a" b\n', 2, "nothing after the closing"),
    ("N extra\nX 00\n", 1, "expected a message attribute line"),
    ("Q 00\n", 1, "found 'Q 00'"),
    ("A RPT 0\nXFF\n", 2, "found 'XFF'"),
    (" A RPT 0\nX 00\n", 1, "found ' A RPT 0'"),
    ("A RPT 0\nT \u20ac\n", 2, "is not a byte"),
]


@pytest.mark.parametrize(("text", "line", "expected"), BAD_FILES)
def test_malformed_dump_raises_dump_format_error_with_line(
    text: str, line: int, expected: str
) -> None:
    with pytest.raises(DumpFormatError) as caught:
        parse_dmpmqmsg(text)
    assert isinstance(caught.value, ValueError)
    assert caught.value.line == line
    assert expected in str(caught.value) and str(caught.value).startswith(f"line {line}: ")


@pytest.mark.parametrize(
    ("text", "line", "expected"), [case for case in BAD_FILES if case[0].startswith("A ")]
)
def test_malformed_dump_puts_nothing(text: str, line: int, expected: str) -> None:
    """A good first message and a bad second one: the good one is not put either."""
    qm = new_qm()
    with pytest.raises(DumpFormatError):
        load_dmpmqmsg(qm, QUEUE, "A RPT 0\nX 01\n\n" + text)
    assert qm.curdepth(QUEUE) == 0 and not [e for e in qm.events if e.kind == "put"]


def test_truncated_real_sample_is_refused() -> None:
    cut = SAMPLE[: SAMPLE.index("X 61636B") + 20]
    with pytest.raises(DumpFormatError) as caught:
        parse_dmpmqmsg(cut)
    assert caught.value.line == cut.count("\n") + 1
    assert "truncated" in str(caught.value)


# ---------------------------------------------------------------------------------------------
# all or nothing when the queue refuses a message
THREE = "A RPT 0\nX 01\n\nA RPT 0\nX 02\n\nA RPT 0\nX 03\n"


def test_queue_full_part_way_leaves_the_queue_as_it_was() -> None:
    """The third put fails with 2053 (MQRC_Q_FULL): the unit of work is backed out."""
    qm = new_qm(maxdepth=3)
    qm.put1(QUEUE, b"already there")
    with pytest.raises(mq.MQMIError) as caught:
        load_dmpmqmsg(qm, QUEUE, THREE)
    assert caught.value.reason == C.MQRC_Q_FULL
    assert "message 3 of 3 (line 7)" in str(caught.value) and "nothing was loaded" in str(
        caught.value
    )
    assert [data for _, data in browse_all(qm)] == [b"already there"]
    assert qm.curdepth(QUEUE) == 1 and qm.in_unit_of_work == 0


def test_exp03_invalid_expiry_in_a_later_message_loads_nothing() -> None:
    """Rule EXP-03: Expiry 0 is refused with 2013, so the whole file is refused."""
    qm = new_qm()
    with pytest.raises(mq.MQMIError) as caught:
        load_dmpmqmsg(qm, QUEUE, THREE + "\nA EXP 0\nX 04\n")
    assert caught.value.reason == C.MQRC_EXPIRY_ERROR
    assert qm.curdepth(QUEUE) == 0


def test_unknown_queue_fails_at_open_with_2085() -> None:
    qm = new_qm()
    with pytest.raises(mq.MQMIError) as caught:
        load_dmpmqmsg(qm, "NO.SUCH.Q", THREE)
    assert caught.value.reason == C.MQRC_UNKNOWN_OBJECT_NAME


def test_load_refuses_to_join_an_open_unit_of_work() -> None:
    qm = new_qm()
    qm.put1(QUEUE, b"uncommitted", pmo=mq.PMO(Options=C.MQPMO_SYNCPOINT))
    with pytest.raises(ValueError, match="commit or back it out first"):
        load_dmpmqmsg(qm, QUEUE, THREE)
    assert qm.curdepth(QUEUE) == 1 and qm.in_unit_of_work == 1


def test_loaded_messages_are_available_after_the_load() -> None:
    qm = new_qm()
    assert load_dmpmqmsg(qm, QUEUE, THREE) == 3
    assert [data for _, data in browse_all(qm)] == [b"\x01", b"\x02", b"\x03"]
    assert qm.in_unit_of_work == 0


# ---------------------------------------------------------------------------------------------
# transaction_limit: the utility's own batches (dmpmqmsg -t), against mqlearn's default
SEVEN = "".join(f"A RPT 0\nX 0{n}\n\n" for n in range(1, 8))


def test_the_default_transaction_limit_is_none_one_unit_of_work() -> None:
    """docs/interop.md names the default: None, the whole file in one unit of work."""
    default = inspect.signature(load_dmpmqmsg).parameters["transaction_limit"].default
    assert default is None
    docs = (Path(__file__).resolve().parents[2] / "docs" / "interop.md").read_text()
    assert "`transaction_limit=None`, **the default**" in docs


@pytest.mark.parametrize(
    ("limit", "kept"), [(None, 0), (1, 5), (2, 4), (3, 3), (5, 5), (6, 0), (7, 0)]
)
def test_transaction_limit_backs_out_only_the_open_batch(limit: int | None, kept: int) -> None:
    """MAXDEPTH(5): message 6 of 7 is refused with 2053. With a commit every ``limit`` messages
    (dmpmqmsg -t), the batches committed before it stay; the open batch is backed out."""
    qm = new_qm(maxdepth=5)
    with pytest.raises(mq.MQMIError) as caught:
        load_dmpmqmsg(qm, QUEUE, SEVEN, transaction_limit=limit)
    assert caught.value.reason == C.MQRC_Q_FULL
    assert "message 6 of 7 (line 16) was refused" in str(caught.value)
    assert [data for _, data in browse_all(qm)] == [bytes([n]) for n in range(1, kept + 1)]
    assert qm.in_unit_of_work == 0
    said = "nothing was loaded" if not kept else "stay on the queue; only the open batch"
    assert said in str(caught.value)


@pytest.mark.parametrize("limit", [1, 2, 3, 7, 100])
def test_transaction_limit_loads_a_good_file_whole(limit: int) -> None:
    qm = new_qm()
    assert load_dmpmqmsg(qm, QUEUE, SEVEN, transaction_limit=limit) == 7
    assert [data for _, data in browse_all(qm)] == [bytes([n]) for n in range(1, 8)]
    assert qm.in_unit_of_work == 0


def test_transaction_limit_does_not_change_parsing_first() -> None:
    """A malformed file is refused before any put, whatever the batches."""
    qm = new_qm()
    with pytest.raises(DumpFormatError):
        load_dmpmqmsg(qm, QUEUE, SEVEN + "A EXP soon\nX 08\n", transaction_limit=1)
    assert qm.curdepth(QUEUE) == 0


@pytest.mark.parametrize(
    ("limit", "error"), [(0, ValueError), (-3, ValueError), (True, TypeError), (2.5, TypeError)]
)
def test_transaction_limit_must_be_a_positive_int(limit: object, error: type[Exception]) -> None:
    qm = new_qm()
    with pytest.raises(error, match="transaction_limit"):
        load_dmpmqmsg(qm, QUEUE, SEVEN, transaction_limit=limit)  # type: ignore[arg-type]
    assert qm.curdepth(QUEUE) == 0


# ---------------------------------------------------------------------------------------------
# robustness: garbage and mutations never escape as other errors, never load part of a file
GARBAGE = st.text(alphabet='ANXST* \n\r"~0123456789ABCDEFabcdefg-<>\u20ac\xe9', max_size=200)
EDITS = st.lists(
    st.tuples(
        st.sampled_from(["insert", "delete", "replace"]),
        st.integers(0, len(SAMPLE)),
        st.sampled_from(list('AXNST*~" \n\r0F9gz-\u20ac')),
    ),
    min_size=1,
    max_size=4,
)


def mutate(text: str, edits: list[tuple[str, int, str]]) -> str:
    for op, position, char in edits:
        at = min(position, len(text))
        if op == "insert":
            text = text[:at] + char + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + 1 :]
        else:
            text = text[:at] + char + text[at + 1 :]
    return text


def check_all_or_nothing(text: str) -> None:
    """Parsing raises only DumpFormatError; loading loads every message or none.

    A file that parses can still be refused by the queue manager (for example ``A PER 7`` is
    MQRC_PERSISTENCE_ERROR): that is an MQMIError, and the queue is left empty as well.
    """
    try:
        expected = len(parse_dmpmqmsg(text))
    except DumpFormatError:
        expected = None
    if "\n" not in text:  # a str without a line break names a file; as a dump it is truncated
        assert expected is None or text == ""
        return
    qm = new_qm()
    try:
        loaded = load_dmpmqmsg(qm, QUEUE, text)
    except DumpFormatError:
        assert expected is None
        assert qm.curdepth(QUEUE) == 0
        return
    except mq.MQMIError:
        assert qm.curdepth(QUEUE) == 0 and qm.in_unit_of_work == 0
        return
    assert loaded == expected == qm.curdepth(QUEUE)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GARBAGE)
def test_random_text_raises_only_dump_format_error(text: str) -> None:
    check_all_or_nothing(text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EDITS)
def test_mutated_real_sample_raises_only_dump_format_error(
    edits: list[tuple[str, int, str]],
) -> None:
    check_all_or_nothing(mutate(SAMPLE, edits))
