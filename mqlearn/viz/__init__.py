"""Views of the simulator: the animated queue and topology views, plotly charts, and widgets.

``QueueView``/``QueueStage`` animate one queue from the engine's event log, ``TopologyView`` and
``Topology`` draw queue managers and channels, ``Workbench`` is the queue workbench and
``WorkbenchModel`` drives a queue through the MQI without any widget. The plotly side (``figures``:
timeline, shelf, depth, event log, report inbox, MQXQH inspector; the ``Comparison`` and
``XqhInspector`` widgets that show them) loads on first use, so a page with only the queue view
never imports plotly; ``summary`` says the state in a sentence, and a ``TextView`` shows such a
line with each rule ID it cites opening the rule's entry in the catalogue.
"""

import importlib
from typing import TYPE_CHECKING, Any

from mqlearn.viz.model import WorkbenchModel
from mqlearn.viz.queue_view import QueueStage, QueueView
from mqlearn.viz.text import summary
from mqlearn.viz.text_view import TextView
from mqlearn.viz.topology import Topology, TopologyView
from mqlearn.viz.workbench import Workbench

if TYPE_CHECKING:  # what the lazy names below are, for type checkers
    from mqlearn.viz import figures, palette
    from mqlearn.viz.charts import XqhInspector
    from mqlearn.viz.comparison import Comparison

_LAZY = {
    "Comparison": "mqlearn.viz.comparison",
    "XqhInspector": "mqlearn.viz.charts",
    "figures": None,
    "palette": None,
}


def __getattr__(name: str) -> Any:
    """The plotly-based names, imported when first asked for."""
    if name not in _LAZY:
        raise AttributeError(f"module 'mqlearn.viz' has no attribute {name!r}")
    home = _LAZY[name]
    if home is None:
        return importlib.import_module(f"mqlearn.viz.{name}")
    return getattr(importlib.import_module(home), name)


__all__ = [
    "Comparison",
    "QueueStage",
    "QueueView",
    "TextView",
    "Topology",
    "TopologyView",
    "Workbench",
    "WorkbenchModel",
    "XqhInspector",
    "figures",
    "palette",
    "summary",
]
