"""MQGET, read top to bottom: the walk to the message, the expired messages it discards on the
way, and the expiration reports those discards send.

A get (:func:`get`) selects its candidates (:func:`_find`: the queue's store,
:mod:`mqlearn.engine.store`, lists the messages it may meet in delivery order), walks them
(:func:`walk`, the one home of the discard walk, rules EXP-21..24) and :func:`discard` removes
each expired message met before the one returned; when that message asked for an expiration
report, :func:`mqlearn.engine.generated.expiration_report` builds it and puts it like any message
the queue manager generates (rules RPT-01..07). The queue manager is reached through
:class:`~mqlearn.engine.ports.QueueManagerPort`; browse, lock, cursor, wait and syncpoint are in
docs/engine.md.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable
from typing import TYPE_CHECKING, Any

from mqlearn.engine import groups
from mqlearn.engine.descriptor import fill_md, md_extension
from mqlearn.engine.generated import dead_letter_expired, expiration_report
from mqlearn.engine.message import (
    AVAILABLE,
    DATA,
    DEADLINE,
    EXTRA,
    LANE,
    PROPERTIES,
    SEQ,
    XDEADLINE,
    Record,
    field,
)
from mqlearn.engine.message_properties import for_get, get_target
from mqlearn.engine.mqi_checks import (
    BROWSE_OPTIONS,
    SYNC_DEFAULT,
    SYNC_IF_PERSISTENT,
    SYNC_NO,
    SYNC_YES,
    GetOptions,
    check_gmo,
    fail,
)
from mqlearn.engine.rule_formulas import is_expired
from mqlearn.engine.transmission import decrement_embedded
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError
from mqlearn.mqi.structs import GMO, MD

if TYPE_CHECKING:
    from mqlearn.engine.handle import Queue
    from mqlearn.engine.objects import QLocal
    from mqlearn.engine.ports import QueueManagerPort

_NO_GMO = GMO()  # stands for "gmo=None"; never written to
_GMO_V2 = C.MQGMO_VERSION_2
_MD_V2 = C.MQMD_VERSION_2
_MI_NONE = C.MQMI_NONE
_CI_NONE = C.MQCI_NONE


# -- MQGET -----------------------------------------------------------------------------------------
def get(
    qm: QueueManagerPort,
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
        # the message handle the properties go in (None: an MQRFH2, or nowhere)
        target = get_target(gmo, opts.options) if opts.extras else None
        if opts.skip_backout:
            _check_mark(qm)
        if local.get == "DISABLED":
            raise fail(C.MQRC_GET_INHIBITED, f"{local.name} is GET(DISABLED)")
        if opts.unlock:
            _unlock(handle)
            handle.last_comp, handle.last_reason = C.MQCC_OK, C.MQRC_NONE
            return b""
        sync = opts.sync
        if sync == SYNC_DEFAULT:
            sync = SYNC_YES if qm.profile == "zos" else SYNC_NO
        plan = None  # groups and segments (issue 24): mqlearn.engine.groups decides
        if (opts.extras or handle.groups is not None) and groups.needs_plan(
            handle, opts.options
        ):  # a plain get never enters groups.py
            plan = groups.plan(qm, handle, local, md, gmo, opts)
        record = _find(qm, handle, local, md, opts, plan)
        if record is None:
            record = _wait(qm, handle, local, md, opts, plan)
        parts: tuple[Record, ...] | list[Record] = (record,)
        if plan is not None:  # groups: its checks; MQGMO_COMPLETE_MSG reassembles segments
            record = plan.take(record)
            parts = plan.parts
        now = qm.sim.now
        data = record[DATA]
        extra = record[EXTRA]  # None: a message whose fields beyond the simple ones are initial
        extension = None
        if record[XDEADLINE] is not None:  # rules XQH-03, XQH-05
            data = decrement_embedded(data, record, now)
        if extra is not None and md.Version < _MD_V2:
            mde = md_extension(record)  # rule MD-07
            if mde is not None:
                data = mde + data
                extension = qm.ccsid  # the MQMDE is in the queue manager's CCSID
        # the properties into the GMO's handle, an MQRFH2, or nowhere (docs/engine.md)
        rfh2 = None
        if target is not None or (extra is not None and PROPERTIES in extra):
            data, rfh2 = for_get(local, record, target, opts.options, data, extension, qm.ccsid)
        store = local.store  # the MD describes the message, returned whole, cut or not at all
        fill_md(md, record, store.context(record), now, qm.sim, store.backouts(record), extension)
        if rfh2 is not None:  # the data starts with an MQRFH2 holding the properties
            md.Format, md.Encoding, md.CodedCharSetId = rfh2
        warning = 0
        if max_length is not None and len(data) > max_length:
            if not opts.accept_truncated:
                raise MQMIError(
                    C.MQCC_WARNING,
                    C.MQRC_TRUNCATED_MSG_FAILED,
                    f"message is {len(data)} bytes, buffer {max_length}",
                )
            data, warning = data[:max_length], C.MQRC_TRUNCATED_MSG_ACCEPTED
    except MQMIError as error:
        cause = "browse" if gmo.Options & BROWSE_OPTIONS else "get"
        qm.log(local.name, "failed", cause=cause, reason=error.reason, detail=error.detail)
        raise
    if opts.browse:
        handle.cursor_message = parts[0]
        if opts.lock:
            handle.lock(store, parts[0])
        qm.log(local.name, "browse", parts[0], "lock" if opts.lock else "")
    else:
        if sync == SYNC_IF_PERSISTENT:
            sync = SYNC_YES if md.Persistence == C.MQPER_PERSISTENT else SYNC_NO
        for part in parts:  # one message, or the segments COMPLETE_MSG reassembled
            if sync == SYNC_YES:
                if store.locker(part) is not None:  # this handle's lock ends with the get
                    handle.locked = None
                    store.lock(part, None)
                store.hold(part)
                qm.enlist(SKIP_BACKOUT if opts.skip_backout else "get", local, part)
                qm.log(local.name, "get", part, "syncpoint")
            else:
                if store.remove(part) is not None:  # it was locked: by this handle
                    handle.locked = None
                qm.log(local.name, "get", part)
    if plan is not None:  # groups: the handle's position; a warning from IBM's Table 2
        warning = warning or plan.done(record)
    elif handle.groups is not None or (
        extra is not None and field(record, "MsgFlags", 0)
    ):  # a message in a group or a segment: the handle's position follows it
        groups.after_plain_get(handle, record, bool(opts.browse))
    if (
        extra is not None or "GroupStatus" in gmo.__dict__
    ) and gmo.Version >= _GMO_V2:  # GroupStatus, SegmentStatus, Segmentation (their defaults
        # fit a message in no group; _NO_GMO, a version 1, is never written to)
        groups.set_status(gmo, record, qm.profile)
    handle.last_reason = warning
    handle.last_comp = C.MQCC_WARNING if warning else C.MQCC_OK
    return data


def _find(
    qm: QueueManagerPort,
    handle: Queue,
    local: QLocal,
    md: MD,
    opts: GetOptions,
    plan: groups.Plan | None = None,
) -> Record | None:
    """The message this call would return, discarding expired ones met on the way."""
    if opts.position:
        if opts.under_cursor or opts.browse == C.MQGMO_BROWSE_MSG_UNDER_CURSOR:
            return _under_cursor(qm, handle, local)
        if opts.browse == C.MQGMO_BROWSE_FIRST:  # back before the first message, found or not
            handle.cursor_message = None
        cursor = handle.cursor_message
        after = None if cursor is None else (cursor[LANE], cursor[SEQ])
    else:
        after = None
    msgid = md.MsgId if opts.match_msgid else None
    if msgid == _MI_NONE:
        msgid = None
    correlid = md.CorrelId if opts.match_correlid else None
    if correlid == _CI_NONE:
        correlid = None
    groupid = None
    keep = None
    if opts.match_group:
        if opts.match_group & C.MQMO_MATCH_GROUP_ID and md.GroupId != C.MQGI_NONE:
            groupid = md.GroupId  # the GroupId index (issue 23 item 3)
        if opts.match_group & _SEQ_OR_OFFSET:
            keep = _group_match(md, opts.match_group)
    now = qm.sim.now
    if plan is not None:  # groups: logical order, ALL_*_AVAILABLE, COMPLETE_MSG
        msgid, correlid, groupid, after, keep = plan.narrow(
            now, msgid, correlid, groupid, after, keep
        )
    store = local.store
    candidates = store.candidates(msgid, correlid, after, keep, groupid)
    record, expired = walk(candidates, now, store.hidden(handle))
    if expired:
        cause = "browse" if opts.browse else "get"
        for old in expired:
            discard(qm, local, old, cause)
    return record


def walk(
    candidates: Iterable[Record], now: int, hidden: Container[int] | None = None
) -> tuple[Record | None, list[Record]]:
    """The discard walk, the engine's one home of it (rules EXP-21..24): what a get or browse
    returns and the expired messages it discards ahead of it.

    ``candidates``: the messages the call may meet, in delivery order (lane descending, then
    arrival; ``LocalStore.candidates``); ``hidden``: which of them, by message number, it may
    not see (``LocalStore.hidden``; None: it sees them all). Every expired one met before the first live
    one is discarded; the live one is returned (None: none, 2033); expired messages behind it
    stay. On a FIFO queue every message has one lane, so the walk discards up to the first live
    message (EXP-22); on a PRIORITY queue it discards the expired messages of higher lanes and
    the earlier ones of the returned message's lane, nothing behind it (EXP-23). The caller
    discards what this returns, after the walk, so the walk never changes what it reads. The
    replay's compiled kernel mirrors this function (``mqlearn.pipeline.kernel._walk``, same
    structure and names; tests/pipeline/test_walk_mirror.py drives both on the same queues).
    """
    expired: list[Record] = []
    for candidate in candidates:
        if hidden is not None and candidate[SEQ] in hidden:
            continue  # not this call's to see
        if is_expired(candidate[DEADLINE], now):  # EXP-20
            expired.append(candidate)  # discarded ahead of what the call returns
            continue
        return candidate, expired  # the first live one
    return None, expired


SKIP_BACKOUT = "get, marked to skip backout"  # the unit-of-work op of a marked get (UOW-03)


def _check_mark(qm: QueueManagerPort) -> None:
    """MQGMO_MARK_SKIP_BACKOUT (rule UOW-03): z/OS only, one marked message per unit of work."""
    if qm.profile != "zos":
        raise fail(
            C.MQRC_OPTIONS_ERROR,
            "MQGMO_MARK_SKIP_BACKOUT is a z/OS option; mqlearn refuses it on "
            f"the {qm.profile} profile",
        )
    if qm.uow_has(SKIP_BACKOUT):
        raise fail(C.MQRC_SECOND_MARK_NOT_ALLOWED, "this unit of work already has a message marked")


_SEQ_OR_OFFSET = C.MQMO_MATCH_MSG_SEQ_NUMBER | C.MQMO_MATCH_OFFSET


def _group_match(md: MD, match: int) -> Callable[[Record], bool]:
    """MQMO_MATCH_MSG_SEQ_NUMBER and _OFFSET: only messages whose stored MsgSeqNumber and Offset
    equal the getter's MD are candidates (rule EXP-27). MQMO_MATCH_GROUP_ID is the store's
    GroupId index (a null GroupId matches any group, as a null MsgId matches any message)."""
    wanted: list[tuple[str, Any, Any]] = []
    if match & C.MQMO_MATCH_MSG_SEQ_NUMBER:
        wanted.append(("MsgSeqNumber", md.MsgSeqNumber, 1))
    if match & C.MQMO_MATCH_OFFSET:
        wanted.append(("Offset", md.Offset, 0))
    return lambda record: all(field(record, n, d) == v for n, v, d in wanted)


def _under_cursor(qm: QueueManagerPort, handle: Queue, local: QLocal) -> Record:
    record = handle.cursor_message
    if record is None or local.store.state(record) != AVAILABLE:
        raise fail(C.MQRC_NO_MSG_UNDER_CURSOR, "no message under the browse cursor")
    if is_expired(record[DEADLINE], qm.sim.now):  # rule LCK-01
        discard(qm, local, record, "cursor")
        raise fail(
            C.MQRC_NO_MSG_UNDER_CURSOR, "the message under the cursor expired and was discarded"
        )
    return record


def _wait(
    qm: QueueManagerPort,
    handle: Queue,
    local: QLocal,
    md: MD,
    opts: GetOptions,
    plan: groups.Plan | None = None,
) -> Record:
    """MQGMO_WAIT on the virtual clock: run scheduled actions until a message is there."""
    sim = qm.sim
    wait = opts.wait_ms
    if wait is None or opts.under_cursor or opts.browse == C.MQGMO_BROWSE_MSG_UNDER_CURSOR:
        raise fail(C.MQRC_NO_MSG_AVAILABLE, _nothing(local))
    until = None if wait == C.MQWI_UNLIMITED else sim.now + wait
    while True:
        nxt = sim.peek(include_daemons=until is not None)
        if nxt is None and until is None:
            raise fail(C.MQRC_NO_MSG_AVAILABLE, "unlimited wait: nothing else can happen")
        last = until is not None and (nxt is None or nxt > until)
        step_to = until if last else nxt
        assert step_to is not None
        sim.run_until(step_to)
        record = _find(qm, handle, local, md, opts, plan)
        if record is not None:
            return record
        if last:
            raise fail(C.MQRC_NO_MSG_AVAILABLE, f"waited {wait} ms: " + _nothing(local))


def _nothing(local: QLocal) -> str:
    depth = local.store.depth
    return f"no live message on {local.name} (CURDEPTH {depth})" if depth else "queue is empty"


def _unlock(handle: Queue) -> None:
    """MQGMO_UNLOCK; 2209 (a warning) when no message is locked: none was, or the locked one
    has left the queue since (rule LCK-02: expired and discarded under the cursor, or got)."""
    locked = handle.locked
    if locked is None:
        raise MQMIError(C.MQCC_WARNING, C.MQRC_NO_MSG_LOCKED, "this handle holds no lock")
    handle.locked = None
    store, record = locked
    if store.locker(record) is not handle:
        raise MQMIError(
            C.MQCC_WARNING,
            C.MQRC_NO_MSG_LOCKED,
            "the message this handle locked is no longer on the queue: no message is locked",
        )
    store.lock(record, None)


# -- discards -------------------------------------------------------------------------------------
def discard(qm: QueueManagerPort, local: QLocal, record: Record, cause: str) -> None:
    """Discard an expired message and send its expiration report (rules EXP-21, RPT-02, EXP-29).

    Never part of a unit of work: a message got earlier in the open unit of work is not
    involved, and the report is put at once (:func:`mqlearn.engine.generated.expiration_report`).
    """
    backouts = local.store.backouts(record)
    local.store.remove(record)
    qm.log(local.name, "discard", record, cause)
    if qm.expired_action == "dead-letter" and local.name != qm.deadq:
        dead_letter_expired(qm, local.name, record, backouts)
    if record[EXTRA] is not None:  # Report and Format live there when not initial values
        expiration_report(qm, local.name, record, backouts)
