"""Colours and marker symbols for message states, safe for colour-blind readers.

The colours are Okabe and Ito's eight-colour palette; every state also has its own marker symbol
(and a matching glyph for tables), so the views stay readable in greyscale and for readers who
cannot tell two colours apart.
"""

from __future__ import annotations

from typing import NamedTuple

# Okabe-Ito
BLACK = "#000000"
ORANGE = "#E69F00"
SKY_BLUE = "#56B4E9"
BLUISH_GREEN = "#009E73"
YELLOW = "#F0E442"
BLUE = "#0072B2"
VERMILLION = "#D55E00"
REDDISH_PURPLE = "#CC79A7"
GREY = "#999999"  # for context (lifetimes of messages already gone), never for a state


class Style(NamedTuple):
    """How one message state is drawn: colour, plotly marker symbol, legend label, and a text
    glyph close to the symbol for tables and text (where plotly cannot draw a marker)."""

    color: str
    symbol: str
    label: str
    glyph: str


STATES: dict[str, Style] = {
    "live": Style(BLUE, "circle", "live", "●"),
    "expired": Style(ORANGE, "hourglass", "expired, not yet discarded", "⧗"),
    "got": Style(BLUISH_GREEN, "triangle-down", "got", "▼"),
    "discarded": Style(VERMILLION, "x", "discarded", "✕"),
    "report": Style(REDDISH_PURPLE, "star", "expiration report sent", "★"),
    "dead-letter": Style(BLACK, "square", "dead-lettered", "■"),
    # states the engine adds (queue_frame ``state``) and moments worth marking
    "uncommitted": Style(SKY_BLUE, "circle-open", "uncommitted put", "○"),
    "in-uow": Style(BLUISH_GREEN, "triangle-down-open", "got in unit of work", "▽"),
    "locked": Style(BLUE, "circle-cross", "locked by a browse", "⊕"),
    "browsed": Style(SKY_BLUE, "diamond-open", "browsed", "◇"),
    "sent": Style(BLUISH_GREEN, "triangle-right", "sent by a channel", "▶"),
    "backout": Style(SKY_BLUE, "triangle-up-open", "backed out", "△"),
    "trigger": Style(YELLOW, "bowtie", "trigger message", "⋈"),
}

NOW_LINE = BLACK
VIEW_LINE = GREY
TRIGGER_LINE = REDDISH_PURPLE

# The state each event kind of the log stands for (docs/engine.md, "The event log").
KIND_STATE = {
    "put": "live",
    "get": "got",
    "browse": "browsed",
    "discard": "discarded",
    "report": "report",
    "dead-letter": "dead-letter",
    "channel-send": "sent",
    "backout": "backout",
    "trigger": "trigger",
}


def style(state: str) -> Style:
    """The style of a state; ValueError naming the known states for any other."""
    try:
        return STATES[state]
    except KeyError:
        raise ValueError(f"unknown message state {state!r}; known: {', '.join(STATES)}") from None


TINT_ALPHA = 0.18


def tint(color: str, alpha: float = TINT_ALPHA) -> str:
    """A see-through ``rgba()`` version of a ``#RRGGBB`` colour, for areas and headers."""
    red, green, blue = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({red},{green},{blue},{alpha})"


def kind_label(kind: str) -> str:
    """An event kind with its state's glyph in front (``"✕ discard"``), for the event log."""
    state = KIND_STATE.get(kind)
    return f"{STATES[state].glyph} {kind}" if state else kind
