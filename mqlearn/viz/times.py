"""Virtual time as the views show it: milliseconds, seconds, and the time a view is drawn at.

No numpy here: the queue view and the workbench use only this, so a page without charts loads
neither plotly nor numpy.
"""

from __future__ import annotations

from numbers import Integral
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mqlearn.engine.qmgr import QueueManager

MS_PER_S = 1000.0


def view_time(qm: QueueManager, at_ms: int | None) -> int:
    """The virtual time to draw: now, or ``at_ms`` (an int between 0 and now)."""
    now: int = qm.sim.now
    if at_ms is None:
        return now
    if isinstance(at_ms, bool) or not isinstance(at_ms, Integral) or not 0 <= at_ms <= now:
        raise ValueError(f"at_ms must be an int from 0 to now ({now} ms), got {at_ms!r}")
    return int(at_ms)
