"""A putter's MQMDE (rule MD-09; IBM, "MQMDE - Message descriptor extension", the table of what the
queue manager does when an MQMDE is given on MQPUT or MQPUT1): with a version-1 MD, data that
starts with a valid MQMDE (Format MQFMT_MD_EXTENSION) gives the message its version-2 fields and
loses the MQMDE; a version-2 MD that sets a version-2 field keeps it as data; an invalid MQMDE
fails the put with MQRC_MDE_ERROR (2248)."""

from __future__ import annotations

import pytest

import mqlearn as mq
from mqlearn import CMQC as C
from tests.engine.helpers import APP_Q, REPLY_Q, raises_reason

PROFILES = ["distributed", "zos", "ibmi"]
GROUP = b"ORDER-42".ljust(24, b"\0")
NO_SYNC = mq.PMO(Options=C.MQPMO_NO_SYNCPOINT)


def mqmde(flags: int = C.MQMF_MSG_IN_GROUP, **fields: object) -> bytes:
    """An MQMDE in the queue manager's encoding describing MQSTR data in CCSID 1208."""
    values: dict[str, object] = {
        "Encoding": C.MQENC_NATIVE,
        "CodedCharSetId": 1208,
        "Format": C.MQFMT_STRING,
        "GroupId": GROUP,
        "MsgSeqNumber": 3,
        "MsgFlags": flags,
        **fields,
    }
    return mq.MQMDE(**values).pack()


def put_and_get(
    profile: str, data: bytes, put_md: mq.MD, get_version: int = 2
) -> tuple[bytes, mq.MD]:
    qm = mq.QueueManager("QM1", profile=profile)
    qm.define_qlocal(APP_Q)
    qm.put1(APP_Q, data, put_md, NO_SYNC)
    md = mq.MD(Version=get_version)
    got = mq.Queue(qm, APP_Q).get(None, md, mq.GMO(Options=C.MQGMO_NO_SYNCPOINT))
    return got, md


@pytest.mark.parametrize("profile", PROFILES)
def test_md09_a_version_1_md_with_an_mqmde_gives_the_message_its_version_2_fields(
    profile: str,
) -> None:
    put_md = mq.MD(Format=C.MQFMT_MD_EXTENSION)
    data, md = put_and_get(profile, mqmde(C.MQMF_LAST_MSG_IN_GROUP) + b"body", put_md)
    assert data == b"body"
    assert (md.Format, md.CodedCharSetId, md.Encoding) == (C.MQFMT_STRING, 1208, C.MQENC_NATIVE)
    assert (md.GroupId, md.MsgSeqNumber, md.MsgFlags) == (GROUP, 3, 24)  # MD-08: 16 -> 24
    assert (put_md.Version, put_md.Format) == (1, C.MQFMT_MD_EXTENSION), "the putter's MD stays"


@pytest.mark.parametrize("profile", PROFILES)
def test_md09_md07_a_version_1_getter_gets_the_same_mqmde_back(profile: str) -> None:
    """Round trip: the stored fields come back in front of the data as the MQMDE that went in."""
    sent = mqmde() + b"body"
    data, md = put_and_get(profile, sent, mq.MD(Format=C.MQFMT_MD_EXTENSION), get_version=1)
    assert md.Format == C.MQFMT_MD_EXTENSION
    assert data == sent


@pytest.mark.parametrize("profile", PROFILES)
def test_md09_rpt03_the_expiration_report_carries_the_mqmdes_group_and_format(
    profile: str,
) -> None:
    """The defect issue 24 found: the report had a null GroupId and Format MQHMDE."""
    qm = mq.QueueManager("QM1", profile=profile)
    qm.alter_qmgr(expryint=0)
    qm.define_qlocal(APP_Q)
    qm.define_qlocal(REPLY_Q)
    md = mq.MD(Format=C.MQFMT_MD_EXTENSION, Expiry=10, Report=C.MQRO_EXPIRATION, ReplyToQ=REPLY_Q)
    qm.put1(APP_Q, mqmde() + b"body", md, NO_SYNC)
    qm.sim.advance(seconds=2)
    with raises_reason(C.MQRC_NO_MSG_AVAILABLE):
        mq.Queue(qm, APP_Q).get(None, mq.MD(), mq.GMO(Options=C.MQGMO_NO_SYNCPOINT))
    report = mq.MD(Version=2)
    mq.Queue(qm, REPLY_Q).get(None, report, mq.GMO(Options=C.MQGMO_NO_SYNCPOINT))
    assert (report.GroupId, report.MsgSeqNumber, report.Format) == (GROUP, 3, C.MQFMT_STRING)
    assert report.OriginalLength == 4, "the original's data is the 4 bytes after the MQMDE"


def test_md09_a_version_2_md_with_default_version_2_fields_takes_the_mqmde() -> None:
    data, md = put_and_get("distributed", mqmde() + b"body", mq.MD(Version=2, Format="MQHMDE  "))
    assert (data, md.GroupId, md.Format) == (b"body", GROUP, C.MQFMT_STRING)


def test_md09_a_version_2_md_that_sets_a_version_2_field_keeps_the_mqmde_as_data() -> None:
    sent = mqmde() + b"body"
    put_md = mq.MD(Version=2, Format=C.MQFMT_MD_EXTENSION, MsgSeqNumber=7)
    data, md = put_and_get("distributed", sent, put_md)
    assert (data, md.Format, md.MsgSeqNumber, md.GroupId) == (sent, "MQHMDE  ", 7, C.MQGI_NONE)


def test_md09_an_mqmde_not_in_the_queue_managers_character_set_is_data() -> None:
    """The MD's Encoding and CodedCharSetId describe the MQMDE: 37 is not this queue manager's
    CCSID (1208), so the MQMDE is accepted but not honoured."""
    sent = mqmde() + b"body"
    put_md = mq.MD(Format=C.MQFMT_MD_EXTENSION, CodedCharSetId=37)
    data, md = put_and_get("distributed", sent, put_md)
    assert (data, md.GroupId) == (sent, C.MQGI_NONE)


@pytest.mark.parametrize(
    "data",
    [b"MDE short", mqmde(StrucLength=99) + b"body", mqmde(Flags=1) + b"body", b"x" * 80],
    ids=["too-short", "struc-length", "flags", "no-struc-id"],
)
def test_md09_an_invalid_mqmde_fails_the_put_with_2248_and_puts_nothing(data: bytes) -> None:
    qm = mq.QueueManager("QM1")
    qm.define_qlocal(APP_Q)
    with raises_reason(C.MQRC_MDE_ERROR):
        qm.put1(APP_Q, data, mq.MD(Format=C.MQFMT_MD_EXTENSION), NO_SYNC)
    assert qm.curdepth(APP_Q) == 0
