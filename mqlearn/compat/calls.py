"""What every verb of the pymqi and ibmmq shims shares: the library's classes (:class:`Library`,
what differs between pymqi and ibmmq), the call into the engine under the queue manager's lock,
and the argument rules both libraries apply to put and get.

Every call goes to the engine through its public API and comes back as the real library would
give it: the library's structures updated in place, MQCC_WARNING and MQCC_FAILED raised as the
library's MQMIError, str payloads encoded and marked MQFMT_STRING.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from mqlearn.compat import CMQC
from mqlearn.compat.exceptions import MQMIError, PYIFError
from mqlearn.compat.hosting import Host
from mqlearn.compat.mqopts import Flavour, MQOpts, structures
from mqlearn.mqi.errors import MQMIError as EngineError
from mqlearn.mqi.errors import MQWarning

if TYPE_CHECKING:
    from mqlearn.compat.connection import QueueManager

T = TypeVar("T")


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
