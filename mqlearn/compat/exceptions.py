"""The two libraries' exceptions: MQMIError (an MQI call's completion and reason codes) and
PYIFError (a mistake the library itself catches), under a common Error."""

from __future__ import annotations

from typing import Any

from mqlearn.compat import CMQC


class Error(Exception):
    """Base class of the library's exceptions."""


class MQMIError(Error):
    """An MQI call ended with MQCC_WARNING or MQCC_FAILED: ``comp`` and ``reason`` are IBM's codes.

    Extra keywords become attributes, as in both libraries: a get that truncates sets
    ``message`` (the data returned) and ``original_length`` (the message's full length).
    """

    comp = CMQC.MQCC_OK
    reason = CMQC.MQRC_NONE
    # set only by the calls that give them (keywords to __init__)
    original_length: int | None
    message: bytes
    detail: str
    _COMP_SEPARATOR = "Comp:"  # pymqi's wording; ibmmq writes "Comp"

    def __init__(self, comp: int, reason: int, **kw: Any) -> None:
        super().__init__(comp, reason)
        self.comp, self.reason = comp, reason
        for key, value in kw.items():
            setattr(self, key, value)

    def __str__(self) -> str:
        return (
            f"MQI Error. {self._COMP_SEPARATOR} {self.comp}, Reason {self.reason}: "
            f"{self.error_as_string()}"
        )

    def error_as_string(self) -> str:
        """The reason's mnemonic, prefixed by WARNING or FAILED."""
        if self.comp == CMQC.MQCC_OK:
            return "OK"
        prefix = "WARNING: " if self.comp == CMQC.MQCC_WARNING else "FAILED: "
        from mqlearn.compat import CMQSTRC  # 0.1 s to load: only when a message is wanted

        tables: tuple[dict[int, str], ...] = (CMQSTRC.MQRC_DICT, CMQSTRC.MQRCCF_DICT)
        for names in tables:
            if self.reason in names:
                return prefix + names[self.reason]
        return prefix + f"Error code {self.reason} not defined"

    errorAsString = error_as_string

    def get(self, key: str) -> Any:
        """ibmmq's accessor for the extra attributes."""
        return getattr(self, key)


class PYIFError(Error):
    """A misuse the library catches itself (a queue opened twice, a call when not connected)."""

    _PREFIX = "PYMQI Error: "

    def __init__(self, e: str) -> None:
        super().__init__(e)
        self.error = e

    def __str__(self) -> str:
        return self._PREFIX + str(self.error)
