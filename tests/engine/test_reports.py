"""Expiration reports (rules RPT-01 .. RPT-09).

The pattern of most tests: a message with a short Expiry asks for a report at REPLY.Q; time moves
past its deadline; something that would have returned it (a get, a browse, a scan) discards it;
the report appears at that moment, built as seed 003 "Table 1" says.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import mqlearn as mq
from mqlearn import CMQC as C
from tests.engine.helpers import (
    APP_Q,
    DEAD_Q,
    DLH_LEN,
    REPLY_Q,
    discard_causes,
    events,
    get_from,
    get_reason,
    name,
    put_expiring,
    put_to,
    qm_with_queues,
    unpack_dlh,
    unpack_xqh,
)

EXPIRATION_OPTIONS = [
    C.MQRO_EXPIRATION,
    C.MQRO_EXPIRATION_WITH_DATA,
    C.MQRO_EXPIRATION_WITH_FULL_DATA,
]


def expire_and_discard_by_get(qm: mq.QueueManager, qname: str = APP_Q) -> None:
    """Move past every short deadline, then let a get find (and discard) only expired messages."""
    qm.sim.advance(seconds=5)
    assert get_reason(qm, qname) == C.MQRC_NO_MSG_AVAILABLE


def reports_on(qm: mq.QueueManager, qname: str = REPLY_Q) -> list[tuple[bytes, mq.MD]]:
    """Take every message off ``qname`` (version-2 MDs)."""
    found = []
    while qm.curdepth(qname):
        found.append(get_from(qm, qname))
    return found


def only_report(qm: mq.QueueManager, qname: str = REPLY_Q) -> tuple[bytes, mq.MD]:
    found = reports_on(qm, qname)
    assert len(found) == 1, f"expected exactly one message on {qname}, found {len(found)}"
    return found[0]


# --- RPT-01: which options cause a report ---------------------------------------------------


@pytest.mark.parametrize("option", EXPIRATION_OPTIONS)
def test_rpt01_expiration_options_cause_a_report(option: int) -> None:
    qm = qm_with_queues(scans=True)
    put_expiring(qm, report=option)
    expire_and_discard_by_get(qm)
    _, report = only_report(qm)
    assert report.Feedback == C.MQFB_EXPIRATION


@pytest.mark.parametrize(
    "option",
    [
        C.MQRO_NONE,
        C.MQRO_EXCEPTION,
        C.MQRO_EXCEPTION_WITH_FULL_DATA,
        C.MQRO_DISCARD_MSG,
        C.MQRO_PASS_DISCARD_AND_EXPIRY,
    ],
)
def test_rpt01_no_report_without_an_expiration_option(option: int) -> None:
    """Exception-report options (or none at all) never produce an expiration report."""
    qm = qm_with_queues(scans=True)
    put_expiring(qm, report=option)
    expire_and_discard_by_get(qm)
    assert discard_causes(qm, APP_Q) == ["get"], "the message must still be discarded"
    assert qm.curdepth(REPLY_Q) == 0, "no expiration option was set, so no report may be sent"
    assert qm.curdepth(DEAD_Q) == 0
    assert events(qm, "report") == []


# --- RPT-02: generated at discard, not at eligibility ---------------------------------------


def _discard_by(qm: mq.QueueManager, how: str) -> None:
    if how == "scan":  # distributed expiry task: every 300 s from the queue manager's creation
        qm.sim.advance(ms=300_000 - qm.sim.now)
    else:
        assert get_reason(qm, APP_Q, browse=how == "browse") == C.MQRC_NO_MSG_AVAILABLE


@pytest.mark.parametrize("how", ["get", "browse", "scan"])
def test_rpt02_report_at_discard_not_at_eligibility(how: str) -> None:
    qm = qm_with_queues(scans=True)
    put_expiring(qm, expiry=10)
    qm.sim.advance(seconds=120)  # long past the deadline, before the first scan (300 s)
    assert qm.curdepth(APP_Q) == 1, "advancing time alone discards nothing (EXP-20)"
    assert qm.curdepth(REPLY_Q) == 0, "eligibility alone must not produce a report"
    assert events(qm, "report") == [] and events(qm, "discard") == []

    _discard_by(qm, how)
    assert discard_causes(qm, APP_Q) == [how]
    (report_event,) = events(qm, "report", APP_Q)
    (discard_event,) = events(qm, "discard", APP_Q)
    assert report_event.time_ms == discard_event.time_ms
    assert qm.curdepth(REPLY_Q) == 1


# --- RPT-03: the report descriptor, field by field (seed 003 Table 1) -----------------------

LONG_QM = "QM.WITH.A.VERY.LONG.NAME.FOR.REPORTS.01"  # 39 characters: PutApplName keeps 28
GROUP = b"GROUP-OF-THE-ORIGINAL".ljust(24, b"\0")
CORREL = b"CORREL-OF-THE-ORIGINAL".ljust(24, b"\0")
ORIGINAL_FIELDS: dict[str, Any] = {
    "Version": C.MQMD_VERSION_2,
    "Encoding": 273,
    "CodedCharSetId": 1208,
    "Format": C.MQFMT_STRING,
    "Priority": 7,
    "Persistence": C.MQPER_PERSISTENT,
    "CorrelId": CORREL,
    "GroupId": GROUP,
    "MsgSeqNumber": 3,
    "Offset": 4000,
    "MsgFlags": C.MQMF_MSG_IN_GROUP | C.MQMF_SEGMENT,
}
ORIGINAL_DATA = b"x" * 37
DISCARD_MS = 12_340  # sim.start is 2026-01-01 09:00:00 UTC -> PutTime 09:00:12.34


@dataclass(frozen=True)
class ReportCase:
    original: mq.MD  # the MD as the put wrote it back
    report: mq.MD
    report_data: bytes


@pytest.fixture(scope="module")
def report_case() -> ReportCase:
    qm = qm_with_queues(LONG_QM, scans=True)
    original = put_expiring(qm, ORIGINAL_DATA, expiry=20, **ORIGINAL_FIELDS)
    qm.sim.advance(ms=DISCARD_MS)
    assert get_reason(qm, APP_Q) == C.MQRC_NO_MSG_AVAILABLE
    data, report = only_report(qm)
    return ReportCase(original, report, data)


TABLE_1: list[tuple[str, Callable[[mq.MD], Any]]] = [
    ("StrucId", lambda o: C.MQMD_STRUC_ID),
    ("Version", lambda o: C.MQMD_VERSION_2),
    ("Report", lambda o: C.MQRO_NONE),
    ("MsgType", lambda o: C.MQMT_REPORT),
    ("Expiry", lambda o: C.MQEI_UNLIMITED),
    ("Feedback", lambda o: C.MQFB_EXPIRATION),
    ("Encoding", lambda o: 273),
    ("CodedCharSetId", lambda o: 1208),
    ("Format", lambda o: C.MQFMT_STRING),
    ("Priority", lambda o: 7),
    ("Persistence", lambda o: C.MQPER_PERSISTENT),
    ("CorrelId", lambda o: o.MsgId),
    ("BackoutCount", lambda o: 0),
    ("ReplyToQ", lambda o: ""),
    ("ReplyToQMgr", lambda o: LONG_QM),
    ("UserIdentifier", lambda o: o.UserIdentifier),
    ("AccountingToken", lambda o: o.AccountingToken),
    ("ApplIdentityData", lambda o: o.ApplIdentityData),
    ("PutApplType", lambda o: C.MQAT_QMGR),
    ("PutApplName", lambda o: LONG_QM[:28]),
    ("PutDate", lambda o: "20260101"),
    ("PutTime", lambda o: "09001234"),
    ("ApplOriginData", lambda o: ""),
    ("GroupId", lambda o: GROUP),
    ("MsgSeqNumber", lambda o: 3),
    ("Offset", lambda o: 4000),
    ("MsgFlags", lambda o: C.MQMF_MSG_IN_GROUP | C.MQMF_SEGMENT),
    ("OriginalLength", lambda o: len(ORIGINAL_DATA)),  # the put left it MQOL_UNDEFINED
]


def _plain(value: Any) -> Any:
    return name(value) if isinstance(value, str) else value


@pytest.mark.parametrize(("field", "expected"), TABLE_1, ids=[f for f, _ in TABLE_1])
def test_rpt03_report_descriptor_field_by_field(
    report_case: ReportCase, field: str, expected: Callable[[mq.MD], Any]
) -> None:
    """Seed scenario "report descriptor field by field": each field as seed 003 Table 1 says."""
    want = expected(report_case.original)
    got = getattr(report_case.report, field)
    assert _plain(got) == _plain(want), f"report {field}: expected {want!r}, got {got!r}"


def test_rpt03_report_has_a_new_msg_id_and_no_data(report_case: ReportCase) -> None:
    assert report_case.report.MsgId != report_case.original.MsgId
    assert len(report_case.report.MsgId) == 24 and report_case.report.MsgId != C.MQMI_NONE
    assert report_case.report_data == b"", "MQRO_EXPIRATION asks for no data"


def test_rpt03_original_length_copied_when_defined() -> None:
    """MQPUT keeps an application's OriginalLength only for a report that is a segment (seed 003,
    MDOLN); the expiration report then copies it."""
    qm = qm_with_queues(scans=True)
    put_expiring(
        qm,
        b"segment",
        Version=C.MQMD_VERSION_2,
        MsgType=C.MQMT_REPORT,
        Feedback=C.MQFB_COA,
        MsgFlags=C.MQMF_SEGMENT,
        OriginalLength=4096,
    )
    expire_and_discard_by_get(qm)
    _, report = only_report(qm)
    assert report.OriginalLength == 4096


def test_rpt03_original_length_ignored_on_an_ordinary_put() -> None:
    """Elsewhere MQPUT replaces OriginalLength with MQOL_UNDEFINED, so the report carries the
    original data length."""
    qm = qm_with_queues(scans=True)
    put_expiring(qm, b"segment", Version=C.MQMD_VERSION_2, OriginalLength=4096)
    expire_and_discard_by_get(qm)
    _, report = only_report(qm)
    assert report.OriginalLength == len(b"segment")


# --- RPT-04: how much data the report carries -----------------------------------------------


@pytest.mark.parametrize(
    ("option", "length"),
    [
        (C.MQRO_EXPIRATION, 0),
        (C.MQRO_EXPIRATION_WITH_DATA, 100),
        (C.MQRO_EXPIRATION_WITH_FULL_DATA, 250),
    ],
)
def test_rpt04_report_data_levels(option: int, length: int) -> None:
    qm = qm_with_queues(scans=True)
    data = bytes(range(250))
    put_expiring(qm, data, report=option)
    expire_and_discard_by_get(qm)
    report_data, _ = only_report(qm)
    assert report_data == data[:length]


def test_rpt04_with_data_keeps_leading_mq_headers() -> None:
    """_WITH_DATA: leading MQ headers (here an MQDLH) plus 100 bytes of application data."""
    qm = qm_with_queues(scans=True)
    header = mq.MQDLH(Reason=C.MQRC_Q_FULL, DestQName="ELSEWHERE", Format=C.MQFMT_NONE).pack()
    data = header + bytes(range(250))
    put_expiring(qm, data, report=C.MQRO_EXPIRATION_WITH_DATA, Format=C.MQFMT_DEAD_LETTER_HEADER)
    expire_and_discard_by_get(qm)
    report_data, _ = only_report(qm)
    assert report_data == data[: DLH_LEN + 100]


def test_rpt04_report_on_xmitq_message_carries_the_inner_message() -> None:
    """Format MQFMT_XMIT_Q_HEADER: the report is about the message inside the MQXQH."""
    qm = qm_with_queues(scans=True)
    qm.define_qlocal("QM2", usage="XMITQ")
    qm.define_qremote("TO.QM2", rname=APP_Q, rqmname="QM2")
    original = put_expiring(qm, b"inner", qname="TO.QM2", report=C.MQRO_EXPIRATION_WITH_FULL_DATA)
    expire_and_discard_by_get(qm, "QM2")  # an application get on the transmission queue
    report_data, report = only_report(qm)
    assert report_data == b"inner", "report data starts after the MQXQH"
    assert report.CorrelId == original.MsgId


def rfh2(
    fmt: bytes = b"MQSTR   ", name_values: bytes = b"<usr><a>1</a></usr>", *, big: bool = False
) -> bytes:
    """An MQRFH2 written out by hand from IBM's layout: StrucId 'RFH ', Version 2, StrucLength,
    Encoding, CodedCharSetId, Format, Flags, NameValueCCSID (the 36-byte fixed part), then one
    NameValueLength + NameValueData pair, the data padded with blanks to a multiple of 4.
    ``big``: integers big-endian (Encoding 273), as in the real capture; else little (546)."""
    padded = name_values.ljust(-(-len(name_values) // 4) * 4)
    length = 36 + 4 + len(padded)
    order, encoding = (">", 273) if big else ("<", 546)
    fixed = struct.pack(f"{order}4s4i8s2i", b"RFH ", 2, length, encoding, 1208, fmt, 0, 1208)
    return fixed + struct.pack(f"{order}i", len(padded)) + padded


USR_64 = b"<usr><note>" + b"n" * 47 + b"</usr>"  # 64 bytes: a 104-byte MQRFH2
RFH2_104 = rfh2(name_values=USR_64)


def test_rpt04_rfh2_is_carried_whole_before_100_bytes_of_data() -> None:
    """A 104-byte MQRFH2 and 150 bytes of data: the report carries the MQRFH2 (104 bytes) plus
    the first 100 bytes of application data, 204 bytes; not just the first 100 bytes."""
    qm = qm_with_queues(scans=True)
    header = rfh2(name_values=USR_64)
    assert len(header) == 104
    body = bytes(range(150))
    put_expiring(qm, header + body, report=C.MQRO_EXPIRATION_WITH_DATA, Format=C.MQFMT_RF_HEADER_2)
    expire_and_discard_by_get(qm)
    report_data, report = only_report(qm)
    assert len(report_data) == 204
    assert report_data == header + body[:100]
    assert (report.Format, report.OriginalLength) == (C.MQFMT_RF_HEADER_2, 254)


def test_rpt04_big_endian_rfh2_of_the_real_capture() -> None:
    """The MQRFH2 of the real amqsbcg capture (Encoding 273, StrucLength X'9C' = 156) followed by
    150 bytes: 156 + 100 bytes in the report."""
    capture = (Path(__file__).parent.parent / "interop" / "samples" / "rfh2-browse.txt").read_text(
        encoding="latin-1"
    )
    rows = re.findall(r"^[0-9A-F]{8}: (.{40})", capture, flags=re.MULTILINE)
    captured = bytes.fromhex("".join(rows).replace(" ", ""))
    header = captured[:156]
    assert header[:12] == b"RFH \0\0\0\x02\0\0\0\x9c"
    qm = qm_with_queues(scans=True)
    body = bytes(150)
    put_expiring(
        qm,
        header + body,
        report=C.MQRO_EXPIRATION_WITH_DATA,
        Format=C.MQFMT_RF_HEADER_2,
        Encoding=273,
    )
    expire_and_discard_by_get(qm)
    report_data, _ = only_report(qm)
    assert report_data == header + body[:100]


def test_rpt04_the_format_chain_is_followed_through_every_header() -> None:
    """MQDLH (172) → MQRFH2 (104) → MQRFH2 (48) → application data: the Format of each header
    names the next; the report carries all three headers, 324 bytes, plus 100 bytes."""
    qm = qm_with_queues(scans=True)
    inner = rfh2(b"MQSTR   ", b"<a>1</a>")
    assert len(inner) == 48
    outer = rfh2(b"MQHRF2  ", USR_64)
    dlh = mq.MQDLH(Reason=C.MQRC_Q_FULL, DestQName="X", Format=C.MQFMT_RF_HEADER_2).pack()
    data = dlh + outer + inner + bytes(range(200))
    put_expiring(qm, data, report=C.MQRO_EXPIRATION_WITH_DATA, Format=C.MQFMT_DEAD_LETTER_HEADER)
    expire_and_discard_by_get(qm)
    report_data, _ = only_report(qm)
    assert len(report_data) == 172 + 104 + 48 + 100
    assert report_data == data[: 172 + 104 + 48 + 100]


@pytest.mark.parametrize(
    ("header", "why"),
    [
        (b"RFX " + RFH2_104[4:], "wrong StrucId"),
        (RFH2_104[:8] + struct.pack("<i", 4000) + RFH2_104[12:], "StrucLength beyond the data"),
        (RFH2_104[:8] + struct.pack("<i", 20) + RFH2_104[12:], "shorter than the fixed part"),
    ],
    ids=["strucid", "too-long", "too-short"],
)
def test_rpt04_data_that_is_not_the_announced_header_counts_as_application_data(
    header: bytes, why: str
) -> None:
    """Format says MQHRF2, but the bytes are not an MQRFH2: nothing is taken as a header, and the
    report carries the first 100 bytes only."""
    qm = qm_with_queues(scans=True)
    data = header + bytes(range(150))
    put_expiring(qm, data, report=C.MQRO_EXPIRATION_WITH_DATA, Format=C.MQFMT_RF_HEADER_2)
    expire_and_discard_by_get(qm)
    report_data, _ = only_report(qm)
    assert report_data == data[:100], why


def test_rpt04_remote_message_with_an_rfh2_reports_header_and_data_after_the_mqxqh() -> None:
    """Expired on the transmission queue: the report describes the message inside the MQXQH, so
    its data is the MQRFH2 and 100 bytes, without the MQXQH."""
    qm = qm_with_queues(scans=True)
    qm.define_qlocal("QM2", usage="XMITQ")
    qm.define_qremote("TO.QM2", rname=APP_Q, rqmname="QM2")
    header = rfh2(name_values=USR_64)
    body = bytes(range(150))
    put_expiring(
        qm,
        header + body,
        qname="TO.QM2",
        report=C.MQRO_EXPIRATION_WITH_DATA,
        Format=C.MQFMT_RF_HEADER_2,
    )
    expire_and_discard_by_get(qm, "QM2")
    report_data, _ = only_report(qm)
    assert report_data == header + body[:100]


def test_rpt04_short_data_after_the_header_is_carried_whole() -> None:
    qm = qm_with_queues(scans=True)
    data = rfh2(name_values=USR_64) + b"x" * 50
    put_expiring(qm, data, report=C.MQRO_EXPIRATION_WITH_DATA, Format=C.MQFMT_RF_HEADER_2)
    expire_and_discard_by_get(qm)
    assert only_report(qm)[0] == data


# --- RPT-05: MsgId and CorrelId of the report -----------------------------------------------


@pytest.mark.parametrize(
    ("extra", "pass_msg_id", "pass_correl_id"),
    [
        (C.MQRO_NEW_MSG_ID | C.MQRO_COPY_MSG_ID_TO_CORREL_ID, False, False),
        (C.MQRO_PASS_MSG_ID, True, False),
        (C.MQRO_PASS_CORREL_ID, False, True),
        (C.MQRO_PASS_MSG_ID | C.MQRO_PASS_CORREL_ID, True, True),
    ],
)
def test_rpt05_report_msg_id_and_correl_id(
    extra: int, pass_msg_id: bool, pass_correl_id: bool
) -> None:
    qm = qm_with_queues(scans=True)
    original = put_expiring(qm, report=C.MQRO_EXPIRATION | extra, CorrelId=CORREL)
    expire_and_discard_by_get(qm)
    _, report = only_report(qm)
    assert (report.MsgId == original.MsgId) is pass_msg_id
    assert report.CorrelId == (CORREL if pass_correl_id else original.MsgId)


# --- RPT-06: where the report goes ----------------------------------------------------------


def test_rpt06_report_goes_to_reply_to_q() -> None:
    qm = qm_with_queues(scans=True)
    original = put_expiring(qm)
    assert original.ReplyToQMgr == "QM1", "a blank ReplyToQMgr is filled in by the put"
    expire_and_discard_by_get(qm)
    only_report(qm)
    assert qm.curdepth(DEAD_Q) == 0


def _missing(qm: mq.QueueManager) -> str:
    return "NO.SUCH.Q"


def _full(qm: mq.QueueManager) -> str:
    qm.define_qlocal("FULL.Q", maxdepth=1)
    put_to(qm, "FULL.Q", b"filler")
    return "FULL.Q"


def _put_disabled(qm: mq.QueueManager) -> str:
    qm.define_qlocal("CLOSED.Q", put="DISABLED")
    return "CLOSED.Q"


REPLY_PROBLEMS: list[tuple[Callable[[mq.QueueManager], str], int]] = [
    (_missing, C.MQRC_UNKNOWN_OBJECT_NAME),
    (_full, C.MQRC_Q_FULL),
    (_put_disabled, C.MQRC_PUT_INHIBITED),
]


@pytest.mark.parametrize(("make_reply_q", "reason"), REPLY_PROBLEMS, ids=["missing", "full", "put"])
def test_rpt06_undeliverable_report_goes_to_dlq(
    make_reply_q: Callable[[mq.QueueManager], str], reason: int
) -> None:
    qm = qm_with_queues(scans=True)
    reply_q = make_reply_q(qm)
    put_expiring(qm, reply_to=reply_q)
    expire_and_discard_by_get(qm)
    data, dead = only_report(qm, DEAD_Q)
    assert dead.Format == C.MQFMT_DEAD_LETTER_HEADER
    assert (dead.MsgType, dead.Feedback) == (C.MQMT_REPORT, C.MQFB_EXPIRATION)
    dlh = unpack_dlh(data)
    assert dlh.Reason == reason
    assert name(dlh.DestQName) == reply_q
    assert name(dlh.DestQMgrName) == "QM1"


def test_rpt06_no_route_to_reply_qmgr_goes_to_dlq_with_2087() -> None:
    qm = qm_with_queues(scans=True)
    put_expiring(qm, ReplyToQMgr="QM9")  # no transmission queue QM9
    expire_and_discard_by_get(qm)
    data, _ = only_report(qm, DEAD_Q)
    dlh = unpack_dlh(data)
    assert dlh.Reason == C.MQRC_UNKNOWN_REMOTE_Q_MGR
    assert (name(dlh.DestQName), name(dlh.DestQMgrName)) == (REPLY_Q, "QM9")


def test_rpt06_no_dlq_report_thrown_away_and_processing_continues() -> None:
    qm = qm_with_queues(deadq=None, scans=True)
    put_expiring(qm, b"expired", reply_to="NO.SUCH.Q")
    put_to(qm, APP_Q, b"live", Expiry=C.MQEI_UNLIMITED)
    qm.sim.advance(seconds=5)
    data, _ = get_from(qm, APP_Q)
    assert data == b"live", "the get goes on past the discarded message as usual"
    assert discard_causes(qm, APP_Q) == ["get"], "the expired message is still discarded"
    assert len(events(qm, "report", APP_Q)) == 1, "the log says what became of the report"
    assert qm.curdepth(APP_Q) == 0 and qm.curdepth(REPLY_Q) == 0


def test_rpt06_reply_to_other_qmgr_goes_to_its_xmitq() -> None:
    qm = qm_with_queues(scans=True)
    qm.define_qlocal("QM2", usage="XMITQ")
    original = put_expiring(qm, ReplyToQMgr="QM2")
    expire_and_discard_by_get(qm)
    data, outer = only_report(qm, "QM2")
    assert outer.Format == C.MQFMT_XMIT_Q_HEADER
    xqh = unpack_xqh(data)
    assert (name(xqh.RemoteQName), name(xqh.RemoteQMgrName)) == (REPLY_Q, "QM2")
    assert (xqh.MsgDesc.MsgType, xqh.MsgDesc.Feedback) == (C.MQMT_REPORT, C.MQFB_EXPIRATION)
    assert xqh.MsgDesc.CorrelId == original.MsgId


# --- RPT-07: MQRO_PASS_DISCARD_AND_EXPIRY ---------------------------------------------------


@pytest.mark.parametrize(
    ("discard", "expected_report"),
    [(C.MQRO_DISCARD_MSG, C.MQRO_DISCARD_MSG), (C.MQRO_DEAD_LETTER_Q, C.MQRO_NONE)],
    ids=["discard-msg", "dead-letter-q"],
)
def test_rpt07_pass_discard_and_expiry(discard: int, expected_report: int) -> None:
    qm = qm_with_queues(scans=True)
    options = C.MQRO_EXPIRATION | C.MQRO_PASS_DISCARD_AND_EXPIRY | discard
    put_expiring(qm, report=options)
    expire_and_discard_by_get(qm)
    _, report = only_report(qm)
    assert report.Expiry == 600, "an expiration report inherits a fixed 60 seconds"
    assert report.Report == expected_report


def test_rpt07_pass_discard_and_expiry_report_itself_expires() -> None:
    qm = qm_with_queues(scans=True)
    put_expiring(qm, report=C.MQRO_EXPIRATION | C.MQRO_PASS_DISCARD_AND_EXPIRY)
    expire_and_discard_by_get(qm)
    qm.sim.advance(seconds=61)
    assert get_reason(qm, REPLY_Q) == C.MQRC_NO_MSG_AVAILABLE


# --- RPT-09: a missing report proves nothing ------------------------------------------------


def test_rpt09_missing_report_proves_nothing() -> None:
    """Reply queue PUT(DISABLED) and no DLQ: the message expired, yet no report arrives."""
    qm = qm_with_queues(deadq=None, scans=True)
    qm.alter_qlocal(REPLY_Q, put="DISABLED")
    put_expiring(qm)
    expire_and_discard_by_get(qm)
    qm.alter_qlocal(REPLY_Q, put="ENABLED")
    assert qm.curdepth(REPLY_Q) == 0, "no report arrived ..."
    assert discard_causes(qm, APP_Q) == ["get"], "... although the message did expire"


# --- RPT-08: an application that discards on expiry sends the report too -----------------------


def test_rpt08_application_discarding_a_stale_message_sends_the_requested_report() -> None:
    """A consumer got a live message, held it past its expiry and drops it: ``mq.report_expired``
    sends the report the queue manager would have sent, with the application's context."""
    qm = qm_with_queues(scans=True)
    put_expiring(qm, b"quote", expiry=20, report=C.MQRO_EXPIRATION_WITH_FULL_DATA)
    data, md = get_from(qm, APP_Q)
    qm.sim.advance(seconds=5)  # the consumer was slow: by its own clock the quote is stale
    where = mq.report_expired(qm, md, data)
    assert where is not None and REPLY_Q in where
    body, report = only_report(qm)
    assert body == b"quote"
    assert (report.MsgType, report.Feedback) == (C.MQMT_REPORT, C.MQFB_EXPIRATION)
    assert report.CorrelId == md.MsgId, "default MQRO_COPY_MSG_ID_TO_CORREL_ID"
    assert report.PutApplType != C.MQAT_QMGR, "an application, not the queue manager, sent it"


def test_rpt08_no_report_when_none_was_asked_for() -> None:
    qm = qm_with_queues(scans=True)
    put_to(qm, APP_Q, b"quote", Expiry=20)
    data, md = get_from(qm, APP_Q)
    assert mq.report_expired(qm, md, data) is None
    assert reports_on(qm, REPLY_Q) == []
