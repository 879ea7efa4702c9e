"""The GroupId index (issue 23 item 3, issue 24): a get by MQMO_MATCH_GROUP_ID looks its group up
instead of walking the queue, and a put adds one entry in place, so neither depends on the depth.

No timing asserts: the tests ask the store what it holds and make a queue walk fail outright, so
an engine that scans the queue for every matched get, or copies a group's entries on every put,
fails them at any machine speed (rule EXP-27: only matching messages are candidates).
"""

from __future__ import annotations

from collections import deque

import pytest

import mqlearn as mq
from mqlearn import CMQC as C
from tests.engine.helpers import APP_Q, new_qm

BY_GROUP = {"Version": 2, "MatchOptions": C.MQMO_MATCH_GROUP_ID}
NO_SYNC = mq.PMO(Options=C.MQPMO_NO_SYNCPOINT)


def group_put(q: mq.Queue, data: bytes, group: bytes, seq: int, flags: int) -> None:
    md = mq.MD(Version=2, GroupId=group, MsgSeqNumber=seq, MsgFlags=flags)
    q.put(data, md, NO_SYNC)


def by_group(q: mq.Queue, group: bytes) -> bytes:
    md = mq.MD(Version=2, GroupId=group)
    return q.get(None, md, mq.GMO(Options=C.MQGMO_NO_SYNCPOINT, **BY_GROUP))


@pytest.mark.parametrize("msgdlvsq", ["FIFO", "PRIORITY"])
def test_exp27_a_get_by_group_id_never_walks_the_queue_once_indexed(
    msgdlvsq: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the first get by GroupId builds the index, gets by GroupId (and logical-order gets
    inside a group) find their messages with the queue walk disabled: they cost the group's
    size, not the queue's depth."""
    qm = new_qm()
    qm.define_qlocal(APP_Q, msgdlvsq=msgdlvsq, maxdepth=100_000)
    q = mq.Queue(qm, APP_Q)
    g, h = b"G".ljust(24, b"\0"), b"H".ljust(24, b"\0")
    for i in range(2_000):
        q.put(b"plain %d" % i, mq.MD(Priority=i % 10), NO_SYNC)
    group_put(q, b"h1", h, 1, C.MQMF_LAST_MSG_IN_GROUP)
    group_put(q, b"g1", g, 1, C.MQMF_MSG_IN_GROUP)
    group_put(q, b"g2", g, 2, C.MQMF_LAST_MSG_IN_GROUP)
    assert by_group(q, h) == b"h1"  # builds the index
    store = qm.local(APP_Q).store

    def no_walk(*_: object) -> object:
        raise AssertionError("a matched get walked the queue")

    monkeypatch.setattr(type(store), "records", no_walk)
    monkeypatch.setattr(store, "lanes", [_Unwalkable(lane) for lane in store.lanes])
    assert by_group(q, g) == b"g1"
    assert by_group(q, g) == b"g2"
    group_put(q, b"g3", g, 3, C.MQMF_LAST_MSG_IN_GROUP)  # a put after the index exists
    assert by_group(q, g) == b"g3"
    assert qm.curdepth(APP_Q) == 2_000


class _Unwalkable(deque):  # type: ignore[type-arg]
    """A lane that fails when iterated (appending, popping and indexing still work)."""

    def __iter__(self) -> object:  # type: ignore[override]
        raise AssertionError("a matched get walked a lane")


def test_exp27_group_entries_grow_in_place_and_ungrouped_puts_add_nothing() -> None:
    """Once built, the index keeps one entry per grouped message, added in place (the entries
    of a group are the same dict before and after 500 more puts to it); messages in no group
    are not indexed at all. Copying the entries on every put is the quadratic cost issue 23
    found for CorrelId."""
    qm = new_qm()
    qm.define_qlocal(APP_Q, maxdepth=100_000)
    q = mq.Queue(qm, APP_Q)
    g = b"BIG".ljust(24, b"\0")
    group_put(q, b"g1", g, 1, C.MQMF_MSG_IN_GROUP)
    group_put(q, b"g2", g, 2, C.MQMF_MSG_IN_GROUP)
    other = b"OTHER".ljust(24, b"\0")
    group_put(q, b"o1", other, 1, C.MQMF_LAST_MSG_IN_GROUP)
    assert by_group(q, other) == b"o1"
    store = qm.local(APP_Q).store
    index = store._by_groupid
    assert index is not None
    entries = index[g]
    assert isinstance(entries, dict) and len(entries) == 2 + 1  # + the entry that keeps it tracked
    for seq in range(3, 503):
        group_put(q, b"g%d" % seq, g, seq, C.MQMF_MSG_IN_GROUP)
        assert index[g] is entries
    for i in range(500):
        q.put(b"plain %d" % i, mq.MD(), NO_SYNC)
    assert len(entries) == 502 + 1 and len(index) == 1 + 1  # group g, and the tracked entry
    assert by_group(q, g) == b"g1"
    assert len(entries) == 501 + 1
