"""Build one library's public names (pymqi's or ibmmq's) from the shared pieces."""

from __future__ import annotations

from typing import Any

from mqlearn.compat import CMQC, CMQCFC, CMQSTRC, CMQXC, api, errors, hosting, pcf, properties
from mqlearn.compat.structs import Flavour


def names(flavour: Flavour, comp_separator: str, pyif_prefix: str) -> dict[str, Any]:
    """Every public name of the library: constants modules, structures, verbs, exceptions."""

    class Error(errors.Error):
        """Base class of the library's exceptions."""

    class MQMIError(errors.MQMIError, Error):
        _COMP_SEPARATOR = comp_separator

    class PYIFError(errors.PYIFError, Error):
        _PREFIX = pyif_prefix

    lib = api.Library(flavour, MQMIError, PYIFError)

    class QueueManager(api.QueueManager):
        _LIB = lib

    class PCFExecute(pcf.PCFMixin, QueueManager):
        """PCF commands against the simulated queue manager (mqlearn.compat.pcf)."""

    class MessageHandle(properties.MessageHandle):
        _LIB = lib

    module = f"mqlearn.{flavour.name}"
    for cls in (Error, MQMIError, PYIFError, QueueManager, PCFExecute, MessageHandle):
        cls.__module__ = module
        cls.__qualname__ = cls.__name__

    def simulation(name: str = hosting.DEFAULT_QMGR) -> Any:
        """The Simulation (virtual clock) behind the simulated queue manager ``name``."""
        return hosting.host(name).sim

    def queue_manager(name: str = hosting.DEFAULT_QMGR) -> Any:
        """The engine's QueueManager behind the simulated one (for the workbench views)."""
        return hosting.host(name).qm

    def realtime(name: str = hosting.DEFAULT_QMGR, factor: float | None = 1.0) -> None:
        """Let ``name``'s clock follow the wall clock (``factor`` virtual seconds per second),
        so MQGMO_WAIT blocks a thread until another thread's put; ``None``: virtual again."""
        host = hosting.host(name)
        if factor is None:
            host.virtual()
        else:
            host.realtime(factor)

    found: dict[str, Any] = {
        "CMQC": CMQC,
        "CMQXC": CMQXC,
        "CMQCFC": CMQCFC,
        "CMQSTRC": CMQSTRC,
        "Error": Error,
        "MQMIError": MQMIError,
        "PYIFError": PYIFError,
        "QueueManager": QueueManager,
        "Queue": api.Queue,
        "Topic": api.Topic,
        "Subscription": api.Subscription,
        "PCFExecute": PCFExecute,
        "MessageHandle": MessageHandle,
        "connect": api.connect_function(QueueManager),
        "simulation": simulation,
        "queue_manager": queue_manager,
        "realtime": realtime,
        "reset": hosting.reset,
        "host": hosting.host,
    }
    found.update(lib.structs)
    for short, struct in lib.structs.items():
        found[short.lower()] = struct  # the libraries' old lower-case aliases (md, gmo, ...)
    return found
