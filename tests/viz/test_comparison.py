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
