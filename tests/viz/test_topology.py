"""The topology view without a browser: labels across a channel, both Expiry fields on a fixed
scale, a message running out of time in flight, and the channel's Start/Stop button.

Expected values are worked out by hand from rules EXP-10 and XQH-01..05 (docs/engine.md,
"Dead letters, triggers, channels, background expiry").
"""

from __future__ import annotations

from typing import Any

import pytest

import mqlearn as mq
from mqlearn.viz import Topology
from tests.viz.helpers import APP_Q, XMITQ, put_direct_xqh

LATENCY_MS = 2_000


def network() -> tuple[mq.QueueManager, mq.QueueManager, mq.Channel]:
    sim = mq.Simulation()
    qm1, qm2 = mq.QueueManager("QM1", sim), mq.QueueManager("QM2", sim)
    qm1.define_qlocal(XMITQ, usage="XMITQ")
    qm1.define_qremote("TO.QM2", rname=APP_Q, rqmname="QM2", xmitq=XMITQ)
    qm2.define_qlocal(APP_Q)
    channel = mq.Channel(qm1, qm2, xmitq=XMITQ, latency_ms=LATENCY_MS)
    channel.stop()
    return qm1, qm2, channel


def queue(view: Topology, qmgr: str, name: str) -> dict[str, Any]:
    (qm,) = [q for q in view.view.state["qmgrs"] if q["name"] == qmgr]
    (found,) = [q for q in qm["queues"] if q["name"] == name]
    return found


def click(view: Topology, seconds: float) -> None:
    labels = {0.1: "+0.1 s", 1: "+1 s", 10: "+10 s"}
    next(b for b in view.advance_buttons if b.description == labels[seconds]).click()


def test_xqh05_both_expiry_fields_count_down_on_a_fixed_scale() -> None:
    """An application's own MQXQH with outer Expiry 100 and embedded 20 (XQH-05): after 1 s the
    bars say 90 and 10, and the scale stays 100 tenths however the values fall."""
    qm1, qm2, channel = network()
    put_direct_xqh(qm1, outer=100, embedded=20)
    view = Topology([qm1, qm2], [channel])
    (chip,) = queue(view, "QM1", XMITQ)["chips"]
    assert (chip["expiry"], chip["embedded_expiry"]) == (100, 20)
    assert view.view.state["scale_tenths"] == 100
    click(view, 1)
    (chip,) = queue(view, "QM1", XMITQ)["chips"]
    assert (chip["expiry"], chip["embedded_expiry"]) == (90, 10)
    assert view.view.state["scale_tenths"] == 100
    click(view, 1)
    (chip,) = queue(view, "QM1", XMITQ)["chips"]
    assert (chip["expiry"], chip["embedded_expiry"]) == (80, 0)  # run out while the outer lasts
    assert view.failures == []


def test_exp10_a_message_runs_out_of_time_in_flight_and_keeps_its_label() -> None:
    """A is put for 2 s and sent at 1 s on a 2 s channel: at 2.1 s it is 55 % of the way and
    has expired in flight; it arrives at 3 s already expired, still called A on QM2."""
    qm1, qm2, channel = network()
    mq.Queue(qm1, "TO.QM2").put(b"A", mq.MD(Expiry=20))
    mq.Queue(qm1, "TO.QM2").put(b"B", mq.MD(Expiry=600))
    view = Topology([qm1, qm2], [channel])
    assert [c["label"] for c in queue(view, "QM1", XMITQ)["chips"]] == ["A", "B"]
    click(view, 1)
    (toggle,) = view.channel_buttons
    assert toggle.description == "START CHANNEL(QM1.TO.QM2)"
    toggle.click()
    assert channel.running and toggle.description == "STOP CHANNEL(QM1.TO.QM2)"
    click(view, 0.1)  # the channel sends at 1.0 s, on this tick
    click(view, 1)
    (flight,) = view.view.state["channels"]
    assert [(c["label"], c["state"], c["progress"]) for c in flight["in_flight"]] == [
        ("A", "expired", pytest.approx(0.55)),
        ("B", "in-transit", pytest.approx(0.55)),
    ]
    assert [c["expiry"] for c in flight["in_flight"]] == [0, 579]  # 600 - 21 tenths
    click(view, 1)
    arrived = queue(view, "QM2", APP_Q)["chips"]
    assert [(c["label"], c["state"], c["expiry"]) for c in arrived] == [
        ("A", "expired", 0),
        ("B", "live", 569),
    ]
    assert "QM2 APP.IN: A, B" in view.text()
    assert view.failures == []


def test_a_topology_needs_one_clock() -> None:
    with pytest.raises(ValueError, match="share one Simulation"):
        Topology([mq.QueueManager("QM1"), mq.QueueManager("QM2")], [])
    with pytest.raises(ValueError, match="at least one queue manager"):
        Topology([], [])
