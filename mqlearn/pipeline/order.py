"""Linear-time orderings the replay needs (compiled): a general sort would cost more than the replay.

- :func:`group_order`: a stable counting sort by small integer keys (rows by partition, messages
  by partition and lane); :func:`increasing_within` tells when it sorts rows by (partition, seq).
- :func:`repeated_values`: the seq values that occur more than once (:func:`hash_buckets`
  spreads them over parts checked one at a time).
- :func:`deadline_order`: messages by (partition, deadline, arrival).
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


def hash_buckets(values: np.ndarray, buckets: int) -> np.ndarray:
    """A bucket (0 <= bucket < ``buckets``) for each int64 value, equal values in the same one.

    Spread by a multiplicative hash, not taken modulo: the generator's seq values, for one,
    are multiples of 1024 plus a rank that is mostly 0, so ``seq % 64`` put nearly every value
    in one bucket (2.5-3 GiB to check 100M values instead of 1/64 of that)."""
    spread = values.astype(np.int64, copy=False).view(np.uint64) * _SPREAD
    return ((spread >> np.uint64(32)) % np.uint64(buckets)).astype(np.int64)


def repeated_values(values: np.ndarray) -> np.ndarray:
    """The values that occur more than once, sorted (a stable sort: it merges the runs a trace
    has, each queue's seq values increasing, in a fraction of a general sort's time)."""
    ordered = np.sort(values, kind="stable")
    return np.unique(ordered[1:][ordered[1:] == ordered[:-1]])


@compiled
def deadline_order(bounds, arrival, deadline):  # pragma: no cover (jit)
    """Message positions by deadline within each partition, ties in arrival order.

    ``arrival`` lists each partition's message positions in arrival order; partition p's are
    ``arrival[bounds[p]:bounds[p+1]]``.
    """
    out = np.empty(len(arrival), dtype=np.int64)
    for p in range(len(bounds) - 1):
        lo, hi = bounds[p], bounds[p + 1]
        segment = arrival[lo:hi]
        out[lo:hi] = segment[np.argsort(deadline[segment], kind="mergesort")]
    return out


@compiled
def merge_order(part_a, time_a, part_b, time_b):  # pragma: no cover (jit)
    """Merge two lists sorted by (partition, time); on a tie the ``b`` entry comes first.

    Returns indices into the concatenation ``a + b``.
    """
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
