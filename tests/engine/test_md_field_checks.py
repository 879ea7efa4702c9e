"""MQMD fields as MQPUT checks them and MQGET returns them: MD-05, MD-06 and MD-07.

Every expectation here is worked out by hand from IBM's text, not read from mqlearn's own tables:
the MQMD field descriptions on "MQMD (Message descriptor) on IBM i" (MDFB, MDRQ, MDRM, MDEXP...),
the reason-code page "2209 (08A1) (RC2209): MQRC_NO_MSG_LOCKED", and "MQMDE - Message descriptor
extension". Reason codes are written as numbers, with IBM's name beside them.
"""

from __future__ import annotations

import struct
import warnings
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mqlearn as mq
from mqlearn import CMQC as C
from mqlearn.engine.descriptor import md_extension
from mqlearn.interop import dump_dmpmqmsg
from tests.engine.helpers import (
    APP_Q,
    REPLY_Q,
    events_of,
    get,
    new_qm,
    put,
    qm_with_queue,
    raises_reason,
)

# IBM's reason codes, written out (names from the reason-code pages)
MD_ERROR = 2026  # MQRC_MD_ERROR
EXPIRY_ERROR = 2013  # MQRC_EXPIRY_ERROR
FEEDBACK_ERROR = 2014  # MQRC_FEEDBACK_ERROR
MSG_TYPE_ERROR = 2029  # MQRC_MSG_TYPE_ERROR
PERSISTENCE_ERROR = 2047  # MQRC_PERSISTENCE_ERROR
PRIORITY_ERROR = 2050  # MQRC_PRIORITY_ERROR
REPORT_OPTIONS_ERROR = 2061  # MQRC_REPORT_OPTIONS_ERROR
MSG_FLAGS_ERROR = 2249  # MQRC_MSG_FLAGS_ERROR
MSG_SEQ_NUMBER_ERROR = 2250  # MQRC_MSG_SEQ_NUMBER_ERROR
OFFSET_ERROR = 2251  # MQRC_OFFSET_ERROR
ORIGINAL_LENGTH_ERROR = 2252  # MQRC_ORIGINAL_LENGTH_ERROR
PRIORITY_EXCEEDS_MAXIMUM = 2049  # MQRC_PRIORITY_EXCEEDS_MAXIMUM (warning)
NO_MSG_AVAILABLE = 2033  # MQRC_NO_MSG_AVAILABLE
TRUNCATED_MSG_FAILED = 2080  # MQRC_TRUNCATED_MSG_FAILED (warning)
OK, WARNING, FAILED = 0, 1, 2

LONG_MIN = -2_147_483_648  # an MQLONG: 4-byte signed integer
LONG_MAX = 2_147_483_647


def refused_and_nothing_queued(
    qm: mq.QueueManager, call: Callable[[], object], reason: int
) -> None:
    """The call fails with ``reason``, queues nothing and logs one ``failed`` event."""
    failed_before = len(events_of(qm, "failed"))
    depths = {local.name: qm.curdepth(local.name) for local in qm.local_queues()}
    with raises_reason(reason):
        call()
    assert {name: qm.curdepth(name) for name in depths} == depths
    failed = events_of(qm, "failed")
    assert len(failed) == failed_before + 1 and failed[-1].reason == reason


# -- MD-05: Feedback ranges, whatever MsgType is ---------------------------------------------------
def test_md05_datagram_with_feedback_258_is_accepted() -> None:
    _qm, q = qm_with_queue()
    put(q, Feedback=258)  # MQFB_EXPIRATION on a datagram: in the system range, so accepted
    _, md = get(q)
    assert (md.MsgType, md.Feedback) == (8, 258)


@pytest.mark.parametrize(
    "feedback",
    [0, 1, 65_535, 65_536, 999_999_999],
    ids=["none", "system-first", "system-last", "appl-first", "appl-last"],
)
@pytest.mark.parametrize(
    ("msg_type", "more"),
    [(8, {}), (1, {"ReplyToQ": REPLY_Q}), (2, {}), (4, {}), (65_536, {})],
    ids=["datagram", "request", "reply", "report", "appl-type"],
)
def test_md05_feedback_in_a_range_is_accepted_whatever_the_msgtype(
    feedback: int, msg_type: int, more: dict[str, Any]
) -> None:
    qm, q = qm_with_queue()
    put(q, Feedback=feedback, MsgType=msg_type, **more)
    assert qm.curdepth(APP_Q) == 1


@pytest.mark.parametrize("feedback", [-5, -1, 1_000_000_000, LONG_MAX, LONG_MIN])
@pytest.mark.parametrize("msg_type", [4, 8], ids=["report", "datagram"])
def test_md05_report_with_feedback_out_of_range_is_refused_2014(
    feedback: int, msg_type: int
) -> None:
    qm, q = qm_with_queue()
    refused_and_nothing_queued(
        qm, lambda: put(q, MsgType=msg_type, Feedback=feedback), FEEDBACK_ERROR
    )


def test_md05_put1_and_publish_check_feedback_the_same_way() -> None:
    qm, _ = qm_with_queue()
    qm.define_topic("PRICES", topicstr="prices")
    qm.put1(APP_Q, b"x", mq.MD(Feedback=258))
    assert qm.curdepth(APP_Q) == 1
    refused_and_nothing_queued(
        qm, lambda: qm.put1(APP_Q, b"x", mq.MD(MsgType=4, Feedback=-5)), FEEDBACK_ERROR
    )
    topic = mq.Topic(qm, topic_string="prices")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with raises_reason(FEEDBACK_ERROR):
            topic.pub(b"x", mq.MD(MsgType=4, Feedback=1_000_000_000))


# -- MD-06: every MQLONG field of the MD must fit an MQLONG ----------------------------------------
# (field, reason): the field's own reason code where IBM's description of it names one; MQRC_MD_ERROR
# where it names none (Encoding, CodedCharSetId, BackoutCount, PutApplType: docs/engine.md).
MQLONG_FIELDS = [
    ("Report", REPORT_OPTIONS_ERROR),
    ("MsgType", MSG_TYPE_ERROR),
    ("Expiry", EXPIRY_ERROR),
    ("Feedback", FEEDBACK_ERROR),
    ("Encoding", MD_ERROR),
    ("CodedCharSetId", MD_ERROR),
    ("Priority", PRIORITY_ERROR),
    ("Persistence", PERSISTENCE_ERROR),
    ("BackoutCount", MD_ERROR),
    ("PutApplType", MD_ERROR),
    ("MsgSeqNumber", MSG_SEQ_NUMBER_ERROR),
    ("Offset", OFFSET_ERROR),
    ("MsgFlags", MSG_FLAGS_ERROR),
    ("OriginalLength", ORIGINAL_LENGTH_ERROR),
]
FIELD_IDS = [name for name, _ in MQLONG_FIELDS]
JUST_OUTSIDE = [LONG_MAX + 1, LONG_MIN - 1, 2**32, 2**63, -(2**40)]
outside = st.one_of(
    st.integers(min_value=LONG_MAX + 1, max_value=LONG_MAX + 2**20),
    st.integers(min_value=LONG_MIN - 2**20, max_value=LONG_MIN - 1),
    st.integers(min_value=2**31).map(lambda n: n * 3),
)


def v2_md(**fields: Any) -> mq.MD:
    return mq.MD(Version=2, **fields)


@pytest.mark.parametrize(("field", "reason"), MQLONG_FIELDS, ids=FIELD_IDS)
@pytest.mark.parametrize("value", JUST_OUTSIDE)
def test_md06_mqlong_field_outside_the_range_is_refused_at_put(
    field: str, reason: int, value: int
) -> None:
    qm, q = qm_with_queue()
    refused_and_nothing_queued(qm, lambda: q.put(b"x", v2_md(**{field: value})), reason)
    assert dump_dmpmqmsg(qm, APP_Q).count("A RTM") == 0  # nothing there to dump


@pytest.mark.parametrize(("field", "reason"), MQLONG_FIELDS, ids=FIELD_IDS)
@settings(max_examples=25, deadline=None)
@given(value=outside)
def test_md06_hypothesis_any_value_outside_the_mqlong_range_is_refused(
    field: str, reason: int, value: int
) -> None:
    qm, q = qm_with_queue()
    with raises_reason(reason):
        q.put(b"x", v2_md(**{field: value}))
    assert qm.curdepth(APP_Q) == 0


@pytest.mark.parametrize(
    ("field", "reason"), [("Expiry", EXPIRY_ERROR), ("Priority", PRIORITY_ERROR)]
)
@settings(max_examples=25, deadline=None)
@given(value=outside)
def test_md06_hypothesis_expiry_and_priority_alone_are_refused_too(
    field: str, reason: int, value: int
) -> None:
    """An MD that sets nothing but Expiry or Priority (the engine's short path) is checked alike."""
    qm, q = qm_with_queue()
    with raises_reason(reason):
        q.put(b"x", mq.MD(**{field: value}))
    assert qm.curdepth(APP_Q) == 0


@settings(max_examples=25, deadline=None)
@given(
    field=st.sampled_from(["Encoding", "CodedCharSetId", "BackoutCount", "PutApplType"]),
    value=st.one_of(
        st.integers(min_value=LONG_MAX - 2**20, max_value=LONG_MAX),
        st.integers(min_value=LONG_MIN, max_value=LONG_MIN + 2**20),
    ),
)
def test_md06_hypothesis_values_just_inside_are_accepted_where_ibm_checks_nothing_else(
    field: str, value: int
) -> None:
    """IBM checks nothing about Encoding and CodedCharSetId on MQPUT and ignores BackoutCount and
    (without MQPMO_SET_ALL_CONTEXT) PutApplType: any MQLONG is accepted, and the message can be
    packed and dumped afterwards."""
    qm, q = qm_with_queue()
    q.put(b"x", mq.MD(**{field: value}))
    assert qm.curdepth(APP_Q) == 1
    assert "A RTM" in dump_dmpmqmsg(qm, APP_Q)


def test_md06_expiry_and_priority_at_the_top_of_the_range_are_accepted() -> None:
    """Expiry 2 147 483 647 is an MQLONG and, without AMQ_ENFORCE_MAX_EXPIRY_ERROR, accepted
    (EXP-04); Priority 2 147 483 647 is above MAXPRTY: a 2049 warning (MD-02). Both pack."""
    qm, q = qm_with_queue()
    md = mq.MD(Version=2, Expiry=LONG_MAX)
    q.put(b"a", md)
    with pytest.warns(mq.MQWarning):
        q.put(b"b", mq.MD(Priority=LONG_MAX))
    assert (q.last_comp, q.last_reason) == (WARNING, PRIORITY_EXCEEDS_MAXIMUM)
    got = mq.MD(Version=2)
    q.get(None, got, mq.GMO(Options=C.MQGMO_BROWSE_FIRST))
    assert len(got.pack()) == 364
    assert dump_dmpmqmsg(qm, APP_Q).count("A RTM") == 2


def test_md06_version_1_md_ignores_its_version_2_fields() -> None:
    """IBM: MsgSeqNumber, Offset, MsgFlags and OriginalLength are "ignored if MDVER is less than
    MDVER2", so out-of-range values in a version-1 MD refuse nothing."""
    qm, q = qm_with_queue()
    q.put(b"x", mq.MD(MsgSeqNumber=2**40, Offset=-(2**40), MsgFlags=2**33, OriginalLength=2**35))
    assert qm.curdepth(APP_Q) == 1


@pytest.mark.parametrize("entry", ["put1", "remote", "alias", "topic"])
@pytest.mark.parametrize(
    ("field", "reason"),
    [("Expiry", EXPIRY_ERROR), ("Priority", PRIORITY_ERROR), ("Offset", OFFSET_ERROR)],
)
def test_md06_every_put_entry_point_refuses_out_of_range_values(
    entry: str, field: str, reason: int
) -> None:
    qm = new_qm()
    qm.define_qlocal(APP_Q)
    qm.define_qlocal("QM2", usage="XMITQ")
    qm.define_qremote("TO.QM2", rname="APP.IN", rqmname="QM2")
    qm.define_qalias("APP.ALIAS", target=APP_Q)
    qm.define_topic("PRICES", topicstr="prices")
    qm.define_sub("SUB", topicstr="prices", dest=APP_Q)
    md = v2_md(**{field: LONG_MAX + 1})
    calls: dict[str, Callable[[], object]] = {
        "put1": lambda: qm.put1(APP_Q, b"x", md),
        "remote": lambda: mq.Queue(qm, "TO.QM2").put(b"x", md),
        "alias": lambda: mq.Queue(qm, "APP.ALIAS").put(b"x", md),
        "topic": lambda: mq.Topic(qm, topic_string="prices").pub(b"x", md),
    }
    refused_and_nothing_queued(qm, calls[entry], reason)
    assert (qm.curdepth(APP_Q), qm.curdepth("QM2")) == (0, 0)


# -- MD-07: an MQMDE for a version-1 MD ------------------------------------------------------------
GROUP = b"GROUP-7".ljust(24, b"\0")


def put_in_group(q: mq.Queue, data: bytes = b"payload") -> None:
    q.put(
        data,
        mq.MD(
            Version=2,
            Format=C.MQFMT_STRING,
            Encoding=273,
            CodedCharSetId=1208,
            GroupId=GROUP,
            MsgSeqNumber=3,
            MsgFlags=8,  # MQMF_MSG_IN_GROUP
        ),
    )


def expected_mqmde(
    encoding: int,
    ccsid: int,
    fmt: bytes,
    group: bytes,
    seq: int,
    offset: int,
    flags: int,
    olen: int,
) -> bytes:
    """IBM's MQMDE layout, little-endian (the queue manager's native encoding, 546): StrucId,
    Version 2, StrucLength 72, Encoding, CodedCharSetId, Format, Flags 0, GroupId, MsgSeqNumber,
    Offset, MsgFlags, OriginalLength."""
    return (
        b"MDE "
        + struct.pack("<4i", 2, 72, encoding, ccsid)
        + fmt
        + struct.pack("<i", 0)
        + group
        + struct.pack("<4i", seq, offset, flags, olen)
    )


def test_md07_version_1_md_gets_an_mqmde_in_front_of_the_data() -> None:
    _qm, q = qm_with_queue()
    put_in_group(q)
    md = mq.MD()
    data = q.get(None, md)
    mde = expected_mqmde(273, 1208, b"MQSTR   ", GROUP, 3, 0, 8, -1)
    assert len(mde) == 72
    assert data == mde + b"payload"
    # the MD describes the MQMDE: native encoding, the queue manager's CCSID (1208, rule MD-04)
    assert (md.Version, md.Format, md.Encoding, md.CodedCharSetId) == (1, "MQHMDE  ", 546, 1208)


def test_md07_md_extension_builds_the_mqmde_a_version_1_get_returns() -> None:
    """The MQMDE itself, as MQGET puts it in front of the data."""
    qm, q = qm_with_queue()
    put_in_group(q)
    (message,) = qm.local(APP_Q).store.messages()
    assert md_extension(message) == expected_mqmde(273, 1208, b"MQSTR   ", GROUP, 3, 0, 8, -1)
    put(q, b"plain")
    plain = list(qm.local(APP_Q).store.messages())[-1]
    assert md_extension(plain) is None


def test_md07_browse_and_truncation_count_the_mqmde() -> None:
    _qm, q = qm_with_queue()
    put_in_group(q, b"x" * 10)
    assert len(q.get(None, mq.MD(), mq.GMO(Options=C.MQGMO_BROWSE_FIRST))) == 82
    with raises_reason(TRUNCATED_MSG_FAILED, WARNING):
        q.get(81, mq.MD())


def test_md07_version_2_md_gets_the_fields_and_no_mqmde() -> None:
    _qm, q = qm_with_queue()
    put_in_group(q)
    md = mq.MD(Version=2)
    assert q.get(None, md) == b"payload"
    assert (md.Format, md.Encoding, md.CodedCharSetId) == ("MQSTR   ", 273, 1208)
    assert (md.GroupId, md.MsgSeqNumber, md.MsgFlags) == (GROUP, 3, 8)


def test_md07_default_version_2_fields_give_no_mqmde() -> None:
    _qm, q = qm_with_queue()
    put(q, b"plain", Format=C.MQFMT_STRING)
    md = mq.MD()
    assert q.get(None, md) == b"plain"
    assert md.Format == "MQSTR   "


def test_md07_a_report_read_with_a_version_1_md_starts_with_an_mqmde() -> None:
    """A report's OriginalLength is the original's data length (RPT-03), not MQOL_UNDEFINED.
    The MQMDE describes the report's (empty) data: the original's Encoding 546 and its CCSID,
    which the put made the queue manager's 1208 (MD-04), Format blank; GroupId null, MsgSeqNumber
    1, Offset 0, MsgFlags 0 copied, OriginalLength 5."""
    qm, q = qm_with_queue()
    qm.define_qlocal(REPLY_Q)
    put(q, b"12345", Expiry=10, Report=C.MQRO_EXPIRATION, ReplyToQ=REPLY_Q)
    qm.sim.advance(seconds=2)
    with raises_reason(NO_MSG_AVAILABLE):
        get(q)
    md = mq.MD()
    data = mq.Queue(qm, REPLY_Q).get(None, md)
    assert data == expected_mqmde(546, 1208, b"        ", b"\0" * 24, 1, 0, 0, 5)
    assert (md.Format, md.CodedCharSetId, md.OriginalLength) == ("MQHMDE  ", 1208, -1)


# --- MD-08: the version-2 fields as the queue manager stores them (seed 003: MDMFL, MDOLN) -------


def put_v2_and_get(profile: str, data: bytes, **fields: Any) -> tuple[mq.MD, mq.MD]:
    """Put ``data`` with a version-2 MD of ``fields``; return that MD and a version-2 get's MD."""
    qm = mq.QueueManager("QM1", profile=profile)
    qm.define_qlocal(APP_Q)
    put_md = mq.MD(Version=2, **fields)
    qm.put1(APP_Q, data, put_md, mq.PMO(Options=C.MQPMO_NO_SYNCPOINT))
    got = mq.MD(Version=2)
    mq.Queue(qm, APP_Q).get(None, got, mq.GMO(Options=C.MQGMO_NO_SYNCPOINT))
    return put_md, got


PROFILES = ["distributed", "zos", "ibmi"]


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize(
    ("flags", "stored"),
    [
        (C.MQMF_LAST_MSG_IN_GROUP, C.MQMF_LAST_MSG_IN_GROUP | C.MQMF_MSG_IN_GROUP),  # 16 -> 24
        (C.MQMF_LAST_SEGMENT, C.MQMF_LAST_SEGMENT | C.MQMF_SEGMENT),  # 4 -> 6
        (C.MQMF_LAST_MSG_IN_GROUP | C.MQMF_LAST_SEGMENT, 30),
        (C.MQMF_MSG_IN_GROUP | C.MQMF_SEGMENT, C.MQMF_MSG_IN_GROUP | C.MQMF_SEGMENT),
        (C.MQMF_SEGMENTATION_ALLOWED, C.MQMF_SEGMENTATION_ALLOWED),
    ],
)
def test_md08_a_last_flag_turns_on_its_member_flag_in_the_stored_message(
    profile: str, flags: int, stored: int
) -> None:
    """MDMFL: with MFLMIG the queue manager turns on MFMIG in the copy of the MD sent with the
    message, with MFLSEG it turns on MFSEG; the application's MD keeps what it set."""
    put_md, got = put_v2_and_get(profile, b"data", GroupId=b"G1".ljust(24, b"\0"), MsgFlags=flags)
    assert got.MsgFlags == stored
    assert put_md.MsgFlags == flags


@pytest.mark.parametrize("profile", PROFILES)
def test_md08_a_segment_that_is_not_a_report_gets_its_data_length_as_original_length(
    profile: str,
) -> None:
    """MDOLN: for a segment that is not a report the queue manager ignores the field and uses the
    length of the data; for a message that is not a segment it uses MQOL_UNDEFINED."""
    _, got = put_v2_and_get(profile, b"x" * 37, MsgFlags=C.MQMF_SEGMENT, OriginalLength=999)
    assert got.OriginalLength == 37
    _, got = put_v2_and_get(profile, b"x" * 5, MsgFlags=C.MQMF_LAST_SEGMENT, Offset=37)
    assert (got.OriginalLength, got.Offset, got.MsgFlags) == (5, 37, 6)
    _, got = put_v2_and_get(profile, b"x" * 5, MsgFlags=C.MQMF_MSG_IN_GROUP, OriginalLength=9)
    assert got.OriginalLength == C.MQOL_UNDEFINED


@pytest.mark.parametrize("profile", PROFILES)
def test_md08_a_report_that_is_a_segment_keeps_the_putters_original_length(profile: str) -> None:
    """MDOLN: "If the message being put is a segment and is also a report message, the queue
    manager accepts the value specified"."""
    _, got = put_v2_and_get(
        profile,
        b"",
        MsgType=C.MQMT_REPORT,
        Feedback=C.MQFB_EXPIRATION,
        MsgFlags=C.MQMF_LAST_SEGMENT,
        OriginalLength=4000,
    )
    assert got.OriginalLength == 4000


@pytest.mark.parametrize("profile", PROFILES)
def test_md08_rpt03_an_expired_last_segments_report_copies_the_four_fields(profile: str) -> None:
    """Seed 003: a report for a segment copies GroupId, MsgSeqNumber, Offset and MsgFlags (the
    stored flags: MQMF_LAST_SEGMENT with MQMF_SEGMENT, 6, not the 4 the putter set), so the
    report is a segment too; its OriginalLength is the segment's data length."""
    qm = mq.QueueManager("QM1", profile=profile)
    qm.alter_qmgr(expryint=0)
    qm.define_qlocal(APP_Q)
    qm.define_qlocal(REPLY_Q)
    group = b"G-LAST".ljust(24, b"\0")
    md = mq.MD(
        Version=2,
        Expiry=10,
        Report=C.MQRO_EXPIRATION,
        ReplyToQ=REPLY_Q,
        GroupId=group,
        MsgSeqNumber=2,
        Offset=100,
        MsgFlags=C.MQMF_LAST_SEGMENT | C.MQMF_LAST_MSG_IN_GROUP,
    )
    qm.put1(APP_Q, b"y" * 12, md, mq.PMO(Options=C.MQPMO_NO_SYNCPOINT))
    qm.sim.advance(seconds=2)
    with raises_reason(NO_MSG_AVAILABLE):
        get(mq.Queue(qm, APP_Q))
    report = mq.MD(Version=2)
    mq.Queue(qm, REPLY_Q).get(None, report, mq.GMO(Options=C.MQGMO_NO_SYNCPOINT))
    assert (report.GroupId, report.MsgSeqNumber, report.Offset) == (group, 2, 100)
    assert report.MsgFlags == 30 and report.OriginalLength == 12
