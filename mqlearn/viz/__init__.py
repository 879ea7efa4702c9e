"""Views of the simulator: plotly figures (pure functions) and ipywidgets that compose them.

``figures`` draws engine state (timeline, shelf, depth, event log, report inbox, MQXQH
inspector); ``summary`` says the same in a sentence; ``WorkbenchModel`` drives a queue through the
MQI without any widget; ``Workbench``, ``Comparison`` and ``XqhInspector`` are the widgets.
"""

import importlib
import sys


def _import_jsonschema_without_iri_grammar() -> None:
    """Spare each kernel about 4.6 s of CPU when the first plotly figure appears (measured here).

    plotly.io imports nbformat, which imports jsonschema, which compiles a Lark grammar
    at import time for the "iri" string format when the optional package rfc3987-syntax is present
    (JupyterLab's jupyter-events installs it). Nothing in a notebook kernel validates IRIs, so
    jsonschema is imported here as if that package were absent: it then just skips that one format
    check. The block is lifted at once, and a kernel that already imported jsonschema is left alone.
    """
    if "jsonschema" in sys.modules or "rfc3987_syntax" in sys.modules:
        return
    sys.modules["rfc3987_syntax"] = None  # type: ignore[assignment]  # makes its import fail
    try:
        importlib.import_module("jsonschema")
    except ImportError:
        pass  # jsonschema is optional for plotly; without it there is nothing to speed up
    finally:
        del sys.modules["rfc3987_syntax"]


_import_jsonschema_without_iri_grammar()

from mqlearn.viz import figures, palette  # noqa: E402  (after the import above, on purpose)
from mqlearn.viz.gui import Comparison, XqhInspector  # noqa: E402
from mqlearn.viz.model import WorkbenchModel  # noqa: E402
from mqlearn.viz.queue_view import QueueStage, QueueView  # noqa: E402
from mqlearn.viz.text import summary  # noqa: E402
from mqlearn.viz.topology import Topology, TopologyView  # noqa: E402
from mqlearn.viz.workbench import Workbench  # noqa: E402

__all__ = [
    "Comparison",
    "QueueStage",
    "QueueView",
    "Topology",
    "TopologyView",
    "Workbench",
    "WorkbenchModel",
    "XqhInspector",
    "figures",
    "palette",
    "summary",
]
