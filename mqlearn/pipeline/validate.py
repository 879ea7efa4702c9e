"""Trace validation: every row is either accepted for replay or rejected with a reason.

Column-level problems (a missing column, a column of the wrong type) raise
:class:`~mqlearn.pipeline.schema.SchemaError` before anything runs. Row-level problems put the row
in the rejects table with a sentence saying what is wrong; nothing is dropped silently, so
``len(trace) == accepted + rejected`` always holds.

The checks work on whole columns (numpy), on the distinct values of text columns, and on the
identifier columns in one compiled pass (:mod:`ids`), never row by row in Python: only the
reasons of rejected rows are written one at a time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from numba import njit

from mqlearn.mqi import cmqc as C
from mqlearn.pipeline.ids import MALFORMED, NULL, IdColumn, id_column, null_strings
from mqlearn.pipeline.kernel import OP_PUT
from mqlearn.pipeline.order import group_order
from mqlearn.pipeline.queues import QueueTable
from mqlearn.pipeline.schema import OPS, OUTPUT_COLUMNS, TRACE_COLUMNS, check_columns

MATCH_BITS = C.MQMO_MATCH_MSG_ID | C.MQMO_MATCH_CORREL_ID
ID_COLUMNS = {"msg_id": C.MQMO_MATCH_MSG_ID, "correl_id": C.MQMO_MATCH_CORREL_ID}
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
PUT_FIELDS = ("priority", "expiry", "report", "persistence", "data_length")
INT32_COLUMNS = tuple(name for name, dtype in TRACE_COLUMNS.items() if dtype == "int32")
TEXT_COLUMNS = tuple(
    name for name, dtype in TRACE_COLUMNS.items() if dtype == "string" and name not in ID_COLUMNS
)


@dataclass(frozen=True)
class TextColumn:
    """A text column as integer codes (-1 = null) into its distinct values."""

    codes: np.ndarray
    uniques: pd.api.extensions.ExtensionArray  # dtype "string"

    def values(self, codes: np.ndarray) -> pd.api.extensions.ExtensionArray:
        """The text for each code (null for -1), as a "string" array."""
        if not np.any(codes >= 0):
            return null_strings(len(codes))
        return self.uniques.take(codes, allow_fill=True)

    def blank(self, codes: np.ndarray) -> np.ndarray:
        """Per code: null or only spaces (MQ pads names with blanks)."""
        blank = np.array([not v.strip() for v in self.uniques.tolist()] + [True], dtype=bool)
        return blank[np.where(codes < 0, len(blank) - 1, codes)]


@dataclass(frozen=True)
class IntColumn:
    values: np.ndarray  # int64; 0 where null
    null: np.ndarray  # bool


@dataclass(frozen=True)
class Columns:
    """The trace as whole-column arrays, in the trace's row order."""

    ints: dict[str, IntColumn]
    texts: dict[str, TextColumn]
    ids: dict[str, IdColumn]
    op: np.ndarray  # int64 index into OPS, -1 = unknown or null


@dataclass(frozen=True)
class Validated:
    """Accepted rows (positions into the trace, sorted by partition then seq) and the rejects."""

    columns: Columns
    rows: np.ndarray
    part: np.ndarray  # QueueTable position of each accepted row
    rejects: pd.DataFrame


def _ints(series: pd.Series) -> IntColumn:
    if isinstance(series.dtype, np.dtype):  # numpy integers: no nulls
        return IntColumn(series.to_numpy(dtype=np.int64), np.zeros(len(series), dtype=bool))
    null = series.isna().to_numpy()
    return IntColumn(series.to_numpy(dtype=np.int64, na_value=0), null)


def _texts(series: pd.Series) -> TextColumn:
    if series.isna().all():  # e.g. no ReplyToQ anywhere: nothing to number
        return TextColumn(np.full(len(series), -1, dtype=np.int64), pd.array([], dtype="string"))
    if isinstance(series.dtype, pd.CategoricalDtype):  # already numbered
        codes, uniques = series.cat.codes.to_numpy(), series.cat.categories
    else:
        codes, uniques = pd.factorize(series, use_na_sentinel=True)
    return TextColumn(codes.astype(np.int64, copy=False), pd.array(uniques, dtype="string"))


def extract(trace: pd.DataFrame) -> Columns:
    """Check the columns (SchemaError) and read them into arrays."""
    check_columns(trace, TRACE_COLUMNS, "trace")
    ints = {name: _ints(trace[name]) for name, dtype in TRACE_COLUMNS.items() if dtype != "string"}
    texts = {name: _texts(trace[name]) for name in TEXT_COLUMNS}
    ops = texts["op"]
    op_code = np.array([OPS.index(v) if v in OPS else -1 for v in ops.uniques.tolist()] + [-1])
    op = op_code[np.where(ops.codes < 0, len(op_code) - 1, ops.codes)].astype(np.int64)
    match = ints["match_options"].values
    ids = {  # the rows whose value a matching get asks for
        name: id_column(trace[name], (op > OP_PUT) & ((match & bit) != 0))
        for name, bit in ID_COLUMNS.items()
    }
    return Columns(ints, texts, ids, op)


@njit(cache=True)
def _time_backwards(part, time):  # pragma: no cover (jit)
    """Rows sorted by (partition, seq): the latest earlier time where a row goes back, else -1."""
    out = np.full(len(time), -1, dtype=np.int64)
    latest = -1
    for i in range(len(time)):
        if i == 0 or part[i] != part[i - 1]:
            latest = -1
        if time[i] < latest:
            out[i] = latest
        else:
            latest = time[i]
    return out


# Row problems, most important first; a rejected row gets the first that applies.
_PROBLEMS = (
    "op",
    "seq",
    "seq_dup",
    "time",
    "time_neg",
    "queue",
    "queue_unknown",
    "int32",
    "put_msg_id",
    "put_field",
    "data_length",
    "msg_id_none",
    "handle",
    "match",
    "match_bits",
    "msg_id_hex",
    "correl_id_hex",
    "time_back",
)


def _describe(problem: str, row: dict[str, object], latest: int) -> str:
    """The sentence for one rejected row."""
    if problem == "op":
        shown = "null" if pd.isna(row["op"]) else repr(row["op"])
        return f"op is {shown}, not one of {', '.join(OPS)}"
    if problem in ("seq", "time", "handle", "match"):
        column = {"seq": "seq", "time": "time_ms", "handle": "handle", "match": "match_options"}
        return f"{column[problem]} is null"
    if problem == "seq_dup":
        return f"seq {row['seq']} occurs more than once in the trace"
    if problem == "time_neg":
        return f"time_ms {row['time_ms']} is negative"
    if problem == "queue":
        return "qmgr or queue is null"
    if problem == "queue_unknown":
        return f"no queue definition for {row['qmgr']}/{row['queue']}"
    if problem == "int32":
        name = next(
            n
            for n in INT32_COLUMNS
            if not pd.isna(row[n]) and not INT32_MIN <= int(row[n]) <= INT32_MAX  # type: ignore[call-overload]
        )
        return f"{name} {row[name]} does not fit int32"
    if problem == "put_msg_id":
        return "PUT without msg_id"
    if problem == "put_field":
        name = next(n for n in PUT_FIELDS if pd.isna(row[n]))
        return f"PUT without {name}"
    if problem == "data_length":
        return f"data_length {row['data_length']} is negative"
    if problem == "msg_id_none":
        return "msg_id on a PUT is MQMI_NONE (48 zeros); a trace records the MsgId the message got"
    if problem == "match_bits":
        return (
            f"match_options {row['match_options']} sets bits other than MQMO_MATCH_MSG_ID (1) "
            "and MQMO_MATCH_CORREL_ID (2)"
        )
    if problem in ("msg_id_hex", "correl_id_hex"):
        name = problem[:-4]
        return f"{name} {row[name]!r} is not 48 hex digits"
    assert problem == "time_back"
    return f"time_ms {row['time_ms']} is earlier than {latest}, the time of an earlier seq"


def _problems(cols: Columns, part: np.ndarray) -> np.ndarray:
    """Per row: 1 + the index in _PROBLEMS of its first problem, or 0 (time order not checked)."""
    ints, texts, ids, op = cols.ints, cols.texts, cols.ids, cols.op
    n = len(op)
    is_put = op == OP_PUT
    seq = ints["seq"]
    time = ints["time_ms"]
    dup = np.zeros(n, dtype=bool)
    present = ~seq.null
    if np.any(np.diff(seq.values[present]) <= 0):  # not strictly increasing: look for repeats
        values, counts = np.unique(seq.values[present], return_counts=True)
        dup[present] = np.isin(seq.values[present], values[counts > 1])
    out_of_range = np.zeros(n, dtype=bool)
    for name in INT32_COLUMNS:
        values = ints[name].values
        out_of_range |= (values < INT32_MIN) | (values > INT32_MAX)
    put_field_null = np.zeros(n, dtype=bool)
    for name in PUT_FIELDS:
        put_field_null |= ints[name].null
    not_put = ~is_put
    checks = {
        "op": op < 0,
        "seq": seq.null,
        "seq_dup": dup,
        "time": time.null,
        "time_neg": time.values < 0,
        "queue": (texts["qmgr"].codes < 0) | (texts["queue"].codes < 0),
        "queue_unknown": part < 0,
        "int32": out_of_range,
        "put_msg_id": is_put & (ids["msg_id"].codes == NULL),
        "put_field": is_put & put_field_null,
        "data_length": is_put & (ints["data_length"].values < 0),
        "msg_id_none": is_put & ids["msg_id"].zero,
        "handle": not_put & ints["handle"].null,
        "match": not_put & ints["match_options"].null,
        "match_bits": not_put & ((ints["match_options"].values & ~MATCH_BITS) != 0),
        "msg_id_hex": ids["msg_id"].codes == MALFORMED,
        "correl_id_hex": ids["correl_id"].codes == MALFORMED,
    }
    problem = np.zeros(n, dtype=np.int64)
    for code, name in reversed(list(enumerate(_PROBLEMS[:-1], start=1))):
        problem[checks[name]] = code
    return problem


def partitions(cols: Columns, table: QueueTable) -> np.ndarray:
    """Per row: the QueueTable position of its (qmgr, queue), -1 if null or not defined."""
    qmgr, queue = cols.texts["qmgr"], cols.texts["queue"]
    width = len(queue.uniques) + 1
    keys = np.where((qmgr.codes < 0) | (queue.codes < 0), -1, qmgr.codes * width + queue.codes)
    inverse, distinct = pd.factorize(keys)
    index = table.index()
    qmgr_names, queue_names = qmgr.uniques.tolist(), queue.uniques.tolist()
    lookup = np.array(
        [
            -1 if k < 0 else index.get((qmgr_names[k // width], queue_names[k % width]), -1)
            for k in distinct.tolist()
        ],
        dtype=np.int64,
    )
    return lookup[inverse]


def _sorted(good: np.ndarray, part: np.ndarray, seq: np.ndarray, n_parts: int) -> np.ndarray:
    """The good rows by (partition, seq): a counting sort when seq already increases."""
    if np.all(np.diff(seq[good]) > 0):
        return good[group_order(part[good], n_parts)]
    return good[np.lexsort((seq[good], part[good]))]


def validate(trace: pd.DataFrame, table: QueueTable) -> Validated:
    """Split a trace into accepted rows (sorted for replay) and rejects (with a reason each)."""
    cols = extract(trace)
    part = partitions(cols, table)
    problem = _problems(cols, part)
    good = np.flatnonzero(problem == 0)
    order = _sorted(good, part, cols.ints["seq"].values, len(table))
    latest = _time_backwards(part[order], cols.ints["time_ms"].values[order])
    back = latest >= 0
    problem[order[back]] = len(_PROBLEMS)
    latest_of = dict(zip(order[back].tolist(), latest[back].tolist(), strict=True))
    rows = order[~back]
    rejected = np.flatnonzero(problem)
    return Validated(cols, rows, part[rows], _rejects(trace, rejected, problem, latest_of))


def _rejects(
    trace: pd.DataFrame, rejected: np.ndarray, problem: np.ndarray, latest_of: dict[int, int]
) -> pd.DataFrame:
    dtypes = OUTPUT_COLUMNS["rejects"]
    frame = trace.iloc[rejected][list(TRACE_COLUMNS)].reset_index(drop=True)
    frame = frame.astype({name: dtypes[name] for name in TRACE_COLUMNS})
    reasons = [
        _describe(_PROBLEMS[problem[i] - 1], row, latest_of.get(i, -1))
        for i, row in zip(rejected.tolist(), frame.to_dict("records"), strict=True)
    ]
    frame["reason"] = pd.array(reasons, dtype="string")
    return frame
