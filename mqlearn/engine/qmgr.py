"""The queue manager: definitions, MQPUT/MQGET, units of work, expiry discards and scans.

One QueueManager is one connection's view of one queue manager (so one unit of work at a time).
Messages the queue manager creates itself (reports, dead letters, trigger messages, channel
arrivals) go through :meth:`QueueManager.deliver`; what decides their contents lives in
:mod:`mqlearn.engine.delivery`. Semantics and choices: docs/engine.md.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from mqlearn.engine import delivery
from mqlearn.engine.definitions import Definitions, Route
from mqlearn.engine.descriptor import (
    CONTEXT_FIELDS,
    IDENTITY_FIELDS,
    carried_fields,
    fill_md,
    md_extension,
    stored_extra,
)
from mqlearn.engine.events import Event, events_frame
from mqlearn.engine.message import (
    AVAILABLE,
    GOT_IN_UOW,
    REMOVED,
    UNCOMMITTED_PUT,
    Message,
)
from mqlearn.engine.objects import QLocal, QRemote, QueueDefinition, check_name
from mqlearn.engine.pubsub import PubSub
from mqlearn.engine.rule_formulas import (
    NEVER,
    capped_deadline,
    capped_expiry,
    deadline_of,
    exceeds_maxprty,
    is_expired,
    put_priority,
    remaining_tenths,
)
from mqlearn.engine.rule_formulas import (
    lane as ordering_lane,
)
from mqlearn.engine.simulation import Scheduled, Simulation
from mqlearn.engine.validate import (
    SIMPLE_MD,
    SYNC_DEFAULT,
    SYNC_IF_PERSISTENT,
    SYNC_NO,
    SYNC_YES,
    GetOptions,
    check_expiry,
    check_gmo,
    check_pmo,
    check_put_md,
    check_simple_md,
    fail,
    message_bytes,
    put_descriptors,
)
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError, MQWarning
from mqlearn.mqi.structs import GMO, MD, PMO

if TYPE_CHECKING:
    import pandas as pd

    from mqlearn.engine.handle import Queue

PROFILES = ("distributed", "zos", "ibmi")
# time, queue, kind, msgid, message seq, priority, deadline, cause, reason, detail
RawEvent = tuple[int, str, str, bytes | None, int | None, int | None, int | None, str, int, str]
DEFAULT_EXPIRY_TASK_SECONDS = 300  # distributed and IBM i: qm.ini TuningParameters ExpiryInterval
EXPIRY_TASK_PROFILES = ("distributed", "ibmi")  # an expiry task from creation (rule EXP-28)
# The queue manager's CodedCharSetId per profile (rule MD-04; docs/engine.md says why these values)
DEFAULT_CCSID = {"distributed": 1208, "zos": 500, "ibmi": 37}
ENFORCE_ENV = "AMQ_ENFORCE_MAX_EXPIRY_ERROR"
_PUT_INHIBITED = C.MQRC_PUT_INHIBITED
_Q_FULL = C.MQRC_Q_FULL
_XQH = C.MQFMT_XMIT_Q_HEADER
_CCSI_Q_MGR = C.MQCCSI_Q_MGR
_CCSI_INHERIT = C.MQCCSI_INHERIT
_PRIORITY_EXCEEDS_MAXIMUM = C.MQRC_PRIORITY_EXCEEDS_MAXIMUM
_PERSISTENCE_AS_Q_DEF = C.MQPER_PERSISTENCE_AS_Q_DEF
_PMO_SYNCPOINT = C.MQPMO_SYNCPOINT
_PMO_NO_SYNCPOINT = C.MQPMO_NO_SYNCPOINT
_PMO_NEW_MSG_ID = C.MQPMO_NEW_MSG_ID
_PMO_NEW_CORREL_ID = C.MQPMO_NEW_CORREL_ID
_MI_NONE = C.MQMI_NONE
_CI_NONE = C.MQCI_NONE
_NO_GMO = GMO()  # stands for "gmo=None"; never written to
_SET_CONTEXT = C.MQPMO_NO_CONTEXT | C.MQPMO_SET_ALL_CONTEXT | C.MQPMO_SET_IDENTITY_CONTEXT
BROWSE_OPTIONS = C.MQGMO_BROWSE_FIRST | C.MQGMO_BROWSE_NEXT | C.MQGMO_BROWSE_MSG_UNDER_CURSOR
EXPIRED_ACTIONS = ("discard", "dead-letter")  # rule EIP-04; IBM MQ discards


class QueueManager(PubSub, Definitions):
    """A simulated IBM MQ queue manager on a virtual clock (see docs/engine.md)."""

    _expired_action = "discard"

    def __init__(
        self,
        name: str,
        sim: Simulation | None = None,
        *,
        profile: str = "distributed",
        enforce_max_expiry: bool | None = None,
        record_events: bool = True,
    ) -> None:
        self.name = check_name(name, "queue manager name")
        if profile not in PROFILES:
            raise ValueError(f"profile must be one of {', '.join(PROFILES)}, got {profile!r}")
        self.profile = profile
        self.sim = sim if sim is not None else Simulation()
        self.enforce_max_expiry = (
            ENFORCE_ENV in os.environ if enforce_max_expiry is None else bool(enforce_max_expiry)
        )
        self.record_events = record_events
        self.objects: dict[str, QueueDefinition] = {}
        self.deadq: str | None = None
        self.maxprty = 9
        self._log: list[RawEvent] = []  # converted to Event lazily (the hot path only appends)
        self._events: list[Event] = []
        self._msgids = 0  # MsgId counter
        self._seq = 0  # arrival order
        self._msgid_prefix = b"AMQ " + name.encode("ascii")[:12].ljust(12)
        self._uow: list[tuple[str, QLocal, Message]] = []
        self._routes: dict[str, Route] = {}
        self._xmit_listeners: dict[str, list[Callable[[], None]]] = {}
        self._ctx_default = self._context(C.MQAT_UNIX, "mqlearn", "mqlearn")
        self._ctx_qmgr = self._context(C.MQAT_QMGR, "mqlearn", self.name[:28])
        self.ccsid = DEFAULT_CCSID[profile]
        self._shared: dict[int, dict[str, Any]] = {}
        self._share_put_fields()
        self.expryint = DEFAULT_EXPIRY_TASK_SECONDS if profile in EXPIRY_TASK_PROFILES else 0
        self._expiry_task: Scheduled | None = None
        self._schedule_expiry_task()

    def __repr__(self) -> str:
        return f"<QueueManager {self.name} ({self.profile}) at {self.sim.now} ms>"

    # ---------------------------------------------------------------------------------------------
    # definitions
    def alter_qmgr(
        self,
        *,
        deadq: str | None = None,
        maxprty: int | None = None,
        expryint: int | None = None,
        ccsid: int | None = None,
    ) -> None:
        """ALTER QMGR DEADQ / MAXPRTY / EXPRYINT (expiry scan interval in seconds, 0 = off) / CCSID.

        ``expryint`` is EXPRYINT on z/OS and the expiry task's qm.ini ExpiryInterval on
        distributed and IBM i (rule EXP-28). ``ccsid`` is the queue manager's CodedCharSetId
        (1..65535), which puts use for MQCCSI_Q_MGR from then on (rule MD-04); messages already
        queued keep the CCSID they were put with.
        """
        if maxprty is not None and (type(maxprty) is not int or not 0 <= maxprty <= 9):
            raise ValueError(f"MAXPRTY must be an int in 0..9, got {maxprty!r}")
        if expryint is not None and (type(expryint) is not int or not 0 <= expryint <= 99_999_999):
            raise ValueError(f"EXPRYINT must be seconds in 0..99999999, got {expryint!r}")
        if ccsid is not None and (type(ccsid) is not int or not 1 <= ccsid <= 65_535):
            raise ValueError(f"CCSID must be an int in 1..65535, got {ccsid!r}")
        if deadq is not None:
            self.deadq = check_name(deadq, "DEADQ") if deadq else None
        if maxprty is not None:
            self.maxprty = maxprty
        if expryint is not None:
            self.expryint = expryint
            self._schedule_expiry_task()
        if ccsid is not None:
            self.ccsid = ccsid
            self._share_put_fields()

    def _share_put_fields(self) -> None:
        """The descriptor fields shared by every message an application puts with the default
        context: the context, Persistence, and what the put fills in for the MQMD's initial
        values: CodedCharSetId MQCCSI_Q_MGR → this queue manager's CCSID (rule MD-04) and a blank
        ReplyToQMgr → this queue manager's name (rule RPL-03)."""
        self._shared = {
            p: {**self._ctx_default, **self._put_defaults(), "Persistence": p} for p in (0, 1)
        }

    def _put_defaults(self) -> dict[str, Any]:
        return {"CodedCharSetId": self.ccsid, "ReplyToQMgr": self.name}

    # ---------------------------------------------------------------------------------------------
    # ids, context, events
    def new_msgid(self) -> bytes:
        """A unique, deterministic MsgId: "AMQ " + the queue manager name + a counter."""
        self._msgids += 1
        return self._msgid_prefix + self._msgids.to_bytes(8, "big")

    def _context(self, appl_type: int, user: str, appl_name: str) -> dict[str, Any]:
        return {"UserIdentifier": user, "PutApplType": appl_type, "PutApplName": appl_name}

    def application_context(self) -> dict[str, Any]:
        """Context of a message an application puts with MQPMO_DEFAULT_CONTEXT."""
        return self._ctx_default

    def qmgr_context(self, identity: dict[str, Any] | None = None) -> dict[str, Any]:
        """Context of a message the queue manager puts itself (reports, dead letters)."""
        if identity is None:
            return self._ctx_qmgr
        return {**self._ctx_qmgr, **identity}

    def log(
        self,
        queue: str,
        kind: str,
        message: Message | None = None,
        cause: str = "",
        reason: int = 0,
        detail: str = "",
    ) -> None:
        """Record an event (docs/engine.md, "The event log")."""
        if not self.record_events:
            return
        if message is None:
            self._log.append(
                (self.sim.now, queue, kind, None, None, None, None, cause, reason, detail)
            )
        else:
            self._log.append(
                (
                    self.sim.now,
                    queue,
                    kind,
                    message.msgid,
                    message.seq,
                    message.priority,
                    message.deadline,
                    cause,
                    reason,
                    detail,
                )
            )

    @property
    def events(self) -> list[Event]:
        """The event log as Event named tuples (``expiry`` = remaining tenths at that time)."""
        events, log = self._events, self._log
        for raw in log[len(events) :]:
            time, queue, kind, msgid, msg_seq, priority, deadline, cause, reason, detail = raw
            expiry = None if deadline is None else remaining_tenths(deadline, time)
            events.append(
                Event(
                    len(events),
                    time,
                    self.name,
                    queue,
                    kind,
                    msgid,
                    msg_seq,
                    priority,
                    expiry,
                    cause,
                    reason,
                    detail,
                )
            )
        return events

    def events_frame(self) -> pd.DataFrame:
        """The event log as a pandas DataFrame (docs/engine.md, "The event log")."""
        return events_frame(self.events)

    def queue_frame(self, name: str) -> pd.DataFrame:
        """One row per message on a local queue, in delivery order."""
        from mqlearn.engine.frames import queue_frame

        return queue_frame(self, self.local(name))

    # ---------------------------------------------------------------------------------------------
    # MQPUT
    def put(
        self,
        name: str,
        data: object,
        md: MD | None = None,
        pmo: PMO | None = None,
        *,
        suppress_reply_to: bool = False,
    ) -> int:
        """MQPUT (or MQPUT1) to a queue name; returns the reason code of a warning (0 if none).

        This is the hot path of every simulation, so the common case (an MD that sets at most
        Expiry and Priority, a PMO without context or syncpoint options) is checked inline.
        ``suppress_reply_to``: a publication's copy under MQPMO_SUPPRESS_REPLYTO, whose blank
        ReplyToQ and ReplyToQMgr stay blank (docs/patterns.md).
        """
        if type(data) is not bytes:
            data = message_bytes(data)
        md = put_descriptors(md, pmo)
        try:
            route = self.route(name)
            options = check_pmo(pmo) if pmo is not None and pmo.__dict__ else 0
            d = md.__dict__
            if d.keys() <= SIMPLE_MD:
                expiry, priority = check_simple_md(d, self.enforce_max_expiry)
                extra = None
            else:
                check_put_md(md, self.enforce_max_expiry)
                expiry, priority = md.Expiry, md.Priority
                extra = carried_fields(md)
            self._check_room(route)
            if route.direct_xmit and md.Format == _XQH:
                self._check_direct_xqh(data, md)
        except MQMIError as error:
            self.log(name, "failed", cause="put", reason=error.reason, detail=error.detail)
            raise

        now = self.sim.now
        expiry = capped_expiry(expiry, route.cap)  # EXP-06: md keeps the application's Expiry
        priority = put_priority(priority, route.defprty)  # MD-02
        warning = _PRIORITY_EXCEEDS_MAXIMUM if exceeds_maxprty(priority, self.maxprty) else 0
        persistence = md.Persistence
        if persistence == _PERSISTENCE_AS_Q_DEF:
            persistence = route.persistence
        syncpoint = options & _PMO_SYNCPOINT or (
            self.profile == "zos" and not options & _PMO_NO_SYNCPOINT
        )

        msgid = md.MsgId
        if msgid == _MI_NONE or options & _PMO_NEW_MSG_ID:
            msgid = self.new_msgid()
        elif len(msgid) != 24:
            msgid = msgid.ljust(24, b"\0")
        correlid = md.CorrelId
        if options & _PMO_NEW_CORREL_ID:
            correlid = self.new_msgid()
        elif len(correlid) != 24:
            correlid = correlid.ljust(24, b"\0")
        if extra is not None and extra.get("CodedCharSetId") == _CCSI_INHERIT:
            extra["CodedCharSetId"] = self.ccsid  # rule MD-04 (MQCCSI_Q_MGR: in the shared fields)
        reply_qmgr = md.ReplyToQMgr
        fill_reply_qmgr = not reply_qmgr and not suppress_reply_to
        if fill_reply_qmgr:  # rule RPL-03: the shared fields carry this queue manager's name
            reply_q = md.ReplyToQ
            if reply_q:  # rule RPL-02
                reply_q, reply_qmgr = self.reply_to(reply_q)
                if reply_qmgr != self.name or reply_q != md.ReplyToQ:
                    extra = extra or {}
                    extra["ReplyToQMgr"] = reply_qmgr
                    extra["ReplyToQ"] = reply_q
            else:
                reply_qmgr = self.name
        elif suppress_reply_to and not reply_qmgr:
            extra = extra or {}
            extra["ReplyToQMgr"] = ""  # not the shared fields' name
        if options & _SET_CONTEXT:
            shared = {
                **self._put_context(md, options),
                **self._put_defaults(),
                "Persistence": persistence,
            }
        else:
            shared = self._shared[persistence]

        deadline = deadline_of(expiry, now)
        xdeadline = None
        if route.remote is not None:  # rule XQH-01
            data, extra, shared, xdeadline = delivery.wrap_for_transmission(
                self, route.remote, data, msgid, correlid, priority, expiry, extra, shared, now
            )
        elif md.Format == _XQH:  # any queue: rule XQH-03 says "from any queue"
            xdeadline = delivery.embedded_deadline(data, md.Encoding, now)
        local = route.local
        state = UNCOMMITTED_PUT if syncpoint else AVAILABLE
        message = self._enqueue(
            local, priority, deadline, msgid, correlid, data, shared, extra, state, xdeadline
        )

        d["MsgId"] = msgid  # the output fields of MQPUT
        if options & _PMO_NEW_CORREL_ID:
            d["CorrelId"] = correlid
        if not options & _SET_CONTEXT:
            d.update(self._ctx_default)
            d["PutDate"], d["PutTime"] = self.sim.stamp(now)
        if fill_reply_qmgr:
            d["ReplyToQMgr"] = reply_qmgr

        if self.record_events:
            detail = f"to {route.remote.rname} at {route.remote.rqmname}" if route.remote else ""
            self.log(local.name, "put", message, "syncpoint" if syncpoint else "", warning, detail)
        if syncpoint:
            self._uow.append(("put", local, message))
            if local.trigger:  # rule TRG-03: the condition is evaluated now, uncommitted or not
                delivery.maybe_trigger(self, local, message, in_uow=True)
        elif local.trigger or local.usage == "XMITQ":
            self.arrived(local, message)
        if warning:
            warnings.warn(
                MQWarning(
                    f"MQCC_WARNING MQRC_PRIORITY_EXCEEDS_MAXIMUM (2049): Priority {md.Priority} is "
                    f"above MAXPRTY {self.maxprty}; queued at {self.maxprty}"
                ),
                stacklevel=3,
            )
        return warning

    def put1(self, name: str, data: object, md: MD | None = None, pmo: PMO | None = None) -> None:
        """MQPUT1: open, put one message, close (warnings: see ``last_reason`` on a Queue)."""
        self.put(name, data, md, pmo)

    def _lane(self, local: QLocal, priority: int) -> int:
        """The priority a message is ordered at on ``local`` (rule MD-02)."""
        return ordering_lane(priority, self.maxprty, local.msgdlvsq == "FIFO", local.defprty)

    def _put_context(self, md: MD, options: int) -> dict[str, Any]:
        """Context of an application put with MQPMO_NO_CONTEXT / SET_IDENTITY / SET_ALL."""
        if options & C.MQPMO_NO_CONTEXT:
            return {"PutApplType": C.MQAT_NO_CONTEXT, "PutDate": "", "PutTime": ""}
        if options & C.MQPMO_SET_IDENTITY_CONTEXT:
            return {**self._ctx_default, **{n: getattr(md, n) for n in IDENTITY_FIELDS}}
        return {n: getattr(md, n) for n in CONTEXT_FIELDS}

    def reply_to(self, reply_to_q: str) -> tuple[str, str]:
        """(ReplyToQ, ReplyToQMgr) that MQPUT sends when the MD names a ReplyToQ and leaves
        ReplyToQMgr blank (rule RPL-02): a local definition of a remote queue named ``reply_to_q``
        gives its RNAME and RQMNAME; otherwise ReplyToQ is unchanged and ReplyToQMgr is this queue
        manager's name."""
        definition = self.objects.get(reply_to_q) if reply_to_q else None
        if isinstance(definition, QRemote):
            return definition.rname, definition.rqmname
        return reply_to_q, self.name

    def _check_direct_xqh(self, data: bytes, md: MD) -> None:
        """Rule XQH-02: a hand-built MQXQH on a direct put to a transmission queue."""
        if self.profile == "ibmi":
            return  # the IBM i text: neither the embedded Expiry nor the length is checked
        if len(data) < delivery.XQH_EXPIRY_END:
            raise fail(C.MQRC_EXPIRY_ERROR, "data too short to hold the MQXQH's embedded Expiry")
        embedded = delivery.embedded_expiry(data, md.Encoding)
        check_expiry(embedded, self.enforce_max_expiry, "embedded MQXQH Expiry")
        outer = md.Expiry
        if outer != -1 and (embedded == -1 or embedded > outer):
            raise fail(
                C.MQRC_EXPIRY_ERROR,
                f"embedded Expiry {embedded} outlives the message's own Expiry {outer}",
            )

    def deliver(
        self,
        route: Route,
        data: bytes,
        fields: dict[str, Any],
        *,
        deadline: int,
        ctx: dict[str, Any],
        xdeadline: int | None = None,
        msgid: bytes | None = None,
        in_uow: bool = False,
    ) -> Message:
        """A put by the queue manager itself (no MQMD checks).

        ``fields`` holds the descriptor fields to keep (Report, Format, ...; Priority, CorrelId and
        MsgId are taken out of it). CodedCharSetId MQCCSI_Q_MGR or MQCCSI_INHERIT becomes this
        queue manager's CCSID, as on any put (rule MD-04). Raises MQMIError when the queue cannot
        take the message. ``in_uow``: a trigger message caused by a put in the open unit of work
        (rule TRG-03), which becomes available when that unit of work ends, committed or backed
        out; every other message the queue manager puts is outside any unit of work.
        """
        self._check_room(route)
        extra = stored_extra(fields)
        if fields.get("CodedCharSetId", _CCSI_Q_MGR) in (_CCSI_Q_MGR, _CCSI_INHERIT):
            extra = extra or {}
            extra["CodedCharSetId"] = self.ccsid
        priority = put_priority(fields.get("Priority", -1), route.defprty)
        correlid = fields.get("CorrelId", C.MQCI_NONE)
        msgid = msgid or self.new_msgid()
        now = self.sim.now
        deadline = capped_deadline(deadline, route.cap, now)
        if route.remote is not None:
            expiry = remaining_tenths(deadline, now)
            data, extra, ctx, xdeadline = delivery.wrap_for_transmission(
                self, route.remote, data, msgid, correlid, priority, expiry, extra, ctx, now
            )
        elif fields.get("Format") == C.MQFMT_XMIT_Q_HEADER and xdeadline is None:
            encoding = fields.get("Encoding", C.MQENC_NATIVE)
            xdeadline = delivery.embedded_deadline(data, encoding, now)
        local = route.local
        state = UNCOMMITTED_PUT if in_uow else AVAILABLE
        message = self._enqueue(
            local, priority, deadline, msgid, correlid, data, ctx, extra, state, xdeadline
        )
        if in_uow:
            self.log(local.name, "put", message, "qmgr", detail="in the unit of work")
            self._uow.append(("trigger", local, message))
        else:
            self.log(local.name, "put", message, "qmgr")
            self.arrived(local, message)
        return message

    def _check_room(self, route: Route, planned: int = 0) -> None:
        """PUT(DISABLED) anywhere on the path (2051), or the queue at MAXDEPTH (2053, EXP-25).

        ``planned`` counts messages already bound for the same queue but not yet put (the other
        copies of one publication).
        """
        if route.inhibited is not None:
            raise fail(_PUT_INHIBITED, f"{route.inhibited} is PUT(DISABLED)")
        local = route.local
        if local.store.depth + planned >= local.maxdepth:
            raise fail(_Q_FULL, f"{local.name} holds MAXDEPTH={local.maxdepth} messages")

    def _enqueue(
        self,
        local: QLocal,
        priority: int,
        deadline: int,
        msgid: bytes,
        correlid: bytes,
        data: bytes,
        shared: dict[str, Any],
        extra: dict[str, Any] | None,
        state: int,
        xdeadline: int | None,
    ) -> Message:
        """Store a new message at the end of its lane, in arrival order."""
        self._seq += 1
        lane = self._lane(local, priority)
        message = Message(
            self._seq,
            lane,
            priority,
            deadline,
            self.sim.now,
            msgid,
            correlid,
            data,
            shared,
            extra,
            state,
            xdeadline,
        )
        local.store.add(message)
        return message

    def arrived(self, local: QLocal, message: Message) -> None:
        """A message arrived outside any unit of work: triggers and waiting channels."""
        if local.trigger:
            delivery.maybe_trigger(self, local, message)
        if local.is_xmitq:
            self._wake_channels(local)

    def _wake_channels(self, local: QLocal) -> None:
        """A message became available on a transmission queue: wake the channels serving it."""
        for wake in self._xmit_listeners.get(local.name, ()):
            wake()

    def listen(self, xmitq: str, wake: Callable[[], None]) -> None:
        """Call ``wake`` whenever a message becomes available on a transmission queue."""
        self._xmit_listeners.setdefault(xmitq, []).append(wake)

    # ---------------------------------------------------------------------------------------------
    # MQGET
    def get(
        self,
        handle: Queue,
        local: QLocal,
        max_length: int | None,
        md: MD | None,
        gmo: GMO | None,
    ) -> bytes:
        """MQGET on an open handle (browse, lock, cursor, wait, syncpoint: docs/engine.md)."""
        if md is None:
            md = MD()
        elif type(md) is not MD:
            raise TypeError(f"md must be an mqlearn MD, got {type(md).__name__}")
        if gmo is None:
            gmo = _NO_GMO
        elif type(gmo) is not GMO:
            raise TypeError(f"gmo must be an mqlearn GMO, got {type(gmo).__name__}")
        if max_length is not None and (type(max_length) is not int or max_length < 0):
            raise ValueError(f"max_length must be a non-negative int or None, got {max_length!r}")
        try:
            opts = check_gmo(gmo)
            if local.get == "DISABLED":
                raise fail(C.MQRC_GET_INHIBITED, f"{local.name} is GET(DISABLED)")
            if opts.unlock:
                self._unlock(handle)
                handle.last_comp, handle.last_reason = C.MQCC_OK, C.MQRC_NONE
                return b""
            message = self._find(handle, local, md, opts)
            if message is None:
                message = self._wait(handle, local, md, opts)
            now = self.sim.now
            data = message.data
            if message.xdeadline is not None:  # rules XQH-03, XQH-05
                data = delivery.decrement_embedded(data, message, now)
            extension = None
            if message.extra is not None and md.Version < C.MQMD_VERSION_2:
                mde = md_extension(message)  # rule MD-07
                if mde is not None:
                    data = mde + data
                    extension = self.ccsid  # the MQMDE is in the queue manager's CCSID
            warning = 0
            if max_length is not None and len(data) > max_length:
                if not opts.accept_truncated:
                    fill_md(md, message, now, self.sim, extension)
                    raise MQMIError(
                        C.MQCC_WARNING,
                        C.MQRC_TRUNCATED_MSG_FAILED,
                        f"message is {len(data)} bytes, buffer {max_length}",
                    )
                data, warning = data[:max_length], C.MQRC_TRUNCATED_MSG_ACCEPTED
        except MQMIError as error:
            cause = "browse" if gmo.Options & BROWSE_OPTIONS else "get"
            self.log(local.name, "failed", cause=cause, reason=error.reason, detail=error.detail)
            raise
        fill_md(md, message, now, self.sim, extension)
        if opts.browse:
            handle.cursor_message = message
            if opts.lock:
                handle.lock(message)
            self.log(local.name, "browse", message, "lock" if opts.lock else "")
        else:
            if message.locker is not None:
                handle.locked = message.locker = None
            sync = opts.sync
            if sync == SYNC_DEFAULT:
                sync = SYNC_YES if self.profile == "zos" else SYNC_NO
            elif sync == SYNC_IF_PERSISTENT:
                sync = SYNC_YES if md.Persistence == C.MQPER_PERSISTENT else SYNC_NO
            if sync == SYNC_YES:
                local.store.hold(message)
                self._uow.append(("get", local, message))
                self.log(local.name, "get", message, "syncpoint")
            else:
                local.store.remove(message)
                self.log(local.name, "get", message)
        handle.last_reason = warning
        handle.last_comp = C.MQCC_WARNING if warning else C.MQCC_OK
        return data

    def _find(self, handle: Queue, local: QLocal, md: MD, opts: GetOptions) -> Message | None:
        """The message this call would return, discarding expired ones met on the way."""
        if opts.position:
            if opts.under_cursor or opts.browse == C.MQGMO_BROWSE_MSG_UNDER_CURSOR:
                return self._under_cursor(handle, local)
            if opts.browse == C.MQGMO_BROWSE_FIRST:  # back before the first message, found or not
                handle.cursor_message = None
            cursor = handle.cursor_message
            after = None if cursor is None else (cursor.lane, cursor.seq)
        else:
            after = None
        msgid = md.MsgId if opts.match_msgid else None
        if msgid == _MI_NONE:
            msgid = None
        correlid = md.CorrelId if opts.match_correlid else None
        if correlid == _CI_NONE:
            correlid = None
        if msgid is None and correlid is None and after is None:
            message, expired = local.store.first_live(self.sim.now, handle)
        else:
            message, expired = local.store.first_live_matching(
                self.sim.now, handle, msgid, correlid, after
            )
        if expired:
            cause = "browse" if opts.browse else "get"
            for old in expired:
                self.discard(local, old, cause)
        return message

    def _under_cursor(self, handle: Queue, local: QLocal) -> Message:
        message = handle.cursor_message
        if message is None or message.state != AVAILABLE:
            raise fail(C.MQRC_NO_MSG_UNDER_CURSOR, "no message under the browse cursor")
        if is_expired(message.deadline, self.sim.now):  # rule LCK-01
            self.discard(local, message, "cursor")
            raise fail(
                C.MQRC_NO_MSG_UNDER_CURSOR, "the message under the cursor expired and was discarded"
            )
        return message

    def _wait(self, handle: Queue, local: QLocal, md: MD, opts: GetOptions) -> Message:
        """MQGMO_WAIT on the virtual clock: run scheduled actions until a message is there."""
        sim = self.sim
        wait = opts.wait_ms
        if wait is None or opts.under_cursor or opts.browse == C.MQGMO_BROWSE_MSG_UNDER_CURSOR:
            raise fail(C.MQRC_NO_MSG_AVAILABLE, self._nothing(local))
        until = None if wait == C.MQWI_UNLIMITED else sim.now + wait
        while True:
            nxt = sim.peek(include_daemons=until is not None)
            if nxt is None and until is None:
                raise fail(C.MQRC_NO_MSG_AVAILABLE, "unlimited wait: nothing else can happen")
            last = until is not None and (nxt is None or nxt > until)
            step_to = until if last else nxt
            assert step_to is not None
            sim.run_until(step_to)
            message = self._find(handle, local, md, opts)
            if message is not None:
                return message
            if last:
                raise fail(C.MQRC_NO_MSG_AVAILABLE, f"waited {wait} ms: " + self._nothing(local))

    def _nothing(self, local: QLocal) -> str:
        depth = local.store.depth
        return f"no live message on {local.name} (CURDEPTH {depth})" if depth else "queue is empty"

    def _unlock(self, handle: Queue) -> None:
        """MQGMO_UNLOCK; 2209 (a warning) when no message is locked: none was, or the locked one
        has left the queue since (rule LCK-02: expired and discarded under the cursor, or got)."""
        locked = handle.locked
        if locked is None:
            raise MQMIError(C.MQCC_WARNING, C.MQRC_NO_MSG_LOCKED, "this handle holds no lock")
        handle.locked = None
        if locked.state == REMOVED or locked.locker is not handle:
            raise MQMIError(
                C.MQCC_WARNING,
                C.MQRC_NO_MSG_LOCKED,
                "the message this handle locked is no longer on the queue: no message is locked",
            )
        locked.locker = None

    # ---------------------------------------------------------------------------------------------
    # expiry
    def discard(self, local: QLocal, message: Message, cause: str) -> None:
        """Discard an expired message and send its expiration report (rules EXP-21, RPT-02, EXP-29).

        Never part of a unit of work: a message got earlier in the open unit of work is not
        involved, and the report is put at once.
        """
        local.store.remove(message)
        self.log(local.name, "discard", message, cause)
        if self._expired_action == "dead-letter" and local.name != self.deadq:
            self._dead_letter_expired(local, message)
        if message.extra is not None:  # Report and Format live there when not initial values
            delivery.expiration_report(self, local, message)

    @property
    def expired_action(self) -> str:
        """What a discard does with an expired message (rule EIP-04): ``"discard"`` (IBM MQ,
        the default) or ``"dead-letter"`` (the EIP Dead Letter Channel, for comparison)."""
        return self._expired_action

    @expired_action.setter
    def expired_action(self, value: str) -> None:
        if value not in EXPIRED_ACTIONS:
            raise ValueError(f"expired_action must be one of {EXPIRED_ACTIONS}, got {value!r}")
        self._expired_action = value

    def _dead_letter_expired(self, local: QLocal, message: Message) -> None:
        """EIP-04 "dead-letter": the expired message goes to DEADQ behind an MQDLH whose Reason
        is MQFB_EXPIRATION, with an unlimited lifetime there (so it is kept, not expired again).
        Without a DEADQ that takes it, it is simply discarded, as IBM MQ does."""
        fields, data, _, header = delivery.original(self, message)
        dest_q, dest_qmgr = local.name, self.name
        if header is not None:
            dest_q, dest_qmgr = header.RemoteQName, header.RemoteQMgrName
        ctx = {name: fields[name] for name in CONTEXT_FIELDS}
        delivery.dead_letter(self, data, fields, ctx, NEVER, C.MQFB_EXPIRATION, dest_q, dest_qmgr)

    def scan(self, queues: Iterator[QLocal] | None = None, cause: str = "scan") -> int:
        """Discard every expired message on the given local queues (all by default)."""
        now = self.sim.now
        total = 0
        for local in list(self.local_queues() if queues is None else queues):
            if not local.store.has_due(now):
                continue  # nothing worth scanning (the z/OS wording)
            for message in local.store.due(now):
                self.discard(local, message, cause)
                total += 1
        self.log("", "scan", cause=cause, detail=f"{total} expired message(s) discarded")
        return total

    def refresh_expiry(self, generic: str = "*") -> int:
        """REFRESH QMGR TYPE(EXPIRY) NAME(generic): z/OS only; returns how many were discarded."""
        if self.profile != "zos":
            raise fail(
                C.MQRC_FUNCTION_NOT_SUPPORTED,
                "REFRESH QMGR TYPE(EXPIRY) is a z/OS command (use profile='zos')",
            )
        prefix = generic[:-1] if generic.endswith("*") else None
        queues = (
            q
            for q in self.local_queues()
            if (q.name.startswith(prefix) if prefix is not None else q.name == generic)
        )
        return self.scan(queues, cause="refresh")

    def _schedule_expiry_task(self) -> None:
        if self._expiry_task is not None:
            self._expiry_task.cancel()
            self._expiry_task = None
        if self.expryint:
            self._expiry_task = self.sim.schedule(
                self.expryint * 1000, self._expiry_tick, daemon=True
            )

    def _expiry_tick(self) -> None:
        self._expiry_task = None
        self.scan()
        self._schedule_expiry_task()

    # ---------------------------------------------------------------------------------------------
    # units of work and depth
    def commit(self) -> None:
        """MQCMIT: uncommitted puts become available, syncpoint gets leave for good.

        Trigger messages the unit of work caused become available too (rule TRG-03); the puts
        themselves triggered, or not, when they were made.
        """
        work, self._uow = self._uow, []
        for op, local, message in work:
            if op == "put" and message.state == UNCOMMITTED_PUT:
                local.store.release(message)
                if local.is_xmitq:
                    self._wake_channels(local)
            elif op == "get" and message.state == GOT_IN_UOW:
                local.store.remove(message)
            elif op == "trigger":
                self._trigger_available(local, message)
        self.log("", "commit", detail=f"{len(work)} operation(s)")

    def backout(self) -> None:
        """MQBACK: uncommitted puts vanish; got messages return in place, BackoutCount + 1 (UOW-01).

        Messages discarded for expiry during the unit of work stay discarded (UOW-02). Trigger
        messages the unit of work caused are not withdrawn: they become available (TRG-03).
        """
        work, self._uow = self._uow, []
        for op, local, message in reversed(work):
            if op == "put" and message.state == UNCOMMITTED_PUT:
                local.store.remove(message)
                self.log(local.name, "backout", message, "put")
            elif op == "get" and message.state == GOT_IN_UOW:
                local.store.release(message)
                message.backouts += 1
                self.log(local.name, "backout", message, "get")
        for op, local, message in work:
            if op == "trigger":  # rule TRG-03: made available whether committed or backed out
                self._trigger_available(local, message)
        self.log("", "backout", detail=f"{len(work)} operation(s)")

    def _trigger_available(self, local: QLocal, message: Message) -> None:
        """The unit of work that caused a trigger message ended: the message becomes available
        on the initiation queue (or the dead-letter queue that took it), as any arrival."""
        if message.state == UNCOMMITTED_PUT:
            local.store.release(message)
            self.arrived(local, message)

    def curdepth(self, name: str) -> int:
        """CURDEPTH of a local queue (rule EXP-25: expired, undiscarded messages count)."""
        return self.local(name).store.depth

    # MQSC belongs to the interop layer, which registers its runner here when it is imported
    # (``import mqlearn`` does): the engine never imports a layer above it.
    mqsc_runner: ClassVar[Callable[[QueueManager, str], str] | None] = None

    def mqsc(self, text: str) -> str:
        """Run MQSC commands (mqlearn's subset) and return what runmqsc would print."""
        runner = QueueManager.mqsc_runner
        if runner is None:
            raise RuntimeError("qm.mqsc() needs mqlearn.interop: import mqlearn first")
        return runner(self, text)

    @property
    def in_unit_of_work(self) -> int:
        """Number of operations in the open unit of work."""
        return len(self._uow)
