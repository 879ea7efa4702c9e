"""Triggers (TRG-01, TRG-02): trigger messages never expire, and expired messages still count."""

from __future__ import annotations

from typing import Any

import mqlearn as mq
from mqlearn import CMQC as C
from tests.engine.helpers_part1 import (
    APP_Q,
    INIT_Q,
    SHORT,
    drain,
    events_of,
    get,
    new_qm,
    put,
    put_expired_and_live,
)


def triggered_queue(**attrs: Any) -> tuple[mq.QueueManager, mq.Queue]:
    """APP.IN with triggering on, initiation queue APP.INITQ; ``attrs`` add TRIGTYPE etc."""
    qm = new_qm()
    qm.define_qlocal(INIT_Q)
    qm.define_qlocal(APP_Q, trigger=True, initq=INIT_Q, **attrs)
    return qm, mq.Queue(qm, APP_Q)


def trigger_count(qm: mq.QueueManager) -> int:
    """How many trigger messages the initiation queue holds."""
    return qm.curdepth(INIT_Q)


def test_trg01_trigger_message_never_expires() -> None:
    """TRG-01: the triggering message lives 0.5 s, the trigger message is MQEI_UNLIMITED: ten
    seconds later it is still there, Format MQFMT_TRIGGER, data an MQTM naming the queue."""
    qm, q = triggered_queue(trigtype="FIRST", process="APP.PROCESS", trigdata="start me")
    put(q, b"short-lived", Expiry=5)
    qm.sim.advance(seconds=10)

    data, md = get(mq.Queue(qm, INIT_Q))

    assert md.Expiry == C.MQEI_UNLIMITED
    assert md.Format == C.MQFMT_TRIGGER
    assert md.MsgType == C.MQMT_DATAGRAM
    tm = mq.MQTM.unpack(data)
    assert tm.StrucId == C.MQTM_STRUC_ID
    assert tm.QName.rstrip() == APP_Q
    assert tm.ProcessName.rstrip() == "APP.PROCESS"
    assert tm.TriggerData.rstrip() == "start me"
    assert len(events_of(qm, "trigger")) == 1


def test_trg02_first_trigger_suppressed_by_expired_undiscarded_message() -> None:
    """TRG-02 / EXP-25 with TRIGTYPE(FIRST): an expired message nobody has discarded still counts,
    so the next put does not find the queue empty and fires no trigger. Once a get has discarded
    it and the queue really is empty, the next put fires again."""
    qm, q = triggered_queue(trigtype="FIRST")
    put_expired_and_live(qm, q, "e")  # fires the first trigger, then expires
    assert trigger_count(qm) == 1
    put(q, b"second")
    assert trigger_count(qm) == 1, "the expired message counted: not the first message"
    assert [md.Expiry for md in drain(q)] == [C.MQEI_UNLIMITED]  # discards the expired one too
    assert qm.curdepth(APP_Q) == 0
    put(q, b"third")
    assert trigger_count(qm) == 2


def test_trg02_depth_trigger_counts_expired_messages_and_switches_off() -> None:
    """TRG-02: TRIGTYPE(DEPTH) TRIGDPTH(3): two expired messages and one live one reach depth 3
    and fire the trigger. Triggering is then switched off: refilling the queue fires nothing."""
    qm, q = triggered_queue(trigtype="DEPTH", trigdpth=3)
    put_expired_and_live(qm, q, "ee")
    assert trigger_count(qm) == 0
    put(q, b"third")
    assert trigger_count(qm) == 1, "expired messages count toward TRIGDPTH"
    put(q, b"fourth")
    drain(q)
    for i in range(3):
        put(q, b"refill %d" % i)
    assert trigger_count(qm) == 1, "TRIGGER was switched off after the depth trigger"


def test_trg02_every_trigger_fires_per_put() -> None:
    """TRIGTYPE(EVERY): one trigger message per arriving message, expired ones queued or not."""
    qm, q = triggered_queue(trigtype="EVERY")
    for _ in range(3):
        put(q, Expiry=SHORT)
    qm.sim.advance(seconds=2)
    put(q)
    assert trigger_count(qm) == 4


def test_trg02_syncpoint_put_triggers_at_commit() -> None:
    """A put under syncpoint triggers when it is committed, not when it is put; backout: never."""
    qm, q = triggered_queue(trigtype="EVERY")
    put(q, pmo_options=C.MQPMO_SYNCPOINT)
    assert trigger_count(qm) == 0
    qm.commit()
    assert trigger_count(qm) == 1
    put(q, pmo_options=C.MQPMO_SYNCPOINT)
    qm.backout()
    assert trigger_count(qm) == 1
