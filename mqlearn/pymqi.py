"""pymqi's API on a simulated queue manager: ``from mqlearn import pymqi`` instead of
``import pymqi`` runs a pymqi program against mqlearn (docs/compat.md).

The names are pymqi's (connect, QueueManager, Queue, Topic, Subscription, PCFExecute,
MessageHandle, MD, GMO, PMO, OD, SD, CD, ..., CMQC, CMQXC, CMQCFC, MQMIError, PYIFError) with its
defaults (MD, GMO, PMO and OD version 1; ``str`` refused in structure fields). Beyond pymqi:
``simulation(name)``, ``queue_manager(name)``, ``realtime(name, factor)``, ``reset()``.
"""

from mqlearn.compat.library import lazy_cmqstrc as __getattr__  # noqa: F401 - CMQSTRC on use
from mqlearn.compat.library import names as _names
from mqlearn.compat.mqopts import PYMQI as _FLAVOUR

globals().update(_names(_FLAVOUR, "Comp:", "PYMQI Error: "))
