"""The workbench's controls without a browser: step, undo, redo, reset, queue type, profile.

Undo is checked against an independent path: a fresh model that runs the same actions minus the
undone one must end in exactly the same state (queue, event log, clock, labels).
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mqlearn as mq
from mqlearn.viz import Workbench
from mqlearn.viz.model import WorkbenchModel
from mqlearn.viz.scene import chips_in_order
from tests.viz.helpers import new_model

Action = tuple[str, dict[str, Any]]


def state(model: WorkbenchModel) -> tuple[Any, ...]:
    """Everything a learner can observe of a model."""
    qm = model.qm
    frame = qm.queue_frame(model.queue).to_dict("records")
    labels = [model.labels.of(e.msg_seq) for e in qm.events if e.msg_seq is not None]
    return qm.sim.now, frame, list(qm.events), labels, model.last_result


ACTIONS = st.one_of(
    st.builds(
        lambda e, p: ("put", {"expiry": e, "priority": p, "label": "auto"}),
        st.sampled_from([1, 10, 25, 600, -1]),
        st.integers(0, 9),
    ),
    st.just(("get", {})),
    st.just(("get", {"browse": "first"})),
    st.just(("get", {"browse": "next", "lock": True})),
    st.just(("get", {"syncpoint": True})),
    st.just(("commit", {})),
    st.just(("backout", {})),
    st.builds(lambda ms: ("advance", {"ms": ms}), st.sampled_from([100, 1_000, 300_000])),
    st.builds(lambda n: ("fill", {"count": n, "expired_every": 3}), st.integers(1, 12)),
)


def run(model: WorkbenchModel, actions: list[Action]) -> None:
    for name, kwargs in actions:
        getattr(model, name)(**kwargs)


@settings(max_examples=60, deadline=None)
@given(st.lists(ACTIONS, min_size=1, max_size=25), st.sampled_from(["FIFO", "PRIORITY"]))
def test_undo_restores_exactly_what_running_one_action_fewer_gives(
    actions: list[Action], msgdlvsq: str
) -> None:
    model = new_model(msgdlvsq)
    model.undoable = True
    run(model, actions)
    after_all = state(model)
    model.undo()
    fresh = new_model(msgdlvsq)
    run(fresh, actions[:-1])
    assert state(model)[:4] == state(fresh)[:4]
    model.redo()
    assert state(model) == after_all


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.one_of(ACTIONS, st.just(("undo", {}))), min_size=1, max_size=40),
    st.sampled_from(["FIFO", "PRIORITY"]),
)
def test_undos_between_actions_leave_what_the_actions_still_done_give(
    ops: list[Action], msgdlvsq: str
) -> None:
    """However undos and new actions interleave (and so whichever snapshots the journal keeps),
    the state is that of a fresh run of the actions not undone."""
    model = new_model(msgdlvsq)
    model.undoable = True
    kept: list[Action] = []
    for name, kwargs in ops:
        if name == "undo":
            model.undo()
            kept = kept[:-1]
        else:
            getattr(model, name)(**kwargs)
            kept.append((name, kwargs))
    fresh = new_model(msgdlvsq)
    run(fresh, kept)
    assert state(model)[:4] == state(fresh)[:4]


def test_an_undo_does_not_force_a_snapshot_of_the_next_action() -> None:
    model = new_model()
    model.undoable = True
    model.fill(20)  # the first action snapshots; the next one too (20 messages since)
    model.put(label="auto")
    model.get()
    model.undo()
    model.get()  # one message's worth since the put's snapshot: none needed
    snapshots = [entry.snapshot is not None for entry in model._journal]
    assert snapshots == [True, True, False]


def test_undo_twice_then_a_new_action_forgets_the_redo() -> None:
    model = new_model("FIFO")
    model.undoable = True
    assert model.undo() == "Nothing to undo" and model.redo() == "Nothing to redo"
    model.put(b"a", expiry=10, label="auto")
    model.put(b"b", label="auto")
    model.advance(2_000)
    model.undo()
    model.undo()
    assert (model.now_ms, model.qm.curdepth("APP.IN")) == (0, 1)
    assert model.can_redo
    model.put(b"c", label="auto")
    assert not model.can_redo
    assert [model.labels.of(m.seq) for m in model.qm.local("APP.IN").store.messages()] == [
        "A",
        "B",  # letters count again from the restored state: B is free once more
    ]


def test_step_reveals_one_candidate_per_click_then_starts_a_new_get() -> None:
    wb = Workbench()
    for expiry, priority in ((10, 5), (600, 3), (20, 1)):
        wb.expiry.value, wb.priority.value = expiry, priority
        wb.put_button.click()
    wb.advance_buttons[1].click()
    wb.advance_buttons[1].click()
    wb.step_button.click()
    transition = wb.queue_view.state["transition"]
    assert transition["manual"] and len(transition["steps"]) == 5
    assert wb.queue_view.shown == 1
    for shown in (2, 3, 4, 5):
        wb.step_button.click()
        assert wb.queue_view.shown == shown
    assert not wb.stage.pending
    assert transition["before"]["curdepth"] == 3  # what a step back redraws the walk from
    wb.step_back_button.click()
    assert wb.queue_view.shown == 4 and wb.stage.pending  # the picture only: the get has run
    assert wb.model.qm.curdepth("APP.IN") == 1
    for shown in (3, 2, 1, 0):
        assert not wb.step_back_button.disabled
        wb.step_back_button.click()
        assert wb.queue_view.shown == shown
    assert wb.step_back_button.disabled and not wb.stage.step_back()
    for _ in range(5):
        wb.step_button.click()
    assert wb.queue_view.shown == 5 and not wb.stage.pending
    wb.step_button.click()  # all shown: a new get, which discards C and finds nothing live
    assert "MQRC_NO_MSG_AVAILABLE" in wb.model.last_result
    assert [s["op"] for s in wb.queue_view.state["transition"]["steps"]][:2] == ["visit", "discard"]
    assert wb.failures == []


def test_step_back_is_for_walks_shown_by_hand_only() -> None:
    wb = Workbench()
    assert wb.step_back_button.disabled  # nothing shown yet
    wb.put_button.click()
    wb.get_button.click()  # played by the view, not by hand: its scrubber goes back, not Back
    assert wb.step_back_button.disabled and not wb.stage.step_back()
    assert wb.queue_view.state["transition"]["before"]["curdepth"] == 1  # what the scrubber redraws
    assert wb.failures == []


def test_undo_redo_buttons_follow_the_journal() -> None:
    wb = Workbench()
    assert wb.undo_button.disabled and wb.redo_button.disabled
    wb.expiry.value = 10
    wb.put_button.click()
    assert not wb.undo_button.disabled
    wb.undo_button.click()
    assert wb.model.qm.curdepth("APP.IN") == 0 and not wb.redo_button.disabled
    assert chips_in_order(wb.queue_view.state["scene"]) == []
    wb.redo_button.click()
    assert [c["label"] for c in chips_in_order(wb.queue_view.state["scene"])] == ["A"]
    assert wb.failures == []


def test_queue_type_and_profile_start_again_with_visible_defaults() -> None:
    wb = Workbench()
    assert (wb.queue_type.value, wb.profile.value, wb.browse.value) == (
        "FIFO",  # as the workbench's introduction starts
        "distributed",
        "get",
    )
    assert wb.reset_button.description == "Reset (FIFO, distributed)"
    wb.put_button.click()
    wb.queue_type.value = "PRIORITY"
    assert wb.model.msgdlvsq == "PRIORITY" and wb.model.qm.curdepth("APP.IN") == 0
    assert wb.queue_view.state["scene"]["msgdlvsq"] == "PRIORITY"
    wb.profile.value = "ibmi"
    assert wb.model.qm.profile == "ibmi" and wb.expiry.description == "MDEXP"
    assert wb.queue_type.value == "PRIORITY"  # the other choice is kept
    assert wb.reset_button.description == "Reset (PRIORITY, ibmi)"
    wb.put_button.click()
    wb.reset_button.click()
    assert wb.model.qm.curdepth("APP.IN") == 0
    assert wb.result.value == "Reset: an empty PRIORITY queue APP.IN on a new QM1, profile ibmi"
    assert wb.failures == []


def test_replay_says_what_it_shows_and_a_repeated_empty_get_still_changes_the_view() -> None:
    wb = Workbench()
    wb.expiry.value = 10
    wb.put_button.click()
    wb.advance_buttons[2].click()
    wb.replay_at(0.5)
    assert "as it was at 0.5 s (now 10.0 s)" in wb.result.value
    assert wb.queue_view.state["scene"]["live"] is False
    assert [c["state"] for c in chips_in_order(wb.queue_view.state["scene"])] == ["live"]
    wb.live_button.click()
    assert "Clock +10 s" in wb.result.value and wb.queue_view.state["scene"]["live"]
    wb.get_button.click()
    first = wb.queue_view.state["transition"]["summary"]
    wb.get_button.click()
    second = wb.queue_view.state["transition"]["summary"]
    assert "found no live message (EXP-26)" in second and first != second
    assert wb.failures == []


def test_the_workbench_loads_plotly_and_numpy_only_when_its_charts_are_first_opened() -> None:
    """A page with only the queue view must not pay for plotly or numpy (first paint)."""
    program = """
import sys
from mqlearn.viz import Workbench
wb = Workbench()
wb.put_button.click(); wb.get_button.click(); wb.step_button.click(); wb.undo_button.click()
assert "plotly" not in sys.modules, "plotly loaded before the charts were opened"
assert "numpy" not in sys.modules, "numpy loaded before the charts were opened"
wb.charts.selected_index = 0
assert "plotly" in sys.modules and wb.chart_box.children, "opening the charts drew nothing"
assert wb.failures == [], wb.failures
"""
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_speed_sets_how_fast_the_view_plays_and_survives_a_reset() -> None:
    wb = Workbench()
    assert wb.speed.value == 1.0 == wb.queue_view.speed  # a visible default
    wb.speed.value = 0.0
    assert wb.queue_view.speed == 0.0
    wb.reset()
    assert wb.speed.value == 0.0 == wb.queue_view.speed
    assert wb.failures == []


def test_the_result_line_waits_for_the_walk_and_step_says_it_calls_a_new_get() -> None:
    """Pacing: a get's outcome shows in the result line only when the view reports its walk
    played to the end; Step ▸ says when its next click calls a new (destructive) MQGET."""
    wb = Workbench()
    assert wb.step_button.description == "Step ▸ a new MQGET"
    wb.expiry.value = 10
    wb.put_button.click()
    assert wb.result.value.startswith("MQPUT OK: A")  # a put has no walk to wait for
    wb.advance_buttons[1].click()
    wb.get_button.click()
    n = wb.queue_view.state["transition"]["n"]
    assert wb.result.value == (
        "MQGET on APP.IN: follow its walk in the view below; the outcome shows here when the "
        "walk reaches it"
    )
    wb.queue_view.finished = n  # what the browser sends at the walk's last step
    assert wb.result.value.startswith("MQGET failed: MQRC_NO_MSG_AVAILABLE (2033)")
    wb.undo_button.click()
    wb.step_button.click()  # by hand: the first step shown, the outcome held
    assert wb.step_button.description == "Step ▸" and wb.result.value.startswith("MQGET on")
    while wb.stage.pending:
        wb.step_button.click()
    assert wb.result.value.startswith("MQGET failed: MQRC_NO_MSG_AVAILABLE (2033)")
    assert wb.step_button.description == "Step ▸ a new MQGET"
    wb.speed.value = 0.0  # "at once": nothing to wait for
    wb.get_button.click()
    assert wb.result.value.startswith("MQGET failed")
    assert wb.failures == []


def test_a_get_that_finds_nothing_cites_one_rule_per_event() -> None:
    """The discards of a walk that ends empty cite EXP-22 in every line; EXP-26 is the end's."""
    wb = Workbench()
    wb.expiry.value = 10
    wb.put_button.click()
    wb.advance_buttons[1].click()
    wb.get_button.click()
    t = wb.queue_view.state["transition"]
    assert [(s["op"], s["rule"]) for s in t["steps"]] == [
        ("visit", ""),
        ("discard", "EXP-22"),
        ("stop", "EXP-26"),
    ]
    assert "discarded A (EXP-22); found no live message (EXP-26)" in t["summary"]
    assert "(EXP-22)" in wb.model.last_result and "EXP-26" not in wb.model.last_result


def test_a_workbench_on_an_existing_queue_shows_it_as_defined() -> None:
    """A program's queue (notebook 10's DEV.QUEUE.2, PRIORITY by default) opens as it is; a new
    queue starts FIFO, as the introduction says; asking for another type is an error."""
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("DEV.QUEUE.2")  # MSGDLVSQ(PRIORITY), MQ's default
    assert Workbench(qm, queue="DEV.QUEUE.2", reply_q=None).model.msgdlvsq == "PRIORITY"
    assert Workbench(qm, queue="NEW.Q", reply_q=None).model.msgdlvsq == "FIFO"
    with pytest.raises(ValueError, match=r"DEV.QUEUE.2 exists with MSGDLVSQ\(PRIORITY\)"):
        Workbench(qm, queue="DEV.QUEUE.2", msgdlvsq="FIFO", reply_q=None)
