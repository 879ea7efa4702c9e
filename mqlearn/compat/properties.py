"""``MessageHandle`` and ``handle.properties`` (MQCRTMH, MQSETMP, MQINQMP, MQDLTMP, MQDLTMH) for
the shims, shaped as pymqi and ibmmq shape them, over the engine's message handles.

The engine keeps a message's properties with the message
(:mod:`mqlearn.engine.message_properties`): a put whose PMO names a handle (OriginalMsgHandle,
NewMsgHandle) stores them, a get whose GMO names one (MsgHandle) fills it, and the copies, dead
letters and reports the queue manager makes carry them as IBM says. This module only translates
the libraries' arguments and errors.
"""

from __future__ import annotations

from typing import Any

from mqlearn.compat import CMQC
from mqlearn.engine import message_properties as engine
from mqlearn.mqi.errors import MQMIError as EngineError


def _name(name: Any) -> str:
    return name.decode("utf-8") if isinstance(name, bytes) else str(name)


class Properties:
    """``handle.properties``: ``set``, ``get`` (``inq``), ``dlt`` and item access."""

    default_value_length = 64

    def __init__(self, handle: MessageHandle) -> None:
        self._handle = handle

    def set(
        self,
        name: Any,
        value: Any,
        property_type: int = CMQC.MQTYPE_STRING,
        value_length: int = CMQC.MQVL_NULL_TERMINATED,
        pd: Any = None,
        smpo: Any = None,
    ) -> None:
        """MQSETMP (a PD's CopyOptions are kept with the property)."""
        if property_type == CMQC.MQTYPE_STRING and isinstance(value, bytes):
            value = value.decode("utf-8")
        copy_options = getattr(pd, "CopyOptions", CMQC.MQCOPY_DEFAULT)
        with self._handle._call():
            self._handle._engine.set(_name(name), value, property_type, copy_options)

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
        with self._handle._call(value=default):
            found = self._handle._engine.inq(_name(name), property_type, impo_options)
        value = found.value
        limit = max_value_length or self.default_value_length
        if isinstance(value, str | bytes) and len(value) > limit:
            raise self._handle._error(
                CMQC.MQCC_WARNING, CMQC.MQRC_PROPERTY_VALUE_TOO_BIG, data_length=len(value)
            )
        return value

    inq = get

    def dlt(self, name: Any, dmpo: Any = None) -> None:
        """MQDLTMP (2471 is a warning there)."""
        try:
            self._handle._engine.dlt(_name(name))
        except EngineError as error:
            raise self._handle._error(CMQC.MQCC_WARNING, error.reason) from None

    def __getitem__(self, name: Any) -> Any:
        try:
            value = self.get(name)
        except Exception:
            raise KeyError(f"No such property [{name}]") from None
        return value

    def __setitem__(self, name: Any, value: Any) -> None:
        self.set(name, value)


class _Call:
    """Engine errors raised in its block become the library's MQMIError."""

    def __init__(self, handle: MessageHandle, extra: dict[str, Any]) -> None:
        self._handle = handle
        self._extra = extra

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, error: Any, tb: Any) -> None:
        if isinstance(error, EngineError):
            raise self._handle._error(error.comp, error.reason, **self._extra) from None


class MessageHandle:
    """MQCRTMH: a message handle whose integer ``msg_handle`` goes in PMO.OriginalMsgHandle
    (a put) or GMO.MsgHandle (a get)."""

    _LIB: Any = None  # each flavour's subclass sets its library (for its MQMIError)

    def __init__(self, qmgr: Any = None, cmho: Any = None, dup_handle: int | None = None) -> None:
        self.conn_handle = qmgr.get_handle() if qmgr is not None else CMQC.MQHO_NONE
        self.duplicated = dup_handle is not None
        if dup_handle is not None:
            try:
                found = engine.handle(dup_handle, "dup_handle")
            except EngineError as error:
                raise self._error(error.comp, error.reason) from None
            if found is None:
                raise self._error(CMQC.MQCC_FAILED, CMQC.MQRC_HMSG_ERROR)
            self._engine = found
        else:
            self._engine = engine.MessageHandle(qmgr)
        self.msg_handle = self._engine.msg_handle
        self.properties = Properties(self)

    def _error(self, comp: int, reason: int, **kw: Any) -> Exception:
        error: Exception = self._LIB.MQMIError(comp, reason, **kw)
        return error

    def _call(self, **extra: Any) -> _Call:
        return _Call(self, extra)

    def get_handle(self) -> int:
        return self.msg_handle

    def get_queue_manager(self) -> Any:
        return self.conn_handle

    def dlt(self, dmho: Any = None) -> None:
        """MQDLTMH."""
        if self.duplicated:
            raise self._error(CMQC.MQCC_FAILED, CMQC.MQRC_HMSG_ERROR)
        with self._call():
            self._engine.delete()
