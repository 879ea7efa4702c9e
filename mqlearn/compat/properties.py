"""Message properties (MQCRTMH, MQSETMP, MQINQMP, MQDLTMP) for the shims.

The engine stores a message's descriptor and data; its properties are kept here, beside the
simulated queue manager, keyed by the message's MsgId: a put whose PMO names a message handle
(OriginalMsgHandle) records that handle's properties under the MsgId the put gave the message,
and a get whose GMO names a message handle (MsgHandle) fills that handle with the properties of
the message it returned. Each subscriber's copy of a publication carries the publisher's
properties; the other messages the queue manager makes itself (reports, dead letters) do not
(docs/compat.md).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from mqlearn.compat import CMQC
from mqlearn.compat.hosting import Host

_HANDLES: dict[int, MessageHandle] = {}
_NEXT = itertools.count(1)


def _name(name: Any) -> str:
    return name.decode("utf-8") if isinstance(name, bytes) else str(name)


class Properties:
    """``handle.properties``: ``set``, ``get`` (``inq``), ``dlt`` and item access."""

    default_value_length = 64

    def __init__(self, handle: MessageHandle) -> None:
        self._handle = handle
        self.values: dict[str, tuple[Any, int]] = {}  # name -> (value, MQTYPE_*)

    def set(
        self,
        name: Any,
        value: Any,
        property_type: int = CMQC.MQTYPE_STRING,
        value_length: int = CMQC.MQVL_NULL_TERMINATED,
        pd: Any = None,
        smpo: Any = None,
    ) -> None:
        """MQSETMP."""
        self._handle._check()
        key = _name(name)
        if not key:
            raise self._handle._error(CMQC.MQCC_FAILED, CMQC.MQRC_PROPERTY_NAME_ERROR)
        self.values[key] = (value, property_type)

    def get(
        self,
        name: Any,
        default: Any = None,
        max_value_length: int | None = None,
        impo_options: int = CMQC.MQIMPO_INQ_FIRST,
        pd: Any = None,
        property_type: int = CMQC.MQTYPE_AS_SET,
        **more: Any,
    ) -> Any:
        """MQINQMP: 2471 when the message has no such property, 2469 when the value is longer
        than ``max_value_length``."""
        self._handle._check()
        key = _name(name)
        if key not in self.values:
            raise self._handle._error(
                CMQC.MQCC_FAILED, CMQC.MQRC_PROPERTY_NOT_AVAILABLE, value=default
            )
        value, _ = self.values[key]
        limit = max_value_length or self.default_value_length
        if isinstance(value, str | bytes) and len(value) > limit:
            raise self._handle._error(
                CMQC.MQCC_WARNING, CMQC.MQRC_PROPERTY_VALUE_TOO_BIG, data_length=len(value)
            )
        return value

    inq = get

    def dlt(self, name: Any, dmpo: Any = None) -> None:
        """MQDLTMP."""
        self._handle._check()
        key = _name(name)
        if key not in self.values:
            raise self._handle._error(CMQC.MQCC_WARNING, CMQC.MQRC_PROPERTY_NOT_AVAILABLE)
        del self.values[key]

    def __getitem__(self, name: Any) -> Any:
        try:
            value = self.get(name)
        except Exception:
            raise KeyError(f"No such property [{name}]") from None
        return value

    def __setitem__(self, name: Any, value: Any) -> None:
        self.set(name, value)


class MessageHandle:
    """MQCRTMH: a message handle whose integer ``msg_handle`` goes in PMO.OriginalMsgHandle
    (a put) or GMO.MsgHandle (a get)."""

    _LIB: Any = None  # each flavour's subclass sets its library (for its MQMIError)

    def __init__(self, qmgr: Any = None, cmho: Any = None, dup_handle: int | None = None) -> None:
        self.conn_handle = qmgr.get_handle() if qmgr is not None else CMQC.MQHO_NONE
        self.duplicated = dup_handle is not None
        self.properties: Properties
        if dup_handle is not None:
            original = _HANDLES[dup_handle]
            self.msg_handle = dup_handle
            self.properties = original.properties
        else:
            self.msg_handle = next(_NEXT)
            self.properties = Properties(self)
            _HANDLES[self.msg_handle] = self
        self._deleted = False

    def _error(self, comp: int, reason: int, **kw: Any) -> Exception:
        error: Exception = self._LIB.MQMIError(comp, reason, **kw)
        return error

    def _check(self) -> None:
        if self._deleted:
            raise self._error(CMQC.MQCC_FAILED, CMQC.MQRC_HMSG_ERROR)

    def get_handle(self) -> int:
        return self.msg_handle

    def get_queue_manager(self) -> Any:
        return self.conn_handle

    def dlt(self, dmho: Any = None) -> None:
        """MQDLTMH."""
        if self.duplicated:
            raise self._error(CMQC.MQCC_FAILED, CMQC.MQRC_HMSG_ERROR)
        _HANDLES.pop(self.msg_handle, None)
        self._deleted = True


def after_put(host: Host, pmo: Any, md: Any) -> None:
    """Record the properties of the put's message handle under the MsgId the put gave."""
    handle = _HANDLES.get(getattr(pmo, "OriginalMsgHandle", 0) or 0)
    if handle is not None and handle.properties.values:
        host.properties[bytes(md.MsgId)] = dict(handle.properties.values)


def after_publish(host: Host, pmo: Any, events: Sequence[Any]) -> None:
    """A publication's properties go with each subscriber's copy: the copies are the messages
    the queue manager's event log shows put by the publication."""
    handle = _HANDLES.get(getattr(pmo, "OriginalMsgHandle", 0) or 0)
    if handle is None or not handle.properties.values:
        return
    for event in events:
        if event.kind == "put" and event.msg_id is not None:
            host.properties[bytes(event.msg_id)] = dict(handle.properties.values)


def after_get(host: Host, gmo: Any, md: Any) -> None:
    """Fill the get's message handle with the returned message's properties."""
    handle = _HANDLES.get(getattr(gmo, "MsgHandle", 0) or 0)
    if handle is not None:
        handle.properties.values = dict(host.properties.get(bytes(md.MsgId), {}))
