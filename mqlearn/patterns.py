"""The Message Expiration pattern on the simulator: rules EIP-01 .. EIP-06.

The pattern is the one of that name in *Enterprise Integration Patterns* (Gregor Hohpe and Bobby
Woolf).

Helpers that show how other messaging systems express a message's lifetime and what IBM MQ makes
of it: relative and absolute expiry (EIP-01), JMS time-to-live and JMSExpiration (EIP-02), .NET/MSMQ
TimeToReachQueue and TimeToBeReceived over a channel (EIP-03), an Invalid Message Channel for a
consumer left holding an expired message (EIP-04; the Dead Letter Channel itself is
``QueueManager.expired_action``), and request-reply with a requester timeout (EIP-06). Publish/
subscribe (EIP-05) lives in the engine (``mq.Topic``). Every modelling choice: docs/patterns.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal, NamedTuple

from mqlearn.engine import transmission
from mqlearn.engine.channel import Channel
from mqlearn.engine.descriptor import carried_fields
from mqlearn.engine.handle import Queue
from mqlearn.engine.message_properties import MessageHandle
from mqlearn.engine.mqi_checks import check_put_md, message_bytes
from mqlearn.engine.objects import QRemote
from mqlearn.engine.qmgr import QueueManager
from mqlearn.engine.reply import reply_md, report_expired
from mqlearn.engine.rule_formulas import NEVER, deadline_of, is_expired, remaining_tenths
from mqlearn.engine.simulation import Scheduled, Simulation
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError
from mqlearn.mqi.structs import GMO, MD, PMO

MS_PER_TENTH = 100
# IBM MQ JMS keeps a time-to-live in MQMD.Expiry only below 214 748 364.7 s; longer ones travel
# with MQMD.Expiry unlimited (the JMS client enforces JMSExpiration from its MQRFH2 header)
JMS_TTL_LIMIT_MS = 214_748_364_700


def _ms(name: str, value: object, *, allow_zero: bool) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int (milliseconds), got {type(value).__name__}")
    if value < 0 or (value == 0 and not allow_zero):
        low = "0" if allow_zero else "1"
        raise ValueError(f"{name} must be >= {low} ms, got {value}")
    return value


def _fresh_md(md: MD | None, helper: str) -> MD:
    """The caller's MD (or a new one) for a helper that sets Expiry itself."""
    if md is None:
        return MD()
    if type(md) is not MD:
        raise TypeError(f"md must be an mqlearn MD, got {type(md).__name__}")
    if md.Expiry != C.MQEI_UNLIMITED:
        raise ValueError(f"{helper} sets md.Expiry itself: leave it MQEI_UNLIMITED")
    return md


def _tenths(ms: int) -> int:
    """A lifetime in ms as MQMD.Expiry tenths, by mqlearn's choice: whole tenths, the remainder
    dropped (IBM does not say how its JMS client rounds), but never 0 (MQPUT rejects 0, rule
    EXP-03), so 1..99 ms become 1 tenth."""
    return max(1, ms // MS_PER_TENTH)


# -- EIP-01: relative and absolute expiry ----------------------------------------------------------
def absolute_expiry(sim: Simulation, ttl_ms: int) -> int:
    """Relative → absolute at send time: the virtual time (ms) at which the message expires."""
    return sim.now + _ms("ttl_ms", ttl_ms, allow_zero=True)


def relative_expiry(sim: Simulation, expires_at_ms: int) -> int:
    """Absolute → relative: ms left until ``expires_at_ms``; 0 when it is not later than now
    (the message would expire at once, rule EIP-01)."""
    if isinstance(expires_at_ms, bool) or not isinstance(expires_at_ms, int):
        raise TypeError(f"expires_at_ms must be an int, got {type(expires_at_ms).__name__}")
    return max(0, expires_at_ms - sim.now)


def put_until(
    qm: QueueManager,
    queue: str,
    data: bytes,
    expires_at_ms: int,
    md: MD | None = None,
    pmo: PMO | None = None,
) -> MD | None:
    """Put a message that must expire at an absolute virtual time (EIP-01).

    MQ only keeps a relative countdown, so the deadline becomes ``md.Expiry`` at send time. A
    deadline not later than now expires at once: nothing is put (MQPUT cannot take Expiry 0), the
    sender sends the expiration report the message asked for (RPT-08), and None is returned.
    Otherwise the put's MD is returned.
    """
    md = _fresh_md(md, "put_until")
    left = relative_expiry(qm.sim, expires_at_ms)
    if left:
        md.Expiry = _tenths(left)
        Queue(qm, queue).put(data, md, pmo)
        return md
    check_put_md(md, qm.enforce_max_expiry)  # the same checks the put would have made
    data = message_bytes(data)
    if md.MsgId == C.MQMI_NONE:
        md.MsgId = qm.new_msgid()
    sent = md  # the message as the put would have sent it
    if not md.ReplyToQMgr:  # rules RPL-02, RPL-03
        reply_q, md.ReplyToQMgr = qm.reply_to(md.ReplyToQ)
        if reply_q != md.ReplyToQ:
            sent = md.copy()
            sent.ReplyToQ = reply_q
    report_expired(qm, sent, data)
    return None


# -- EIP-02: JMS time-to-live ----------------------------------------------------------------------
def jms_ttl_to_expiry(ttl_ms: int) -> int:
    """JMS time-to-live (ms) → MQMD.Expiry (tenths), rule EIP-02. As IBM documents: 0 →
    MQEI_UNLIMITED, and a time-to-live too long for MQMD.Expiry (214 748 364.7 s or more) →
    MQEI_UNLIMITED too, the real expiration then travelling only in the MQRFH2 (jms.Exp). The
    rounding is mqlearn's choice (IBM does not document it): the remainder below a tenth is
    dropped, and 1..99 ms become 1 (never the invalid 0)."""
    ttl_ms = _ms("time_to_live", ttl_ms, allow_zero=True)
    if ttl_ms == 0 or ttl_ms >= JMS_TTL_LIMIT_MS:
        return C.MQEI_UNLIMITED
    return _tenths(ttl_ms)


def expiry_to_jms_ttl(expiry: int) -> int:
    """MQMD.Expiry (tenths) → a time-to-live in ms: MQEI_UNLIMITED → 0 (never expires).

    This converts units only. A JMS consumer does not learn its message's lifetime this way:
    its JMSExpiration is the absolute time the producer's client wrote in the MQRFH2 (jms.Exp).
    """
    if isinstance(expiry, bool) or not isinstance(expiry, int):
        raise TypeError(f"expiry must be an int, got {type(expiry).__name__}")
    if expiry == C.MQEI_UNLIMITED:
        return 0
    if expiry <= 0:
        raise ValueError(f"expiry must be tenths > 0 or MQEI_UNLIMITED (-1), got {expiry}")
    return expiry * MS_PER_TENTH


def jms_expiration(sim: Simulation, ttl_ms: int) -> int:
    """JMSExpiration as the provider sets it at send: now + TTL in virtual ms, 0 = never.

    An absolute time, not a time-to-live: IBM MQ's JMS client carries it in the MQRFH2 (jms.Exp),
    and a JMS consumer's getJMSExpiration() returns this same value, however long the message
    waited. ``JmsProducer.send`` puts it as the message property ``jms.Exp``.
    """
    ttl_ms = _ms("time_to_live", ttl_ms, allow_zero=True)
    return 0 if ttl_ms == 0 else sim.now + ttl_ms


class JmsMessage(NamedTuple):
    """What ``JmsProducer.send`` returns: the MD as put, JMSTimestamp and JMSExpiration (ms).

    ``jms_expiration`` is what the real client writes in the MQRFH2 as jms.Exp (0: none written,
    the message never expires) and what a JMS consumer reads back as JMSExpiration.
    """

    md: MD
    jms_timestamp: int
    jms_expiration: int


class JmsProducer:
    """A JMS MessageProducer on an MQ queue: ``time_to_live`` (ms, 0 = never) for every send,
    or per send (rule EIP-02)."""

    def __init__(self, qm: QueueManager, queue: str, time_to_live: int = 0) -> None:
        self.qm = qm
        self._queue = Queue(qm, queue)
        self._ttl = 0
        self.time_to_live = time_to_live

    @property
    def time_to_live(self) -> int:
        """MessageProducer.getTimeToLive/setTimeToLive, in ms."""
        return self._ttl

    @time_to_live.setter
    def time_to_live(self, ttl_ms: int) -> None:
        self._ttl = _ms("time_to_live", ttl_ms, allow_zero=True)

    def send(self, data: bytes, time_to_live: int | None = None) -> JmsMessage:
        """send(message[, timeToLive]): MQMD.Expiry from the TTL; JMSExpiration = now + TTL.

        The JMS header fields go with the message as properties, in the MQRFH2 folders IBM's
        client writes them in (docs/patterns.md): ``mcd.Msd`` jms_bytes, ``jms.Dst`` the queue
        as a URI, ``jms.Tms`` JMSTimestamp and, when the message can expire, ``jms.Exp``
        JMSExpiration (ms, as text)."""
        ttl = (
            self._ttl
            if time_to_live is None
            else _ms("time_to_live", time_to_live, allow_zero=True)
        )
        md = MD(Expiry=jms_ttl_to_expiry(ttl))
        now = self.qm.sim.now
        expiration = jms_expiration(self.qm.sim, ttl)
        header = MessageHandle(self.qm)
        header.set("mcd.Msd", "jms_bytes")
        header.set("jms.Dst", f"queue:///{self._queue.name}")
        header.set("jms.Tms", str(now))
        if expiration:
            header.set("jms.Exp", str(expiration))
        pmo = PMO(Version=C.MQPMO_VERSION_3, OriginalMsgHandle=header.msg_handle)
        self._queue.put(data, md, pmo)
        return JmsMessage(md, now, expiration)


# -- EIP-03: .NET / MSMQ TimeToReachQueue and TimeToBeReceived ------------------------------------
def msmq_send(
    channel: Channel,
    queue: str,
    data: bytes,
    *,
    time_to_reach_queue: int | None = None,
    time_to_be_received: int | None = None,
    md: MD | None = None,
) -> MD:
    """Send ``data`` over ``channel`` to ``queue`` on its target with .NET's two lifetimes (ms,
    None = infinite), rule EIP-03.

    On the transmission queue the outer MQMD deadline is the earlier of: the last moment the
    channel can still send it and arrive within TimeToReachQueue (send time + TTRQ - latency), and
    send time + TimeToBeReceived. The embedded MQXQH Expiry carries TimeToBeReceived alone, and the
    channel delivers by it: once the message has reached its queue, TTRQ no longer applies. The
    transport is the queue manager's (as MSMQ's is), so this goes through its own put path.
    """
    if not isinstance(channel, Channel):
        raise TypeError(f"channel must be an mq.Channel, got {type(channel).__name__}")
    ttrq = (
        None
        if time_to_reach_queue is None
        else _ms("time_to_reach_queue", time_to_reach_queue, allow_zero=False)
    )
    ttbr = (
        None
        if time_to_be_received is None
        else _ms("time_to_be_received", time_to_be_received, allow_zero=False)
    )
    md = _fresh_md(md, "msmq_send")
    qm = channel.source
    check_put_md(md, qm.enforce_max_expiry)
    data = message_bytes(data)
    now = qm.sim.now
    received_by = NEVER if ttbr is None else now + ttbr
    reach_by = NEVER if ttrq is None else now + ttrq - channel.latency_ms
    route = qm.route(channel.xmitq.name)
    msgid = md.MsgId if md.MsgId != C.MQMI_NONE else qm.new_msgid()
    correlid = md.CorrelId.ljust(24, b"\0")
    priority = md.Priority if md.Priority >= 0 else route.defprty
    persistence = md.Persistence
    if persistence == C.MQPER_PERSISTENCE_AS_Q_DEF:
        persistence = route.persistence
    extra = carried_fields(md, len(data)) or {}
    if not md.ReplyToQMgr:  # rules RPL-02, RPL-03
        extra["ReplyToQ"], extra["ReplyToQMgr"] = qm.reply_to(md.ReplyToQ)
    if extra.get("CodedCharSetId", C.MQCCSI_Q_MGR) in (C.MQCCSI_Q_MGR, C.MQCCSI_INHERIT):
        extra["CodedCharSetId"] = qm.ccsid  # rule MD-04
    ctx = {**qm.application_context(), "Persistence": persistence}
    target = QRemote(queue, rname=queue, rqmname=channel.target.name)
    wrapped, outer, outer_ctx, _ = transmission.wrap_for_transmission(
        qm,
        target,
        data,
        msgid,
        correlid,
        priority,
        remaining_tenths(received_by, now),
        extra,
        ctx,
        now,
    )
    qm.deliver(
        route,
        wrapped,
        {**outer, "Priority": priority, "CorrelId": correlid},
        deadline=min(reach_by, received_by),
        ctx=outer_ctx,
        xdeadline=received_by,
        msgid=msgid,
    )
    md.set(MsgId=msgid, **qm.application_context())
    md.PutDate, md.PutTime = qm.sim.stamp(now)
    if "ReplyToQMgr" in extra:
        md.ReplyToQMgr = extra["ReplyToQMgr"]
    return md


# -- EIP-04: Invalid Message Channel ---------------------------------------------------------------
@dataclass(frozen=True)
class Received:
    """A message a consumer holds: its MD and data as got, and when it got them.

    The consumer only knows the remaining Expiry it was told (rounded up to a tenth), so its
    deadline is ``got_ms + Expiry × 100`` ms, at most 99 ms after the queue manager's.
    """

    md: MD
    data: bytes
    got_ms: int

    @property
    def deadline_ms(self) -> int | None:
        """Virtual time at which the held message expires, None if never."""
        deadline = deadline_of(self.md.Expiry, self.got_ms)
        return None if deadline == NEVER else deadline

    def expired(self, now_ms: int) -> bool:
        deadline = self.deadline_ms
        return deadline is not None and is_expired(deadline, now_ms)

    def remaining_tenths(self, now_ms: int) -> int:
        """The Expiry left at ``now_ms`` (rounded up; 0 once expired; -1 unlimited)."""
        deadline = self.deadline_ms
        return remaining_tenths(NEVER if deadline is None else deadline, now_ms)


def receive(handle: Queue, gmo: GMO | None = None) -> Received | None:
    """MQGET on ``handle`` (version-2 MD), remembering when; None when no message is there."""
    md = MD(Version=C.MQMD_VERSION_2)
    try:
        data = handle.get(None, md, gmo)
    except MQMIError as error:
        if error.reason == C.MQRC_NO_MSG_AVAILABLE:
            return None
        raise
    return Received(md, data, handle.qm.sim.now)


class Consumed(NamedTuple):
    """What ``consume_or_reroute`` did: processed (with the handler's result), or rerouted."""

    processed: bool
    result: Any
    report: str | None  # where the expiration report went, when rerouted and one was asked for


class InvalidMessageChannel:
    """A queue where a consumer moves a message that expired while it held it (rule EIP-04).

    The message keeps its MsgId, CorrelId and original context (MQPMO_SET_ALL_CONTEXT) and gets an
    unlimited Expiry there, so it stays for inspection; its Report is cleared because the consumer
    has already sent the expiration report it asked for (RPT-08, ``mq.report_expired``).
    """

    def __init__(self, qm: QueueManager, queue: str) -> None:
        self.qm = qm
        self._queue = Queue(qm, queue)

    @property
    def name(self) -> str:
        return self._queue.name

    def reroute(self, message: Received) -> str | None:
        """Move ``message`` here and send its expiration report; returns where the report went."""
        md = message.md.copy()
        md.set(Expiry=C.MQEI_UNLIMITED, Report=C.MQRO_NONE)
        self._queue.put(message.data, md, PMO(Options=C.MQPMO_SET_ALL_CONTEXT))
        return report_expired(self.qm, message.md, message.data)

    def consume_or_reroute(
        self, message: Received, process: Callable[[MD, bytes], Any]
    ) -> Consumed:
        """Process a held message if it is still live now; if it has expired, reroute it."""
        if message.expired(self.qm.sim.now):
            return Consumed(False, None, self.reroute(message))
        return Consumed(True, process(message.md, message.data), None)


# -- EIP-06: request-reply with expiring messages and a requester timeout -------------------------
class ReplyOutcome(NamedTuple):
    """What a request came to: ``status`` "reply", "expired" (an expiration report about the
    request arrived, RPT-09) or "timeout" (nothing arrived: the requester cannot tell why)."""

    status: Literal["reply", "expired", "timeout"]
    data: bytes | None
    md: MD | None  # the reply's (or report's) descriptor
    request_md: MD
    waited_ms: int

    @property
    def timed_out(self) -> bool:
        return self.status == "timeout"


class Requester:
    """Puts requests (MsgType MQMT_REQUEST, ReplyToQ, Expiry) and waits for the answer (EIP-06).

    ``request`` waits with MQGMO_WAIT up to ``timeout_ms`` of virtual time for a message on the
    reply queue whose CorrelId is the request's MsgId: the reply (``reply_md`` sets that) or the
    request's own expiration report, when ``report`` asks for one. Timeouts are mandatory: an
    unanswered request is the normal case to design for.
    """

    def __init__(
        self,
        qm: QueueManager,
        request_queue: str,
        reply_queue: str,
        *,
        timeout_ms: int,
        expiry: int = C.MQEI_UNLIMITED,
        report: int = C.MQRO_NONE,
    ) -> None:
        self.qm = qm
        self._requests = Queue(qm, request_queue)
        self._replies = Queue(qm, reply_queue)
        self.timeout_ms = _ms("timeout_ms", timeout_ms, allow_zero=False)
        self.expiry = expiry
        self.report = report

    def request(
        self, data: bytes, *, expiry: int | None = None, timeout_ms: int | None = None
    ) -> ReplyOutcome:
        """Send one request and wait for its reply, its expiration report, or the timeout."""
        wait = (
            self.timeout_ms
            if timeout_ms is None
            else _ms("timeout_ms", timeout_ms, allow_zero=False)
        )
        md = MD(
            MsgType=C.MQMT_REQUEST,
            ReplyToQ=self._replies.name,
            Expiry=self.expiry if expiry is None else expiry,
            Report=self.report,
        )
        self._requests.put(data, md)
        start = self.qm.sim.now
        answer_md = MD(Version=C.MQMD_VERSION_2, CorrelId=md.MsgId)
        gmo = GMO(
            Version=C.MQGMO_VERSION_2,
            Options=C.MQGMO_WAIT | C.MQGMO_NO_SYNCPOINT,
            WaitInterval=wait,
            MatchOptions=C.MQMO_MATCH_CORREL_ID,
        )
        try:
            answer = self._replies.get(None, answer_md, gmo)
        except MQMIError as error:
            if error.reason != C.MQRC_NO_MSG_AVAILABLE:
                raise
            return ReplyOutcome("timeout", None, None, md, self.qm.sim.now - start)
        expired = answer_md.MsgType == C.MQMT_REPORT and answer_md.Feedback == C.MQFB_EXPIRATION
        status: Literal["reply", "expired"] = "expired" if expired else "reply"
        return ReplyOutcome(status, answer, answer_md, md, self.qm.sim.now - start)


class Replier:
    """Serves a request queue: each message goes to ``handler(md, data)``; requests are answered
    with its result through ``mq.reply_md`` (RPL-01), ``service_ms`` after they were got.

    ``reply_expiry`` is reply_md's choice: "copy" (the request's Expiry left at reply time),
    "unlimited" or tenths. A request that expires while being served is not answered: it goes to
    ``invalid`` (an InvalidMessageChannel) if given, and its expiration report is sent (RPT-08).
    ``start()`` polls the queue every ``poll_ms`` on the virtual clock, as housekeeping: an
    MQWI_UNLIMITED wait elsewhere does not count on it.
    """

    def __init__(
        self,
        qm: QueueManager,
        request_queue: str,
        handler: Callable[[MD, bytes], bytes],
        *,
        reply_expiry: Literal["copy", "unlimited"] | int = "copy",
        service_ms: int = 0,
        poll_ms: int = MS_PER_TENTH,
        invalid: InvalidMessageChannel | None = None,
    ) -> None:
        self.qm = qm
        self._queue = Queue(qm, request_queue)
        self.handler = handler
        reply_md(MD(), reply_expiry)  # checks the choice now rather than at the first reply
        self.reply_expiry = reply_expiry
        self.service_ms = _ms("service_ms", service_ms, allow_zero=True)
        self.poll_ms = _ms("poll_ms", poll_ms, allow_zero=False)
        self.invalid = invalid
        self.replied = 0
        self.expired = 0
        self._poll: Scheduled | None = None

    @property
    def running(self) -> bool:
        return self._poll is not None

    def start(self) -> None:
        """Serve now and then every ``poll_ms``."""
        if self._poll is None:
            self._tick()

    def stop(self) -> None:
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None

    def _tick(self) -> None:
        self.serve()
        self._poll = self.qm.sim.schedule(self.poll_ms, self._tick, daemon=True)

    def serve(self) -> int:
        """Take every message available now; returns how many were taken."""
        taken = 0
        while (message := receive(self._queue)) is not None:
            taken += 1
            if self.service_ms:
                self.qm.sim.schedule(self.service_ms, partial(self._answer, message))
            else:
                self._answer(message)
        return taken

    def _answer(self, message: Received) -> None:
        now = self.qm.sim.now
        if message.expired(now):
            self.expired += 1
            if self.invalid is not None:
                self.invalid.reroute(message)
            else:
                report_expired(self.qm, message.md, message.data)
            return
        result = self.handler(message.md, message.data)
        if message.md.MsgType != C.MQMT_REQUEST:
            return
        request = message.md.copy()
        request.Expiry = message.remaining_tenths(now)
        Queue(self.qm, request.ReplyToQ).put(result, reply_md(request, self.reply_expiry))
        self.replied += 1
