"""Short plain-text summaries, so that every view also says in words what it shows.

Widgets print them next to their figures: a notebook checked by nbval, a Voila page or a static
render without JavaScript still shows what happened.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mqlearn.viz.history import history
from mqlearn.viz.labels import labels_for
from mqlearn.viz.names import Vocabulary
from mqlearn.viz.times import MS_PER_S, view_time

if TYPE_CHECKING:
    from mqlearn.engine.qmgr import QueueManager


def summary(qm: QueueManager, queue: str, at_ms: int | None = None) -> str:
    """One paragraph: the time, CURDEPTH, live and expired counts, and the last event on the queue.

    ``at_ms`` describes the queue as it was at that virtual time (rebuilt from the event log).
    """
    t = view_time(qm, at_ms)
    local = qm.local(queue)
    hist = history(qm, queue)
    if at_ms is None:
        on_queue = [life for life in hist.lives if life.present]
        depth = qm.curdepth(queue)
        when = f"At {t / MS_PER_S:.1f} s"
    else:
        on_queue = [life for life in hist.at(t) if life.present_at(t)]
        depth = len(on_queue)
        when = f"At {t / MS_PER_S:.1f} s (replay; now {qm.sim.now / MS_PER_S:.1f} s)"
    expired = sum(life.expired_at(t) for life in on_queue)
    text = (
        f"{when} on {qm.name}: {queue} ({local.msgdlvsq}) has CURDEPTH {depth}: "
        f"{depth - expired} live, {expired} expired but not yet discarded"
    )
    if expired:
        text += " (they still count in CURDEPTH, rule EXP-25)"
    last = None
    for event in reversed(qm.events):
        if event.queue == queue and event.time_ms <= t:
            last = event
            break
    if last is None:
        return text + ". Nothing has happened on it yet."
    vocab = Vocabulary(qm.profile)
    what = last.kind + (f" ({last.cause})" if last.cause else "")
    if last.msg_seq is not None:
        what += f" {labels_for(qm).of(last.msg_seq, last.msg_id)}"
    if last.reason:
        what += f": {vocab.reason(last.reason)}"
    return text + f". Last event: {what} at {last.time_ms / MS_PER_S:.1f} s."


def xqh_summary(qm: QueueManager, xmitq: str) -> str:
    """The transmission queue's messages with both Expiry values, clamped ones pointed out."""
    from mqlearn.viz.xqh import xqh_rows  # with the MQXQH figure: not on every page

    vocab = Vocabulary(qm.profile)
    rows = xqh_rows(qm, xmitq)
    head = (
        f"At {qm.sim.now / MS_PER_S:.1f} s transmission queue {xmitq} holds {len(rows)} "
        "message(s) with an MQXQH"
    )
    if not rows:
        return head + "."
    name = vocab.name("Expiry")
    parts = [
        f"{row.tag}: outer {name} {vocab.expiry(row.outer)}, "
        f"embedded {name} {vocab.expiry(row.embedded)}"
        for row in rows
    ]
    clamped = sum(row.embedded == 0 and row.outer != 0 for row in rows)
    tail = (
        f" {clamped} embedded {name} value(s) ran out and stay at 0 while the outer one lives "
        "(rule XQH-05)."
        if clamped
        else ""
    )
    expired = sum(row.outer == 0 for row in rows)
    if expired:
        tail += f" {expired} message(s) have expired: the next get or channel discards them."
    return f"{head}: " + "; ".join(parts) + "." + tail
