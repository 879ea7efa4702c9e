"""QueueManager and connect(): connections to a simulated queue manager, answered as IBM's MQ
developer container answers them (:mod:`mqlearn.compat.hosting`), units of work, MQINQ on the
queue manager, MQSTAT, MQPUT1."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from mqlearn.compat import CMQC, hosting, inquiry
from mqlearn.compat.calls import Library, T, engine_call, text
from mqlearn.compat.hosting import Host
from mqlearn.compat.mqopts import MQOpts
from mqlearn.compat.queue import Queue


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
        if channel in found.mcausers:  # MCAUSER set and no CONNAUTH: the channel's user
            self._attach(found, found.qm.name, found.mcausers[channel])
            return
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
