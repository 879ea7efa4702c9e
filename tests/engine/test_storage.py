"""Storage of queued messages: what the cyclic garbage collector and the allocator see.

No behaviour rule: docs/engine.md ("Storage") promises that a queued message is kept in a form
the collector does not track, so that a full collection does not walk the queue and a deep queue
does not slow a long-running program down, and that it takes at most 400 bytes besides its data.
These tests ask CPython itself (``gc.is_tracked``, ``gc.get_objects``, ``tracemalloc``), never
the engine, and assert counts and sizes, never times.
"""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Iterator

import pytest

import mqlearn as mq
from mqlearn import CMQC as C
from mqlearn.engine.message import AVAILABLE, GOT_IN_UOW, UNCOMMITTED_PUT
from tests.engine.helpers import APP_Q, get, new_qm, put

MEMORY_LIMIT = 400  # bytes per queued message besides its data (docs/engine.md, "Storage")


def queued(qm: mq.QueueManager, name: str = APP_Q) -> Iterator[object]:
    """What the store keeps for each message on a queue (its lanes' entries)."""
    for lane in qm.local(name).store.lanes:
        yield from lane


def filled(msgdlvsq: str, depth: int) -> mq.QueueManager:
    """A queue manager whose queue holds ``depth`` messages put as a program puts them: expiry and
    priority varied, a few got, a few expired and discarded on the way (events recorded)."""
    qm = new_qm()
    qm.define_qlocal(APP_Q, msgdlvsq=msgdlvsq, maxdepth=10 * depth)
    q = mq.Queue(qm, APP_Q)
    for i in range(depth + depth // 10):
        put(q, b"m%d" % i, Expiry=1 if i % 10 == 3 else -1, Priority=i % 10)
    qm.sim.advance(ms=1_000)
    for _ in range(depth // 20):
        get(q)  # discards the expired ones met on the way
    return qm


def tracked_after_collection() -> int:
    gc.collect()
    return len(gc.get_objects())


@pytest.mark.parametrize("msgdlvsq", ["FIFO", "PRIORITY"])
def test_queued_messages_are_not_tracked_after_a_collection(msgdlvsq: str) -> None:
    """Plain puts, puts with non-initial descriptor fields, with set context, committed puts
    and messages the queue manager puts itself (expiration reports): none is tracked."""
    qm = new_qm()
    qm.define_qlocal(APP_Q, msgdlvsq=msgdlvsq)
    qm.define_qlocal("REPLY")
    q = mq.Queue(qm, APP_Q)
    put(q, b"short", Expiry=1, Report=C.MQRO_EXPIRATION, ReplyToQ="REPLY")
    put(q, b"plain")
    put(q, b"fields", Format=C.MQFMT_STRING, Report=C.MQRO_EXPIRATION, ReplyToQ="REPLY")
    put(q, b"context", pmo_options=C.MQPMO_SET_ALL_CONTEXT, UserIdentifier="alice")
    put(q, b"unit of work", pmo_options=C.MQPMO_SYNCPOINT, Priority=7)
    qm.commit()
    qm.sim.advance(ms=500)
    qm.scan()  # discards "short": its expiration report is put on REPLY
    # A collection untracks a tuple whose items are untracked by then; the record of a message
    # with non-initial fields holds a tuple of its own, which the same collection may reach later
    gc.collect()
    gc.collect()
    stored = list(queued(qm)) + list(queued(qm, "REPLY"))
    assert len(stored) == 5, "four messages on APP.IN, the report on REPLY"
    assert [gc.is_tracked(entry) for entry in stored] == [False] * 5


def test_a_message_in_an_open_unit_of_work_is_tracked_until_it_ends() -> None:
    """While a unit of work is open its messages carry state a record cannot (they are objects
    the collector tracks); after the commit they are records again."""
    qm = new_qm()
    qm.define_qlocal(APP_Q)
    q = mq.Queue(qm, APP_Q)
    mark = tracked_after_collection()
    for i in range(200):
        put(q, b"u%d" % i, pmo_options=C.MQPMO_SYNCPOINT)
    assert tracked_after_collection() - mark >= 200
    qm.commit()
    assert tracked_after_collection() - mark < 50


@pytest.mark.parametrize("msgdlvsq", ["FIFO", "PRIORITY"])
def test_tracked_objects_do_not_grow_with_depth(msgdlvsq: str) -> None:
    """A queue 20 times deeper adds no more tracked objects than a shallow one (a count, taken
    from the collector's own list, of a whole queue manager with its event log)."""
    growth = {}
    for depth in (1_000, 20_000):
        before = tracked_after_collection()
        qm = filled(msgdlvsq, depth)
        assert qm.curdepth(APP_Q) >= depth
        growth[depth] = tracked_after_collection() - before
        del qm
    assert growth[20_000] - growth[1_000] < 100, growth


def test_bytes_per_queued_message_are_at_most_400() -> None:
    """tracemalloc: a PRIORITY queue filled with 20,000 messages (events recorded, payloads made
    beforehand) costs at most 400 bytes per message besides the payloads."""
    n = 20_000
    payloads = [b"payload-%09d" % i for i in range(n)]
    qm = new_qm()
    qm.define_qlocal(APP_Q, msgdlvsq="PRIORITY", maxdepth=n)
    q = mq.Queue(qm, APP_Q)
    pmo = mq.PMO(Options=C.MQPMO_NO_SYNCPOINT)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i, payload in enumerate(payloads):
            q.put(payload, mq.MD(Expiry=-1 if i % 2 else 100_000, Priority=i % 10), pmo)
        gc.collect()
        used = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert qm.curdepth(APP_Q) == n
    assert used / n <= MEMORY_LIMIT, f"{used / n:.1f} bytes per queued message"


@pytest.mark.parametrize("msgdlvsq", ["FIFO", "PRIORITY"])
def test_views_show_each_message_in_every_state(msgdlvsq: str) -> None:
    """The read-only views the widgets draw from (``LocalStore.views``) carry each record's
    fields with the state, lock and BackoutCount the store keeps beside it, for plain,
    non-initial-field, set context, uncommitted, got-in-a-unit-of-work, locked and backed-out
    messages, in delivery order."""
    qm = new_qm()
    qm.define_qlocal(APP_Q, msgdlvsq=msgdlvsq)
    q = mq.Queue(qm, APP_Q)
    put(q, b"taken", Priority=9)
    put(q, b"backed out", Priority=8)
    put(q, b"plain", Priority=2)
    put(q, b"short", Expiry=1, Format=C.MQFMT_STRING, Report=C.MQRO_EXPIRATION, ReplyToQ="R")
    put(q, b"context", pmo_options=C.MQPMO_SET_ALL_CONTEXT, UserIdentifier="alice", Priority=5)
    assert get(q, C.MQGMO_SYNCPOINT)[0] == b"taken"
    assert get(q, C.MQGMO_SYNCPOINT)[0] == b"backed out"
    qm.backout()  # both go back; "backed out" and "taken" now carry a BackoutCount
    put(q, b"uncommitted", pmo_options=C.MQPMO_SYNCPOINT, Priority=1)
    assert get(q, C.MQGMO_SYNCPOINT)[0] == b"taken"  # held in a unit of work: not in CURDEPTH
    data, md = get(q, C.MQGMO_BROWSE_FIRST | C.MQGMO_LOCK)
    assert (data, md.BackoutCount) == (b"backed out", 1)
    qm.sim.advance(ms=500)  # "short" has expired and is still queued (no scans)
    seen = {
        v.data: (
            v.state,
            v.locker,
            v.backouts,
            v.field("UserIdentifier", ""),
            v.field("Format", ""),
        )
        for v in qm.local(APP_Q).store.views()
    }
    blank, user = "", "mqlearn"  # Format: not kept when it holds its initial value
    assert seen == {
        b"taken": (GOT_IN_UOW, None, 1, user, blank),
        b"backed out": (AVAILABLE, q, 1, user, blank),
        b"plain": (AVAILABLE, None, 0, user, blank),
        b"short": (AVAILABLE, None, 0, user, C.MQFMT_STRING),
        b"context": (AVAILABLE, None, 0, "alice", blank),
        b"uncommitted": (UNCOMMITTED_PUT, None, 0, user, blank),
    }
    order = [v.data for v in qm.local(APP_Q).store.views()]
    if msgdlvsq == "PRIORITY":
        assert order == [b"taken", b"backed out", b"context", b"plain", b"uncommitted", b"short"]
    else:
        assert order == [b"taken", b"backed out", b"plain", b"short", b"context", b"uncommitted"]


@pytest.mark.parametrize("msgdlvsq", ["FIFO", "PRIORITY"])
def test_a_matched_get_leaves_later_puts_flat(msgdlvsq: str) -> None:
    """After a get by CorrelId and one by MsgId the store keeps both indexes exact from then
    on; a put adds one entry to the entries of its ids, in place, however many messages share
    them (MQCI_NONE: nearly all). Copying the entries on every put made 20,000 puts after one
    request/reply get take 4.3 s instead of 0.19 s (issue 23)."""
    qm = new_qm()
    qm.define_qlocal(APP_Q, msgdlvsq=msgdlvsq, maxdepth=100_000)
    q = mq.Queue(qm, APP_Q)
    wanted = put(q, b"reply", CorrelId=b"R" * 24, Priority=3)
    for i in range(50):
        put(q, b"m%d" % i, Priority=i % 10)
    md = mq.MD(CorrelId=b"R" * 24)
    gmo = mq.GMO(MatchOptions=C.MQMO_MATCH_CORREL_ID, Version=C.MQGMO_VERSION_2)
    assert q.get(None, md, gmo) == b"reply"
    md = mq.MD(MsgId=wanted.MsgId)  # gone: 2033, but the MsgId index is built
    with pytest.raises(mq.MQMIError):
        q.get(None, md, mq.GMO(MatchOptions=C.MQMO_MATCH_MSG_ID, Version=C.MQGMO_VERSION_2))
    store = qm.local(APP_Q).store
    by_correlid = store._by_correlid
    assert by_correlid is not None and store._by_msgid is not None
    shared = by_correlid[C.MQCI_NONE]
    assert len(shared) == 50
    for i in range(200):
        put(q, b"n%d" % i, Priority=i % 10)
        assert by_correlid[C.MQCI_NONE] is shared  # the same entries, grown in place
    assert len(shared) == 250 and len(store._by_msgid) == 250
    data, _ = get(q)
    assert data == (b"m9" if msgdlvsq == "PRIORITY" else b"m0")
    assert len(shared) == 249


def test_indexes_of_unique_ids_cost_the_collector_nothing() -> None:
    """Once a get by MsgId has built the MsgId index, a message with an id of its own is
    indexed as its record (an untracked tuple): 2,000 more puts add no tracked object."""
    qm = new_qm()
    qm.define_qlocal(APP_Q, maxdepth=100_000)
    q = mq.Queue(qm, APP_Q)
    first = put(q, b"first")
    put(q, b"second")
    md = mq.MD(MsgId=first.MsgId)
    assert q.get(None, md, mq.GMO(MatchOptions=C.MQMO_MATCH_MSG_ID, Version=2)) == b"first"
    before = tracked_after_collection()
    for i in range(2_000):
        put(q, b"m%d" % i)
    assert tracked_after_collection() - before < 50
    assert qm.curdepth(APP_Q) == 2_001
