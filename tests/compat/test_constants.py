"""The shims' constant modules hold exactly IBM's definitions: every name and value matches the
snapshot taken from IBM's own files (tools/compat_constants.py)."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from mqlearn import ibmmq, pymqi
from mqlearn.compat import CMQC, CMQCFC, CMQSTRC, CMQXC

SNAPSHOTS = Path(__file__).resolve().parents[1] / "data" / "compat"
MODULES = {"CMQC": CMQC, "CMQXC": CMQXC, "CMQCFC": CMQCFC, "CMQSTRC": CMQSTRC}


def decoded(entry: Any) -> Any:
    """A snapshot entry back as IBM's module holds it."""
    if isinstance(entry, dict) and "bytes" in entry:
        return bytes.fromhex(entry["bytes"])
    if isinstance(entry, dict) and "dict" in entry:
        return {decoded(k): decoded(v) for k, v in entry["dict"]}
    if isinstance(entry, list):
        return [decoded(e) for e in entry]
    return entry


def defined(module: ModuleType) -> dict[str, Any]:
    return {k: v for k, v in vars(module).items() if k.startswith("MQ")}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_holds_exactly_the_snapshot(name: str) -> None:
    snapshot = json.loads((SNAPSHOTS / f"{name}.json").read_text())
    expected = {k: decoded(v) for k, v in snapshot.items()}
    actual = defined(MODULES[name])
    assert sorted(actual) == sorted(expected)
    assert {k: v for k, v in actual.items() if v != expected[k]} == {}


def test_cmqc_has_every_name_ibmmq_has() -> None:
    """Issue 25 counted 2,475 names in ibmmq's CMQC (Linux x86-64)."""
    assert len(defined(CMQC)) == 2475
    assert len(defined(CMQXC)) > 400 and len(defined(CMQCFC)) > 2300


@pytest.mark.parametrize(
    ("module", "name", "value"),
    [
        (CMQC, "MQFMT_STRING", b"MQSTR   "),
        (CMQC, "MQFMT_XMIT_Q_HEADER", b"MQXMIT  "),
        (CMQC, "MQMI_NONE", bytes(24)),
        (CMQC, "MQRC_TRUNCATED_MSG_ACCEPTED", 2079),
        (CMQC, "MQEI_UNLIMITED", -1),
        (CMQC, "MQDLH_STRUC_ID", b"DLH "),
        (CMQXC, "MQCHT_SVRCONN", 7),
        (CMQCFC, "MQCMD_INQUIRE_Q", 13),
        (CMQCFC, "MQIACF_Q_ATTRS", 1002),
    ],
)
def test_key_values(module: ModuleType, name: str, value: object) -> None:
    assert getattr(module, name) == value


def test_strc_names_reason_codes() -> None:
    assert CMQSTRC.MQRC_DICT[2033] == "MQRC_NO_MSG_AVAILABLE"


def test_both_shims_export_the_modules() -> None:
    for lib in (pymqi, ibmmq):
        assert lib.CMQCFC is CMQCFC and lib.CMQXC is CMQXC and lib.CMQSTRC is CMQSTRC
    assert ibmmq.CMQC is CMQC


def test_pymqis_cmqc_also_holds_the_channel_constants() -> None:
    """pymqi's own CMQC still carries MQCHT_*, MQXPT_* ..., which IBM moved to CMQXC."""
    assert defined(pymqi.CMQC) == {**defined(CMQXC), **defined(CMQC)}
    assert pymqi.CMQC.MQCHT_CLNTCONN == CMQXC.MQCHT_CLNTCONN == 6
    assert not hasattr(ibmmq.CMQC, "MQCHT_CLNTCONN")
