"""Message properties: put and get with message handles, PROPCTL, and where they are carried.

IBM's pages read: "Property names", "Property name restrictions", "CopyOptions (MQLONG)" (MQPD),
"PropertyControl (MQLONG)" and "PROPCTL queue options", "MQ Get Message Options", "Mapping from
property names to MQRFH2 folder and element names". The MQRFH2 a get returns is read back here
with ``struct`` and ``xml.etree`` (not with mqlearn's builder). Carried: over a channel (rule
XQH-01), onto the dead-letter queue (DLQ-01), into an expiration report (RPT-03), onto each
subscriber's copy (EIP-05).
"""

from __future__ import annotations

import gc
import re
import struct
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import mqlearn as mq
from mqlearn import CMQC as C
from tests.engine.helpers import (
    APP_Q,
    DEAD_Q,
    DLH_LEN,
    REPLY_Q,
    linked_qmgrs,
    qm_with_queues,
    raises_reason,
)


def handle_with(qm: mq.QueueManager, *props: tuple[Any, ...]) -> mq.MessageHandle:
    handle = mq.MessageHandle(qm)
    for prop in props:
        handle.set(*prop)
    return handle


def put_with(
    qm: mq.QueueManager, qname: str, handle: mq.MessageHandle, data: bytes = b"body", **md: Any
) -> mq.MD:
    sent = mq.MD(**md)
    pmo = mq.PMO(Version=3, OriginalMsgHandle=handle.msg_handle, Options=C.MQPMO_NO_SYNCPOINT)
    mq.Queue(qm, qname).put(data, sent, pmo)
    return sent


def get_into(
    qm: mq.QueueManager, qname: str, options: int = 0, *, browse: bool = False
) -> tuple[bytes, mq.MD, mq.MessageHandle]:
    handle = mq.MessageHandle(qm)
    md = mq.MD(Version=2)
    gmo = mq.GMO(Version=4, MsgHandle=handle.msg_handle, Options=options)
    if browse:
        gmo.Options |= C.MQGMO_BROWSE_FIRST
    data = mq.Queue(qm, qname).get(None, md, gmo)
    return data, md, handle


def get_plain(qm: mq.QueueManager, qname: str, options: int = 0) -> tuple[bytes, mq.MD]:
    md = mq.MD(Version=2)
    data = mq.Queue(qm, qname).get(None, md, mq.GMO(Options=options))
    return data, md


def read_rfh2(data: bytes) -> tuple[dict[str, Any], dict[str, ET.Element], bytes]:
    """An MQRFH2 (little-endian) read field by field: its fixed part, its folders, what follows."""
    strucid, version, length, encoding, ccsid, fmt, flags, nvccsid = struct.unpack_from(
        "<4siiii8sii", data
    )
    fixed = {
        "StrucId": strucid,
        "Version": version,
        "StrucLength": length,
        "Encoding": encoding,
        "CodedCharSetId": ccsid,
        "Format": fmt.decode("ascii"),
        "Flags": flags,
        "NameValueCCSID": nvccsid,
    }
    folders: dict[str, ET.Element] = {}
    at = 36
    while at < length:
        (size,) = struct.unpack_from("<i", data, at)
        assert size % 4 == 0, "each NameValueData is a multiple of 4 bytes"
        text = data[at + 4 : at + 4 + size].decode("utf-8").rstrip(" ")
        text = text.replace("xsi:nil", "nil")  # no namespace declared in an MQRFH2 folder
        element = ET.fromstring(text)
        folders[element.tag] = element
        at += 4 + size
    assert at == length, "StrucLength covers the folders exactly"
    return fixed, folders, data[length:]


SELECTOR_KEYWORDS = {
    "NULL",
    "TRUE",
    "FALSE",
    "NOT",
    "AND",
    "OR",
    "BETWEEN",
    "LIKE",
    "IN",
    "IS",
    "ESCAPE",
}


def property_name(name: str) -> bool:
    """Whether a generated name is a property name (IBM, "Property name restrictions")."""
    return name.upper() not in SELECTOR_KEYWORDS and not name.startswith(("JMS", "Body", "Root"))


# -- constants and names ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name",
    [
        *("", "JMSFoo", "usr.JMSX", "NULL", "usr.between", "Root.x", "Body", "a..b", "a.", ".a"),
        *("1x", "mqext.a.b", "Root.MQMD.Priority"),  # the last: IBM's, but not modelled
    ],
)
def test_a_bad_property_name_is_2442(name: str) -> None:
    handle = mq.MessageHandle()
    with raises_reason(C.MQRC_PROPERTY_NAME_ERROR):
        handle.set(name, "v")
    assert len(handle) == 0, "nothing was set"


def test_values_must_fit_their_type() -> None:
    handle = mq.MessageHandle()
    with raises_reason(C.MQRC_PROPERTY_VALUE_TOO_BIG):
        handle.set("small", 128, C.MQTYPE_INT8)
    with raises_reason(C.MQRC_PROPERTY_TYPE_ERROR):
        handle.set("text", 5, C.MQTYPE_STRING)
    with raises_reason(C.MQRC_PROPERTY_TYPE_ERROR):
        handle.set("n", None, C.MQTYPE_INT32)
    handle.set("n", -128, C.MQTYPE_INT8)
    assert handle.inq("n") == mq.Property("n", C.MQTYPE_INT8, -128, C.MQCOPY_DEFAULT)


def test_inquire_wildcards_next_conversions_and_delete() -> None:
    handle = handle_with(
        None,  # type: ignore[arg-type]  # an unassociated handle
        ("order.id", 7, C.MQTYPE_INT16),
        ("order.note", "rush"),
        ("count", "12"),
    )
    assert handle.inq("order.%").name == "order.id"
    assert handle.inq("order.%", options=C.MQIMPO_INQ_NEXT).name == "order.note"
    with raises_reason(C.MQRC_PROPERTY_NOT_AVAILABLE):
        handle.inq("order.%", options=C.MQIMPO_INQ_NEXT)
    assert handle.value("order.id", C.MQTYPE_STRING) == "7"
    assert handle.value("order.id", C.MQTYPE_INT64) == 7
    assert handle.value("count", C.MQTYPE_INT32) == 12
    with raises_reason(C.MQRC_PROP_NUMBER_FORMAT_ERROR):
        handle.value("order.note", C.MQTYPE_INT32)
    with raises_reason(C.MQRC_PROP_CONV_NOT_SUPPORTED):
        handle.value("order.note", C.MQTYPE_BYTE_STRING)
    handle.dlt("count")
    with raises_reason(C.MQRC_PROPERTY_NOT_AVAILABLE):
        handle.dlt("count")
    handle.delete()
    with raises_reason(C.MQRC_HMSG_ERROR):
        handle.inq("order.id")


# -- put and get with handles ----------------------------------------------------------------------
def test_put_with_a_handle_and_get_into_one() -> None:
    qm = qm_with_queues()
    sent = handle_with(qm, ("customer", "ACME"), ("amount", 250, C.MQTYPE_INT32))
    put_with(qm, APP_Q, sent)
    data, md, got = get_into(qm, APP_Q, C.MQGMO_PROPERTIES_IN_HANDLE)
    assert data == b"body" and md.Format == C.MQFMT_NONE, "no MQRFH2 when a handle takes them"
    assert [(p.name, p.type, p.value) for p in got] == [
        ("customer", C.MQTYPE_STRING, "ACME"),
        ("amount", C.MQTYPE_INT32, 250),
    ]


def test_a_get_replaces_what_the_handle_held() -> None:
    qm = qm_with_queues()
    mq.Queue(qm, APP_Q).put(b"none")
    handle = handle_with(qm, ("stale", 1))
    md = mq.MD()
    mq.Queue(qm, APP_Q).get(None, md, mq.GMO(Version=4, MsgHandle=handle.msg_handle))
    assert len(handle) == 0, "the message had no properties: the handle is emptied"


def test_new_msg_handle_wins_and_forward_copies_only_what_asks_for_it() -> None:
    qm = qm_with_queues()
    original = handle_with(
        qm, ("a", "orig"), ("private", "x", C.MQTYPE_STRING, C.MQCOPY_NONE), ("b", "orig")
    )
    new = handle_with(qm, ("b", "new"))
    pmo = mq.PMO(
        Version=3,
        OriginalMsgHandle=original.msg_handle,
        NewMsgHandle=new.msg_handle,
        Action=C.MQACTP_FORWARD,
    )
    mq.Queue(qm, APP_Q).put(b"fwd", mq.MD(), pmo)
    _, _, got = get_into(qm, APP_Q)
    assert {p.name: p.value for p in got} == {"a": "orig", "b": "new"}


def test_handle_fields_beyond_the_pmo_version_are_ignored_and_bad_handles_are_2460() -> None:
    qm = qm_with_queues()
    handle = handle_with(qm, ("a", 1))
    mq.Queue(qm, APP_Q).put(b"v1", mq.MD(), mq.PMO(Version=2, OriginalMsgHandle=handle.msg_handle))
    _, _, got = get_into(qm, APP_Q)
    assert len(got) == 0
    with raises_reason(C.MQRC_HMSG_ERROR):
        mq.Queue(qm, APP_Q).put(b"x", mq.MD(), mq.PMO(Version=3, OriginalMsgHandle=987654321))
    assert qm.curdepth(APP_Q) == 0, "nothing was put"
    with raises_reason(C.MQRC_HMSG_ERROR):
        mq.Queue(qm, APP_Q).get(None, mq.MD(), mq.GMO(Options=C.MQGMO_PROPERTIES_IN_HANDLE))


def test_queued_messages_with_properties_stay_untracked() -> None:
    """docs/engine.md "Storage": the properties are one bytes value in the record's extra, so
    the collector stops tracking the record as it does a record without them (an object kept
    in a record would stay tracked for ever)."""
    qm = qm_with_queues()
    put_with(qm, APP_Q, handle_with(qm, ("s", "x"), ("b", b"\0"), ("f", 1.5), ("n", None)))
    mq.Queue(qm, APP_Q).put(b"no properties", mq.MD(Format=C.MQFMT_STRING))
    gc.collect()
    gc.collect()  # a collection may look at a record before the tuples inside it
    entries = [entry for lane in qm.local(APP_Q).store.lanes for entry in lane]
    assert len(entries) == 2 and [gc.is_tracked(entry) for entry in entries] == [False, False]


# -- PROPCTL and the get's property options -----------------------------------------------------------
USR = ("colour", "blue")
OTHER_FOLDER = ("shop.region", "EU")


@pytest.mark.parametrize(
    ("propctl", "props", "in_rfh2"),
    [
        ("COMPAT", [USR], True),  # a usr property: every property in an MQRFH2
        ("COMPAT", [OTHER_FOLDER], False),  # no mcd/jms/usr/mqext property: all discarded
        ("COMPAT", [USR, OTHER_FOLDER], True),
        ("V6COMPAT", [OTHER_FOLDER], False),
        ("ALL", [OTHER_FOLDER], True),
        ("FORCE", [OTHER_FOLDER], True),
        ("NONE", [USR], False),
    ],
)
def test_propctl_decides_what_a_get_without_a_handle_receives(
    propctl: str, props: list[tuple[str, str]], in_rfh2: bool
) -> None:
    qm = qm_with_queues(queues=())
    qm.define_qlocal(APP_Q, propctl=propctl)
    put_with(qm, APP_Q, handle_with(qm, *props), b"body", Format=C.MQFMT_STRING)
    data, md = get_plain(qm, APP_Q)
    if not in_rfh2:
        assert (data, md.Format) == (b"body", C.MQFMT_STRING)
        return
    assert (md.Format, md.Encoding, md.CodedCharSetId) == (C.MQFMT_RF_HEADER_2, 546, 1208)
    fixed, folders, rest = read_rfh2(data)
    assert rest == b"body"
    assert (fixed["StrucId"], fixed["Version"], fixed["NameValueCCSID"]) == (b"RFH ", 2, 1208)
    assert fixed["Format"] == C.MQFMT_STRING, "the MQRFH2 describes the data after it"
    shown = {
        f"{folder}.{child.tag}" if folder != "usr" else child.tag: child.text
        for folder, element in folders.items()
        for child in element
    }
    assert shown == dict(props)


def test_force_ignores_the_handle_and_the_other_options_override_propctl() -> None:
    qm = qm_with_queues(queues=())
    qm.define_qlocal("FORCED", propctl="FORCE")
    qm.define_qlocal("PLAIN", propctl="NONE")
    for queue in ("FORCED", "PLAIN", "PLAIN", "PLAIN"):
        put_with(qm, queue, handle_with(qm, USR))
    data, md, got = get_into(qm, "FORCED")
    assert md.Format == C.MQFMT_RF_HEADER_2 and len(got) == 0
    data, md = get_plain(qm, "PLAIN", C.MQGMO_PROPERTIES_FORCE_MQRFH2)
    assert read_rfh2(data)[1]["usr"][0].text == "blue"
    data, md = get_plain(qm, "PLAIN", C.MQGMO_PROPERTIES_COMPATIBILITY)
    assert md.Format == C.MQFMT_RF_HEADER_2
    data, md, got = get_into(qm, "PLAIN", C.MQGMO_NO_PROPERTIES)
    assert (data, len(got)) == (b"body", 0)


def test_the_mqrfh2_writes_each_type_as_ibm_names_it() -> None:
    qm = qm_with_queues(queues=())
    qm.define_qlocal(APP_Q, propctl="ALL")
    put_with(
        qm,
        APP_Q,
        handle_with(
            qm,
            ("t", True),
            ("i1", -5, C.MQTYPE_INT8),
            ("i8", 2**40),
            ("r8", 0.25),
            ("bin", b"\x0a\xff"),
            ("note", "a<b&c"),
            ("nothing", None),
            ("mq_usr.grp.leaf", 1, C.MQTYPE_INT16),
        ),
    )
    _, folders, _ = read_rfh2(get_plain(qm, APP_Q)[0])
    usr = {child.tag: (child.get("dt"), child.text) for child in folders["usr"]}
    assert usr == {
        "t": ("boolean", "1"),
        "i1": ("i1", "-5"),
        "i8": ("i8", str(2**40)),
        "r8": ("r8", "0.25"),
        "bin": ("bin.hex", "0AFF"),
        "note": (None, "a<b&c"),
        "nothing": (None, None),
    }
    assert folders["usr"].find("nothing").get("nil") == "true"  # type: ignore[union-attr]
    leaf = folders["mq_usr"].find("grp/leaf")
    assert leaf is not None and (leaf.get("dt"), leaf.text) == ("i2", "1")


def test_the_mqrfh2_matches_a_real_capture_folder_for_folder() -> None:
    """The MQRFH2 of a real amqsbcg capture (a JMS text message, big-endian, tests/interop/
    samples/rfh2-browse.txt): the same properties, set as strings, give the same folders byte for
    byte and the same fixed fields (ours in the native encoding, so compared as values)."""
    real = real_capture()
    length = struct.unpack_from(">i", real, 8)[0]
    qm = qm_with_queues(queues=())
    qm.define_qlocal(APP_Q, propctl="ALL")
    props = (
        ("mcd.Msd", "jms_text"),
        ("jms.Dst", "queue:///DEV.QUEUE.1"),
        ("jms.Tms", "1571328167362"),
        ("jms.Dlv", "2"),
    )
    put_with(qm, APP_Q, handle_with(qm, *props), real[length:], Format=C.MQFMT_STRING)
    ours, md = get_plain(qm, APP_Q)
    assert (
        md.Format == C.MQFMT_RF_HEADER_2 and ours[length:] == real[length:] == b"This is my message"
    )
    assert ours[36:length] != real[36:length], "the lengths are in each one's own byte order"
    ours_folders = [ours[at + 4 : at + 4 + n] for at, n in _lengths(ours, "<")]
    real_folders = [real[at + 4 : at + 4 + n] for at, n in _lengths(real, ">")]
    assert ours_folders == real_folders
    fields = ("StrucId", "Version", "StrucLength", "CodedCharSetId", "Format", "Flags")
    ours_fixed = read_rfh2(ours)[0]
    real_fixed = dict(zip(fields, struct.unpack_from(">4sii4x i8si", real), strict=True))
    assert {f: ours_fixed[f] for f in fields} == {
        **real_fixed,
        "Format": real_fixed["Format"].decode(),
    }


def real_capture() -> bytes:
    capture = Path(__file__).parent.parent / "interop" / "samples" / "rfh2-browse.txt"
    rows = re.findall(r"^[0-9A-F]{8}: (.{40})", capture.read_text("latin-1"), flags=re.MULTILINE)
    return bytes.fromhex("".join(rows).replace(" ", ""))


def test_a_putters_own_mqrfh2_gives_its_properties_to_a_getters_handle() -> None:
    """The real capture's message (a JMS text message: MQRFH2 with mcd and jms folders, then
    "This is my message"), put as data: a get with a handle takes the folders' properties and
    returns the data after the MQRFH2, described as the MQRFH2 described it (MQSTR, 273, 1208);
    a get without one receives it as it was put (PROPCTL COMPAT)."""
    real = real_capture()
    qm = qm_with_queues()
    for _ in range(2):
        md = mq.MD(Format=C.MQFMT_RF_HEADER_2, Encoding=273, CodedCharSetId=1208)
        mq.Queue(qm, APP_Q).put(real, md)
    data, md, got = get_into(qm, APP_Q)
    assert data == b"This is my message"
    assert (md.Format, md.Encoding, md.CodedCharSetId) == (C.MQFMT_STRING, 273, 1208)
    assert [(p.name, p.type, p.value) for p in got] == [
        ("mcd.Msd", C.MQTYPE_STRING, "jms_text"),
        ("jms.Dst", C.MQTYPE_STRING, "queue:///DEV.QUEUE.1"),
        ("jms.Tms", C.MQTYPE_STRING, "1571328167362"),
        ("jms.Dlv", C.MQTYPE_STRING, "2"),
    ]
    assert get_plain(qm, APP_Q)[0] == real


def test_folders_that_are_not_properties_stay_in_the_putters_mqrfh2() -> None:
    """IBM, "PROPCTL queue options": name/value pairs that are not properties remain in the
    MQRFH2, which is stripped of the properties. Built here by hand, big-endian."""

    def folder(text: str) -> bytes:
        raw = text.encode() + b" " * (-len(text) % 4)
        return struct.pack(">i", len(raw)) + raw

    folders = folder("<usr><n dt='i4'>5</n><ok dt='boolean'>1</ok></usr>") + folder(
        "<app><note>keep me</note></app>"
    )
    fixed = struct.pack(">4s4i8s2i", b"RFH ", 2, 36 + len(folders), 273, 1208, b"MQSTR   ", 0, 1208)
    qm = qm_with_queues()
    md = mq.MD(Format=C.MQFMT_RF_HEADER_2, Encoding=273)
    mq.Queue(qm, APP_Q).put(fixed + folders + b"body", md)
    data, md, got = get_into(qm, APP_Q)
    assert [(p.name, p.value) for p in got] == [("n", 5), ("ok", True)]
    assert md.Format == C.MQFMT_RF_HEADER_2
    kept = folder("<app><note>keep me</note></app>")
    assert data == fixed[:8] + struct.pack(">i", 36 + len(kept)) + fixed[12:] + kept + b"body"


@given(
    props=st.dictionaries(
        st.from_regex(r"[a-z]{1,8}", fullmatch=True).filter(property_name),
        st.tuples(
            st.sampled_from([C.MQTYPE_STRING, C.MQTYPE_INT8, C.MQTYPE_INT64, C.MQTYPE_BOOLEAN]),
            st.integers(-100, 100),
        ),
        max_size=5,
    )
)
def test_an_mqrfh2_a_get_wrote_reads_back_into_a_handle(props: dict[str, tuple[int, int]]) -> None:
    """What one get gave as an MQRFH2 (PROPCTL ALL, no handle), put again as it came, gives
    a getter with a handle the same properties."""
    qm = qm_with_queues(queues=())
    qm.define_qlocal(APP_Q, propctl="ALL")
    handle = mq.MessageHandle(qm)
    for name, (type_, number) in props.items():
        value = {C.MQTYPE_STRING: str(number), C.MQTYPE_BOOLEAN: number > 0}.get(type_, number)
        handle.set(name, value, type_)
    put_with(qm, APP_Q, handle, b"body")
    data, md = get_plain(qm, APP_Q)
    mq.Queue(qm, APP_Q).put(data, md)
    data, _, got = get_into(qm, APP_Q)
    assert data == b"body"
    assert [(p.name, p.type, p.value) for p in got] == [(p.name, p.type, p.value) for p in handle]


def _lengths(data: bytes, order: str) -> list[tuple[int, int]]:
    """(offset, NameValueLength) of each folder of the MQRFH2 at the start of ``data``."""
    end = struct.unpack_from(order + "i", data, 8)[0]
    found, at = [], 36
    while at < end:
        size = struct.unpack_from(order + "i", data, at)[0]
        found.append((at, size))
        at += 4 + size
    return found


def test_mqsc_sets_and_shows_propctl() -> None:
    qm = qm_with_queues(queues=())
    qm.mqsc("DEFINE QLOCAL(P.Q) PROPCTL(NONE)")
    assert qm.local("P.Q").propctl == "NONE"
    assert "PROPCTL(NONE)" in qm.mqsc("DISPLAY QLOCAL(P.Q) PROPCTL")
    with pytest.raises(ValueError, match="PROPCTL"):
        qm.define_qlocal("BAD.Q", propctl="SOME")


# -- carried where IBM says --------------------------------------------------------------------------
def test_xqh01_properties_cross_a_channel_with_the_message() -> None:
    link = linked_qmgrs()
    put_with(link.qm1, "TO.QM2", handle_with(link.qm1, ("trace", "abc"), ("hop", 1)))
    assert link.qm1.curdepth("QM2") == 1
    _, _, on_xmitq = get_into(link.qm1, "QM2", browse=True)
    assert {p.name for p in on_xmitq} == {"trace", "hop"}, "kept on the transmission queue"
    link.sim.advance(seconds=1)
    data, _, got = get_into(link.qm2, APP_Q)
    assert data == b"body"
    assert {p.name: p.value for p in got} == {"trace": "abc", "hop": 1}


def test_dlq01_a_dead_letter_keeps_its_properties() -> None:
    link = linked_qmgrs()
    link.qm1.define_qremote("TO.NOWHERE", rname="NO.SUCH.Q", rqmname="QM2")
    put_with(link.qm1, "TO.NOWHERE", handle_with(link.qm1, ("order", 42)))
    link.sim.advance(seconds=1)
    data, md, got = get_into(link.qm2, DEAD_Q)
    assert md.Format == C.MQFMT_DEAD_LETTER_HEADER and data[DLH_LEN:] == b"body"
    assert [(p.name, p.value) for p in got] == [("order", 42)]


def test_eip04_an_expired_message_dead_lettered_keeps_its_properties() -> None:
    qm = qm_with_queues()
    qm.expired_action = "dead-letter"
    put_with(qm, APP_Q, handle_with(qm, ("order", 7)), Expiry=1)
    qm.sim.advance(seconds=1)
    qm.scan()
    _, _, got = get_into(qm, DEAD_Q)
    assert [(p.name, p.value) for p in got] == [("order", 7)]


@pytest.mark.parametrize(
    "report", [C.MQRO_EXPIRATION, C.MQRO_EXPIRATION_WITH_DATA, C.MQRO_EXPIRATION_WITH_FULL_DATA]
)
def test_rpt03_an_expiration_report_carries_the_properties_meant_for_reports(report: int) -> None:
    """MQPD CopyOptions: MQCOPY_DEFAULT includes MQCOPY_REPORT; MQCOPY_NONE keeps a property
    out of every message made from this one. Whatever data the report carries (RPT-04)."""
    qm = qm_with_queues()
    sent = handle_with(
        qm,
        ("order", 7),
        ("secret", "s", C.MQTYPE_STRING, C.MQCOPY_NONE),
        ("for.replies", 1, C.MQTYPE_INT32, C.MQCOPY_REPLY),
        ("always", 2, C.MQTYPE_INT32, C.MQCOPY_ALL),
    )
    put_with(qm, APP_Q, sent, Expiry=1, Report=report, ReplyToQ=REPLY_Q)
    qm.sim.advance(seconds=1)
    qm.scan()
    _, md, got = get_into(qm, REPLY_Q)
    assert md.Feedback == C.MQFB_EXPIRATION
    assert [(p.name, p.value) for p in got] == [("order", 7), ("always", 2)]


def test_eip05_each_subscribers_copy_carries_the_publishers_properties() -> None:
    qm = qm_with_queues(queues=("SUB.A", "SUB.B"))
    qm.define_sub("A", topicstr="prices/eur", dest="SUB.A")
    qm.define_sub("B", topicstr="prices/eur", dest="SUB.B")
    handle = handle_with(qm, ("region", "EU"), ("internal", 1, C.MQTYPE_INT32, C.MQCOPY_FORWARD))
    pmo = mq.PMO(Version=3, OriginalMsgHandle=handle.msg_handle)
    qm.publish("prices/eur", b"1.08", mq.MD(Expiry=50), pmo)
    for queue in ("SUB.A", "SUB.B"):
        _, _, got = get_into(qm, queue)
        assert [(p.name, p.value) for p in got] == [("region", "EU")], queue


def test_a_publication_naming_a_dead_handle_is_2460_and_reaches_nobody() -> None:
    qm = qm_with_queues(queues=("SUB.A",))
    qm.define_sub("A", topicstr="prices/eur", dest="SUB.A")
    handle = handle_with(qm, ("region", "EU"))
    handle.delete()
    with raises_reason(C.MQRC_HMSG_ERROR):
        qm.publish(
            "prices/eur", b"1.08", mq.MD(), mq.PMO(Version=3, OriginalMsgHandle=handle.msg_handle)
        )
    assert qm.curdepth("SUB.A") == 0
    assert qm.events[-1].kind == "failed"


# -- a round-trip property of every type ---------------------------------------------------------
VALUES = st.one_of(
    st.tuples(st.just(C.MQTYPE_STRING), st.text()),
    st.tuples(st.just(C.MQTYPE_BYTE_STRING), st.binary()),
    st.tuples(st.just(C.MQTYPE_BOOLEAN), st.booleans()),
    st.tuples(st.just(C.MQTYPE_INT8), st.integers(-(2**7), 2**7 - 1)),
    st.tuples(st.just(C.MQTYPE_INT16), st.integers(-(2**15), 2**15 - 1)),
    st.tuples(st.just(C.MQTYPE_INT32), st.integers(-(2**31), 2**31 - 1)),
    st.tuples(st.just(C.MQTYPE_INT64), st.integers(-(2**63), 2**63 - 1)),
    st.tuples(st.just(C.MQTYPE_FLOAT32), st.floats(width=32)),
    st.tuples(st.just(C.MQTYPE_FLOAT64), st.floats()),
    st.tuples(st.just(C.MQTYPE_NULL), st.none()),
)
NAMES = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,11}", fullmatch=True).filter(property_name)


def same(a: Any, b: Any) -> bool:
    return a == b or (isinstance(a, float) and a != a and b != b)  # NaN is itself here


@given(props=st.dictionaries(NAMES, VALUES, max_size=6))
def test_every_type_round_trips_through_a_queue(props: dict[str, tuple[int, Any]]) -> None:
    qm = qm_with_queues()
    handle = mq.MessageHandle(qm)
    for name, (type_, value) in props.items():
        handle.set(name, value, type_)
    put_with(qm, APP_Q, handle)
    _, _, got = get_into(qm, APP_Q)
    back = {p.name: (p.type, p.value) for p in got}
    assert back.keys() == props.keys()
    for name, (type_, value) in props.items():
        assert back[name][0] == type_ and same(back[name][1], value), name
        if type_ in (C.MQTYPE_FLOAT32, C.MQTYPE_FLOAT64, C.MQTYPE_BOOLEAN):
            assert type(back[name][1]) is type(value), "stored as Python float / bool"
