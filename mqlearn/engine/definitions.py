"""Queue definitions of a queue manager and how names resolve (MQOPEN), with MQSC names.

:class:`Definitions` is the part of :class:`~mqlearn.engine.qmgr.QueueManager` that holds the
queue objects: DEFINE / ALTER / DELETE, and resolving a name through aliases, remote definitions
and transmission queues to a :class:`Route`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import fields, replace
from typing import Any

from mqlearn.engine.message import GOT_IN_UOW, UNCOMMITTED_PUT
from mqlearn.engine.mqi_checks import fail
from mqlearn.engine.objects import (
    ProcessDefinition,
    QAlias,
    QLocal,
    QRemote,
    QueueDefinition,
    assign,
)
from mqlearn.engine.rule_formulas import NOLIMIT, path_cap
from mqlearn.mqi import cmqc as C


class Route:
    """Where a put to a name lands: the definitions on the path and the local queue at its end.

    ``priorities`` and ``lifetimes`` are the put path's caches of what the rule formulas give
    for this route (``QueueManager._priority``, ``QueueManager._lifetime``). A route is made
    afresh whenever a definition or MAXPRTY changes (``Definitions._changed``), so they never
    outlive the attributes they were computed from.
    """

    __slots__ = (
        "cap",
        "defprty",
        "direct_xmit",
        "inhibited",
        "lifetimes",
        "lifetimes_at",
        "local",
        "path",
        "persistence",
        "priorities",
        "remote",
    )

    def __init__(self, path: list[QueueDefinition], local: QLocal, remote: QRemote | None) -> None:
        self.path = path
        self.local = local
        self.remote = remote
        # rule EXP-06: the smallest CAPEXPRY on the path, NOLIMIT (-1) when none has one
        self.cap: int = path_cap(NOLIMIT if d.capexpry is None else d.capexpry for d in path)
        self.defprty = path[0].defprty  # the first definition on the path decides (MD-02)
        self.persistence = path[0].default_persistence
        self.inhibited = next((d.name for d in path if d.put == "DISABLED"), None)
        self.direct_xmit = remote is None and local.usage == "XMITQ"
        # Priority -> (the Priority stored, the lane it is ordered at, the 2049 warning or 0)
        self.priorities: dict[int, tuple[int, int, int]] = {}
        # Expiry -> (the Expiry stored after CAPEXPRY, the deadline), for puts at lifetimes_at
        self.lifetimes: dict[int, tuple[int, int]] = {}
        self.lifetimes_at = -1


class Definitions:
    """DEFINE, ALTER, DELETE and name resolution; mixed into QueueManager."""

    name: str
    profile: str
    objects: dict[str, QueueDefinition]
    processes: dict[str, ProcessDefinition]
    _routes: dict[str, Route]
    _initiated: dict[str, tuple[QLocal, ...]] | None = None  # by INITQ; None: to be made again
    log: Callable[..., None]  # QueueManager.log

    def _define(self, definition: QueueDefinition, replace: bool) -> None:
        old = self.objects.get(definition.name)
        if old is not None:
            if not replace:
                raise fail(C.MQRC_OBJECT_ALREADY_EXISTS, f"{definition.name} is already defined")
            if type(old) is not type(definition):
                raise fail(C.MQRC_OBJECT_TYPE_ERROR, f"{definition.name} is a {old.qtype}")
            if isinstance(old, QLocal) and isinstance(definition, QLocal):
                assign(definition, "store", old.store)  # REPLACE keeps the messages
        self.objects[definition.name] = definition
        self._changed()

    def define_qlocal(self, name: str, *, replace: bool = False, **attrs: Any) -> QLocal:
        """DEFINE QLOCAL(name) with MQSC attributes as keywords (docs/engine.md)."""
        self._zos_only(attrs)
        definition = QLocal(name, **attrs)
        self._define(definition, replace)
        return definition

    def define_qremote(
        self, name: str, *, rname: str, rqmname: str, replace: bool = False, **attrs: Any
    ) -> QRemote:
        """DEFINE QREMOTE(name) RNAME(rname) RQMNAME(rqmname) [XMITQ(...)]."""
        definition = QRemote(name, rname=rname, rqmname=rqmname, **attrs)
        self._define(definition, replace)
        return definition

    def define_qalias(
        self, name: str, *, target: str, replace: bool = False, **attrs: Any
    ) -> QAlias:
        """DEFINE QALIAS(name) TARGET(target)."""
        definition = QAlias(name, target=target, **attrs)
        self._define(definition, replace)
        return definition

    def define_process(
        self, name: str, *, replace: bool = False, **attrs: Any
    ) -> ProcessDefinition:
        """DEFINE PROCESS(name) [REPLACE] with APPLICID, APPLTYPE, ENVRDATA, USERDATA, DESCR as
        keywords: what a queue's PROCESS names for its trigger messages (rule TRG-04). Processes
        have their own namespace, apart from the queues."""
        definition = ProcessDefinition(name, **attrs)
        if name in self.processes and not replace:
            raise fail(C.MQRC_OBJECT_ALREADY_EXISTS, f"process {name} is already defined")
        self.processes[name] = definition
        return definition

    def alter_process(self, name: str, **attrs: Any) -> ProcessDefinition:
        """ALTER PROCESS(name): the named attributes change, the others stay (2085 if there is
        none); values are checked before anything changes. Trigger messages written later carry
        the new values (IBM: the values in force at the trigger event)."""
        old = self.processes.get(name)
        if old is None:
            raise fail(C.MQRC_UNKNOWN_OBJECT_NAME, f"no process named {name}")
        if "name" in attrs:
            raise TypeError("ALTER PROCESS cannot rename a process")
        definition = replace(old, **attrs)
        self.processes[name] = definition
        return definition

    def delete_process(self, name: str) -> None:
        """DELETE PROCESS(name) (2085 if there is none)."""
        if self.processes.pop(name, None) is None:
            raise fail(C.MQRC_UNKNOWN_OBJECT_NAME, f"no process named {name}")

    def alter(self, name: str, **attrs: Any) -> QueueDefinition:
        """ALTER a queue of any type; values are checked before anything changes."""
        definition = self.definition(name)
        checked = definition.altered(**attrs)
        for f in fields(definition):  # in place: a definition read before shows the change
            assign(definition, f.name, getattr(checked, f.name))
        self._changed()
        return definition

    def alter_qlocal(self, name: str, **attrs: Any) -> QLocal:
        definition = self.definition(name)
        if not isinstance(definition, QLocal):
            raise fail(C.MQRC_OBJECT_TYPE_ERROR, f"{name} is a {definition.qtype}, not a QLOCAL")
        self._zos_only(attrs)
        self.alter(name, **attrs)
        return definition

    def _zos_only(self, attrs: dict[str, Any]) -> None:
        """INDXTYPE is a z/OS queue attribute: other platforms have no such keyword."""
        if "indxtype" in attrs and self.profile != "zos":
            raise ValueError(f"INDXTYPE is a z/OS attribute; this is the {self.profile} profile")

    def delete_queue(self, name: str) -> None:
        """DELETE a queue definition; a local queue must be empty (2055)."""
        definition = self.definition(name)
        if isinstance(definition, QLocal) and definition.store.count:
            raise fail(C.MQRC_Q_NOT_EMPTY, f"{name} still holds {definition.store.count} messages")
        del self.objects[name]
        self._changed()

    def clear_qlocal(self, name: str) -> int:
        """CLEAR QLOCAL: remove every message from a local queue; returns how many.

        As MQ does, it fails with uncommitted messages on the queue (2055: puts or gets in a unit
        of work, or a channel's batch) and while the queue is open (2042); mqlearn knows a queue
        is open only when a handle holds one of its messages locked. No reports are generated.
        """
        store = self.local(name).store
        records = list(store.records())
        if self.uncommitted(name):
            raise fail(C.MQRC_Q_NOT_EMPTY, f"{name} has uncommitted messages")
        if any(store.locker(record) is not None for record in records):
            raise fail(C.MQRC_OBJECT_IN_USE, f"{name} is open: a handle holds a message locked")
        for record in records:
            store.remove(record)
            self.log(name, "clear", record)
        return len(records)

    def uncommitted(self, name: str) -> int:
        """Messages on a local queue that an open unit of work has put or got (UNCOM)."""
        pending = (UNCOMMITTED_PUT, GOT_IN_UOW)
        store = self.local(name).store
        return sum(1 for record in store.records() if store.state(record) in pending)

    def definition(self, name: str) -> QueueDefinition:
        try:
            return self.objects[name]
        except KeyError:
            raise fail(
                C.MQRC_UNKNOWN_OBJECT_NAME, f"no queue named {name!r} on {self.name}"
            ) from None

    def local(self, name: str) -> QLocal:
        definition = self.definition(name)
        if not isinstance(definition, QLocal):
            raise fail(C.MQRC_OBJECT_TYPE_ERROR, f"{name} is a {definition.qtype}, not a QLOCAL")
        return definition

    def local_queues(self) -> Iterator[QLocal]:
        return (d for d in self.objects.values() if isinstance(d, QLocal))

    def initiated_by(self, initq: str) -> tuple[QLocal, ...]:
        """The local queues whose INITQ is ``initq``, in definition order (rule TRG-05); an
        index made again after any definition changes, so opening a queue stays cheap."""
        if self._initiated is None:
            index: dict[str, list[QLocal]] = {}
            for local in self.local_queues():
                if local.initq:
                    index.setdefault(local.initq, []).append(local)
            self._initiated = {name: tuple(queues) for name, queues in index.items()}
        return self._initiated.get(initq, ())

    def _changed(self) -> None:
        self._routes.clear()  # definitions (or MAXPRTY) changed: names resolve afresh
        self._initiated = None

    def route(self, name: str) -> Route:
        """Resolve a queue name as MQOPEN does (aliases, remote definitions, transmission queues)."""
        try:
            return self._routes[name]
        except KeyError:
            route = self._routes[name] = self._resolve(name)
            return route

    def _resolve(self, name: str) -> Route:
        definition = self.definition(name)
        path: list[QueueDefinition] = [definition]
        if isinstance(definition, QAlias):
            target = self.objects.get(definition.target)
            if target is None or isinstance(target, QAlias):
                raise fail(C.MQRC_UNKNOWN_ALIAS_BASE_Q, f"alias {name} targets {definition.target}")
            path.append(target)
            definition = target
        if isinstance(definition, QRemote):
            xmitq_name = definition.transmission_queue
            xmitq = self.objects.get(xmitq_name)
            if xmitq is None:
                raise fail(
                    C.MQRC_UNKNOWN_OBJECT_NAME, f"transmission queue {xmitq_name} is missing"
                )
            if not isinstance(xmitq, QLocal):
                raise fail(C.MQRC_XMIT_Q_TYPE_ERROR, f"{xmitq_name} is not a local queue")
            if not xmitq.is_xmitq:
                raise fail(C.MQRC_XMIT_Q_USAGE_ERROR, f"{xmitq_name} is not USAGE(XMITQ)")
            path.append(xmitq)
            return Route(path, xmitq, definition)
        assert isinstance(definition, QLocal)
        return Route(path, definition, None)

    def route_to(self, qmgr: str, name: str) -> Route:
        """Resolve a queue at a queue manager: this one by name, another through the
        transmission queue named like it (2087 when there is none)."""
        if not qmgr or qmgr == self.name:
            return self.route(name)
        xmitq = self.objects.get(qmgr)
        if not isinstance(xmitq, QLocal) or not xmitq.is_xmitq:
            raise fail(C.MQRC_UNKNOWN_REMOTE_Q_MGR, f"no transmission queue to {qmgr}")
        return Route([xmitq], xmitq, QRemote(name, rname=name, rqmname=qmgr))
