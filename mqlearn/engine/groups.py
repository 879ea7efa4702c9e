"""Message groups and segments (issue 24; rules MD-10, MD-11, EXP-30): the group and segment
information a queue handle keeps, MQPMO_LOGICAL_ORDER on MQPUT, and MQGMO_LOGICAL_ORDER,
MQGMO_ALL_MSGS_AVAILABLE, MQGMO_ALL_SEGMENTS_AVAILABLE and MQGMO_COMPLETE_MSG on MQGET.

The put path (:mod:`mqlearn.engine.qmgr`) and the get path (:mod:`mqlearn.engine.mqget`) call in
here through a few marked hooks only; everything that decides what a group or a logical message is
lives in this module. IBM's pages: "MQPMO options" (MQPMO_LOGICAL_ORDER and its two tables), "MQGMO
options" (MQGMO_LOGICAL_ORDER and its two tables, MQGMO_COMPLETE_MSG, MQGMO_ALL_MSGS_AVAILABLE,
MQGMO_ALL_SEGMENTS_AVAILABLE), "Logical and physical ordering", "Message groups", the MQMD fields
GroupId, MsgSeqNumber, Offset, MsgFlags and OriginalLength ("MQMD (Message descriptor) on IBM i"),
and the reason codes 2241, 2242, 2245, 2247, 2250-2253, 2255-2257 and 2259. mqlearn's readings
where the text leaves a choice are in docs/engine.md ("Groups and segments").
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mqlearn.engine.message import (
    CORRELID,
    DATA,
    DEADLINE,
    EXTRA,
    LANE,
    MSGID,
    SEQ,
    Record,
    field,
)
from mqlearn.engine.mqi_checks import (
    GROUP_GET_OPTIONS,
    SYNC_DEFAULT,
    SYNC_IF_PERSISTENT,
    SYNC_YES,
    GetOptions,
    fail,
)
from mqlearn.engine.rule_formulas import is_expired
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError, MQWarning
from mqlearn.mqi.structs import GMO, MD, PMO

if TYPE_CHECKING:
    from mqlearn.engine.handle import Queue
    from mqlearn.engine.objects import QLocal
    from mqlearn.engine.ports import QueueManagerPort
    from mqlearn.engine.qmgr import QueueManager
    from mqlearn.engine.store import LocalStore

MIG, LMIG = C.MQMF_MSG_IN_GROUP, C.MQMF_LAST_MSG_IN_GROUP
SEG, LSEG = C.MQMF_SEGMENT, C.MQMF_LAST_SEGMENT
IN_GROUP = MIG | LMIG
A_SEGMENT = SEG | LSEG
# any of these asks for a GroupId: MQGI_NONE in the MD makes the queue manager generate one
GROUPING_FLAGS = IN_GROUP | A_SEGMENT | C.MQMF_SEGMENTATION_ALLOWED
MAX_SEQ = MAX_OFFSET = 999_999_999  # MsgSeqNumber 1.., Offset 0.. (2250, 2251)
GI_NONE = C.MQGI_NONE
LOGICAL = C.MQGMO_LOGICAL_ORDER
COMPLETE = C.MQGMO_COMPLETE_MSG
ALL_MSGS = C.MQGMO_ALL_MSGS_AVAILABLE
ALL_SEGMENTS = C.MQGMO_ALL_SEGMENTS_AVAILABLE


# -- what a handle keeps ---------------------------------------------------------------------------
class Position:
    """The group and segment information a queue manager keeps for one queue handle and one kind
    of call (MQPUT, MQGET that removes, MQGET that browses): the last message's GroupId,
    MsgSeqNumber and the Offset the next segment must have, whether a group or a logical message
    is current (not yet terminated), whether the last call gave LOGICAL_ORDER, and how the
    current group or logical message started (in a unit of work, persistent)."""

    __slots__ = (
        "anchor",
        "group_id",
        "in_group",
        "in_msg",
        "last_in_group",
        "logical",
        "offset",
        "persistence",
        "seq",
        "syncpoint",
        "used",
    )

    def __init__(self) -> None:
        self.group_id = GI_NONE
        self.seq = 1
        self.offset = 0  # where the next segment of the current logical message starts
        self.in_group = False
        self.in_msg = False
        self.last_in_group = False  # the current logical message has MQMF_LAST_MSG_IN_GROUP
        self.logical = False
        self.used = False  # a call of this kind was made on the handle
        self.syncpoint = False
        self.persistence = 0
        self.anchor: tuple[int, int] | None = None  # browse: where the last group started

    def reset(self) -> None:
        """No current group or logical message (a new handle, MQGMO_BROWSE_FIRST)."""
        self.__init__()  # type: ignore[misc]

    @property
    def current(self) -> bool:
        return self.in_group or self.in_msg

    def incomplete(self) -> int:
        """The reason an unterminated group or logical message gives (2242 before 2241)."""
        if self.in_msg:
            return C.MQRC_INCOMPLETE_MSG
        return C.MQRC_INCOMPLETE_GROUP if self.in_group else 0

    def advance(
        self,
        group_id: bytes,
        seq: int,
        offset: int,
        flags: int,
        length: int,
        *,
        logical: bool,
        syncpoint: bool,
        persistence: int,
    ) -> None:
        """The information after a message was put or returned with these fields."""
        if not self.current:
            self.syncpoint, self.persistence = syncpoint, persistence
        in_msg = bool(flags & A_SEGMENT) and not flags & LSEG
        self.group_id, self.seq = group_id, seq
        self.offset = offset + length if in_msg else 0
        self.in_msg = in_msg
        self.in_group = bool(flags & IN_GROUP) and not (flags & LMIG and not in_msg)
        self.last_in_group = bool(flags & LMIG)
        self.logical = logical
        self.used = True


class HandleGroups:
    """The three positions of one queue handle (IBM keeps them apart)."""

    __slots__ = ("browse", "get", "put")

    def __init__(self) -> None:
        self.put = Position()
        self.get = Position()
        self.browse = Position()


def of(handle: Queue) -> HandleGroups:
    found = handle.groups
    if found is None:
        found = handle.groups = HandleGroups()
    return found


# -- MQPUT -----------------------------------------------------------------------------------------
def put(
    qm: QueueManager, handle: Queue, name: str, data: object, md: MD | None, pmo: PMO | None
) -> int:
    """MQPUT on ``handle`` with its group and segment information (rule MD-10); returns the
    warning reason (0 if none), as :meth:`QueueManager.put` does."""
    if md is None:
        md = MD()
    position = of(handle).put
    logical = pmo is not None and bool(pmo.Options & C.MQPMO_LOGICAL_ORDER)
    syncpoint = _put_syncpoint(qm, pmo)
    saved = (md.GroupId, md.MsgSeqNumber, md.Offset)
    warning = 0
    try:
        if logical:
            if type(md) is not MD or md.Version < C.MQMD_VERSION_2:
                raise fail(C.MQRC_WRONG_MD_VERSION, "MQPMO_LOGICAL_ORDER needs a version-2 MQMD")
            _check_continuation(qm, name, position, md, syncpoint)
            md.GroupId, md.MsgSeqNumber, md.Offset = _logical_values(position, md.MsgFlags)
            pmo = pmo.copy() if pmo is not None else PMO()
            pmo.Options &= ~C.MQPMO_LOGICAL_ORDER
        elif position.logical and position.current:
            warning = _put_outcome(qm, name, position, md, syncpoint)  # Table 2: a warning
        reason = qm.put(name, data, md, pmo)
    except MQMIError:
        if logical:
            md.GroupId, md.MsgSeqNumber, md.Offset = saved
        raise
    if type(md) is MD and md.Version >= C.MQMD_VERSION_2:
        position.advance(
            md.GroupId,
            md.MsgSeqNumber,
            md.Offset,
            md.MsgFlags,
            _segment_length(md, data),
            logical=logical,
            syncpoint=syncpoint,
            persistence=_persistence(qm, name, md),
        )
    else:
        position.reset()  # a version-1 MD: no group, no segment
        position.used = True
    return reason or warning


def _put_outcome(qm: QueueManager, name: str, position: Position, md: MD, syncpoint: bool) -> int:
    """IBM's Table 2 for a put without MQPMO_LOGICAL_ORDER after one with it, a group or logical
    message current: 0 when the put is what logical order would have put next; otherwise the
    reason logical order would have failed with (2241, 2242, 2185, 2245), or 2241/2242 when only
    GroupId, MsgSeqNumber or Offset differ, as a warning: the put is made."""
    if type(md) is not MD or md.Version < C.MQMD_VERSION_2:
        return position.incomplete()
    try:
        _check_continuation(qm, name, position, md, syncpoint)
        expected = _logical_values(position, md.MsgFlags)
    except MQMIError as error:
        return error.reason
    if expected[0] == GI_NONE or (md.GroupId, md.MsgSeqNumber, md.Offset) != expected:
        return position.incomplete()
    return 0


def _put_syncpoint(qm: QueueManager, pmo: PMO | None) -> bool:
    options = pmo.Options if pmo is not None else 0
    if options & C.MQPMO_SYNCPOINT:
        return True
    if options & C.MQPMO_NO_SYNCPOINT:
        return False
    return qm.profile == "zos"


def _persistence(qm: QueueManager, name: str, md: MD) -> int:
    if md.Persistence == C.MQPER_PERSISTENCE_AS_Q_DEF:
        return qm.route(name).persistence
    return int(md.Persistence)


def _segment_length(md: MD, data: object) -> int:
    """How far a segment moves the next Offset: a report's OriginalLength (IBM: it updates the
    segment information), else the length of its data."""
    if md.MsgType == C.MQMT_REPORT and md.OriginalLength != C.MQOL_UNDEFINED:
        return int(md.OriginalLength)
    return len(data) if isinstance(data, bytes | bytearray | memoryview) else 0


def _check_continuation(
    qm: QueueManager, name: str, position: Position, md: MD, syncpoint: bool
) -> None:
    """The conditions MQPMO_LOGICAL_ORDER sets on the flags, Persistence and unit of work of a
    message that continues the current group or logical message (2241, 2242, 2185, 2245)."""
    flags = md.MsgFlags
    if position.in_msg:
        if not flags & A_SEGMENT:
            raise fail(C.MQRC_INCOMPLETE_MSG, "the current logical message has no last segment")
        if bool(flags & IN_GROUP) != position.in_group:
            raise fail(
                C.MQRC_INCOMPLETE_MSG,
                "MQMF_MSG_IN_GROUP must stay as it was until the logical message's last segment",
            )
        if bool(flags & LMIG) != position.last_in_group:
            raise fail(
                C.MQRC_INCOMPLETE_MSG,
                "MQMF_LAST_MSG_IN_GROUP differs from the previous segment's",
            )
    elif position.in_group and not flags & IN_GROUP:
        raise fail(C.MQRC_INCOMPLETE_GROUP, "the current group has no last message")
    if not position.current:
        return
    if _persistence(qm, name, md) != position.persistence:
        raise fail(
            C.MQRC_INCONSISTENT_PERSISTENCE,
            "every message of a group (segment of a logical message) needs the same Persistence",
        )
    if syncpoint != position.syncpoint:
        raise fail(
            C.MQRC_INCONSISTENT_UOW,
            "the group began "
            + ("in" if position.syncpoint else "outside")
            + " a unit of work; every message of it must be put the same way",
        )


def _logical_values(position: Position, flags: int) -> tuple[bytes, int, int]:
    """GroupId, MsgSeqNumber and Offset the queue manager uses under MQPMO_LOGICAL_ORDER (IBM's
    table "MQPUT options relating to messages in groups and segments of logical messages");
    MQGI_NONE with a grouping flag is replaced by a new GroupId when the message is stored."""
    if position.in_msg:
        if position.offset > MAX_OFFSET:
            raise fail(C.MQRC_OFFSET_ERROR, f"the next Offset would be {position.offset}")
        return position.group_id, position.seq, position.offset
    if position.in_group:
        if position.seq + 1 > MAX_SEQ:
            raise fail(C.MQRC_MSG_SEQ_NUMBER_ERROR, "MsgSeqNumber would pass 999 999 999")
        return position.group_id, position.seq + 1, 0
    return GI_NONE, 1, 0  # a new group id when a grouping flag is set (stored_group_id)


def check_put_fields(md: MD, length: int, groupid_index: bool = False) -> None:
    """The checks every MQPUT/MQPUT1 with a version-2 MD (or an MQMDE) makes on the group and
    segment fields: MsgSeqNumber 1..999 999 999 (2250), Offset 0..999 999 999 (2251), a segment
    that is not the last has data (2253), a report that is a segment has a sensible
    OriginalLength (2252); ``groupid_index``: the queue is a z/OS queue with INDXTYPE(GROUPID),
    which takes no segments (2365)."""
    if not MAX_SEQ >= md.MsgSeqNumber >= 1:
        raise fail(C.MQRC_MSG_SEQ_NUMBER_ERROR, f"MsgSeqNumber {md.MsgSeqNumber}: 1..999999999")
    if not MAX_OFFSET >= md.Offset >= 0:
        raise fail(C.MQRC_OFFSET_ERROR, f"Offset {md.Offset}: 0..999999999")
    flags = md.MsgFlags
    if flags & SEG and not flags & LSEG and length == 0:
        raise fail(C.MQRC_SEGMENT_LENGTH_ZERO, "a segment other than the last needs data")
    if flags & A_SEGMENT and md.MsgType == C.MQMT_REPORT:
        least = 0 if flags & LSEG else 1
        if md.OriginalLength < max(least, length):
            raise fail(
                C.MQRC_ORIGINAL_LENGTH_ERROR,
                f"OriginalLength {md.OriginalLength} of a report that is a segment",
            )
    if groupid_index and (flags & A_SEGMENT or md.Offset):
        raise fail(
            C.MQRC_SEGMENTS_NOT_SUPPORTED,
            "a queue with INDXTYPE(GROUPID) takes no segments (z/OS)",
        )


def needs_group_id(extra: dict[str, Any] | None) -> bool:
    """A message stored with a grouping flag and MQGI_NONE: the queue manager gives it a new
    GroupId (IBM: "New group id if MQGI_NONE, else value in field")."""
    return (
        extra is not None
        and bool(extra.get("MsgFlags", 0) & GROUPING_FLAGS)
        and extra.get("GroupId", GI_NONE) == GI_NONE
    )


# -- MQGET -----------------------------------------------------------------------------------------
class Plan:
    """What one MQGET asks of groups: built before the search (:func:`plan`), it narrows the
    search (:meth:`narrow`), checks and completes the message found (:meth:`take`), and updates
    the handle's position afterwards (:meth:`done`)."""

    def __init__(
        self,
        qm: QueueManagerPort,
        handle: Queue,
        local: QLocal,
        md: MD,
        opts: GetOptions,
    ) -> None:
        self.qm, self.handle, self.local, self.md = qm, handle, local, md
        self.store: LocalStore = local.store
        self.options = opts.options
        self.logical = bool(opts.options & LOGICAL)
        self.browse = bool(opts.browse)
        self.under_cursor = opts.under_cursor or opts.browse == C.MQGMO_BROWSE_MSG_UNDER_CURSOR
        groups = of(handle)
        self.position = groups.browse if self.browse else groups.get
        self.match = opts.match_group
        self.sync = opts.sync
        self.parts: list[Record] = []

    # before the search
    def check(self, opts: GetOptions, gmo: GMO) -> None:
        position = self.position
        zos = self.qm.profile == "zos"
        if self.options & GROUP_GET_OPTIONS and zos and self.local.indxtype != "GROUPID":
            raise fail(
                C.MQRC_Q_INDEX_TYPE_ERROR,
                f"{self.local.name} is not indexed by GroupId: logical order and the "
                "whole-group options need INDXTYPE(GROUPID) on z/OS",
            )
        if self.logical:
            if gmo.Version < C.MQGMO_VERSION_2:
                raise fail(C.MQRC_WRONG_GMO_VERSION, "MQGMO_LOGICAL_ORDER needs a version-2 MQGMO")
            if self.md.Version < C.MQMD_VERSION_2:
                raise fail(C.MQRC_WRONG_MD_VERSION, "MQGMO_LOGICAL_ORDER needs a version-2 MQMD")
        if opts.browse == C.MQGMO_BROWSE_FIRST:
            position.reset()  # IBM: scan as if there were no current group
        elif (
            opts.browse == C.MQGMO_BROWSE_NEXT
            and position.used
            and position.logical != self.logical
        ):
            raise fail(
                C.MQRC_INCONSISTENT_BROWSE,
                "MQGMO_BROWSE_NEXT must give MQGMO_LOGICAL_ORDER as the previous browse did "
                "(or start again with MQGMO_BROWSE_FIRST)",
            )
        if self.logical and position.current and not self.under_cursor:
            md, match = self.md, self.match
            seq, offset = self.target()
            if (
                (match & C.MQMO_MATCH_GROUP_ID and md.GroupId not in (GI_NONE, position.group_id))
                or (match & C.MQMO_MATCH_MSG_SEQ_NUMBER and md.MsgSeqNumber != seq)
                or (match & C.MQMO_MATCH_OFFSET and md.Offset != offset)
            ):
                raise fail(
                    C.MQRC_MATCH_OPTIONS_ERROR,
                    "with a current group, MQGMO_LOGICAL_ORDER returns its next message: the "
                    "match fields differ from it",
                )

    def target(self) -> tuple[int, int]:
        """(MsgSeqNumber, Offset) of the next message of the current group or logical message."""
        position = self.position
        if position.in_msg:
            return position.seq, position.offset
        return position.seq + 1, 0

    def narrow(
        self,
        now: int,
        msgid: bytes | None,
        correlid: bytes | None,
        groupid: bytes | None,
        after: tuple[int, int] | None,
        keep: Callable[[Record], bool] | None,
    ) -> tuple[
        bytes | None,
        bytes | None,
        bytes | None,
        tuple[int, int] | None,
        Callable[[Record], bool] | None,
    ]:
        """The search a get makes: IBM's table "MQGET options relating to messages in groups
        and segments of logical messages", then the ALL_* and COMPLETE_MSG conditions."""
        if self.under_cursor:
            return msgid, correlid, groupid, after, keep
        position = self.position
        tests: list[Callable[[Record], bool]] = []
        complete = Completeness(self.store, self.handle, now)
        options = self.options
        if self.logical and position.current:
            seq, offset = self.target()
            msgid = correlid = None
            groupid, after = position.group_id, None
            tests.append(lambda r: _seq_offset(r) == (seq, offset))
            if not position.in_msg and options & (ALL_SEGMENTS | COMPLETE):
                tests.append(complete.message_ok)  # the next logical message, whole
            keep = None
        elif self.logical:
            tests.append(lambda r: _seq_offset(r) == (1, 0))  # first of a group, or no group
            keep = None  # MsgSeqNumber 1 and Offset 0 whatever the match options say
            after = position.anchor if self.browse else None
            if options & ALL_MSGS:
                tests.append(complete.group_ok)
            elif options & (ALL_SEGMENTS | COMPLETE):
                tests.append(complete.message_ok)
        elif options & ALL_MSGS:
            tests.append(complete.group_ok)
        elif options & ALL_SEGMENTS:
            tests.append(complete.message_ok)
        if options & COMPLETE and not (self.logical and position.in_msg):
            tests.append(_first_segment)
            if not options & ALL_MSGS:
                tests.append(complete.message_ok)
        if keep is not None:
            tests.insert(0, keep)
        if not tests:
            return msgid, correlid, groupid, after, None
        if len(tests) == 1:
            return msgid, correlid, groupid, after, tests[0]
        return msgid, correlid, groupid, after, lambda r: all(test(r) for test in tests)

    # after the search
    def take(self, record: Record) -> Record:
        """Check the message found and, for MQGMO_COMPLETE_MSG, reassemble its logical message:
        returns the record the get shows; ``parts`` are the stored messages it removes."""
        position = self.position
        md = self.md
        continuing = self.logical and position.current
        match = self.match
        if (
            continuing
            and not self.under_cursor
            and (
                (match & C.MQMO_MATCH_MSG_ID and md.MsgId not in (C.MQMI_NONE, record[MSGID]))
                or (
                    match & C.MQMO_MATCH_CORREL_ID
                    and md.CorrelId not in (C.MQCI_NONE, record[CORRELID])
                )
            )
        ):
            raise fail(
                C.MQRC_MATCH_OPTIONS_ERROR,
                "with a current group, MQGMO_LOGICAL_ORDER returns its next message: the "
                "match fields differ from it",
            )
        syncpoint = self._syncpoint(record)
        if continuing and not self.browse and syncpoint != position.syncpoint:
            raise fail(
                C.MQRC_INCONSISTENT_UOW,
                "the group's first message was got "
                + ("in" if position.syncpoint else "outside")
                + " a unit of work; every message of it must be got the same way",
            )
        parts = [record]
        reassemble = not (self.logical and position.in_msg)  # else: the next segment alone
        if self.options & COMPLETE and _flags(record) & A_SEGMENT and reassemble:
            parts = Completeness(self.store, self.handle, self.qm.sim.now).segments(record)
            if (
                not self.browse
                and not syncpoint
                and self.qm.in_unit_of_work
                and any(field(p, "Persistence", 0) == C.MQPER_PERSISTENT for p in parts)
            ):
                raise fail(
                    C.MQRC_UOW_NOT_AVAILABLE,
                    "reassembling persistent segments outside the open unit of work",
                )
        self.parts = parts
        if len(parts) == 1:
            return record
        return _assembled(parts)

    def _syncpoint(self, record: Record) -> bool:
        if self.sync == SYNC_IF_PERSISTENT:
            return bool(field(record, "Persistence", 0) == C.MQPER_PERSISTENT)
        if self.sync == SYNC_YES:
            return True
        return self.sync == SYNC_DEFAULT and self.qm.profile == "zos"  # the platform's default

    def done(self, shown: Record) -> int:
        """Update the handle's position after the message was returned; the warning reason of
        a get without LOGICAL_ORDER, after one with it, that is not the current group's next
        message (2241, 2242) or not got as its first was (2245): IBM's Table 2 and 2245 page."""
        position = self.position
        warning = 0
        group, seq, offset, flags, length = message_fields(shown)
        if not self.logical and not self.browse and position.logical and position.current:
            if group != position.group_id or (seq, offset) != self.target():
                warning = position.incomplete()  # not the group's next message
            elif self._syncpoint(shown) != position.syncpoint:
                warning = C.MQRC_INCONSISTENT_UOW
        position.advance(
            group,
            seq,
            offset,
            flags,
            length,
            logical=self.logical,
            syncpoint=self._syncpoint(shown),
            persistence=field(shown, "Persistence", 0),
        )
        if self.browse and (seq, offset) == (1, 0):
            position.anchor = (shown[LANE], self.parts[0][SEQ] if self.parts else shown[SEQ])
        return warning


def needs_plan(handle: Queue, options: int) -> bool:
    """Whether an MQGET concerns groups beyond following the message it returns: a group
    option, or an earlier LOGICAL_ORDER get or browse on the handle (Table 2, 2259)."""
    if options & GROUP_GET_OPTIONS:
        return True
    found = handle.groups
    return found is not None and (found.get.logical or found.browse.logical)


def plan(
    qm: QueueManagerPort, handle: Queue, local: QLocal, md: MD, gmo: GMO, opts: GetOptions
) -> Plan:
    """The group side of one MQGET (rule MD-11); raises the reason codes of its checks."""
    made = Plan(qm, handle, local, md, opts)
    made.check(opts, gmo)
    return made


def after_plain_get(handle: Queue, record: Record, browse: bool) -> None:
    """A get that gave no group option returned a message in a group or a segment: the handle's
    position follows it (IBM: each successful MQGET sets the saved information)."""
    if record[EXTRA] is None:
        return
    group, seq, offset, flags, length = message_fields(record)
    if not flags & GROUPING_FLAGS and handle.groups is None:
        return
    groups = of(handle)
    position = groups.browse if browse else groups.get
    position.advance(
        group,
        seq,
        offset,
        flags,
        length,
        logical=False,
        syncpoint=position.syncpoint,
        persistence=field(record, "Persistence", 0),
    )


def set_status(gmo: GMO, record: Record, profile: str) -> None:
    """GroupStatus, SegmentStatus and Segmentation of a version-2 MQGMO: the returned message's
    flags (on z/OS the last two are always MQSS_NOT_A_SEGMENT and MQSEG_INHIBITED). For a
    message without flags the GMO's own defaults say it (the fields are dropped back to them)."""
    flags = _flags(record)
    if not flags:
        d = gmo.__dict__
        for name in ("GroupStatus", "SegmentStatus", "Segmentation"):
            d.pop(name, None)
        return
    gmo.GroupStatus = chr(
        C.MQGS_LAST_MSG_IN_GROUP
        if flags & LMIG
        else C.MQGS_MSG_IN_GROUP
        if flags & MIG
        else C.MQGS_NOT_IN_GROUP
    )
    if profile == "zos":
        gmo.SegmentStatus, gmo.Segmentation = chr(C.MQSS_NOT_A_SEGMENT), chr(C.MQSEG_INHIBITED)
        return
    gmo.SegmentStatus = chr(
        C.MQSS_LAST_SEGMENT
        if flags & LSEG
        else C.MQSS_SEGMENT
        if flags & SEG
        else C.MQSS_NOT_A_SEGMENT
    )
    allowed = flags & C.MQMF_SEGMENTATION_ALLOWED
    gmo.Segmentation = chr(C.MQSEG_ALLOWED if allowed else C.MQSEG_INHIBITED)


def on_close(handle: Queue) -> int:
    """MQCLOSE with an unterminated group or logical message left by LOGICAL_ORDER calls: the
    warning reason (2242 before 2241), put side first; 0 when there is none. Browse-only
    handles are not checked (IBM)."""
    groups = handle.groups
    if groups is None:
        return 0
    for position in (groups.put, groups.get):
        if position.logical and position.current:
            return position.incomplete()
    return 0


def warn(reason: int, what: str) -> None:
    warnings.warn(MQWarning(f"MQCC_WARNING {reason}: {what}"), stacklevel=4)


# -- what a group and a logical message are --------------------------------------------------------
def message_fields(record: Record) -> tuple[bytes, int, int, int, int]:
    """(GroupId, MsgSeqNumber, Offset, MsgFlags, segment length) of a stored message."""
    extra = record[EXTRA]
    if extra is None:
        return GI_NONE, 1, 0, 0, len(record[DATA])
    found = dict(zip(extra[::2], extra[1::2], strict=True))
    length = found.get("OriginalLength", C.MQOL_UNDEFINED)
    if length == C.MQOL_UNDEFINED:
        length = len(record[DATA])
    return (
        found.get("GroupId", GI_NONE),
        found.get("MsgSeqNumber", 1),
        found.get("Offset", 0),
        found.get("MsgFlags", 0),
        length,
    )


def _flags(record: Record) -> int:
    flags: int = field(record, "MsgFlags", 0) if record[EXTRA] is not None else 0
    return flags


def _seq_offset(record: Record) -> tuple[int, int]:
    if record[EXTRA] is None:
        return 1, 0
    return field(record, "MsgSeqNumber", 1), field(record, "Offset", 0)


def _first_segment(record: Record) -> bool:
    """MQGMO_COMPLETE_MSG returns a logical message from its first segment (or a message that
    is not a segment)."""
    return not _flags(record) & A_SEGMENT or field(record, "Offset", 0) == 0


class Completeness:
    """Whether a group or logical message is whole on the queue for one handle at one time:
    every member present, available to this handle (committed, not got in a unit of work, not
    locked by another handle) and not expired (rule EXP-30). Answers are kept per search."""

    def __init__(self, store: LocalStore, handle: object, now: int) -> None:
        self.store, self.handle, self.now = store, handle, now
        self._groups: dict[bytes, bool] = {}
        self._messages: dict[tuple[bytes, int], list[Record] | None] = {}

    def _usable(self, record: Record) -> bool:
        store = self.store
        if store.state(record) != 0:  # AVAILABLE
            return False
        locker = store.locker(record)
        if locker is not None and locker is not self.handle:
            return False
        return not is_expired(record[DEADLINE], self.now)

    def _members(self, group: bytes) -> list[Record]:
        return [r for r in self.store.group(group) if self._usable(r)]

    def _whole(self, group: bytes, seq: int, members: list[Record]) -> list[Record] | None:
        """The segments of logical message ``seq`` in Offset order when it is whole, else None."""
        key = (group, seq)
        if key in self._messages:
            return self._messages[key]
        mine = sorted((message_fields(r), r) for r in members if field(r, "MsgSeqNumber", 1) == seq)
        whole: list[Record] | None = None
        if mine and not any(f[3] & A_SEGMENT for f, _ in mine):
            whole = [mine[0][1]]
        elif mine:
            expected, parts = 0, []
            for (_, _, offset, flags, length), record in mine:
                if not flags & A_SEGMENT or offset != expected:
                    break
                parts.append(record)
                if flags & LSEG:
                    whole = parts
                    break
                expected = offset + length
        self._messages[key] = whole
        return whole

    def message_ok(self, record: Record) -> bool:
        """MQGMO_ALL_SEGMENTS_AVAILABLE: a message that is not a segment, or one whose logical
        message has all its segments."""
        if not _flags(record) & A_SEGMENT:
            return True
        group = field(record, "GroupId", GI_NONE)
        members = self._members(group)
        return self._whole(group, field(record, "MsgSeqNumber", 1), members) is not None

    def group_ok(self, record: Record) -> bool:
        """MQGMO_ALL_MSGS_AVAILABLE: a message in no group, or one whose group has every logical
        message (1 to the one flagged last), each with all its segments."""
        flags = _flags(record)
        if not flags & GROUPING_FLAGS:
            return True
        group = field(record, "GroupId", GI_NONE)
        known = self._groups.get(group)
        if known is None:
            members = self._members(group)
            if flags & IN_GROUP or any(_flags(r) & IN_GROUP for r in members):
                last = [field(r, "MsgSeqNumber", 1) for r in members if _flags(r) & LMIG]
                known = bool(last) and all(
                    self._whole(group, seq, members) is not None for seq in range(1, min(last) + 1)
                )
            else:
                known = self._whole(group, field(record, "MsgSeqNumber", 1), members) is not None
            self._groups[group] = known
        return known

    def segments(self, record: Record) -> list[Record]:
        """Every segment of ``record``'s logical message, in Offset order (it is whole)."""
        group = field(record, "GroupId", GI_NONE)
        parts = self._whole(group, field(record, "MsgSeqNumber", 1), self._members(group))
        assert parts is not None, "COMPLETE_MSG found a first segment of a whole logical message"
        return parts


def _assembled(parts: list[Record]) -> Record:
    """The logical message MQGMO_COMPLETE_MSG returns: the first segment's descriptor with the
    data of all of them, and MsgFlags saying it is the only segment (IBM, "Reassembly")."""
    first = parts[0]
    extra = first[EXTRA]
    assert extra is not None
    fields = dict(zip(extra[::2], extra[1::2], strict=True))
    group_flags = _flags(parts[-1]) & IN_GROUP
    fields["MsgFlags"] = (
        (fields.get("MsgFlags", 0) & ~(A_SEGMENT | IN_GROUP)) | group_flags | SEG | LSEG
    )
    data = b"".join(p[DATA] for p in parts)
    flat = tuple(x for pair in fields.items() for x in pair)
    return (*first[:DATA], data, first[DATA + 1], flat, first[EXTRA + 1])  # type: ignore[return-value]
