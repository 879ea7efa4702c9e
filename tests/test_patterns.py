"""The Message Expiration pattern helpers (rules EIP-01 .. EIP-04, EIP-06; EIP-05 is in
tests/engine/test_pubsub.py), all on virtual time."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import mqlearn as mq
from mqlearn import CMQC as C
from mqlearn import patterns as p
from tests.engine.helpers import (
    APP_Q,
    DEAD_Q,
    DLH_LEN,
    REPLY_Q,
    events,
    get_from,
    get_reason,
    linked_qmgrs,
    put_to,
    qm_with_queues,
    raises_reason,
    unpack_dlh,
)

INVALID_Q = "APP.INVALID"


def reports(qm: mq.QueueManager, queue: str = REPLY_Q) -> list[mq.MD]:
    found = []
    while qm.curdepth(queue):
        found.append(get_from(qm, queue)[1])
    return found


# --- EIP-01: relative and absolute expiry -----------------------------------------------------


@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=10**9))
def test_eip01_relative_to_absolute_and_back(now: int, ttl: int) -> None:
    sim = mq.Simulation()
    sim.advance(ms=now)
    expires_at = p.absolute_expiry(sim, ttl)
    assert expires_at == now + ttl
    assert p.relative_expiry(sim, expires_at) == ttl


def test_eip01_absolute_expiry_not_later_than_now_leaves_nothing() -> None:
    sim = mq.Simulation()
    sim.advance(seconds=5)
    assert p.relative_expiry(sim, 4_000) == 0
    assert p.relative_expiry(sim, sim.now) == 0
    with pytest.raises(ValueError, match="ttl_ms"):
        p.absolute_expiry(sim, -1)


def test_eip01_put_until_turns_the_deadline_into_a_relative_expiry() -> None:
    qm = qm_with_queues(scans=True)
    qm.sim.advance(seconds=1)
    md = p.put_until(qm, APP_Q, b"quote", expires_at_ms=4_000)
    assert md is not None and md.Expiry == 30
    qm.sim.advance(ms=2_999)
    assert get_from(qm, APP_Q, browse=True)[1].Expiry == 1
    qm.sim.advance(ms=1)
    assert get_reason(qm, APP_Q) == C.MQRC_NO_MSG_AVAILABLE


def test_eip01_deadline_before_the_send_time_expires_at_once_with_its_report() -> None:
    qm = qm_with_queues(scans=True)
    qm.sim.advance(seconds=5)
    md = mq.MD(Report=C.MQRO_EXPIRATION, ReplyToQ=REPLY_Q)
    assert p.put_until(qm, APP_Q, b"stale", expires_at_ms=5_000, md=md) is None
    assert qm.curdepth(APP_Q) == 0
    (report,) = reports(qm)
    assert (report.Feedback, report.CorrelId) == (C.MQFB_EXPIRATION, md.MsgId)
    with raises_reason(C.MQRC_MISSING_REPLY_TO_Q):  # the put's own checks still apply
        p.put_until(qm, APP_Q, b"x", 0, mq.MD(Report=C.MQRO_EXPIRATION))


# --- EIP-02: JMS --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ttl_ms", "expiry"),
    [
        (0, C.MQEI_UNLIMITED),
        (1, 1),
        (99, 1),
        (100, 1),
        (1_599, 15),
        (60_000, 600),
        (214_748_364_699, 2_147_483_646),
        (214_748_364_700, C.MQEI_UNLIMITED),
    ],
)
def test_eip02_jms_time_to_live_becomes_expiry_tenths(ttl_ms: int, expiry: int) -> None:
    assert p.jms_ttl_to_expiry(ttl_ms) == expiry


@given(st.integers(min_value=1, max_value=2_147_483_646))
def test_eip02_expiry_survives_the_round_trip_through_a_jms_ttl(expiry: int) -> None:
    assert p.jms_ttl_to_expiry(p.expiry_to_jms_ttl(expiry)) == expiry


@given(st.integers(min_value=1, max_value=10**9))
def test_eip02_ttl_never_becomes_zero_and_never_grows(ttl_ms: int) -> None:
    expiry = p.jms_ttl_to_expiry(ttl_ms)
    assert expiry >= 1
    assert p.expiry_to_jms_ttl(expiry) <= max(ttl_ms, 100)


def test_eip02_bad_values_are_refused() -> None:
    assert p.expiry_to_jms_ttl(C.MQEI_UNLIMITED) == 0
    with pytest.raises(ValueError, match="time_to_live"):
        p.jms_ttl_to_expiry(-5)
    with pytest.raises(ValueError, match="expiry"):
        p.expiry_to_jms_ttl(0)


def test_eip02_producer_ttl_and_per_send_ttl_set_expiry_and_jmsexpiration() -> None:
    qm = qm_with_queues(scans=True)
    qm.sim.advance(seconds=10)
    producer = p.JmsProducer(qm, APP_Q, time_to_live=2_500)
    first = producer.send(b"a")
    assert (first.md.Expiry, first.jms_timestamp, first.jms_expiration) == (25, 10_000, 12_500)
    forever = producer.send(b"b", time_to_live=0)
    assert (forever.md.Expiry, forever.jms_expiration) == (C.MQEI_UNLIMITED, 0)
    producer.time_to_live = 50
    short = producer.send(b"c")
    assert (short.md.Expiry, short.jms_expiration) == (1, 10_050)
    qm.sim.advance(seconds=3)
    data, _ = get_from(qm, APP_Q)  # no message handle: the JMS fields come as an MQRFH2
    assert data.startswith(b"RFH ") and data.endswith(b"b")  # the 2.5 s and 0.1 s ones expired
    assert b"<jms><Dst>queue:///APP.IN</Dst><Tms>10000</Tms></jms>" in data
    assert b"<Exp>" not in data, "a message that never expires has no jms.Exp"
    assert get_reason(qm, APP_Q) == C.MQRC_NO_MSG_AVAILABLE


def jms_consumer_get(qm: mq.QueueManager) -> tuple[bytes, dict[str, Any]]:
    """A get as IBM's JMS client makes one: into a message handle (the JMS header fields)."""
    handle = mq.MessageHandle(qm)
    gmo = mq.GMO(Version=4, MsgHandle=handle.msg_handle, Options=C.MQGMO_PROPERTIES_IN_HANDLE)
    data = mq.Queue(qm, APP_Q).get(None, mq.MD(), gmo)
    return data, {prop.name: prop.value for prop in handle}


def test_eip02_a_ttl_too_long_for_mqmd_expiry_is_put_unlimited_with_jms_expiration() -> None:
    """IBM's "Mapping JMS header fields at send() or publish()": a time-to-live of 214 748 364.7 s
    or more does not fit in MQMD.Expiry; the client puts MQEI_UNLIMITED and carries the real
    expiration time in the MQRFH2 (jms.Exp): JmsMessage.jms_expiration, and the message's
    property jms.Exp, which a JMS consumer reads back."""
    qm = qm_with_queues(scans=True)
    qm.sim.advance(seconds=10)
    eight_years = 250_000_000_000  # ms
    sent = p.JmsProducer(qm, APP_Q).send(b"long", time_to_live=eight_years)
    assert sent.md.Expiry == C.MQEI_UNLIMITED
    assert sent.jms_expiration == 10_000 + eight_years
    qm.sim.advance(seconds=10 * 365 * 24 * 3600)  # ten years: the queue manager never expires it
    data, fields = jms_consumer_get(qm)
    assert data == b"long"
    assert fields == {
        "mcd.Msd": "jms_bytes",
        "jms.Dst": f"queue:///{APP_Q}",
        "jms.Tms": "10000",
        "jms.Exp": str(10_000 + eight_years),
    }


def test_eip02_jms_expiration_is_an_absolute_time_not_the_ttl_that_remains() -> None:
    """JMSExpiration (jms.Exp) stays send time + TTL however long the message waits, while the
    Expiry an MQI get returns is the lifetime left (EXP-11)."""
    qm = qm_with_queues(scans=True)
    sent = p.JmsProducer(qm, APP_Q, time_to_live=60_000).send(b"quote")
    qm.sim.advance(seconds=20)
    _, md = get_from(qm, APP_Q)
    assert md.Expiry == 400  # 40 s left
    assert sent.jms_expiration == p.jms_expiration(mq.Simulation(), 60_000) == 60_000


# --- EIP-03: .NET / MSMQ over a channel --------------------------------------------------------


def test_eip03_after_reaching_its_queue_only_time_to_be_received_applies() -> None:
    link = linked_qmgrs(latency_ms=500)
    p.msmq_send(link.channel, APP_Q, b"m", time_to_reach_queue=2_000, time_to_be_received=10_000)
    link.sim.advance(seconds=5)  # arrived at 0.5 s; TTRQ (2 s) is over, TTBR (10 s) is not
    assert get_from(link.qm2, APP_Q, browse=True)[1].Expiry == 50
    link.sim.advance(seconds=5)
    assert get_reason(link.qm2, APP_Q) == C.MQRC_NO_MSG_AVAILABLE


def test_eip03_stopped_channel_message_expires_in_transit_after_time_to_reach_queue() -> None:
    link = linked_qmgrs(running=False)
    md = mq.MD(Report=C.MQRO_EXPIRATION, ReplyToQ=REPLY_Q)
    p.msmq_send(
        link.channel, APP_Q, b"m", time_to_reach_queue=2_000, time_to_be_received=10_000, md=md
    )
    xmit_md = get_from(link.qm1, "QM2", browse=True)[1]
    assert xmit_md.Expiry == 20  # the transmission queue sees the TTRQ bound
    link.sim.advance(seconds=3)
    link.channel.start()
    link.sim.advance(seconds=1)
    assert link.qm2.curdepth(APP_Q) == 0
    assert [e.cause for e in events(link.qm1, "discard")] == ["channel"]
    (report,) = reports(link.qm1)
    assert report.CorrelId == md.MsgId


def test_eip03_slow_channel_cannot_reach_the_queue_in_time() -> None:
    """The channel's latency (2.5 s) is longer than TimeToReachQueue (2 s): expired at once."""
    link = linked_qmgrs(latency_ms=2_500)
    p.msmq_send(link.channel, APP_Q, b"m", time_to_reach_queue=2_000)
    link.sim.advance(seconds=5)
    assert link.qm2.curdepth(APP_Q) == 0
    assert len(events(link.qm1, "discard")) == 1


@pytest.mark.parametrize("running", [True, False])
def test_eip03_the_shorter_lifetime_wins(running: bool) -> None:
    link = linked_qmgrs(latency_ms=100, running=running)
    p.msmq_send(link.channel, APP_Q, b"m", time_to_reach_queue=5_000, time_to_be_received=1_000)
    link.sim.advance(ms=900)
    if running:
        assert get_from(link.qm2, APP_Q, browse=True)[1].Expiry == 1
    link.sim.advance(ms=100)
    link.channel.start()
    link.sim.advance(ms=1)
    for qm, queue in ((link.qm2, APP_Q), (link.qm1, "QM2")):
        assert get_reason(qm, queue) == C.MQRC_NO_MSG_AVAILABLE


def test_eip03_no_lifetimes_means_unlimited() -> None:
    link = linked_qmgrs()
    md = p.msmq_send(link.channel, APP_Q, b"m")
    link.sim.advance(seconds=1)
    data, got = get_from(link.qm2, APP_Q)
    assert (data, got.Expiry, got.MsgId) == (b"m", C.MQEI_UNLIMITED, md.MsgId)
    with pytest.raises(ValueError, match="time_to_reach_queue"):
        p.msmq_send(link.channel, APP_Q, b"m", time_to_reach_queue=0)


# --- EIP-04: Dead Letter Channel vs discard, Invalid Message Channel --------------------------


def test_eip04_ibm_mq_discards_expired_messages_by_default() -> None:
    qm = qm_with_queues(scans=True)
    assert qm.expired_action == "discard"
    put_to(qm, APP_Q, Expiry=10)
    qm.sim.advance(seconds=2)
    assert get_reason(qm, APP_Q) == C.MQRC_NO_MSG_AVAILABLE
    assert qm.curdepth(DEAD_Q) == 0


def test_eip04_dead_letter_option_moves_expired_messages_to_the_dlq() -> None:
    qm = qm_with_queues(scans=True)
    qm.expired_action = "dead-letter"
    sent = put_to(qm, APP_Q, b"late", Expiry=10, Report=C.MQRO_EXPIRATION, ReplyToQ=REPLY_Q)
    qm.sim.advance(seconds=2)
    assert get_reason(qm, APP_Q) == C.MQRC_NO_MSG_AVAILABLE
    data, md = get_from(qm, DEAD_Q)
    dlh = unpack_dlh(data)
    assert (dlh.Reason, dlh.DestQName.strip(), data[DLH_LEN:]) == (
        C.MQFB_EXPIRATION,
        APP_Q,
        b"late",
    )
    assert (md.MsgId, md.Expiry, md.Format) == (sent.MsgId, -1, C.MQFMT_DEAD_LETTER_HEADER)
    assert [r.Feedback for r in reports(qm)] == [C.MQFB_EXPIRATION]  # the report still goes


def test_eip04_dead_letter_option_falls_back_to_discard() -> None:
    """Without a dead-letter queue, and for messages expiring on the DLQ itself: discarded."""
    qm = qm_with_queues(deadq=None, scans=True)
    qm.expired_action = "dead-letter"
    put_to(qm, APP_Q, Expiry=10)
    qm.sim.advance(seconds=2)
    assert get_reason(qm, APP_Q) == C.MQRC_NO_MSG_AVAILABLE
    qm = qm_with_queues(scans=True)
    qm.expired_action = "dead-letter"
    put_to(qm, DEAD_Q, Expiry=10)
    qm.sim.advance(seconds=2)
    assert get_reason(qm, DEAD_Q) == C.MQRC_NO_MSG_AVAILABLE
    with pytest.raises(ValueError, match="expired_action"):
        qm.expired_action = "dlq"


def invalid_channel_setup() -> tuple[mq.QueueManager, p.InvalidMessageChannel]:
    qm = qm_with_queues(queues=(APP_Q, REPLY_Q, INVALID_Q), scans=True)
    return qm, p.InvalidMessageChannel(qm, INVALID_Q)


def test_eip04_live_message_is_processed() -> None:
    qm, imc = invalid_channel_setup()
    put_to(qm, APP_Q, b"fresh", Expiry=50)
    held = p.receive(mq.Queue(qm, APP_Q))
    assert held is not None and held.deadline_ms == 5_000
    qm.sim.advance(seconds=4)
    outcome = imc.consume_or_reroute(held, lambda md, data: data.upper())
    assert outcome == p.Consumed(True, b"FRESH", None)
    assert p.receive(mq.Queue(qm, APP_Q)) is None


def test_eip04_expired_message_in_hand_goes_to_the_invalid_message_channel() -> None:
    qm, imc = invalid_channel_setup()
    sent = put_to(qm, APP_Q, b"slow", Expiry=10, Report=C.MQRO_EXPIRATION, ReplyToQ=REPLY_Q)
    held = p.receive(mq.Queue(qm, APP_Q))
    assert held is not None
    qm.sim.advance(seconds=2)  # processing took too long
    outcome = imc.consume_or_reroute(held, lambda md, data: pytest.fail("must not process"))
    assert (outcome.processed, outcome.report) == (False, f"sent to {REPLY_Q} at QM1")
    (report,) = reports(qm)  # rule RPT-08
    assert (report.CorrelId, report.PutApplType) == (sent.MsgId, C.MQAT_UNIX)
    qm.sim.advance(seconds=3600)
    data, md = get_from(qm, INVALID_Q)
    assert (data, md.MsgId, md.Expiry, md.Report) == (b"slow", sent.MsgId, -1, C.MQRO_NONE)
    assert md.PutTime == sent.PutTime  # original context kept


# --- EIP-06: request-reply --------------------------------------------------------------------


def request_reply_setup(
    *, service_ms: int = 0, **replier_kwargs: Any
) -> tuple[mq.QueueManager, p.Requester, p.Replier]:
    """QM1 with SERVICE.IN served by a running Replier, and a Requester (2 s timeout, 5 s expiry)."""
    qm = qm_with_queues(queues=("SERVICE.IN", REPLY_Q, INVALID_Q), scans=True)
    replier = p.Replier(
        qm,
        "SERVICE.IN",
        lambda md, data: b"answer to " + data,
        service_ms=service_ms,
        **replier_kwargs,
    )
    replier.start()
    requester = p.Requester(qm, "SERVICE.IN", REPLY_Q, timeout_ms=2_000, expiry=50)
    return qm, requester, replier


def test_eip06_reply_arrives_in_time_correlated_by_correlid() -> None:
    _, requester, replier = request_reply_setup(service_ms=300)
    outcome = requester.request(b"q1")
    assert (outcome.status, outcome.data) == ("reply", b"answer to q1")
    assert outcome.md is not None and outcome.md.CorrelId == outcome.request_md.MsgId
    assert outcome.md.MsgType == C.MQMT_REPLY
    assert 300 <= outcome.waited_ms < 2_000
    assert replier.replied == 1


def test_eip06_reply_copies_the_remaining_expiry_at_reply_time() -> None:
    """RPL-01 "copy": the request has 5 s; the replier's poll takes it at 0.1 s and answers
    1.2 s later, at 1.3 s, so the reply gets the 3.7 s the request had left then."""
    _, requester, _ = request_reply_setup(service_ms=1_200)
    outcome = requester.request(b"q")
    assert outcome.waited_ms == 1_300
    assert outcome.md is not None and outcome.md.Expiry == 37


def test_eip06_slow_replier_means_a_timeout_and_the_late_reply_is_not_taken_later() -> None:
    qm, requester, _ = request_reply_setup(service_ms=3_000, reply_expiry=600)
    late = requester.request(b"q1")
    assert late.timed_out and late.waited_ms == 2_000 and late.data is None
    qm.sim.advance(seconds=2)  # the late reply to q1 arrives now
    fresh = requester.request(b"q2", timeout_ms=5_000)
    assert (fresh.status, fresh.data) == ("reply", b"answer to q2")
    assert qm.curdepth(REPLY_Q) == 1  # q1's stale reply waits (it expires in 60 s)


def test_eip06_request_expired_on_the_queue_is_only_known_through_its_report() -> None:
    qm, _, replier = request_reply_setup()
    replier.stop()
    qm.alter_qmgr(expryint=1)  # an expiry scan every second discards the request
    requester = p.Requester(
        qm, "SERVICE.IN", REPLY_Q, timeout_ms=3_000, expiry=10, report=C.MQRO_EXPIRATION
    )
    outcome = requester.request(b"q")
    assert outcome.status == "expired"
    assert outcome.md is not None and outcome.md.Feedback == C.MQFB_EXPIRATION
    silent = p.Requester(qm, "SERVICE.IN", REPLY_Q, timeout_ms=3_000, expiry=10)
    assert silent.request(b"q").timed_out  # no report asked for: nothing to tell (RPT-09)


def test_eip06_request_expiring_while_served_goes_to_the_invalid_message_channel() -> None:
    qm, requester, replier = request_reply_setup(service_ms=1_000)
    replier.invalid = p.InvalidMessageChannel(qm, INVALID_Q)
    outcome = requester.request(b"q", expiry=5)
    assert outcome.timed_out
    assert (replier.replied, replier.expired, qm.curdepth(INVALID_Q)) == (0, 1, 1)
