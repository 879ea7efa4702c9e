"""The index of the rule catalogue: every rule ID, its title, and the link to its entry.

The catalogue itself is ``docs/rules.md``: one entry per rule, under a heading of the form
``### EXP-22 — <short title>``. This module holds the same IDs and titles, so code can name a rule,
check an ID and link to its entry without reading the file; ``tests/test_rule_catalogue.py`` checks
that the two agree heading for heading.

Links are relative to the repository's root (``docs/rules.md#exp-22``), which is what GitHub
resolves in the repository's own Markdown; a page one directory down (a notebook in ``notebooks/``)
prefixes them with ``../``. The anchor is the explicit one above each heading (the ID in lower
case), which GitHub and JupyterLab's Markdown preview both land on.

This module is pure: it imports nothing from mqlearn and reads no file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

RULES_DOC_URL = "docs/rules.md"
"""Where the catalogue lives, relative to the repository's root."""

FAMILIES = ("EXP", "RPT", "UOW", "LCK", "RPL", "DLQ", "TRG", "XQH", "MD", "MQI", "EIP")
"""The rule families, in the catalogue's order."""

RULE_ID_PATTERN = re.compile(rf"\b(?:{'|'.join(FAMILIES)})-[0-9]{{2}}\b")
"""Finds rule IDs in text (well-formed ones; whether they are defined is ``RULE_IDS``' business)."""

_WELL_FORMED = re.compile(rf"(?:{'|'.join(FAMILIES)})-[0-9]{{2}}")

RULE_TITLES: Mapping[str, str] = MappingProxyType(
    {
        "EXP-01": "Expiry is a relative lifetime in tenths of a second",
        "EXP-02": "MQEI_UNLIMITED never expires",
        "EXP-03": "Expiry 0 or below -1 is refused with 2013",
        "EXP-04": "Expiry above 999999999 is refused only when enforced",
        "EXP-05": "A syncpoint put starts its lifetime at MQPUT",
        "EXP-06": "CAPEXPRY lowers a longer Expiry at put time",
        "EXP-10": "The lifetime counts down on every queue on the way",
        "EXP-11": "A successful get returns the remaining lifetime",
        "EXP-12": "Expiry is approximate; mqlearn rounds up",
        "EXP-20": "An elapsed lifetime makes a message eligible, not gone",
        "EXP-21": "Discard happens when a get or browse would have returned the message",
        "EXP-22": "FIFO queue: discard up to the first live message",
        "EXP-23": "Priority queue: discard ahead of the returned message only",
        "EXP-24": "An expired message is never returned",
        "EXP-25": "Expired messages still count in the queue depth",
        "EXP-26": "Only expired messages: 2033 and nothing more",
        "EXP-27": "Match options limit what a get discards",
        "EXP-28": "Background expiry scans per platform",
        "EXP-29": "Discards and their reports are outside the unit of work",
        "EXP-30": "A group member that expires is discarded alone",
        "RPT-01": "Only MQRO_EXPIRATION options request an expiration report",
        "RPT-02": "The report is made at discard time",
        "RPT-03": "The descriptor of a system-generated report",
        "RPT-04": "How much data the report carries",
        "RPT-05": "MsgId and CorrelId of the report",
        "RPT-06": "Where the report goes",
        "RPT-07": "MQRO_PASS_DISCARD_AND_EXPIRY",
        "RPT-08": "Other programs that discard must report too",
        "RPT-09": "A missing report proves nothing",
        "UOW-01": "A backed-out get keeps the original deadline",
        "UOW-02": "Backout does not bring back expired discards",
        "UOW-03": "A message marked to skip backout stays got after MQBACK (z/OS)",
        "LCK-01": "A locked message can expire before MQGMO_MSG_UNDER_CURSOR",
        "LCK-02": "MQGMO_UNLOCK with no locked message left",
        "RPL-01": "The expiry of a reply is the application's choice",
        "RPL-02": "ReplyToQ naming a remote queue definition is resolved at put",
        "RPL-03": "The queue manager fills in a blank ReplyToQMgr",
        "DLQ-01": "A dead letter keeps its remaining lifetime",
        "TRG-01": "Trigger messages never expire",
        "TRG-02": "Expired messages count for triggering",
        "TRG-03": "Triggers caused by puts in a unit of work",
        "TRG-04": "A trigger event needs a process definition and a trigger monitor",
        "TRG-05": "A trigger monitor that opens the initiation queue gets the missed triggers",
        "TRG-06": "TRIGINT repeats a FIRST trigger for a queue that stays non-empty",
        "TRG-07": "Altering the trigger attributes while messages wait triggers",
        "XQH-01": "A remote put wraps the message in an MQXQH with two Expiry fields",
        "XQH-02": "Direct puts to a transmission queue",
        "XQH-03": "Both Expiry fields count down on retrieval",
        "XQH-04": "Only the outer Expiry decides discard",
        "XQH-05": "An embedded Expiry that ran out is set to 0",
        "XQH-06": "Expiry on an intermediate transmission queue",
        "MD-01": "MQMD layout, sizes and initial values",
        "MD-02": "Priority, MaxPriority and FIFO queues",
        "MD-03": "IBM i short names",
        "MD-04": "MQCCSI_Q_MGR is replaced by the queue manager's CCSID",
        "MD-05": "Feedback must be in a valid range whatever the MsgType",
        "MD-06": "MQLONG fields must fit in 32 bits",
        "MD-07": "An MQMDE for a version-1 get",
        "MD-08": "The queue manager completes MsgFlags and OriginalLength when it stores a message",
        "MD-09": "A putter's MQMDE gives the message its version-2 fields",
        "MD-10": "MQPMO_LOGICAL_ORDER lets the queue manager number a group",
        "MD-11": "MQGMO_LOGICAL_ORDER returns groups whole and in order",
        "MQI-01": "Completion and reason codes belong to one call",
        "MQI-02": "Open options decide which calls a handle may make",
        "EIP-01": "Relative and absolute expiry",
        "EIP-02": "JMS time to live",
        "EIP-03": ".NET TimeToReachQueue and TimeToBeReceived",
        "EIP-04": "Dead Letter Channel and Invalid Message Channel",
        "EIP-05": "Each subscriber's copy expires on its own",
        "EIP-06": "Request-reply needs a timeout",
    }
)
"""Rule ID → the short title of its heading in docs/rules.md, in the catalogue's order."""

RULE_IDS: frozenset[str] = frozenset(RULE_TITLES)
"""Every rule ID the catalogue defines."""


def rule_heading(rule_id: str) -> str:
    """The text of the rule's heading in docs/rules.md: ``EXP-22 — <title>``."""
    return f"{_known(rule_id)} — {RULE_TITLES[rule_id]}"


def rule_anchor(rule_id: str) -> str:
    """``docs/rules.md#exp-22``: the link to the rule's entry, relative to the repository's root.

    Raises ValueError naming the ID when it is malformed (not a family and two digits, such as
    ``"EXP-22"``; no lower case, no missing hyphen) or well-formed but not in the catalogue.
    """
    return f"{RULES_DOC_URL}#{_known(rule_id).lower()}"


def _known(rule_id: str) -> str:
    if not isinstance(rule_id, str) or not _WELL_FORMED.fullmatch(rule_id):
        raise ValueError(
            f"malformed rule ID {rule_id!r}: a rule ID is a family ({', '.join(FAMILIES)}), "
            "a hyphen and two digits, as in 'EXP-22'"
        )
    if rule_id not in RULE_TITLES:
        raise ValueError(f"unknown rule ID {rule_id!r}: it has no entry in {RULES_DOC_URL}")
    return rule_id
