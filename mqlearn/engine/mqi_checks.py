"""Checks an MQPUT or MQGET makes before it touches anything, each with IBM's reason code.

Python-level misuse (a str where bytes belong, an MD where a GMO belongs) raises TypeError naming the
field; values MQ itself rejects raise :class:`MQMIError` with the reason code MQ returns.
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypeVar

from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError
from mqlearn.mqi.structs import GMO, MD, PMO

_Decoded = TypeVar("_Decoded")  # a decoded PMO or GMO

FAILED = C.MQCC_FAILED
MAX_EXPIRY = 999_999_999
MQLONG_MIN = -(2**31)  # an MQLONG is a 4-byte signed integer (rule MD-06)
MQLONG_MAX = 2**31 - 1

# Sub-fields of Report whose values nest (…_WITH_FULL_DATA includes …_WITH_DATA includes the base).
_REPORT_SUBFIELDS = (
    (
        C.MQRO_EXCEPTION_WITH_FULL_DATA,
        (C.MQRO_EXCEPTION, C.MQRO_EXCEPTION_WITH_DATA, C.MQRO_EXCEPTION_WITH_FULL_DATA),
    ),
    (
        C.MQRO_EXPIRATION_WITH_FULL_DATA,
        (C.MQRO_EXPIRATION, C.MQRO_EXPIRATION_WITH_DATA, C.MQRO_EXPIRATION_WITH_FULL_DATA),
    ),
    (C.MQRO_COA_WITH_FULL_DATA, (C.MQRO_COA, C.MQRO_COA_WITH_DATA, C.MQRO_COA_WITH_FULL_DATA)),
    (C.MQRO_COD_WITH_FULL_DATA, (C.MQRO_COD, C.MQRO_COD_WITH_DATA, C.MQRO_COD_WITH_FULL_DATA)),
)
# Options that ask for a report message to be sent back (so a ReplyToQ is needed).
REPORTS_REQUESTED = (
    C.MQRO_EXCEPTION_WITH_FULL_DATA
    | C.MQRO_EXPIRATION_WITH_FULL_DATA
    | C.MQRO_COA_WITH_FULL_DATA
    | C.MQRO_COD_WITH_FULL_DATA
    | C.MQRO_PAN
    | C.MQRO_NAN
)

_PMO_KNOWN = (
    C.MQPMO_SYNCPOINT
    | C.MQPMO_NO_SYNCPOINT
    | C.MQPMO_NEW_MSG_ID
    | C.MQPMO_NEW_CORREL_ID
    | C.MQPMO_DEFAULT_CONTEXT
    | C.MQPMO_NO_CONTEXT
    | C.MQPMO_SET_ALL_CONTEXT
    | C.MQPMO_SET_IDENTITY_CONTEXT
    | C.MQPMO_PASS_ALL_CONTEXT
    | C.MQPMO_PASS_IDENTITY_CONTEXT
    | C.MQPMO_FAIL_IF_QUIESCING
    | C.MQPMO_ALTERNATE_USER_AUTHORITY
    | C.MQPMO_RESOLVE_LOCAL_Q
    | C.MQPMO_ASYNC_RESPONSE
    | C.MQPMO_SYNC_RESPONSE
    | C.MQPMO_MD_FOR_OUTPUT_ONLY
    | C.MQPMO_SUPPRESS_REPLYTO
    | C.MQPMO_LOGICAL_ORDER
)
_PMO_CONTEXT = (
    C.MQPMO_DEFAULT_CONTEXT
    | C.MQPMO_NO_CONTEXT
    | C.MQPMO_SET_ALL_CONTEXT
    | C.MQPMO_SET_IDENTITY_CONTEXT
    | C.MQPMO_PASS_ALL_CONTEXT
    | C.MQPMO_PASS_IDENTITY_CONTEXT
)

# the put's context comes from the application's MD (or stays empty), not from the queue manager
SET_CONTEXT = C.MQPMO_NO_CONTEXT | C.MQPMO_SET_ALL_CONTEXT | C.MQPMO_SET_IDENTITY_CONTEXT
BROWSE_OPTIONS = C.MQGMO_BROWSE_FIRST | C.MQGMO_BROWSE_NEXT | C.MQGMO_BROWSE_MSG_UNDER_CURSOR
_POSITION = BROWSE_OPTIONS | C.MQGMO_MSG_UNDER_CURSOR
_GMO_KNOWN = (
    C.MQGMO_WAIT
    | C.MQGMO_SYNCPOINT
    | C.MQGMO_NO_SYNCPOINT
    | C.MQGMO_SYNCPOINT_IF_PERSISTENT
    | _POSITION
    | C.MQGMO_LOCK
    | C.MQGMO_UNLOCK
    | C.MQGMO_ACCEPT_TRUNCATED_MSG
    | C.MQGMO_FAIL_IF_QUIESCING
    | C.MQGMO_CONVERT
    | C.MQGMO_SET_SIGNAL
    | C.MQGMO_MARK_SKIP_BACKOUT
    | C.MQGMO_PROPERTIES_AS_Q_DEF
    | C.MQGMO_NO_PROPERTIES
    | C.MQGMO_PROPERTIES_IN_HANDLE
    | C.MQGMO_PROPERTIES_FORCE_MQRFH2
    | C.MQGMO_PROPERTIES_COMPATIBILITY
    | C.MQGMO_LOGICAL_ORDER
    | C.MQGMO_COMPLETE_MSG
    | C.MQGMO_ALL_MSGS_AVAILABLE
    | C.MQGMO_ALL_SEGMENTS_AVAILABLE
)
GROUP_MATCHES = C.MQMO_MATCH_GROUP_ID | C.MQMO_MATCH_MSG_SEQ_NUMBER | C.MQMO_MATCH_OFFSET
_MATCH_KNOWN = (
    C.MQMO_MATCH_MSG_ID
    | C.MQMO_MATCH_CORREL_ID
    | C.MQMO_MATCH_GROUP_ID
    | C.MQMO_MATCH_MSG_SEQ_NUMBER
    | C.MQMO_MATCH_OFFSET
    | C.MQMO_MATCH_MSG_TOKEN
)


# Options that reach these checks only where they are not valid, refused with MQRC_OPTIONS_ERROR
# and a sentence: MQPMO_LOGICAL_ORDER keeps group information per queue handle, so an open
# handle's MQPUT takes it out after using it (mqlearn.engine.groups); MQPUT1 (IBM: not valid on
# MQPUT1) and the queue manager's handle-less puts never may.
_PMO_REFUSED = {
    C.MQPMO_LOGICAL_ORDER: "MQPMO_LOGICAL_ORDER is valid on MQPUT through an open queue handle "
    "(mq.Queue.put) only, not on MQPUT1 or a put without a handle"
}
_GMO_REFUSED: dict[int, str] = {}


def fail(reason: int, detail: str) -> MQMIError:
    return MQMIError(FAILED, reason, detail)


def message_bytes(data: object) -> bytes:
    """The message data as bytes (bytes-like objects are copied); str is refused with a hint."""
    if type(data) is bytes:
        return data
    if isinstance(data, bytearray | memoryview):
        return bytes(data)
    if isinstance(data, str):
        raise TypeError("message data must be bytes, not str: use 'text'.encode() (or b'...')")
    raise TypeError(f"message data must be bytes, got {type(data).__name__}")


def put_descriptors(md: MD | None, pmo: PMO | None) -> MD:
    """The MD a put works on (a new one for None), after checking that ``md`` and ``pmo`` are
    mqlearn's own classes: a pymqi object or a dict would otherwise fail later, less clearly."""
    if md is None:
        md = MD()
    elif type(md) is not MD:
        raise TypeError(f"md must be an mqlearn MD, got {type(md).__name__}")
    if pmo is not None and type(pmo) is not PMO:
        raise TypeError(f"pmo must be an mqlearn PMO, got {type(pmo).__name__}")
    return md


def _int_field(md: MD, name: str) -> int:
    value = getattr(md, name)
    if type(value) is not int:
        raise TypeError(f"MD.{name} must be an int, got {type(value).__name__}")
    return value


def check_report(report: int) -> None:
    if report & C.MQRO_REJECT_UNSUP_MASK:
        raise fail(C.MQRC_REPORT_OPTIONS_ERROR, f"Report {report:#x} sets reserved bits")
    for mask, allowed in _REPORT_SUBFIELDS:
        part = report & mask
        if part and part not in allowed:
            raise fail(
                C.MQRC_REPORT_OPTIONS_ERROR, f"Report {report:#x}: {part:#x} is not an option"
            )


def _mqlong_text(field: str, value: int) -> str:
    return (
        f"{field} {value} does not fit an MQLONG (a 4-byte signed integer, "
        f"{MQLONG_MIN} to {MQLONG_MAX})"
    )


def check_expiry(expiry: int, enforce_max: bool, field: str = "Expiry") -> None:
    """Rules EXP-03, EXP-04 and MD-06 (an MQLONG)."""
    if expiry == 0 or expiry < -1:
        raise fail(
            C.MQRC_EXPIRY_ERROR,
            f"{field} {expiry} is not valid: give tenths of a second > 0, or MQEI_UNLIMITED (-1)",
        )
    if expiry > MQLONG_MAX:
        raise fail(C.MQRC_EXPIRY_ERROR, _mqlong_text(field, expiry))
    if enforce_max and expiry > MAX_EXPIRY:
        raise fail(
            C.MQRC_EXPIRY_ERROR,
            f"{field} {expiry} is above 999 999 999 and AMQ_ENFORCE_MAX_EXPIRY_ERROR is in force",
        )


def check_priority(priority: int) -> None:
    """Priority -1 (MQPRI_PRIORITY_AS_Q_DEF) or more, and an MQLONG (rules MD-02, MD-06)."""
    if priority < C.MQPRI_PRIORITY_AS_Q_DEF:
        raise fail(C.MQRC_PRIORITY_ERROR, f"Priority {priority} is below -1")
    if priority > MQLONG_MAX:
        raise fail(C.MQRC_PRIORITY_ERROR, _mqlong_text("Priority", priority))


def check_feedback(feedback: int) -> None:
    """Rule MD-05: MQFB_NONE, the system range or the application range, whatever MsgType is."""
    if feedback == C.MQFB_NONE:
        return
    if C.MQFB_SYSTEM_FIRST <= feedback <= C.MQFB_SYSTEM_LAST:
        return
    if C.MQFB_APPL_FIRST <= feedback <= C.MQFB_APPL_LAST:
        return
    raise fail(
        C.MQRC_FEEDBACK_ERROR,
        f"Feedback {feedback} is neither MQFB_NONE (0) nor in the system range "
        f"(1 to 65535) or the application range (65536 to 999999999)",
    )


# Rule MD-06: the reason an MQPUT fails with when an MQLONG field of the MD holds a value outside
# the MQLONG range. Fields whose own description names a reason code use it; the others
# (Encoding, CodedCharSetId, BackoutCount, PutApplType, for which IBM documents no check at all)
# give MQRC_MD_ERROR: a descriptor holding such a value is not a valid MQMD (docs/engine.md).
# Report, MsgType, Expiry, Feedback, Priority and Persistence are range-checked by their own
# checks, which refuse every value outside the MQLONG range with their reason code.
MQLONG_REASONS: dict[str, int] = {
    "Report": C.MQRC_REPORT_OPTIONS_ERROR,
    "MsgType": C.MQRC_MSG_TYPE_ERROR,
    "Expiry": C.MQRC_EXPIRY_ERROR,
    "Feedback": C.MQRC_FEEDBACK_ERROR,
    "Encoding": C.MQRC_MD_ERROR,
    "CodedCharSetId": C.MQRC_MD_ERROR,
    "Priority": C.MQRC_PRIORITY_ERROR,
    "Persistence": C.MQRC_PERSISTENCE_ERROR,
    "BackoutCount": C.MQRC_MD_ERROR,
    "PutApplType": C.MQRC_MD_ERROR,
    "MsgSeqNumber": C.MQRC_MSG_SEQ_NUMBER_ERROR,
    "Offset": C.MQRC_OFFSET_ERROR,
    "MsgFlags": C.MQRC_MSG_FLAGS_ERROR,
    "OriginalLength": C.MQRC_ORIGINAL_LENGTH_ERROR,
}
_V1_LONGS = ("Encoding", "CodedCharSetId", "BackoutCount", "PutApplType")
_V2_LONGS = ("MsgSeqNumber", "Offset", "MsgFlags", "OriginalLength")


def _check_mqlong(md: MD, name: str) -> None:
    value = _int_field(md, name)
    if not MQLONG_MIN <= value <= MQLONG_MAX:
        raise fail(MQLONG_REASONS[name], _mqlong_text(name, value))


SIMPLE_MD = frozenset({"Expiry", "Priority"})


def check_simple_md(d: dict[str, Any], enforce_max: bool) -> tuple[int, int]:
    """Checks for an MD that sets no field but Expiry and/or Priority (``d`` = its ``__dict__``).

    Every other field then holds IBM's initial value, which passes every check, so these two are
    all there is to check. Returns (Expiry, Priority).
    """
    expiry = d.get("Expiry", -1)
    priority = d.get("Priority", -1)
    if type(expiry) is not int or type(priority) is not int:
        name = "Expiry" if type(expiry) is not int else "Priority"
        raise TypeError(f"MD.{name} must be an int, got {type(d[name]).__name__}")
    if (
        (expiry <= 0 and expiry != -1)
        or (enforce_max and expiry > MAX_EXPIRY)
        or expiry > MQLONG_MAX
    ):
        check_expiry(expiry, enforce_max)
    if priority < -1 or priority > MQLONG_MAX:
        check_priority(priority)
    return expiry, priority


def check_put_md(md: MD, enforce_max: bool) -> None:
    """Every MQMD check an MQPUT makes, in IBM's field order; raises MQMIError.

    (An MD that sets only Expiry and/or Priority needs just :func:`check_simple_md`.)
    """
    if md.StrucId != C.MQMD_STRUC_ID or md.Version not in (1, 2):
        raise fail(C.MQRC_MD_ERROR, f"MD StrucId {md.StrucId!r} / Version {md.Version!r}")
    report = _int_field(md, "Report")
    if report:
        if not MQLONG_MIN <= report <= MQLONG_MAX:
            raise fail(C.MQRC_REPORT_OPTIONS_ERROR, _mqlong_text("Report", report))
        check_report(report)
    msg_type = _int_field(md, "MsgType")
    if not (C.MQMT_SYSTEM_FIRST <= msg_type <= C.MQMT_APPL_LAST):
        raise fail(C.MQRC_MSG_TYPE_ERROR, f"MsgType {msg_type} is not a message type")
    check_expiry(_int_field(md, "Expiry"), enforce_max)
    check_feedback(_int_field(md, "Feedback"))
    for name in _V1_LONGS[:2]:  # Encoding, CodedCharSetId: rule MD-06 only
        _check_mqlong(md, name)
    check_priority(_int_field(md, "Priority"))
    if _int_field(md, "Persistence") not in (0, 1, 2):
        raise fail(C.MQRC_PERSISTENCE_ERROR, f"Persistence {md.Persistence} is not 0, 1 or 2")
    for name in _V1_LONGS[2:]:  # BackoutCount, PutApplType: rule MD-06 only
        _check_mqlong(md, name)
    if md.Version >= C.MQMD_VERSION_2:  # a version-1 MD has no version-2 fields to check
        for name in _V2_LONGS:
            _check_mqlong(md, name)
    if (msg_type == C.MQMT_REQUEST or report & REPORTS_REQUESTED) and not md.ReplyToQ.strip():
        raise fail(
            C.MQRC_MISSING_REPLY_TO_Q,
            "a request message or a report option needs ReplyToQ: where should the answer go?",
        )
    for name, length in (("MsgId", 24), ("CorrelId", 24)):
        value = getattr(md, name)
        if type(value) is not bytes:
            raise TypeError(f"MD.{name} must be bytes, got {type(value).__name__}")
        if len(value) > length:
            raise ValueError(f"MD.{name} is {len(value)} bytes; at most {length}")
    if type(md.Format) is not str or len(md.Format) > 8:
        raise TypeError(f"MD.Format must be a str of at most 8 characters, got {md.Format!r}")


class PutOptions(NamedTuple):
    """A checked MQPMO, decoded once per Options value: what the put path asks of it."""

    options: int
    syncpoint: bool | None  # MQPMO_SYNCPOINT, MQPMO_NO_SYNCPOINT, or None: the platform's default
    new_msgid: bool  # MQPMO_NEW_MSG_ID
    new_correlid: bool  # MQPMO_NEW_CORREL_ID
    set_context: int  # the SET_CONTEXT options given; 0: the queue manager's default context
    handles: bool = False  # the PMO names a message handle: its properties go with the message


def _put_options(options: int) -> PutOptions:
    if options & C.MQPMO_SYNCPOINT:
        syncpoint: bool | None = True
    elif options & C.MQPMO_NO_SYNCPOINT:
        syncpoint = False
    else:
        syncpoint = None
    return PutOptions(
        options=options,
        syncpoint=syncpoint,
        new_msgid=bool(options & C.MQPMO_NEW_MSG_ID),
        new_correlid=bool(options & C.MQPMO_NEW_CORREL_ID),
        set_context=options & SET_CONTEXT,
    )


_PMO_CACHE: dict[int, PutOptions] = {}
INITIAL_PMO = _put_options(C.MQPMO_NONE)  # what None or a PMO with IBM's initial values gives


def check_pmo(pmo: PMO | None) -> PutOptions:
    """PMO checks; returns the decoded options. A PMO that sets only Options is checked and
    decoded once per value (one dict lookup on every later put)."""
    if pmo is None:
        return INITIAL_PMO
    d = pmo.__dict__
    if not d:
        return INITIAL_PMO
    if len(d) == 1:  # Options alone, an int: decoded once per value
        value = d.get("Options")
        if type(value) is int:
            return _PMO_CACHE.get(value) or _remember(
                _PMO_CACHE, value, _put_options(_check_pmo(pmo))
            )
    decoded = _put_options(_check_pmo(pmo))
    if "OriginalMsgHandle" in d or "NewMsgHandle" in d:  # version 3's handles (issue 25)
        return decoded._replace(handles=True)
    return decoded


def _checked_options(
    struct: PMO | GMO, struc_id: str, versions: range, known: int, struct_error: int
) -> int:
    """StrucId, Version and Options of a PMO or GMO: the checks both calls start with."""
    name = type(struct).__name__
    if struct.StrucId != struc_id or struct.Version not in versions:
        raise fail(struct_error, f"{name} StrucId {struct.StrucId!r} / Version {struct.Version!r}")
    options = struct.Options
    if type(options) is not int:
        raise TypeError(f"{name}.Options must be an int, got {type(options).__name__}")
    refused = _PMO_REFUSED if isinstance(struct, PMO) else _GMO_REFUSED
    named = [text for bit, text in refused.items() if options & bit]
    if named:
        raise fail(C.MQRC_OPTIONS_ERROR, f"{name}.Options: {'; '.join(named)}")
    if options & ~known:
        raise fail(C.MQRC_OPTIONS_ERROR, f"{name}.Options {options:#x} has unknown bits")
    return options


def _check_pmo(pmo: PMO) -> int:
    options = _checked_options(pmo, C.MQPMO_STRUC_ID, range(1, 4), _PMO_KNOWN, C.MQRC_PMO_ERROR)
    if options & C.MQPMO_SYNCPOINT and options & C.MQPMO_NO_SYNCPOINT:
        raise fail(C.MQRC_OPTIONS_ERROR, "MQPMO_SYNCPOINT and MQPMO_NO_SYNCPOINT together")
    context = options & _PMO_CONTEXT
    if context & (context - 1):
        raise fail(C.MQRC_OPTIONS_ERROR, "more than one MQPMO_*_CONTEXT option")
    if context & (C.MQPMO_PASS_ALL_CONTEXT | C.MQPMO_PASS_IDENTITY_CONTEXT) and not pmo.Context:
        raise fail(
            C.MQRC_CONTEXT_HANDLE_ERROR,
            "MQPMO_PASS_*_CONTEXT needs PMO.Context (an input handle); mqlearn has none",
        )
    return options


SYNC_NO, SYNC_YES, SYNC_IF_PERSISTENT, SYNC_DEFAULT = range(4)
# the MQGMO options about properties (MQGMO_PROPERTIES_AS_Q_DEF is 0), and about groups and segments
PROPERTY_GET_OPTIONS = (
    C.MQGMO_PROPERTIES_IN_HANDLE
    | C.MQGMO_NO_PROPERTIES
    | C.MQGMO_PROPERTIES_FORCE_MQRFH2
    | C.MQGMO_PROPERTIES_COMPATIBILITY
)
GROUP_GET_OPTIONS = (
    C.MQGMO_LOGICAL_ORDER
    | C.MQGMO_COMPLETE_MSG
    | C.MQGMO_ALL_MSGS_AVAILABLE
    | C.MQGMO_ALL_SEGMENTS_AVAILABLE
)


class GetOptions(NamedTuple):
    """A decoded, checked MQGMO."""

    options: int
    position: int  # the browse / under-cursor option, or 0
    browse: int  # one of the browse options, or 0
    under_cursor: bool  # MQGMO_MSG_UNDER_CURSOR (destructive)
    lock: bool
    unlock: bool
    wait_ms: int | None  # None = no wait, -1 = unlimited
    match_msgid: bool
    match_correlid: bool
    match_group: int  # MQMO_MATCH_GROUP_ID / _MSG_SEQ_NUMBER / _OFFSET asked for (rule EXP-27)
    accept_truncated: bool
    skip_backout: bool  # MQGMO_MARK_SKIP_BACKOUT (z/OS, rule UOW-03)
    sync: int  # SYNC_NO, SYNC_YES, SYNC_IF_PERSISTENT or SYNC_DEFAULT (the platform's)
    # property or group options, or a version-4 GMO (its MsgHandle): the get works out its
    # properties' target and its group plan; a plain get (False) skips both
    extras: bool


# the fields a cached decoding depends on, and the output fields a get writes (ignored here)
_GMO_KEYS = frozenset(
    {
        "Options",
        "WaitInterval",
        "MatchOptions",
        "Version",
        "GroupStatus",
        "SegmentStatus",
        "Segmentation",
    }
)
_GMO_CACHE: dict[tuple[object, ...], GetOptions] = {}
_GMO_OPTIONS_CACHE: dict[int, GetOptions] = {}  # GMOs that set Options only, by its value


def check_gmo(gmo: GMO) -> GetOptions:
    """GMO checks (MQRC_OPTIONS_ERROR, MQRC_WAIT_INTERVAL_ERROR, MQRC_MATCH_OPTIONS_ERROR ...).

    A GMO that sets only the fields below decodes the same way every time: cached by value.
    """
    d = gmo.__dict__
    if not d:
        return _INITIAL_GMO
    if len(d) == 1:  # the common case, Options alone, an int: one lookup by its value
        value = d.get("Options")
        if type(value) is int:
            return _GMO_OPTIONS_CACHE.get(value) or _remember(
                _GMO_OPTIONS_CACHE, value, _check_gmo(gmo)
            )
    if not d.keys() <= _GMO_KEYS:
        return _check_gmo(gmo)
    key = (d.get("Options"), d.get("WaitInterval"), d.get("MatchOptions"), d.get("Version"))
    if not all(value is None or type(value) is int for value in key):
        return _check_gmo(gmo)  # True == 1.0 == 1: a cached int must not answer for them
    return _GMO_CACHE.get(key) or _remember(_GMO_CACHE, key, _check_gmo(gmo))


def _remember(cache: dict[Any, _Decoded], key: object, decoded: _Decoded) -> _Decoded:
    """Keep a decoding for the next structure with the same values (1,024 at most per cache)."""
    if len(cache) < 1024:
        cache[key] = decoded
    return decoded


def _check_gmo(gmo: GMO) -> GetOptions:
    options = _checked_options(gmo, C.MQGMO_STRUC_ID, range(1, 5), _GMO_KNOWN, C.MQRC_GMO_ERROR)
    position = options & _POSITION
    if position & (position - 1):
        raise fail(C.MQRC_OPTIONS_ERROR, "more than one of the browse / under-cursor options")
    syncs = options & (C.MQGMO_SYNCPOINT | C.MQGMO_NO_SYNCPOINT | C.MQGMO_SYNCPOINT_IF_PERSISTENT)
    if syncs & (syncs - 1):
        raise fail(C.MQRC_OPTIONS_ERROR, "more than one of the syncpoint options")
    browse = options & BROWSE_OPTIONS
    if browse and options & (C.MQGMO_SYNCPOINT | C.MQGMO_SYNCPOINT_IF_PERSISTENT):
        raise fail(C.MQRC_OPTIONS_ERROR, "a browse cannot be part of a unit of work")
    lock, unlock = bool(options & C.MQGMO_LOCK), bool(options & C.MQGMO_UNLOCK)
    if lock and (unlock or not browse):
        raise fail(C.MQRC_OPTIONS_ERROR, "MQGMO_LOCK goes with a browse option only")
    if unlock and (position or options & C.MQGMO_WAIT):
        raise fail(C.MQRC_OPTIONS_ERROR, "MQGMO_UNLOCK stands alone")
    wait_ms: int | None = None
    if options & C.MQGMO_WAIT:
        wait_ms = gmo.WaitInterval
        if type(wait_ms) is not int or (wait_ms < 0 and wait_ms != C.MQWI_UNLIMITED):
            raise fail(C.MQRC_WAIT_INTERVAL_ERROR, f"WaitInterval {wait_ms!r} (ms, or -1)")
    match = C.MQMO_MATCH_MSG_ID | C.MQMO_MATCH_CORREL_ID
    if gmo.Version >= 2:
        match = gmo.MatchOptions
        if type(match) is not int or match & ~_MATCH_KNOWN:
            raise fail(C.MQRC_MATCH_OPTIONS_ERROR, f"MatchOptions {match!r}")
    if options & C.MQGMO_SYNCPOINT:
        sync = SYNC_YES
    elif options & C.MQGMO_NO_SYNCPOINT or browse:
        sync = SYNC_NO
    elif options & C.MQGMO_SYNCPOINT_IF_PERSISTENT:
        sync = SYNC_IF_PERSISTENT
    else:
        sync = SYNC_DEFAULT
    return GetOptions(
        options=options,
        position=position,
        browse=browse,
        under_cursor=bool(options & C.MQGMO_MSG_UNDER_CURSOR),
        lock=lock,
        unlock=unlock,
        wait_ms=wait_ms,
        match_msgid=bool(match & C.MQMO_MATCH_MSG_ID),
        match_correlid=bool(match & C.MQMO_MATCH_CORREL_ID),
        match_group=match & GROUP_MATCHES,
        accept_truncated=bool(options & C.MQGMO_ACCEPT_TRUNCATED_MSG),
        skip_backout=bool(options & C.MQGMO_MARK_SKIP_BACKOUT),
        sync=sync,
        extras=bool(options & (PROPERTY_GET_OPTIONS | GROUP_GET_OPTIONS))
        or gmo.Version >= C.MQGMO_VERSION_4,
    )


_INITIAL_GMO = _check_gmo(GMO())  # what a GMO with IBM's initial values decodes to
