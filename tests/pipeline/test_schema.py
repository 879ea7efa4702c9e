"""Trace schema v2: columns, types, the schema errors that stop a replay before it runs, and the
queue-definition checks (docs/pipeline.md)."""

from __future__ import annotations

import pandas as pd
import pytest

from mqlearn.pipeline import (
    OUTPUT_COLUMNS,
    QUEUE_COLUMNS,
    SCHEMA_VERSION,
    TRACE_COLUMNS,
    SchemaError,
    missing_or_mistyped,
    replay_local,
)
from mqlearn.pipeline.schema import OPS, OPS_OF_VERSION, check_columns, empty_table, family_matches


def test_schema_version_and_trace_columns_are_the_contract() -> None:
    assert SCHEMA_VERSION == 2
    assert OPS == ("PUT", "GET", "BROWSE_FIRST", "BROWSE_NEXT", "ARRIVE")  # v2 appended ARRIVE
    assert OPS_OF_VERSION[1] == OPS[:4] and OPS_OF_VERSION[2] == OPS
    assert TRACE_COLUMNS == {
        "seq": "int64", "time_ms": "int64", "qmgr": "string", "queue": "string", "op": "string",
        "handle": "int32", "msg_id": "string", "correl_id": "string", "match_options": "int32",
        "priority": "int32", "expiry": "int32", "report": "int32", "reply_to_q": "string",
        "reply_to_qmgr": "string", "persistence": "int32", "data_length": "int32",
    }  # fmt: skip
    assert list(QUEUE_COLUMNS) == [
        "qmgr", "queue", "msgdlvsq", "defprty", "maxdepth", "capexpry", "profile",
        "expiry_interval_s",
    ]  # fmt: skip
    assert set(OUTPUT_COLUMNS) == {"messages", "calls", "depth", "summary", "rejects"}
    assert list(OUTPUT_COLUMNS["rejects"]) == [*TRACE_COLUMNS, "reason"]


@pytest.mark.parametrize(
    "actual, expected, ok",
    [
        ("int64", "int64", True),
        ("int32", "int64", True),
        ("Int64", "int32", True),
        ("int64[pyarrow]", "int32", True),
        ("float64", "int64", False),
        ("string", "string", True),
        ("str", "string", True),
        ("object", "string", True),
        ("category", "string", True),
        ("string[pyarrow]", "string", True),
        ("int64", "string", False),
        ("bool", "int32", False),
    ],
)
def test_type_families(actual: str, expected: str, ok: bool) -> None:
    assert family_matches(actual, expected) is ok


def test_missing_or_mistyped_names_every_column() -> None:
    columns = {name: dtype for name, dtype in TRACE_COLUMNS.items() if name != "op"}
    columns["time_ms"] = "float64"
    assert missing_or_mistyped(columns, TRACE_COLUMNS) == [
        "column 'time_ms' has dtype float64, expected int64",
        "column 'op' is missing",
    ]
    assert missing_or_mistyped(dict(TRACE_COLUMNS), TRACE_COLUMNS) == []


def test_object_and_category_columns_must_hold_text() -> None:
    frame = pd.DataFrame({"qmgr": ["QM1", 7], "queue": pd.Categorical([1, 2])})
    with pytest.raises(SchemaError) as error:
        check_columns(frame, {"qmgr": "string", "queue": "string"}, "trace")
    assert str(error.value) == (
        "trace: column 'qmgr' holds non-text values (mixed-integer); "
        "column 'queue' is a category of int64, not text"
    )


def test_replay_stops_on_schema_errors_before_running() -> None:
    """A missing or mistyped column is a schema error naming the columns, not a reject."""
    trace = pd.DataFrame(
        {name: pd.Series([], dtype=dtype) for name, dtype in TRACE_COLUMNS.items()}
    )
    trace = trace.drop(columns=["handle"]).astype({"expiry": "float64"})
    queues = pd.DataFrame({n: pd.Series([], dtype=d) for n, d in QUEUE_COLUMNS.items()})
    with pytest.raises(
        SchemaError, match=r"trace: column 'handle' is missing; column 'expiry' has"
    ):
        replay_local(trace, queues)
    with pytest.raises(SchemaError, match="queue definitions: column 'profile' is missing"):
        replay_local(trace, queues.drop(columns=["profile"]))


def _queue(**attrs: object) -> pd.DataFrame:
    base = {
        "qmgr": "QM1", "queue": "Q1", "msgdlvsq": "PRIORITY", "defprty": 0, "maxdepth": 10,
        "capexpry": -1, "profile": "distributed", "expiry_interval_s": 300,
    }  # fmt: skip
    return pd.DataFrame([{**base, **attrs}]).astype(QUEUE_COLUMNS)


@pytest.mark.parametrize(
    "attrs, message",
    [
        ({"msgdlvsq": "LIFO"}, "QM1/Q1: MSGDLVSQ must be one of PRIORITY, FIFO"),
        ({"defprty": 10}, "QM1/Q1: DEFPRTY must be in 0..9"),
        ({"maxdepth": -1}, "QM1/Q1: MAXDEPTH must be in 0..999999999"),
        ({"capexpry": 0}, "QM1/Q1: CAPEXPRY must be in 1..999999999"),
        ({"profile": "vms"}, "QM1/Q1: profile must be one of distributed, zos, ibmi"),
        ({"expiry_interval_s": -1}, "QM1/Q1: expiry_interval_s must be 0..99999999"),
        ({"queue": "BAD NAME"}, "is not a valid MQ name"),
    ],
)
def test_bad_queue_definitions_are_refused_by_name(attrs: dict, message: str) -> None:
    trace = pd.DataFrame({n: pd.Series([], dtype=d) for n, d in TRACE_COLUMNS.items()})
    with pytest.raises(ValueError, match=message):
        replay_local(trace, _queue(**attrs))


@pytest.mark.parametrize("profile", ["distributed", "ibmi", "zos"])
def test_exp28_every_profile_accepts_an_expiry_interval(profile: str) -> None:
    """EXP-28: IBM i runs the expiry task as distributed does; z/OS has EXPRYINT."""
    trace = pd.DataFrame({n: pd.Series([], dtype=d) for n, d in TRACE_COLUMNS.items()})
    result = replay_local(trace, _queue(profile=profile, expiry_interval_s=300))
    assert len(result.messages) == 0


def test_queue_manager_settings_must_agree_and_queues_be_unique() -> None:
    trace = pd.DataFrame({n: pd.Series([], dtype=d) for n, d in TRACE_COLUMNS.items()})
    twice = pd.concat([_queue(), _queue()])
    with pytest.raises(ValueError, match="QM1/Q1: defined twice"):
        replay_local(trace, twice)
    mixed = pd.concat([_queue(), _queue(queue="Q2", expiry_interval_s=60)])
    with pytest.raises(ValueError, match="belong to the queue manager"):
        replay_local(trace, mixed)
    nulls = _queue().astype({"maxdepth": "Int32"})
    nulls.loc[0, "maxdepth"] = pd.NA
    with pytest.raises(ValueError, match="QM1/Q1: maxdepth is null"):
        replay_local(trace, nulls)


@pytest.mark.parametrize("name", sorted(OUTPUT_COLUMNS))
def test_empty_tables_have_the_declared_dtypes(name: str) -> None:
    table = empty_table(name)
    assert {c: str(t) for c, t in table.dtypes.items()} == OUTPUT_COLUMNS[name]
