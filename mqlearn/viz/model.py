"""The workbench's model: one queue driven through the MQI, each action answered in one line.

No ipywidgets here (the jupyter-widgets tutorial's model/view split): notebooks, tests and the
widgets (:mod:`mqlearn.viz.workbench`, :mod:`mqlearn.viz.comparison`) all call the same methods.
An action never raises for an MQI failure; it returns the reason code by name, as a learner
reading the result line needs it.
Messages are named by their labels (:mod:`mqlearn.viz.labels`), the same in every view.

With ``undo=True`` every action is journaled, so :meth:`WorkbenchModel.undo` and
:meth:`WorkbenchModel.redo` can move between states: the engine is deterministic, so a state is
a snapshot taken every few actions plus the actions after it, executed again.
"""

from __future__ import annotations

import gc
import pickle
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NamedTuple

from mqlearn.engine.handle import Queue
from mqlearn.engine.rule_formulas import deadline_of, is_expired
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError, MQWarning
from mqlearn.mqi.structs import GMO, MD, PMO
from mqlearn.viz.group_boxes import NO_GROUP, GroupFields, detail
from mqlearn.viz.labels import Labels, attach, labels_for
from mqlearn.viz.names import FEEDBACKS, MSG_TYPES, Vocabulary, msg_tag, parse_msg_id
from mqlearn.viz.times import MS_PER_S

if TYPE_CHECKING:
    from mqlearn.engine.events import Event
    from mqlearn.engine.qmgr import QueueManager

BROWSE_OPTIONS = {
    None: 0,
    "first": C.MQGMO_BROWSE_FIRST,
    "next": C.MQGMO_BROWSE_NEXT,
}
DATA_SHOWN = 40  # bytes of message data quoted in a result line
FILL_MAX = 100_000  # messages one fill() may put
SNAPSHOT_EVERY = 8  # undo: a snapshot after at most this many messages' worth of actions
_SCAN_CAUSES = ("scan", "refresh")


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Unpickling a queue manager allocates thousands of objects at once, which sets off
    the cyclic collector over everything a kernel holds (measured: an undo's p95 4× its median).
    They are all reachable, so a pause loses nothing; the pickle module's docs suggest the same."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class Entry(NamedTuple):
    """One journaled action: its method, arguments, the state before it if snapshotted, and
    its cost (the messages it puts, at least 1): what running it again takes, roughly."""

    action: str
    kwargs: dict[str, Any]
    snapshot: bytes | None
    cost: int


class WorkbenchModel:
    """One local queue of ``qm`` opened once (one browse cursor, one lock), plus an optional
    reply queue whose reports the views show."""

    def __init__(
        self, qm: QueueManager, queue: str, reply_q: str | None = None, *, undo: bool = False
    ) -> None:
        self.qm = qm
        self.queue = queue
        self.reply_q = reply_q
        qm.local(queue)  # the views read a local queue
        if reply_q is not None:
            qm.local(reply_q)
        self.handle = Queue(qm, queue)
        self.vocab = Vocabulary(qm.profile)
        self.last_result = ""
        self.last_seq: int | None = None  # the message the last get or browse returned
        self.undoable = undo
        self._journal: list[Entry] = []
        self._done = 0  # actions of the journal that make the state shown now
        self._replaying = False
        # the queue manager whose messages' labels next_letter has seen (their data, b"A", is
        # a label too): looked at once, at the first letter handed out on it
        self._named: QueueManager | None = None

    @property
    def labels(self) -> Labels:
        """The labels of this queue manager's messages (shared with every view of it)."""
        return labels_for(self.qm)

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
        label: str | None = None,
        group_id: bytes | str | None = None,
        msg_seq_number: int = 1,
        offset: int = 0,
        msg_flags: int = C.MQMF_NONE,
    ) -> str:
        """MQPUT one message; the result line names it and its deadline, or the reason code.

        ``label`` names the message in every view (else its data, if short, else its MsgId tag);
        ``label="auto"`` gives it the next letter: A, B, C, … ``group_id`` (bytes, a tag or 48
        hex digits), ``msg_seq_number``, ``offset`` and ``msg_flags`` put it in a group or make
        it a segment (a version-2 MD; the queue view draws the group as one).
        """
        kwargs = locals().copy()
        del kwargs["self"]
        fields = GroupFields(
            C.MQGI_NONE if group_id is None else parse_msg_id(group_id),
            msg_seq_number,
            offset,
            msg_flags,
        )
        with self._recorded("put", kwargs, 1):
            return self._put(
                data, expiry, priority, report, reply_to_q, persistence, syncpoint, label, fields
            )

    def _put(
        self,
        data: bytes | str,
        expiry: int,
        priority: int,
        report: int,
        reply_to_q: str,
        persistence: int,
        syncpoint: bool,
        label: str | None,
        fields: GroupFields,
    ) -> str:
        payload = data.encode("utf-8") if isinstance(data, str) else data
        md = MD(
            Expiry=expiry,
            Priority=priority,
            Report=report,
            ReplyToQ=reply_to_q,
            Persistence=persistence,
        )
        grouped = fields != NO_GROUP
        if grouped:
            md.Version = C.MQMD_VERSION_2
            md.GroupId, md.MsgSeqNumber, md.Offset, md.MsgFlags = fields
        pmo = PMO(Options=C.MQPMO_SYNCPOINT if syncpoint else C.MQPMO_NO_SYNCPOINT)
        since = len(self.qm.events)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", MQWarning)  # the result line reports it
                self.handle.put(payload, md, pmo)
        except MQMIError as error:
            return self._result(f"MQPUT failed: {self._why(error)}")
        v = self.vocab
        put = self._put_event(since)
        if put is not None and put.msg_seq is not None and label is not None:
            taken = set()
            if label == "auto" and self._named is not self.qm:  # once per queue manager
                taken, self._named = self._labels_on_queues(put.msg_seq), self.qm
            name = self.labels.next_letter(taken) if label == "auto" else label
            self.labels.give(put.msg_seq, name)
        tag = msg_tag(md.MsgId) if put is None else self._name(put)
        head = "MQPUT OK"
        if self.handle.last_reason:
            head = f"MQPUT completed with warning {v.reason(self.handle.last_reason)}"
        line = (
            f"{head}: {tag} on {self.queue}, "
            f"{v.name('Priority')} {v.value(priority, ('MQPRI_PRIORITY_AS_Q_DEF',))}, "
            f"{v.name('Expiry')} {v.expiry(expiry)}"
        )
        if put is not None and put.expiry is not None and put.expiry != expiry:
            line += f" (CAPEXPRY lowered it to {put.expiry}, rule EXP-06)"
        if report:
            line += f", {v.name('Report')} {v.report(report)} to {reply_to_q}"
        if grouped:
            line += f", {detail(fields, v)}"
        if put is not None and put.expiry not in (None, C.MQEI_UNLIMITED):
            deadline = deadline_of(put.expiry, put.time_ms)
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
        kwargs = locals().copy()
        del kwargs["self"]
        with self._recorded("get", kwargs, 1):
            return self._get(browse, msg_id, correl_id, lock, under_cursor, syncpoint, wait_ms)

    def _get(
        self,
        browse: str | None,
        msg_id: bytes | str | None,
        correl_id: bytes | str | None,
        lock: bool,
        under_cursor: bool,
        syncpoint: bool,
        wait_ms: int,
    ) -> str:
        if browse not in BROWSE_OPTIONS:
            raise ValueError(f"browse must be None, 'first' or 'next', got {browse!r}")
        if type(wait_ms) is not int or wait_ms < 0:
            raise ValueError(f"wait_ms must be a non-negative int (ms), got {wait_ms!r}")
        md = MD(Version=C.MQMD_VERSION_2)  # the group fields come back, and no MQMDE (MD-07)
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
        self.last_seq = None
        try:
            data = self.handle.get(None, md, gmo)
        except MQMIError as error:
            line = f"{verb} failed: {self._why(error)}"
        else:
            name = msg_tag(md.MsgId)
            if self.qm.record_events:
                found = self._new_events(since)[-1]  # the call's own get or browse event
                self.last_seq, name = found.msg_seq, self._name(found)
            line = f"{verb} OK: {self._describe(md, data, name)}"
            if self.last_seq is not None and (props := self.qm.properties_of(self.last_seq)):
                line += "; properties " + ", ".join(p.shown() for p in props)
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
        with self._recorded("advance", {"ms": ms}, 1):
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
        with self._recorded("commit", {}, 1):
            count = self.qm.in_unit_of_work
            self.qm.commit()
            return self._result(f"MQCMIT OK: {count} operation(s) committed")

    def backout(self) -> str:
        """MQBACK the queue manager's unit of work (got messages return in place: UOW-01)."""
        with self._recorded("backout", {}, 1):
            count = self.qm.in_unit_of_work
            self.qm.backout()
            line = f"MQBACK OK: {count} operation(s) backed out"
            if count:
                line += (
                    "; got messages are back in place with BackoutCount + 1 and their old "
                    "deadlines (UOW-01)"
                )
            return self._result(line)

    def fill(self, count: int, expiry: int = 600, expired_every: int = 0) -> str:
        """Put ``count`` messages at once (one action for undo), priorities 0-9 in turn, with
        ``expiry`` tenths; every ``expired_every``-th message (0: none) gets Expiry 1, so it
        has expired a tenth of a second later. For demonstrations and benchmarks."""
        if type(count) is not int or not 0 < count <= FILL_MAX:
            raise ValueError(f"count must be an int in 1..{FILL_MAX}, got {count!r}")
        if type(expired_every) is not int or expired_every < 0:
            raise ValueError(f"expired_every must be a non-negative int, got {expired_every!r}")
        kwargs = {"count": count, "expiry": expiry, "expired_every": expired_every}
        with self._recorded("fill", kwargs, count):
            done = 0
            try:
                for i in range(count):
                    short = expired_every and i % expired_every == expired_every - 1
                    md = MD(Expiry=1 if short else expiry, Priority=i % 10)
                    self.handle.put(b"m%d" % i, md, PMO(Options=C.MQPMO_NO_SYNCPOINT))
                    done += 1
            except MQMIError as error:
                return self._result(f"MQPUT x {count}: {done} put, then failed: {self._why(error)}")
            return self._result(
                f"MQPUT x {count} OK on {self.queue}: CURDEPTH {self.qm.curdepth(self.queue)}"
            )

    # -- undo and redo ----------------------------------------------------------------------------
    @property
    def can_undo(self) -> bool:
        return self._done > 0

    @property
    def can_redo(self) -> bool:
        return self._done < len(self._journal)

    def undo(self) -> str:
        """Go back to the state before the last action (its snapshot, then the actions since)."""
        if not self.undoable:
            raise ValueError("this model keeps no journal: create it with undo=True")
        if not self.can_undo:
            return self._result("Nothing to undo")
        target = self._done - 1
        undone = self._journal[target]
        start = max(i for i in range(target + 1) if self._journal[i].snapshot is not None)
        snapshot = self._journal[start].snapshot
        assert snapshot is not None  # the first action always has one
        self._restore(snapshot)
        self._rerun(self._journal[start:target])
        self._done = target
        return self._result(
            f"Undone: {undone.action}. Back at {self.now_ms / MS_PER_S:.1f} s, "
            f"CURDEPTH {self.qm.curdepth(self.queue)}"
        )

    def redo(self) -> str:
        """Do the last undone action again (the same call on the same state: the same result)."""
        if not self.undoable:
            raise ValueError("this model keeps no journal: create it with undo=True")
        if not self.can_redo:
            return self._result("Nothing to redo")
        entry = self._journal[self._done]
        self._rerun([entry])
        self._done += 1
        return self.last_result

    def _rerun(self, entries: list[Entry]) -> None:
        self._replaying = True
        try:
            for entry in entries:
                getattr(self, entry.action)(**entry.kwargs)
        finally:
            self._replaying = False

    @contextmanager
    def _recorded(self, action: str, kwargs: dict[str, Any], cost: int) -> Iterator[None]:
        """Journal an action that completes (one that raises is not recorded); ``cost`` counts
        the messages it puts, which decides when the next snapshot is due."""
        if not self.undoable or self._replaying:
            yield
            return
        snapshot = self._snapshot() if self._snapshot_due() else None
        yield
        del self._journal[self._done :]  # a new action forgets what could have been redone
        self._journal.append(Entry(action, kwargs, snapshot, cost))
        self._done += 1

    def _snapshot_due(self) -> bool:
        """Undoing the next action would re-run SNAPSHOT_EVERY messages' worth of actions or more
        from the latest snapshot before it (the first action always snapshots). Counted from
        the journal, so an undo does not force a snapshot: on a deep queue each costs a pickle
        of the whole queue manager."""
        since = 0
        for i in range(self._done - 1, -1, -1):
            entry = self._journal[i]
            since += entry.cost
            if entry.snapshot is not None:
                return since >= SNAPSHOT_EVERY
        return True

    def _snapshot(self) -> bytes:
        state = (self.qm, self.handle, self.labels, self.last_result, self.last_seq)
        return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)

    def _restore(self, snapshot: bytes) -> None:
        with _collector_paused():
            qm, self.handle, labels, self.last_result, self.last_seq = pickle.loads(snapshot)
        self.qm = qm
        attach(qm, labels)

    # -- reading the state ------------------------------------------------------------------------
    def expired_count(self) -> int:
        """Messages on the queue that have expired but are not discarded yet (EXP-20, EXP-25)."""
        now = self.now_ms
        return sum(is_expired(m.deadline, now) for m in self.qm.local(self.queue).store.views())

    # -- helpers ----------------------------------------------------------------------------------
    def _labels_on_queues(self, new: int) -> set[str]:
        """The labels of every message on this queue manager's queues now but message ``new``
        (data a notebook put, ``b"A"``, names a message A before any view has drawn it)."""
        labels = self.labels
        return {
            labels.looked_up(m)
            for q in self.qm.local_queues()
            for m in q.store.views()
            if m.seq != new
        }

    def _result(self, line: str) -> str:
        self.last_result = line
        return line

    def _why(self, error: MQMIError) -> str:
        why = self.vocab.reason(error.reason)
        return f"{why}: {error.detail}" if error.detail else why

    def _describe(self, md: MD, data: bytes, name: str) -> str:
        """The descriptor fields that matter, as a get returned them."""
        v = self.vocab
        shown = data[:DATA_SHOWN] + (b"..." if len(data) > DATA_SHOWN else b"")
        parts = [
            name,
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
        fields = GroupFields(md.GroupId, md.MsgSeqNumber, md.Offset, md.MsgFlags)
        if fields != NO_GROUP:
            parts.append(detail(fields, v))
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
        tags = [self._name(e) for e in discards]
        if any(e.cause == "cursor" for e in discards):
            rule = "LCK-01"
        elif matching:
            rule = "EXP-27"
        else:
            rule = "EXP-22" if self.msgdlvsq == "FIFO" else "EXP-23"
        return f"; discarded {len(tags)} expired on the way: {', '.join(tags)} ({rule})"

    def _new_events(self, since: int) -> list[Event]:
        return self.qm.events[since:]

    def _put_event(self, since: int) -> Event | None:
        """The put event of the application's message put since then (not a generated one)."""
        for event in self._new_events(since):
            if event.kind == "put" and event.cause != "qmgr":
                return event
        return None

    def _name(self, event: Event) -> str:
        """The label of the message an event concerns, with its MsgId tag when they differ."""
        tag = msg_tag(event.msg_id) if event.msg_id is not None else "-"
        name = self.labels.of(event.msg_seq, event.msg_id)
        return name if name == tag else f"{name} (MsgId {tag})"
