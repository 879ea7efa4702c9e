"""Triggers (TRG-01, TRG-02, TRG-03): trigger messages never expire, expired messages still count,
and a put in a unit of work triggers at the put, its trigger message held until the unit of work
ends (committed or backed out)."""

from __future__ import annotations

from typing import Any

import pytest

import mqlearn as mq
from mqlearn import CMQC as C
from tests.engine.helpers import (
    APP_Q,
    INIT_Q,
    SHORT,
    drain,
    events_of,
    get,
    new_qm,
    put,
    put_expired_and_live,
    trigger_monitor,
)


def triggered_queue(**attrs: Any) -> tuple[mq.QueueManager, mq.Queue]:
    """APP.IN with triggering on, initiation queue APP.INITQ, process APP.PROCESS and a trigger
    monitor on APP.INITQ (TRG-04); ``attrs`` add TRIGTYPE etc."""
    qm = new_qm()
    qm.define_qlocal(INIT_Q)
    trigger_monitor(qm)
    qm.define_qlocal(APP_Q, trigger=True, initq=INIT_Q, **{"process": "APP.PROCESS", **attrs})
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


# -- TRG-03: triggers caused by puts in a unit of work ---------------------------------------------
# IBM ("Conditions for a trigger event", "Designing an application that uses triggered queues",
# "Properties of trigger messages"): the condition is assessed when the message is put, counting
# committed and uncommitted messages; a trigger message caused by a put in a unit of work is put to
# the initiation queue in that unit of work, so a trigger monitor can get it only when the unit of
# work ends, and it is made available whether the unit of work is committed or backed out.
NO_MSG_AVAILABLE = 2033  # MQRC_NO_MSG_AVAILABLE


def trigger_available(qm: mq.QueueManager) -> bool:
    """Whether a trigger monitor's get from the initiation queue finds a message (browsed)."""
    try:
        mq.Queue(qm, INIT_Q).get(None, mq.MD(), mq.GMO(Options=C.MQGMO_BROWSE_FIRST))
    except mq.MQMIError as error:
        assert error.reason == NO_MSG_AVAILABLE
        return False
    return True


def test_trg03_syncpoint_put_makes_its_trigger_message_at_once_held_until_commit() -> None:
    """EVERY: the put in a unit of work creates the trigger message at once, in the same unit of
    work: it is on APP.INITQ (CURDEPTH 1, an uncommitted put) but no get can have it. The commit
    makes it available; it names APP.IN."""
    qm, q = triggered_queue(trigtype="EVERY")
    put(q, pmo_options=C.MQPMO_SYNCPOINT)
    assert [e.detail for e in events_of(qm, "trigger")] == [
        "put to APP.INITQ at QM1 in the unit of work"
    ]
    assert (trigger_count(qm), qm.uncommitted(INIT_Q)) == (1, 1)
    assert not trigger_available(qm)
    qm.commit()
    assert qm.uncommitted(INIT_Q) == 0
    data, md = get(mq.Queue(qm, INIT_Q))
    assert md.Format == C.MQFMT_TRIGGER
    assert mq.MQTM.unpack(data).QName.rstrip() == APP_Q


def test_trg03_backout_does_not_withdraw_the_trigger_message() -> None:
    """The unit of work is backed out: the application message is gone, the trigger message is
    made available all the same, so the started application finds APP.IN empty."""
    qm, q = triggered_queue(trigtype="FIRST")
    put(q, pmo_options=C.MQPMO_SYNCPOINT)
    qm.backout()
    assert qm.curdepth(APP_Q) == 0
    assert (trigger_count(qm), qm.uncommitted(INIT_Q)) == (1, 0)
    data, _ = get(mq.Queue(qm, INIT_Q))
    assert mq.MQTM.unpack(data).QName.rstrip() == APP_Q
    assert [e.kind for e in events_of(qm, "backout")] == ["backout", "backout"], (
        "only the application message's put is backed out (and the closing backout event)"
    )


def test_trg03_uncommitted_messages_count_for_first() -> None:
    """FIRST fires when the count goes from 0 to 1, uncommitted messages included: two puts in
    one unit of work give one trigger message (at the first put); a put outside the unit of work
    while the first is still uncommitted finds the queue not empty and gives none. The backout
    then leaves the trigger message available."""
    qm, q = triggered_queue(trigtype="FIRST")
    put(q, b"a", pmo_options=C.MQPMO_SYNCPOINT)
    put(q, b"b", pmo_options=C.MQPMO_SYNCPOINT)
    assert trigger_count(qm) == 1
    put(q, b"c", pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert trigger_count(qm) == 1, "a and b were on the queue, uncommitted: c is not the first"
    qm.commit()
    assert trigger_count(qm) == 1 and trigger_available(qm)
    assert len(events_of(qm, "trigger")) == 1


def test_trg03_depth_counts_an_uncommitted_put_and_switches_triggering_off_at_the_put() -> None:
    """DEPTH with TRIGDPTH 2: one committed message and one put in a unit of work make 2, so the
    second put fires; TRIGGER is switched off then, before the unit of work ends; the trigger
    message becomes available at the backout."""
    qm, q = triggered_queue(trigtype="DEPTH", trigdpth=2)
    put(q, b"committed")
    put(q, b"in a unit of work", pmo_options=C.MQPMO_SYNCPOINT)
    assert trigger_count(qm) == 1
    assert qm.local(APP_Q).trigger is False
    assert not trigger_available(qm)
    qm.backout()
    assert trigger_available(qm)


def test_trg03_zos_default_put_is_in_a_unit_of_work() -> None:
    """On z/OS a put with neither MQPMO_SYNCPOINT nor MQPMO_NO_SYNCPOINT is in a unit of work
    ("Triggering in the client environment"): its trigger message waits for the commit."""
    qm = new_qm(profile="zos")
    qm.define_qlocal(INIT_Q)
    trigger_monitor(qm)
    qm.define_qlocal(APP_Q, trigger=True, trigtype="EVERY", initq=INIT_Q, process="APP.PROCESS")
    put(mq.Queue(qm, APP_Q))
    assert trigger_count(qm) == 1 and not trigger_available(qm)
    qm.commit()
    assert trigger_available(qm)


def test_trg03_trigger_message_refused_by_initq_is_dead_lettered_in_the_uow() -> None:
    """APP.INITQ is full: the trigger message goes to the dead-letter queue (IBM: "If the queue
    manager fails to put a trigger message on an initiation queue, it will be put on the
    dead-letter queue"), in the same unit of work, available when it ends."""
    qm, q = triggered_queue(trigtype="EVERY")
    qm.alter_qlocal(INIT_Q, maxdepth=0)
    qm.define_qlocal("DLQ")
    qm.alter_qmgr(deadq="DLQ")
    put(q, pmo_options=C.MQPMO_SYNCPOINT)
    assert (qm.curdepth("DLQ"), qm.uncommitted("DLQ")) == (1, 1)
    qm.commit()
    data, md = get(mq.Queue(qm, "DLQ"), md=mq.MD(Version=2))
    assert md.Format == C.MQFMT_DEAD_LETTER_HEADER
    assert mq.MQDLH.unpack(data).Reason == C.MQRC_Q_FULL
    assert mq.MQTM.unpack(data[C.MQDLH_LENGTH_1 :]).QName.rstrip() == APP_Q


# --- TRG-04: IBM's "Conditions for a trigger event", one condition at a time --------------------


@pytest.mark.parametrize("profile", ["distributed", "zos", "ibmi"])
def test_trg04_all_conditions_met_fires_and_the_mqtm_carries_the_process(profile: str) -> None:
    """The baseline the tests below take one condition away from: TRIGGER, INITQ, a defined
    PROCESS and a monitor on the initiation queue: one trigger message, whose MQTM holds the
    process's APPLICID, APPLTYPE, ENVRDATA and USERDATA."""
    qm = new_qm(profile=profile)
    qm.define_qlocal(INIT_Q)
    qm.define_process("P1", applicid="/bin/app", appltype=C.MQAT_UNIX, envrdata="e", userdata="u")
    monitor = mq.Queue(qm, INIT_Q, C.MQOO_INPUT_SHARED)
    qm.define_qlocal(APP_Q, trigger=True, trigtype="EVERY", initq=INIT_Q, process="P1")
    put(mq.Queue(qm, APP_Q), pmo_options=C.MQPMO_NO_SYNCPOINT)
    data, _ = get(monitor, C.MQGMO_NO_SYNCPOINT)
    tm = mq.MQTM.unpack(data)
    assert (tm.ProcessName.rstrip(), tm.ApplId.rstrip(), tm.ApplType) == ("P1", "/bin/app", 6)
    assert (tm.EnvData.rstrip(), tm.UserData.rstrip()) == ("e", "u")


def test_trg04_no_process_named_no_trigger_message() -> None:
    """PROCESS blank on an application queue: no trigger event (the monitor would not know what
    to start)."""
    qm, q = triggered_queue(trigtype="EVERY", process="")
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert trigger_count(qm) == 0 and not events_of(qm, "trigger")


def test_trg04_process_named_but_not_defined_no_trigger_until_it_is() -> None:
    """PROCESS names a process nobody defined: no trigger message; once it is defined, the next
    put fires (TRIGTYPE EVERY)."""
    qm, q = triggered_queue(trigtype="EVERY", process="NOT.YET")
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert trigger_count(qm) == 0
    qm.define_process("NOT.YET")
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert trigger_count(qm) == 1


def test_trg04_no_trigger_monitor_no_trigger_message() -> None:
    """Nobody holds the initiation queue open for input: no trigger message. A handle open only
    for output or browse is not a monitor; one open for input is, until it closes."""
    qm = new_qm()
    qm.define_qlocal(INIT_Q)
    qm.define_process("APP.PROCESS")
    qm.define_qlocal(APP_Q, trigger=True, trigtype="EVERY", initq=INIT_Q, process="APP.PROCESS")
    q = mq.Queue(qm, APP_Q)
    mq.Queue(qm, INIT_Q, C.MQOO_OUTPUT | C.MQOO_BROWSE)
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert (trigger_count(qm), qm.ipprocs(INIT_Q)) == (0, 0)
    monitor = mq.Queue(qm, INIT_Q, C.MQOO_INPUT_AS_Q_DEF)
    assert qm.ipprocs(INIT_Q) == 1
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert trigger_count(qm) == 1
    monitor.close()
    monitor.close()  # a second MQCLOSE does not count twice
    assert qm.ipprocs(INIT_Q) == 0
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert trigger_count(qm) == 1


def test_trg04_a_missed_depth_event_leaves_triggering_on() -> None:
    """DEPTH with no monitor: the depth is reached but no trigger event occurs, so TRIGGER stays
    on (only a trigger message switches it off); with a monitor the next put fires."""
    qm = new_qm()
    qm.define_qlocal(INIT_Q)
    qm.define_process("APP.PROCESS")
    qm.define_qlocal(
        APP_Q, trigger=True, trigtype="DEPTH", trigdpth=1, initq=INIT_Q, process="APP.PROCESS"
    )
    q = mq.Queue(qm, APP_Q, C.MQOO_OUTPUT)
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert trigger_count(qm) == 0 and qm.local(APP_Q).trigger is True
    mq.Queue(qm, INIT_Q, C.MQOO_INPUT_SHARED)
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert trigger_count(qm) == 1 and qm.local(APP_Q).trigger is False


def test_trg04_a_transmission_queue_triggers_a_channel_without_a_process() -> None:
    """IBM: to trigger a channel no process definition is needed; the transmission queue's
    definition serves. The channel initiator still holds the initiation queue open."""
    qm = new_qm()
    qm.define_qlocal("SYSTEM.CHANNEL.INITQ")
    qm.define_qlocal(
        "QM2",
        usage="XMITQ",
        trigger=True,
        trigtype="FIRST",
        initq="SYSTEM.CHANNEL.INITQ",
        trigdata="TO.QM2",
    )
    qm.define_qremote("TO.QM2.APP", rname="APP", rqmname="QM2")
    qm.put1("TO.QM2.APP", b"x", mq.MD(), mq.PMO(Options=C.MQPMO_NO_SYNCPOINT))
    assert qm.curdepth("SYSTEM.CHANNEL.INITQ") == 0, "no channel initiator yet"
    get(mq.Queue(qm, "QM2"), C.MQGMO_NO_SYNCPOINT)
    initiator = mq.Queue(qm, "SYSTEM.CHANNEL.INITQ", C.MQOO_INPUT_SHARED)
    qm.put1("TO.QM2.APP", b"x", mq.MD(), mq.PMO(Options=C.MQPMO_NO_SYNCPOINT))
    data, _ = get(initiator, C.MQGMO_NO_SYNCPOINT)
    tm = mq.MQTM.unpack(data)
    assert (tm.QName.rstrip(), tm.ProcessName.strip(), tm.TriggerData.rstrip()) == (
        "QM2",
        "",
        "TO.QM2",
    )
