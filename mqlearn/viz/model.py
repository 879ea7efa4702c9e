"""The workbench's model: one queue driven through the MQI, each action answered in one line.

No ipywidgets here (the jupyter-widgets tutorial's model/view split): notebooks, tests and the
widgets in :mod:`mqlearn.viz.gui` all call the same methods. An action never raises for an MQI
failure; it returns the reason code by name, as a learner reading the result line needs it.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

from mqlearn.engine.handle import Queue
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError, MQWarning
from mqlearn.mqi.structs import GMO, MD, PMO
from mqlearn.viz.names import FEEDBACKS, MSG_TYPES, Vocabulary, msg_tag, parse_msg_id
from mqlearn.viz.spec import MS_PER_S

if TYPE_CHECKING:
    from mqlearn.engine.events import Event
    from mqlearn.engine.qmgr import QueueManager

BROWSE_OPTIONS = {
    None: 0,
    "first": C.MQGMO_BROWSE_FIRST,
    "next": C.MQGMO_BROWSE_NEXT,
}
DATA_SHOWN = 40  # bytes of message data quoted in a result line
_SCAN_CAUSES = ("scan", "refresh")


class WorkbenchModel:
    """One local queue of ``qm`` opened once (one browse cursor, one lock), plus an optional
    reply queue whose reports the views show."""

    def __init__(self, qm: QueueManager, queue: str, reply_q: str | None = None) -> None:
        self.qm = qm
        self.queue = queue
        self.reply_q = reply_q
        qm.local(queue)  # the views read a local queue
        if reply_q is not None:
            qm.local(reply_q)
        self.handle = Queue(qm, queue)
        self.vocab = Vocabulary(qm.profile)
        self.last_result = ""

    def __repr__(self) -> str:
        return f"<WorkbenchModel {self.queue} on {self.qm.name} at {self.now_ms} ms>"

    @property
    def now_ms(self) -> int:
        """Virtual time, ms."""
        now: int = self.qm.sim.now
        return now

    @property
    def msgdlvsq(self) -> str:
        return self.qm.local(self.queue).msgdlvsq

    # -- actions ----------------------------------------------------------------------------------
    def put(
        self,
        data: bytes | str = b"",
        expiry: int = C.MQEI_UNLIMITED,
        priority: int = C.MQPRI_PRIORITY_AS_Q_DEF,
        report: int = C.MQRO_NONE,
        reply_to_q: str = "",
        persistence: int = C.MQPER_PERSISTENCE_AS_Q_DEF,
        syncpoint: bool = False,
    ) -> str:
        """MQPUT one message; the result line names it and its deadline, or the reason code."""
        payload = data.encode("utf-8") if isinstance(data, str) else data
        md = MD(
            Expiry=expiry,
            Priority=priority,
            Report=report,
            ReplyToQ=reply_to_q,
            Persistence=persistence,
        )
        pmo = PMO(Options=C.MQPMO_SYNCPOINT if syncpoint else C.MQPMO_NO_SYNCPOINT)
        since = len(self.qm.events)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", MQWarning)  # the result line reports it
                self.handle.put(payload, md, pmo)
        except MQMIError as error:
            return self._result(f"MQPUT failed: {self._why(error)}")
        v = self.vocab
        tag = msg_tag(md.MsgId)
        head = "MQPUT OK"
        if self.handle.last_reason:
            head = f"MQPUT completed with warning {v.reason(self.handle.last_reason)}"
        line = (
            f"{head}: {tag} on {self.queue}, "
            f"{v.name('Priority')} {v.value(priority, ('MQPRI_PRIORITY_AS_Q_DEF',))}, "
            f"{v.name('Expiry')} {v.expiry(expiry)}"
        )
        put = self._event_of(since, "put", md.MsgId)
        if put is not None and put.expiry is not None and put.expiry != expiry:
            line += f" (CAPEXPRY lowered it to {put.expiry}, rule EXP-06)"
        if report:
            line += f", {v.name('Report')} {v.report(report)} to {reply_to_q}"
        if put is not None and put.expiry not in (None, C.MQEI_UNLIMITED):
            deadline = put.time_ms + put.expiry * 100
            line += f"; eligible for discard from {deadline / MS_PER_S:.1f} s"
        if syncpoint:
            line += "; under syncpoint: in CURDEPTH, invisible to gets until MQCMIT (EXP-05)"
        return self._result(line)

    def get(
        self,
        browse: str | None = None,
        msg_id: bytes | str | None = None,
        correl_id: bytes | str | None = None,
        lock: bool = False,
        under_cursor: bool = False,
        syncpoint: bool = False,
        wait_ms: int = 0,
    ) -> str:
        """MQGET (or browse ``"first"``/``"next"``); the result line shows the returned
        descriptor (Expiry = remaining, rule EXP-11) or the reason code, and the expired
        messages the call discarded on the way.

        ``msg_id``/``correl_id`` (a tag like ``QM1#3``, 48 hex digits or bytes) set the match
        options; a bad value raises ValueError naming the accepted forms.
        """
        if browse not in BROWSE_OPTIONS:
            raise ValueError(f"browse must be None, 'first' or 'next', got {browse!r}")
        if type(wait_ms) is not int or wait_ms < 0:
            raise ValueError(f"wait_ms must be a non-negative int (ms), got {wait_ms!r}")
        md = MD()
        match = C.MQMO_NONE
        if msg_id:
            md.MsgId = parse_msg_id(msg_id)
            match |= C.MQMO_MATCH_MSG_ID
        if correl_id:
            md.CorrelId = parse_msg_id(correl_id)
            match |= C.MQMO_MATCH_CORREL_ID
        options = BROWSE_OPTIONS[browse]
        options |= C.MQGMO_WAIT if wait_ms else C.MQGMO_NO_WAIT
        if lock:
            options |= C.MQGMO_LOCK
        if under_cursor:
            options |= C.MQGMO_MSG_UNDER_CURSOR
        if syncpoint:
            options |= C.MQGMO_SYNCPOINT
        elif browse is None:
            options |= C.MQGMO_NO_SYNCPOINT
        gmo = GMO(
            Version=C.MQGMO_VERSION_2, Options=options, MatchOptions=match, WaitInterval=wait_ms
        )
        verb = "MQGET"
        if browse is not None:
            verb += f" {self.vocab.name(f'MQGMO_BROWSE_{browse.upper()}')}"
        since, start = len(self.qm.events), self.now_ms
        try:
            data = self.handle.get(None, md, gmo)
        except MQMIError as error:
            line = f"{verb} failed: {self._why(error)}"
        else:
            line = f"{verb} OK: {self._describe(md, data)}"
            if lock:
                line += "; locked for this handle"
            if syncpoint:
                line += "; under syncpoint (MQCMIT removes it, MQBACK restores it)"
        if self.now_ms != start:
            line += f"; waited {(self.now_ms - start) / MS_PER_S:.1f} s"
        return self._result(line + self._discards(since, match != C.MQMO_NONE))

    def advance(self, ms: int) -> str:
        """Move the virtual clock forward ``ms`` (> 0) milliseconds; the line says what is expired."""
        if type(ms) is not int or ms <= 0:
            raise ValueError(f"ms must be a positive int, got {ms!r}")
        since = len(self.qm.events)
        self.qm.sim.advance(ms=ms)
        return self.after_advance(ms, since)

    def after_advance(self, ms: int, since: int) -> str:
        """The result line of ``ms`` of virtual time that has just passed (``since``: length of
        the event log before): what is expired now, what a scan discarded."""
        expired = self.expired_count()
        line = (
            f"Clock +{ms / MS_PER_S:g} s, now {self.now_ms / MS_PER_S:.1f} s. {self.queue}: "
            f"CURDEPTH {self.qm.curdepth(self.queue)}, {expired} expired not yet discarded"
        )
        if expired:
            line += " (only a get, a browse or an expiry scan discards them: EXP-20, EXP-28)"
        scanned = [
            e
            for e in self._new_events(since)
            if e.kind == "discard" and e.cause in _SCAN_CAUSES and e.queue == self.queue
        ]
        if scanned:
            line += f"; the expiry scan discarded {len(scanned)} (EXP-28)"
        return self._result(line)

    def commit(self) -> str:
        """MQCMIT the queue manager's unit of work."""
        count = self.qm.in_unit_of_work
        self.qm.commit()
        return self._result(f"MQCMIT OK: {count} operation(s) committed")

    def backout(self) -> str:
        """MQBACK the queue manager's unit of work (got messages return in place: UOW-01)."""
        count = self.qm.in_unit_of_work
        self.qm.backout()
        line = f"MQBACK OK: {count} operation(s) backed out"
        if count:
            line += (
                "; got messages are back in place with BackoutCount + 1 and their old "
                "deadlines (UOW-01)"
            )
        return self._result(line)

    # -- reading the state ------------------------------------------------------------------------
    def expired_count(self) -> int:
        """Messages on the queue that have expired but are not discarded yet (EXP-20, EXP-25)."""
        now = self.now_ms
        return sum(m.deadline <= now for m in self.qm.local(self.queue).store.messages())

    # -- helpers ----------------------------------------------------------------------------------
    def _result(self, line: str) -> str:
        self.last_result = line
        return line

    def _why(self, error: MQMIError) -> str:
        why = self.vocab.reason(error.reason)
        return f"{why}: {error.detail}" if error.detail else why

    def _describe(self, md: MD, data: bytes) -> str:
        """The descriptor fields that matter, as a get returned them."""
        v = self.vocab
        shown = data[:DATA_SHOWN] + (b"..." if len(data) > DATA_SHOWN else b"")
        parts = [
            msg_tag(md.MsgId),
            f"data {shown!r}",
            f"{v.name('Priority')} {md.Priority}",
            f"{v.name('Expiry')} {v.expiry(md.Expiry)} (remaining, EXP-11)",
            f"{v.name('MsgType')} {v.value(md.MsgType, MSG_TYPES)}",
        ]
        if md.Feedback != C.MQFB_NONE:
            parts.append(f"{v.name('Feedback')} {v.value(md.Feedback, FEEDBACKS)}")
        if any(md.CorrelId):
            parts.append(f"{v.name('CorrelId')} {msg_tag(md.CorrelId)}")
        if md.Report != C.MQRO_NONE:
            parts.append(f"{v.name('Report')} {v.report(md.Report)}")
        if md.BackoutCount:
            parts.append(f"{v.name('BackoutCount')} {md.BackoutCount}")
        return ", ".join(parts)

    def _discards(self, since: int, matching: bool) -> str:
        """The expired messages this call discarded, with the rule that made it discard them."""
        discards = [
            e
            for e in self._new_events(since)
            if e.kind == "discard" and e.queue == self.queue and e.msg_id is not None
        ]
        if not discards:
            return ""
        tags = [msg_tag(e.msg_id) for e in discards if e.msg_id is not None]
        if any(e.cause == "cursor" for e in discards):
            rule = "LCK-01"
        elif matching:
            rule = "EXP-27"
        else:
            rule = "EXP-22" if self.msgdlvsq == "FIFO" else "EXP-23"
        return f"; discarded {len(tags)} expired on the way: {', '.join(tags)} ({rule})"

    def _new_events(self, since: int) -> list[Event]:
        return self.qm.events[since:]

    def _event_of(self, since: int, kind: str, msg_id: bytes) -> Event | None:
        for event in self._new_events(since):
            if event.kind == kind and event.msg_id == msg_id:
                return event
        return None
