"""Trace schema version 2: the columns of a trace, of queue definitions and of the replay outputs.

A trace has one row per MQI operation on one local queue (docs/pipeline.md). Types are given as
pandas dtype strings. A column is accepted when its dtype belongs to the same family as the
declared one: any integer dtype (numpy or nullable, e.g. ``int64``, ``Int32``) for an integer
column, and any string dtype (``string``, ``str``, ``object`` holding text) for a text column;
values must still fit the declared width. A ``category`` column of text counts as text.
Extra columns are ignored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

SCHEMA_VERSION = 2

# The operations a trace row may record, in the order of their integer codes. Version 2 appended
# ARRIVE (a message put by the queue manager, e.g. a channel's arrival, whose Expiry may be 0:
# it arrived already expired), so the codes of version 1 stay as they were.
OPS = ("PUT", "GET", "BROWSE_FIRST", "BROWSE_NEXT", "ARRIVE")
# The operations each schema version knows.
OPS_OF_VERSION: dict[int, tuple[str, ...]] = {1: OPS[:4], 2: OPS}

TRACE_COLUMNS: dict[str, str] = {
    "seq": "int64",
    "time_ms": "int64",
    "qmgr": "string",
    "queue": "string",
    "op": "string",
    "handle": "int32",
    "msg_id": "string",
    "correl_id": "string",
    "match_options": "int32",
    "priority": "int32",
    "expiry": "int32",
    "report": "int32",
    "reply_to_q": "string",
    "reply_to_qmgr": "string",
    "persistence": "int32",
    "data_length": "int32",
}

QUEUE_COLUMNS: dict[str, str] = {
    "qmgr": "string",
    "queue": "string",
    "msgdlvsq": "string",
    "defprty": "int32",
    "maxdepth": "int32",
    "capexpry": "int32",
    "profile": "string",
    "expiry_interval_s": "int32",
}

# Nullable dtypes ("Int64", "Int32") mark columns that are null where they do not apply. Rejected
# rows keep their values as given, so every integer column of "rejects" is Int64 (wide enough for
# an out-of-range value, nullable for a missing one).
OUTPUT_COLUMNS: dict[str, dict[str, str]] = {
    "messages": {
        "qmgr": "string",
        "queue": "string",
        "msg_id": "string",
        "correl_id": "string",
        "put_seq": "int64",
        "put_ms": "int64",
        "priority": "int32",
        "lane": "int32",
        "expiry": "int32",
        "deadline_ms": "Int64",
        "outcome": "string",
        "end_seq": "Int64",
        "end_ms": "Int64",
        "discard_cause": "string",
        "got_expiry": "Int32",
        "report": "bool",
        "report_qmgr": "string",
        "report_q": "string",
        "persistence": "int32",
        "data_length": "int32",
    },
    "calls": {
        "qmgr": "string",
        "queue": "string",
        "seq": "int64",
        "time_ms": "int64",
        "op": "string",
        "handle": "int32",
        "comp": "int32",
        "reason": "int32",
        "msg_id": "string",
        "expiry": "Int32",
        "discarded": "int32",
        "reports": "int32",
    },
    "depth": {
        "qmgr": "string",
        "queue": "string",
        "time_ms": "int64",
        "seq": "Int64",
        "source": "string",
        "depth": "int64",
        "expired": "int64",
        "live": "int64",
    },
    "summary": {
        "qmgr": "string",
        "queue": "string",
        "profile": "string",
        "msgdlvsq": "string",
        "calls": "int64",
        "puts": "int64",
        "put_failed": "int64",
        "gets": "int64",
        "browses": "int64",
        "no_msg": "int64",
        "discarded_get": "int64",
        "discarded_browse": "int64",
        "discarded_scan": "int64",
        "reports": "int64",
        "max_depth": "int64",
        "final_depth": "int64",
        "final_expired": "int64",
        "first_ms": "int64",
        "last_ms": "int64",
        "end_ms": "int64",
    },
    "rejects": {
        **{
            name: ("string" if dtype == "string" else "Int64")
            for name, dtype in TRACE_COLUMNS.items()
        },
        "reason": "string",
    },
}

# The output tables, in the order a replay writes them.
TABLES = ("messages", "calls", "depth", "summary", "rejects")

# Values of messages.outcome and messages.discard_cause.
OUTCOMES = ("got", "discarded", "live", "expired")
DISCARD_CAUSES = ("get", "browse", "scan")

_INTEGER = re.compile(r"u?int(8|16|32|64)(\[pyarrow\])?", re.IGNORECASE)
_TEXT = re.compile(r"string|str|object|category|(large_)?string\[\w+\]")
_FAMILIES = {"int64": _INTEGER, "int32": _INTEGER, "string": _TEXT}


class SchemaError(ValueError):
    """A trace or queue table lacks a column or has one of the wrong type (nothing has run)."""


class ReconcileError(RuntimeError):
    """Input rows != accepted + rejected: a row went missing or was counted twice."""


def family_matches(actual: str, expected: str) -> bool:
    """Whether a column of dtype ``actual`` can hold values of the declared dtype ``expected``."""
    pattern = _FAMILIES.get(expected)
    if pattern is None:
        return actual == expected
    return pattern.fullmatch(actual) is not None


def missing_or_mistyped(columns: Mapping[str, str], expected: Mapping[str, str]) -> list[str]:
    """One sentence per expected column that is absent or of another type family.

    ``columns`` maps the available column names to their pandas dtype strings.
    """
    problems = []
    for name, dtype in expected.items():
        actual = columns.get(name)
        if actual is None:
            problems.append(f"column {name!r} is missing")
        elif not family_matches(actual, dtype):
            problems.append(f"column {name!r} has dtype {actual}, expected {dtype}")
    return problems


def check_columns(frame: pd.DataFrame, expected: Mapping[str, str], what: str) -> None:
    """Raise :class:`SchemaError` naming every missing or mistyped column of ``frame``.

    Text columns of dtype ``object`` (or ``category``) must hold only strings (or nulls).
    """
    import pandas as pd

    problems = missing_or_mistyped({str(k): str(v) for k, v in frame.dtypes.items()}, expected)
    for name, dtype in expected.items():
        if dtype != "string" or name not in frame.columns:
            continue
        column = frame[name]
        if isinstance(column.dtype, pd.CategoricalDtype):
            column = column.cat.categories.to_series()
            if not family_matches(str(column.dtype), "string"):
                problems.append(f"column {name!r} is a category of {column.dtype}, not text")
                continue
        if column.dtype == object:
            kind = pd.api.types.infer_dtype(column, skipna=True)
            if kind not in ("string", "empty"):
                problems.append(f"column {name!r} holds non-text values ({kind})")
    if problems:
        raise SchemaError(f"{what}: " + "; ".join(problems))


def empty_table(name: str) -> pd.DataFrame:
    """An output table with no rows and the declared dtypes."""
    import pandas as pd

    columns = OUTPUT_COLUMNS[name]
    return pd.DataFrame({c: pd.Series([], dtype=d) for c, d in columns.items()})
