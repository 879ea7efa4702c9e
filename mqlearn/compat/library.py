"""Build one library's public names (pymqi's or ibmmq's) from the shared pieces."""

from __future__ import annotations

import types
from typing import Any

from mqlearn.compat import (
    CMQC,
    CMQCFC,
    CMQXC,
    calls,
    connection,
    exceptions,
    hosting,
    pcf,
    pcf_types,
    properties,
    queue,
    topics,
)
from mqlearn.compat.mqopts import Flavour

VERSION = "0.1.0+mqlearn"  # the shims' version: mqlearn's, not the library's


def lazy_cmqstrc(name: str) -> Any:
    """A shim module's ``__getattr__``: CMQSTRC (IBM's value-to-name tables, 0.1 s to load)
    is loaded when a program first uses it."""
    if name == "CMQSTRC":
        from mqlearn.compat import CMQSTRC

        return CMQSTRC
    raise AttributeError(f"the simulated library has no attribute {name!r} (docs/compat.md)")


def pymqi_cmqc() -> types.ModuleType:
    """pymqi's CMQC: IBM's CMQC and, as pymqi's older module still has them, the channel and
    exit constants (MQCHT_*, MQXPT_*, MQCD_* ...) IBM has since moved to CMQXC."""
    module = types.ModuleType("mqlearn.pymqi.CMQC", CMQC.__doc__)
    module.__dict__.update({k: v for k, v in vars(CMQXC).items() if k.startswith("MQ")})
    module.__dict__.update({k: v for k, v in vars(CMQC).items() if k.startswith("MQ")})
    return module


def names(flavour: Flavour, comp_separator: str, pyif_prefix: str) -> dict[str, Any]:
    """Every public name of the library: constants modules, structures, verbs, exceptions."""

    class Error(exceptions.Error):
        """Base class of the library's exceptions."""

    class MQMIError(exceptions.MQMIError, Error):
        _COMP_SEPARATOR = comp_separator

    class PYIFError(exceptions.PYIFError, Error):
        _PREFIX = pyif_prefix

    lib = calls.Library(flavour, MQMIError, PYIFError)

    class QueueManager(connection.QueueManager):
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
        "CMQC": pymqi_cmqc() if flavour.name == "pymqi" else CMQC,
        "CMQXC": CMQXC,
        "CMQCFC": CMQCFC,
        "Error": Error,
        "MQMIError": MQMIError,
        "PYIFError": PYIFError,
        "QueueManager": QueueManager,
        "Queue": queue.Queue,
        "Topic": topics.Topic,
        "Subscription": topics.Subscription,
        "PCFExecute": PCFExecute,
        "MessageHandle": MessageHandle,
        "connect": connection.connect_function(QueueManager),
        "simulation": simulation,
        "queue_manager": queue_manager,
        "realtime": realtime,
        "reset": hosting.reset,
        "host": hosting.host,
        "serve": hosting.serve,
        "ByteString": pcf_types.ByteString,
        "Filter": pcf_types.Filter,
        "FilterOperator": pcf_types.FilterOperator,
        "StringFilter": pcf_types.StringFilter,
        "IntegerFilter": pcf_types.IntegerFilter,
        "ByteStringFilter": pcf_types.ByteStringFilter,
        "__version__": VERSION,
        "get_versions": lambda: {"module": VERSION, "MQ": 940},
    }
    found.update(pcf_types.STRUCTURES)
    found.update(lib.structs)
    for short, struct in lib.structs.items():
        found[short.lower()] = struct  # the libraries' old lower-case aliases (md, gmo, ...)
    return found
