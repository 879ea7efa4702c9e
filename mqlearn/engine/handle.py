"""``mq.Queue``: an open queue handle, shaped like pymqi's Queue (put, get, close)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mqlearn.engine import groups, mqget, open_options, triggers
from mqlearn.engine.message import SEQ, Record
from mqlearn.engine.mqi_checks import fail
from mqlearn.engine.opened import Opened
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError
from mqlearn.mqi.structs import GMO, MD, PMO

if TYPE_CHECKING:
    from mqlearn.engine.qmgr import QueueManager
    from mqlearn.engine.store import LocalStore


_LOGICAL_ORDER = C.MQPMO_LOGICAL_ORDER


class Queue(Opened):
    """``Queue(qm, name, open_opts)`` opens a queue as MQOPEN does (2085 for an unknown name).

    ``open_opts`` (MQOO_*) decide which calls the handle may make (rule MQI-02,
    :mod:`mqlearn.engine.open_options`); without them it may put, get and browse.

    Each handle has its own browse cursor and may hold one message locked (MQGMO_LOCK).
    After every call ``last_comp``/``last_reason`` hold its completion and reason codes, so a
    warning (2049 on put, 2079 on a truncated get) can be seen without an exception; a call that
    raises MQMIError leaves that error's codes there, a successful one MQCC_OK / MQRC_NONE (rule
    MQI-01).
    """

    def __init__(self, qm: QueueManager, name: str, open_opts: int | None = None) -> None:
        self.qm = qm
        self.name = name
        route = qm.route(name)  # MQOPEN resolves the name now: unknown names fail here
        super().__init__(f"queue {name}", open_opts, remote=route.remote is not None)
        self.cursor_message: Record | None = None  # the browse cursor: the last browsed message
        self.locked: tuple[LocalStore, Record] | None = None  # MQGMO_LOCK: where, and which
        # group and segment information (issue 24), made by the first call that needs it
        self.groups: groups.HandleGroups | None = None
        # the local queue this handle counts in IPPROCS, if opened for input (rule TRG-04)
        self._input_on = route.local.name if self.open_opts & open_options.INPUT else None
        if self._input_on is not None:
            qm.input_opens[self._input_on] = qm.ipprocs(self._input_on) + 1
            if qm.ipprocs(self._input_on) == 1:  # a trigger monitor, if it is an initiation queue
                triggers.initq_opened(qm, self._input_on)  # rule TRG-05

    @property
    def cursor_seq(self) -> int | None:
        """The number (seq) of the message under the browse cursor, if any."""
        cursor = self.cursor_message
        return None if cursor is None else cursor[SEQ]

    def __repr__(self) -> str:
        return f"<Queue {self.name} on {self.qm.name}>"

    def put(self, msg: bytes, md: MD | None = None, pmo: PMO | None = None) -> None:
        """MQPUT. ``md`` (if given) is updated in place with MsgId, PutDate, PutTime, ..."""
        if (  # logical order, or group information to keep (issue 24)
            self.groups is not None
            or (pmo is not None and pmo.Options & _LOGICAL_ORDER)
            or (md is not None and md.MsgFlags and md.Version >= 2)
        ):
            self._output(self._put_in_groups, self.name, msg, md, pmo)
        else:
            self._output(self.qm.put, self.name, msg, md, pmo)

    def _put_in_groups(self, name: str, msg: object, md: MD | None, pmo: PMO | None) -> int:
        return groups.put(self.qm, self, name, msg, md, pmo)

    def get(
        self, max_length: int | None = None, md: MD | None = None, gmo: GMO | None = None
    ) -> bytes:
        """MQGET (and browse). ``md`` is filled with the message's descriptor; Expiry = remaining."""
        try:
            if self.closed:
                raise fail(C.MQRC_HOBJ_ERROR, f"handle for {self.what} is closed")
            qm = self.qm
            route = qm.route(self.name)
            if route.remote is not None:
                raise fail(
                    C.MQRC_OPTION_NOT_VALID_FOR_TYPE, f"{self.name} is a remote queue: no gets"
                )
            options = gmo.Options if gmo is not None else C.MQGMO_NONE
            open_options.check_get(self.open_opts, options, self.what)
            return mqget.get(qm, self, route.local, max_length, md, gmo)  # sets codes on success
        except MQMIError as error:  # rule MQI-01
            self.last_comp, self.last_reason = error.comp, error.reason
            raise

    def lock(self, store: LocalStore, record: Record) -> None:
        """MQGMO_LOCK: this handle's previous lock is released first."""
        self._release_lock()
        store.lock(record, self)
        self.locked = (store, record)

    def _release_lock(self) -> None:
        if self.locked is not None:
            store, record = self.locked
            if store.locker(record) is self:
                store.lock(record, None)
            self.locked = None

    def close(self) -> None:
        """MQCLOSE: releases the lock and the cursor, and leaves IPPROCS. A group or logical
        message that LOGICAL_ORDER calls left unterminated: MQCC_WARNING with 2241 or 2242 in
        ``last_comp``/``last_reason`` and an MQWarning (rule MD-10); the handle is closed."""
        self._release_lock()
        self.cursor_message = None
        if self._input_on is not None and not self.closed:
            self.qm.input_opens[self._input_on] -= 1
        incomplete = 0 if self.closed else groups.on_close(self)
        super().close()
        if incomplete:
            self.last_comp, self.last_reason = C.MQCC_WARNING, incomplete
            groups.warn(incomplete, f"{self.what} closed with an unterminated group or message")
