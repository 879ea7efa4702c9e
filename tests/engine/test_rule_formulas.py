"""The rule formulas (mqlearn.engine.rule_formulas) against IBM's text, worked by hand, and their
scalar and array forms against each other, element by element.

Hand examples quote the sources the rules cite (docs/rules.md; IBM's pages in /work/shared/seeds):
"to set an expiry time of 1 minute, set Expiry to 600"; "placed on the queue at the queue manager's
maximum priority; the MQPUT call completes with ... 2049". The discard walk (EXP-22, EXP-23) is
not a formula: its home is ``mqlearn.engine.mqget.walk`` (tests/engine/test_lazy_expiry.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import mqlearn as mq
from mqlearn import CMQC as C
from mqlearn.engine import rule_formulas as R

NEVER = R.NEVER


# -- MD-02: priority ------------------------------------------------------------------------------
def test_md02_priority_as_q_def_takes_the_default_and_others_are_kept() -> None:
    assert R.put_priority(C.MQPRI_PRIORITY_AS_Q_DEF, 4) == 4
    assert R.put_priority(0, 4) == 0
    assert R.put_priority(12, 4) == 12  # kept above MAXPRTY: the MD says what was put


def test_md02_above_maxprty_warns_and_is_queued_at_maxprty() -> None:
    assert R.exceeds_maxprty(12, 9) and not R.exceeds_maxprty(9, 9)
    assert R.queued_priority(12, 9) == 9
    assert R.queued_priority(7, 5) == 5  # ALTER QMGR MAXPRTY(5)
    assert R.queued_priority(3, 9) == 3


def test_md02_a_fifo_queue_orders_every_message_at_its_default_priority() -> None:
    assert R.lane(7, 9, True, 3) == 3
    assert R.lane(12, 9, True, 0) == 0
    assert R.lane(7, 9, False, 3) == 7
    assert R.lane(12, 9, False, 3) == 9


# -- EXP-06: CAPEXPRY -----------------------------------------------------------------------------
def test_exp06_a_longer_expiry_gets_the_cap_a_shorter_one_is_kept() -> None:
    assert R.capped_expiry(600, 100) == 100
    assert R.capped_expiry(50, 100) == 50
    assert R.capped_expiry(100, 100) == 100
    assert R.capped_expiry(C.MQEI_UNLIMITED, 100) == 100  # "an unlimited Expiry included"
    assert R.capped_expiry(600, C.MQCEX_NOLIMIT) == 600
    assert R.capped_expiry(C.MQEI_UNLIMITED, C.MQCEX_NOLIMIT) == C.MQEI_UNLIMITED


def test_exp06_the_smallest_cap_on_the_path_applies() -> None:
    assert R.path_cap([C.MQCEX_NOLIMIT, 300, 100]) == 100  # alias, remote definition, xmitq
    assert R.path_cap([300, C.MQCEX_NOLIMIT]) == 300
    assert R.path_cap([C.MQCEX_NOLIMIT, C.MQCEX_NOLIMIT]) == C.MQCEX_NOLIMIT
    assert R.path_cap([]) == C.MQCEX_NOLIMIT


def test_exp06_a_running_lifetime_is_cut_to_the_cap_from_now() -> None:
    assert R.capped_deadline(90_000, 100, 5_000) == 15_000  # 85 s left, CAPEXPRY 10 s
    assert R.capped_deadline(9_000, 100, 5_000) == 9_000  # 4 s left: kept
    assert R.capped_deadline(NEVER, 100, 5_000) == 15_000
    assert R.capped_deadline(NEVER, C.MQCEX_NOLIMIT, 5_000) == NEVER


def test_exp06_the_engine_caps_through_an_alias() -> None:
    qm = mq.QueueManager("QM1", record_events=False)
    qm.define_qlocal("TARGET", capexpry=300)
    qm.define_qalias("VIA", target="TARGET", capexpry=100)
    mq.Queue(qm, "VIA").put(b"x", mq.MD(Expiry=C.MQEI_UNLIMITED))
    [message] = qm.local("TARGET").store.messages()
    assert message.deadline == 100 * 100  # put at 0 ms, the smaller cap: 100 tenths


# -- EXP-11, EXP-12, EXP-20: lifetime ---------------------------------------------------------------
def test_exp11_one_minute_is_expiry_600_and_the_deadline_is_60_s_after_the_put() -> None:
    assert R.deadline_of(600, 5_000) == 65_000
    assert R.deadline_of(C.MQEI_UNLIMITED, 5_000) == NEVER


def test_exp20_eligible_at_the_deadline_not_before() -> None:
    assert not R.is_expired(65_000, 64_999)
    assert R.is_expired(65_000, 65_000)
    assert R.is_expired(65_000, 70_000)
    assert not R.is_expired(NEVER, 10**15)


def test_exp12_remaining_lifetime_rounds_up_and_stops_at_0() -> None:
    assert R.remaining_tenths(65_000, 5_000) == 600
    assert R.remaining_tenths(65_000, 64_901) == 1  # 99 ms left: a live message never shows 0
    assert R.remaining_tenths(65_000, 64_900) == 1
    assert R.remaining_tenths(65_000, 64_899) == 2
    assert R.remaining_tenths(65_000, 65_000) == 0
    assert R.remaining_tenths(65_000, 99_000) == 0  # not negative once past
    assert R.remaining_tenths(NEVER, 99_000) == C.MQEI_UNLIMITED


# -- one formula for ints and arrays -------------------------------------------------------------
TIMES = st.integers(0, 10**12)
EXPIRIES = st.one_of(st.just(-1), st.integers(1, 999_999_999))
CAPS = st.one_of(st.just(-1), st.integers(1, 999_999_999))
DEADLINES = st.one_of(st.just(NEVER), TIMES)
PRIORITIES = st.integers(-1, 20)
LANES = st.integers(0, 9)

CASES: list[tuple[Callable[..., Any], tuple[st.SearchStrategy[int], ...]]] = [
    (R.put_priority, (PRIORITIES, LANES)),
    (R.exceeds_maxprty, (PRIORITIES, LANES)),
    (R.queued_priority, (st.integers(0, 20), LANES)),
    (R.lane, (st.integers(0, 20), LANES, st.integers(0, 1).map(bool), LANES)),
    (R.smaller_cap, (CAPS, CAPS)),
    (R.capped_expiry, (EXPIRIES, CAPS)),
    (R.capped_deadline, (DEADLINES, CAPS, TIMES)),
    (R.deadline_of, (EXPIRIES, TIMES)),
    (R.is_expired, (DEADLINES, TIMES)),
    (R.remaining_tenths, (DEADLINES, TIMES)),
]


@pytest.mark.parametrize(("function", "args"), CASES, ids=[f.__name__ for f, _ in CASES])
@given(data=st.data())
def test_the_array_form_is_the_scalar_form_element_by_element(
    function: Callable[..., Any], args: tuple[st.SearchStrategy[int], ...], data: st.DataObject
) -> None:
    rows = data.draw(st.lists(st.tuples(*args), min_size=1, max_size=30))
    columns = [np.array(column) for column in zip(*rows, strict=True)]
    expected = [function(*row) for row in rows]
    assert np.asarray(function(*columns)).tolist() == expected
    # an array mixed with plain ints (a constant MAXPRTY, one queue's cap) broadcasts the same
    first = rows[0]
    mixed = [columns[0], *first[1:]]
    assert np.asarray(function(*mixed)).tolist() == [function(row[0], *first[1:]) for row in rows]


def test_the_scalar_forms_return_plain_ints() -> None:
    assert type(R.capped_expiry(600, 100)) is int
    assert type(R.deadline_of(C.MQEI_UNLIMITED, 0)) is int
    assert type(R.remaining_tenths(NEVER, 0)) is int
    assert type(R.lane(12, 9, False, 3)) is int
