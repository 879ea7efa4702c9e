"""Publish/subscribe (rule EIP-05): one copy per subscriber, each expiring and reporting alone.

Most tests define two subscriptions on the topic string ``prices/eur`` (queues SUB.A and SUB.B),
publish once through ``Topic.pub`` and look at the copies, their expiry and their reports.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import mqlearn as mq
from mqlearn import CMQC as C
from mqlearn.engine import Topic
from mqlearn.engine.pubsub import topic_matches
from tests.engine.helpers import (
    DEAD_Q,
    DLH_LEN,
    REPLY_Q,
    events,
    get_from,
    get_reason,
    qm_with_queues,
    raises_reason,
    unpack_dlh,
)

TOPIC = "prices/eur"
QUEUES = ("SUB.A", "SUB.B")


def pubsub_qm(*, deadq: str | None = DEAD_Q, **topic_attrs: Any) -> mq.QueueManager:
    """QM1 with topic object PRICES (``prices``) and subscriptions A, B on ``prices/eur``."""
    qm = qm_with_queues(queues=(*QUEUES, REPLY_Q), deadq=deadq, scans=True)
    qm.define_topic("PRICES", topicstr="prices", **topic_attrs)
    qm.define_sub("A", topicstr=TOPIC, dest="SUB.A")
    qm.define_sub("B", topicstr=TOPIC, dest="SUB.B")
    return qm


def publish(
    qm: mq.QueueManager,
    data: bytes = b"1.08",
    *,
    options: int = 0,
    topic: str = TOPIC,
    **md: object,
) -> tuple[mq.MD, Topic]:
    handle = Topic(qm, topic_string=topic)
    desc = mq.MD(**md)
    handle.pub(data, desc, mq.PMO(Options=options))
    return desc, handle


def browse_md(qm: mq.QueueManager, queue: str) -> mq.MD:
    return get_from(qm, queue, browse=True)[1]


def all_on(qm: mq.QueueManager, queue: str) -> list[tuple[bytes, mq.MD]]:
    found = []
    while qm.curdepth(queue):
        found.append(get_from(qm, queue))
    return found


# --- copies ------------------------------------------------------------------------------------


def test_eip05_each_subscriber_gets_its_own_copy_with_its_own_msgid() -> None:
    qm = pubsub_qm()
    publish(qm, b"1.08")
    copies = [get_from(qm, q) for q in QUEUES]
    assert [data for data, _ in copies] == [b"1.08", b"1.08"]
    msgids = {md.MsgId for _, md in copies}
    assert len(msgids) == 2 and C.MQMI_NONE not in msgids


def test_eip05_publisher_msgid_is_left_alone_unless_new_msgid_is_asked_for() -> None:
    """IBM: on a topic, MQMI_NONE stays MQMI_NONE; MQPMO_NEW_MSG_ID returns a new one."""
    qm = pubsub_qm()
    plain, _ = publish(qm)
    assert plain.MsgId == C.MQMI_NONE
    asked, _ = publish(qm, options=C.MQPMO_NEW_MSG_ID)
    assert asked.MsgId != C.MQMI_NONE
    copy_ids = {md.MsgId for q in QUEUES for _, md in all_on(qm, q)}
    assert asked.MsgId not in copy_ids and len(copy_ids) == 4


def test_eip05_copies_carry_their_subscriptions_correlid() -> None:
    qm = pubsub_qm()
    qm.define_sub("A", topicstr=TOPIC, dest="SUB.A", destcorl=b"CORREL.A", replace=True)
    publish(qm, CorrelId=b"PUBLISHER")
    _, a = get_from(qm, "SUB.A")
    _, b = get_from(qm, "SUB.B")
    assert a.CorrelId == b"CORREL.A".ljust(24, b"\0")
    assert b.CorrelId == qm.subscriptions["B"].destcorl != a.CorrelId


def test_eip05_copies_expire_independently_with_one_report_each() -> None:
    """A's subscriber takes its copy in time; B's copy expires: exactly one report, for B's copy."""
    qm = pubsub_qm()
    publish(qm, Expiry=20, Report=C.MQRO_EXPIRATION, ReplyToQ=REPLY_Q)
    _, a = get_from(qm, "SUB.A")
    assert a.Expiry == 20
    b_id = browse_md(qm, "SUB.B").MsgId
    qm.sim.advance(seconds=3)
    assert get_reason(qm, "SUB.B") == C.MQRC_NO_MSG_AVAILABLE
    reports = all_on(qm, REPLY_Q)
    assert [r.CorrelId for _, r in reports] == [b_id]
    assert reports[0][1].Feedback == C.MQFB_EXPIRATION


def test_eip05_every_expired_copy_is_discarded_and_reported_on_its_own() -> None:
    qm = pubsub_qm()
    publish(qm, Expiry=10, Report=C.MQRO_EXPIRATION, ReplyToQ=REPLY_Q)
    ids = [browse_md(qm, q).MsgId for q in QUEUES]
    qm.sim.advance(seconds=2)
    assert get_reason(qm, "SUB.A") == C.MQRC_NO_MSG_AVAILABLE
    assert [r.CorrelId for _, r in all_on(qm, REPLY_Q)] == ids[:1]  # B's copy still waits
    qm.scan()
    assert [r.CorrelId for _, r in all_on(qm, REPLY_Q)] == ids[1:]
    assert [e.queue for e in events(qm, "discard")] == list(QUEUES)


# --- CAPEXPRY on topics (rule EXP-06) ---------------------------------------------------------


@pytest.mark.parametrize(("expiry", "expected"), [(-1, 50), (600, 50), (30, 30)])
def test_eip05_topic_capexpry_caps_every_copy(expiry: int, expected: int) -> None:
    qm = pubsub_qm(capexpry=50)
    desc, _ = publish(qm, Expiry=expiry)
    assert desc.Expiry == expiry  # Expiry is input-only
    assert [browse_md(qm, q).Expiry for q in QUEUES] == [expected, expected]


def test_eip05_capexpry_is_inherited_asparent_and_a_lower_queue_cap_wins() -> None:
    qm = pubsub_qm(capexpry=50)
    qm.define_topic("EUR", topicstr=TOPIC)  # CAPEXPRY(ASPARENT): the parent's 50
    qm.alter_qlocal("SUB.B", capexpry=20)
    publish(qm)
    assert [browse_md(qm, q).Expiry for q in QUEUES] == [50, 20]


def test_eip05_nolimit_on_a_nearer_topic_overrides_the_parents_cap() -> None:
    qm = pubsub_qm(capexpry=50)
    qm.define_topic("EUR", topicstr=TOPIC, capexpry="NOLIMIT")
    publish(qm)
    assert browse_md(qm, "SUB.A").Expiry == C.MQEI_UNLIMITED


def test_eip05_changing_capexpry_leaves_published_copies_alone() -> None:
    qm = pubsub_qm()
    publish(qm)
    qm.define_topic("PRICES", topicstr="prices", capexpry=10, replace=True)
    publish(qm, b"later")
    assert [md.Expiry for _, md in all_on(qm, "SUB.A")] == [C.MQEI_UNLIMITED, 10]


# --- topic strings -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "topic", "expected"),
    [
        ("prices/eur", "prices/eur", True),
        ("prices/eur", "prices/usd", False),
        ("prices/#", "prices", True),  # '#' may stand for no level at all
        ("prices/#", "prices/eur/spot", True),
        ("#", "anything/at/all", True),
        ("#/spot", "prices/eur/spot", True),
        ("prices/+", "prices/eur", True),
        ("prices/+", "prices", False),
        ("prices/+", "prices/eur/spot", False),
        ("+/+/spot", "prices/eur/spot", True),
        ("prices#", "prices/eur", False),  # next to other characters: literal
        ("prices/eur", "prices/#", False),
    ],
)
def test_eip05_topic_strings_match_exactly_or_by_wildcard(
    pattern: str, topic: str, expected: bool
) -> None:
    assert topic_matches(pattern, topic) is expected


_LEVEL = st.text(alphabet="abc.", min_size=1, max_size=3)
_TOPIC = st.lists(_LEVEL, min_size=1, max_size=5).map("/".join)


@given(_TOPIC, st.integers(min_value=0, max_value=5))
def test_eip05_hash_after_any_prefix_matches_and_exact_strings_match_themselves(
    topic: str, cut: int
) -> None:
    levels = topic.split("/")
    prefix = "/".join(levels[: min(cut, len(levels))])
    assert topic_matches(topic, topic)
    assert topic_matches(f"{prefix}/#" if prefix else "#", topic)
    assert topic_matches("/".join("+" for _ in levels), topic)


def test_eip05_wildcard_subscriptions_each_get_a_copy() -> None:
    qm = pubsub_qm()
    qm.define_qlocal("ALL")
    qm.define_sub("ALL", topicstr="prices/#", dest="ALL")
    qm.define_sub("ONE.LEVEL", topicstr="+/eur", dest="ALL")
    publish(qm)
    assert qm.curdepth("ALL") == 2
    publish(qm, topic="prices/usd")
    assert [qm.curdepth(q) for q in ("SUB.A", "ALL")] == [1, 3]


def test_eip05_topic_handle_joins_object_string_and_given_string() -> None:
    qm = pubsub_qm()
    handle = Topic(qm, topic_name="PRICES", topic_string="eur")
    assert handle.topic_string == TOPIC
    handle.pub(b"x")
    assert qm.curdepth("SUB.A") == 1
    with raises_reason(C.MQRC_UNKNOWN_OBJECT_NAME):
        Topic(qm, topic_name="NO.SUCH.TOPIC")
    handle.close()
    with raises_reason(C.MQRC_HOBJ_ERROR):
        handle.pub(b"x")


# --- no subscribers, the event log, validation ------------------------------------------------


def test_eip05_publish_without_subscribers_completes_ok() -> None:
    qm = pubsub_qm()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _, handle = publish(qm, topic="nobody/listens")
    assert (handle.last_comp, handle.last_reason) == (C.MQCC_OK, C.MQRC_NONE)
    assert events(qm, "publish")[-1].detail == "topic 'nobody/listens': no subscription matched"


def test_eip05_warn_if_no_subs_matched_gives_warning_2550() -> None:
    qm = pubsub_qm()
    with pytest.warns(mq.MQWarning, match="MQRC_NO_SUBS_MATCHED"):
        _, handle = publish(qm, topic="nobody", options=C.MQPMO_WARN_IF_NO_SUBS_MATCHED)
    assert (handle.last_comp, handle.last_reason) == (C.MQCC_WARNING, C.MQRC_NO_SUBS_MATCHED)
    _, quiet = publish(qm, options=C.MQPMO_WARN_IF_NO_SUBS_MATCHED)
    assert quiet.last_reason == C.MQRC_NONE


def test_eip05_publish_is_logged_before_one_put_per_copy() -> None:
    qm = pubsub_qm()
    mark = len(qm.events)
    publish(qm)
    logged = [(e.kind, e.queue) for e in qm.events[mark:]]
    assert logged == [("publish", ""), ("put", "SUB.A"), ("put", "SUB.B")]
    assert qm.events[mark].detail == "topic 'prices/eur': A -> SUB.A, B -> SUB.B"


def test_eip05_invalid_publication_fails_before_any_copy_is_made() -> None:
    qm = pubsub_qm()
    with raises_reason(C.MQRC_EXPIRY_ERROR):
        publish(qm, Expiry=0)
    with raises_reason(C.MQRC_MISSING_REPLY_TO_Q):
        publish(qm, Report=C.MQRO_EXPIRATION, ReplyToQ=REPLY_Q, options=C.MQPMO_SUPPRESS_REPLYTO)
    with raises_reason(C.MQRC_MISSING_REPLY_TO_Q):
        publish(qm, MsgType=C.MQMT_REQUEST, ReplyToQ=REPLY_Q, options=C.MQPMO_SUPPRESS_REPLYTO)
    assert [qm.curdepth(q) for q in QUEUES] == [0, 0]
    assert [e.cause for e in events(qm, "failed")] == ["publish"] * 3
    with pytest.raises(ValueError, match="MQPMO_RETAIN"):
        publish(qm, options=C.MQPMO_RETAIN)


def test_eip05_suppress_replyto_blanks_the_copies_reply_fields() -> None:
    qm = pubsub_qm()
    publish(qm, ReplyToQ=REPLY_Q, options=C.MQPMO_SUPPRESS_REPLYTO)
    md = browse_md(qm, "SUB.A")
    assert (md.ReplyToQ.strip(), md.ReplyToQMgr.strip()) == ("", "")


def test_eip05_priority_and_persistence_as_topic_default() -> None:
    qm = pubsub_qm(defprty=7, defpsist="YES")
    publish(qm)
    md = browse_md(qm, "SUB.A")
    assert (md.Priority, md.Persistence) == (7, C.MQPER_PERSISTENT)


def test_eip05_pub_disabled_topic_refuses_publications() -> None:
    qm = pubsub_qm(pub="DISABLED")
    with raises_reason(C.MQRC_PUT_INHIBITED):
        publish(qm)


def test_eip05_syncpoint_publication_is_delivered_at_commit() -> None:
    qm = pubsub_qm()
    publish(qm, options=C.MQPMO_SYNCPOINT)
    assert get_reason(qm, "SUB.A") == C.MQRC_NO_MSG_AVAILABLE
    qm.commit()
    assert [qm.curdepth(q) for q in QUEUES] == [1, 1]


# --- subscriptions ----------------------------------------------------------------------------


def test_eip05_subscription_definitions() -> None:
    qm = pubsub_qm()
    with raises_reason(C.MQRC_OBJECT_ALREADY_EXISTS):
        qm.define_sub("A", topicstr=TOPIC, dest="SUB.A")
    with raises_reason(C.MQRC_UNKNOWN_OBJECT_NAME):
        qm.define_sub("C", topicstr=TOPIC, dest="NO.SUCH.Q")
    sub = qm.define_sub("C", topicobj="PRICES", topicstr="usd", dest="SUB.A")
    assert sub.topicstr == "prices/usd"
    qm.delete_sub("B")
    publish(qm)
    assert [qm.curdepth(q) for q in QUEUES] == [1, 0]
    with raises_reason(C.MQRC_NO_SUBSCRIPTION):
        qm.delete_sub("B")
    with pytest.raises(ValueError, match="DEFPRTY"):
        qm.define_topic("BAD", topicstr="bad", defprty=10)


def test_eip05_delete_topic_keeps_subscriptions_and_drops_the_objects_attributes() -> None:
    """DELETE TOPIC (docs/patterns.md): subscriptions made through the object keep their topic
    string and still receive publications; the object's attributes no longer apply (CAPEXPRY
    falls back to SYSTEM.BASE.TOPIC's NOLIMIT); the name is gone (2085 on a second delete)."""
    qm = pubsub_qm(capexpry=50)
    qm.define_sub("C", topicobj="PRICES", topicstr="eur", dest="SUB.A")
    assert qm.topic_attributes(TOPIC).capexpry == 50
    qm.delete_topic("PRICES")
    assert "PRICES" not in qm.topics
    assert qm.subscriptions["C"].topicstr == TOPIC
    assert qm.topic_attributes(TOPIC).capexpry is None
    publish(qm, Expiry=600)
    assert [browse_md(qm, q).Expiry for q in QUEUES] == [600, 600]
    with raises_reason(C.MQRC_UNKNOWN_OBJECT_NAME):
        qm.delete_topic("PRICES")


# --- copies that cannot be delivered (PMSGDLV / NPMSGDLV / USEDLQ) ----------------------------


def fill(qm: mq.QueueManager, queue: str) -> None:
    """Make ``queue`` full (MAXDEPTH 1 and one message on it)."""
    qm.alter_qlocal(queue, maxdepth=1)
    mq.Queue(qm, queue).put(b"filler")


def test_eip05_nonpersistent_copy_a_full_queue_refuses_goes_to_the_dead_letter_queue() -> None:
    qm = pubsub_qm()
    fill(qm, "SUB.B")
    publish(qm, Persistence=C.MQPER_NOT_PERSISTENT)
    assert qm.curdepth("SUB.A") == 1
    data, _ = get_from(qm, DEAD_Q)
    dlh = unpack_dlh(data)
    assert (dlh.Reason, dlh.DestQName.strip()) == (C.MQRC_Q_FULL, "SUB.B")
    assert data[DLH_LEN:] == b"1.08"


def test_eip05_nonpersistent_allavail_skips_a_refusing_subscriber_without_a_dlq() -> None:
    qm = pubsub_qm(deadq=None)
    fill(qm, "SUB.B")
    publish(qm, Persistence=C.MQPER_NOT_PERSISTENT)
    assert [qm.curdepth(q) for q in QUEUES] == [1, 1]  # B only holds the filler
    assert "B -> not delivered (MQRC_Q_FULL)" in events(qm, "publish")[-1].detail


@pytest.mark.parametrize("topic_attrs", [{}, {"usedlq": "NO"}])
def test_eip05_persistent_alldur_reaches_every_subscriber_or_none(
    topic_attrs: dict[str, str],
) -> None:
    qm = pubsub_qm(deadq=None if not topic_attrs else DEAD_Q, **topic_attrs)
    fill(qm, "SUB.B")
    with raises_reason(C.MQRC_PUBLICATION_FAILURE):
        publish(qm, Persistence=C.MQPER_PERSISTENT)
    assert qm.curdepth("SUB.A") == 0


def test_eip05_expired_dead_lettered_copy_keeps_its_lifetime() -> None:
    """A copy on the dead-letter queue keeps counting down (rule DLQ-01) and reports alone."""
    qm = pubsub_qm()
    fill(qm, "SUB.B")
    publish(qm, Expiry=10, Report=C.MQRO_EXPIRATION, ReplyToQ=REPLY_Q)
    qm.sim.advance(seconds=2)
    qm.scan()
    assert [e.queue for e in events(qm, "discard")] == ["SUB.A", DEAD_Q]
    assert len(all_on(qm, REPLY_Q)) == 2


def test_eip05_event_log_accounts_for_every_copy_on_every_queue() -> None:
    """Conservation (docs/engine.md): puts - gets - discards = CURDEPTH on each local queue,
    with copies delivered, dead-lettered, got and expired."""
    qm = pubsub_qm()
    fill(qm, "SUB.B")
    publish(qm, Expiry=10, Report=C.MQRO_EXPIRATION, ReplyToQ=REPLY_Q)
    publish(qm, b"kept")
    get_from(qm, "SUB.A")
    qm.sim.advance(seconds=2)
    qm.scan()
    for local in qm.local_queues():
        kinds = [e.kind for e in qm.events if e.queue == local.name]
        balance = kinds.count("put") - kinds.count("get") - kinds.count("discard")
        assert balance == qm.curdepth(local.name), local.name
