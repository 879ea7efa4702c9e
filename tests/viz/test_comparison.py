"""The side-by-side view without a browser: one naming scheme per queue manager, both queues
stepping together, Undo/Redo of the panel's actions, the workbench's controls."""

from __future__ import annotations

import mqlearn as mq
from mqlearn.checks import Letters
from mqlearn.viz import Comparison
from mqlearn.viz.labels import letters

PRELOADED = "ABCDE"  # notebook 03's playground: five messages whose data is their letter


def playground() -> mq.QueueManager:
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("FIFO.Q", msgdlvsq="FIFO")
    qm.define_qlocal("PRIORITY.Q", msgdlvsq="PRIORITY")
    named = Letters()
    for queue in ("FIFO.Q", "PRIORITY.Q"):
        for letter in PRELOADED:
            named.put(mq.Queue(qm, queue), letter, mq.MD(Expiry=10))
    return qm


def put(cmp: Comparison, data: str, expiry: int = 600, priority: int = 0) -> None:
    cmp.data.value, cmp.expiry.value, cmp.priority.value = data, expiry, priority
    cmp.put_button.click()


def test_letters_are_never_reused_while_the_queue_manager_lives() -> None:
    """Puts X, Y, Z after A-E were put as data are F, G, H (not A, B, C again), on both queues,
    and 30 puts give 30 letters none of which any other message has had."""
    cmp = Comparison(playground())
    for data in "XYZ":
        put(cmp, data)
    assert [v.result.value.split(" (MsgId")[0] for v in cmp.views] == ["MQPUT OK: H"] * 2
    for n in range(27):
        put(cmp, f"m{n}")
    for model in cmp.models:
        labels = [model.labels.remember(m) for m in model.qm.local(model.queue).store.views()]
        assert labels == [*PRELOADED, *(letters(i) for i in range(5, 35))]
        assert len(set(labels)) == len(labels)
    assert cmp.failures == []


def walk_of(cmp: Comparison) -> list[list[tuple[str, str | None]]]:
    return [
        [(s["op"], s.get("label")) for s in stage.view.state["transition"]["steps"]]
        for stage in cmp.stages
    ]


def test_the_workbench_controls_and_the_two_containers() -> None:
    cmp = Comparison()
    classes = set()
    todo = [cmp.widget]
    while todo:
        w = todo.pop()
        classes |= set(w._dom_classes)
        todo += list(getattr(w, "children", ()))
    for hook in (
        "mq-put", "mq-get", "mq-step", "mq-step-back", "mq-speed", "mq-undo", "mq-redo",
        "mq-advance-100ms", "mq-advance-1s", "mq-advance-10s", "mq-data", "mq-expiry",
        "mq-priority", "mq-result", "mq-compare-fifo", "mq-compare-priority",
    ):  # fmt: skip
        assert hook in classes, hook


def test_both_queues_step_together_one_step_of_each_per_click() -> None:
    """EXP-22 vs EXP-23 stepped by hand: A (priority 0) and C (priority 9) expired, B live.
    FIFO walks A, B; PRIORITY walks C, B: each click shows one more step of each."""
    cmp = Comparison()
    put(cmp, "a", expiry=10, priority=0)
    put(cmp, "b", expiry=-1, priority=5)
    put(cmp, "c", expiry=10, priority=9)
    cmp.advance_buttons[1].click()
    assert cmp.step_button.description == "Step ▸ a new MQGET"
    cmp.step_button.click()
    assert [s.view.shown for s in cmp.stages] == [1, 1]
    assert walk_of(cmp)[0][:2] == [("visit", "A"), ("discard", "A")]
    assert walk_of(cmp)[1][:2] == [("visit", "C"), ("discard", "C")]
    assert cmp.step_button.description == "Step ▸"
    cmp.step_button.click()
    assert [s.view.shown for s in cmp.stages] == [2, 2]
    cmp.step_back_button.click()
    assert [s.view.shown for s in cmp.stages] == [1, 1]
    while any(s.pending for s in cmp.stages):
        cmp.step_button.click()
    fifo, prio = (v.result.value for v in cmp.views)
    assert fifo.startswith("MQGET OK: B") and "A (MsgId QM1#1) (EXP-22)" in fifo
    assert prio.startswith("MQGET OK: B") and "C (MsgId QM1#6) (EXP-23)" in prio
    assert cmp.failures == []


def test_undo_and_redo_move_both_queues_between_exact_states() -> None:
    cmp = Comparison(playground())
    assert cmp.undo_button.disabled and cmp.redo_button.disabled
    put(cmp, "X", expiry=-1, priority=5)
    cmp.advance_buttons[1].click()  # A-E expire
    cmp.get_button.click()
    after_get = [cmp.qm.curdepth(q) for q in ("FIFO.Q", "PRIORITY.Q")]
    assert after_get == [0, 5]  # FIFO: A-E discarded ahead of F (EXP-22); PRIORITY: F first
    cmp.undo_button.click()
    assert [cmp.qm.curdepth(q) for q in ("FIFO.Q", "PRIORITY.Q")] == [6, 6]
    assert cmp.qm.sim.now == 1_000 and not cmp.redo_button.disabled
    cmp.redo_button.click()
    assert [cmp.qm.curdepth(q) for q in ("FIFO.Q", "PRIORITY.Q")] == after_get
    cmp.undo_button.click()
    cmp.undo_button.click()
    cmp.undo_button.click()
    assert cmp.qm.sim.now == 0 and cmp.undo_button.disabled
    put(cmp, "Y")  # a new action forgets the redo; the letter is F again: F was undone
    assert cmp.redo_button.disabled
    assert [v.result.value.split(" (MsgId")[0] for v in cmp.views] == ["MQPUT OK: F"] * 2
    assert cmp.failures == []


def test_speed_sets_both_views() -> None:
    cmp = Comparison()
    cmp.speed.value = 0.5
    assert [s.view.speed for s in cmp.stages] == [0.5, 0.5]
