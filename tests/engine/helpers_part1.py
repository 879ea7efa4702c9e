"""Shared helpers for the rule tests, part 1 (put validation, lazy expiry, units of work, triggers).

Plain functions rather than fixtures, so each test reads top to bottom: build a queue manager, put,
advance virtual time, get, and look at the event log. Everything runs on virtual time only.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import mqlearn as mq
from mqlearn import CMQC as C

QM_NAME = "QM1"
APP_Q = "APP.IN"
REPLY_Q = "APP.REPLY"
INIT_Q = "APP.INITQ"
SHORT = 10  # tenths: a one-second lifetime


def new_qm(*, scans: bool = False, **qm_kwargs: Any) -> mq.QueueManager:
    """A queue manager on its own fresh Simulation (time 0).

    ``scans=False`` switches the background expiry task (distributed and IBM i, EXP-28) off, so
    that only gets and browses discard anything (the lazy-expiry lesson) however far a test moves
    the clock.
    """
    qm = mq.QueueManager(QM_NAME, sim=mq.Simulation(), **qm_kwargs)
    if not scans:
        qm.alter_qmgr(expryint=0)
    return qm


def qm_with_queue(name: str = APP_Q, **queue_attrs: Any) -> tuple[mq.QueueManager, mq.Queue]:
    """A queue manager with one local queue (MQSC attributes as keywords) and a handle on it."""
    qm = new_qm()
    qm.define_qlocal(name, **queue_attrs)
    return qm, mq.Queue(qm, name)


def put(q: mq.Queue, data: bytes = b"msg", *, pmo_options: int = 0, **md_fields: Any) -> mq.MD:
    """Put ``data`` with an MD built from ``md_fields``; returns the MD (MsgId etc. filled in)."""
    md = mq.MD(**md_fields)
    q.put(data, md, mq.PMO(Options=pmo_options))
    return md


def get(
    q: mq.Queue, options: int = 0, *, md: mq.MD | None = None, **gmo_fields: Any
) -> tuple[bytes, mq.MD]:
    """MQGET with the given GMO options (0 = destructive, no wait); returns (data, returned MD)."""
    md = md if md is not None else mq.MD()
    data = q.get(None, md, mq.GMO(Options=options, **gmo_fields))
    return data, md


def browse_first(q: mq.Queue, extra: int = 0) -> tuple[bytes, mq.MD]:
    return get(q, C.MQGMO_BROWSE_FIRST | extra)


def browse_next(q: mq.Queue, extra: int = 0) -> tuple[bytes, mq.MD]:
    return get(q, C.MQGMO_BROWSE_NEXT | extra)


@contextmanager
def raises_reason(reason: int, comp: int = C.MQCC_FAILED) -> Iterator[None]:
    """Expect an MQMIError with exactly this completion and reason code."""
    with pytest.raises(mq.MQMIError) as info:
        yield
    err = info.value
    assert (err.comp, err.reason) == (comp, reason), (
        f"expected comp {comp} reason {reason} ({mq.reason_name(reason)}), "
        f"got comp {err.comp} reason {err.reason} ({mq.reason_name(err.reason)})"
    )


def assert_no_msg(q: mq.Queue, options: int = 0, **gmo_fields: Any) -> None:
    """The call finds nothing it may return: 2033 MQRC_NO_MSG_AVAILABLE (rule EXP-26)."""
    with raises_reason(C.MQRC_NO_MSG_AVAILABLE):
        get(q, options, **gmo_fields)


def events_since(qm: mq.QueueManager, mark: int) -> list[Any]:
    """Events logged after the first ``mark`` entries (``mark = len(qm.events)`` before a call)."""
    return list(qm.events[mark:])


def events_of(
    qm: mq.QueueManager, kind: str, *, queue: str | None = None, since: int = 0
) -> list[Any]:
    """Events of one kind (optionally on one queue), in log order."""
    return [e for e in qm.events[since:] if e.kind == kind and (queue is None or e.queue == queue)]


def discarded_ids(qm: mq.QueueManager, *, cause: str | None = None, since: int = 0) -> list[bytes]:
    """MsgIds of the discard events (optionally of one cause), in the order they were discarded."""
    return [e.msg_id for e in events_of(qm, "discard", since=since) if cause in (None, e.cause)]


def queue_ids(qm: mq.QueueManager, qname: str = APP_Q) -> list[str]:
    """MsgIds (hex) of the messages on a queue, in delivery order, from ``queue_frame``."""
    return list(qm.queue_frame(qname)["msg_id"])


def hexid(md: mq.MD) -> str:
    """The MsgId of ``md`` as ``queue_frame`` shows it (hex text)."""
    return md.MsgId.hex()


def drain(q: mq.Queue) -> list[mq.MD]:
    """Get every message a destructive get will still return; the MDs in the order returned."""
    got: list[mq.MD] = []
    while True:
        try:
            got.append(get(q)[1])
        except mq.MQMIError as err:
            assert err.reason == C.MQRC_NO_MSG_AVAILABLE, err
            return got


def put_expired_and_live(qm: mq.QueueManager, q: mq.Queue, pattern: str) -> list[mq.MD]:
    """Put one message per letter: ``e`` lives 1 s, ``L`` is unlimited. Then 2 s pass."""
    mds = [
        put(q, f"{i}{kind}".encode(), Expiry=SHORT if kind == "e" else C.MQEI_UNLIMITED)
        for i, kind in enumerate(pattern)
    ]
    qm.sim.advance(seconds=2)
    return mds


def syncpoint_get_discard_then_backout(report: int = C.MQRO_NONE) -> dict[str, Any]:
    """Scenario shared by EXP-29 and UOW-02.

    Two messages with a 1 s lifetime, then one unlimited message, on a FIFO queue; after 2 s a
    syncpoint get returns the live one and discards the two expired ones in front of it; then
    the unit of work is backed out. Returns the queue manager, the handle, the three MDs and the
    discard events.
    """
    qm, q = qm_with_queue(msgdlvsq="FIFO")
    qm.define_qlocal(REPLY_Q)
    reply = {"ReplyToQ": REPLY_Q} if report else {}
    expired = [put(q, b"old %d" % i, Expiry=10, Report=report, **reply) for i in range(2)]
    live = put(q, b"live")
    qm.sim.advance(seconds=2)
    mark = len(qm.events)
    data, got_md = get(q, C.MQGMO_SYNCPOINT)
    assert data == b"live"
    discards = events_of(qm, "discard", since=mark)
    qm.backout()
    return {
        "qm": qm,
        "q": q,
        "expired": expired,
        "live": live,
        "got_md": got_md,
        "discards": discards,
        "mark": mark,
    }
