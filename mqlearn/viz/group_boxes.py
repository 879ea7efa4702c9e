"""Message groups and segmented messages as the queue view shows them: one unit each.

A physical message belongs to a unit when its GroupId is not null (MQGI_NONE) or it is a segment
(MQMF_SEGMENT): IBM's "MQMD (Message descriptor) on IBM i" (MDGID) says GroupId names "the message
group or logical message" a physical message belongs to. A unit is a *group* when one of its
members has MQMF_MSG_IN_GROUP (its segmented logical messages are units of their own inside it, one
per MsgSeqNumber), a *logical* message when its members are segments only, and an *id* unit when it
carries a GroupId and neither flag (MQMF_SEGMENTATION_ALLOWED, say). mqlearn's reading for a
segment with a null GroupId (an application's own, which IBM advises against): its unit is the
null-GroupId segments with its MsgSeqNumber.

Pure functions of the chips a scene draws and the group fields of the messages; the ES module only
paints what :func:`arrange` returns. A unit stands where its first member in delivery order stands
and holds its members in MsgSeqNumber, then Offset order; each member stays a chip of its own, so
its expiry stays visible (members expire one by one).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from mqlearn.engine.message import unflat
from mqlearn.mqi import cmqc as C
from mqlearn.viz.names import msg_tag

if TYPE_CHECKING:
    from mqlearn.engine.message import MessageView
    from mqlearn.viz.names import Vocabulary

# MsgFlags by name, lowest value first (CMQC's values: 1, 2, 4, 8, 16)
FLAG_NAMES = (
    "MQMF_SEGMENTATION_ALLOWED",
    "MQMF_SEGMENT",
    "MQMF_LAST_SEGMENT",
    "MQMF_MSG_IN_GROUP",
    "MQMF_LAST_MSG_IN_GROUP",
)


class GroupFields(NamedTuple):
    """The four descriptor fields that place a physical message in a group or logical message,
    as the queue manager stored them (rule MD-08)."""

    group_id: bytes
    msg_seq_number: int
    offset: int
    msg_flags: int

    @property
    def in_unit(self) -> bool:
        """Shown inside a unit: a non-null GroupId, or a segment."""
        return self.group_id != C.MQGI_NONE or bool(self.msg_flags & C.MQMF_SEGMENT)

    @property
    def key(self) -> str:
        """The unit it belongs to: its GroupId in hex (``none-<MsgSeqNumber>`` when null)."""
        if self.group_id == C.MQGI_NONE:
            return f"none-{self.msg_seq_number}"
        return self.group_id.hex()


NO_GROUP = GroupFields(C.MQGI_NONE, 1, 0, C.MQMF_NONE)  # the four fields' initial values


def group_fields(message: MessageView) -> GroupFields | None:
    """The group fields of a stored message, None when all four have their initial values."""
    extra = message.extra_items  # the fields put with other than their initial values
    if extra is None or (
        "GroupId" not in extra
        and "MsgFlags" not in extra
        and "MsgSeqNumber" not in extra
        and "Offset" not in extra
    ):
        return None  # most messages: a few membership tests, no lookups (a scene reads them all)
    fields = unflat(extra)
    found = GroupFields(
        fields.get("GroupId", C.MQGI_NONE),
        fields.get("MsgSeqNumber", 1),
        fields.get("Offset", 0),
        fields.get("MsgFlags", C.MQMF_NONE),
    )
    return None if found == NO_GROUP else found  # a value spelled like a name matched above


def flag_names(flags: int, vocab: Vocabulary) -> str:
    """MsgFlags as names joined with ``+`` (``MQMF_NONE`` for 0; unknown bits as a number)."""
    names = [vocab.name(n) for n in FLAG_NAMES if flags & getattr(C, n)]
    rest = flags & ~sum(getattr(C, n) for n in FLAG_NAMES)
    if rest:
        names.append(str(rest))
    return " + ".join(names) or vocab.name("MQMF_NONE")


def detail(fields: GroupFields, vocab: Vocabulary) -> str:
    """The four fields by their MQ names, for a chip's tooltip and a get's result line."""
    return (
        f"{vocab.name('GroupId')} {msg_tag(fields.group_id)}, "
        f"{vocab.name('MsgSeqNumber')} {fields.msg_seq_number}, "
        f"{vocab.name('Offset')} {fields.offset}, "
        f"{vocab.name('MsgFlags')} {flag_names(fields.msg_flags, vocab)}"
    )


def with_detail(c: dict[str, Any], fields: GroupFields | None, vocab: Vocabulary) -> dict[str, Any]:
    """A chip carrying its group fields (a message whose fields are all initial is unchanged)."""
    if fields is None:
        return c
    c["detail"] = detail(fields, vocab)
    if fields.in_unit:
        c["group"] = fields.key
        c["msg_seq_number"] = fields.msg_seq_number
        c["offset"] = fields.offset
        c["msg_flags"] = fields.msg_flags
    return c


def _order(c: dict[str, Any]) -> tuple[int, int]:
    return c["msg_seq_number"], c["offset"]


def _last_seq(known: Iterable[GroupFields]) -> int | None:
    """The MsgSeqNumber of the group's last logical message, if one known has the flag."""
    found = [f.msg_seq_number for f in known if f.msg_flags & C.MQMF_LAST_MSG_IN_GROUP]
    return max(found) if found else None


def _last_offset(known: Iterable[GroupFields]) -> int | None:
    """The Offset of a logical message's last segment, if one known has the flag."""
    found = [f.offset for f in known if f.msg_flags & C.MQMF_LAST_SEGMENT]
    return max(found) if found else None


def _segments(
    key: str,
    seq: int,
    chips: list[dict[str, Any]],
    present: list[GroupFields],
    known: list[GroupFields],
    tag: str,
    nested: bool,
) -> dict[str, Any]:
    """The unit of one segmented logical message (its segments in Offset order)."""
    last = _last_offset(known)
    head = f"seq {seq}" if nested else f"message {tag}"
    count = len(present)
    title = f"{head} · {count} segment{'s' if count != 1 else ''} present · " + (
        "last segment not seen" if last is None else f"last segment at offset {last}"
    )
    return {
        "kind": "logical",
        "key": f"{key}/{seq}" if nested else key,
        "title": title,
        "present": count,
        "last_offset": last,
        "members": sorted(chips, key=_order),
        "folded": count - len(chips),
    }


def unit(
    key: str,
    chips: list[dict[str, Any]],
    present: list[GroupFields],
    known: list[GroupFields],
) -> dict[str, Any]:
    """One unit: the drawn ``chips`` of its members, the group fields of its ``present`` members
    (drawn or folded) and of every member ``known`` (present or gone: the last one's flag)."""
    tag = msg_tag(present[0].group_id) if present[0].group_id != C.MQGI_NONE else "(no GroupId)"
    if any(f.msg_flags & C.MQMF_MSG_IN_GROUP for f in present):
        last = _last_seq(known)
        logical = sorted({f.msg_seq_number for f in present})
        count = len(logical)
        title = f"group {tag} · " + (
            f"{count} present · last not seen"
            if last is None
            else f"{count} of {last} present · last seq {last}"
        )
        members: list[dict[str, Any]] = []
        for seq in logical:
            mine = [c for c in chips if c["msg_seq_number"] == seq]
            here = [f for f in present if f.msg_seq_number == seq]
            if any(f.msg_flags & C.MQMF_SEGMENT for f in here):
                if mine:
                    was = [f for f in known if f.msg_seq_number == seq]
                    members.append(_segments(key, seq, mine, here, was, tag, True))
            else:
                members += sorted(mine, key=_order)
        return {
            "kind": "group",
            "key": key,
            "title": title,
            "present": count,
            "last_seq": last,
            "members": members,
            "folded": len(present) - len(chips),
        }
    if any(f.msg_flags & C.MQMF_SEGMENT for f in present):
        return _segments(key, present[0].msg_seq_number, chips, present, known, tag, False)
    count = len(present)
    return {
        "kind": "id",
        "key": key,
        "title": f"GroupId {tag} · {count} present · not in a group, not a segment",
        "present": count,
        "members": sorted(chips, key=_order),
        "folded": count - len(chips),
    }


def arrange(
    lanes: Mapping[int, list[dict[str, Any]]],
    present: Iterable[GroupFields],
    known: Iterable[GroupFields],
) -> dict[int, list[dict[str, Any]]] | None:
    """What each lane draws, in order: a chip, or a unit (a dict with ``members``) where its
    first member in delivery order stands. ``lanes``: the drawn chips, top lane first, each in
    delivery order (chips carry ``group`` from :func:`with_detail`); ``present``: the group
    fields of every message on the queue, folded ones too; ``known``: those of every member the
    views have seen on the queue (gone ones too). None when no message is in a unit."""
    by_key: dict[str, list[GroupFields]] = {}
    for f in present:
        if f.in_unit:
            by_key.setdefault(f.key, []).append(f)
    if not by_key:
        return None
    seen: dict[str, list[GroupFields]] = {}
    for f in known:
        if f.in_unit and f.key in by_key:
            seen.setdefault(f.key, []).append(f)
    drawn: dict[str, list[dict[str, Any]]] = {}
    for chips in lanes.values():
        for c in chips:
            if "group" in c:
                drawn.setdefault(c["group"], []).append(c)
    out: dict[int, list[dict[str, Any]]] = {}
    placed: set[str] = set()
    for lane, chips in lanes.items():
        items = out.setdefault(lane, [])
        for c in chips:
            key = c.get("group")
            if key is None:
                items.append(c)
            elif key not in placed:
                placed.add(key)
                items.append(unit(key, drawn[key], by_key[key], seen.get(key, by_key[key])))
    return out
