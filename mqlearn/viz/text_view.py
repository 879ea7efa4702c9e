"""A line of text in a widget (a queue's summary, a call's result) whose rule IDs open their entry.

Drawn by the same ES module as the queue view (``view="text"``): the text keeps its line breaks
in a monospace font, and every rule ID the catalogue defines is a button that opens the rule's
card (its entry in docs/rules.md, shipped with the package) under the line. ``rules`` travels with
``value``, so the card opens without asking the kernel.
"""

from __future__ import annotations

from typing import Any

import anywidget
import traitlets

from mqlearn.viz.queue_view import CSS, ESM
from mqlearn.viz.rule_cards import rule_cards


class TextView(anywidget.AnyWidget):
    """``value``: the text shown; ``rules``: the cards of the rule IDs it cites (kept in step)."""

    _esm = ESM
    _css = CSS
    view = traitlets.Unicode("text").tag(sync=True)
    value = traitlets.Unicode("").tag(sync=True)
    rules = traitlets.Dict().tag(sync=True)

    def __init__(self, value: str = "", **kwargs: Any) -> None:
        super().__init__(value=value, rules=rule_cards(value), **kwargs)

    @traitlets.observe("value")
    def _cards(self, change: dict[str, Any]) -> None:
        self.rules = rule_cards(change["new"])
