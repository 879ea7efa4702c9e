"""Lazy expiry: remaining lifetime (EXP-10..12), eligibility and discard (EXP-20..29, EXP-05).

The lesson of these tests: time passing removes nothing. An expired message sits on the queue,
counting in CURDEPTH, until a get or browse that would have returned it walks over it.
(Background scans are switched off by ``new_qm``; they are another part's subject, EXP-28.)
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

import mqlearn as mq
from mqlearn import CMQC as C
from mqlearn.engine.message import Record
from mqlearn.engine.mqget import walk
from tests.engine.helpers import (
    APP_Q,
    REPLY_Q,
    SHORT,
    assert_no_msg,
    browse_first,
    browse_next,
    discarded_ids,
    drain,
    events_of,
    get,
    hexid,
    put,
    put_expired_and_live,
    qm_with_queue,
    queue_ids,
    raises_reason,
    syncpoint_get_discard_then_backout,
)

CORREL_A = b"A" * 24
CORREL_B = b"B" * 24


# --- EXP-10, EXP-11, EXP-12: the remaining lifetime a get reports ---------------------------------


def test_exp11_exp12_remaining_expiry_is_rounded_up() -> None:
    """EXP-10/11/12: a get returns the lifetime left, in tenths, rounded up.

    Expiry 50 (5 s). After exactly 2 s: 30. After 2.01 s, 29.9 tenths remain: 30. After 4.99 s,
    0.1 tenth remains: 1, never 0.
    """
    qm, q = qm_with_queue(msgdlvsq="FIFO")
    for _ in range(3):
        put(q, Expiry=50)
    qm.sim.advance(ms=2000)
    assert get(q)[1].Expiry == 30
    qm.sim.advance(ms=10)
    assert get(q)[1].Expiry == 30, "29.9 tenths left is reported as 30"
    qm.sim.advance(ms=4990 - 2010)
    assert get(q)[1].Expiry == 1, "0.1 tenth left is reported as 1, never 0"


def test_exp11_unlimited_stays_unlimited() -> None:
    """EXP-11: a message put with MQEI_UNLIMITED comes back with -1, however long it waited."""
    qm, q = qm_with_queue()
    put(q, Expiry=C.MQEI_UNLIMITED)
    qm.sim.advance(seconds=3600)
    assert get(q)[1].Expiry == C.MQEI_UNLIMITED


@settings(max_examples=60, deadline=None)
@given(expiry=st.integers(1, 100_000), data=st.data())
def test_exp12_remaining_is_ceiling_of_time_left(expiry: int, data: st.DataObject) -> None:
    """EXP-12 (property): for any wait shorter than the lifetime, the get reports
    ceil((deadline - now) / 100 ms) tenths, at least 1; at the deadline the message is gone."""
    waited = data.draw(st.integers(0, expiry * 100 - 1), label="waited_ms")
    qm, q = qm_with_queue(msgdlvsq="FIFO")
    put(q, Expiry=expiry)
    put(q, Expiry=expiry)
    qm.sim.advance(ms=waited)
    remaining = get(q)[1].Expiry
    assert remaining == math.ceil((expiry * 100 - waited) / 100)
    assert remaining >= 1
    qm.sim.advance(ms=expiry * 100 - waited)
    assert_no_msg(q)


# --- EXP-20, EXP-21, EXP-24: eligible is not discarded; discards happen on the way ----------------


def test_exp20_advancing_time_alone_discards_nothing() -> None:
    """EXP-20: an expired message is only eligible: still on the queue, still in CURDEPTH."""
    qm, q = qm_with_queue()
    md = put(q, Expiry=SHORT)
    qm.sim.advance(seconds=600)
    assert qm.curdepth(APP_Q) == 1, "expired but not discarded: it still counts"
    frame = qm.queue_frame(APP_Q)
    assert list(frame["msg_id"]) == [hexid(md)]
    assert bool(frame["expired"].iloc[0]) is True
    assert int(frame["expiry"].iloc[0]) == 0
    assert events_of(qm, "discard") == [], "no get or browse ran, so nothing was discarded"


def test_exp21_browse_discards_the_expired_message_it_would_have_returned() -> None:
    """EXP-21: a browse walks over an expired message, discards it (cause "browse") and returns
    the live one behind it; the live one stays on the queue (browse is not destructive)."""
    qm, q = qm_with_queue(msgdlvsq="FIFO")
    expired, live = put_expired_and_live(qm, q, "eL")
    _, md = browse_first(q)
    assert md.MsgId == live.MsgId
    assert discarded_ids(qm, cause="browse") == [expired.MsgId]
    assert queue_ids(qm) == [hexid(live)]
    assert qm.curdepth(APP_Q) == 1


def test_exp24_expired_messages_are_never_returned() -> None:
    """EXP-24: neither browse (first or next) nor get ever hands back an expired message."""
    qm, q = qm_with_queue(msgdlvsq="FIFO")
    mds = put_expired_and_live(qm, q, "eLeeLe")
    live_ids = [mds[1].MsgId, mds[4].MsgId]
    browsed = [browse_first(q)[1].MsgId, browse_next(q)[1].MsgId]
    assert_no_msg(q, C.MQGMO_BROWSE_NEXT)
    assert browsed == live_ids
    assert [md.MsgId for md in drain(q)] == live_ids
    assert qm.curdepth(APP_Q) == 0, "the final 2033 get walked over (and discarded) the last one"


def test_exp24_browse_of_only_expired_messages_is_2033() -> None:
    """EXP-24/EXP-26: a browse that finds only expired messages returns nothing (2033)."""
    qm, q = qm_with_queue()
    put_expired_and_live(qm, q, "ee")
    assert_no_msg(q, C.MQGMO_BROWSE_FIRST)
    assert len(discarded_ids(qm, cause="browse")) == 2


@settings(max_examples=40, deadline=None)
@given(
    fifo=st.booleans(),
    messages=st.lists(
        st.tuples(st.integers(0, 9), st.one_of(st.just(-1), st.integers(1, 60))), max_size=12
    ),
    wait_ms=st.integers(0, 7000),
)
def test_exp24_property_only_live_messages_come_back_in_delivery_order(
    fifo: bool, messages: list[tuple[int, int]], wait_ms: int
) -> None:
    """EXP-22/23/24 (property): draining a queue returns exactly the live messages, in delivery
    order, each with a remaining Expiry ≥ 1 or -1; every expired one is discarded, none returned."""
    qm, q = qm_with_queue(msgdlvsq="FIFO" if fifo else "PRIORITY")
    mds = [put(q, b"m", Priority=p, Expiry=e) for p, e in messages]
    qm.sim.advance(ms=wait_ms)

    def order_key(item: tuple[int, mq.MD]) -> tuple[int, int]:
        index, md = item
        return (0 if fifo else -md.Priority, index)

    in_order = [md for _, md in sorted(enumerate(mds), key=order_key)]
    live = [md.MsgId for md in in_order if md.Expiry == -1 or md.Expiry * 100 > wait_ms]
    expired = {md.MsgId for md in mds} - set(live)

    got = drain(q)
    assert [md.MsgId for md in got] == live
    assert all(md.Expiry == -1 or md.Expiry >= 1 for md in got)
    assert set(discarded_ids(qm)) == expired
    assert qm.curdepth(APP_Q) == 0


# --- EXP-22, EXP-23: which expired messages a get discards ----------------------------------------


def test_exp22_fifo_get_discards_expired_up_to_first_live() -> None:
    """EXP-22 (seed example): FIFO queue, no match options. Three expired messages, a live one,
    two expired ones behind it: the get discards exactly the three in front (cause "get"), returns
    the live one, and the two behind stay on the queue (expired, still counted)."""
    qm, q = qm_with_queue(msgdlvsq="FIFO")
    e1, e2, e3, live, e4, e5 = put_expired_and_live(qm, q, "eeeLee")
    mark = len(qm.events)

    _, md = get(q)

    assert md.MsgId == live.MsgId
    discards = events_of(qm, "discard", since=mark)
    assert [e.msg_id for e in discards] == [e1.MsgId, e2.MsgId, e3.MsgId]
    assert {e.cause for e in discards} == {"get"}
    assert queue_ids(qm) == [hexid(e4), hexid(e5)], "expired messages behind the live one stay"
    assert list(qm.queue_frame(APP_Q)["expired"]) == [True, True]
    assert qm.curdepth(APP_Q) == 2


def test_exp23_priority_get_discards_higher_and_earlier_equal_priority() -> None:
    """EXP-23 (seed example): priority queue. The get returns the first live message (priority 5)
    and discards the expired priority-7 one and the expired priority-5 one that arrived before it;
    the expired priority-5 one that arrived after it, and the expired priority-2 one, stay."""
    qm, q = qm_with_queue(msgdlvsq="PRIORITY")
    low = put(q, b"low", Priority=2, Expiry=SHORT)
    early = put(q, b"early", Priority=5, Expiry=SHORT)
    high = put(q, b"high", Priority=7, Expiry=SHORT)
    live = put(q, b"live", Priority=5)
    late = put(q, b"late", Priority=5, Expiry=SHORT)
    qm.sim.advance(seconds=2)
    mark = len(qm.events)

    data, md = get(q)

    assert (data, md.MsgId) == (b"live", live.MsgId)
    assert discarded_ids(qm, cause="get", since=mark) == [high.MsgId, early.MsgId]
    assert queue_ids(qm) == [hexid(late), hexid(low)]


# --- EXP-25, EXP-26: depth and "nothing available" ------------------------------------------------


def test_exp25_expired_messages_count_toward_maxdepth() -> None:
    """EXP-25: three expired messages fill a MAXDEPTH(3) queue: the next put fails with 2053.
    A get finds nothing (2033) but discards them, and then the put succeeds."""
    qm, q = qm_with_queue(maxdepth=3)
    put_expired_and_live(qm, q, "eee")
    assert qm.curdepth(APP_Q) == 3
    with raises_reason(C.MQRC_Q_FULL):
        put(q, b"no room")
    assert_no_msg(q)
    assert qm.curdepth(APP_Q) == 0
    put(q, b"room now")
    assert qm.curdepth(APP_Q) == 1


def test_exp26_only_expired_messages_is_no_msg_available() -> None:
    """EXP-26: the consumer gets 2033 and nothing else; nothing is returned."""
    qm, q = qm_with_queue()
    put_expired_and_live(qm, q, "ee")
    md = mq.MD()
    with raises_reason(C.MQRC_NO_MSG_AVAILABLE):
        q.get(None, md, mq.GMO())
    assert events_of(qm, "get") == [], "no get event: nothing was returned"


def test_exp26_wait_on_expired_messages_times_out() -> None:
    """EXP-26: a get with MQGMO_WAIT is never satisfied by an expired message: it waits the whole
    WaitInterval (virtual time moves on by exactly 5000 ms) and ends with 2033."""
    qm, q = qm_with_queue()
    put_expired_and_live(qm, q, "e")
    start = qm.sim.now
    assert_no_msg(q, C.MQGMO_WAIT, WaitInterval=5000)
    assert qm.sim.now == start + 5000


def test_exp26_wait_is_satisfied_by_a_message_arriving_later() -> None:
    """A waiting get returns a message put 1.5 s later, at that virtual time."""
    qm, q = qm_with_queue()
    start = qm.sim.now
    qm.sim.schedule(1500, lambda: qm.put1(APP_Q, b"late", mq.MD(Expiry=50)))
    data, md = get(q, C.MQGMO_WAIT, WaitInterval=5000)
    assert data == b"late"
    assert qm.sim.now == start + 1500
    assert md.Expiry == 50, "got the moment it arrived: no time spent on the queue"


def test_exp26_wait_not_satisfied_by_message_expired_before_it_is_got() -> None:
    """EXP-26 with EXP-05: a syncpoint put at 1 s (lifetime 0.5 s) is committed at 2 s, already
    expired. The waiting get must not return it: it keeps waiting and ends with 2033 at 5 s."""
    qm, q = qm_with_queue()
    qm.sim.schedule(
        1000,
        lambda: qm.put1(APP_Q, b"stale", mq.MD(Expiry=5), mq.PMO(Options=C.MQPMO_SYNCPOINT)),
    )
    qm.sim.schedule(2000, qm.commit)
    assert_no_msg(q, C.MQGMO_WAIT, WaitInterval=5000)
    assert qm.sim.now == 5000
    assert events_of(qm, "get") == []


# --- EXP-27: match options ------------------------------------------------------------------------


def test_exp27_match_correl_id_discards_only_matching_candidates() -> None:
    """EXP-27: getting by CorrelId B discards the expired B message in front of the live B one,
    but leaves the expired A message (not a candidate) in place, although it is first in line."""
    qm, q = qm_with_queue(msgdlvsq="FIFO")
    old_a = put(q, b"old a", CorrelId=CORREL_A, Expiry=SHORT)
    old_b = put(q, b"old b", CorrelId=CORREL_B, Expiry=SHORT)
    live_b = put(q, b"live b", CorrelId=CORREL_B)
    live_a = put(q, b"live a", CorrelId=CORREL_A)
    qm.sim.advance(seconds=2)

    gmo = {"Version": C.MQGMO_VERSION_2, "MatchOptions": C.MQMO_MATCH_CORREL_ID}
    data, md = get(q, md=mq.MD(CorrelId=CORREL_B), **gmo)

    assert (data, md.MsgId) == (b"live b", live_b.MsgId)
    assert discarded_ids(qm) == [old_b.MsgId]
    assert queue_ids(qm) == [hexid(old_a), hexid(live_a)]


def test_exp27_match_msg_id_of_expired_message() -> None:
    """EXP-27: asking for one expired message by MsgId: 2033, and only that message is discarded."""
    qm, q = qm_with_queue(msgdlvsq="FIFO")
    first, wanted, live = put_expired_and_live(qm, q, "eeL")
    gmo = {"Version": C.MQGMO_VERSION_2, "MatchOptions": C.MQMO_MATCH_MSG_ID}
    with raises_reason(C.MQRC_NO_MSG_AVAILABLE):
        get(q, md=mq.MD(MsgId=wanted.MsgId), **gmo)
    assert discarded_ids(qm) == [wanted.MsgId]
    assert queue_ids(qm) == [hexid(first), hexid(live)]


# --- EXP-05, EXP-29: units of work ----------------------------------------------------------------


def test_exp05_syncpoint_put_expiring_before_commit_is_never_returned() -> None:
    """EXP-05: the lifetime starts at MQPUT. A 1 s message put under syncpoint and committed after
    2 s is already expired: it is never returned. Before commit it counts in CURDEPTH, unseen."""
    qm, q = qm_with_queue()
    put(q, b"slow commit", Expiry=SHORT, pmo_options=C.MQPMO_SYNCPOINT)
    assert qm.curdepth(APP_Q) == 1, "an uncommitted put counts in CURDEPTH"
    assert_no_msg(q)
    qm.sim.advance(seconds=2)
    qm.commit()
    assert_no_msg(q)
    assert len(discarded_ids(qm, cause="get")) == 1


def test_exp05_syncpoint_put_lifetime_starts_at_put_not_commit() -> None:
    """EXP-05: Expiry 50 put under syncpoint, committed 2 s later: the get sees 30 tenths left."""
    qm, q = qm_with_queue()
    put(q, Expiry=50, pmo_options=C.MQPMO_SYNCPOINT)
    qm.sim.advance(seconds=2)
    qm.commit()
    assert get(q)[1].Expiry == 30


def test_exp29_discards_and_reports_survive_backout() -> None:
    """EXP-29: a syncpoint get discards two expired messages (each asking for an expiration report)
    and is then backed out. The live message comes back; the discarded ones do not, and both
    reports stay on the reply queue, available to a get."""
    s = syncpoint_get_discard_then_backout(report=C.MQRO_EXPIRATION)
    qm = s["qm"]
    assert [e.msg_id for e in s["discards"]] == [md.MsgId for md in s["expired"]]
    assert queue_ids(qm) == [hexid(s["live"])], "only the got message is restored"
    assert qm.curdepth(REPLY_Q) == 2, "reports are not withdrawn by the backout"
    assert len(events_of(qm, "report", since=s["mark"])) == 2
    reports = drain(mq.Queue(qm, REPLY_Q))
    assert [r.Feedback for r in reports] == [C.MQFB_EXPIRATION] * 2
    assert [r.CorrelId for r in reports] == [md.MsgId for md in s["expired"]]


# --- EXP-22, EXP-23: the discard walk's one home (mqlearn.engine.mqget.walk) --------------------
# IBM: "a nonbrowse MQGET ... reading from a FIFO ordered queue discards all the expired messages up
# to the first unexpired message. With a priority ordered queue, the same call will discard expired
# messages of higher priority and messages of an equal priority that arrived on the queue before
# the first unexpired message." The replay kernel's mirror of the walk: tests/pipeline/
# test_walk_mirror.py.
def _records(lanes: list[int], deadlines: list[int]) -> list[Record]:
    """Records (only lane and deadline matter to the walk) in delivery order: lane descending,
    then arrival (the lists' order); seq = the arrival index."""
    pairs = enumerate(zip(lanes, deadlines, strict=True))
    made = [(i, ln, 0, d, 0, b"", b"", b"", (), None, None) for i, (ln, d) in pairs]
    return sorted(made, key=lambda r: (-r[1], r[0]))


def _seqs(records: list[Record]) -> list[int]:
    return [r[0] for r in records]


def test_exp22_the_walk_on_one_lane_discards_up_to_the_first_live_message_only() -> None:
    # one lane; arrival order: expired, expired, live, expired (the last one stays)
    records = _records([4] * 4, [1_000, 2_000, 9_000, 1_500])
    found, expired = walk(records, 5_000)
    assert found is records[2] and _seqs(expired) == [0, 1]
    found, expired = walk(records[:2], 5_000)  # no live message: the get finds none
    assert found is None and _seqs(expired) == [0, 1]
    found, expired = walk(records[2:], 5_000)
    assert found is records[2] and expired == []
    found, expired = walk(records, 2_000)  # EXP-20: at its deadline a message has expired
    assert found is records[2] and _seqs(expired) == [0, 1]


def test_exp23_the_walk_discards_higher_lanes_and_earlier_arrivals_of_the_same_lane() -> None:
    # arrival order with priorities: (p5 expired) (p5 live) (p8 expired) (p2 expired) (p5 expired)
    records = _records([5, 5, 8, 2, 5], [1_000, 9_000, 1_000, 1_000, 1_000])
    assert _seqs(records) == [2, 0, 1, 4, 3]
    found, expired = walk(records, 5_000)
    assert found is not None and found[0] == 1
    assert _seqs(expired) == [2, 0]  # p8, then the earlier p5; p5@4 and p2 stay


WALKED = st.lists(
    st.tuples(st.integers(0, 9), st.one_of(st.just(C.MQEI_UNLIMITED), st.integers(1, 50))),
    min_size=1,
    max_size=12,
)


@given(WALKED, st.integers(0, 60), st.booleans())
def test_exp22_exp23_a_get_discards_the_expired_messages_ahead_in_delivery_order(
    messages: list[tuple[int, int]], wait_tenths: int, fifo: bool
) -> None:
    """A get on the engine discards exactly the expired messages that come, in delivery order,
    before the first live one (worked out here from IBM's text, not by the engine's walk)."""
    qm = mq.QueueManager("QM1")
    qm.alter_qmgr(expryint=0)
    qm.define_qlocal("Q", msgdlvsq="FIFO" if fifo else "PRIORITY", defprty=4)
    queue = mq.Queue(qm, "Q")
    ids = []
    for priority, expiry in messages:
        md = mq.MD(Priority=priority, Expiry=expiry)
        queue.put(b"x", md)
        ids.append(md.MsgId)
    qm.sim.run_until(wait_tenths * 100)
    lanes = [4 if fifo else priority for priority, _ in messages]
    order = sorted(range(len(messages)), key=lambda i: (-lanes[i], i))
    alive = [expiry == C.MQEI_UNLIMITED or expiry * 100 > qm.sim.now for _, expiry in messages]
    ahead = next((k for k, i in enumerate(order) if alive[i]), len(order))
    try:
        md = mq.MD()
        queue.get(None, md)
        assert md.MsgId == ids[order[ahead]]
    except mq.MQMIError as error:
        assert error.reason == C.MQRC_NO_MSG_AVAILABLE and ahead == len(messages)
    discarded = [e.msg_id for e in qm.events if e.kind == "discard"]
    assert discarded == [ids[i] for i in order[:ahead]]
