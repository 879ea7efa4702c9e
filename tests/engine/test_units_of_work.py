"""Units of work (UOW-01/02), browse cursors and locks (LCK-01), replies (RPL-01)."""

from __future__ import annotations

import pytest

import mqlearn as mq
from mqlearn import CMQC as C
from tests.engine.helpers import (
    APP_Q,
    REPLY_Q,
    SHORT,
    assert_no_msg,
    browse_first,
    browse_next,
    discarded_ids,
    events_of,
    get,
    hexid,
    put,
    qm_with_queue,
    queue_ids,
    raises_reason,
    syncpoint_get_discard_then_backout,
)

# --- UOW-01, UOW-02 -------------------------------------------------------------------------------


def test_uow01_backed_out_message_keeps_its_deadline_and_can_expire() -> None:
    """UOW-01 (seed example): a message with 3 s to live is got under syncpoint at 2.5 s (0.5 s
    left) and backed out. It returns with BackoutCount 1 and its original deadline (3 s), so after
    another second the next get finds nothing (2033) and discards it."""
    qm, q = qm_with_queue()
    md_put = put(q, b"nearly expired", Expiry=30)
    qm.sim.advance(ms=2500)

    _, got = get(q, C.MQGMO_SYNCPOINT)
    assert got.Expiry == 5
    assert qm.curdepth(APP_Q) == 0, "a message got in the unit of work leaves CURDEPTH at once"
    qm.backout()

    assert qm.curdepth(APP_Q) == 1
    row = qm.queue_frame(APP_Q).iloc[0]
    assert int(row["backout_count"]) == 1
    assert int(row["deadline_ms"]) == 3000, "backout does not restart the lifetime"
    (restored,) = [e for e in events_of(qm, "backout") if e.cause == "get"]
    assert restored.msg_id == md_put.MsgId

    qm.sim.advance(seconds=1)
    assert_no_msg(q)
    assert discarded_ids(qm, cause="get") == [md_put.MsgId]
    assert qm.curdepth(APP_Q) == 0


def test_uow01_backed_out_message_got_again_reports_backout_count_and_remaining_expiry() -> None:
    """UOW-01: got again before its deadline, the message shows BackoutCount 1 and the lifetime
    left until the *original* deadline (Expiry 30 put at 0 s, got again at 2 s → 10)."""
    qm, q = qm_with_queue()
    put(q, b"retry me", Expiry=30)
    qm.sim.advance(seconds=1)
    assert get(q, C.MQGMO_SYNCPOINT)[1].Expiry == 20
    qm.sim.advance(seconds=1)
    qm.backout()
    data, md = get(q)
    assert (data, md.BackoutCount, md.Expiry) == (b"retry me", 1, 10)


def test_backout_restores_message_at_its_original_place() -> None:
    """A backed-out message goes back where it was (ahead of later arrivals), not to the end."""
    qm, q = qm_with_queue(msgdlvsq="FIFO")
    first = put(q, b"first")
    second = put(q, b"second")
    get(q, C.MQGMO_SYNCPOINT)
    assert queue_ids(qm) == [hexid(first), hexid(second)]
    assert list(qm.queue_frame(APP_Q)["state"]) == ["got in unit of work", "available"]
    qm.backout()
    assert get(q)[0] == b"first"


def test_commit_removes_message_got_under_syncpoint() -> None:
    """Commit makes a syncpoint get final: nothing comes back."""
    qm, q = qm_with_queue()
    put(q, b"done")
    get(q, C.MQGMO_SYNCPOINT)
    qm.commit()
    qm.backout()  # nothing left in the unit of work to undo
    assert qm.curdepth(APP_Q) == 0
    assert_no_msg(q)


def test_uow02_backout_does_not_restore_expired_discards() -> None:
    """UOW-02 / EXP-29: the expired messages a syncpoint get discarded stay discarded after backout;
    only the message actually got is restored (one backout event with cause "get")."""
    s = syncpoint_get_discard_then_backout()
    qm = s["qm"]
    assert len(s["discards"]) == 2
    assert queue_ids(qm) == [hexid(s["live"])]
    assert qm.curdepth(APP_Q) == 1
    restored = [e.msg_id for e in events_of(qm, "backout", since=s["mark"]) if e.cause == "get"]
    assert restored == [s["live"].MsgId]
    _, md = get(s["q"])
    assert (md.MsgId, md.BackoutCount) == (s["live"].MsgId, 1)


def test_backout_removes_uncommitted_put() -> None:
    """An uncommitted put counts in CURDEPTH until backout removes it (backout cause "put")."""
    qm, q = qm_with_queue()
    md = put(q, pmo_options=C.MQPMO_SYNCPOINT)
    assert list(qm.queue_frame(APP_Q)["state"]) == ["uncommitted put"]
    qm.backout()
    assert qm.curdepth(APP_Q) == 0
    assert [e.msg_id for e in events_of(qm, "backout") if e.cause == "put"] == [md.MsgId]


# --- Browse cursor --------------------------------------------------------------------------------


def test_browse_first_and_next_walk_the_queue_in_delivery_order() -> None:
    """BROWSE_FIRST starts at the head, BROWSE_NEXT moves on, past the end → 2033;
    browsing removes nothing and each handle has its own cursor."""
    qm, q = qm_with_queue()
    low = put(q, b"low", Priority=1)
    high = put(q, b"high", Priority=8)
    assert browse_first(q)[0] == b"high"
    assert browse_next(q)[0] == b"low"
    assert_no_msg(q, C.MQGMO_BROWSE_NEXT)
    other = mq.Queue(qm, APP_Q)
    assert browse_first(other)[1].MsgId == high.MsgId, "a second handle starts its own cursor"
    assert browse_first(q)[1].MsgId == high.MsgId, "BROWSE_FIRST restarts"
    assert queue_ids(qm) == [hexid(high), hexid(low)]


def test_browse_next_misses_message_arriving_ahead_of_cursor() -> None:
    """A message that arrives ahead of the cursor (higher priority) is not seen by BROWSE_NEXT,
    only after BROWSE_FIRST; one arriving behind the cursor is."""
    _, q = qm_with_queue()
    put(q, b"a", Priority=5)
    put(q, b"b", Priority=5)
    assert browse_first(q)[0] == b"a"
    put(q, b"urgent", Priority=9)
    put(q, b"c", Priority=5)
    assert [browse_next(q)[0] for _ in range(2)] == [b"b", b"c"]
    assert_no_msg(q, C.MQGMO_BROWSE_NEXT)
    assert browse_first(q)[0] == b"urgent"


def test_browse_under_syncpoint_is_options_error() -> None:
    """Browse with MQGMO_SYNCPOINT is rejected with 2046."""
    _, q = qm_with_queue()
    put(q)
    with raises_reason(C.MQRC_OPTIONS_ERROR):
        get(q, C.MQGMO_BROWSE_FIRST | C.MQGMO_SYNCPOINT)


# --- Locks (LCK-01) -------------------------------------------------------------------------------


def test_lck01_locked_message_expires_then_get_under_cursor_is_2034() -> None:
    """LCK-01: browse with MQGMO_LOCK a message that has 1 s to live; 2 s later a get with
    MQGMO_MSG_UNDER_CURSOR fails with 2034 MQRC_NO_MSG_UNDER_CURSOR and the message is discarded
    (cause "cursor")."""
    qm, q = qm_with_queue()
    md = put(q, b"locked", Expiry=SHORT)
    browse_first(q, C.MQGMO_LOCK)
    assert list(qm.queue_frame(APP_Q)["state"]) == ["locked"]
    qm.sim.advance(seconds=2)
    with raises_reason(C.MQRC_NO_MSG_UNDER_CURSOR):
        get(q, C.MQGMO_MSG_UNDER_CURSOR)
    assert discarded_ids(qm, cause="cursor") == [md.MsgId]
    assert qm.curdepth(APP_Q) == 0


def test_lck01_get_under_cursor_returns_live_locked_message() -> None:
    """Contrast to LCK-01: while still live, the locked message is got under the cursor."""
    _, q = qm_with_queue()
    put(q, b"locked", Expiry=50)
    browse_first(q, C.MQGMO_LOCK)
    data, md = get(q, C.MQGMO_MSG_UNDER_CURSOR)
    assert (data, md.Expiry) == (b"locked", 50)


def test_locked_message_is_invisible_to_other_handles_until_unlocked() -> None:
    """A message locked by one handle is skipped by another handle's get (even once it expired it
    is not that handle's to discard); MQGMO_UNLOCK makes it available again."""
    qm, q = qm_with_queue(msgdlvsq="FIFO")
    locked = put(q, b"locked", Expiry=50)
    put(q, b"free")
    other = mq.Queue(qm, APP_Q)
    browse_first(q, C.MQGMO_LOCK)
    assert get(other)[0] == b"free"
    assert_no_msg(other)
    assert queue_ids(qm) == [hexid(locked)]
    get(q, C.MQGMO_UNLOCK)
    assert get(other)[0] == b"locked"


def test_locked_expired_message_not_discarded_by_other_handle() -> None:
    """Another handle's get does not see the locked message, so it does not discard it either."""
    qm, q = qm_with_queue()
    put(q, b"locked", Expiry=SHORT)
    browse_first(q, C.MQGMO_LOCK)
    qm.sim.advance(seconds=2)
    assert_no_msg(mq.Queue(qm, APP_Q))
    assert qm.curdepth(APP_Q) == 1, "the locked (expired) message is still there"
    assert discarded_ids(qm) == []


def test_unlock_without_lock_is_2209() -> None:
    """MQGMO_UNLOCK when this handle holds no lock: 2209 MQRC_NO_MSG_LOCKED, which IBM documents
    as a warning (MQCC_WARNING), not a failure."""
    _, q = qm_with_queue()
    put(q)
    with raises_reason(C.MQRC_NO_MSG_LOCKED, comp=C.MQCC_WARNING):
        get(q, C.MQGMO_UNLOCK)


def test_lock_without_browse_is_options_error() -> None:
    """MQGMO_LOCK belongs with a browse; on a destructive get it is 2046."""
    _, q = qm_with_queue()
    put(q)
    with raises_reason(C.MQRC_OPTIONS_ERROR):
        get(q, C.MQGMO_LOCK)


# --- Replies (RPL-01) -----------------------------------------------------------------------------

REQUEST_CORREL = b"C" * 24


def got_request(report: int = C.MQRO_NONE) -> mq.MD:
    """A request (Expiry 100) got after 3 s: its MD says 70 tenths remain."""
    qm, q = qm_with_queue()
    qm.define_qlocal("APP.REPLY")
    put(
        q,
        b"request",
        MsgType=C.MQMT_REQUEST,
        ReplyToQ="APP.REPLY",
        Expiry=100,
        CorrelId=REQUEST_CORREL,
        Report=report,
    )
    qm.sim.advance(seconds=3)
    md = get(q)[1]
    assert md.Expiry == 70
    return md


@pytest.mark.parametrize(
    ("expiry", "expected"),
    [("copy", 70), ("unlimited", C.MQEI_UNLIMITED), (250, 250)],
    ids=["copy-remaining", "unlimited", "explicit"],
)
def test_rpl01_reply_expiry_is_the_applications_choice(expiry: str | int, expected: int) -> None:
    """RPL-01: the reply may copy the request's remaining expiry, be unlimited, or set its own."""
    reply = mq.reply_md(got_request(), expiry=expiry)
    assert reply.Expiry == expected
    assert reply.MsgType == C.MQMT_REPLY


def test_rpl01_reply_identifiers_default() -> None:
    """Default report options: CorrelId = the request's MsgId, MsgId = MQMI_NONE (a new one)."""
    request = got_request()
    reply = mq.reply_md(request, expiry="unlimited")
    assert reply.CorrelId == request.MsgId
    assert reply.MsgId == C.MQMI_NONE


def test_rpl01_reply_identifiers_passed() -> None:
    """MQRO_PASS_CORREL_ID / MQRO_PASS_MSG_ID: the reply carries the request's own identifiers."""
    request = got_request(C.MQRO_PASS_CORREL_ID | C.MQRO_PASS_MSG_ID)
    reply = mq.reply_md(request, expiry="unlimited")
    assert reply.CorrelId == REQUEST_CORREL
    assert reply.MsgId == request.MsgId


@pytest.mark.parametrize("expiry", ["copy", "unlimited", 250])
def test_rpl01_pass_discard_and_expiry_is_inherited(expiry: str | int) -> None:
    """RPT-07 / RPL-01: with MQRO_PASS_DISCARD_AND_EXPIRY the reply inherits the request's
    remaining expiry (whatever the replier asked for) and its MQRO_DISCARD_MSG."""
    request = got_request(C.MQRO_PASS_DISCARD_AND_EXPIRY | C.MQRO_DISCARD_MSG)
    reply = mq.reply_md(request, expiry=expiry)
    assert reply.Expiry == 70
    assert reply.Report & C.MQRO_DISCARD_MSG


def test_rpl01_pass_discard_and_expiry_without_discard_flag() -> None:
    """RPT-07: only a discard flag the request had is passed on."""
    reply = mq.reply_md(got_request(C.MQRO_PASS_DISCARD_AND_EXPIRY), expiry="unlimited")
    assert reply.Expiry == 70
    assert not reply.Report & C.MQRO_DISCARD_MSG


# --- UOW-03: z/OS MQGMO_MARK_SKIP_BACKOUT (IBM, "Skipping backout") -----------------------------


def marked_get_then_backout() -> tuple[mq.QueueManager, mq.Queue]:
    """z/OS: A (3 s to live, asks for an expiration report) got under syncpoint and marked to skip
    backout, then MQBACK."""
    qm = mq.QueueManager("QM1", profile="zos")
    qm.define_qlocal(APP_Q)
    qm.define_qlocal(REPLY_Q)
    q = mq.Queue(qm, APP_Q)
    md = mq.MD(Expiry=30, Report=C.MQRO_EXPIRATION, ReplyToQ=REPLY_Q)
    q.put(b"A", md, mq.PMO(Options=C.MQPMO_NO_SYNCPOINT))
    marked = mq.GMO(Options=C.MQGMO_SYNCPOINT | C.MQGMO_MARK_SKIP_BACKOUT)
    assert q.get(None, mq.MD(), marked) == b"A"
    qm.backout()
    return qm, q


def test_uow03_a_marked_message_is_not_reinstated_and_cannot_expire_on_the_queue() -> None:
    """After MQBACK the marked message stays got, in a new unit of work: not on the queue, so it
    neither expires there nor sends a report; MQCMIT then removes it for good."""
    qm, q = marked_get_then_backout()
    assert qm.curdepth(APP_Q) == 0
    qm.sim.advance(seconds=10)
    with raises_reason(C.MQRC_NO_MSG_AVAILABLE):
        q.get(None, mq.MD(), mq.GMO(Options=C.MQGMO_NO_SYNCPOINT))
    assert qm.curdepth(REPLY_Q) == 0
    qm.commit()
    assert qm.curdepth(APP_Q) == 0 and qm.curdepth(REPLY_Q) == 0


def test_uow03_a_second_backout_reinstates_the_marked_message() -> None:
    """The new unit of work is an ordinary one: backing it out returns the message, BackoutCount
    1, with its original deadline (UOW-01), still live at once."""
    qm, q = marked_get_then_backout()
    qm.backout()
    assert qm.curdepth(APP_Q) == 1
    md = mq.MD()
    assert q.get(None, md, mq.GMO(Options=C.MQGMO_NO_SYNCPOINT)) == b"A"
    assert md.BackoutCount == 1


def test_uow03_one_marked_message_per_unit_of_work() -> None:
    qm = mq.QueueManager("QM1", profile="zos")
    qm.define_qlocal(APP_Q)
    q = mq.Queue(qm, APP_Q)
    for data in (b"A", b"B"):
        q.put(data, mq.MD(), mq.PMO(Options=C.MQPMO_NO_SYNCPOINT))
    marked = mq.GMO(Options=C.MQGMO_SYNCPOINT | C.MQGMO_MARK_SKIP_BACKOUT)
    q.get(None, mq.MD(), marked)
    with raises_reason(C.MQRC_SECOND_MARK_NOT_ALLOWED):
        q.get(None, mq.MD(), marked)
    assert qm.curdepth(APP_Q) == 1, "B stays on the queue"


@pytest.mark.parametrize("profile", ["distributed", "ibmi"])
def test_uow03_mark_skip_backout_is_refused_off_zos(profile: str) -> None:
    qm = mq.QueueManager("QM1", profile=profile)
    qm.define_qlocal(APP_Q)
    q = mq.Queue(qm, APP_Q)
    q.put(b"A", mq.MD(), mq.PMO(Options=C.MQPMO_NO_SYNCPOINT))
    with raises_reason(C.MQRC_OPTIONS_ERROR):
        q.get(None, mq.MD(), mq.GMO(Options=C.MQGMO_SYNCPOINT | C.MQGMO_MARK_SKIP_BACKOUT))
    assert qm.curdepth(APP_Q) == 1
