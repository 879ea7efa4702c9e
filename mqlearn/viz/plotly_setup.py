"""plotly, imported once and the fast way: every module that draws a plotly figure imports ``go``
from here, so the first figure (not the first ``import mqlearn.viz``) pays for plotly."""

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

import plotly.graph_objects as go  # noqa: E402  (after the import above, on purpose)
from plotly.io.json import to_json_plotly  # noqa: E402


class Figure(go.Figure):  # type: ignore[misc]  # plotly ships no types
    """A ``go.Figure`` that a notebook shows through its own mime bundle.

    plotly's ``Figure._ipython_display_`` goes through ``plotly.io.show``, which refuses to
    display anything unless nbformat imports; nbformat needs jsonschema, whose compiled helpers
    (rpds-py) the course in the browser cannot install (JupyterLite: docs/teaching.md). The
    bundle displayed here is the one ``show`` would display.
    """

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self._repr_mimebundle_(), raw=True)  # type: ignore[no-untyped-call]


__all__ = ["Figure", "go", "to_json_plotly"]
