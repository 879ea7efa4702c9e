"""Rule MD-03: IBM i short names are the same fields and constants as the C names."""

from __future__ import annotations

import re

import pytest

from mqlearn.mqi import CMQC, MD, from_short_name, to_short_name
from mqlearn.mqi.shortnames import CONSTANT_SHORT_NAMES, FIELD_SHORT_NAMES, short_value

# Rule MD-03's examples, and the names of seeds 000 and 003 that the course uses.
MD03_PAIRS = [
    ("MDEXP", "Expiry"),
    ("EIULIM", "MQEI_UNLIMITED"),
    ("ROEXP", "MQRO_EXPIRATION"),
    ("ROEXPD", "MQRO_EXPIRATION_WITH_DATA"),
    ("ROEXPF", "MQRO_EXPIRATION_WITH_FULL_DATA"),
    ("ROPDAE", "MQRO_PASS_DISCARD_AND_EXPIRY"),
    ("FBEXP", "MQFB_EXPIRATION"),
    ("RC2013", "MQRC_EXPIRY_ERROR"),
    ("GMLK", "MQGMO_LOCK"),
    ("GMMUC", "MQGMO_MSG_UNDER_CURSOR"),
    ("FMXQH", "MQFMT_XMIT_Q_HEADER"),
    ("MONONE", "MQMO_NONE"),
    ("RC2034", "MQRC_NO_MSG_UNDER_CURSOR"),
    ("RC2033", "MQRC_NO_MSG_AVAILABLE"),
    ("RC2049", "MQRC_PRIORITY_EXCEEDS_MAXIMUM"),
    ("RCNONE", "MQRC_NONE"),
    ("CCFAIL", "MQCC_FAILED"),
    ("MDVER2", "MQMD_VERSION_2"),
]


@pytest.mark.parametrize(("short", "c_name"), MD03_PAIRS)
def test_md03_short_and_c_names_are_the_same_thing(short: str, c_name: str) -> None:
    assert from_short_name(short) == c_name
    assert to_short_name(c_name) == short


@pytest.mark.parametrize(("short", "c_name"), MD03_PAIRS[1:])
def test_md03_short_values_equal_cmqc(short: str, c_name: str) -> None:
    assert short_value(short) == getattr(CMQC, c_name)


def test_md03_key_values() -> None:
    assert short_value("EIULIM") == -1
    assert short_value("RC2013") == 2013
    assert short_value("ROEXP") == 0x00200000
    assert short_value("ROPDAE") == 0x4000
    assert short_value("FBEXP") == 258
    assert short_value("FMXQH") == "MQXMIT  "
    assert short_value("MINONE") == bytes(24)


def test_md03_every_md_field_has_a_short_name() -> None:
    assert list(FIELD_SHORT_NAMES) == [f.name for f in MD._LAYOUT]
    for field, short in FIELD_SHORT_NAMES.items():
        assert from_short_name(short) == field and to_short_name(field) == short


@pytest.mark.parametrize(("c_name", "short"), CONSTANT_SHORT_NAMES.items())
def test_md03_every_listed_constant_exists_and_maps_both_ways(c_name: str, short: str) -> None:
    assert hasattr(CMQC, c_name)
    assert short_value(short) == getattr(CMQC, c_name)
    assert from_short_name(short) == c_name and to_short_name(c_name) == short


def test_md03_short_names_are_ibm_i_shaped_and_unique() -> None:
    shorts = list(FIELD_SHORT_NAMES.values()) + list(CONSTANT_SHORT_NAMES.values())
    assert len(shorts) == len(set(shorts))
    assert all(re.fullmatch(r"[A-Z][A-Z0-9]{1,5}", s) for s in shorts), "at most 6 characters"
    assert not any(re.fullmatch(r"RC[0-9]+", s) for s in shorts), "reason codes go by rule"


@pytest.mark.parametrize("value", [2001, 2013, 2033, 2034, 2049, 2053, 2085])
def test_md03_any_reason_code_by_number(value: int) -> None:
    c_name = from_short_name(f"RC{value}")
    assert c_name.startswith("MQRC_") and getattr(CMQC, c_name) == value
    assert to_short_name(c_name) == f"RC{value}"


@pytest.mark.parametrize("short", ["EIULM", "RC99999", "RC02013", "rc2013", "MDEXPIRY", ""])
def test_md03_unknown_short_names_raise_key_error(short: str) -> None:
    with pytest.raises(KeyError, match="no IBM i short name"):
        from_short_name(short)


def test_md03_unknown_names_suggest_close_ones() -> None:
    with pytest.raises(KeyError, match="did you mean EIULIM"):
        from_short_name("EIULM")
    with pytest.raises(KeyError, match="MQEI_UNLIMITED"):
        to_short_name("MQEI_UNLIMTED")
    with pytest.raises(KeyError):
        to_short_name("MQRC_NOT_A_REASON")


def test_md03_field_short_names_have_no_value() -> None:
    with pytest.raises(KeyError, match="MQMD field Expiry"):
        short_value("MDEXP")
