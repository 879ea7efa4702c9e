"""The animated queue view's scenes and steps, checked against hand-worked scenarios.

Each expectation below is worked out by hand from the rule it names (docs/engine.md, "Get and
browse"), not computed by the code under test.
"""

from __future__ import annotations

from typing import Any

import mqlearn as mq
from mqlearn import CMQC as C
from mqlearn.viz import figures
from mqlearn.viz.labels import Labels, data_label, labels_for, letters
from mqlearn.viz.model import WorkbenchModel
from mqlearn.viz.queue_view import QueueStage
from mqlearn.viz.scene import CHIPS_PER_LANE, chips_in_order
from tests.viz.helpers import APP_Q, REPLY_Q, new_model, tags_of


def staged(msgdlvsq: str, *puts: tuple[int, int], report: int = 0) -> QueueStage:
    """A stage on a new model with messages A, B, … put as (Expiry, Priority)."""
    model = new_model(msgdlvsq)
    stage = QueueStage(model)
    for expiry, priority in puts:
        stage.before()
        line = model.put(
            b"data", expiry=expiry, priority=priority, report=report, reply_to_q=REPLY_Q,
            label="auto",
        )  # fmt: skip
        stage.after(line, "put")
    return stage


def act(stage: QueueStage, call: Any, start_after: int | None = None) -> list[dict[str, Any]]:
    stage.before(start_after)
    stage.after(call(), "get")
    transition = stage.transition
    assert transition is not None
    return list(transition["steps"])


def ops(steps: list[dict[str, Any]]) -> list[tuple[str, str | None]]:
    return [(s["op"], s.get("label")) for s in steps]


def scene_states(stage: QueueStage) -> list[tuple[str, str]]:
    return [(c["label"], c["state"]) for c in chips_in_order(stage.view.state["scene"])]


def test_exp23_priority_walk_discards_ahead_returns_and_leaves_the_one_behind() -> None:
    """A (priority 5) expires at 1 s, B (3) lives a minute, C (1) expires at 2 s. At 2 s a get
    looks at A (discards it), then B (returns it) and stops: C is never looked at."""
    stage = staged("PRIORITY", (10, 5), (600, 3), (20, 1))
    stage.model.advance(2_000)
    steps = act(stage, stage.model.get)
    assert ops(steps) == [
        ("visit", "A"),
        ("discard", "A"),
        ("visit", "B"),
        ("return", "B"),
        ("stop", None),
    ]
    assert steps[1]["rule"] == "EXP-23" and steps[-1]["id"] == steps[3]["id"]
    assert scene_states(stage) == [("C", "expired")]  # still counted (EXP-25)
    transition = stage.transition
    assert transition is not None
    c = chips_in_order(stage.view.state["scene"])[0]
    assert transition["stop_mark"] == {"before": c["id"]}
    assert transition["got"]["label"] == "B"
    assert [t["label"] for t in stage.view.state["scene"]["tray"]] == ["A"]
    assert stage.view.state["scene"]["curdepth"] == 1
    assert stage.view.state["scene"]["expired"] == 1


def test_exp22_fifo_walk_discards_every_expired_one_ahead_of_the_first_live() -> None:
    stage = staged("FIFO", (10, 0), (10, 9), (-1, 0), (10, 0))
    stage.model.advance(1_000)
    steps = act(stage, stage.model.get)
    assert [s["label"] for s in steps if s["op"] == "discard"] == ["A", "B"]
    assert {s["rule"] for s in steps if s["op"] == "discard"} == {"EXP-22"}
    assert [s["label"] for s in steps if s["op"] == "return"] == ["C"]
    assert scene_states(stage) == [("D", "expired")]


def test_exp26_a_get_that_finds_nothing_live_discards_all_and_stops_at_the_end() -> None:
    stage = staged("FIFO", (10, 0), (10, 0))
    stage.model.advance(1_000)
    steps = act(stage, stage.model.get)
    assert ops(steps) == [
        ("visit", "A"),
        ("discard", "A"),
        ("visit", "B"),
        ("discard", "B"),
        ("stop", None),
    ]
    assert steps[-1]["id"] is None
    assert steps[-1]["reason"] == C.MQRC_NO_MSG_AVAILABLE and steps[-1]["rule"] == "EXP-26"
    assert scene_states(stage) == []


def test_browse_next_walks_from_the_cursor() -> None:
    """A browse-next starts after the message under the cursor (docs/engine.md)."""
    stage = staged("FIFO", (-1, 0), (10, 0), (-1, 0))
    model = stage.model
    act(stage, lambda: model.get(browse="first"))
    model.advance(1_000)
    cursor = model.handle.cursor_seq
    assert cursor is not None
    steps = act(stage, lambda: model.get(browse="next"), start_after=cursor)
    assert ops(steps) == [
        ("visit", "B"),
        ("discard", "B"),
        ("visit", "C"),
        ("browse", "C"),
        ("stop", None),
    ]
    assert scene_states(stage) == [("A", "live"), ("C", "live")]


def test_rpt02_the_report_step_follows_the_discard_and_reaches_the_reply_queue() -> None:
    stage = staged("FIFO", (10, 0), (-1, 0), report=C.MQRO_EXPIRATION)
    stage.model.advance(1_000)
    steps = act(stage, stage.model.get)
    assert ops(steps)[:3] == [("visit", "A"), ("discard", "A"), ("report", "A")]
    assert "REPLY.Q" in steps[2]["detail"]
    reply = stage.view.state["scene"]["reply"]
    assert reply["curdepth"] == 1 and [c["label"] for c in reply["chips"]] == ["R·A"]


def test_exp28_the_background_scan_sweeps_every_expired_message() -> None:
    stage = staged("FIFO", (10, 0), (-1, 0), (10, 0))
    stage.before()
    stage.after(stage.model.advance(300_000), "advance")
    transition = stage.transition
    assert transition is not None
    sweeps = [s for s in transition["steps"] if s["op"] == "sweep"]
    assert len(sweeps) == 1 and sweeps[0]["rule"] == "EXP-28"
    labels = stage.model.labels
    assert sorted(labels.of(seq) for seq in sweeps[0]["ids"]) == ["A", "C"]
    assert scene_states(stage) == [("B", "live")]


def test_a_large_queue_folds_chips_but_keeps_exact_counts() -> None:
    """10,000 messages, every fourth one short-lived: 2,500 expired after 0.1 s."""
    model = new_model("FIFO")
    assert model.fill(6_000).endswith("5000 put, then failed: MQRC_Q_FULL (2053): "
        "APP.IN holds MAXDEPTH=5000 messages")  # fmt: skip
    model = new_model("FIFO")
    model.qm.alter_qlocal(APP_Q, maxdepth=10_000)
    model.fill(10_000, expiry=600, expired_every=4)
    model.advance(100)
    scene = QueueStage(model).view.state["scene"]
    (lane,) = scene["lanes"]
    assert len(lane["chips"]) == CHIPS_PER_LANE
    drawn_expired = sum(c["state"] == "expired" for c in lane["chips"])
    assert drawn_expired == CHIPS_PER_LANE // 4
    assert lane["more"] == {"count": 10_000 - CHIPS_PER_LANE, "expired": 2_500 - drawn_expired}
    assert scene["curdepth"] == 10_000 and scene["expired"] == 2_500


def test_labels_letters_data_and_short_ids() -> None:
    assert [letters(n) for n in (0, 1, 25, 26, 27, 701, 702)] == [
        "A", "B", "Z", "AA", "AB", "ZZ", "AAA",
    ]  # fmt: skip
    assert data_label(b"A") == "A" and data_label(b"quote 12") == "quote 12"
    assert data_label(b"a longer payload") is None
    assert data_label(b"\x00\x01") is None and data_label(b"") is None
    assert data_label(b" A") is None  # a label never hides white space
    labels = Labels()
    assert labels.of(7) == "#7"
    labels.give(7, "X")
    assert labels.of(7) == "X"
    assert [labels.next_letter(), labels.next_letter(), labels.last_letter] == ["A", "B", "B"]


def test_two_messages_with_one_msg_id_are_told_apart_by_the_views() -> None:
    """The event-identity case: both messages carry MsgId "SAME"; a get matching the CorrelId
    of the second takes the second. The views must say the second was got and the first is
    still there (keyed by MsgId they said the opposite)."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal(APP_Q, msgdlvsq="FIFO")
    q = mq.Queue(qm, APP_Q)
    same = b"SAME".ljust(24, b"\0")
    q.put(b"first", mq.MD(MsgId=same, CorrelId=b"ONE".ljust(24, b"\0")))
    q.put(b"second", mq.MD(MsgId=same, CorrelId=b"TWO".ljust(24, b"\0")))
    model = WorkbenchModel(qm, APP_Q)
    stage = QueueStage(model)
    gmo = mq.GMO(
        Version=C.MQGMO_VERSION_2, Options=C.MQGMO_NO_WAIT, MatchOptions=C.MQMO_MATCH_CORREL_ID
    )
    stage.before()
    assert q.get(None, mq.MD(CorrelId=b"TWO".ljust(24, b"\0")), gmo) == b"second"
    stage.after("got the second", "get")
    assert scene_states(stage) == [("first", "live")]
    transition = stage.transition
    assert transition is not None
    assert [s["label"] for s in transition["steps"] if s["op"] == "return"] == ["second"]
    timeline = figures.timeline(qm, APP_Q)
    assert tags_of(timeline, "got") == ["second"]
    assert tags_of(figures.shelf(qm, APP_Q), "live") == ["first"]
    assert labels_for(qm) is model.labels
