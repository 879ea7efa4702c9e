"""The replay kernel's discard walk mirrors the engine's (rules EXP-21..24, EXP-27).

``mqlearn.engine.mqget.walk`` is the engine's one home of the walk; ``kernel._walk`` (a plain get
or browse) and ``kernel._walk_index`` (a get matching the CorrelId) mirror it in compiled code.
Hypothesis writes one queue state: FIFO or PRIORITY, messages with priorities, lifetimes and
CorrelIds, some already got (so the engine holds tombstones and the kernel GONE messages), some
not put yet (the kernel's FUTURE ones), and the time of the walk. The engine holds that state
through its public API and makes the get; the kernel's walk runs on the arrays the replay would
build for it. Both must discard the same messages, in the same order, and return the same one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import mqlearn as mq
from mqlearn import CMQC as C
from mqlearn.engine.rule_formulas import deadline_of, lane
from mqlearn.pipeline import kernel as K

DEFPRTY = 4
MAXPRTY = 9
CORRELIDS = [bytes([n]) * 24 for n in (1, 2)]


@dataclass(frozen=True)
class Message:
    priority: int
    expiry: int  # tenths; -1 unlimited
    correl: int  # index into CORRELIDS
    got: bool  # got (by its MsgId) before the walk
    future: bool  # put after the walk (the kernel has its row; the engine has not had its put)


MESSAGES = st.lists(
    st.builds(
        Message,
        st.integers(0, 9),
        st.one_of(st.just(C.MQEI_UNLIMITED), st.integers(1, 50)),
        st.integers(0, 1),
        st.booleans(),
        st.booleans(),
    ),
    min_size=1,
    max_size=14,
).map(lambda ms: sorted(ms, key=lambda m: m.future))  # what is not put yet arrives last


def engine_walk(
    messages: list[Message], fifo: bool, now_tenths: int, correl: int | None
) -> tuple[list[int], int | None]:
    """Discarded messages (arrival indexes, in discard order) and the one the get returns."""
    qm = mq.QueueManager("QM1")
    qm.alter_qmgr(expryint=0)
    qm.define_qlocal("Q", msgdlvsq="FIFO" if fifo else "PRIORITY", defprty=DEFPRTY)
    queue = mq.Queue(qm, "Q")
    arrival: dict[bytes, int] = {}
    for i, m in enumerate(messages):
        if m.future:
            continue
        md = mq.MD(Priority=m.priority, Expiry=m.expiry, CorrelId=CORRELIDS[m.correl])
        queue.put(b"x", md)
        arrival[md.MsgId] = i
    for msgid, i in arrival.items():
        if messages[i].got:  # at time 0 nothing has expired: a matched get takes just this one
            gmo = mq.GMO(Options=C.MQGMO_NO_SYNCPOINT, MatchOptions=C.MQMO_MATCH_MSG_ID)
            queue.get(None, mq.MD(MsgId=msgid), gmo)
    qm.sim.run_until(now_tenths * 100)
    first_event = len(qm.events)
    md = mq.MD(CorrelId=CORRELIDS[correl]) if correl is not None else mq.MD()
    match = C.MQMO_MATCH_CORREL_ID if correl is not None else C.MQMO_NONE
    returned: int | None
    try:
        queue.get(None, md, mq.GMO(Options=C.MQGMO_NO_SYNCPOINT, MatchOptions=match))
        returned = arrival[md.MsgId]
    except mq.MQMIError as error:
        assert error.reason == C.MQRC_NO_MSG_AVAILABLE
        returned = None
    discards = [arrival[e.msg_id] for e in qm.events[first_event:] if e.kind == "discard"]
    return discards, returned


def kernel_walk(
    messages: list[Message], fifo: bool, now_tenths: int, correl: int | None
) -> tuple[list[int], int | None]:
    """The same state as the replay's arrays (one partition) and the kernel's walk on it."""
    lanes = [lane(m.priority, MAXPRTY, fifo, DEFPRTY) for m in messages]
    order = sorted(range(len(messages)), key=lambda i: (-lanes[i], i))  # delivery order
    lane_start = np.searchsorted(
        -np.array([lanes[i] for i in order]), -np.arange(K.LANES - 1, -2, -1), side="left"
    ).astype(np.int64)  # lane L is the block lane_start[9 - L] : lane_start[10 - L]
    state = np.array(
        [
            K.FUTURE if messages[i].future else K.GONE if messages[i].got else K.PRESENT
            for i in order
        ],
        dtype=np.int8,
    )
    msgs = K.Messages(
        np.array([deadline_of(messages[i].expiry, 0) for i in order], dtype=np.int64),
        np.array([lanes[i] for i in order], dtype=np.int64),
        np.zeros(len(order), dtype=np.int64),
        state,
        np.zeros(len(order), dtype=np.int8),
        np.full(len(order), -1, dtype=np.int64),
        np.full(len(order), -1, dtype=np.int64),
    )
    cnt = np.zeros(K.LANES, dtype=np.int64)
    for p in range(len(order)):
        cnt[msgs.lane_of[p]] += state[p] == K.PRESENT
    depths = K.Depths(cnt, np.array([cnt.sum(), 0, 0], dtype=np.int64))
    now, row = now_tenths * 100, 7
    if correl is None:
        head = np.array([lane_start[K.LANES - 1 - n] for n in range(K.LANES)], dtype=np.int64)
        found = K._walk(0, 0, now, row, K.BY_GET, lane_start, head, msgs, depths)
    else:
        correls = np.array([messages[i].correl for i in order], dtype=np.int64)
        index = np.flatnonzero(correls == correl).astype(np.int64)
        heads = np.arange(len(index), dtype=np.int64)
        found = K._walk_index(
            index, heads, 0, len(index), -1, -1, now, row, K.BY_GET, correls, msgs, depths
        )
    discarded = [p for p in range(len(order)) if msgs.end_kind[p] == K.BY_GET]
    assert all(msgs.end_row[p] == row for p in discarded)
    # both walks go in delivery order, so the discard order is the position order
    return [order[p] for p in discarded], None if found < 0 else order[found]


@settings(max_examples=300, deadline=None)
@given(MESSAGES, st.booleans(), st.integers(0, 60), st.sampled_from([None, 0, 1]))
def test_the_kernels_walk_discards_and_returns_what_the_engines_does(
    messages: list[Message], fifo: bool, now_tenths: int, correl: int | None
) -> None:
    engine = engine_walk(messages, fifo, now_tenths, correl)
    assert kernel_walk(messages, fifo, now_tenths, correl) == engine


def test_the_mirror_is_not_vacuous_exp23_discards_ahead_and_leaves_the_one_behind() -> None:
    """A PRIORITY queue: p8 expired, p5 expired, p5 live, p5 expired, p2 expired (delivery
    order): both walks discard the first two and return the live p5 (rule EXP-23)."""
    messages = [
        Message(5, 10, 0, False, False),
        Message(5, C.MQEI_UNLIMITED, 0, False, False),
        Message(8, 10, 0, False, False),
        Message(2, 10, 0, False, False),
        Message(5, 10, 0, False, False),
    ]
    for walk in (engine_walk, kernel_walk):
        assert walk(messages, False, 20, None) == ([2, 0], 1)
        assert walk(messages, True, 20, None) == ([0], 1)  # FIFO, one lane: EXP-22
