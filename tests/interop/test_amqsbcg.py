"""amqsbcg-style printing checked against real amqsbcg captures.

Each sample is parsed here for its values only (descriptor fields and data bytes); the layout
(labels, spacing, blank lines, hex rows) must then come out of the formatter exactly as amqsbcg
printed it. The dead-letter header block follows amqsbcg's printDLH (no sample has one).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import mqlearn as mq
from mqlearn import CMQC as C
from mqlearn.interop import browse_amqsbcg, format_amqsbcg, format_amqsbcg_run, load_dmpmqmsg

SAMPLES = Path(__file__).parent / "samples"
VALUE = re.compile(r"(\w+)\s*:\s*(X'[0-9A-F]*'|'[^']*'|-?\d+)")
KEEP_BLANKS = ("StrucId", "Format")


def read_sample(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="latin-1")


def parse_browse(text: str) -> tuple[str, mq.MD, bytes]:
    """The queue name, descriptor and data an amqsbcg capture shows (values only)."""
    match = re.search(r"MQOPEN - '(.*)'", text)
    assert match is not None
    descriptor = text[text.index("****Message descriptor****") : text.index("****   Message")]
    values = dict(VALUE.findall(descriptor))
    md = mq.MD()
    for field in md._LAYOUT:
        raw = values[field.name]
        if field.kind == "l":
            setattr(md, field.name, int(raw.strip("'")))
        elif field.kind == "b":
            setattr(md, field.name, bytes.fromhex(raw[2:-1]))
        else:
            chars = raw[1:-1]
            setattr(md, field.name, chars if field.name in KEEP_BLANKS else chars.rstrip(" "))
    rows = re.findall(r"^[0-9A-F]{8}: (.{40})", text, flags=re.MULTILINE)
    return match.group(1), md, bytes.fromhex("".join(rows).replace(" ", ""))


@pytest.mark.parametrize("name", ["backout-browse.txt", "dlq-browse.txt"])
def test_real_browse_reproduced_exactly(name: str) -> None:
    """The whole capture, from the banner to MQDISC, character for character."""
    text = read_sample(name)
    queue, md, data = parse_browse(text)
    assert format_amqsbcg_run(queue, [(md, data)]) == text


def test_backout_sample_values_are_the_ones_printed() -> None:
    """The parse above reads values, not layout: here they are, written out."""
    _, md, data = parse_browse(read_sample("backout-browse.txt"))
    assert md.MsgId == bytes.fromhex("414D5120514D31202020202020202020C789B46A07300040")
    assert (md.Version, md.Encoding, md.CodedCharSetId, md.Format) == (2, 546, 1208, "MQSTR   ")
    assert (md.ReplyToQMgr, md.UserIdentifier, md.PutApplName) == ("QM1", "mqm", "amqsput")
    assert (md.PutDate, md.PutTime, md.OriginalLength) == ("20260924", "02505484", -1)
    assert data == b'{"orderId":"23","forcarErro":"true"}'


def test_rpl03_md04_an_amqsput_message_browses_with_the_captures_reply_to_and_ccsid() -> None:
    """The backout capture is an amqsput message on a Linux queue manager QM1: amqsput leaves
    ReplyToQ blank, ReplyToQMgr blank and CodedCharSetId MQCCSI_Q_MGR, and amqsbcg shows ReplyToQ
    blank, ReplyToQMgr 'QM1' (rule RPL-03) and CodedCharSetId 1208 (rule MD-04). The same put on
    mqlearn's QM1 browses with the same values."""
    _, real, _ = parse_browse(read_sample("backout-browse.txt"))
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("DEV.QUEUE.1")
    mq.Queue(qm, "DEV.QUEUE.1").put(b"hello", mq.MD(Format=C.MQFMT_STRING))
    _, ours, _ = parse_browse(browse_amqsbcg(qm, "DEV.QUEUE.1"))
    fields = ("ReplyToQ", "ReplyToQMgr", "CodedCharSetId", "Encoding", "Format")
    assert [getattr(ours, f) for f in fields] == [getattr(real, f) for f in fields]
    assert (real.ReplyToQ, real.ReplyToQMgr, real.CodedCharSetId) == ("", "QM1", 1208)


def test_older_big_endian_rfh2_browse_message_block_reproduced() -> None:
    """The rfh2 capture comes from an older amqsbcg (no summary) pasted into a README, which
    lost trailing blanks: its message block matches line for line once trailing blanks go."""
    text = read_sample("rfh2-browse.txt")
    _, md, data = parse_browse(text)
    assert (md.Encoding, md.Format, md.PutApplType) == (273, C.MQFMT_RF_HEADER_2, 28)
    lines = text.splitlines()
    start = lines.index(" MQGET of message number 1, CompCode:0 Reason:0")
    end = max(i for i, line in enumerate(lines) if re.match(r"[0-9A-F]{8}: ", line)) + 1
    block = format_amqsbcg(md, data).splitlines()
    assert [line.rstrip() for line in block] == [line.rstrip() for line in lines[start:end]]


def test_loaded_dmpmqmsg_sample_browses_like_the_real_dlq_browse() -> None:
    """The dump sample and the dlq-browse capture are messages of the same run (amqsput, QM1,
    APP.DLQ): loaded and browsed here, the descriptor block differs only in MsgId and put time."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.DLQ")
    load_dmpmqmsg(qm, "APP.DLQ", (SAMPLES / "dlq-dump.txt").read_bytes())
    ours = browse_amqsbcg(qm, "APP.DLQ").splitlines()
    real = read_sample("dlq-browse.txt").splitlines()
    differ = [i for i, (a, b) in enumerate(zip(ours, real, strict=True)) if a != b]
    changed = {
        ours[i].split(":")[0].strip() for i in differ if not re.match("[0-9A-F]{8}:", ours[i])
    }
    assert changed == {"MsgId", "PutDate"}, "rows differ too: other JSON in the body"
    assert len(ours) == len(real)


# ---------------------------------------------------------------------------------------------
# dead-letter header
def dead_letter(reason: int = C.MQRC_Q_FULL) -> bytes:
    dlh = mq.MQDLH(
        Reason=reason,
        DestQName="APP.IN",
        DestQMgrName="QM1",
        Encoding=C.MQENC_NATIVE,
        CodedCharSetId=1208,
        Format=C.MQFMT_STRING,
        PutApplType=C.MQAT_QMGR,
        PutApplName="QM1",
        PutDate="20260101",
        PutTime="09000000",
    )
    return dlh.pack() + b"payload"


def test_dead_letter_header_block_follows_printdlh() -> None:
    md = mq.MD(Version=2, Format=C.MQFMT_DEAD_LETTER_HEADER)
    lines = format_amqsbcg(md, dead_letter()).splitlines()
    at = lines.index("****Dead Letter Header****")
    assert lines[at - 2 : at + 14] == [
        "  OriginalLength : '-1'",
        "",
        "****Dead Letter Header****",
        "",
        "  StrucId  : 'DLH '  Version : 1",
        "  Reason   : 2053 [MQRC_Q_FULL]",
        "  DestQName      : '" + "APP.IN".ljust(48) + "'",
        "  DestQMgrName   : '" + "QM1".ljust(48) + "'",
        "  Encoding : 546  CodedCharSetId : 1208",
        "  Format : 'MQSTR   '",
        "  PutApplType    : '7'",
        "  PutApplName    : '" + "QM1".ljust(28) + "'",
        "  PutDate  : '20260101'    PutTime  : '09000000'",
        " ",
        "****   Message      ****",
        " ",
    ]
    assert lines[at + 14 :] == [
        " length - 7 of 7 bytes",
        " ",
        "00000000:  7061 796C 6F61 64" + " " * (22 + 10) + " 'payload         '",
    ], "the rows show the data after the MQDLH"


@pytest.mark.parametrize("reason", [1, C.MQFB_EXPIRATION])
def test_dead_letter_reason_without_a_reason_code_name_prints_unknown_rc(reason: int) -> None:
    """amqsbcg names MQRC_ codes only: a feedback code such as MQFB_EXPIRATION is unknown."""
    md = mq.MD(Format=C.MQFMT_DEAD_LETTER_HEADER)
    lines = format_amqsbcg(md, dead_letter(reason)).splitlines()
    assert f"  Reason   : {reason} [UNKNOWN RC]" in lines


def test_mqdlh_is_printed_only_when_format_says_so() -> None:
    """amqsbcg looks for an MQDLH only when Format is MQFMT_DEAD_LETTER_HEADER."""
    text = format_amqsbcg(mq.MD(Format=C.MQFMT_NONE), dead_letter())
    assert "Dead Letter Header" not in text and " length - 179 of 179 bytes" in text


def test_dlq01_engine_dead_letter_browsed_with_its_header() -> None:
    """Rule DLQ-01: a message the channel could not deliver sits on QM2's DLQ behind an MQDLH."""
    sim = mq.Simulation()
    qm1, qm2 = mq.QueueManager("QM1", sim=sim), mq.QueueManager("QM2", sim=sim)
    qm1.define_qlocal("QM2", usage="XMITQ")
    qm1.define_qremote("TO.NOWHERE", rname="NO.SUCH.Q", rqmname="QM2")
    qm2.define_qlocal("DLQ")
    qm2.alter_qmgr(deadq="DLQ")
    mq.Channel(qm1, qm2, xmitq="QM2")
    qm1.put1("TO.NOWHERE", b"lost", mq.MD(Expiry=600, Format=C.MQFMT_STRING))
    sim.advance(seconds=10)
    lines = browse_amqsbcg(qm2, "DLQ").splitlines()
    assert "  Expiry   : 500  Feedback : 0" in lines, "rule EXP-11: remaining lifetime"
    assert "  Reason   : 2085 [MQRC_UNKNOWN_OBJECT_NAME]" in lines
    assert "  DestQName      : '" + "NO.SUCH.Q".ljust(48) + "'" in lines
    assert " length - 4 of 4 bytes" in lines


# ---------------------------------------------------------------------------------------------
# rows
def rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.match(r"[0-9A-F]{8}: ", line)]


def test_empty_message_prints_one_blank_row() -> None:
    text = format_amqsbcg(mq.MD(), b"")
    assert " length - 0 of 0 bytes" in text.splitlines()
    assert rows(text) == ["00000000: " + " " * 40 + " " * 10 + " '" + " " * 16 + "'"]


def test_unprintable_bytes_show_as_dots() -> None:
    [row] = rows(format_amqsbcg(mq.MD(), b"\x00\x01A\x7f\xff"))
    assert row.endswith("'..A..           '")


def test_utf8_characters_show_whole_and_may_run_past_the_row() -> None:
    """As amqsbcg under a UTF-8 locale: a character split by the row end stays on its row,
    whose gap before the text column shrinks; the next row starts with a blank in its place."""
    first, second = rows(format_amqsbcg(mq.MD(), b"a" * 15 + "é!".encode()))
    assert first == "00000000: " + " 6161" * 7 + " 61C3A9" + " " * 8 + " '" + "a" * 15 + "é'"
    assert second == "00000011: " + "   21" + " " * 35 + " " * 10 + " ' !" + " " * 14 + "'"


def test_a_spacer_line_follows_every_sixtieth_line_of_the_page() -> None:
    """amqsbcg counts 29 lines before the first message's rows, 22 before later ones."""
    lines = format_amqsbcg(mq.MD(), bytes(16 * 40)).splitlines()
    first = lines.index(rows("\n".join(lines))[0])
    assert lines[first + 31] == " " and lines[first + 30].startswith("000001E0")
    later = format_amqsbcg(mq.MD(), bytes(16 * 40), index=2).splitlines()
    assert later[first + 38] == " " and later[first + 37].startswith("00000250")


def test_data_beyond_the_64k_buffer_is_not_shown() -> None:
    """amqsbcg's buffer holds 65536 bytes: MQGET completes with 2079, the rest is cut."""
    text = format_amqsbcg(mq.MD(), bytes(70_000))
    lines = text.splitlines()
    assert lines[0] == " MQGET of message number 1, CompCode:1 Reason:2079"
    assert " length - 65536 of 70000 bytes" in lines
    assert len(rows(text)) == 4096


# ---------------------------------------------------------------------------------------------
# whole runs
def test_browse_of_an_empty_queue() -> None:
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("EMPTY")
    assert browse_amqsbcg(qm, "EMPTY") == (
        "\nAMQSBCG0 - starts here\n**********************\n \n MQOPEN - 'EMPTY'\n \n"
        " \n \n No more messages \n MQCLOSE\n MQDISC\n"
    )


def test_exp24_browse_skips_expired_messages_and_numbers_the_rest() -> None:
    """Rules EXP-21/EXP-24: the browse discards the expired message and never prints it."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("Q")
    qm.put1("Q", b"short", mq.MD(Expiry=10))
    qm.put1("Q", b"one")
    qm.put1("Q", b"two")
    qm.sim.advance(seconds=2)
    text = browse_amqsbcg(qm, "Q")
    lines = text.splitlines()
    second = lines.index(" MQGET of message number 2, CompCode:0 Reason:0")
    assert lines[second - 2 : second] == [" ", " "]
    assert "short" not in text and qm.curdepth("Q") == 2
    assert lines[-10:] == [
        " No more messages ",
        "",
        "****   Summary      ****",
        " 2 messages browsed.",
        " Smallest message 3 bytes.",
        " Largest message 3 bytes.",
        " Average message 3 bytes.",
        "",
        " MQCLOSE",
        " MQDISC",
    ]


def test_browse_of_an_unknown_queue_fails_with_2085() -> None:
    qm = mq.QueueManager("QM1")
    with pytest.raises(mq.MQMIError) as caught:
        browse_amqsbcg(qm, "NO.SUCH.Q")
    assert caught.value.reason == C.MQRC_UNKNOWN_OBJECT_NAME
