"""MQOPEN options: which calls a handle may make (rule MQI-02).

A handle opened with explicit options may make only the calls they allow, as on IBM MQ: MQPUT needs
MQOO_OUTPUT (else 2039 MQRC_NOT_OPEN_FOR_OUTPUT), a destructive MQGET one of the MQOO_INPUT_*
options (else 2037 MQRC_NOT_OPEN_FOR_INPUT), a browse, and MQGMO_MSG_UNDER_CURSOR, MQOO_BROWSE
(else 2036 MQRC_NOT_OPEN_FOR_BROWSE). Options are checked at open: unknown bits or two input
options are 2046 MQRC_OPTIONS_ERROR; input or browse on a remote queue or a topic, 2045
MQRC_OPTION_NOT_VALID_FOR_TYPE.

Without options (``Queue(qm, name)``), mqlearn opens the queue for everything a course cell does
with one handle: put, get, browse. pymqi differs here: it opens a queue on its first put for
output only, or on its first get for input only (docs/engine.md, "Handles").
"""

from __future__ import annotations

from functools import reduce
from operator import or_

from mqlearn.engine.mqi_checks import fail
from mqlearn.mqi import cmqc as C

INPUT = C.MQOO_INPUT_AS_Q_DEF | C.MQOO_INPUT_SHARED | C.MQOO_INPUT_EXCLUSIVE
EVERYTHING = (
    C.MQOO_INPUT_AS_Q_DEF | C.MQOO_BROWSE | C.MQOO_OUTPUT
)  # a handle opened without options
KNOWN = reduce(or_, (getattr(C, name) for name in dir(C) if name.startswith("MQOO_")), 0)
BROWSE_GETS = C.MQGMO_BROWSE_FIRST | C.MQGMO_BROWSE_NEXT | C.MQGMO_BROWSE_MSG_UNDER_CURSOR


def checked(options: int | None, *, what: str, remote: bool) -> int:
    """The options a handle holds: ``options`` checked as MQOPEN checks them, or EVERYTHING
    (output only for a remote queue or a topic, ``remote``) when none are given."""
    if options is None:
        return C.MQOO_OUTPUT if remote else EVERYTHING
    if isinstance(options, bool) or not isinstance(options, int):
        raise TypeError(f"open_opts must be an int (MQOO_* options), got {options!r}")
    if options & ~KNOWN or options < 0:
        raise fail(C.MQRC_OPTIONS_ERROR, f"open options {options} hold bits no MQOO_ option has")
    if (options & INPUT) & ((options & INPUT) - 1):
        raise fail(C.MQRC_OPTIONS_ERROR, "open options name more than one MQOO_INPUT_ option")
    if remote and options & (INPUT | C.MQOO_BROWSE):
        raise fail(C.MQRC_OPTION_NOT_VALID_FOR_TYPE, f"{what}: no input or browse on it")
    return options


def check_put(options: int, what: str) -> None:
    if not options & C.MQOO_OUTPUT:
        raise fail(C.MQRC_NOT_OPEN_FOR_OUTPUT, f"{what} was not opened with MQOO_OUTPUT")


def check_get(options: int, gmo_options: int, what: str) -> None:
    """A browse, or a get of the message under the cursor, needs MQOO_BROWSE; any get but a
    browse needs one of the MQOO_INPUT_ options."""
    if gmo_options & (BROWSE_GETS | C.MQGMO_MSG_UNDER_CURSOR) and not options & C.MQOO_BROWSE:
        raise fail(C.MQRC_NOT_OPEN_FOR_BROWSE, f"{what} was not opened with MQOO_BROWSE")
    if not gmo_options & BROWSE_GETS and not options & INPUT:
        raise fail(C.MQRC_NOT_OPEN_FOR_INPUT, f"{what} was not opened with an MQOO_INPUT_ option")
