"""The parts a carried set is made of (issue 27): the one-pass choice between two sources
(``arrays.either``), the gather of several columns in one call (``arrays.gather``), the copy
of a piece's messages into the store's slots (``arrays.place``) and the names the carried
messages' reply queues and queue managers are numbered in (``carry.Names``), against numpy
and Python written out plainly."""

from __future__ import annotations

import threading

import numpy as np
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from mqlearn.pipeline.arrays import either, gather, place
from mqlearn.pipeline.carry import Names


@settings(max_examples=200, deadline=None)
@given(st.data(), st.integers(0, 3), st.sampled_from([np.int64, np.uint64, np.bool_]))
def test_either_takes_each_entry_from_the_source_its_index_names(data, width, dtype) -> None:
    n_first, n_second = data.draw(st.integers(0, 20)), data.draw(st.integers(1, 20))
    shape = (lambda n: (n,)) if width == 0 else (lambda n: (n, width))
    first = np.arange(int(np.prod(shape(n_first)))).reshape(shape(n_first)).astype(dtype)
    second = (100 + np.arange(int(np.prod(shape(n_second))))).reshape(shape(n_second))
    second = second.astype(dtype)
    picks = data.draw(
        st.lists(
            st.one_of(
                st.tuples(st.integers(0, n_first - 1), st.just(-1)) if n_first else st.nothing(),
                st.tuples(st.just(-1), st.integers(0, n_second - 1)),
            ),
            max_size=30,
        )
    )
    first_at = np.array([f for f, _ in picks], dtype=np.int64)
    second_at = np.array([s for _, s in picks], dtype=np.int64)
    got = either(first_at, first, second_at, second)
    expected = [first[f] if f >= 0 else second[s] for f, s in picks]
    assert got.dtype == second.dtype and got.shape == (len(picks), *second.shape[1:])
    assert np.array_equal(got, np.array(expected, dtype=dtype).reshape(got.shape))


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 4), st.integers(1, 30), st.data())
def test_gather_picks_each_column_at_the_positions_given(n_columns, n, data) -> None:
    columns = [np.arange(n, dtype=np.int64) * (k + 1) - 7 for k in range(n_columns)]
    columns = [c[::-1] if k % 2 else c for k, c in enumerate(columns)]  # a view, not a copy
    at = np.array(data.draw(st.lists(st.integers(0, n - 1), max_size=40)), dtype=np.int64)
    got = gather(columns, at)
    assert len(got) == n_columns
    assert all(g.tolist() == c[at].tolist() for g, c in zip(got, columns, strict=True))


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 3), st.sampled_from([np.int8, np.int32, np.int64, np.uint64]), st.data())
def test_place_copies_the_rows_picked_into_the_slots_given(width, dtype, data) -> None:
    shape = (lambda n: (n,)) if width == 0 else (lambda n: (n, width))
    source = (np.arange(int(np.prod(shape(12)))) * 3 + 1).reshape(shape(12))
    target = np.zeros(shape(20), dtype=dtype)
    picked = data.draw(st.permutations(range(20)))[: data.draw(st.integers(0, 12))]
    slots = np.array(picked, dtype=np.int64)
    at = data.draw(st.lists(st.integers(0, 11), min_size=len(slots), max_size=len(slots)))
    at = np.array(at, dtype=np.int64)
    expected = target.copy()
    expected[slots] = source[at]
    place(target, slots, source, at)
    assert np.array_equal(target, expected)


def test_names_are_numbered_once_in_the_order_they_are_met_and_read_back() -> None:
    names = Names()
    first = names.numbers_of(pa.array(["REPLY.A", None, "QM1", "REPLY.A"]))
    second = names.numbers_of(pa.array(["QM1", "REPLY.B", None]).dictionary_encode())
    assert first.tolist() == [0, -1, 1, 0] and second.tolist() == [1, 2, -1]
    assert names.text(np.array([2, -1, 0])).to_pylist() == ["REPLY.B", None, "REPLY.A"]
    assert names.text(np.array([-1, -1])).to_pylist() == [None, None]


def test_names_read_in_one_thread_while_another_adds_them_stay_right() -> None:
    """A piece's tables are built in writer threads while the next piece adds names."""
    names, wrong = Names(), []
    numbers = names.numbers_of(pa.array([f"Q{k}" for k in range(50)]))

    def read() -> None:
        for _ in range(200):
            if names.text(numbers).to_pylist() != [f"Q{k}" for k in range(50)]:
                wrong.append(True)

    reader = threading.Thread(target=read)
    reader.start()
    for k in range(50, 2000, 50):
        names.numbers_of(pa.array([f"Q{j}" for j in range(k, k + 50)]))
    reader.join()
    assert not wrong and len(names.texts) == 2000
