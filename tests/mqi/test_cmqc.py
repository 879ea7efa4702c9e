"""CMQC holds IBM's values: every constant matches the snapshot taken from IBM's own module
(tools/cmqc_snapshot.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mqlearn.mqi import CMQC, MQMIError, reason_name

SNAPSHOT_FILE = Path(__file__).resolve().parents[1] / "data" / "constants" / "CMQC.json"


def expected(entry: Any, actual: object) -> object:
    """A snapshot entry as CMQC should hold it: bytes stay bytes, character constants are str
    (an ``_ARRAY`` list item by item)."""
    if isinstance(entry, list):
        assert isinstance(actual, list) and len(actual) == len(entry)
        return [expected(e, a) for e, a in zip(entry, actual, strict=True)]
    if isinstance(entry, int):
        return entry
    raw = bytes.fromhex(entry["bytes"])
    return raw.decode("ascii") if isinstance(actual, str) else raw


@pytest.fixture(scope="module")
def snapshot() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SNAPSHOT_FILE.read_text())
    return data


def cmqc_names() -> list[str]:
    return [name for name in vars(CMQC) if name.startswith("MQ")]


def test_snapshot_is_not_trivially_empty(snapshot: dict[str, Any]) -> None:
    assert len(snapshot) > 1000


def test_cmqc_holds_exactly_the_snapshots_constants(
    snapshot: dict[str, Any],
) -> None:
    assert sorted(cmqc_names()) == sorted(snapshot)


def test_every_constant_equals_the_snapshot(snapshot: dict[str, Any]) -> None:
    wrong = {
        name: getattr(CMQC, name)
        for name in cmqc_names()
        if getattr(CMQC, name) != expected(snapshot[name], getattr(CMQC, name))
    }
    assert wrong == {}


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("MQEI_UNLIMITED", -1),
        ("MQRC_EXPIRY_ERROR", 2013),
        ("MQFB_EXPIRATION", 258),
        ("MQRO_EXPIRATION", 0x00200000),
        ("MQRO_PASS_DISCARD_AND_EXPIRY", 0x4000),
        ("MQENC_NATIVE", 546),
        ("MQMD_LENGTH_1", 324),
        ("MQMD_LENGTH_2", 364),
        ("MQXQH_LENGTH_1", 428),
        ("MQDLH_LENGTH_1", 172),
        ("MQFMT_XMIT_Q_HEADER", "MQXMIT  "),
        ("MQMI_NONE", bytes(24)),
    ],
)
def test_key_values(name: str, value: object) -> None:
    assert getattr(CMQC, name) == value


def test_reason_names() -> None:
    assert reason_name(2013) == "MQRC_EXPIRY_ERROR"


def test_mqmierror_names_its_codes() -> None:
    text = str(MQMIError(2, 2033))
    assert "MQCC_FAILED" in text and "MQRC_NO_MSG_AVAILABLE" in text
