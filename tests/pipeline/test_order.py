"""The compiled orderings of the replay (mqlearn.pipeline.order) against plain definitions."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mqlearn.engine.rule_formulas import NEVER
from mqlearn.pipeline.order import by_bucket, deadline_order, merge_by_deadline, repeated_values


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.integers(-(2**63), 2**63 - 1),
            st.integers(-3, 3),
            st.integers(0, 40).map(lambda k: k << 32),  # values a multiplicative hash may crowd
        ),
        max_size=300,
    )
)
def test_repeated_values_are_those_counted_more_than_once(values) -> None:
    """Tooling (rejects of repeated seq values): the hashed check finds exactly the values a
    count of the list finds more than once, sorted, each once."""
    counted = sorted(v for v, n in Counter(values).items() if n > 1)
    found = repeated_values(np.array(values, dtype=np.int64))
    assert found.dtype == np.int64 and found.tolist() == counted


@st.composite
def partitioned_deadlines(draw) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Partitions of messages (bounds, positions in arrival order, deadlines): deadlines nearly
    in arrival order, scattered, unlimited (NEVER), tied, and beyond NEVER."""
    sizes = draw(st.lists(st.integers(0, 60), max_size=5))
    n = sum(sizes)
    start = draw(st.integers(0, 1 << 62))
    kinds = st.one_of(
        st.integers(0, 3),  # near neighbours: nearly in order, many ties
        st.integers(0, 10**6),
        st.just(NEVER - start),  # unlimited
        st.integers(NEVER - start + 1, (1 << 63) - 1 - start),  # beyond unlimited
    )
    steps = draw(st.lists(st.integers(0, 5), min_size=n, max_size=n))
    offsets = draw(st.lists(kinds, min_size=n, max_size=n))
    deadline = np.array(
        [min(start + sum(steps[: i + 1]) + o, (1 << 63) - 1) for i, o in enumerate(offsets)],
        dtype=np.int64,
    )
    deadline[deadline == NEVER - 1] = NEVER  # more exact NEVERs among the near ones
    arrival = np.array(draw(st.permutations(range(n))), dtype=np.int64)
    bounds = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
    return bounds, arrival, deadline


@settings(max_examples=300, deadline=None)
@given(partitioned_deadlines())
def test_exp28_deadline_order_is_a_stable_sort_per_partition(case) -> None:
    """EXP-28 (the order a background scan meets deadlines in): each partition's messages sorted
    by deadline, equal deadlines in arrival order, as a stable sort of each slice gives."""
    bounds, arrival, deadline = case
    slices = [arrival[lo:hi] for lo, hi in pairwise(bounds)]
    expected = np.concatenate(
        [part[np.argsort(deadline[part], kind="stable")] for part in slices]
        + [np.empty(0, dtype=np.int64)]
    )
    assert deadline_order(bounds, arrival, deadline, NEVER).tolist() == expected.tolist()


@settings(max_examples=300, deadline=None)
@given(partitioned_deadlines(), st.data())
def test_exp28_merging_carried_and_new_messages_by_deadline_is_one_stable_sort(case, data) -> None:
    """EXP-28 across the pieces of a trace: each partition's messages split where the carried
    ones (those that arrived first) end, each part ordered by deadline alone, then merged, are
    in the order deadline_order gives for all of them at once."""
    bounds, arrival, deadline = case
    cut = np.array([data.draw(st.integers(lo, hi)) for lo, hi in pairwise(bounds)], dtype=np.int64)
    first = np.concatenate(
        [arrival[lo:c] for lo, c in zip(bounds[:-1], cut, strict=True)] + [np.empty(0, np.int64)]
    )
    then = np.concatenate(
        [arrival[c:hi] for c, hi in zip(cut, bounds[1:], strict=True)] + [np.empty(0, np.int64)]
    )
    first_bounds = np.concatenate(([0], np.cumsum(cut - bounds[:-1]))).astype(np.int64)
    then_bounds = bounds - first_bounds
    merged = merge_by_deadline(
        first_bounds,
        deadline_order(first_bounds, first, deadline, NEVER),
        then_bounds,
        deadline_order(then_bounds, then, deadline, NEVER),
        deadline,
    )
    assert merged.tolist() == deadline_order(bounds, arrival, deadline, NEVER).tolist()


def test_deadline_order_falls_back_to_merge_sort_on_reversed_deadlines() -> None:
    """Tooling: deadlines in reverse arrival order exhaust the insertion sort's budget of
    moves; the merge sort it falls back on still orders them, ties as they came."""
    deadline = np.repeat(np.arange(400, 0, -1, dtype=np.int64), 2)
    arrival = np.arange(len(deadline), dtype=np.int64)
    bounds = np.array([0, len(deadline)], dtype=np.int64)
    expected = np.argsort(deadline, kind="stable")
    assert deadline_order(bounds, arrival, deadline, NEVER).tolist() == expected.tolist()


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(-(2**63), 2**63 - 1) | st.integers(-5, 5), max_size=200),
    st.integers(1, 70),
)
def test_by_bucket_groups_equal_values_together_in_order(values, buckets) -> None:
    """Tooling (the repeat check's spill files): the grouped values are the input's, each
    bucket's in their input order, and all copies of a value lie in one bucket."""
    grouped, starts = by_bucket(np.array(values, dtype=np.int64), buckets)
    assert len(starts) == buckets + 1 and starts[0] == 0 and starts[-1] == len(values)
    assert np.all(np.diff(starts) >= 0)
    slices = [grouped[lo:hi].tolist() for lo, hi in pairwise(starts)]
    assert sorted(v for part in slices for v in part) == sorted(values)
    home = {}
    for b, part in enumerate(slices):
        for v in part:
            assert home.setdefault(v, b) == b
        assert part == [v for v in values if home.get(v) == b]


def test_by_bucket_spreads_generator_like_seq_values() -> None:
    """Tooling: seq values that are multiples of 1024 (as the generator makes them) spread
    evenly, where ``seq % 64`` would put them all in one bucket."""
    values = np.arange(1, 64_001, dtype=np.int64) * 1024
    _, starts = by_bucket(values, 64)
    assert np.diff(starts).max() < 1.2 * len(values) / 64
