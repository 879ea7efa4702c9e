"""The topology view without a browser: labels across a channel, both Expiry fields on a fixed
scale, a message running out of time on the transmission queue and in flight, discards and the
report travelling back, and the view's buttons (MQGET per queue, expiry scan, Start/Stop), driven
through the messages the browser sends.

Expected values are worked out by hand from rules EXP-10, XQH-01..06 and RPT-02 (docs/engine.md,
"Dead letters, triggers, channels, background expiry").
"""

from __future__ import annotations

from typing import Any

import pytest

import mqlearn as mq
from mqlearn import CMQC
from mqlearn.viz import Topology
from mqlearn.viz.topology import CHIPS_PER_QUEUE
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


def hop() -> tuple[mq.QueueManager, mq.QueueManager, Topology]:
    """Notebook 06's §7: A (1 s) and B (2.5 s) with reports, and C put by hand with MD Expiry
    600 and MQXQH Expiry 150, on QM1's stopped channel (3 s each way) to QM2 and back."""
    sim = mq.Simulation()
    qm1, qm2 = mq.QueueManager("QM1", sim), mq.QueueManager("QM2", sim)
    qm1.define_qlocal("QM2", usage="XMITQ")
    qm1.define_qlocal("REPLY.Q")
    qm1.define_qremote("TO.APP", rname=APP_Q, rqmname="QM2", xmitq="QM2")
    qm2.define_qlocal(APP_Q)
    qm2.define_qlocal("QM1", usage="XMITQ")
    there = mq.Channel(qm1, qm2, xmitq="QM2", latency_ms=3_000)
    back = mq.Channel(qm2, qm1, xmitq="QM1", latency_ms=3_000)
    there.stop()
    report = {"Report": CMQC.MQRO_EXPIRATION, "ReplyToQ": "REPLY.Q"}
    mq.Queue(qm1, "TO.APP").put(b"A", mq.MD(Expiry=10, **report))
    mq.Queue(qm1, "TO.APP").put(b"B", mq.MD(Expiry=25, **report))
    put_direct_xqh(qm1, outer=600, embedded=150)
    return qm1, qm2, Topology([qm1, qm2], [there, back])


def queue(view: Topology, qmgr: str, name: str) -> dict[str, Any]:
    (qm,) = [q for q in view.view.state["qmgrs"] if q["name"] == qmgr]
    (found,) = [q for q in qm["queues"] if q["name"] == name]
    return found


def flying(view: Topology, channel: str) -> list[tuple[str, str, str]]:
    (ch,) = [c for c in view.view.state["channels"] if c["name"] == channel]
    return [(c["label"], c["state"], c["where"]) for c in ch["in_flight"]]


def tray(view: Topology, qmgr: str) -> list[tuple[str, str, str]]:
    (qm,) = [q for q in view.view.state["qmgrs"] if q["name"] == qmgr]
    return [(c["label"], c["where"], c["ran_out"]) for c in qm["tray"]]


def click(view: Topology, seconds: float) -> None:
    labels = {0.1: "+0.1 s", 1: "+1 s", 10: "+10 s"}
    next(b for b in view.advance_buttons if b.description == labels[seconds]).click()


def send(view: Topology, **content: str) -> None:
    """What a button of the view sends to the kernel."""
    view.view._handle_custom_msg(content, [])


def test_xqh05_both_expiry_fields_count_down_on_a_fixed_scale() -> None:
    """An application's own MQXQH with outer Expiry 100 and embedded 20 (XQH-05): after 1 s the
    bars say 90 and 10, and the chip's scale stays 100 tenths however the values fall."""
    qm1, qm2, channel = network()
    put_direct_xqh(qm1, outer=100, embedded=20)
    view = Topology([qm1, qm2], [channel])
    (chip,) = queue(view, "QM1", XMITQ)["chips"]
    assert (chip["expiry"], chip["embedded_expiry"], chip["scale"]) == (100, 20, 100)
    click(view, 1)
    (chip,) = queue(view, "QM1", XMITQ)["chips"]
    assert (chip["expiry"], chip["embedded_expiry"], chip["scale"]) == (90, 10, 100)
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
    send(view, do="start", channel="QM1.TO.QM2")
    assert channel.running
    assert view.view.state["channels"][0]["running"] is True
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
    send(view, do="stop", channel="QM1.TO.QM2")
    assert not channel.running
    assert view.failures == []


def test_xqh06_exp10_the_hop_expiry_on_the_xmitq_and_in_transit_reports_back() -> None:
    """The whole hop, as notebook 06 §7 tells it: A runs out on the transmission queue (1 s) and
    the restarted channel discards it (XQH-06); B leaves at 1.1 s and runs out on the link at
    2.5 s (EXP-10), arrives at 4.1 s expired, the MQGET on APP.IN discards it and returns C, whose
    MQXQH Expiry (150) governs at QM2; B's report crosses back over QM2.TO.QM1 to REPLY.Q."""
    _, _, view = hop()
    (c_chip,) = [c for c in queue(view, "QM1", "QM2")["chips"] if c["label"] == "body"]
    assert (c_chip["expiry"], c_chip["embedded_expiry"], c_chip["scale"]) == (600, 150, 600)
    click(view, 1)
    assert [(c["label"], c["state"], c["where"]) for c in queue(view, "QM1", "QM2")["chips"]] == [
        ("A", "expired", "QM2"),
        ("B", "live", "QM2"),
        ("body", "live", "QM2"),
    ]
    send(view, do="start", channel="QM1.TO.QM2")
    click(view, 0.1)
    assert tray(view, "QM1") == [("A", "QM2", "transmission queue QM2")]
    said = [s["say"] for s in view.view.state["steps"]]
    assert said[0] == ("the channel discards A, expired on transmission queue QM2 at QM1 (XQH-06)")
    assert [c["label"] for c in queue(view, "QM1", "REPLY.Q")["chips"]] == ["R·A"]
    click(view, 1)
    assert flying(view, "QM1.TO.QM2")[0] == ("B", "in-transit", "QM1.TO.QM2")
    click(view, 1)  # 3.1 s: B's deadline (2.5 s) passed on the link
    assert flying(view, "QM1.TO.QM2")[0] == ("B", "expired", "QM1.TO.QM2")
    click(view, 1)  # 4.1 s: both arrived
    arrived = queue(view, "QM2", APP_Q)["chips"]
    assert [(c["label"], c["state"], c["expiry"]) for c in arrived] == [
        ("B", "expired", 0),
        ("body", "live", 109),  # the MQXQH's 150 tenths govern at the destination
    ]
    send(view, do="get", qmgr="QM2", queue=APP_Q)
    assert tray(view, "QM2") == [("B", APP_Q, "channel QM1.TO.QM2")]
    (got,) = [q["got"] for q in view.view.state["qmgrs"] if q["name"] == "QM2"]
    assert (got["label"], got["state"], got["expiry"]) == ("body", "got", 109)
    said = [s["say"] for s in view.view.state["steps"]]
    assert said[0] == (
        "the MQGET discards B, expired on queue APP.IN at QM2 "
        "(it ran out on channel QM1.TO.QM2) (EXP-23)"
    )
    assert [c["label"] for c in queue(view, "QM2", "QM1")["chips"]] == ["R·B"]
    click(view, 1)
    assert flying(view, "QM2.TO.QM1") == [("R·B", "report", "QM2.TO.QM1")]
    for _ in range(3):
        click(view, 1)
    assert [
        (c["label"], c["state"], c["where"]) for c in queue(view, "QM1", "REPLY.Q")["chips"]
    ] == [("R·A", "report", "REPLY.Q"), ("R·B", "report", "REPLY.Q")]
    assert view.failures == []


def test_each_step_cites_one_rule_and_says_it_in_its_words() -> None:
    _, _, view = hop()
    click(view, 1)
    send(view, do="start", channel="QM1.TO.QM2")
    click(view, 0.1)
    for step in view.view.state["steps"]:
        assert step["say"].endswith(f"({step['rule']})")
        assert step["rule"] in view.view.state["rules"]


def test_get_on_an_empty_queue_says_2033_and_the_scan_discards_expired() -> None:
    """An MQGET that finds nothing says MQRC_NO_MSG_AVAILABLE (EXP-26); the scan button runs the
    profile's scan (the 300 s task on distributed, EXP-28) now."""
    _, _, view = hop()
    send(view, do="get", qmgr="QM2", queue=APP_Q)
    assert view.caption.endswith("no live message, MQRC_NO_MSG_AVAILABLE (2033) (EXP-26)")
    click(view, 1)
    (qm,) = [q for q in view.view.state["qmgrs"] if q["name"] == "QM1"]
    assert qm["scan"] == "run the expiry task now (every 300 s)"
    send(view, do="scan", qmgr="QM1")
    assert tray(view, "QM1") == [("A", "QM2", "transmission queue QM2")]
    assert view.caption.endswith("1 expired discarded (EXP-28)")
    assert view.failures == []


def test_zos_scan_is_refresh_qmgr_type_expiry() -> None:
    sim = mq.Simulation()
    qm = mq.QueueManager("QM1", sim, profile="zos")
    qm.define_qlocal(APP_Q)
    no_syncpoint = mq.PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)  # z/OS puts under syncpoint by default
    mq.Queue(qm, APP_Q).put(b"A", mq.MD(Expiry=5), no_syncpoint)
    view = Topology([qm], [])
    assert view.view.state["qmgrs"][0]["scan"] == "REFRESH QMGR TYPE(EXPIRY)"
    click(view, 1)
    send(view, do="scan", qmgr="QM1")
    assert tray(view, "QM1") == [("A", APP_Q, "queue APP.IN")]
    assert view.failures == []


def test_a_deep_queue_folds_into_a_counted_more_chip() -> None:
    qm1, qm2, channel = network()
    for i in range(CHIPS_PER_QUEUE + 6):
        mq.Queue(qm1, "TO.QM2").put(b"m%d" % i, mq.MD(Expiry=5 if i % 2 else 600))
    view = Topology([qm1, qm2], [channel])
    click(view, 1)
    q = queue(view, "QM1", XMITQ)
    assert len(q["chips"]) == CHIPS_PER_QUEUE
    assert q["more"] == {"count": 6, "expired": 3}
    assert q["curdepth"] == CHIPS_PER_QUEUE + 6


def test_a_bad_action_is_shown_not_raised() -> None:
    _, _, view = hop()
    send(view, do="launch")
    send(view, do="get", qmgr="QM9", queue=APP_Q)
    assert len(view.failures) == 2
    assert "unknown topology action" in view.failures[0]
    assert "no queue manager 'QM9'" in view.failures[1]


def test_a_topology_needs_one_clock() -> None:
    with pytest.raises(ValueError, match="share one Simulation"):
        Topology([mq.QueueManager("QM1"), mq.QueueManager("QM2")], [])
    with pytest.raises(ValueError, match="at least one queue manager"):
        Topology([], [])


def test_a_channels_direction_follows_the_order_of_the_queue_managers_not_the_layout() -> None:
    """Each channel says which way it goes in the order the queue managers are drawn: toward the
    next one (right in a row, down when stacked at 800 px) or the previous one (left, up); the
    view draws the arrow for its layout from it. Reversing the order reverses the direction."""
    qm1, qm2, view = hop()
    there, back = view.channels
    assert {ch["name"]: ch["toward"] for ch in view.view.state["channels"]} == {
        there.name: "next",
        back.name: "previous",
    }
    reversed_view = Topology([qm2, qm1], [there, back])
    assert {ch["name"]: ch["toward"] for ch in reversed_view.view.state["channels"]} == {
        there.name: "previous",
        back.name: "next",
    }
