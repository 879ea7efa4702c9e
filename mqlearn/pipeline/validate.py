"""Trace validation: every row is either accepted for replay or rejected with a reason.

Column-level problems (a missing column, a column of the wrong type) raise
:class:`~mqlearn.pipeline.schema.SchemaError` before anything runs. Row-level problems put the row
in the rejects table with a sentence saying what is wrong; nothing is dropped silently, so
``len(trace) == accepted + rejected`` always holds.

The trace arrives as Arrow in one canonical layout (:func:`canonical`): integers as int64, names
dictionary-encoded (as Parquet stores them), identifiers as text. The checks work on whole
columns (numpy views of the Arrow buffers), on the distinct values of the names, and on the
identifier columns in one compiled pass (:mod:`ids`), never row by row in Python: only the
reasons of rejected rows are written one at a time.

A trace can be validated in consecutive pieces (:mod:`mqlearn.pipeline.batches`): the seq values
that repeat anywhere in the trace are then given, and each queue's latest accepted time carries
over from one piece to the next.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from mqlearn.mqi import cmqc as C
from mqlearn.pipeline.arrays import (
    codes,
    compiled,
    dictionary,
    factorize,
    gather,
    int_values,
    single,
)
from mqlearn.pipeline.ids import MALFORMED, NULL, IdColumn, id_column
from mqlearn.pipeline.kernel import adds_message
from mqlearn.pipeline.order import group_order, increasing_within, repeated_values
from mqlearn.pipeline.queues import QueueTable
from mqlearn.pipeline.schema import (
    OPS,
    OPS_OF_VERSION,
    OUTPUT_COLUMNS,
    SCHEMA_VERSION,
    TRACE_COLUMNS,
)
from mqlearn.pipeline.spark import arrow_schema

MATCH_BITS = C.MQMO_MATCH_MSG_ID | C.MQMO_MATCH_CORREL_ID
ID_COLUMNS = {"msg_id": C.MQMO_MATCH_MSG_ID, "correl_id": C.MQMO_MATCH_CORREL_ID}
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
SEQ_BEFORE_ALL = np.iinfo(np.int64).min  # a queue's latest seq before its first row
PUT_FIELDS = ("priority", "expiry", "report", "persistence", "data_length")
INT_COLUMNS = tuple(name for name, dtype in TRACE_COLUMNS.items() if dtype != "string")
INT32_COLUMNS = tuple(name for name, dtype in TRACE_COLUMNS.items() if dtype == "int32")
NAME_COLUMNS = tuple(
    name for name, dtype in TRACE_COLUMNS.items() if dtype == "string" and name not in ID_COLUMNS
)
NAME = pa.dictionary(pa.int32(), pa.string())
# The layout every trace is validated in: wide integers (a value out of its declared range is a
# reject, and keeps its value there), names dictionary-encoded, identifiers as text.
TRACE_SCHEMA = pa.schema(
    [
        (name, pa.int64() if name in INT_COLUMNS else NAME if name in NAME_COLUMNS else pa.string())
        for name in TRACE_COLUMNS
    ]
)


def _canonical_chunk(array: pa.Array, kind: pa.DataType) -> pa.Array:
    """One chunk of a column in its type of :data:`TRACE_SCHEMA`."""
    if kind == NAME:
        array = dictionary(array)
        if array.type != NAME:
            return pa.DictionaryArray.from_arrays(
                array.indices.cast(pa.int32()), array.dictionary.cast(pa.string())
            )
        return array
    if pa.types.is_dictionary(array.type):
        array = array.dictionary_decode()
    return array if array.type == kind else array.cast(kind, safe=False)


def canonical(table: pa.Table) -> pa.Table:
    """The trace columns of ``table`` (columns already checked) in :data:`TRACE_SCHEMA`, each
    column made contiguous in one copy."""
    columns = []
    for field in TRACE_SCHEMA:
        chunks = [_canonical_chunk(chunk, field.type) for chunk in table[field.name].chunks]
        columns.append(single(pa.chunked_array(chunks, field.type)))
    return pa.Table.from_arrays(columns, schema=TRACE_SCHEMA)


@dataclass(frozen=True)
class TextColumn:
    """A name column as integer codes (-1 = null) into its distinct values."""

    codes: np.ndarray
    uniques: pa.Array  # string

    def blank(self, positions: np.ndarray) -> np.ndarray:
        """Per code: null or only spaces (MQ pads names with blanks)."""
        blank = np.array([not v.strip() for v in self.uniques.to_pylist()] + [True], dtype=bool)
        return blank[np.where(positions < 0, len(blank) - 1, positions)]


@dataclass(frozen=True)
class IntColumn:
    values: np.ndarray  # int64; 0 where null
    null: np.ndarray  # bool


@dataclass(frozen=True)
class Columns:
    """The trace as whole-column arrays, in the table's row order."""

    ints: dict[str, IntColumn]
    texts: dict[str, TextColumn]
    ids: dict[str, IdColumn]
    op: np.ndarray  # int64 index into OPS, -1 = unknown or null


@dataclass(frozen=True)
class Validated:
    """Accepted rows (positions into the table, sorted by partition then seq), the rejects,
    and per QueueTable position: the latest accepted time (ms, -1 if none yet) and how many of
    the table's rows name that queue."""

    columns: Columns
    rows: np.ndarray
    part: np.ndarray  # QueueTable position of each accepted row
    rejects: pa.Table
    latest: np.ndarray
    queue_rows: np.ndarray
    as_is: bool  # the accepted rows are all the table's rows, in the table's order

    def sorted(self, values: np.ndarray) -> np.ndarray:
        """Per accepted row, in replay order, the value of a per-table-row array (the array
        itself when the table is in replay order already: files of whole queues often are)."""
        return values if self.as_is else values[self.rows]

    def sorted_ints(self) -> dict[str, np.ndarray]:
        """:meth:`sorted` of every integer column's values, by name."""
        ints = self.columns.ints
        if self.as_is:
            return {name: column.values for name, column in ints.items()}
        return dict(zip(ints, gather([c.values for c in ints.values()], self.rows), strict=True))


def extract(table: pa.Table) -> Columns:
    """The columns of a canonical table as arrays."""
    table = table.unify_dictionaries()
    ints = {name: IntColumn(*int_values(table[name])) for name in INT_COLUMNS}
    texts = {}
    for name in NAME_COLUMNS:
        column = single(table[name])
        texts[name] = TextColumn(codes(column), column.dictionary)
    ops = texts["op"]
    op_code = np.array([OPS.index(v) if v in OPS else -1 for v in ops.uniques.to_pylist()] + [-1])
    op = op_code[np.where(ops.codes < 0, len(op_code) - 1, ops.codes)].astype(np.int64)
    match = ints["match_options"].values
    ids = {  # the rows whose value a matching get asks for
        name: id_column(single(table[name]), (op >= 0) & ~adds_message(op) & ((match & bit) != 0))
        for name, bit in ID_COLUMNS.items()
    }
    return Columns(ints, texts, ids, op)


@compiled
def _time_backwards(part, time, latest):  # pragma: no cover (jit)
    """Rows sorted by (partition, seq): the latest earlier time where a row goes back, else -1.

    ``latest`` (per partition, -1 for none) is where each partition starts and is updated to its
    latest accepted time.
    """
    out = np.full(len(time), -1, dtype=np.int64)
    for i in range(len(time)):
        p = part[i]
        if time[i] < latest[p]:
            out[i] = latest[p]
        else:
            latest[p] = time[i]
    return out


# Row problems, most important first; a rejected row gets the first that applies.
_PROBLEMS = (
    "op",
    "op_version",
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


def _describe(problem: str, row: dict[str, object], latest: int, version: int) -> str:
    """The sentence for one rejected row (its values as Python objects, None for null) of a
    trace of schema ``version``."""
    if problem == "op":
        shown = "null" if row["op"] is None else repr(row["op"])
        known = ", ".join(OPS_OF_VERSION[version])
        return f"op is {shown}, not one of {known} (trace schema v{version})"
    if problem == "op_version":
        since = min(v for v, ops in OPS_OF_VERSION.items() if row["op"] in ops)
        known = ", ".join(OPS_OF_VERSION[version])
        return (
            f"op {row['op']!r} needs trace schema v{since}; this trace is schema v{version}, "
            f"whose ops are {known}"
        )
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
            if isinstance(row[n], int) and not INT32_MIN <= row[n] <= INT32_MAX
        )
        return f"{name} {row[name]} does not fit int32"
    if problem == "put_msg_id":
        return f"{row['op']} without msg_id"
    if problem == "put_field":
        name = next(n for n in PUT_FIELDS if row[n] is None)
        return f"{row['op']} without {name}"
    if problem == "data_length":
        return f"data_length {row['data_length']} is negative"
    if problem == "msg_id_none":
        return f"msg_id on a {row['op']} is MQMI_NONE (48 zeros); a trace records the MsgId the message got"
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


def repeated_seq(seq: IntColumn) -> np.ndarray:
    """The seq values that occur more than once (sorted); nulls do not count."""
    values = seq.values[~seq.null]
    if not np.any(np.diff(values) <= 0):  # strictly increasing: nothing repeats
        return np.empty(0, dtype=np.int64)
    return repeated_values(values)


def _problems(cols: Columns, part: np.ndarray, repeated: np.ndarray, version: int) -> np.ndarray:
    """Per row: 1 + the index in _PROBLEMS of its first problem, or 0 (time order not checked)."""
    ints, texts, ids, op = cols.ints, cols.texts, cols.ids, cols.op
    n = len(op)
    is_put = adds_message(op)
    seq = ints["seq"]
    time = ints["time_ms"]
    dup = np.zeros(n, dtype=bool)
    if len(repeated):
        dup = ~seq.null & np.isin(seq.values, repeated)
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
        "op_version": op >= len(OPS_OF_VERSION[version]),
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


def queue_positions(rows: pa.Table | pa.RecordBatch, table: QueueTable) -> np.ndarray:
    """Per row of any table with qmgr and queue columns: its QueueTable position, or -1."""
    names = [dictionary(rows[name]) for name in ("qmgr", "queue")]
    return partitions(*(TextColumn(codes(array), array.dictionary) for array in names), table)


GRID_CELLS = 1 << 22  # name pairs looked up through a grid (32 MB at most), else hashed


def partitions(qmgr: TextColumn, queue: TextColumn, table: QueueTable) -> np.ndarray:
    """Per row: the QueueTable position of its (qmgr, queue), -1 if null or not defined.

    The few distinct names are looked up, not the rows: a grid of (qmgr code, queue code)
    holds each pair's position (its last row and column stand for null, code -1), and the rows
    index it; with too many distinct names for a grid, the pairs present are hashed instead."""
    qmgr_names, queue_names = qmgr.uniques.to_pylist(), queue.uniques.to_pylist()
    if (len(qmgr_names) + 1) * (len(queue_names) + 1) > GRID_CELLS:
        return _hashed_partitions(qmgr, queue, table)
    qmgr_codes: dict[str, list[int]] = {}
    for code, name in enumerate(qmgr_names):  # a dictionary may hold a name twice
        qmgr_codes.setdefault(name, []).append(code)
    grid = np.full((len(qmgr_names) + 1, len(queue_names) + 1), -1, dtype=np.int64)
    defined = table.by_queue
    for code, name in enumerate(queue_names):
        for owner, position in defined.get(name, ()):
            grid[qmgr_codes.get(owner, []), code] = position
    return _grid_positions(grid, qmgr.codes, queue.codes)


@compiled
def _grid_positions(grid, qmgr_codes, queue_codes):  # pragma: no cover (jit)
    """``grid[qmgr_codes, queue_codes]`` in one pass (code -1: the last row or column)."""
    out = np.empty(len(qmgr_codes), dtype=np.int64)
    for i in range(len(out)):
        out[i] = grid[qmgr_codes[i], queue_codes[i]]
    return out


def _hashed_partitions(qmgr: TextColumn, queue: TextColumn, table: QueueTable) -> np.ndarray:
    width = len(queue.uniques) + 1
    keys = np.where((qmgr.codes < 0) | (queue.codes < 0), -1, qmgr.codes * width + queue.codes)
    inverse, distinct = factorize(keys)
    index = table.index()
    qmgr_names, queue_names = qmgr.uniques.to_pylist(), queue.uniques.to_pylist()
    lookup = np.array(
        [
            -1 if k < 0 else index.get((qmgr_names[k // width], queue_names[k % width]), -1)
            for k in distinct.tolist()
        ],
        dtype=np.int64,
    )
    return lookup[inverse]


def _sorted(good: np.ndarray, part: np.ndarray, seq: np.ndarray, n_parts: int) -> np.ndarray:
    """The good rows by (partition, seq): a counting sort when each partition's seq values
    already increase in row order."""
    if increasing_within(part[good], seq[good], np.full(n_parts, SEQ_BEFORE_ALL)):
        return good[group_order(part[good], n_parts)]
    return good[np.lexsort((seq[good], part[good]))]


def validate(
    table: pa.Table,
    queues: QueueTable,
    *,
    repeated: np.ndarray | None = None,
    latest: np.ndarray | None = None,
    version: int = SCHEMA_VERSION,
) -> Validated:
    """Split a canonical trace table into accepted rows (sorted for replay) and rejects.

    ``repeated``: the seq values that occur more than once in the whole trace (default: those
    repeating within ``table``). ``latest``: each queue's latest accepted time before these rows.
    ``version``: the trace schema the trace declares; a row with an op of a later version is
    rejected, naming the version it needs.
    """
    if version not in OPS_OF_VERSION:
        raise ValueError(
            f"trace schema v{version} is not one this reader knows "
            f"(v{', v'.join(map(str, OPS_OF_VERSION))})"
        )
    cols = extract(table)
    seq = cols.ints["seq"]
    part = partitions(cols.texts["qmgr"], cols.texts["queue"], queues)
    problem = _problems(cols, part, repeated_seq(seq) if repeated is None else repeated, version)
    good = np.flatnonzero(problem == 0)
    order = _sorted(good, part, seq.values, len(queues))
    latest = np.full(len(queues), -1, dtype=np.int64) if latest is None else latest.copy()
    behind = _time_backwards(part[order], cols.ints["time_ms"].values[order], latest)
    back = behind >= 0
    problem[order[back]] = len(_PROBLEMS)
    behind_of = dict(zip(order[back].tolist(), behind[back].tolist(), strict=True))
    rows = order[~back]
    rejected = np.flatnonzero(problem)
    rejects = _rejects(table, rejected, problem, behind_of, version)
    named = part[part >= 0]
    queue_rows = np.bincount(named, minlength=len(queues)).astype(np.int64)
    as_is = len(rows) == table.num_rows and not np.any(np.diff(rows) != 1)
    return Validated(cols, rows, part[rows], rejects, latest, queue_rows, as_is)


REJECTS_SCHEMA = arrow_schema(OUTPUT_COLUMNS["rejects"])


def _rejects(
    table: pa.Table,
    rejected: np.ndarray,
    problem: np.ndarray,
    behind_of: dict[int, int],
    version: int,
) -> pa.Table:
    """The rejected rows with their values as given (integers int64, text) and a reason each."""
    rows = table.take(pa.array(rejected, pa.int64()))
    reasons = [
        _describe(_PROBLEMS[problem[i] - 1], row, behind_of.get(i, -1), version)
        for i, row in zip(rejected.tolist(), rows.to_pylist(), strict=True)
    ]
    columns = [pc.cast(rows[name], REJECTS_SCHEMA.field(name).type) for name in TRACE_COLUMNS]
    return pa.Table.from_arrays([*columns, pa.array(reasons, pa.string())], schema=REJECTS_SCHEMA)
