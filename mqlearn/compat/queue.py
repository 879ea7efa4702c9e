"""Queue: MQOPEN (dynamic queues from model queues included), MQPUT, MQGET with the libraries'
truncation and wait behaviour, MQCLOSE, MQINQ and MQSET on a queue."""

from __future__ import annotations

import re
import threading
import warnings
from typing import TYPE_CHECKING, Any

from mqlearn.compat import CMQC, authority, dynamic, inquiry
from mqlearn.compat.calls import (
    Library,
    T,
    common_q_args,
    encode_payload,
    engine_call,
    resolved,
    text,
)
from mqlearn.compat.convert import from_engine, gmo_in, md_in, pmo_in
from mqlearn.compat.exceptions import MQMIError
from mqlearn.compat.hosting import Host
from mqlearn.compat.mqopts import MQOpts
from mqlearn.engine import Queue as EngineQueue
from mqlearn.mqi.errors import MQWarning

if TYPE_CHECKING:
    from mqlearn.compat.connection import QueueManager

_TRUNCATED = re.compile(r"message is (\d+) bytes")
_INPUT = CMQC.MQOO_INPUT_AS_Q_DEF | CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_INPUT_EXCLUSIVE


class Queue:
    """An MQ queue handle: ``Queue(qmgr)``, ``Queue(qmgr, name_or_od)`` (opened on first use),
    ``Queue(qmgr, name_or_od, open_options)`` (opened now)."""

    def __init__(self, qmgr: QueueManager, *opts: Any) -> None:
        if len(opts) > 2:
            raise TypeError("Too many args")
        self._qmgr = qmgr
        self._lib = qmgr._LIB
        self._od: MQOpts | None = None
        self._open_opts: int | None = None
        self._handle: EngineQueue | None = None
        self._name = ""
        self._dynamic: str | None = None
        if opts:
            self._od = self._make_od(opts[0])
        if len(opts) == 2:
            self._open_opts = opts[1]
            self._real_open()

    def _make_od(self, desc: Any) -> MQOpts:
        if isinstance(desc, str | bytes):
            name = desc.encode("ascii") if isinstance(desc, str) else desc
            od: MQOpts = self._lib.OD(ObjectName=name)
            return od
        return desc  # type: ignore[no-any-return]

    def __enter__(self: T) -> T:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._handle is not None:
            self.close()

    def __del__(self) -> None:
        """Both libraries close a queue left open when its object goes (a temporary dynamic
        queue is then deleted, an exclusive input released)."""
        try:
            if self._handle is not None:
                self.close()
        except Exception:  # as in both libraries: nothing to report it to
            pass

    def open(self, q_desc: Any, *opts: Any) -> None:
        """MQOPEN now when options are given, else on the first put or get."""
        if len(opts) > 1:
            raise TypeError("Too many args")
        if self._handle is not None:
            raise self._lib.PYIFError("The Queue is already open")
        self._od = self._make_od(q_desc)
        if opts:
            self._open_opts = opts[0]
            self._real_open()

    def _real_open(self) -> None:
        if self._od is None:
            raise self._lib.PYIFError("The Queue Descriptor has not been set.")
        host = self._qmgr._connected()
        od = self._od
        options = self._open_opts if self._open_opts is not None else 0
        with engine_call(self._lib, host):
            name = text(od.ObjectName)
            qmgr_name = text(od.ObjectQMgrName)
            if od.ObjectType not in (CMQC.MQOT_Q,):
                raise self._lib.MQMIError(CMQC.MQCC_FAILED, CMQC.MQRC_OBJECT_TYPE_ERROR)
            user = self._qmgr._user
            authority.check_queue(self._lib, host, user, name, options)
            if name in host.models:
                name = dynamic.create(self._lib, host, name, text(od.DynamicQName))
                if user == authority.APP:
                    host.created_by_app.add(name)
                self._dynamic = name
                od.ObjectName = name.encode("ascii").ljust(48, b" ")
            if options & CMQC.MQOO_INPUT_EXCLUSIVE and host.opened.get(name, [0, 0])[0]:
                raise self._lib.MQMIError(CMQC.MQCC_FAILED, CMQC.MQRC_OBJECT_IN_USE)
            if qmgr_name and qmgr_name != host.qm.name:
                host.qm.route_to(qmgr_name, name)  # 2087 when no transmission queue leads there
                raise self._lib.MQMIError(
                    CMQC.MQCC_FAILED,
                    CMQC.MQRC_FUNCTION_NOT_SUPPORTED,
                    detail="an ObjectQMgrName naming another queue manager is not simulated: "
                    "define a remote queue (MQCMD_CREATE_Q with MQQT_REMOTE) and open that",
                )
            handle = EngineQueue(host.qm, name, options)
            self._name = name
            self._handle = handle
            counts = host.opened.setdefault(name, [0, 0])
            counts[0] += bool(options & _INPUT)
            counts[1] += bool(options & CMQC.MQOO_OUTPUT)
            route = host.qm.route(handle.name)
            od.ResolvedQName = route.local.name.encode("ascii").ljust(48, b" ")
            od.ResolvedQMgrName = host.qm.name.encode("ascii").ljust(48, b" ")

    def _open_for(self, options: int) -> EngineQueue:
        if self._handle is None:
            self._open_opts = options
            self._real_open()
        assert self._handle is not None
        return self._handle

    def put(self, msg: Any, *opts: Any) -> None:
        """MQPUT: ``md`` and ``pmo`` (if given) are updated as the MQI updates them."""
        md, pmo = common_q_args(self._lib, *opts)
        data = encode_payload(msg, md, self._qmgr)
        if pmo is None:
            pmo = self._lib.PMO()
        handle = self._open_for(CMQC.MQOO_OUTPUT)
        host = self._qmgr._connected()
        self._put(host, handle, data, md, pmo)

    def _put(self, host: Host, handle: Any, data: bytes, md: MQOpts, pmo: MQOpts) -> None:
        if pmo.Options & CMQC.MQPMO_ASYNC_RESPONSE:
            self._put_async(host, handle, data, md, pmo)
            return
        emd, epmo = md_in(md), pmo_in(pmo)
        with engine_call(self._lib, host):
            handle.put(data, emd, epmo)
            warning = handle.last_reason
            if warning:
                raise self._lib.MQMIError(CMQC.MQCC_WARNING, warning)
            from_engine(emd, md)
            from_engine(epmo, pmo)
            resolved(host, handle.name, pmo)

    def _put_async(self, host: Host, handle: Any, data: bytes, md: MQOpts, pmo: MQOpts) -> None:
        """MQPMO_ASYNC_RESPONSE: the put does not wait for the queue manager's answer; a
        failure (a PUT(DISABLED) queue, a full one) shows up in the next MQSTAT instead."""
        options = pmo.Options
        pmo.Options = options & ~CMQC.MQPMO_ASYNC_RESPONSE
        try:
            emd, epmo = md_in(md), pmo_in(pmo)
        finally:
            pmo.Options = options
        if handle.closed or not handle.open_opts & CMQC.MQOO_OUTPUT:
            with engine_call(self._lib, host):
                handle.put(data, emd, epmo)  # fails now, as MQPUT checks the handle at once
        try:
            with engine_call(self._lib, host):
                handle.put(data, emd, epmo)
                warning = handle.last_reason
                from_engine(emd, md)
        except MQMIError as error:
            self._qmgr._count_async(error.comp, error.reason)
            return
        self._qmgr._count_async(CMQC.MQCC_WARNING if warning else CMQC.MQCC_OK, warning)

    def put_rfh2(self, msg: bytes, *opts: Any) -> None:
        headers = opts[2] if len(opts) >= 3 else None
        if headers:
            msg = b"".join(h.pack() for h in headers) + msg
        self.put(msg, *opts[:2])

    def get(self, maxLength: int | None = None, *opts: Any, **kwargs: Any) -> bytes:
        """MQGET: the message's data. A message longer than ``maxLength`` raises MQMIError 2080
        (left on the queue) or, with MQGMO_ACCEPT_TRUNCATED_MSG, 2079 (removed); both carry
        ``original_length`` and ``message`` (the data returned)."""
        md, gmo = common_q_args(self._lib, *opts[:2])
        if gmo is None:
            gmo = self._lib.GMO()
        handle = self._open_for(CMQC.MQOO_INPUT_AS_Q_DEF)
        host = self._qmgr._connected()
        accept = bool(gmo.Options & CMQC.MQGMO_ACCEPT_TRUNCATED_MSG)
        limit = maxLength
        if limit is None and accept:
            limit = 0  # both libraries ask for no data in that case
        emd, egmo = md_in(md), gmo_in(gmo)
        try:
            data = waiting.get(self._lib, host, handle, None if accept else limit, emd, egmo)
        except MQMIError as error:
            if error.reason == CMQC.MQRC_TRUNCATED_MSG_FAILED:
                from_engine(emd, md)
                found = _TRUNCATED.search(getattr(error, "detail", ""))
                error.original_length = int(found.group(1)) if found else None
                error.message = b""
            raise
        from_engine(emd, md)
        from_engine(egmo, gmo)
        gmo.ResolvedQName = handle.name.encode("ascii").ljust(48, b" ")
        gmo.ReturnedLength = len(data)
        warning = handle.last_reason  # e.g. 2241 after logical-order gets (rule MD-11)
        if warning and warning != CMQC.MQRC_TRUNCATED_MSG_ACCEPTED:
            raise self._lib.MQMIError(CMQC.MQCC_WARNING, warning)
        if accept and limit is not None and len(data) > limit:
            gmo.ReturnedLength = limit
            raise self._lib.MQMIError(
                CMQC.MQCC_WARNING,
                CMQC.MQRC_TRUNCATED_MSG_ACCEPTED,
                message=data[:limit],
                original_length=len(data),
            )
        return data

    def get_no_jms(self, max_length: int | None = None, *args: Any, **kwargs: Any) -> bytes:
        md, gmo = common_q_args(self._lib, *args)
        gmo = gmo or self._lib.GMO()
        gmo.Options |= CMQC.MQGMO_NO_PROPERTIES | CMQC.MQGMO_FAIL_IF_QUIESCING
        return self.get(max_length, md, gmo)

    get_no_rfh2 = get_no_jms

    def close(self, options: int = CMQC.MQCO_NONE) -> None:
        """MQCLOSE; a temporary dynamic queue is deleted with its messages (and a permanent one
        with MQCO_DELETE / MQCO_DELETE_PURGE)."""
        if self._handle is None:
            raise self._lib.PYIFError("not open")
        host = self._qmgr._connected()
        with engine_call(self._lib, host):
            counts = host.opened.get(self._name)
            opts = self._handle.open_opts
            if counts:
                counts[0] -= bool(opts & _INPUT)
                counts[1] -= bool(opts & CMQC.MQOO_OUTPUT)
            dynamic.on_close(host, self._name, options, creator=self._dynamic is not None)
            with warnings.catch_warnings():  # raised below, as the libraries do
                warnings.simplefilter("ignore", MQWarning)
                self._handle.close()
        warning = self._handle.last_reason  # 2241/2242: a group left unterminated (MD-10)
        self._handle = None
        self._od = None
        self._open_opts = None
        self._dynamic = None
        if warning:
            raise self._lib.MQMIError(CMQC.MQCC_WARNING, warning)

    def inquire(self, selectors: Any) -> Any:
        """MQINQ on the queue (opened for inquire if it is not open)."""
        self._open_for(CMQC.MQOO_INQUIRE)
        host = self._qmgr._connected()
        with engine_call(self._lib, host):
            return inquiry.inquire_queue(self._lib, host, self._name, selectors)

    inq = inquire

    def set(self, *args: Any) -> None:
        """MQSET: ``set(selector, value)`` or ``set({selector: value, ...})``."""
        self._open_for(CMQC.MQOO_SET)
        host = self._qmgr._connected()
        values = args[0] if len(args) == 1 and isinstance(args[0], dict) else {args[0]: args[1]}
        with engine_call(self._lib, host):
            inquiry.set_queue(self._lib, host, self._name, values)

    def get_handle(self) -> EngineQueue | None:
        return self._handle

    def set_handle(self, handle: EngineQueue) -> None:
        self._handle = handle
        self._name = handle.name

    def get_name(self) -> str:
        return self._name or (text(self._od.ObjectName) if self._od is not None else "")

    def get_queue_manager(self) -> QueueManager:
        return self._qmgr


class VirtualWaitWarning(UserWarning):
    """A thread waits on the virtual clock, which moves at once to the end of the wait."""


def _warn_virtual_wait(host: Host) -> None:
    """Once per queue manager: a thread other than the main one waits on the virtual clock, so
    its wait runs the shared clock forward at once instead of waiting for another thread."""
    if host.warned_virtual_wait:
        return
    host.warned_virtual_wait = True
    warnings.warn(
        VirtualWaitWarning(
            f"a thread waits with MQGMO_WAIT on {host.qm.name}'s virtual clock: the wait moves the "
            f"clock at once. For threads that wait on each other, call "
            f"realtime({host.qm.name!r}) first (docs/compat.md, Threads and time)"
        ),
        stacklevel=4,
    )


class _Waiting:
    """MQGET with MQGMO_WAIT: on the virtual clock the engine waits (moving the clock); in
    real-time mode the calling thread blocks until a put or the clock satisfies it."""

    def get(
        self,
        lib: Library,
        host: Host,
        handle: EngineQueue,
        limit: int | None,
        emd: Any,
        egmo: Any,
    ) -> bytes:
        options = egmo.Options
        wait = egmo.WaitInterval if options & CMQC.MQGMO_WAIT else None
        if host.factor is None or wait is None:
            if wait is not None and threading.current_thread() is not threading.main_thread():
                _warn_virtual_wait(host)
            with engine_call(lib, host):
                data: bytes = handle.get(limit, emd, egmo)
                return data
        egmo.Options = options & ~CMQC.MQGMO_WAIT  # restored before the GMO goes back
        with host.lock:
            host.sync()
            deadline = None if wait == CMQC.MQWI_UNLIMITED else host.sim.now + wait
        while True:
            try:
                with engine_call(lib, host):
                    data = handle.get(limit, emd, egmo)
                    egmo.Options = options
                    return data
            except MQMIError as error:
                if error.reason != CMQC.MQRC_NO_MSG_AVAILABLE:
                    egmo.Options = options
                    raise
            with host.lock:
                host.sync()
                now = host.sim.now
                if deadline is not None and now >= deadline:
                    egmo.Options = options
                    raise lib.MQMIError(CMQC.MQCC_FAILED, CMQC.MQRC_NO_MSG_AVAILABLE)
                step = 50 if deadline is None else min(50, deadline - now)
                host.changed.wait(timeout=max(host.wall_seconds(step), 0.001))


waiting = _Waiting()
