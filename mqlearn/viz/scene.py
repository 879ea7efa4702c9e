"""What the animated queue view draws: a scene (the queue as chips) and the steps between two.

Pure functions of engine state and the event log, with no widget in sight, so every picture the
learner sees can be checked in a test. A *scene* is the queue at one virtual time: one chip per
message in delivery order, one row per priority lane, chips beyond what a row shows folded into
an exact count. A *transition* is the list of steps an MQI call or a clock move took, derived from
the events it logged, each naming its message by ``msg_seq`` (docs/engine.md, "The event log"):
a get or browse walks the chips in delivery order, discards the expired ones it meets, returns the
first live one (or finds none) and stops; the expired chips behind the stop stay untouched.

A message group or segmented message is drawn as one unit (:mod:`mqlearn.viz.group_boxes`): a lane's
``items`` (sent only when some message is in a unit) are what the lane draws, chips and units, while
its ``chips`` stay the drawn chips in delivery order, the order a get walks them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mqlearn.engine.message import AVAILABLE, GOT_IN_UOW, UNCOMMITTED_PUT
from mqlearn.engine.rule_formulas import NEVER, is_expired
from mqlearn.engine.rule_formulas import remaining_tenths as _remaining
from mqlearn.viz.group_boxes import GroupFields, arrange, group_fields, with_detail
from mqlearn.viz.history import history
from mqlearn.viz.names import Vocabulary

if TYPE_CHECKING:
    from mqlearn.engine.events import Event
    from mqlearn.engine.message_properties import Property
    from mqlearn.engine.qmgr import QueueManager
    from mqlearn.viz.labels import Labels

CHIPS_PER_LANE = 24  # chips drawn per lane (a line at 1400 px); the rest fold into a "more" chip
TRAY_SIZE = 12  # discarded chips kept in the tray (the latest ones)
WALK_STEPS = 60  # steps a walk shows one by one; the rest are summed up in one step
_STATES = {AVAILABLE: "live", UNCOMMITTED_PUT: "uncommitted", GOT_IN_UOW: "in-uow"}
_WALKS = ("get", "browse")
_SCAN_CAUSES = ("scan", "refresh")


def chip(
    seq: int,
    label: str,
    lane: int,
    priority: int,
    deadline: int | None,
    now: int,
    state: str,
    properties: Sequence[Property] = (),
) -> dict[str, Any]:
    """One message as the view draws it (``expiry``: remaining tenths, -1 unlimited); a message
    with properties also has ``properties``, each ``name = value (MQTYPE_...)``."""
    expiry = -1 if deadline is None else _remaining(deadline, now)
    if state == "live" and expiry == 0:
        state = "expired"
    drawn = {
        "id": seq,
        "label": label,
        "lane": lane,
        "priority": priority,
        "expiry": expiry,
        "deadline_ms": deadline,
        "state": state,
    }
    if properties:
        drawn["properties"] = [p.shown() for p in properties]
    return drawn


def _lanes(qm: QueueManager, queue: str, top: int) -> list[int]:
    """The lanes drawn, top first: DEFPRTY only on a FIFO queue, else MAXPRTY … 0 down from the
    highest one in use (at least lane 0)."""
    local = qm.local(queue)
    if local.msgdlvsq == "FIFO":
        return [local.defprty]
    return list(range(max(top, 0), -1, -1))


class _Shown:
    """The chips a scene draws, lane by lane: the first CHIPS_PER_LANE of each lane as chips,
    the rest counted in a "more" chip; the expired count is exact either way (EXP-25)."""

    def __init__(self, lanes: list[int], now: int) -> None:
        self.lanes: dict[int, list[dict[str, Any]]] = {lane: [] for lane in lanes}
        self.more: dict[int, dict[str, int]] = {}
        self.expired = 0
        self.now = now

    def room(self, lane: int) -> bool:
        """The next message of ``lane`` is drawn as a chip (else it is folded)."""
        return len(self.lanes.setdefault(lane, [])) < CHIPS_PER_LANE

    def draw(self, c: dict[str, Any]) -> None:
        self.lanes[c["lane"]].append(c)
        self.expired += c["expiry"] == 0  # expired, whatever its state

    def fold(self, lane: int, expired: bool) -> None:
        folded = self.more.setdefault(lane, {"count": 0, "expired": 0})
        folded["count"] += 1
        folded["expired"] += expired
        self.expired += expired


def queue_scene(
    qm: QueueManager,
    queue: str,
    labels: Labels,
    *,
    at_ms: int | None = None,
    tray: Sequence[dict[str, Any]] = (),
    reply_q: str | None = None,
    cursor: int | None = None,
) -> dict[str, Any]:
    """The queue as chips at ``at_ms`` (None: now, from the queue itself; else rebuilt from the
    event log). Counts (CURDEPTH, expired) are exact however many chips are folded."""
    local = qm.local(queue)
    now = qm.sim.now if at_ms is None else at_ms
    vocab = Vocabulary(qm.profile)
    grouped: list[GroupFields] = []  # the group fields of the messages on the queue then
    if at_ms is None:
        shown = _Shown(_lanes(qm, queue, local.store.top), now)
        for m in local.store.views():
            fields = group_fields(m)
            if fields is not None:
                labels.note_group(m.seq, queue, m.put_ms, fields)
                grouped.append(fields)
            if shown.room(m.lane):
                state = _STATES[m.state]
                if state == "live" and m.locker is not None:
                    state = "locked"
                deadline = None if m.deadline == NEVER else m.deadline
                props = qm.properties_of(m.seq)
                c = chip(m.seq, labels.remember(m), m.lane, m.priority, deadline, now, state, props)
                shown.draw(with_detail(c, fields, vocab))
            else:
                shown.fold(m.lane, is_expired(m.deadline, now))
        depth = local.store.depth
    else:
        lives = history(qm, queue).queued_at(now)
        # the lanes drawn do not shrink when messages leave: the highest lane the queue has used
        shown = _Shown(_lanes(qm, queue, max((life.lane for life in lives), default=0)), now)
        for life in lives:
            fields = labels.group_of(life.seq)
            if fields is not None:
                grouped.append(fields)
            if shown.room(life.lane):
                label = labels.of(life.seq, life.msg_id)
                props = qm.properties_of(life.seq)
                c = chip(
                    life.seq, label, life.lane, life.priority, life.deadline, now, "live", props
                )
                shown.draw(with_detail(c, fields, vocab))
            else:
                shown.fold(life.lane, life.expired_at(now))
        depth = len(lives)
    lanes, more, expired = shown.lanes, shown.more, shown.expired
    ordered = dict(sorted(lanes.items(), reverse=True))
    known = grouped + labels.groups_seen(queue, at_ms) if grouped else []
    items = arrange(ordered, grouped, known)
    return {
        "qmgr": qm.name,
        "queue": queue,
        "msgdlvsq": local.msgdlvsq,
        "profile": qm.profile,
        "now_ms": now,
        "live": at_ms is None,
        "curdepth": depth,
        "expired": expired,
        "lanes": [
            {
                "lane": lane,
                "chips": chips,
                "more": more.get(lane, {"count": 0, "expired": 0}),
                **({} if items is None else {"items": items[lane]}),
            }
            for lane, chips in ordered.items()
        ],
        "cursor": cursor,
        "tray": list(tray)[-TRAY_SIZE:],
        "reply": None if reply_q is None else reply_box(qm, reply_q, labels),
    }


def reply_box(qm: QueueManager, reply_q: str, labels: Labels) -> dict[str, Any]:
    """The reply queue as a small box of chips (reports arrive there)."""
    now = qm.sim.now
    store = qm.local(reply_q).store
    vocab = Vocabulary(qm.profile)
    chips: list[dict[str, Any]] = []
    for m in store.views():
        if len(chips) == CHIPS_PER_LANE:
            break
        deadline = None if m.deadline == NEVER else m.deadline
        label, props = labels.remember(m), qm.properties_of(m.seq)
        c = chip(m.seq, label, 0, m.priority, deadline, now, "report", props)
        chips.append(with_detail(c, group_fields(m), vocab))
    return {"queue": reply_q, "curdepth": store.depth, "chips": chips}


def chips_in_order(scene: dict[str, Any]) -> list[dict[str, Any]]:
    """The drawn chips of a scene in delivery order (lanes top first, then arrival)."""
    return [c for lane in scene["lanes"] for c in lane["chips"]]


def steps(
    before: dict[str, Any],
    events: Sequence[Event],
    queue: str,
    labels: Labels,
    start_after: int | None = None,
) -> list[dict[str, Any]]:
    """The steps the view plays for ``events`` (what one action logged), on the ``before`` scene.

    A get or browse becomes a walk: ``visit`` each chip from the front (after message
    ``start_after``: the browse cursor of a browse-next) in delivery order, ``discard`` the
    expired ones the call discarded, ``skip`` those it passed over (another state, or not
    matching), ``return`` the one it got or browsed, then ``stop`` (with the chip it stopped at,
    or None at the end of the queue). A scan ``sweep``s every chip it discarded at once. Puts and
    reports are steps of their own. Every step carries the rule that explains it.
    """
    mine = [e for e in events if e.queue == queue or e.kind == "put"]
    walk_end = next(
        (
            i
            for i, e in enumerate(mine)
            if e.queue == queue and (e.kind in _WALKS or (e.kind == "failed" and e.cause in _WALKS))
        ),
        None,
    )
    out: list[dict[str, Any]] = []
    if walk_end is not None:
        out += _walk(before, mine[: walk_end + 1], queue, labels, start_after)
        rest = mine[walk_end + 1 :]
    else:
        rest = mine
    swept = [e.msg_seq for e in rest if e.kind == "discard" and e.cause in _SCAN_CAUSES]
    if swept:
        out.append({"op": "sweep", "ids": swept, "rule": "EXP-28"})
    for e in rest:
        if e.kind == "put" and e.msg_seq is not None:
            out.append(
                {
                    "op": "put" if e.queue == queue else "arrive",
                    "id": e.msg_seq,
                    "label": labels.of(e.msg_seq, e.msg_id),
                    "queue": e.queue,
                    "rule": "",
                }
            )
        elif e.kind == "discard" and e.cause not in _SCAN_CAUSES:
            out.append(_discard_step(e, labels))
        elif e.kind == "report":
            out.append(_report_step(e, labels))
    return out


def _discard_step(e: Event, labels: Labels) -> dict[str, Any]:
    return {"op": "discard", "id": e.msg_seq, "label": labels.of(e.msg_seq, e.msg_id), "rule": ""}


def _report_step(e: Event, labels: Labels) -> dict[str, Any]:
    return {
        "op": "report",
        "id": e.msg_seq,
        "label": labels.of(e.msg_seq, e.msg_id),
        "detail": e.detail,
        "rule": "RPT-02",
    }


def _walk(
    before: dict[str, Any],
    events: Sequence[Event],
    queue: str,
    labels: Labels,
    start_after: int | None,
) -> list[dict[str, Any]]:
    """The steps of one get or browse (``events`` ends with its get, browse or failure)."""
    last = events[-1]
    browse = last.kind == "browse" or last.cause == "browse"
    discards = {e.msg_seq: e for e in events if e.kind == "discard" and e.queue == queue}
    reports = {e.msg_seq: e for e in events if e.kind == "report" and e.queue == queue}
    found = last.msg_seq if last.kind in _WALKS else None
    fifo = before["msgdlvsq"] == "FIFO"
    discard_rule = "EXP-22" if fifo else "EXP-23"
    if any(e.cause == "cursor" for e in discards.values()):
        discard_rule = "LCK-01"
    order = chips_in_order(before)
    start = 0
    if start_after is not None:
        ids = [c["id"] for c in order]
        start = ids.index(start_after) + 1 if start_after in ids else 0
    out: list[dict[str, Any]] = []
    shown = 0
    stop: int | None = None
    for c in order[start:]:
        seq = c["id"]
        if seq in discards:
            step: dict[str, Any] = {"op": "discard", "id": seq, "label": c["label"]}
            step["rule"] = discard_rule
            if shown < WALK_STEPS:
                out.append({"op": "visit", "id": seq, "label": c["label"], "rule": ""})
                out.append(step)
                if seq in reports:
                    out.append(_report_step(reports[seq], labels))
                shown += 1
            del discards[seq]
            continue
        if seq == found:
            out.append({"op": "visit", "id": seq, "label": c["label"], "rule": ""})
            out.append(
                {
                    "op": "browse" if browse else "return",
                    "id": seq,
                    "label": c["label"],
                    "rule": "EXP-11",
                }
            )
            stop = seq
            break
        if not discards and found is None:
            continue  # nothing more happens on the way to the end of the queue
        if shown < WALK_STEPS:
            why = "not available to this call" if c["state"] != "live" else "does not match"
            out.append({"op": "skip", "id": seq, "label": c["label"], "why": why, "rule": ""})
            shown += 1
    if discards:  # folded chips (beyond a lane's row) the walk discarded too
        out.append(
            {
                "op": "discard-more",
                "ids": list(discards),
                "count": len(discards),
                "rule": discard_rule,
            }
        )
        for seq in discards:
            if seq in reports:
                out.append(_report_step(reports[seq], labels))
    out.append(
        {
            "op": "stop",
            "id": stop,
            "reason": last.reason,
            "rule": "EXP-26" if stop is None else discard_rule,
        }
    )
    return out


def narrate(played: Sequence[dict[str, Any]]) -> str:
    """One sentence for what the steps showed (the line the view keeps once they are played)."""
    discarded = [s["label"] for s in played if s["op"] == "discard"]
    discarded += [f"{s['count']} more" for s in played if s["op"] == "discard-more"]
    parts: list[str] = []
    walk = [s for s in played if s["op"] == "stop"]
    if walk:
        looked = sum(s["op"] in ("visit", "skip") for s in played)
        # the rule the discard steps cite (EXP-26 is the empty end's, not the discards')
        rule = next((s["rule"] for s in played if s["op"] in ("discard", "discard-more")), "")
        parts.append(f"the call looked at {looked} message(s)")
        if discarded:
            parts.append(f"discarded {', '.join(discarded)} ({rule})")
        found = [s for s in played if s["op"] in ("return", "browse")]
        if found:
            verb = "returned" if found[0]["op"] == "return" else "browsed"
            parts.append(f"{verb} {found[0]['label']} and stopped there")
        else:
            parts.append("found no live message (EXP-26)")
    for s in played:
        if s["op"] == "sweep":
            parts.append(f"the expiry scan discarded {len(s['ids'])} (EXP-28)")
        elif s["op"] == "put":
            parts.append(f"{s['label']} put")
        elif s["op"] == "report":
            parts.append(f"report for {s['label']} {s['detail']} (RPT-02)")
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + ("." if text else "")
