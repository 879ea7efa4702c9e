"""Invariants of the rebuilt history: the views' past agrees with what the engine said then.

Rule EXP-25 (expired, undiscarded messages count in CURDEPTH) and the event log's conservation
law (docs/engine.md): CURDEPTH and the expired count read back from the depth series, at every
moment of a random script, equal what ``qm.curdepth`` and the queue said at that moment.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mqlearn.viz import figures
from mqlearn.viz.history import history
from mqlearn.viz.text import summary
from tests.viz.helpers import APP_Q, new_model

OPS = st.one_of(
    st.tuples(
        st.just("put"),
        st.sampled_from([-1, 1, 5, 10, 20]),
        st.integers(0, 9),
        st.booleans(),
    ),
    st.tuples(st.just("get"), st.booleans()),
    st.tuples(st.just("browse"), st.sampled_from(["first", "next"])),
    st.tuples(st.just("advance"), st.sampled_from([100, 500, 1_000, 2_000])),
    st.tuples(st.sampled_from(["commit", "backout"])),
)


def expired_now(model: object) -> int:
    qm = model.qm  # type: ignore[attr-defined]
    now = qm.sim.now
    store = qm.local(APP_Q).store
    return sum(m.deadline <= now and m.state != 2 for m in store.messages())


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["FIFO", "PRIORITY"]), st.lists(OPS, max_size=30))
def test_exp25_depth_series_replays_curdepth_and_expired_counts(
    msgdlvsq: str, ops: list[tuple[object, ...]]
) -> None:
    model = new_model(msgdlvsq)
    seen: dict[int, tuple[int, int]] = {0: (0, 0)}
    for op in ops:
        kind = op[0]
        if kind == "put":
            _, expiry, priority, syncpoint = op
            model.put(b"m", expiry=expiry, priority=priority, syncpoint=syncpoint)  # type: ignore[arg-type]
        elif kind == "get":
            model.get(syncpoint=bool(op[1]))
        elif kind == "browse":
            model.get(browse=op[1])  # type: ignore[arg-type]
        elif kind == "advance":
            model.advance(op[1])  # type: ignore[arg-type]
        else:
            getattr(model, str(kind))()
        seen[model.now_ms] = (model.qm.curdepth(APP_Q), expired_now(model))
        # the summary line counts from the queue's records, the history from the log: same count
        curdepth, expired_count = seen[model.now_ms]
        lives = history(model.qm, APP_Q).lives
        assert sum(life.expired_at(model.now_ms) for life in lives if life.present) == expired_count
        counts = f"CURDEPTH {curdepth}: {curdepth - expired_count} live, {expired_count} expired"
        assert counts in summary(model.qm, APP_Q)

    times, depth, expired = figures.depth_series(history(model.qm, APP_Q).lives, model.now_ms)
    for t, (curdepth, expired_count) in seen.items():
        i = int(np.searchsorted(times, t, side="right")) - 1
        assert (int(depth[i]), int(expired[i])) == (curdepth, expired_count), t
        shelf = figures.shelf_spec(model.qm, APP_Q, at_ms=t if t < model.now_ms else None)
        assert f"CURDEPTH {curdepth}, {expired_count} expired" in shelf.layout["title"]["text"]
