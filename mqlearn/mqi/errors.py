"""MQMIError and reason-code names, as pymqi/ibmmq present MQI failures."""

from __future__ import annotations

from functools import cache

from mqlearn.mqi import cmqc as C

# Codes with two names in CMQC: the name IBM's reason-code pages lead with.
_PRIMARY = {
    C.MQRC_CONVERTED_MSG_TOO_BIG: "MQRC_CONVERTED_MSG_TOO_BIG",
    C.MQRC_STORAGE_MEDIUM_FULL: "MQRC_STORAGE_MEDIUM_FULL",
}


@cache
def _names(prefix: str) -> dict[int, str]:
    table: dict[int, str] = {}
    for name, value in vars(C).items():
        if name.startswith(prefix) and isinstance(value, int):
            table.setdefault(value, name)
    if prefix == "MQRC_":
        table.update(_PRIMARY)
    return table


def reason_name(reason: int) -> str:
    """IBM's name for a reason code: ``reason_name(2013) == "MQRC_EXPIRY_ERROR"``.

    An MQDLH Reason may hold a feedback code instead (MQFB_EXPIRATION, 258): those get their MQFB_ name.
    """
    name = _names("MQRC_").get(reason) or _names("MQFB_").get(reason)
    return name or f"MQRC_UNKNOWN({reason})"


def comp_name(comp: int) -> str:
    """IBM's name for a completion code: ``comp_name(2) == "MQCC_FAILED"``."""
    return _names("MQCC_").get(comp, f"MQCC_UNKNOWN({comp})")


class MQMIError(Exception):
    """An MQI call failed (or completed with a warning): ``.comp`` and ``.reason`` are IBM's codes.

    ``str(error)`` names both codes and, where mqlearn knows it, says why in a sentence.
    """

    def __init__(self, comp: int, reason: int, detail: str = "") -> None:
        self.comp = comp
        self.reason = reason
        self.detail = detail
        super().__init__(comp, reason)

    @property
    def reason_name(self) -> str:
        return reason_name(self.reason)

    def errorAsString(self) -> str:
        return str(self)

    def __str__(self) -> str:
        text = (
            f"MQI Error. Comp: {self.comp}, Reason {self.reason}: "
            f"{comp_name(self.comp)}: {reason_name(self.reason)}"
        )
        return f"{text} - {self.detail}" if self.detail else text


class MQWarning(UserWarning):
    """An MQI call completed with MQCC_WARNING (for example 2049, priority above MaxPriority)."""
