"""What the parts around a queue manager use of it: one small, named interface.

MQGET (:mod:`~mqlearn.engine.mqget`), the messages the queue manager generates
(:mod:`~mqlearn.engine.generated`), trigger events (:mod:`~mqlearn.engine.triggers`),
publish/subscribe (:mod:`~mqlearn.engine.pubsub`) and channels (:mod:`~mqlearn.engine.channel`)
see a queue manager only through :class:`QueueManagerPort`: its clock, its names and attributes,
name resolution, the put it makes for itself (``deliver``), the event log, MsgIds and contexts.
Nothing private: :class:`~mqlearn.engine.qmgr.QueueManager` is the one implementation, and these
modules do not import it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from mqlearn.engine.definitions import Route
    from mqlearn.engine.message import Record
    from mqlearn.engine.objects import ProcessDefinition, QLocal
    from mqlearn.engine.simulation import Simulation
    from mqlearn.engine.triggers import TriggerTimes
    from mqlearn.mqi.structs import MD, PMO


class QueueManagerPort(Protocol):
    """A queue manager as the engine's other parts use it (docs/engine.md, "How the engine is
    laid out")."""

    # -- clock, names and attributes (read only here) ---------------------------------------------
    @property
    def sim(self) -> Simulation: ...
    @property
    def name(self) -> str: ...
    @property
    def profile(self) -> str: ...
    @property
    def deadq(self) -> str | None: ...
    @property
    def ccsid(self) -> int: ...
    @property
    def maxprty(self) -> int: ...
    @property
    def enforce_max_expiry(self) -> bool: ...
    @property
    def expired_action(self) -> str: ...
    @property
    def trigint(self) -> int: ...
    @property
    def trigger_times(self) -> TriggerTimes: ...

    # -- queues ------------------------------------------------------------------------------------
    @property
    def processes(self) -> dict[str, ProcessDefinition]: ...
    def ipprocs(self, name: str) -> int: ...
    def local(self, name: str) -> QLocal: ...
    def initiated_by(self, initq: str) -> tuple[QLocal, ...]: ...
    def route(self, name: str) -> Route: ...
    def route_to(self, qmgr: str, name: str) -> Route: ...
    def reply_to(self, reply_to_q: str) -> tuple[str, str]: ...
    def check_room(self, route: Route, planned: int = 0) -> None: ...
    def listen(self, xmitq: str, wake: Callable[[], None]) -> None: ...

    # -- putting, and what a get sets off ---------------------------------------------------------
    def put(
        self,
        name: str,
        data: object,
        md: MD | None = None,
        pmo: PMO | None = None,
        *,
        suppress_reply_to: bool = False,
    ) -> int: ...
    def deliver(
        self,
        route: Route,
        data: bytes,
        fields: dict[str, Any],
        *,
        deadline: int,
        ctx: dict[str, Any],
        xdeadline: int | None = None,
        msgid: bytes | None = None,
        in_uow: bool = False,
    ) -> Record: ...
    def discard(self, local: QLocal, message: Record, cause: str) -> None: ...
    def enlist(self, op: str, local: QLocal, message: Record) -> None: ...
    def uow_has(self, op: str) -> bool: ...
    @property
    def in_unit_of_work(self) -> int: ...

    # -- ids, contexts, the event log -------------------------------------------------------------
    def new_msgid(self) -> bytes: ...
    def application_context(self) -> dict[str, Any]: ...
    def qmgr_context(self, identity: dict[str, Any] | None = None) -> dict[str, Any]: ...
    def log(
        self,
        queue: str,
        kind: str,
        record: Record | None = None,
        cause: str = "",
        reason: int = 0,
        detail: str = "",
    ) -> None: ...
