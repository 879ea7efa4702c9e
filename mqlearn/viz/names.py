"""What the views call things: C names or IBM i short names, message tags, option lists.

A queue manager with profile ``"ibmi"`` is shown with the RPG short names of IBM's IBM i pages
(``MDEXP`` for Expiry, ``EIULIM`` for MQEI_UNLIMITED, ``RC2033`` for a reason code; rule MD-03);
every other profile with the C names. Messages are tagged ``QM1#7`` (the queue manager that made
the MsgId and its counter) so that a report's CorrelId visibly names the message it reports on.
"""

from __future__ import annotations

from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import reason_name
from mqlearn.mqi.shortnames import to_short_name

MSGID_BYTES = 24
_AMQ = b"AMQ "
_QMGR_NAME_BYTES = 12  # "AMQ " + 12 bytes of queue-manager name + an 8-byte counter

MSG_TYPES = ("MQMT_REQUEST", "MQMT_REPLY", "MQMT_REPORT", "MQMT_DATAGRAM")
FEEDBACKS = ("MQFB_NONE", "MQFB_EXPIRATION", "MQFB_COA", "MQFB_COD", "MQFB_PAN", "MQFB_NAN")
PERSISTENCES = ("MQPER_PERSISTENCE_AS_Q_DEF", "MQPER_NOT_PERSISTENT", "MQPER_PERSISTENT")
EXPIRATION_REPORTS = (
    "MQRO_EXPIRATION",
    "MQRO_EXPIRATION_WITH_DATA",
    "MQRO_EXPIRATION_WITH_FULL_DATA",
)
# Report sub-fields that take one of three values (rule RPT-01: at most one of each).
_REPORT_LEVELS = (
    ("MQRO_EXCEPTION", "MQRO_EXCEPTION_WITH_DATA", "MQRO_EXCEPTION_WITH_FULL_DATA"),
    EXPIRATION_REPORTS,
    ("MQRO_COA", "MQRO_COA_WITH_DATA", "MQRO_COA_WITH_FULL_DATA"),
    ("MQRO_COD", "MQRO_COD_WITH_DATA", "MQRO_COD_WITH_FULL_DATA"),
)
_REPORT_FLAGS = (
    "MQRO_PAN",
    "MQRO_NAN",
    "MQRO_ACTIVITY",
    "MQRO_PASS_MSG_ID",
    "MQRO_PASS_CORREL_ID",
    "MQRO_PASS_DISCARD_AND_EXPIRY",
    "MQRO_DISCARD_MSG",
)


def report_option_names(report: int) -> list[str]:
    """The MQRO_ names whose values add up to ``report`` (``["MQRO_NONE"]`` for 0)."""
    names = []
    for level in _REPORT_LEVELS:
        bits = report & getattr(C, level[-1])
        names += [name for name in level if getattr(C, name) == bits]
    names += [name for name in _REPORT_FLAGS if report & getattr(C, name)]
    return names or ["MQRO_NONE"]


def msg_tag(msg_id: bytes | str) -> str:
    """A short name for a MsgId: ``QM1#7`` for the 7th MsgId queue manager QM1 made.

    Any other MsgId (an application's own, all zeros) shows as its first 12 hex digits.
    """
    raw = bytes.fromhex(msg_id) if isinstance(msg_id, str) else msg_id
    if len(raw) == MSGID_BYTES and raw.startswith(_AMQ):
        name = raw[len(_AMQ) : len(_AMQ) + _QMGR_NAME_BYTES].decode("ascii", "replace").strip()
        counter = int.from_bytes(raw[len(_AMQ) + _QMGR_NAME_BYTES :], "big")
        return f"{name}#{counter}"
    return raw.hex()[:12] + "…"


def parse_msg_id(text: str | bytes) -> bytes:
    """A MsgId/CorrelId from what a learner types: a tag ``QM1#7``, 48 hex digits, or bytes.

    Raises ValueError naming the accepted forms for anything else.
    """
    if isinstance(text, bytes):
        if len(text) > MSGID_BYTES:
            raise ValueError(f"an identifier is at most {MSGID_BYTES} bytes, got {len(text)}")
        return text.ljust(MSGID_BYTES, b"\0")
    text = text.strip()
    name, hash_sign, counter = text.rpartition("#")
    if hash_sign and counter.isdigit() and 0 < len(name) <= _QMGR_NAME_BYTES:
        padded = name.encode("ascii").ljust(_QMGR_NAME_BYTES)
        return _AMQ + padded + int(counter).to_bytes(MSGID_BYTES - 16, "big")
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        raw = b""
    if len(raw) != MSGID_BYTES:
        raise ValueError(
            f"identifier {text!r}: expected a tag like QM1#7 or {2 * MSGID_BYTES} hex digits"
        )
    return raw


class Vocabulary:
    """Names for one profile: C names, or IBM i short names when ``profile == "ibmi"``."""

    def __init__(self, profile: str) -> None:
        self.profile = profile
        self.short = profile == "ibmi"

    def name(self, c_name: str) -> str:
        """An MQMD field or CMQC constant as this profile writes it (``Expiry`` / ``MDEXP``)."""
        return to_short_name(c_name) if self.short else c_name

    def reason(self, reason: int) -> str:
        """A reason code by name: ``MQRC_NO_MSG_AVAILABLE (2033)`` / ``RC2033 (MQRC_...)``."""
        if self.short:
            return f"RC{reason} ({reason_name(reason)})"
        return f"{reason_name(reason)} ({reason})"

    def expiry(self, tenths: int | None) -> str:
        """An Expiry value: tenths of a second, or MQEI_UNLIMITED / EIULIM."""
        if tenths is None:
            return ""
        return self.name("MQEI_UNLIMITED") if tenths == C.MQEI_UNLIMITED else str(tenths)

    def value(self, value: int, names: tuple[str, ...]) -> str:
        """The name among ``names`` whose CMQC value is ``value``, else the number."""
        for c_name in names:
            if getattr(C, c_name) == value:
                return self.name(c_name)
        return str(value)

    def report(self, report: int) -> str:
        """Report options as names joined with ``+`` (``MQRO_EXPIRATION + MQRO_PASS_...``)."""
        return " + ".join(self.name(n) for n in report_option_names(report))
