"""Virtual time: ordering, daemons, units of advance (DESIGN.md "Time")."""

from __future__ import annotations

import pytest

import mqlearn as mq


def test_advance_units_and_order_of_actions() -> None:
    sim = mq.Simulation()
    seen: list[tuple[str, int]] = []
    sim.schedule(300, lambda: seen.append(("b", sim.now)))
    sim.schedule(100, lambda: seen.append(("a", sim.now)))
    sim.schedule(300, lambda: seen.append(("c", sim.now)))  # same time: scheduling order
    assert sim.advance(tenths=2) == 200
    assert seen == [("a", 100)]
    assert sim.advance(seconds=0.1) == 300
    assert seen == [("a", 100), ("b", 300), ("c", 300)]
    assert sim.advance(ms=5) == 305


@pytest.mark.parametrize("kwargs", [{}, {"ms": 1, "tenths": 1}, {"seconds": 1, "ms": 1}])
def test_advance_takes_exactly_one_unit(kwargs: dict[str, int]) -> None:
    with pytest.raises(TypeError, match="exactly one"):
        mq.Simulation().advance(**kwargs)


def test_time_never_goes_back() -> None:
    sim = mq.Simulation()
    with pytest.raises(ValueError, match="forward"):
        sim.advance(ms=-1)
    with pytest.raises(ValueError, match="negative"):
        sim.schedule(-5, lambda: None)


def test_cancelled_actions_do_nothing_and_run_stops_at_daemons() -> None:
    sim = mq.Simulation()
    seen: list[int] = []
    sim.schedule(10, lambda: seen.append(1)).cancel()
    sim.schedule(20, lambda: seen.append(2))
    sim.schedule(50, lambda: seen.append(3), daemon=True)
    assert sim.run() == 20  # only housekeeping is left after the action at 20 ms
    assert seen == [2]
    assert sim.peek() == 50 and sim.peek(include_daemons=False) is None


def test_put_stamp_is_gmt_hundredths_of_the_virtual_time() -> None:
    sim = mq.Simulation()
    sim.advance(ms=3_723_456)  # 1 h 2 min 3.456 s after the 09:00:00 start
    assert sim.stamp(sim.now) == ("20260101", "10020345")


def test_a_queue_manager_alone_gets_its_own_clock() -> None:
    qm = mq.QueueManager("QM1")
    assert isinstance(qm.sim, mq.Simulation) and qm.sim.now == 0
