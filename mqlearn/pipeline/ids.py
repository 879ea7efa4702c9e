"""MsgId / CorrelId columns: 48 hex digits checked, and numbered where a get matches on them.

Hex text is case-insensitive ("AB" and "ab" are the same byte), so identifiers are compared as
the 24 bytes they stand for (three 64-bit words), never as text. One compiled pass over the
Arrow buffers checks every value and numbers the identifiers that matching gets ask for (the
"query" rows) with an open-addressing hash table; every other row is then looked up in that
small table. A put whose MsgId no get asks for keeps no number (UNASKED): nothing can match it.
No Python object is made per row. Identifiers carried over from earlier pieces of a trace (as
their words, :class:`IdColumn.words`) are looked up in the same table (:meth:`IdColumn.codes_of`),
not parsed again, and their text is written from the words when a table shows it
(:func:`hex_text`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from mqlearn.pipeline.arrays import compiled, string_buffers

HEX_DIGITS = 48  # 24 bytes
NULL, MALFORMED, UNASKED = -1, -2, -3  # codes that are not numbers of asked-for identifiers

_NOT_HEX = 0x100  # the flag of a pair of characters that are not both hex digits


def _pairs() -> np.ndarray:
    """Per two characters (first * 256 + second): the byte they stand for as hex digits (either
    case), or _NOT_HEX if either is not a digit."""
    value = np.full(256, -1, dtype=np.int32)
    for digit, char in enumerate("0123456789abcdef"):
        value[ord(char)] = value[ord(char.upper())] = digit
    first, second = np.meshgrid(np.arange(256), np.arange(256), indexing="ij")
    pair = value[first] * 16 + value[second]
    bad = (value[first] < 0) | (value[second] < 0)
    return np.where(bad, _NOT_HEX, pair).astype(np.uint16).ravel()


_PAIR = _pairs()


@dataclass(frozen=True)
class IdColumn:
    """Per row: ``codes`` (the number of an asked-for identifier, or NULL / MALFORMED / UNASKED),
    ``zero`` (the value is MQMI_NONE / MQCI_NONE, 48 zeros) and the 24 bytes as three words (a
    table writes the text from them: :func:`hex_text`); ``table``: the numbered identifiers
    (the hash table of ``_number``)."""

    codes: np.ndarray
    zero: np.ndarray
    asked: int  # how many distinct identifiers are numbered
    words: np.ndarray  # (rows, 3) uint64
    table: np.ndarray  # (slots, 4) uint64

    def codes_of(
        self, words: np.ndarray, at: np.ndarray, null: np.ndarray, none: bool
    ) -> np.ndarray:
        """The numbers of identifiers given as words ``words[at]`` (of earlier pieces; ``null``
        per entry of ``at``: none there), NULL or UNASKED as for a row of this column; with
        ``none``, -1 for the all-zero identifier (MQMI_NONE / MQCI_NONE: a get asks for none)."""
        if not self.asked:
            return np.where(null, NULL, UNASKED).astype(np.int64)
        return _lookup(self.table, words, at, null, none)  # type: ignore[no-any-return]


@compiled
def id_hash(a, b, c):  # pragma: no cover (jit)
    """A 64-bit hash of an identifier's three words (the numbering tables here, and the filters
    of :mod:`mqlearn.pipeline.carry_store`)."""
    h = a * np.uint64(0x9E3779B97F4A7C15) ^ b * np.uint64(0xC2B2AE3D27D4EB4F)
    h ^= c * np.uint64(0x165667B19E3779F9)
    h ^= h >> np.uint64(29)
    return h * np.uint64(0xBF58476D1CE4E5B9)


@compiled
def _word(data, start, pair):  # pragma: no cover (jit)
    """16 hex digits as a 64-bit word, and _NOT_HEX if any is not one."""
    word = np.uint64(0)
    flags = 0
    for j in range(start, start + 16, 2):
        v = pair[np.int64(data[j]) << 8 | np.int64(data[j + 1])]
        flags |= v
        word = (word << np.uint64(8)) | np.uint64(v & 0xFF)
    return word, flags & _NOT_HEX


@compiled
def _parse(offsets, data, valid, pair):  # pragma: no cover (jit)
    """Words per row; status per row: -1 null, -2 malformed, 0 well formed; and whether the
    identifier is all zeros."""
    n = len(valid)
    words = np.zeros((n, 3), dtype=np.uint64)
    status = np.full(n, NULL, dtype=np.int64)
    zero = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        if not valid[i]:
            continue
        start = offsets[i]
        if offsets[i + 1] - start != HEX_DIGITS:
            status[i] = MALFORMED
            continue
        flags = 0
        for k in range(3):
            words[i, k], f = _word(data, start + 16 * k, pair)
            flags |= f
        if flags & _NOT_HEX:
            status[i] = MALFORMED
            continue
        status[i] = 0
        zero[i] = words[i, 0] == 0 and words[i, 1] == 0 and words[i, 2] == 0
    return words, status, zero


@compiled
def _number(words, status, query):  # pragma: no cover (jit)
    """Number the distinct identifiers of the query rows; look every other row up among them.

    The table keeps each identifier's words next to its number: one cache line per probe.
    """
    n = len(status)
    codes = np.where(status < 0, status, UNASKED)
    asked = 0
    for i in range(n):
        asked += query[i] and status[i] >= 0
    capacity = 16
    while capacity < 2 * asked:
        capacity *= 2
    mask = np.uint64(capacity - 1)
    table = np.zeros((capacity, 4), dtype=np.uint64)  # w0, w1, w2, number + 1 (0 = empty)
    distinct = 0
    for phase in range(2):  # 0: insert the query rows, 1: look the others up
        if asked == 0:
            break
        for i in range(n):
            if status[i] < 0 or query[i] != (phase == 0):
                continue
            w0, w1, w2 = words[i, 0], words[i, 1], words[i, 2]
            slot = id_hash(w0, w1, w2) & mask
            while True:
                entry = table[slot]
                if entry[3] == 0:
                    if phase == 1:
                        break  # not asked for: stays UNASKED
                    entry[0] = w0
                    entry[1] = w1
                    entry[2] = w2
                    distinct += 1
                    entry[3] = distinct
                    codes[i] = distinct - 1
                    break
                if entry[0] == w0 and entry[1] == w1 and entry[2] == w2:
                    codes[i] = np.int64(entry[3]) - 1
                    break
                slot = (slot + np.uint64(1)) & mask
    return codes, distinct, table


@compiled
def _lookup(table, words, at, null, none):  # pragma: no cover (jit)
    """Numbers of identifiers ``words[at]`` in a table ``_number`` filled, UNASKED if not
    there (-1 for all zeros when ``none``)."""
    mask = np.uint64(len(table) - 1)
    codes = np.full(len(null), UNASKED, dtype=np.int64)
    for i in range(len(null)):
        if null[i]:
            codes[i] = NULL
            continue
        k = at[i]
        w0, w1, w2 = words[k, 0], words[k, 1], words[k, 2]
        if none and w0 == 0 and w1 == 0 and w2 == 0:
            codes[i] = -1
            continue
        slot = id_hash(w0, w1, w2) & mask
        while table[slot, 3] != 0:
            if table[slot, 0] == w0 and table[slot, 1] == w1 and table[slot, 2] == w2:
                codes[i] = np.int64(table[slot, 3]) - 1
                break
            slot = (slot + np.uint64(1)) & mask
    return codes


# per byte: its two lower-case hex digits, as the 16-bit value they make in memory
_HEX_PAIRS = np.frombuffer("".join(f"{b:02x}" for b in range(256)).encode(), dtype=np.uint16)


@compiled
def _hex(words, at, null, pairs):  # pragma: no cover (jit)
    """The text of the identifiers ``words[at]`` (``_parse`` read backwards): 48 lower-case
    hex digits each (two a lookup), none where ``null``; Arrow string offsets and data."""
    n = len(null)
    offsets = np.zeros(n + 1, dtype=np.int32)
    for i in range(n):
        offsets[i + 1] = offsets[i] + (0 if null[i] else HEX_DIGITS)
    data = np.empty(offsets[n] // 2, dtype=np.uint16)
    j = 0
    for i in range(n):
        if null[i]:
            continue
        k = at[i]
        for w in range(3):
            word = words[k, w]
            for d in range(7, -1, -1):
                data[j] = pairs[(word >> np.uint64(8 * d)) & np.uint64(255)]
                j += 1
    return offsets, data.view(np.uint8)


def hex_text(words: np.ndarray, null: np.ndarray, at: np.ndarray | None = None) -> pa.Array:
    """Identifiers given as words ((n, 3) uint64; with ``at``, those at ``at``) as the text a
    table shows (null where ``null``): what the trace held, in lower case."""
    at = np.arange(len(words)) if at is None else at
    null = np.broadcast_to(np.asarray(null, dtype=bool), (len(at),))
    offsets, data = _hex(words, at, null, _HEX_PAIRS)
    validity = pa.py_buffer(np.packbits(~null, bitorder="little")) if null.any() else None
    return pa.StringArray.from_buffers(
        len(at), pa.py_buffer(offsets), pa.py_buffer(data), validity, int(null.sum())
    )


def id_column(array: pa.Array, query: np.ndarray) -> IdColumn:
    """Check an identifier column (string) and number what the ``query`` rows (matching gets)
    ask for."""
    if array.null_count == len(array):  # nothing to check or number (e.g. no CorrelIds at all)
        none = np.full(len(array), NULL, dtype=np.int64)
        zero = np.zeros(len(array), dtype=bool)
        return IdColumn(none, zero, 0, np.zeros((len(array), 3), np.uint64), _NO_TABLE)
    words, status, zero = _parse(*string_buffers(array), _PAIR)
    codes, asked, table = _number(words, status, query)
    return IdColumn(codes, zero, asked, words, table)


_NO_TABLE = np.zeros((16, 4), dtype=np.uint64)
