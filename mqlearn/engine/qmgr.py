"""The queue manager: definitions, MQPUT, units of work, expiry scans, and the state they share.

One QueueManager is one connection's view of one queue manager (so one unit of work at a time).
MQGET and the discards and expiration reports it sets off are in :mod:`mqlearn.engine.mqget`;
messages the queue manager creates itself (reports, dead letters, trigger messages, channel
arrivals) go through :meth:`QueueManager.deliver`, and what decides their contents lives in
:mod:`mqlearn.engine.generated` and :mod:`mqlearn.engine.transmission`. Those modules, publish/
subscribe and channels use the queue manager through :class:`~mqlearn.engine.ports.QueueManagerPort`
only. Semantics and choices: docs/engine.md.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from mqlearn.engine import groups, message_properties, mqget, transmission, triggers
from mqlearn.engine.definitions import Definitions, Route
from mqlearn.engine.descriptor import (
    CONTEXT_FIELDS,
    IDENTITY_FIELDS,
    carried_fields,
    putter_mqmde,
    stored_extra,
)
from mqlearn.engine.events import Event
from mqlearn.engine.message import (
    DEADLINE,
    GOT_IN_UOW,
    MSGID,
    PRIORITY,
    PROPERTIES,
    SEQ,
    UNCOMMITTED_PUT,
    Record,
)
from mqlearn.engine.mqi_checks import (
    SIMPLE_MD,
    PutOptions,
    check_expiry,
    check_pmo,
    check_put_md,
    check_simple_md,
    fail,
    message_bytes,
    put_descriptors,
)
from mqlearn.engine.objects import ProcessDefinition, QLocal, QRemote, QueueDefinition, check_name
from mqlearn.engine.pubsub import PubSub, Subscription, TopicAttributes, TopicObject
from mqlearn.engine.rule_formulas import (
    NEVER,
    capped_deadline,
    capped_expiry,
    deadline_of,
    exceeds_maxprty,
    put_priority,
    remaining_tenths,
)
from mqlearn.engine.rule_formulas import (
    lane as ordering_lane,
)
from mqlearn.engine.simulation import Scheduled, Simulation
from mqlearn.engine.store import flat
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError, MQWarning
from mqlearn.mqi.structs import MD, PMO

if TYPE_CHECKING:
    import pandas as pd

    from mqlearn.engine.frames import Table


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
_MI_NONE = C.MQMI_NONE
_CI_NONE = C.MQCI_NONE
EXPIRED_ACTIONS = ("discard", "dead-letter")  # rule EIP-04; IBM MQ discards
_CACHE_MAX = 256  # entries of a route's priorities or lifetimes (any more: computed afresh)


class QueueManager(Definitions):
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
        self.processes: dict[str, ProcessDefinition] = {}
        # handles open for input (MQOO_INPUT_*) per local queue: IPPROCS (rule TRG-04)
        self.input_opens: dict[str, int] = {}
        # TRIGINT (ms) and when each queue last triggered: FIRST's repeat trigger (rule TRG-06)
        self.trigint = triggers.DEFAULT_TRIGINT
        self.trigger_times = triggers.TriggerTimes(self.sim.now)
        self.deadq: str | None = None
        self.maxprty = 9
        self._log: list[RawEvent] = []  # converted to Event lazily (the hot path only appends)
        # message number (seq) -> the properties it was stored with, for the views (packed)
        self._properties: dict[int, bytes] = {}
        self._events: list[Event] = []
        self._msgids = 0  # MsgId counter
        self._seq = 0  # arrival order
        self._msgid_prefix = b"AMQ " + name.encode("ascii")[:12].ljust(12)
        self._uow: list[tuple[str, QLocal, Record]] = []
        self._routes: dict[str, Route] = {}
        self._xmit_listeners: dict[str, list[Callable[[], None]]] = {}
        self._ctx_default = self._context(C.MQAT_UNIX, "mqlearn", "mqlearn")
        self._ctx_qmgr = self._context(C.MQAT_QMGR, "mqlearn", self.name[:28])
        self._output: tuple[int, dict[str, Any]] = (-1, {})  # see _default_output
        self.ccsid = DEFAULT_CCSID[profile]
        self._shared: dict[int, dict[str, Any]] = {}
        self._share_put_fields()
        self.expryint = DEFAULT_EXPIRY_TASK_SECONDS if profile in EXPIRY_TASK_PROFILES else 0
        self._expiry_task: Scheduled | None = None
        self._schedule_expiry_task()
        self.pubsub = PubSub(self)  # topic objects, subscriptions, publishing

    def __repr__(self) -> str:
        return f"<QueueManager {self.name} ({self.profile}) at {self.sim.now} ms>"

    # ---------------------------------------------------------------------------------------------
    # definitions
    def alter(self, name: str, **attrs: Any) -> QueueDefinition:
        """ALTER a queue (``Definitions.alter``); a local queue whose trigger criteria it changes
        while enough messages wait gets its trigger message then (rule TRG-07)."""
        before = self.objects.get(name)
        criteria = triggers.criteria(before) if isinstance(before, QLocal) else None
        definition = super().alter(name, **attrs)
        if criteria is not None and isinstance(definition, QLocal):
            triggers.criteria_altered(self, definition, criteria)
        return definition

    def alter_qmgr(
        self,
        *,
        deadq: str | None = None,
        maxprty: int | None = None,
        expryint: int | None = None,
        ccsid: int | None = None,
        trigint: int | None = None,
    ) -> None:
        """ALTER QMGR DEADQ / MAXPRTY / EXPRYINT (expiry scan interval in seconds, 0 = off) / CCSID
        / TRIGINT (milliseconds between FIRST trigger messages for a queue that stays non-empty,
        rule TRG-06).

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
        if trigint is not None and (
            type(trigint) is not int or not 0 <= trigint <= triggers.MAX_TRIGINT
        ):
            raise ValueError(f"TRIGINT must be milliseconds in 0..999999999, got {trigint!r}")
        if deadq is not None:
            self.deadq = check_name(deadq, "DEADQ") if deadq else None
        if maxprty is not None:
            self.maxprty = maxprty
            self._changed()  # routes cache the lanes MAXPRTY gives
        if expryint is not None:
            self.expryint = expryint
            self._schedule_expiry_task()
        if ccsid is not None:
            self.ccsid = ccsid
            self._share_put_fields()
        if trigint is not None:
            self.trigint = trigint

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
        return self._msgid_prefix + self._msgids.to_bytes(8)  # big-endian, the default

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
        record: Record | None = None,
        cause: str = "",
        reason: int = 0,
        detail: str = "",
    ) -> None:
        """Record an event (docs/engine.md, "The event log")."""
        if not self.record_events:
            return
        if record is None:
            self._log.append(
                (self.sim.now, queue, kind, None, None, None, None, cause, reason, detail)
            )
        else:
            self._log.append(
                (
                    self.sim.now,
                    queue,
                    kind,
                    record[MSGID],
                    record[SEQ],
                    record[PRIORITY],
                    record[DEADLINE],
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
                    None if deadline is None or deadline == NEVER else deadline,
                )
            )
        return events

    def events_frame(self) -> pd.DataFrame | Table:
        """The event log as a pandas DataFrame, or a :class:`~mqlearn.engine.frames.Table` where
        pandas is not installed (docs/engine.md, "The event log")."""
        from mqlearn.engine.frames import events_frame

        return events_frame(self.events)

    def queue_frame(self, name: str) -> pd.DataFrame | Table:
        """One row per message on a local queue, in delivery order (pandas when installed)."""
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

        This is the hot path of every simulation: the common case (an MD that sets at most
        Expiry and Priority, a PMO that sets only Options) is checked inline, the options are
        decoded once per value, what the rule formulas give is cached per route (priorities)
        and per route and clock tick (lifetimes), and the stored record is made directly.
        ``suppress_reply_to``: a publication's copy under MQPMO_SUPPRESS_REPLYTO, whose blank
        ReplyToQ and ReplyToQMgr stay blank (docs/patterns.md).
        """
        if type(data) is not bytes:
            data = message_bytes(data)
        md = put_descriptors(md, pmo)
        try:
            route = self._routes.get(name) or self.route(name)
            opts = check_pmo(pmo)
            props = None  # the properties of the PMO's message handles, kept with the message
            if opts.handles:
                assert pmo is not None  # a PMO named them
                props = message_properties.for_put(pmo)
            d = md.__dict__
            simple = d.keys() <= SIMPLE_MD
            stored_md = md  # what the queue manager keeps: md, or md with the putter's MQMDE
            if simple:
                expiry, priority = check_simple_md(d, self.enforce_max_expiry)
                extra = None
            else:
                check_put_md(md, self.enforce_max_expiry)
                expiry, priority = md.Expiry, md.Priority
                stored_md, data = putter_mqmde(md, data, self.ccsid)  # rule MD-09
                if stored_md.Version >= 2:  # group and segment fields (rule MD-10)
                    indexed = self.profile == "zos" and route.local.indxtype == "GROUPID"
                    groups.check_put_fields(stored_md, len(data), indexed)
                extra = carried_fields(stored_md, len(data))
            self.check_room(route)
            if route.direct_xmit and stored_md.Format == _XQH:
                self._check_direct_xqh(data, stored_md)
        except MQMIError as error:
            self.log(name, "failed", cause="put", reason=error.reason, detail=error.detail)
            raise
        if extra is not None and "MsgFlags" in extra and groups.needs_group_id(extra):  # MD-10
            assert extra is not None
            extra["GroupId"] = stored_md.GroupId = self.new_msgid()

        now = self.sim.now
        # EXP-06 (md keeps the application's Expiry) and MD-02, from the route's caches
        lifetime = route.lifetimes.get(expiry) if route.lifetimes_at == now else None
        expiry, deadline = lifetime or self._lifetime(route, expiry, now)
        priority, lane, warning = route.priorities.get(priority) or self._priority(route, priority)
        syncpoint = opts.syncpoint
        if syncpoint is None:
            syncpoint = self.profile == "zos"
        if simple:  # every other field holds its initial value: what _put_fields gives for them
            persistence = route.persistence
            msgid = self.new_msgid()
            correlid = self.new_msgid() if opts.new_correlid else _CI_NONE
            reply_qmgr, fill_reply_qmgr = self.name, not suppress_reply_to
            if suppress_reply_to:
                extra = {"ReplyToQMgr": ""}
        else:
            persistence, msgid, correlid, extra, reply_qmgr, fill_reply_qmgr = self._put_fields(
                md, opts, route, extra, suppress_reply_to
            )
        if props is not None:
            extra = {**(extra or {}), PROPERTIES: props}
        if opts.set_context:
            shared = {
                **self._put_context(md, opts.options),
                **self._put_defaults(),
                "Persistence": persistence,
            }
        else:
            shared = self._shared[persistence]

        xdeadline = None
        if route.remote is not None:  # rule XQH-01
            data, extra, shared, xdeadline = transmission.wrap_for_transmission(
                self, route.remote, data, msgid, correlid, priority, expiry, extra, shared, now
            )
        elif (
            not simple and stored_md.Format == _XQH
        ):  # any queue: rule XQH-03 says "from any queue"
            xdeadline = transmission.embedded_deadline(data, stored_md.Encoding, now)
        local = route.local
        state = UNCOMMITTED_PUT if syncpoint else 0
        record = self._enqueue(
            local, lane, priority, deadline, msgid, correlid, data, shared, extra, xdeadline, state
        )

        d["MsgId"] = msgid  # the output fields of MQPUT
        if opts.new_correlid:
            d["CorrelId"] = correlid
        if not opts.set_context:
            at, output = self._output
            d.update(output if at == now else self._default_output(now))
        if fill_reply_qmgr:
            d["ReplyToQMgr"] = reply_qmgr

        detail = f"to {route.remote.rname} at {route.remote.rqmname}" if route.remote else ""
        if syncpoint:
            self.log(local.name, "put", record, "syncpoint", warning, detail)
            self.enlist("put", local, record)
            if local.trigger:  # rule TRG-03: the condition is evaluated now, uncommitted or not
                triggers.maybe_trigger(self, local, record, in_uow=True)
        else:
            if self.record_events:
                self.log(local.name, "put", record, "", warning, detail)
            if local.trigger or local.usage == "XMITQ":
                self.arrived(local, record)
        if warning:
            warnings.warn(
                MQWarning(
                    f"MQCC_WARNING MQRC_PRIORITY_EXCEEDS_MAXIMUM (2049): Priority {md.Priority} is "
                    f"above MAXPRTY {self.maxprty}; queued at {self.maxprty}"
                ),
                stacklevel=3,
            )
        return warning

    def _put_fields(
        self,
        md: MD,
        opts: PutOptions,
        route: Route,
        extra: dict[str, Any] | None,
        suppress_reply_to: bool,
    ) -> tuple[int, bytes, bytes, dict[str, Any] | None, str, bool]:
        """What a put stores and writes back for an MD that sets more than Expiry and Priority:
        (Persistence, MsgId, CorrelId, extra, the ReplyToQMgr sent, whether the MD gets it)."""
        persistence = md.Persistence
        if persistence == _PERSISTENCE_AS_Q_DEF:
            persistence = route.persistence
        msgid = md.MsgId
        if msgid == _MI_NONE or opts.new_msgid:
            msgid = self.new_msgid()
        elif len(msgid) != 24:
            msgid = msgid.ljust(24, b"\0")
        correlid = md.CorrelId
        if opts.new_correlid:
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
        return persistence, msgid, correlid, extra, reply_qmgr, fill_reply_qmgr

    def _lifetime(self, route: Route, expiry: int, now: int) -> tuple[int, int]:
        """(the Expiry a put through ``route`` stores, its deadline) for a put at ``now``: the
        path's CAPEXPRY applied (rule EXP-06), then the deadline. Kept in ``route.lifetimes``
        for the other puts of the same clock tick."""
        if route.lifetimes_at != now or len(route.lifetimes) >= _CACHE_MAX:
            route.lifetimes = {}
            route.lifetimes_at = now
        capped = capped_expiry(expiry, route.cap)
        deadline = deadline_of(capped, now)  # NEVER itself for every unlimited message
        lifetime = route.lifetimes[expiry] = (capped, deadline)
        return lifetime

    def _priority(self, route: Route, priority: int) -> tuple[int, int, int]:
        """(the Priority a put through ``route`` stores, the lane it is ordered at, the 2049
        warning or 0), rule MD-02; kept in ``route.priorities``."""
        stored = put_priority(priority, route.defprty)
        local = route.local
        lane = ordering_lane(stored, self.maxprty, local.msgdlvsq == "FIFO", local.defprty)
        warning = _PRIORITY_EXCEEDS_MAXIMUM if exceeds_maxprty(stored, self.maxprty) else 0
        found = (stored, lane, warning)
        if len(route.priorities) < _CACHE_MAX:
            route.priorities[priority] = found
        return found

    def _default_output(self, now: int) -> dict[str, Any]:
        """The context fields MQPUT writes back into the MD with the default context: this queue
        manager's, and PutDate/PutTime of ``now``. One dict per clock tick."""
        at, output = self._output
        if at != now:
            date, time = self.sim.stamp(now)
            output = {**self._ctx_default, "PutDate": date, "PutTime": time}
            self._output = (now, output)
        return output

    def put1(self, name: str, data: object, md: MD | None = None, pmo: PMO | None = None) -> None:
        """MQPUT1: open, put one message, close (warnings: see ``last_reason`` on a Queue)."""
        self.put(name, data, md, pmo)

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
        if len(data) < transmission.XQH_EXPIRY_END:
            raise fail(C.MQRC_EXPIRY_ERROR, "data too short to hold the MQXQH's embedded Expiry")
        embedded = transmission.embedded_expiry(data, md.Encoding)
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
    ) -> Record:
        """A put by the queue manager itself (no MQMD checks).

        ``fields`` holds the descriptor fields to keep (Report, Format, ...; Priority, CorrelId and
        MsgId are taken out of it). CodedCharSetId MQCCSI_Q_MGR or MQCCSI_INHERIT becomes this
        queue manager's CCSID, as on any put (rule MD-04). Raises MQMIError when the queue cannot
        take the message. ``in_uow``: a trigger message caused by a put in the open unit of work
        (rule TRG-03), which becomes available when that unit of work ends, committed or backed
        out; every other message the queue manager puts is outside any unit of work.
        """
        self.check_room(route)
        extra = stored_extra(fields)
        if fields.get("CodedCharSetId", _CCSI_Q_MGR) in (_CCSI_Q_MGR, _CCSI_INHERIT):
            extra = extra or {}
            extra["CodedCharSetId"] = self.ccsid
        priority, lane, _ = self._priority(route, fields.get("Priority", -1))
        correlid = fields.get("CorrelId", C.MQCI_NONE)
        msgid = msgid or self.new_msgid()
        now = self.sim.now
        deadline = capped_deadline(deadline, route.cap, now)
        if route.remote is not None:
            expiry = remaining_tenths(deadline, now)
            data, extra, ctx, xdeadline = transmission.wrap_for_transmission(
                self, route.remote, data, msgid, correlid, priority, expiry, extra, ctx, now
            )
        elif fields.get("Format") == C.MQFMT_XMIT_Q_HEADER and xdeadline is None:
            encoding = fields.get("Encoding", C.MQENC_NATIVE)
            xdeadline = transmission.embedded_deadline(data, encoding, now)
        local = route.local
        state = UNCOMMITTED_PUT if in_uow else 0
        record = self._enqueue(
            local, lane, priority, deadline, msgid, correlid, data, ctx, extra, xdeadline, state
        )
        if in_uow:
            self.log(local.name, "put", record, "qmgr", detail="in the unit of work")
            self.enlist("trigger", local, record)
        else:
            self.log(local.name, "put", record, "qmgr")
            self.arrived(local, record)
        return record

    def check_room(self, route: Route, planned: int = 0) -> None:
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
        lane: int,
        priority: int,
        deadline: int,
        msgid: bytes,
        correlid: bytes,
        data: bytes,
        ctx: dict[str, Any],
        extra: dict[str, Any] | None,
        xdeadline: int | None,
        state: int,
    ) -> Record:
        """Store a new message at the end of its lane, in arrival order: the one place every
        put, delivery and generated message is queued. Returns its record (layout:
        :mod:`mqlearn.engine.message`), made here directly from the values; ``state``:
        UNCOMMITTED_PUT for a put in the unit of work, else 0 (AVAILABLE)."""
        self._seq += 1
        store = local.store
        record: Record = (
            self._seq,
            lane,
            priority,
            deadline,
            self.sim.now,
            msgid,
            correlid,
            data,
            store.items(ctx),
            None if extra is None else flat(extra),
            xdeadline,
        )
        store.add(record, state)
        if extra is not None and PROPERTIES in extra:
            self._properties[self._seq] = extra[PROPERTIES]
        return record

    def properties_of(self, seq: int) -> tuple[message_properties.Property, ...]:
        """The message properties message number ``seq`` was stored with (none: empty), also
        after it has left its queue: what the views show beside the event log."""
        return message_properties.unpack(self._properties.get(seq))

    def arrived(self, local: QLocal, message: Record) -> None:
        """A message arrived outside any unit of work: triggers and waiting channels."""
        if local.trigger:
            triggers.maybe_trigger(self, local, message)
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
    # expiry
    def discard(self, local: QLocal, message: Record, cause: str) -> None:
        """Discard an expired message and send its expiration report (:func:`mqget.discard`)."""
        mqget.discard(self, local, message, cause)

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
            state = local.store.state(message)
            if op == "put" and state == UNCOMMITTED_PUT:
                local.store.release(message)
                if local.is_xmitq:
                    self._wake_channels(local)
            elif op in ("get", mqget.SKIP_BACKOUT) and state == GOT_IN_UOW:
                local.store.remove(message)
            elif op == "trigger":
                self._trigger_available(local, message)
        self.log("", "commit", detail=f"{len(work)} operation(s)")

    def backout(self) -> None:
        """MQBACK: uncommitted puts vanish; got messages return in place, BackoutCount + 1 (UOW-01).

        Messages discarded for expiry during the unit of work stay discarded (UOW-02). Trigger
        messages the unit of work caused are not withdrawn: they become available (TRG-03). A
        message got with MQGMO_MARK_SKIP_BACKOUT (z/OS) is not reinstated: it stays got, in a new
        unit of work that the next MQCMIT or MQBACK settles (UOW-03).
        """
        work, self._uow = self._uow, []
        for op, local, message in reversed(work):
            state = local.store.state(message)
            if op == "put" and state == UNCOMMITTED_PUT:
                local.store.remove(message)
                self.log(local.name, "backout", message, "put")
            elif op == mqget.SKIP_BACKOUT and state == GOT_IN_UOW:  # rule UOW-03
                self._uow.append(("get", local, message))
                self.log(local.name, "backout", message, "skipped: marked, still got")
            elif op == "get" and state == GOT_IN_UOW:
                local.store.release(message, backout=True)
                self.log(local.name, "backout", message, "get")
        for op, local, message in work:
            if op == "trigger":  # rule TRG-03: made available whether committed or backed out
                self._trigger_available(local, message)
        self.log("", "backout", detail=f"{len(work)} operation(s)")

    def _trigger_available(self, local: QLocal, message: Record) -> None:
        """The unit of work that caused a trigger message ended: the message becomes available
        on the initiation queue (or the dead-letter queue that took it), as any arrival."""
        if local.store.state(message) == UNCOMMITTED_PUT:
            local.store.release(message)
            self.arrived(local, message)

    def ipprocs(self, name: str) -> int:
        """IPPROCS: how many handles have the local queue ``name`` open for input (MQOO_INPUT_*,
        or no open options, which in mqlearn allow gets). A trigger monitor is such a handle on
        an initiation queue (rule TRG-04)."""
        return self.input_opens.get(name, 0)

    def curdepth(self, name: str) -> int:
        """CURDEPTH of a local queue (rule EXP-25: expired, undiscarded messages count)."""
        return self.local(name).store.depth

    # ---------------------------------------------------------------------------------------------
    # publish/subscribe: the pubsub component does the work (docs/patterns.md)
    @property
    def topics(self) -> Mapping[str, TopicObject]:
        """Topic objects by name (read-only view)."""
        return self.pubsub.topics

    @property
    def subscriptions(self) -> Mapping[str, Subscription]:
        """Subscriptions by name (read-only view)."""
        return self.pubsub.subscriptions

    def define_topic(
        self, name: str, *, topicstr: str, replace: bool = False, **attrs: Any
    ) -> TopicObject:
        """DEFINE TOPIC (:meth:`PubSub.define_topic`)."""
        return self.pubsub.define_topic(name, topicstr=topicstr, replace=replace, **attrs)

    def delete_topic(self, name: str) -> None:
        """DELETE TOPIC (:meth:`PubSub.delete_topic`)."""
        self.pubsub.delete_topic(name)

    def define_sub(
        self,
        name: str,
        *,
        dest: str,
        topicstr: str | None = None,
        topicobj: str | None = None,
        destcorl: bytes | None = None,
        replace: bool = False,
    ) -> Subscription:
        """DEFINE SUB (:meth:`PubSub.define_sub`)."""
        return self.pubsub.define_sub(
            name,
            dest=dest,
            topicstr=topicstr,
            topicobj=topicobj,
            destcorl=destcorl,
            replace=replace,
        )

    def delete_sub(self, name: str) -> None:
        """DELETE SUB (:meth:`PubSub.delete_sub`)."""
        self.pubsub.delete_sub(name)

    def topic_attributes(self, topic: str) -> TopicAttributes:
        """A topic string's attributes, ASPARENT followed (:meth:`PubSub.topic_attributes`)."""
        return self.pubsub.topic_attributes(topic)

    def publish(
        self, topic: str, data: object, md: MD | None = None, pmo: PMO | None = None
    ) -> int:
        """MQPUT to a topic (:meth:`PubSub.publish`); returns a warning reason or 0."""
        return self.pubsub.publish(topic, data, md, pmo)

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

    def uow_has(self, op: str) -> bool:
        """Whether the open unit of work holds an ``op`` (a get marked to skip backout, say)."""
        return any(entry[0] == op for entry in self._uow)

    def enlist(self, op: str, local: QLocal, message: Record) -> None:
        """Make ``op`` ("put", "get" or "trigger") on ``message`` part of the open unit of work:
        MQCMIT or MQBACK settles it."""
        self._uow.append((op, local, message))
