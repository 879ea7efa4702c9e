"""The event log and the queue view: every kind of event is a documented one, frames are complete.

docs/engine.md, "The event log" and "queue_frame"; rules EXP-21 (discard cause), TRG-01, XQH-01.
"""

from __future__ import annotations

import re
from pathlib import Path

import mqlearn as mq
from mqlearn import CMQC as C
from mqlearn.engine.events import KINDS
from tests.engine.helpers import trigger_monitor

ENGINE_MD = (Path(__file__).resolve().parents[2] / "docs" / "engine.md").read_text(encoding="utf-8")


def documented_event_fields() -> list[str]:
    """The fields of ``Event(...)`` as docs/engine.md's "The event log" lists them."""
    found = re.search(r"a list of `Event\(([^)]*)\)`", ENGINE_MD)
    assert found, "docs/engine.md no longer lists the Event fields"
    return [name.strip() for name in found.group(1).split(",")]


def documented_kinds() -> set[str]:
    """The event kinds docs/engine.md names: the first column of its table of kinds."""
    section = ENGINE_MD.split("- kinds, one event each time:", 1)[1].split("- Conservation", 1)[0]
    return set(re.findall(r"^\s*\| `([a-z-]+)` \|", section, flags=re.MULTILINE))


def documented_queue_columns() -> list[str]:
    section = ENGINE_MD.split("## `queue_frame(qname)` columns", 1)[1]
    listing = section.split("`", 2)[1]
    return [name.strip() for name in listing.split(",")]


def busy_queue_managers() -> tuple[mq.QueueManager, mq.QueueManager]:
    """Two queue managers doing a bit of everything: puts, gets, discards, reports, triggers,
    a unit of work, a channel and a dead letter."""
    qm1 = mq.QueueManager("QM1", profile="zos")
    qm2 = mq.QueueManager("QM2", sim=qm1.sim, profile="zos")
    for qm in (qm1, qm2):
        qm.define_qlocal("REPLY")
        qm.define_qlocal("DLQ")
        qm.alter_qmgr(deadq="DLQ", expryint=5)
    qm1.define_qlocal("INITQ")
    trigger_monitor(qm1, "INITQ")
    qm1.define_qlocal("APP", trigger=True, trigtype="EVERY", initq="INITQ", process="APP.PROCESS")
    qm1.define_qlocal("QM2", usage="XMITQ")
    qm1.define_qremote("TO.MISSING", rname="NO.SUCH.QUEUE", rqmname="QM2")
    mq.Channel(qm1, qm2, xmitq="QM2", latency_ms=100)
    app = mq.Queue(qm1, "APP")
    sync = mq.PMO(Options=C.MQPMO_SYNCPOINT)
    report = {"Report": C.MQRO_EXPIRATION, "ReplyToQ": "REPLY"}
    app.put(b"expires", mq.MD(Expiry=1, **report), mq.PMO(Options=C.MQPMO_NO_SYNCPOINT))
    app.put(b"kept", mq.MD(), sync)
    qm1.commit()
    qm1.sim.advance(seconds=1)
    app.get(None, mq.MD(), mq.GMO(Options=C.MQGMO_BROWSE_FIRST))
    app.get(None, mq.MD(), mq.GMO(Options=C.MQGMO_SYNCPOINT))
    qm1.backout()
    # z/OS puts are in a unit of work unless told otherwise: this one is not
    qm1.put1("TO.MISSING", b"lost", mq.MD(Expiry=50), mq.PMO(Options=C.MQPMO_NO_SYNCPOINT))
    qm1.sim.advance(seconds=10)
    return qm1, qm2


def test_the_documented_kinds_are_the_engines_and_every_logged_kind_is_documented() -> None:
    documented = documented_kinds()
    assert documented == set(KINDS), "docs/engine.md and the engine's KINDS disagree"
    qm1, qm2 = busy_queue_managers()
    kinds = {e.kind for qm in (qm1, qm2) for e in qm.events}
    assert kinds <= documented
    expected = {"put", "get", "browse", "discard", "report", "trigger", "commit", "backout", "scan"}
    assert expected | {"channel-send", "dead-letter"} <= kinds


def test_frames_have_the_documented_columns() -> None:
    qm1, _ = busy_queue_managers()
    frame = qm1.events_frame()
    assert list(frame.columns) == documented_event_fields()
    assert len(frame) == len(qm1.events)
    assert all(len(x) == 48 for x in frame["msg_id"].dropna()), "MsgIds shown as 48 hex digits"


def test_exp21_discard_event_names_the_call_that_caused_it() -> None:
    qm1, _ = busy_queue_managers()
    causes = {e.cause for e in qm1.events if e.kind == "discard"}
    assert "browse" in causes, "the browse met the expired message first"


def test_queue_frame_shows_every_state_in_delivery_order() -> None:
    qm = mq.QueueManager("QM1", profile="ibmi")
    qm.define_qlocal("Q")
    q = mq.Queue(qm, "Q")
    q.put(b"low", mq.MD(Priority=1))
    q.put(b"high", mq.MD(Priority=8, Expiry=10))
    q.put(b"mid", mq.MD(Priority=5), mq.PMO(Options=C.MQPMO_SYNCPOINT))
    q.get(None, mq.MD(), mq.GMO(Options=C.MQGMO_BROWSE_FIRST | C.MQGMO_LOCK))
    qm.sim.advance(seconds=2)
    frame = qm.queue_frame("Q")
    assert list(frame.columns) == documented_queue_columns()
    assert list(frame["priority"]) == [8, 5, 1]
    assert list(frame["state"]) == ["locked", "uncommitted put", "available"]
    assert list(frame["expired"]) == [True, False, False]
    assert list(frame["expiry"]) == [0, -1, -1]
    assert qm.curdepth("Q") == 3, "an uncommitted put and an expired message both count (EXP-25)"
    assert qm.in_unit_of_work == 1, "the syncpoint put is the open unit of work"
