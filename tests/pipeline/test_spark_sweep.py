"""What-if sweeps (issue 5): scenarios as Spark tasks, one table, each knob doing what MQ does.

Every scenario draws its traffic from the same seed, so two scenarios that differ in one knob
differ only by that knob's effect: a longer consumer outage leaves more messages to expire
(EXP-20, EXP-21); without a background scan nothing is discarded by a scan (EXP-28); CAPEXPRY
caps every Expiry, unlimited ones included (EXP-06).
"""

from __future__ import annotations

import pandas as pd
import pytest

from mqlearn.pipeline.sweep import RESULT_COLUMNS, SweepGrid, run_scenario, sweep

pytestmark = pytest.mark.slow

GRID = SweepGrid(
    outage_s=(0.0, 1800.0),
    ttl=("short",),
    priority_mix=("default",),
    expiry_interval_s=(0, 60),
    capexpry=(-1,),
    rate_per_s=1.0,
    hours=2.0,
    seed=4,
)


def by_knobs(frame: pd.DataFrame, **knobs: object) -> pd.Series:
    selected = frame
    for knob, value in knobs.items():
        selected = selected[selected[knob] == value]
    assert len(selected) == 1
    return selected.iloc[0]


@pytest.fixture(scope="module")
def table(spark) -> pd.DataFrame:
    return sweep(spark, GRID)


def test_sweep_returns_one_row_per_scenario_as_run_locally(table) -> None:
    """Tooling, no behaviour rule: the Spark tasks compute what run_scenario computes here."""
    assert list(table.columns) == list(RESULT_COLUMNS)
    assert table["scenario"].tolist() == [0, 1, 2, 3]
    local = pd.DataFrame(
        [run_scenario(GRID, knobs) for knobs in GRID.scenarios().to_dict("records")]
    ).astype(RESULT_COLUMNS)
    pd.testing.assert_frame_equal(table, local)


def test_exp21_longer_outage_more_expired(table) -> None:
    """EXP-20, EXP-21: messages wait through the consumer outage and expire on the queue."""
    calm = by_knobs(table, outage_s=0.0, expiry_interval_s=0)
    outage = by_knobs(table, outage_s=1800.0, expiry_interval_s=0)
    assert outage["expiry_rate"] > calm["expiry_rate"]
    assert outage["max_expired"] > calm["max_expired"]
    assert outage["puts"] + outage["put_failed"] == calm["puts"] + calm["put_failed"]


def test_exp28_scans_only_with_an_expiry_interval(table) -> None:
    """EXP-28: no interval, no scan discards; a 60 s interval discards expired messages that no
    get reached, so fewer pile up than without it (EXP-25)."""
    assert (table.loc[table["expiry_interval_s"] == 0, "discarded_scan"] == 0).all()
    scanned = by_knobs(table, outage_s=1800.0, expiry_interval_s=60)
    unscanned = by_knobs(table, outage_s=1800.0, expiry_interval_s=0)
    assert scanned["discarded_scan"] > 0
    assert scanned["max_expired"] < unscanned["max_expired"]


def test_exp06_capexpry_caps_unlimited_expiries() -> None:
    """EXP-06: with CAPEXPRY 600 (one minute) even MQEI_UNLIMITED messages expire during a
    long outage; without a cap, far fewer do."""
    grid = SweepGrid(
        outage_s=(1800.0,),
        ttl=("long",),
        priority_mix=("default",),
        expiry_interval_s=(0,),
        capexpry=(-1, 600),
        rate_per_s=1.0,
        hours=2.0,
        seed=4,
    )
    uncapped, capped = (run_scenario(grid, k) for k in grid.scenarios().to_dict("records"))
    assert capped["expiry_rate"] > uncapped["expiry_rate"]


@pytest.mark.parametrize(
    ("knobs", "message"),
    [
        ({"ttl": ("forever",)}, "ttl ['forever'] not among"),
        ({"priority_mix": ()}, "priority_mix needs at least one value"),
        ({"capexpry": (0,)}, "capexpry values must be -1"),
        ({"hours": 0}, "rate_per_s and hours must be > 0"),
    ],
)
def test_bad_grid_is_refused(knobs, message) -> None:
    """Tooling, no behaviour rule: a bad grid raises ValueError naming the knob."""
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        SweepGrid(**knobs)
