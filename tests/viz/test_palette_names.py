"""The palette (colour-blind-safe, one symbol per state) and the names views use (rule MD-03)."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from mqlearn import CMQC as C
from mqlearn.viz import palette
from mqlearn.viz.names import Vocabulary, msg_tag, parse_msg_id, report_option_names

OKABE_ITO = {"#000000", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"}
CONTRACT_STATES = ("live", "expired", "got", "discarded", "report", "dead-letter")


def test_every_state_has_an_okabe_ito_colour_and_a_valid_symbol() -> None:
    for state, style in palette.STATES.items():
        assert style.color in OKABE_ITO, state
        go.Scatter(marker={"symbol": style.symbol})  # plotly rejects unknown symbols
    symbols = [palette.style(s).symbol for s in CONTRACT_STATES]
    colors = [palette.style(s).color for s in CONTRACT_STATES]
    assert len(set(symbols)) == len(symbols) and len(set(colors)) == len(colors)


def test_unknown_state_tints_and_glyphs() -> None:
    with pytest.raises(ValueError, match="unknown message state 'gone'; known: live, expired"):
        palette.style("gone")
    assert palette.tint("#0072B2", 0.5) == "rgba(0,114,178,0.5)"
    assert palette.kind_label("commit") == "commit"
    assert palette.kind_label("discard") == "✕ discard"
    glyphs = [style.glyph for style in palette.STATES.values()]
    assert len(set(glyphs)) == len(glyphs)


@pytest.mark.parametrize(
    ("report", "names"),
    [
        (C.MQRO_NONE, ["MQRO_NONE"]),
        (C.MQRO_EXPIRATION_WITH_DATA, ["MQRO_EXPIRATION_WITH_DATA"]),
        (
            C.MQRO_EXPIRATION_WITH_FULL_DATA | C.MQRO_PASS_DISCARD_AND_EXPIRY | C.MQRO_DISCARD_MSG,
            ["MQRO_EXPIRATION_WITH_FULL_DATA", "MQRO_PASS_DISCARD_AND_EXPIRY", "MQRO_DISCARD_MSG"],
        ),
        (C.MQRO_EXCEPTION | C.MQRO_COA, ["MQRO_EXCEPTION", "MQRO_COA"]),
    ],
)
def test_rpt01_report_options_by_name(report: int, names: list[str]) -> None:
    """RPT-01: each report sub-field shows as the one option it holds."""
    assert report_option_names(report) == names


def test_msg_tags_round_trip() -> None:
    msg_id = b"AMQ " + b"QM1".ljust(12) + (7).to_bytes(8, "big")
    assert msg_tag(msg_id) == msg_tag(msg_id.hex()) == "QM1#7"
    assert parse_msg_id("QM1#7") == parse_msg_id(msg_id.hex()) == msg_id
    assert parse_msg_id(b"abc") == b"abc".ljust(24, b"\0")
    assert msg_tag(b"\x01" * 24) == "010101010101…"
    with pytest.raises(ValueError, match="expected a tag like QM1#7 or 48 hex digits"):
        parse_msg_id("QM1#x")
    with pytest.raises(ValueError, match="at most 24 bytes"):
        parse_msg_id(b"x" * 25)


def test_md03_vocabulary_of_each_profile() -> None:
    """MD-03: MDEXP ≡ Expiry, EIULIM ≡ MQEI_UNLIMITED, RC2013 ≡ MQRC_EXPIRY_ERROR."""
    c_names, short = Vocabulary("distributed"), Vocabulary("ibmi")
    assert (c_names.name("Expiry"), short.name("Expiry")) == ("Expiry", "MDEXP")
    assert (c_names.expiry(-1), short.expiry(-1)) == ("MQEI_UNLIMITED", "EIULIM")
    assert c_names.reason(2013) == "MQRC_EXPIRY_ERROR (2013)"
    assert short.reason(2013) == "RC2013 (MQRC_EXPIRY_ERROR)"
    assert short.report(C.MQRO_EXPIRATION | C.MQRO_PASS_DISCARD_AND_EXPIRY) == "ROEXP + ROPDAE"
    assert short.value(C.MQFB_EXPIRATION, ("MQFB_NONE", "MQFB_EXPIRATION")) == "FBEXP"
    assert c_names.value(12345, ("MQFB_NONE",)) == "12345"
