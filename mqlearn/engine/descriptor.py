"""Between MD objects and stored messages: what a put keeps, what a get returns.

A stored message keeps only the descriptor fields that differ from IBM's initial values (``extra``)
plus a shared context dict (``ctx``); PutDate/PutTime come from its put time unless the context
says otherwise. ``fill_md`` writes a message into an application's MD the way MQGET does: every
output field is replaced, the MD's Version is kept, and version-2 fields are written only into a
version-2 MD. ``md_extension`` builds the MQMDE that, by IBM's rule MD-07, MQGET puts in front of
the data for a version-1 MD (docs/engine.md, "Get and browse").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mqlearn.engine.message import (
    CORRELID,
    CTX,
    DEADLINE,
    EXTRA,
    MSGID,
    PRIORITY,
    PROPERTIES,
    PUT_MS,
    MessageView,
    Record,
    field,
    remaining_tenths,
    unflat,
)
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError
from mqlearn.mqi.headers import MQMDE
from mqlearn.mqi.structs import MD

if TYPE_CHECKING:
    from mqlearn.engine.simulation import Simulation

# Fields a record keeps in positions of their own (MsgId, CorrelId, Priority, Expiry as a deadline)
# or the store beside it (BackoutCount).
SLOT_FIELDS = frozenset({"MsgId", "CorrelId", "Priority", "Expiry", "BackoutCount"})
V2_FIELDS = ("GroupId", "MsgSeqNumber", "Offset", "MsgFlags", "OriginalLength")
CONTEXT_FIELDS = (
    "UserIdentifier",
    "AccountingToken",
    "ApplIdentityData",
    "PutApplType",
    "PutApplName",
    "PutDate",
    "PutTime",
    "ApplOriginData",
)
IDENTITY_FIELDS = ("UserIdentifier", "AccountingToken", "ApplIdentityData")
# Fields an application's put carries into the stored message (besides the slots and context).
CARRIED_FIELDS = frozenset(
    {
        "Report",
        "MsgType",
        "Feedback",
        "Encoding",
        "CodedCharSetId",
        "Format",
        "ReplyToQ",
        "ReplyToQMgr",
    }
)
# every MQMD field with its initial value (a stored message keeps only the fields that differ)
INITIAL: dict[str, Any] = {f.name: getattr(MD, f.name) for f in MD._LAYOUT}


def carried_fields(md: MD, length: int) -> dict[str, Any] | None:
    """The non-initial descriptor fields a put keeps with the message (None when there are none);
    ``length`` is the length of the message data.

    Persistence is resolved by the put and kept with the shared fields, not here. The version-2
    fields are kept as the queue manager stores them (rule MD-08): MsgFlags with the flags the
    last-of flags imply turned on, OriginalLength as IBM's MDOLN says.
    """
    extra: dict[str, Any] | None = None
    for name, value in md.__dict__.items():
        if name in CARRIED_FIELDS and value != INITIAL[name]:
            if extra is None:
                extra = {}
            extra[name] = value
    if extra is not None:
        fmt = extra.get("Format")
        if fmt is not None and len(fmt) != 8:
            extra["Format"] = fmt.ljust(8)
    if md.Version >= 2:
        stored = {name: getattr(md, name) for name in V2_FIELDS}
        stored["MsgFlags"] = stored_msg_flags(md.MsgFlags)
        stored["OriginalLength"] = _original_length(md, length)
        for name, value in stored.items():
            if value != INITIAL[name]:
                extra = extra or {}
                extra[name] = value
    return extra


def stored_msg_flags(flags: int) -> int:
    """MsgFlags as the message is stored (rule MD-08, IBM's MDMFL): MQMF_LAST_MSG_IN_GROUP turns on
    MQMF_MSG_IN_GROUP, MQMF_LAST_SEGMENT turns on MQMF_SEGMENT, in the copy of the MD sent with
    the message; the application's MD keeps what it set."""
    if flags & C.MQMF_LAST_MSG_IN_GROUP:
        flags |= C.MQMF_MSG_IN_GROUP
    if flags & C.MQMF_LAST_SEGMENT:
        flags |= C.MQMF_SEGMENT
    return flags


def _original_length(md: MD, length: int) -> int:
    """OriginalLength as MQPUT keeps it (rule MD-08, IBM's MDOLN): a report that is a segment
    keeps the application's value; any other segment gets the length of its data; every other
    message MQOL_UNDEFINED, whatever the application set."""
    if not md.MsgFlags & (C.MQMF_SEGMENT | C.MQMF_LAST_SEGMENT):
        return C.MQOL_UNDEFINED
    return md.OriginalLength if md.MsgType == C.MQMT_REPORT else length


_NOT_STORED = SLOT_FIELDS | {"StrucId", "Version", *CONTEXT_FIELDS}


def stored_extra(fields: dict[str, Any]) -> dict[str, Any] | None:
    """The part of a full field dict a stored message keeps in ``extra`` (non-initial values,
    and the message's properties if it has any)."""
    extra = {
        name: value
        for name, value in fields.items()
        if name not in _NOT_STORED and (value != INITIAL[name] if name != PROPERTIES else value)
    }
    return extra or None


def md_extension(record: Record) -> bytes | None:
    """Rule MD-07: the MQMDE an MQGET with a version-1 MQMD returns in front of the message data,
    or None when every version-2 field of the message has its default value (then there is none).

    The MQMDE carries the version-2 fields and the Encoding, CodedCharSetId and Format of the data
    after it; it is in the queue manager's native encoding.
    """
    items = record[EXTRA]
    if items is None:
        return None
    extra = unflat(items)
    fields = {
        name: extra[name] for name in V2_FIELDS if extra.get(name, INITIAL[name]) != INITIAL[name]
    }
    if not fields:
        return None
    return MQMDE(
        Encoding=field(record, "Encoding", C.MQENC_NATIVE),
        CodedCharSetId=field(record, "CodedCharSetId", C.MQCCSI_Q_MGR),
        Format=field(record, "Format", C.MQFMT_NONE),
        **fields,
    ).pack(C.MQENC_NATIVE)


# What a version-1 MD says about data that starts with an MQMDE: the MQMDE's own format and
# encoding (the queue manager's native one); its CodedCharSetId is the queue manager's CCSID.
EXTENSION_FIELDS = {
    "Format": C.MQFMT_MD_EXTENSION,
    "Encoding": C.MQENC_NATIVE,
}


def fill_md(
    md: MD,
    record: Record | MessageView,
    ctx: dict[str, Any],
    now: int,
    sim: Simulation,
    backouts: int = 0,
    extension: int | None = None,
) -> None:
    """Write a retrieved message into ``md`` as MQGET does (rule EXP-11: Expiry = remaining).

    ``ctx``: the record's put context as a dict (``LocalStore.context`` shares one per context);
    ``backouts``: its BackoutCount. ``extension``: the data returned starts with an MQMDE (rule
    MD-07), in the character set whose CCSID this is (the queue manager's), so ``md`` (version 1)
    describes the MQMDE.
    """
    d = md.__dict__
    version = d.get("Version", 1)
    d.clear()
    if version != 1:
        d["Version"] = version
    d["PutDate"], d["PutTime"] = sim.stamp(record[PUT_MS])
    d.update(ctx)
    extra = record[EXTRA]
    if extra is not None:
        d.update(unflat(extra))
        d.pop(PROPERTIES, None)  # not an MQMD field (a get's handle or MQRFH2 returns them)
        if version < 2:
            for name in V2_FIELDS:
                d.pop(name, None)
    d["MsgId"] = record[MSGID]
    d["CorrelId"] = record[CORRELID]
    d["Priority"] = record[PRIORITY]
    d["Expiry"] = remaining_tenths(record[DEADLINE], now)
    if backouts:
        d["BackoutCount"] = backouts
    if extension is not None:
        d.update(EXTENSION_FIELDS)
        d["CodedCharSetId"] = extension


def message_fields(
    record: Record | MessageView, now: int, sim: Simulation, backouts: int = 0
) -> dict[str, Any]:
    """Every descriptor field of a stored message (version 2), as a get at ``now`` would see it."""
    md = MD(Version=C.MQMD_VERSION_2)
    fill_md(md, record, unflat(record[CTX]), now, sim, backouts)
    return md.get()


def putter_mqmde(md: MD, data: bytes, qm_ccsid: int) -> tuple[MD, bytes]:
    """A put whose data starts with an MQMDE (Format MQFMT_MD_EXTENSION, rule MD-09): the MD and
    data the queue manager stores, per IBM's table "Queue manager action when MQMDE specified on
    MQPUT or MQPUT1" ("MQMDE - Message descriptor extension").

    Honoured (the MQMDE's fields become the message's version-2 fields and its Format, Encoding
    and CodedCharSetId those of the message, the MQMDE removed from the data) with a version-1 MD,
    or a version-2 MD whose version-2 fields all hold their defaults. Treated as message data with
    a version-2 MD that sets one of them, or when the MD's Encoding and CodedCharSetId (which
    describe the MQMDE) are not the queue manager's, or the MQMDE's Version is not 2. An MQMDE
    that is not valid fails the put with MQRC_MDE_ERROR (2248). The application's MD is not
    changed: a copy is returned.
    """
    if md.Format != C.MQFMT_MD_EXTENSION:
        return md, data
    if md.Version >= 2 and any(getattr(md, n) != INITIAL[n] for n in V2_FIELDS):
        return md, data  # the MD already says what an MQMDE would: the MQMDE is data
    native = md.Encoding & C.MQENC_INTEGER_MASK == C.MQENC_NATIVE & C.MQENC_INTEGER_MASK
    own_ccsid = md.CodedCharSetId in (C.MQCCSI_Q_MGR, qm_ccsid)
    if not native or not own_ccsid:
        return md, data  # not in the queue manager's encoding and character set: data
    if len(data) < C.MQMDE_LENGTH_2 or data[:4] != C.MQMDE_STRUC_ID.encode("ascii"):
        raise MQMIError(C.MQCC_FAILED, C.MQRC_MDE_ERROR, "Format MQHMDE but no MQMDE in the data")
    mde = MQMDE.unpack(data[: C.MQMDE_LENGTH_2])
    if mde.Version != C.MQMDE_VERSION_2:
        return md, data  # a version mqlearn's queue manager does not support: data
    if mde.StrucLength != C.MQMDE_LENGTH_2 or mde.Flags != C.MQMDEF_NONE:
        raise MQMIError(
            C.MQCC_FAILED,
            C.MQRC_MDE_ERROR,
            f"MQMDE StrucLength {mde.StrucLength} / Flags {mde.Flags} (72 / MQMDEF_NONE)",
        )
    stored = md.copy()
    stored.Version = C.MQMD_VERSION_2
    for name in ("Format", "Encoding", "CodedCharSetId", *V2_FIELDS):
        setattr(stored, name, getattr(mde, name))
    return stored, data[C.MQMDE_LENGTH_2 :]
