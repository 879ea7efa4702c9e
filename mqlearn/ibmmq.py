"""IBM's ``ibmmq`` API on a simulated queue manager: ``from mqlearn import ibmmq`` instead of
``import ibmmq`` runs an ibmmq program against mqlearn (docs/compat.md).

The names are ibmmq's (connect, QueueManager, Queue, Topic, Subscription, PCFExecute,
MessageHandle, MD, GMO, PMO, OD, SD, CD, CSP, ..., CMQC, CMQXC, CMQCFC, CMQSTRC, MQMIError,
PYIFError) with its defaults (MD version 2, GMO 4, PMO 3, OD 4; a ``str`` given for a character
field is encoded). Beyond ibmmq: ``simulation(name)``, ``queue_manager(name)``,
``realtime(name, factor)``, ``reset()``.
"""

from mqlearn.compat.library import lazy_cmqstrc as __getattr__  # noqa: F401 - CMQSTRC on use
from mqlearn.compat.library import names as _names
from mqlearn.compat.mqopts import IBMMQ as _FLAVOUR

globals().update(_names(_FLAVOUR, "Comp", "PYIBMMQ Error: "))


def to_string(value: object, encoding: str = "utf8") -> object:
    """ibmmq's helper: an MQCHAR[] as str, trailing NULs and blanks stripped."""
    if isinstance(value, bytes):
        try:
            return value.split(b"\0", 1)[0].decode(encoding).strip()
        except UnicodeError:
            return value
    return value
