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
    for output or browse is not a monitor; one open for input is, until it closes. (Its open
    writes the trigger message the first put missed, rule TRG-05; tested below.)"""
    qm = new_qm()
    qm.define_qlocal(INIT_Q)
    qm.define_process("APP.PROCESS")
    qm.define_qlocal(APP_Q, trigger=True, trigtype="EVERY", initq=INIT_Q, process="APP.PROCESS")
    q = mq.Queue(qm, APP_Q)
    mq.Queue(qm, INIT_Q, C.MQOO_OUTPUT | C.MQOO_BROWSE)
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert (trigger_count(qm), qm.ipprocs(INIT_Q)) == (0, 0)
    monitor = mq.Queue(qm, INIT_Q, C.MQOO_INPUT_AS_Q_DEF)
    assert (qm.ipprocs(INIT_Q), trigger_count(qm)) == (1, 1)
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert trigger_count(qm) == 2
    monitor.close()
    monitor.close()  # a second MQCLOSE does not count twice
    assert qm.ipprocs(INIT_Q) == 0
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert trigger_count(qm) == 2


def test_trg04_a_missed_depth_event_leaves_triggering_on() -> None:
    """DEPTH with no monitor: the depth is reached but no trigger event occurs, so TRIGGER stays
    on (only a trigger message switches it off); the monitor's open then fires (TRG-05) and
    switches it off, so the next put does not."""
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
    assert trigger_count(qm) == 1 and qm.local(APP_Q).trigger is False
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert trigger_count(qm) == 1


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


# --- TRG-05: a trigger monitor opening the initiation queue -------------------------------------
# IBM, "Conditions for a trigger event": a trigger message is also generated when a trigger
# monitor opens an initiation queue for removing messages and a queue it serves holds at least one
# message of sufficient priority (FIRST, EVERY) or TRIGDPTH of them (DEPTH), the other conditions
# holding: one trigger message per such queue. "Properties of trigger messages": when an
# initiation queue is next opened for input, a trigger message can be put to it for an application
# queue that has messages and is defined for triggering.


def served_queue(qm: mq.QueueManager, name: str, trigtype: str, **attrs: Any) -> mq.Queue:
    """A queue triggered through APP.INITQ with process APP.PROCESS; an output handle on it."""
    attrs = {"initq": INIT_Q, "process": "APP.PROCESS", **attrs}
    qm.define_qlocal(name, trigger=True, trigtype=trigtype, **attrs)
    return mq.Queue(qm, name, C.MQOO_OUTPUT)


def mqtm_queues(monitor: mq.Queue) -> list[str]:
    """The QName of every trigger message on the monitor's initiation queue, in order."""
    return [mq.MQTM.unpack(data).QName.rstrip() for data in drain_data(monitor)]


def drain_data(q: mq.Queue) -> list[bytes]:
    found = []
    while True:
        try:
            found.append(q.get(None, mq.MD(), mq.GMO(Options=C.MQGMO_NO_SYNCPOINT)))
        except mq.MQMIError as error:
            assert error.reason == NO_MSG_AVAILABLE
            return found


@pytest.mark.parametrize("profile", ["distributed", "zos", "ibmi"])
def test_trg05_the_monitors_open_writes_the_trigger_message_the_puts_missed(profile: str) -> None:
    """Two puts to a FIRST queue while no monitor runs: no trigger message. The monitor's
    MQOPEN for input writes one, naming the queue, logged as a trigger event with no message
    behind it."""
    qm = new_qm(profile=profile)
    qm.define_qlocal(INIT_Q)
    qm.define_process("APP.PROCESS", applicid="app")
    q = served_queue(qm, APP_Q, "FIRST")
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert trigger_count(qm) == 0
    monitor = mq.Queue(qm, INIT_Q, C.MQOO_INPUT_AS_Q_DEF)
    assert trigger_count(qm) == 1
    (event,) = events_of(qm, "trigger")
    assert (event.queue, event.msg_seq, event.cause) == (APP_Q, None, "first")
    assert event.detail == "sent to APP.INITQ at QM1; APP.INITQ was opened for input"
    data, md = get(monitor, C.MQGMO_NO_SYNCPOINT)
    assert md.Format == C.MQFMT_TRIGGER and md.Expiry == C.MQEI_UNLIMITED  # TRG-01
    tm = mq.MQTM.unpack(data)
    assert (tm.QName.rstrip(), tm.ProcessName.rstrip(), tm.ApplId.rstrip()) == (
        APP_Q,
        "APP.PROCESS",
        "app",
    )


def test_trg05_one_trigger_message_per_served_queue_that_meets_the_conditions() -> None:
    """Six queues name APP.INITQ, one names another initiation queue. At the open: EVERY with
    three messages gives one trigger message (not three), DEPTH gives one only with TRIGDPTH
    messages (and switches TRIGGER off), an expired undiscarded message counts (TRG-02), a message
    below TRIGMPRI does not, a queue with no process definition gives none (TRG-04)."""
    qm = new_qm()
    qm.define_qlocal(INIT_Q)
    qm.define_qlocal("OTHER.INITQ")
    qm.define_process("APP.PROCESS")
    every = served_queue(qm, "Q.EVERY", "EVERY")
    for _ in range(3):
        put(every, pmo_options=C.MQPMO_NO_SYNCPOINT)
    depth_ok = served_queue(qm, "Q.DEPTH2", "DEPTH", trigdpth=2)
    put(depth_ok, pmo_options=C.MQPMO_NO_SYNCPOINT)
    put(depth_ok, pmo_options=C.MQPMO_NO_SYNCPOINT, Expiry=SHORT)
    depth_short = served_queue(qm, "Q.DEPTH3", "DEPTH", trigdpth=3)
    put(depth_short, pmo_options=C.MQPMO_NO_SYNCPOINT)
    put(served_queue(qm, "Q.LOWPRI", "FIRST", trigmpri=5), pmo_options=0, Priority=4)
    put(served_queue(qm, "Q.NOPROC", "FIRST", process="NOT.DEFINED"))
    put(served_queue(qm, "Q.ELSEWHERE", "FIRST", initq="OTHER.INITQ"))
    qm.sim.advance(seconds=5)  # Q.DEPTH2's second message has expired, nothing discarded it
    monitor = mq.Queue(qm, INIT_Q, C.MQOO_INPUT_SHARED)
    assert mqtm_queues(monitor) == ["Q.EVERY", "Q.DEPTH2"]
    assert (qm.local("Q.DEPTH2").trigger, qm.local("Q.DEPTH3").trigger) == (False, True)
    assert qm.curdepth("OTHER.INITQ") == 0


def test_trg05_only_the_first_input_open_counts_and_a_reopen_fires_again() -> None:
    """A second handle opening APP.INITQ while the first has it open writes nothing (the
    conditions held at the puts, so nothing was missed); output and browse handles are no
    monitors. Once every monitor has closed, the next monitor's open fires again for the queue
    that still holds its message."""
    qm = new_qm()
    qm.define_qlocal(INIT_Q)
    qm.define_process("APP.PROCESS")
    put(served_queue(qm, APP_Q, "FIRST"), pmo_options=C.MQPMO_NO_SYNCPOINT)
    mq.Queue(qm, INIT_Q, C.MQOO_OUTPUT | C.MQOO_BROWSE)
    assert trigger_count(qm) == 0
    first = mq.Queue(qm, INIT_Q, C.MQOO_INPUT_SHARED)
    second = mq.Queue(qm, INIT_Q, C.MQOO_INPUT_SHARED)
    assert (qm.ipprocs(INIT_Q), mqtm_queues(first)) == (2, [APP_Q])
    first.close()
    second.close()
    third = mq.Queue(qm, INIT_Q, C.MQOO_INPUT_SHARED)
    assert mqtm_queues(third) == [APP_Q]


def test_trg05_the_open_sees_the_definitions_as_they_are_now() -> None:
    """The queues an initiation queue serves are looked up after every change: a queue whose
    INITQ is altered to APP.INITQ is served, one altered away or deleted is not."""
    qm = new_qm()
    qm.define_qlocal(INIT_Q)
    qm.define_qlocal("OTHER.INITQ")
    qm.define_process("APP.PROCESS")
    mq.Queue(qm, INIT_Q, C.MQOO_INPUT_SHARED).close()  # the index is made, nothing served yet
    put(served_queue(qm, "Q.MOVED.IN", "EVERY", initq="OTHER.INITQ"))
    put(served_queue(qm, "Q.MOVED.OUT", "EVERY"))
    qm.alter_qlocal("Q.MOVED.IN", initq=INIT_Q)
    qm.alter_qlocal("Q.MOVED.OUT", initq="OTHER.INITQ")
    served_queue(qm, "Q.GONE", "EVERY")
    qm.delete_queue("Q.GONE")
    monitor = mq.Queue(qm, INIT_Q, C.MQOO_INPUT_SHARED)
    assert mqtm_queues(monitor) == ["Q.MOVED.IN"]


def test_trg05_a_channel_initiator_starting_triggers_the_waiting_transmission_queue() -> None:
    """A transmission queue (no process: the channel's trigger, TRG-04) holding a message when
    the channel initiator opens SYSTEM.CHANNEL.INITQ: one trigger message for it."""
    qm = new_qm()
    qm.define_qlocal("SYSTEM.CHANNEL.INITQ")
    qm.define_qlocal(
        "QM2", usage="XMITQ", trigger=True, initq="SYSTEM.CHANNEL.INITQ", trigdata="TO.QM2"
    )
    qm.define_qremote("TO.QM2.APP", rname="APP", rqmname="QM2")
    qm.put1("TO.QM2.APP", b"x", mq.MD(), mq.PMO(Options=C.MQPMO_NO_SYNCPOINT))
    initiator = mq.Queue(qm, "SYSTEM.CHANNEL.INITQ", C.MQOO_INPUT_SHARED)
    tm = mq.MQTM.unpack(get(initiator, C.MQGMO_NO_SYNCPOINT)[0])
    assert (tm.QName.rstrip(), tm.TriggerData.rstrip()) == ("QM2", "TO.QM2")


# --- TRG-06: TRIGINT, the FIRST trigger repeated for a queue that stays non-empty ---------------
# IBM, "Conditions for a trigger event" and "Controlling trigger events" (trigger type FIRST): a
# suitable message put on a FIRST queue that was not empty makes a trigger message if the queue
# manager's TriggerInterval (TRIGINT, milliseconds, default 999 999 999) has passed since the last
# trigger message for the queue; it allows for a server that ended before emptying the queue.


def first_queue(trigint: int | None = None) -> tuple[mq.QueueManager, mq.Queue]:
    qm, q = triggered_queue(trigtype="FIRST")
    if trigint is not None:
        qm.alter_qmgr(trigint=trigint)
    return qm, q


def test_trg06_default_trigint_is_about_eleven_days_so_a_full_queue_stays_quiet() -> None:
    qm, q = first_queue()
    assert qm.trigint == 999_999_999
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    for _ in range(5):
        qm.sim.advance(seconds=86_400)  # a day
        put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert trigger_count(qm) == 1


def test_trg06_a_put_to_a_non_empty_first_queue_triggers_once_trigint_has_passed() -> None:
    """TRIGINT 60 s: the first message triggers at 0 s; puts at 30 s and 59.999 s do not; the
    put at 60 s does (the queue was never emptied); the next only at 120 s or later."""
    qm, q = first_queue(trigint=60_000)
    at_ms: list[int] = []
    for t in (0, 30_000, 59_999, 60_000, 90_000, 119_999, 125_000):
        qm.sim.run_until(t)
        before = trigger_count(qm)
        put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
        if trigger_count(qm) > before:
            at_ms.append(t)
    assert at_ms == [0, 60_000, 125_000]
    details = [e.detail for e in events_of(qm, "trigger")]
    assert details[1].endswith("; TRIGINT 60000 ms passed since the last trigger message")


def test_trg06_trigint_zero_makes_first_behave_like_every_while_the_queue_is_not_empty() -> None:
    """IBM: with a low TRIGINT and no application serving the queue, FIRST may behave like
    EVERY."""
    qm, q = first_queue(trigint=0)
    for _ in range(4):
        put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert trigger_count(qm) == 4


def test_trg06_the_interval_counts_from_any_trigger_message_and_from_the_start() -> None:
    """The timer restarts at every trigger message for the queue, the monitor's open (TRG-05)
    included; a queue that never triggered counts from the queue manager's start."""
    qm = new_qm()
    qm.alter_qmgr(trigint=60_000)
    qm.define_qlocal(INIT_Q)
    qm.define_process("APP.PROCESS")
    q = served_queue(qm, APP_Q, "FIRST")
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)  # no monitor: no trigger
    monitor = mq.Queue(qm, INIT_Q, C.MQOO_INPUT_SHARED)
    qm.sim.run_until(50_000)
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert trigger_count(qm) == 1, "the open wrote one; it was not the put's first message"
    monitor.close()
    monitor = mq.Queue(qm, INIT_Q, C.MQOO_INPUT_SHARED)  # open at 50 s: fires, timer at 50 s
    qm.sim.run_until(100_000)
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert trigger_count(qm) == 2, "50 s since the open's trigger message"
    qm.sim.run_until(110_000)
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert trigger_count(qm) == 3

    sim = mq.Simulation()
    sim.run_until(1_000_000)
    late = mq.QueueManager("QM1", sim)
    late.alter_qmgr(trigint=60_000, expryint=0)
    late.define_qlocal(INIT_Q)
    trigger_monitor(late)
    q = served_queue(late, APP_Q, "FIRST", process="")
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)  # no process named: no trigger event
    late.alter_qlocal(APP_Q, process="APP.PROCESS")
    late.sim.advance(seconds=30)
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert trigger_count(late) == 0, "30 s since this queue manager started (at 1000 s)"


def test_trg06_trigint_leaves_every_and_depth_alone() -> None:
    qm, q = triggered_queue(trigtype="DEPTH", trigdpth=2)
    qm.alter_qmgr(trigint=0)
    for _ in range(4):
        put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert trigger_count(qm) == 1


@pytest.mark.parametrize("bad", [-1, 1_000_000_000, "5", 1.5, True])
def test_trg06_trigint_out_of_range_is_refused_and_changes_nothing(bad: object) -> None:
    qm = new_qm()
    with pytest.raises(ValueError, match=r"TRIGINT must be milliseconds in 0\.\.999999999"):
        qm.alter_qmgr(trigint=bad, deadq="DLQ")  # type: ignore[arg-type]
    assert (qm.trigint, qm.deadq) == (999_999_999, None)


# --- TRG-07: trigger attributes altered while messages wait ----------------------------------------
# IBM, "Conditions for a trigger event": a trigger message is also generated when, by MQSET or a
# command, TriggerControl is changed to on, or it is on and TriggerType, TriggerMsgPriority or
# (where it matters) TriggerDepth is changed, and at least one message of sufficient priority
# (FIRST, EVERY) or TriggerDepth of them (DEPTH) is on the queue: "to allow for an application or
# operator changing the triggering criteria, when the conditions for a trigger to occur are already
# satisfied".


def test_trg07_switching_a_depth_trigger_back_on_fires_at_once_while_the_depth_is_there() -> None:
    """DEPTH 2: the second put fires and switches TRIGGER off; a third message arrives with it
    off. Switching it back on finds 3 ≥ 2 waiting: a trigger message at once, and TRIGGER off
    again. Once the queue is below TRIGDPTH, switching it on writes nothing and it stays on."""
    qm, q = triggered_queue(trigtype="DEPTH", trigdpth=2)
    for _ in range(3):
        put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert trigger_count(qm) == 1 and qm.local(APP_Q).trigger is False
    qm.alter_qlocal(APP_Q, trigger=True)
    assert trigger_count(qm) == 2 and qm.local(APP_Q).trigger is False
    assert events_of(qm, "trigger")[-1].detail.endswith("; its trigger attributes were altered")
    get(q, C.MQGMO_NO_SYNCPOINT)
    get(q, C.MQGMO_NO_SYNCPOINT)
    qm.alter_qlocal(APP_Q, trigger=True)
    assert trigger_count(qm) == 2 and qm.local(APP_Q).trigger is True


def test_trg07_changed_criteria_fire_other_attributes_and_an_empty_queue_do_not() -> None:
    """TRIGGER on, FIRST, one message waiting (its trigger message written at the put): changing
    MAXDEPTH writes nothing; changing TRIGMPRI to 0 from 0 writes nothing; changing TRIGTYPE to
    EVERY writes one; changing TRIGDPTH of a non-DEPTH queue writes nothing. MQSC's ALTER QLOCAL
    is the same ALTER."""
    qm, q = triggered_queue(trigtype="FIRST")
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT)
    assert trigger_count(qm) == 1
    qm.alter_qlocal(APP_Q, maxdepth=100, trigmpri=0)
    assert trigger_count(qm) == 1
    qm.alter_qlocal(APP_Q, trigtype="EVERY")
    assert trigger_count(qm) == 2
    qm.alter_qlocal(APP_Q, trigdpth=7)
    assert trigger_count(qm) == 2
    out = qm.mqsc(f"ALTER QLOCAL({APP_Q}) TRIGTYPE(FIRST)")
    assert "AMQ8008I" in out and trigger_count(qm) == 3
    get(q, C.MQGMO_NO_SYNCPOINT)
    qm.alter_qlocal(APP_Q, trigtype="EVERY")
    assert trigger_count(qm) == 3, "nothing waits on APP.IN"


def test_trg07_the_other_conditions_still_hold_no_monitor_no_trigger_message() -> None:
    """Switching TRIGGER on while a message waits but no trigger monitor has the initiation queue
    open writes nothing (mqlearn's reading, docs/engine.md); the monitor's open then writes it
    (TRG-05). Messages below TRIGMPRI do not count."""
    qm = new_qm()
    qm.define_qlocal(INIT_Q)
    qm.define_process("APP.PROCESS")
    q = served_queue(qm, APP_Q, "FIRST", trigmpri=5)
    qm.alter_qlocal(APP_Q, trigger=False)
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT, Priority=4)
    monitor = mq.Queue(qm, INIT_Q, C.MQOO_INPUT_SHARED)
    qm.alter_qlocal(APP_Q, trigger=True)
    assert trigger_count(qm) == 0, "the waiting message is below TRIGMPRI"
    monitor.close()
    put(q, pmo_options=C.MQPMO_NO_SYNCPOINT, Priority=6)
    qm.alter_qlocal(APP_Q, trigmpri=6)
    assert trigger_count(qm) == 0, "no trigger monitor"
    monitor = mq.Queue(qm, INIT_Q, C.MQOO_INPUT_SHARED)
    assert mqtm_queues(monitor) == [APP_Q]
