"""The pipeline's array forms of the engine's lifetime formulas agree with the engine's, element by
element (rules EXP-11, EXP-12): one formula, whichever side computes it."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from mqlearn.engine.message import NEVER
from mqlearn.engine.message import remaining_tenths as engine_remaining
from mqlearn.pipeline import kernel as K
from mqlearn.pipeline.tables import remaining_tenths

TIMES = st.integers(0, 10**12)


@given(st.lists(st.tuples(st.one_of(st.just(NEVER), TIMES), TIMES), min_size=1, max_size=50))
def test_exp12_remaining_tenths_in_arrays_is_the_engines(pairs: list[tuple[int, int]]) -> None:
    deadline = np.array([d for d, _ in pairs], dtype=np.int64)
    now = np.array([t for _, t in pairs], dtype=np.int64)
    assert remaining_tenths(deadline, now).tolist() == [engine_remaining(d, t) for d, t in pairs]


def test_exp11_a_passed_deadline_gives_0_not_a_negative_count() -> None:
    """By hand: 1 ms left rounds up to 1 tenth; at and after the deadline, 0; unlimited, -1."""
    deadline = np.array([1_001, 1_000, 1_000, K.NEVER], dtype=np.int64)
    now = np.array([1_000, 1_000, 5_000, 5_000], dtype=np.int64)
    assert remaining_tenths(deadline, now).tolist() == [1, 0, 0, -1]
    assert K.NEVER == NEVER
