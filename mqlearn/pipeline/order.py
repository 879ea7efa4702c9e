"""Linear-time orderings the replay needs (compiled): a general sort would cost more than the replay.

- :func:`group_order`: a stable counting sort by small integer keys (rows by partition, messages
  by partition and lane); :func:`increasing_within` tells when it sorts rows by (partition, seq).
- :func:`repeated_values`: the seq values that occur more than once (:func:`by_bucket` spreads
  them over parts checked one at a time).
- :func:`deadline_order`: messages by (partition, deadline, arrival); :func:`merge_by_deadline`
  merges the messages carried into a piece of a trace (already in that order) with the piece's.
- :func:`merge_order`: calls and scans of the depth table by (partition, time), scans first.
"""

from __future__ import annotations

import numpy as np

from mqlearn.pipeline.arrays import compiled


@compiled
def group_order(keys, n_keys):  # pragma: no cover (jit)
    """Indices that sort ``keys`` (0 <= key < n_keys), equal keys keeping their order."""
    start = np.zeros(n_keys + 1, dtype=np.int64)
    for k in keys:
        start[k + 1] += 1
    for k in range(n_keys):
        start[k + 1] += start[k]
    out = np.empty(len(keys), dtype=np.int64)
    for i in range(len(keys)):
        k = keys[i]
        out[start[k]] = i
        start[k] += 1
    return out


@compiled
def increasing_within(keys, values, last):  # pragma: no cover (jit)
    """Whether the ``values`` of each key strictly increase in array order, after ``last[key]``
    (updated in place, so that pieces of one array can be checked one after the other)."""
    for i in range(len(keys)):
        k = keys[i]
        if values[i] <= last[k]:
            return False
        last[k] = values[i]
    return True


_SPREAD = np.uint64(0x9E3779B97F4A7C15)  # 2**64 / golden ratio, odd: a bijection on 64 bits


@compiled
def _bucket(value, buckets):  # pragma: no cover (jit)
    """The bucket (0 <= bucket < ``buckets``) of an int64 value, equal values in the same one.

    Spread by a multiplicative hash, not taken modulo: the generator's seq values, for one,
    are multiples of 1024 plus a rank that is mostly 0, so ``seq % 64`` put nearly every value
    in one bucket (2.5-3 GiB to check 100M values instead of 1/64 of that). The hash's top 32
    bits are scaled to the range by a multiplication, which costs less than a division."""
    spread = (np.uint64(value) * _SPREAD) >> np.uint64(32)
    return np.int64((spread * np.uint64(buckets)) >> np.uint64(32))


@compiled
def _by_bucket(values, buckets):  # pragma: no cover (jit)
    bucket = np.empty(len(values), dtype=np.int64)
    starts = np.zeros(buckets + 1, dtype=np.int64)
    for i in range(len(values)):
        bucket[i] = _bucket(values[i], buckets)
        starts[bucket[i] + 1] += 1
    for b in range(buckets):
        starts[b + 1] += starts[b]
    at = starts[:-1].copy()
    grouped = np.empty(len(values), dtype=np.int64)
    for i in range(len(values)):
        grouped[at[bucket[i]]] = values[i]
        at[bucket[i]] += 1
    return grouped, starts


def by_bucket(values: np.ndarray, buckets: int) -> tuple[np.ndarray, np.ndarray]:
    """``values`` grouped by hash bucket, so that repeats can be looked for one bucket at a time
    (a repeated value lies in one bucket): the values (int64) of bucket ``b`` are
    ``grouped[starts[b]:starts[b + 1]]``, in their order; ``starts`` has ``buckets + 1`` entries."""
    return _by_bucket(values.astype(np.int64, copy=False), buckets)  # type: ignore[no-any-return]


_PROBE = np.uint64(0xBF58476D1CE4E5B9)  # another odd multiplier: slots independent of buckets


@compiled
def _met_again(values):  # pragma: no cover (jit)
    """Every occurrence of a value after its first, in array order (an open-addressing hash
    set of at least 1.5 slots per value, indexed by the top bits of a multiplicative hash)."""
    bits = 4
    while (1 << bits) * 2 < 3 * len(values):
        bits += 1
    mask = (1 << bits) - 1
    shift = np.uint64(64 - bits)
    table = np.empty(1 << bits, dtype=np.int64)
    used = np.zeros(1 << bits, dtype=np.bool_)
    again = np.empty(len(values), dtype=np.int64)
    n = 0
    for value in values:
        slot = np.int64((np.uint64(value) * _PROBE) >> shift)
        while used[slot] and table[slot] != value:
            slot = (slot + 1) & mask
        if used[slot]:
            again[n] = value
            n += 1
        else:
            used[slot] = True
            table[slot] = value
    return again[:n]


def repeated_values(values: np.ndarray) -> np.ndarray:
    """The values that occur more than once, sorted (hashed: a fifth of the time a stable sort
    of a trace's seq values takes, measured in docs/pipeline.md)."""
    return np.unique(_met_again(values.astype(np.int64, copy=False)))


@compiled
def _sort_nearly_sorted(items, keys):  # pragma: no cover (jit)
    """Sort the positions ``items`` in place by ``keys[item]``, ties keeping their order: an
    insertion sort, one step an item when the keys come nearly in order (deadlines of messages
    put one after another with similar Expiry values do); past 8 moves an item in all, a merge
    sort of what is left."""
    budget = 8 * len(items)
    for i in range(1, len(items)):
        item = items[i]
        key = keys[item]
        j = i
        while j > 0 and keys[items[j - 1]] > key:
            items[j] = items[j - 1]
            j -= 1
        items[j] = item
        budget -= i - j
        if budget < 0:  # the first i + 1 are in order, ties as they came: merge sort stays stable
            items[:] = items[np.argsort(keys[items], kind="mergesort")]
            return


@compiled
def deadline_order(bounds, arrival, deadline, never):  # pragma: no cover (jit)
    """Message positions by deadline within each partition, ties in arrival order.

    ``arrival`` lists each partition's message positions in arrival order; partition p's are
    ``arrival[bounds[p]:bounds[p+1]]``. Messages whose deadline is ``never`` (unlimited) are
    put last in arrival order and only the others sorted (unless a deadline is beyond
    ``never``: then all are).
    """
    out = np.empty(len(arrival), dtype=np.int64)
    for p in range(len(bounds) - 1):
        lo, hi = bounds[p], bounds[p + 1]
        limited = lo
        beyond = False
        for i in range(lo, hi):
            if deadline[arrival[i]] != never:
                out[limited] = arrival[i]
                beyond |= deadline[arrival[i]] > never
                limited += 1
        unlimited = limited
        for i in range(lo, hi):
            if deadline[arrival[i]] == never:
                out[unlimited] = arrival[i]
                unlimited += 1
        _sort_nearly_sorted(out[lo : hi if beyond else limited], deadline)
    return out


@compiled
def merge_by_deadline(bounds_a, a, bounds_b, b, deadline):  # pragma: no cover (jit)
    """Per partition p, the positions ``a[bounds_a[p]:bounds_a[p+1]]`` and those of ``b``
    (each list by deadline, ties in arrival order, every ``a`` one arrived before every ``b``
    one) merged by deadline, ties in arrival order: what :func:`deadline_order` gives for both
    together, in one pass."""
    out = np.empty(len(a) + len(b), dtype=np.int64)
    k = 0
    for p in range(len(bounds_a) - 1):
        k = merge_two(
            a, bounds_a[p], bounds_a[p + 1], b, bounds_b[p], bounds_b[p + 1], deadline, out, k
        )
    return out


@compiled
def merge_two(a, i, i_end, b, j, j_end, key, out, k):  # pragma: no cover (jit)
    """``a[i:i_end]`` and ``b[j:j_end]`` (indices into ``key``, each ascending by it) merged
    into ``out`` from ``k`` on, ties from ``a`` first (stable); returns where it ends."""
    while i < i_end and j < j_end:
        if key[b[j]] < key[a[i]]:
            out[k] = b[j]
            j += 1
        else:
            out[k] = a[i]
            i += 1
        k += 1
    while i < i_end:
        out[k] = a[i]
        i += 1
        k += 1
    while j < j_end:
        out[k] = b[j]
        j += 1
        k += 1
    return k


def merge_order(
    part_a: np.ndarray, time_a: np.ndarray, part_b: np.ndarray, time_b: np.ndarray
) -> np.ndarray:
    """Merge two lists sorted by (partition, time); on a tie the ``b`` entry comes first.

    Returns indices into the concatenation ``a + b``. The lists go to the compiled loop as
    writable contiguous int64 arrays (copied if need be: a piece's times may be Arrow's
    read-only buffer, a column of the scans a strided view), so that numba compiles one version
    of it whatever the caller holds (:mod:`mqlearn.pipeline.precompile`).
    """
    lists = (np.require(v, np.int64, ("C", "W")) for v in (part_a, time_a, part_b, time_b))
    return _merge_order(*lists)  # type: ignore[no-any-return]


@compiled
def _merge_order(part_a, time_a, part_b, time_b):  # pragma: no cover (jit)
    na, nb = len(part_a), len(part_b)
    out = np.empty(na + nb, dtype=np.int64)
    i = j = 0
    for k in range(na + nb):
        if j < nb and (
            i >= na or part_b[j] < part_a[i] or (part_b[j] == part_a[i] and time_b[j] <= time_a[i])
        ):
            out[k] = na + j
            j += 1
        else:
            out[k] = i
            i += 1
    return out
