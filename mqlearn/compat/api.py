"""The verbs of pymqi and ibmmq (connect, QueueManager, Queue, Topic, Subscription, MessageHandle)
on a simulated queue manager (:mod:`mqlearn.compat.hosting`).

Every call goes to the engine through its public API, under the queue manager's lock, and comes
back as the real library would give it: the library's structures updated in place, MQCC_WARNING
and MQCC_FAILED raised as the library's MQMIError (2079 and 2080 with ``original_length``), str
payloads encoded and marked MQFMT_STRING. :class:`Library` holds what differs between pymqi and
ibmmq; :mod:`mqlearn.pymqi` and :mod:`mqlearn.ibmmq` each make one.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from mqlearn.compat import CMQC, authority, hosting
from mqlearn.compat import properties as props
from mqlearn.compat.convert import from_engine, gmo_in, md_in, pmo_in
from mqlearn.compat.errors import MQMIError, PYIFError
from mqlearn.compat.hosting import Host
from mqlearn.compat.structs import Flavour, MQOpts, structures
from mqlearn.engine import Queue as EngineQueue
from mqlearn.engine import Topic as EngineTopic
from mqlearn.mqi.errors import MQMIError as EngineError
from mqlearn.mqi.errors import MQWarning

T = TypeVar("T")
_TRUNCATED = re.compile(r"message is (\d+) bytes")
_INPUT = CMQC.MQOO_INPUT_AS_Q_DEF | CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_INPUT_EXCLUSIVE


def text(value: bytes | str | None) -> str:
    """A name as given by a program (bytes or str, maybe blank- or NUL-padded) as plain text."""
    if value is None:
        return ""
    if isinstance(value, bytes):
        value = value.split(b"\0", 1)[0].decode("utf-8", "replace")
    return value.strip()


class Library:
    """One flavour's classes: its structures and exceptions (the API classes look them up here)."""

    def __init__(self, flavour: Flavour, error: type[MQMIError], pyif: type[PYIFError]) -> None:
        self.flavour = flavour
        self.name = flavour.name
        self.structs = structures(flavour)
        self.MQMIError = error
        self.PYIFError = pyif

    def __getattr__(self, name: str) -> type[MQOpts]:
        try:
            return self.structs[name]
        except KeyError:
            raise AttributeError(name) from None


# -- calling the engine -----------------------------------------------------------------------
@contextmanager
def engine_call(lib: Library, host: Host) -> Iterator[None]:
    """Run engine calls under the queue manager's lock, with the clock synchronised; an engine
    MQMIError becomes the library's (its ``detail`` kept as an attribute)."""
    with host.lock:
        host.sync()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", MQWarning)
                yield
        except EngineError as error:
            raise lib.MQMIError(error.comp, error.reason, detail=error.detail) from None
        finally:
            host.notify()


def encode_payload(msg: Any, md: MQOpts, qmgr: QueueManager) -> bytes:
    """pymqi's and ibmmq's rule: a str is encoded (bytes_encoding, UTF-8 by default) and the MD
    says so (Format MQFMT_STRING, CodedCharSetId default_ccsid, 1208); anything else but bytes
    is a TypeError."""
    if isinstance(msg, bytes):
        return msg
    if isinstance(msg, str):
        md.CodedCharSetId = qmgr.default_ccsid
        md.Format = CMQC.MQFMT_STRING
        return msg.encode(qmgr.bytes_encoding)
    raise TypeError(f"Message type is {type(msg)}. Convert to bytes.")


def resolved(host: Host, name: str, pmo: MQOpts) -> None:
    """MQPUT's output fields of the PMO: where the message went (for a remote queue, the
    queue and queue manager it is bound for)."""
    route = host.qm.route(name)
    queue, qmgr = (
        (route.remote.rname, route.remote.rqmname)
        if route.remote is not None
        else (route.local.name, host.qm.name)
    )
    pmo.ResolvedQName = queue.encode("ascii").ljust(48, b" ")
    pmo.ResolvedQMgrName = qmgr.encode("ascii").ljust(48, b" ")


def common_q_args(lib: Library, *opts: Any) -> tuple[MQOpts, MQOpts | None]:
    """(MD, PMO-or-GMO) from a call's optional arguments, a fresh MD when none is given."""
    if len(opts) > 2:
        raise TypeError("Too many args")
    md = opts[0] if opts else None
    pg = opts[1] if len(opts) == 2 else None
    if md is None:
        md = lib.MD()
    return md, pg


# -- connection -------------------------------------------------------------------------------
def _port(conn_info: str) -> int:
    """The port of a CONNAME such as 'localhost(1414)' (1414 when none is given)."""
    first = conn_info.split(",")[0].strip()
    match = re.fullmatch(r"[^()]*\((\d+)\)", first)
    return int(match.group(1)) if match else hosting.DEFAULT_PORT


class QueueManager:
    """A connection to a simulated queue manager (``QueueManager(None)`` connects later)."""

    _LIB: Library  # set by each flavour's subclass

    def __init__(
        self,
        name: Any = "",
        disconnect_on_exit: bool = True,
        bytes_encoding: str = "utf8",
        default_ccsid: int = 1208,
    ) -> None:
        self._host: Host | None = None
        self._user = ""  # who the connection acts as: "app", "admin", or "mqm" (bindings)
        self._async = [0, 0, 0, CMQC.MQCC_OK, CMQC.MQRC_NONE]  # MQSTAT's counts, first problem
        self._name = name
        self.bytes_encoding = bytes_encoding
        self.default_ccsid = default_ccsid
        self._disconnect_on_exit = disconnect_on_exit
        if name is not None:
            self.connect(name)

    # connecting
    def connect(self, name: Any, user: Any = None) -> None:
        """MQCONN in bindings mode: the queue manager of that name on this machine (2058 when
        there is none; a blank name means the default queue manager, QM1). The program acts as
        ``user`` when it gives one, else as mqm."""
        wanted = text(name) or hosting.DEFAULT_QMGR
        found = hosting.hosted(wanted)
        if found is None and wanted == hosting.DEFAULT_QMGR:
            found = hosting.host(wanted)
        if found is None:
            raise self._LIB.MQMIError(CMQC.MQCC_FAILED, CMQC.MQRC_Q_MGR_NAME_ERROR)
        self._attach(found, wanted, text(user) or "mqm")

    def connect_with_options(self, name: Any, *args: Any, **kwargs: Any) -> None:
        """MQCONNX: a client connection when an MQCD is given, bindings otherwise."""
        if len(args) > 2:
            raise TypeError("Too many positional args provided")
        if args:
            kwargs["cd"] = args[0]
        if len(args) == 2:
            kwargs["sco"] = args[1]
        cd = kwargs.get("cd")
        user, password = kwargs.get("user"), kwargs.get("password")
        csp = kwargs.get("csp")
        if csp is not None:
            user, password = csp.CSPUserId, csp.CSPPassword
        if user and password is None:
            raise ValueError("Password must not be None if user is provided")
        if cd is None:
            self.connect(name, user)
            return
        self._connect_client(name, cd, user, password)

    connectWithOptions = connect_with_options

    def connect_tcp_client(
        self,
        name: Any,
        cd: MQOpts,
        channel: Any,
        conn_name: Any,
        user: Any = None,
        password: Any = None,
        **more: Any,
    ) -> None:
        """MQCONNX as a client over TCP to ``conn_name`` through ``channel``."""
        cd.ChannelName = channel.encode("ascii") if isinstance(channel, str) else channel
        cd.ConnectionName = conn_name.encode("ascii") if isinstance(conn_name, str) else conn_name
        cd.ChannelType = 6  # MQCHT_CLNTCONN
        cd.TransportType = 2  # MQXPT_TCP
        self.connect_with_options(name, cd=cd, user=user, password=password, **more)

    connectTCPClient = connect_tcp_client

    def _connect_client(self, name: Any, cd: MQOpts, user: Any, password: Any) -> None:
        """What the developer container answers a client: 2538 when nothing listens at the
        address, 2059 when the queue manager there has another name, 2540 for a channel it
        does not define, 2035 for a user the channel does not accept or a wrong password."""
        fail = CMQC.MQCC_FAILED
        port = _port(text(cd.ConnectionName))
        wanted = text(name)
        listening = [h for h in hosting.all_hosts() if h.port == port]
        if not listening and port == hosting.DEFAULT_PORT:
            listening = [hosting.host(hosting.DEFAULT_QMGR)]
        if not listening:
            raise self._LIB.MQMIError(fail, CMQC.MQRC_HOST_NOT_AVAILABLE)
        found = next((h for h in listening if h.qm.name == wanted), None)
        if found is None and not wanted:
            found = listening[0]
        if found is None:
            raise self._LIB.MQMIError(fail, CMQC.MQRC_Q_MGR_NOT_AVAILABLE)
        channel = text(cd.ChannelName)
        if channel not in found.channels:
            raise self._LIB.MQMIError(fail, CMQC.MQRC_UNKNOWN_CHANNEL_NAME)
        user_text = text(user)
        if not user_text and channel == hosting.APP_CHANNEL and not found.app_password_required:
            user_text, password = "app", None  # the channel's MCAUSER, no password to check
        if user_text not in found.channels[channel]:
            raise self._LIB.MQMIError(fail, CMQC.MQRC_NOT_AUTHORIZED)
        expected = found.passwords.get(user_text)
        if expected is not None and text(password) != expected:
            raise self._LIB.MQMIError(fail, CMQC.MQRC_NOT_AUTHORIZED)
        self._attach(found, found.qm.name, user_text)

    def _attach(self, host: Host, name: str, user: str) -> None:
        self._host = host
        self._name = name.encode("ascii")
        self._user = user

    def disconnect(self) -> None:
        """MQDISC (an open unit of work is committed, as a normal MQDISC does)."""
        host = self._connected()
        if host.qm.in_unit_of_work:
            with engine_call(self._LIB, host):
                host.qm.commit()
        self._host = None

    def _connected(self) -> Host:
        if self._host is None:
            raise self._LIB.PYIFError("not connected")
        return self._host

    def get_handle(self) -> Host:
        return self._connected()

    getHandle = get_handle

    def get_name(self) -> str:
        self._connected()
        return text(self._name)

    @property
    def is_connected(self) -> bool:
        return self._host is not None

    def __enter__(self: T) -> T:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._host is not None:
            self.disconnect()

    # the simulation behind the connection
    @property
    def simulation(self) -> Any:
        """The simulated queue manager's Simulation (its virtual clock): not in the real
        libraries; a notebook uses it to move time and to show the queues."""
        return self._connected().sim

    # units of work
    def begin(self) -> None:
        """MQBEGIN: a client connection has no global unit of work to begin (2012)."""
        self._connected()
        raise self._LIB.MQMIError(CMQC.MQCC_FAILED, CMQC.MQRC_ENVIRONMENT_ERROR)

    def commit(self) -> None:
        host = self._connected()
        with engine_call(self._LIB, host):
            host.qm.commit()

    def backout(self) -> None:
        host = self._connected()
        with engine_call(self._LIB, host):
            host.qm.backout()

    def put1(self, q_desc: Any, msg: Any, *opts: Any) -> None:
        """MQPUT1: open, put one message, close."""
        queue = Queue(self, q_desc, CMQC.MQOO_OUTPUT)
        try:
            queue.put(msg, *opts)
        finally:
            queue.close()

    def inquire(self, selectors: Any) -> Any:
        """MQINQ on the queue manager: one selector gives its value, a list a dict."""
        from mqlearn.compat import inquiry

        host = self._connected()
        with engine_call(self._LIB, host):
            return inquiry.inquire_qmgr(self._LIB, host, selectors)

    inq = inquire

    def stat(self, status_type: int) -> MQOpts:
        """MQSTAT(MQSTAT_TYPE_ASYNC_ERROR): how the asynchronous puts (MQPMO_ASYNC_RESPONSE)
        since the last MQSTAT went; the counts start again afterwards."""
        self._connected()
        if status_type != CMQC.MQSTAT_TYPE_ASYNC_ERROR:
            raise self._LIB.MQMIError(CMQC.MQCC_FAILED, CMQC.MQRC_STAT_TYPE_ERROR)
        success, warning, failure, comp, reason = self._async
        self._async = [0, 0, 0, CMQC.MQCC_OK, CMQC.MQRC_NONE]
        return self._LIB.STS(
            CompCode=comp,
            Reason=reason,
            PutSuccessCount=success,
            PutWarningCount=warning,
            PutFailureCount=failure,
        )

    def _count_async(self, comp: int, reason: int) -> None:
        """Record the outcome of an asynchronous put for the next MQSTAT."""
        counts = self._async
        counts[comp] += 1  # MQCC_OK, MQCC_WARNING, MQCC_FAILED are 0, 1, 2
        if comp and counts[3] == CMQC.MQCC_OK:
            counts[3], counts[4] = comp, reason


def connect_function(qmgr_class: type[QueueManager]) -> Callable[..., QueueManager]:
    """The library's ``connect()`` for its QueueManager class."""

    def connect(
        queue_manager: Any,
        channel: Any = None,
        conn_info: Any = None,
        user: Any = None,
        password: Any = None,
        disconnect_on_exit: bool = True,
        bytes_encoding: str = "utf8",
        default_ccsid: int = 1208,
        **more: Any,
    ) -> QueueManager:
        """Connect as a client when ``channel`` and ``conn_info`` are given, else in bindings mode."""
        qmgr = qmgr_class(None, disconnect_on_exit, bytes_encoding, default_ccsid)
        if channel and conn_info:
            cd = more.pop("cd", None) or qmgr_class._LIB.CD()
            qmgr.connect_tcp_client(
                queue_manager or "", cd, channel, conn_info, user, password, **more
            )
        elif queue_manager:
            qmgr.connect_with_options(queue_manager, user=user, password=password, **more)
        else:
            raise TypeError(
                f"Invalid arguments: {[queue_manager, channel, conn_info, user, password]!r}"
            )
        return qmgr

    return connect


# -- queues -----------------------------------------------------------------------------------
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
        from mqlearn.compat import dynamic

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
            props.after_put(host, pmo, md)

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
                props.after_put(host, pmo, md)
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
        props.after_get(host, gmo, md)
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
        from mqlearn.compat import dynamic

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
            self._handle.close()
        self._handle = None
        self._od = None
        self._open_opts = None
        self._dynamic = None

    def inquire(self, selectors: Any) -> Any:
        """MQINQ on the queue (opened for inquire if it is not open)."""
        from mqlearn.compat import inquiry

        self._open_for(CMQC.MQOO_INQUIRE)
        host = self._qmgr._connected()
        with engine_call(self._lib, host):
            return inquiry.inquire_queue(self._lib, host, self._name, selectors)

    inq = inquire

    def set(self, *args: Any) -> None:
        """MQSET: ``set(selector, value)`` or ``set({selector: value, ...})``."""
        from mqlearn.compat import inquiry

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


# -- topics -----------------------------------------------------------------------------------
class Topic:
    """A topic opened for publishing (``Topic(qmgr, topic_name=..., topic_string=...)``)."""

    def __init__(
        self,
        queue_manager: QueueManager,
        topic_name: Any = None,
        topic_string: Any = None,
        topic_desc: MQOpts | None = None,
        open_opts: int | None = None,
    ) -> None:
        self._qmgr = queue_manager
        self._lib = queue_manager._LIB
        self.topic_name = topic_name
        self.topic_string = topic_string
        self._desc = topic_desc
        self._handle: EngineTopic | None = None
        if topic_desc is not None:
            self.topic_name = topic_desc.ObjectName or None
            self.topic_string = topic_desc.get_vs("ObjectString")
        if open_opts:
            self._real_open(open_opts)

    def _real_open(self, options: int) -> None:
        host = self._qmgr._connected()
        name = text(self.topic_name) or None
        string = text(self.topic_string) or None
        with engine_call(self._lib, host):
            handle = EngineTopic(host.qm, name, string, options)
            authority.check_topic(self._lib, host, self._qmgr._user, handle.topic_string)
            self._handle = handle

    def open(
        self,
        topic_name: Any = None,
        topic_string: Any = None,
        topic_desc: MQOpts | None = None,
        open_opts: int | None = None,
    ) -> None:
        if self._handle is not None:
            raise self._lib.PYIFError("The Topic is already open.")
        if topic_name:
            self.topic_name = topic_name
        if topic_string:
            self.topic_string = topic_string
        if topic_desc is not None:
            self.topic_name = topic_desc.ObjectName or None
            self.topic_string = topic_desc.get_vs("ObjectString")
        if open_opts:
            self._real_open(open_opts)

    def pub(self, msg: Any, *opts: Any) -> None:
        """MQPUT to the topic: every matching subscription gets its own copy (rule EIP-05)."""
        if isinstance(msg, str) and not self._lib.flavour.pub_str:
            raise TypeError(  # pymqi's Topic.pub takes bytes only (its Queue.put encodes str)
                "Python 3 style string (unicode) found but not allowed here: "
                f"`{msg}`. Convert to bytes."
            )
        md, pmo = common_q_args(self._lib, *opts)
        data = encode_payload(msg, md, self._qmgr)
        if pmo is None:
            pmo = self._lib.PMO()
        if self._handle is None:
            self._real_open(CMQC.MQOO_OUTPUT)
        assert self._handle is not None
        host = self._qmgr._connected()
        emd, epmo = md_in(md), pmo_in(pmo)
        with engine_call(self._lib, host):
            logged = len(host.qm.events)
            self._handle.pub(data, emd, epmo)
            props.after_publish(host, pmo, host.qm.events[logged:])
            warning = self._handle.last_reason
            if warning:
                raise self._lib.MQMIError(CMQC.MQCC_WARNING, warning)
            from_engine(emd, md)
            from_engine(epmo, pmo)

    put = pub  # ibmmq's alias (MQPUT is the verb underneath)

    def __del__(self) -> None:
        try:
            if self._handle is not None:
                self.close()
        except Exception:  # as in both libraries
            pass

    def sub(self, *opts: Any) -> Subscription:
        sub_desc = opts[0] if opts else None
        sub_queue = opts[1] if len(opts) > 1 else None
        subscription = Subscription(self._qmgr)
        subscription.sub(
            sub_desc=sub_desc,
            sub_queue=sub_queue,
            topic_name=self.topic_name,
            topic_string=self.topic_string,
        )
        return subscription

    def close(self, options: int = CMQC.MQCO_NONE) -> None:
        if self._handle is None:
            raise self._lib.PYIFError("Topic not open.")
        self._handle.close()
        self._handle = None

    def __enter__(self: T) -> T:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._handle is not None:
            self.close()


class Subscription:
    """MQSUB: a subscription and the queue its publications arrive on."""

    def __init__(
        self,
        queue_manager: QueueManager,
        sub_desc: MQOpts | None = None,
        sub_name: Any = None,
        sub_queue: Any = None,
        sub_opts: int | None = None,
        topic_name: Any = None,
        topic_string: Any = None,
    ) -> None:
        self._qmgr = queue_manager
        self._lib = queue_manager._LIB
        self.sub_queue: Any = sub_queue
        self.sub_name = sub_name
        self.sub_opts = sub_opts
        self.topic_name = topic_name
        self.topic_string = topic_string
        self._subscription: str | None = None
        self._managed: str | None = None
        self._durable = False
        if sub_desc is not None:
            self.sub(sub_desc=sub_desc)

    def get_sub_queue(self) -> Any:
        return self.sub_queue

    def get(self, max_length: int | None = None, *opts: Any) -> bytes:
        data: bytes = self.sub_queue.get(max_length, *opts)
        return data

    def sub(
        self,
        sub_desc: MQOpts | None = None,
        sub_queue: Any = None,
        sub_name: Any = None,
        sub_opts: int | None = None,
        topic_name: Any = None,
        topic_string: Any = None,
    ) -> None:
        from mqlearn.compat import subscribing

        if topic_name:
            self.topic_name = topic_name
        if topic_string:
            self.topic_string = topic_string
        if sub_name:
            self.sub_name = sub_name
        if sub_desc is None:
            sub_desc = self._lib.SD()
            sub_desc.Options = sub_opts or (
                CMQC.MQSO_CREATE | CMQC.MQSO_NON_DURABLE | CMQC.MQSO_MANAGED
            )
            if self.sub_name:
                sub_desc.set_vs("SubName", self.sub_name)
            if self.topic_name:
                sub_desc.ObjectName = self.topic_name
            if self.topic_string:
                sub_desc.set_vs("ObjectString", self.topic_string)
        elif not isinstance(sub_desc, MQOpts) or type(sub_desc).__name__ != "SD":
            raise TypeError("sub_desc must be a SD(sub descriptor) object.")
        if sub_queue is not None:
            self.sub_queue = sub_queue
        host = self._qmgr._connected()
        with engine_call(self._lib, host):
            subscribing.subscribe(self, host, sub_desc)

    def close(
        self,
        sub_close_options: int = CMQC.MQCO_NONE,
        close_sub_queue: bool = False,
        close_sub_queue_options: int = CMQC.MQCO_NONE,
    ) -> None:
        from mqlearn.compat import subscribing

        if self._subscription is None:
            raise self._lib.PYIFError("Subscription not open.")
        host = self._qmgr._connected()
        with engine_call(self._lib, host):
            subscribing.unsubscribe(self, host, sub_close_options)
        queue = self.sub_queue
        if close_sub_queue and queue is not None and queue.get_handle() is not None:
            queue.close(close_sub_queue_options)

    def __enter__(self: T) -> T:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._subscription is not None:
            self.close(close_sub_queue=True)

    def __del__(self) -> None:
        """Both libraries close a subscription left open (a non-durable one then ends)."""
        try:
            if self._subscription is not None:
                self.close()
        except Exception:  # as in both libraries
            pass


# -- waiting ----------------------------------------------------------------------------------
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
