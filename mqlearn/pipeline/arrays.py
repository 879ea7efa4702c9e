"""Between Arrow columns and the numpy arrays the replay computes on, without copies where possible.

The replay reads and writes Arrow (Parquet files, Spark's Arrow batches) and computes on numpy
arrays (whole-column arithmetic and the compiled loop). Integer columns become zero-copy views
plus a null mask, text becomes the integer codes of a dictionary encoding, and results go back
as Arrow arrays wrapped around the numpy buffers.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numba import njit

_NUMPY = {pa.int64(): np.int64, pa.int32(): np.int32}

# How the replay's loops are compiled: cached on disk next to the modules, and without the GIL,
# so that compiled code in one thread runs beside the threads building and writing tables.
compiled = njit(cache=True, nogil=True)


def single(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    """One contiguous array (chunks combined; no copy for a single chunk)."""
    if isinstance(column, pa.ChunkedArray):
        return column.chunk(0) if column.num_chunks == 1 else column.combine_chunks()
    return column


def int_values(column: pa.Array | pa.ChunkedArray) -> tuple[np.ndarray, np.ndarray]:
    """An integer column as int64 values (0 where null; a view when it is int64 without nulls)
    and its null mask."""
    array = single(column)
    null = np.zeros(len(array), dtype=bool)
    if array.null_count:
        null = array.is_null().to_numpy(zero_copy_only=False)
        array = pc.fill_null(array, 0)
    if array.type != pa.int64():
        array = array.cast(pa.int64(), safe=False)
    return array.to_numpy(), null


def codes(array: pa.Array) -> np.ndarray:
    """The indices of a dictionary array as int64, -1 where null."""
    indices = array.indices
    if indices.null_count:
        indices = pc.fill_null(indices, -1)
    return indices.to_numpy().astype(np.int64, copy=False)


def dictionary(column: pa.Array | pa.ChunkedArray) -> pa.DictionaryArray:
    """A text column dictionary-encoded (as it is when read with ``read_dictionary``)."""
    array = single(column)
    if pa.types.is_null(array.type):
        return pa.DictionaryArray.from_arrays(
            pa.nulls(len(array), pa.int32()), pa.array([], pa.string())
        )
    if pa.types.is_dictionary(array.type):
        return array
    return pc.dictionary_encode(array)


def factorize(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes of ``values`` (int64) numbering the distinct values in order of appearance, and the
    distinct values (a hash table in Arrow, no sort)."""
    encoded = pc.dictionary_encode(pa.array(values))
    return codes(encoded), encoded.dictionary.to_numpy()


def numbers(values: np.ndarray, kind: pa.DataType) -> pa.Array:
    """A numpy array as an Arrow column of ``kind`` (int64, int32 or bool) without nulls."""
    if kind == pa.bool_():
        return pa.array(np.asarray(values, dtype=bool))
    data = np.ascontiguousarray(values, dtype=_NUMPY[kind])
    return pa.Array.from_buffers(kind, len(data), [None, pa.py_buffer(data)])


def nullable(values: np.ndarray, null: np.ndarray, kind: pa.DataType) -> pa.Array:
    """Like :func:`numbers`, null where ``null`` holds."""
    if not null.any():
        return numbers(values, kind)
    data = np.ascontiguousarray(values, dtype=_NUMPY[kind])
    valid = pa.py_buffer(np.packbits(~null, bitorder="little"))
    return pa.Array.from_buffers(kind, len(data), [valid, pa.py_buffer(data)], int(null.sum()))


def string_buffers(array: pa.Array) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A string array's offsets (int64, one more than rows), bytes and validity, as numpy."""
    width = np.int64 if pa.types.is_large_string(array.type) else np.int32
    _, offset_buffer, data_buffer = array.buffers()
    offsets = np.frombuffer(offset_buffer, dtype=width)[
        array.offset : array.offset + len(array) + 1
    ]
    data = (
        np.frombuffer(data_buffer, dtype=np.uint8)
        if data_buffer is not None
        else np.zeros(0, dtype=np.uint8)
    )
    valid = array.is_valid().to_numpy(zero_copy_only=False)
    return offsets.astype(np.int64), data, valid


@compiled
def _either(first_at, first, second_at, second, out):  # pragma: no cover (jit)
    for i in range(len(first_at)):
        j = first_at[i]
        out[i] = first[j] if j >= 0 else second[second_at[i]]


@compiled
def _either_rows(first_at, first, second_at, second, out):  # pragma: no cover (jit)
    for i in range(len(first_at)):
        j = first_at[i]
        if j >= 0:
            for k in range(out.shape[1]):
                out[i, k] = first[j, k]
        else:
            j = second_at[i]
            for k in range(out.shape[1]):
                out[i, k] = second[j, k]


def either(
    first_at: np.ndarray, first: np.ndarray, second_at: np.ndarray, second: np.ndarray
) -> np.ndarray:
    """Per entry ``i``: ``first[first_at[i]]`` where ``first_at[i] >= 0``, else
    ``second[second_at[i]]`` (rows along the first axis of 1-D or 2-D arrays): one pass, where
    numpy's gathers and masked assignments take four. 1-D arrays have a loop of their own: the
    rows loop over an (n, 1) view took 2.4 times as long (0.96 against 0.40 ms for 450,000)."""
    out = np.empty((len(first_at), *second.shape[1:]), dtype=second.dtype)
    fill = _either if out.ndim == 1 else _either_rows
    fill(first_at, first, second_at, second, out)
    return out


@compiled
def _place(target, slots, source, at):  # pragma: no cover (jit)
    for i in range(len(at)):
        target[slots[i]] = source[at[i]]


@compiled
def _place_rows(target, slots, source, at):  # pragma: no cover (jit)
    for i in range(len(at)):
        for k in range(target.shape[1]):
            target[slots[i], k] = source[at[i], k]


def place(target: np.ndarray, slots: np.ndarray, source: np.ndarray, at: np.ndarray) -> None:
    """``target[slots] = source[at]`` (rows along the first axis of 1-D or 2-D arrays, values
    cast to the target's type) in one pass, with no copy between: 10 against 23 ms for a
    carried message's fifteen columns of 125,000 messages."""
    (_place if target.ndim == 1 else _place_rows)(target, slots, source, at)


@compiled
def _gather(columns, at):  # pragma: no cover (jit)
    out = np.empty((len(columns), len(at)), dtype=np.int64)
    for k in range(len(columns)):
        values = columns[k]
        for i in range(len(at)):
            out[k, i] = values[at[i]]
    return out


def gather(columns: list[np.ndarray], at: np.ndarray) -> list[np.ndarray]:
    """``[values[at] for values in columns]`` for int64 columns of one length, in one compiled
    call: 7 against 11 ms for nine columns of a 250,000-row piece (numpy checks every index)."""
    if not columns:
        return []
    return list(_gather(tuple(np.ascontiguousarray(c, dtype=np.int64) for c in columns), at))


def take(values: pa.Array, positions: np.ndarray) -> pa.Array:
    """``values[positions]``, null where a position is -1."""
    missing = positions < 0
    if missing.all():
        return pa.nulls(len(positions), values.type)
    return values.take(pa.array(positions, mask=missing if missing.any() else None))


def coded(names: list[str], positions: np.ndarray) -> pa.DictionaryArray:
    """Text from a short list of names by position (-1 = null), dictionary-encoded: the
    positions are the codes, so no text is copied per row (and Parquet writes the codes as they
    are, without hashing each value)."""
    missing = positions < 0
    indices = pa.array(
        positions.astype(np.int32, copy=False), mask=missing if missing.any() else None
    )
    return pa.DictionaryArray.from_arrays(indices, pa.array(names, pa.string()))
