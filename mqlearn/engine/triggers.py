"""Trigger events: when a queue manager writes a trigger message, and what the message holds.

IBM's page "Conditions for a trigger event" lists what must hold (TRIGGER on, a trigger type other
than NONE, an initiation queue, a process definition, a trigger monitor: rule TRG-04) and the
occasions on which the queue manager checks. mqlearn models four occasions:

- a message arrives (:func:`maybe_trigger`): FIRST when the count of messages of priority
  TRIGMPRI or more goes from 0 to 1, EVERY each time, DEPTH when it reaches TRIGDPTH (then
  TRIGGER is switched off), expired, undiscarded messages counted (TRG-02), uncommitted ones too
  (TRG-03);
- the same arrival on a FIRST queue that was not empty, once the queue manager's TRIGINT has
  passed since the last trigger message for that queue (TRG-06);
- a trigger monitor opening the initiation queue (:func:`initq_opened`): every queue it serves
  that holds enough messages gets a trigger message then (TRG-05);
- an ALTER (or MQSET) that switches TRIGGER on, or changes TRIGTYPE, TRIGMPRI or TRIGDPTH while it
  is on, on a queue that holds enough messages (:func:`criteria_altered`, TRG-07).

A trigger message is an MQTM, Format MQFMT_TRIGGER, never expiring (TRG-01), put to the initiation
queue through :func:`mqlearn.engine.generated.send` (dead-letter queue when the initiation queue
refuses it). docs/engine.md lists the occasions and conditions left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mqlearn.engine.generated import send
from mqlearn.engine.message import GOT_IN_UOW, PRIORITY, Record
from mqlearn.engine.objects import ProcessDefinition, assign
from mqlearn.engine.rule_formulas import NEVER, queued_priority
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.headers import MQTM

if TYPE_CHECKING:
    from mqlearn.engine.objects import QLocal
    from mqlearn.engine.ports import QueueManagerPort

# TRIGINT's default and largest value, in milliseconds (IBM, "TriggerInterval (MQLONG)")
DEFAULT_TRIGINT = 999_999_999
MAX_TRIGINT = 999_999_999


class TriggerTimes:
    """When each queue last had a trigger message written: TRIGINT's timer (rule TRG-06).

    IBM resets the timer when the queue manager restarts, so a queue that never triggered counts
    from the queue manager's start (``started``, virtual ms).
    """

    def __init__(self, started: int) -> None:
        self.started = started
        self._last: dict[str, int] = {}

    def since_last(self, queue: str, now: int) -> int:
        """Milliseconds since the last trigger message for ``queue`` (or since the start)."""
        return now - self._last.get(queue, self.started)

    def written(self, queue: str, now: int) -> None:
        self._last[queue] = now


def maybe_trigger(
    qm: QueueManagerPort, local: QLocal, message: Record, in_uow: bool = False
) -> None:
    """Write a trigger message if this arrival is a trigger event (rules TRG-01..04, TRG-06).

    ``in_uow``: the message was put in the open unit of work. The condition is evaluated now,
    counting uncommitted messages, and the trigger message is put in the same unit of work: it
    becomes available when the unit of work ends, committed or backed out (rule TRG-03).
    """
    if queued_priority(message[PRIORITY], qm.maxprty) < local.trigmpri:
        return
    process = ready(qm, local)
    if process is None:
        return
    count = _count(qm, local)
    occasion = ""
    if local.trigtype == "FIRST" and count != 1:
        # not the first: again only once TRIGINT has passed since the last one (rule TRG-06)
        if qm.trigger_times.since_last(local.name, qm.sim.now) < qm.trigint:
            return
        occasion = f"; TRIGINT {qm.trigint} ms passed since the last trigger message"
    if local.trigtype == "DEPTH" and count < local.trigdpth:
        return
    _write(qm, local, process, message, in_uow, occasion)


def initq_opened(qm: QueueManagerPort, initq: str) -> None:
    """A trigger monitor opened ``initq`` for input, the first handle to do so (rule TRG-05).

    Every queue served by it whose conditions now hold and which has at least one message of
    priority TRIGMPRI or more (FIRST, EVERY) or TRIGDPTH of them (DEPTH) gets one trigger
    message: the trigger events missed while no monitor was there.
    """
    for local in qm.initiated_by(initq):
        process = ready(qm, local)
        least = local.trigdpth if local.trigtype == "DEPTH" else 1
        if process is not None and _count(qm, local) >= least:
            _write(qm, local, process, None, False, f"; {initq} was opened for input")


Criteria = tuple[bool, str, int, int]  # TRIGGER, TRIGTYPE, TRIGMPRI, TRIGDPTH


def criteria(local: QLocal) -> Criteria:
    """What decides when ``local`` triggers, as an ALTER may change it (rule TRG-07)."""
    return (local.trigger, local.trigtype, local.trigmpri, local.trigdpth)


def criteria_altered(qm: QueueManagerPort, local: QLocal, before: Criteria) -> None:
    """An ALTER changed ``local`` from ``before`` (rule TRG-07): if it switched TRIGGER on, or
    changed TRIGTYPE, TRIGMPRI or (for DEPTH) TRIGDPTH while TRIGGER was on, and the queue holds
    at least one message of priority TRIGMPRI or more (FIRST, EVERY) or TRIGDPTH of them (DEPTH),
    the conditions holding, a trigger message is written now."""
    was_on, trigtype, trigmpri, trigdpth = before
    switched_on = local.trigger and not was_on
    changed = (local.trigtype, local.trigmpri) != (trigtype, trigmpri) or (
        local.trigtype == "DEPTH" and local.trigdpth != trigdpth
    )
    if not (switched_on or (was_on and local.trigger and changed)):
        return
    process = ready(qm, local)
    least = local.trigdpth if local.trigtype == "DEPTH" else 1
    if process is not None and _count(qm, local) >= least:
        _write(qm, local, process, None, False, "; its trigger attributes were altered")


def ready(qm: QueueManagerPort, local: QLocal) -> ProcessDefinition | None:
    """The process definition a trigger message from ``local`` would carry if a trigger event
    happened now, or None when one of IBM's conditions fails (rule TRG-04): TRIGGER on, a
    trigger type, an initiation queue held open for input by a trigger monitor, and a PROCESS
    naming a defined process, except on a transmission queue, which triggers a channel and
    needs none."""
    if not local.trigger or local.trigtype == "NONE" or not local.initq:
        return None
    if qm.ipprocs(local.initq) == 0:
        return None  # no trigger monitor
    if local.process:
        found = qm.processes.get(local.process)
        if found is not None:
            return found
    return _NO_PROCESS if local.is_xmitq else None


_NO_PROCESS = ProcessDefinition("NONE", appltype=0)  # a channel's MQTM: no process values


def _count(qm: QueueManagerPort, local: QLocal) -> int:
    """Messages of priority TRIGMPRI or more on the queue, expired and uncommitted ones included
    (rules TRG-02, TRG-03)."""
    if local.trigmpri == 0:
        return local.store.depth
    return sum(
        1
        for m in local.store.views()
        if m.state != GOT_IN_UOW and queued_priority(m.priority, qm.maxprty) >= local.trigmpri
    )


def _write(
    qm: QueueManagerPort,
    local: QLocal,
    process: ProcessDefinition,
    message: Record | None,
    in_uow: bool,
    occasion: str,
) -> None:
    """The trigger event: an MQTM to the initiation queue (TRG-01), logged on ``local`` against
    ``message`` (None when no arrival caused it); a DEPTH trigger switches TRIGGER off."""
    if local.trigtype == "DEPTH":
        assign(local, "trigger", False)  # as MQ does: the application switches it back on
    data = MQTM(
        QName=local.name,
        ProcessName=local.process,
        TriggerData=local.trigdata,
        ApplType=process.appltype,
        ApplId=process.applicid,
        EnvData=process.envrdata,
        UserData=process.userdata,
    ).pack()
    fields = {
        "Format": C.MQFMT_TRIGGER,
        "MsgType": C.MQMT_DATAGRAM,
        "Persistence": C.MQPER_NOT_PERSISTENT,
    }
    qm.trigger_times.written(local.name, qm.sim.now)
    assert local.initq is not None  # ready() checked it
    where = send(qm, qm.name, local.initq, data, fields, qm.qmgr_context(), NEVER, in_uow)
    qm.log(local.name, "trigger", message, local.trigtype.lower(), detail=where + occasion)
