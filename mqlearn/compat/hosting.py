"""The simulated queue managers that pymqi and ibmmq programs connect to, one per name per process.

A program's first connection to a name creates a queue manager with the objects of IBM's MQ
developer container (``icr.io/ibm-messaging/mq``, the "mq-dev-config" its image applies):
DEV.QUEUE.1-3, DEV.DEAD.LETTER.QUEUE (the queue manager's DEADQ), the topic object
DEV.BASE.TOPIC (TOPICSTR 'dev/'), the model queues SYSTEM.DEFAULT.MODEL.QUEUE and
DEV.APP.MODEL.QUEUE (the one IBM's mq-dev-patterns samples use), the command queue,
and the server-connection channels DEV.APP.SVRCONN and DEV.ADMIN.SVRCONN that accept the users
``app`` and ``admin``. Later connections, from the same program or another, find the same queue
manager, so a notebook cell sees what a program left on its queues.

Time is the simulation's virtual clock (deterministic, moved by :meth:`Host.advance` or by an
MQGMO_WAIT); :meth:`Host.realtime` makes it follow the wall clock instead, for programs whose
threads wait on each other.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from mqlearn.engine import QueueManager, Simulation

DEFAULT_QMGR = "QM1"
DEFAULT_PORT = 1414
APP_CHANNEL = "DEV.APP.SVRCONN"
ADMIN_CHANNEL = "DEV.ADMIN.SVRCONN"
MODEL_QUEUE = "SYSTEM.DEFAULT.MODEL.QUEUE"
APP_MODEL_QUEUE = "DEV.APP.MODEL.QUEUE"  # the model IBM's mq-dev-patterns samples open as app
COMMAND_QUEUE = "SYSTEM.ADMIN.COMMAND.QUEUE"
SVRCONN = 7  # MQCHT_SVRCONN


APP_GROUP = "mqclient"  # the developer container's group for app
# MQAUTH_* values (CMQCFC) the developer configuration grants
_BROWSE, _CONNECT, _INPUT, _INQUIRE, _OUTPUT, _PUBLISH, _SUBSCRIBE = 2, 5, 9, 10, 11, 19, 20
_Q, _Q_MGR, _TOPIC = 1, 5, 8  # MQOT_*


@dataclass
class AuthRecord:
    """SET AUTHREC PROFILE(profile) OBJTYPE(object_type) AUTHADD(...) for one principal or group."""

    profile: str
    object_type: int  # MQOT_Q, MQOT_TOPIC, MQOT_Q_MGR
    authorities: set[int] = field(default_factory=set)


def developer_records() -> dict[str, list[AuthRecord]]:
    """The developer configuration's authority records, by the group they are set for."""
    return {
        APP_GROUP: [
            AuthRecord("QM", _Q_MGR, {_CONNECT, _INQUIRE}),
            AuthRecord("DEV.**", _Q, {_BROWSE, _INPUT, _INQUIRE, _OUTPUT}),
            AuthRecord("DEV.**", _TOPIC, {_PUBLISH, _SUBSCRIBE}),
        ]
    }


@dataclass
class Model:
    """A model queue (DEFINE QMODEL): what a dynamic queue made from it gets."""

    name: str
    deftype: str = "TEMPDYN"  # or PERMDYN
    attrs: dict[str, Any] = field(default_factory=dict)  # QLOCAL attributes, MQSC names


@dataclass
class Host:
    """One simulated queue manager and what the shims keep beside it."""

    qm: QueueManager
    port: int = DEFAULT_PORT
    channels: dict[str, set[str]] = field(default_factory=dict)  # channel -> users it accepts
    channel_types: dict[str, int] = field(default_factory=dict)  # channel -> MQCHT_*
    passwords: dict[str, str | None] = field(default_factory=dict)  # user -> password (None: any)
    # The container started with MQ_APP_PASSWORD set (CHCKCLNT(REQUIRED) on DEV.APP.SVRCONN): a
    # client must give a user. False: started without it (CHCKCLNT(ASQMGR)), so a client that
    # gives none runs as the channel's MCAUSER, app.
    app_password_required: bool = True
    # channel -> its MCAUSER, which every client on it acts as (define_svrconn)
    mcausers: dict[str, str] = field(default_factory=dict)
    models: dict[str, Model] = field(default_factory=dict)
    dynamic: dict[str, str] = field(default_factory=dict)  # dynamic queue -> TEMPDYN/PERMDYN
    opened: dict[str, list[int]] = field(default_factory=dict)  # queue -> [input, output] opens
    created_by_app: set[str] = field(default_factory=set)  # dynamic queues user app made
    # principal or group -> its authority records (mqlearn/compat/authority.py applies them)
    auth_records: dict[str, list[AuthRecord]] = field(default_factory=developer_records)
    lock: threading.RLock = field(default_factory=threading.RLock)
    factor: float | None = None  # None: virtual time; else wall seconds x factor
    warned_virtual_wait: bool = False  # a thread's MQGMO_WAIT on the virtual clock was reported
    _wall0: float = 0.0
    _virtual0: int = 0
    _counter: int = 0

    def __post_init__(self) -> None:
        self.changed = threading.Condition(self.lock)
        date, stamp = self.qm.sim.stamp(self.qm.sim.now)  # when the objects were defined
        self.created = (
            f"{date[:4]}-{date[4:6]}-{date[6:]}",
            f"{stamp[:2]}.{stamp[2:4]}.{stamp[4:6]}",
        )

    @property
    def sim(self) -> Simulation:
        return self.qm.sim

    # -- time ---------------------------------------------------------------------------------
    def realtime(self, factor: float = 1.0) -> None:
        """Let the virtual clock follow the wall clock, ``factor`` virtual seconds a second.

        MQGMO_WAIT then blocks the calling thread until a put from another thread, or the clock,
        satisfies it. ``factor=None`` goes back to virtual time (the default)."""
        with self.lock:
            self.sync()
            self.factor = factor
            self._wall0 = time.monotonic()
            self._virtual0 = self.sim.now

    def virtual(self) -> None:
        """Back to virtual time: the clock moves only when told to (the default)."""
        with self.lock:
            self.sync()
            self.factor = None

    def sync(self) -> None:
        """In real-time mode, run the simulation up to the wall clock's virtual time."""
        if self.factor is not None:
            target = self._virtual0 + int((time.monotonic() - self._wall0) * 1000 * self.factor)
            if target > self.sim.now:
                self.sim.run_until(target)

    def wall_seconds(self, virtual_ms: int) -> float:
        """How long the wall clock takes to move the virtual clock ``virtual_ms`` forward."""
        assert self.factor is not None
        return virtual_ms / 1000 / self.factor

    def advance(self, seconds: float) -> int:
        """Move the virtual clock forward (anything due on the way runs); returns now in ms."""
        with self.lock:
            now = self.sim.advance(seconds=seconds)
            self.changed.notify_all()
            return now

    def notify(self) -> None:
        """Something that a waiting get may be looking for has happened (call under the lock)."""
        self.changed.notify_all()

    # -- channels -------------------------------------------------------------------------------
    def define_svrconn(self, name: str, mcauser: str = "admin") -> None:
        """A server-connection channel as a private queue manager may have one (pymqi's examples
        use SVRCONN.1): its MCAUSER is ``mcauser`` and no CHLAUTH rule or CONNAUTH check applies,
        so every client on it acts as ``mcauser`` (``admin`` may do anything), whatever user and
        password it gives. Redefining DEV.APP.SVRCONN this way lets a program that gives no user,
        or one app may not act for, in."""
        with self.lock:
            self.channels.setdefault(name, set())
            self.channel_types[name] = SVRCONN
            self.mcausers[name] = mcauser

    # -- names ----------------------------------------------------------------------------------
    def unique_suffix(self) -> str:
        """What replaces the '*' of a DynamicQName: unique within this queue manager, as MQ's
        are; deterministic (a counter after the virtual time), not random."""
        self._counter += 1
        return f"{self.sim.now:08X}{self._counter:08X}"


_HOSTS: dict[str, Host] = {}
_HOSTS_LOCK = threading.Lock()


def developer_container(name: str, sim: Simulation | None = None) -> Host:
    """A queue manager with the developer container's default objects."""
    qm = QueueManager(name, sim)
    for queue in ("DEV.QUEUE.1", "DEV.QUEUE.2", "DEV.QUEUE.3", "DEV.DEAD.LETTER.QUEUE"):
        qm.define_qlocal(queue)
    qm.define_qlocal(COMMAND_QUEUE)
    qm.define_qlocal("SYSTEM.DEAD.LETTER.QUEUE")  # made by crtmqm on every queue manager
    qm.define_qlocal("SYSTEM.DEFAULT.LOCAL.QUEUE")
    qm.alter_qmgr(deadq="DEV.DEAD.LETTER.QUEUE")
    qm.define_topic("DEV.BASE.TOPIC", topicstr="dev/")
    host = Host(qm)
    host.channels = {APP_CHANNEL: {"app"}, ADMIN_CHANNEL: {"admin"}}
    host.channel_types = {
        APP_CHANNEL: SVRCONN,
        ADMIN_CHANNEL: SVRCONN,
        "SYSTEM.DEF.SVRCONN": SVRCONN,
        "SYSTEM.AUTO.SVRCONN": SVRCONN,
        "SYSTEM.DEF.SENDER": 1,  # MQCHT_SENDER
        "SYSTEM.DEF.RECEIVER": 3,  # MQCHT_RECEIVER
    }
    host.passwords = {"app": None, "admin": None}
    host.models = {
        MODEL_QUEUE: Model(MODEL_QUEUE),
        APP_MODEL_QUEUE: Model(APP_MODEL_QUEUE),
        "SYSTEM.NDURABLE.MODEL.QUEUE": Model("SYSTEM.NDURABLE.MODEL.QUEUE"),
        "SYSTEM.DURABLE.MODEL.QUEUE": Model("SYSTEM.DURABLE.MODEL.QUEUE", deftype="PERMDYN"),
    }
    return host


def serve(qm: QueueManager, port: int = DEFAULT_PORT) -> Host:
    """Let pymqi and ibmmq programs connect to an engine QueueManager made elsewhere (a notebook's
    ``mq.QueueManager("QM1")``), through the developer container's two channels; its queues are
    left as they are (no DEV objects are added). Replaces any simulated queue manager of its name.
    """
    made = Host(qm, port=port)
    made.channels = {APP_CHANNEL: {"app"}, ADMIN_CHANNEL: {"admin"}}
    made.passwords = {"app": None, "admin": None}
    made.channel_types = {APP_CHANNEL: SVRCONN, ADMIN_CHANNEL: SVRCONN}
    made.models = {MODEL_QUEUE: Model(MODEL_QUEUE), APP_MODEL_QUEUE: Model(APP_MODEL_QUEUE)}
    with _HOSTS_LOCK:
        _HOSTS[qm.name] = made
    return made


def host(name: str = DEFAULT_QMGR, *, create: bool = True) -> Host:
    """The simulated queue manager called ``name`` (made on first use when ``create``)."""
    with _HOSTS_LOCK:
        found = _HOSTS.get(name)
        if found is None:
            if not create:
                raise KeyError(name)
            found = _HOSTS[name] = developer_container(name)
        return found


def hosted(name: str) -> Host | None:
    return _HOSTS.get(name)


def reset() -> None:
    """Forget every simulated queue manager (a fresh process, as far as the shims can tell)."""
    with _HOSTS_LOCK:
        _HOSTS.clear()


def all_hosts() -> list[Host]:
    return list(_HOSTS.values())
