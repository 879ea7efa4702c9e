"""WorkbenchModel: every action answers with the line a learner reads (no widgets involved)."""

from __future__ import annotations

import pytest

import mqlearn as mq
from mqlearn import CMQC as C
from mqlearn.viz import figures, summary
from mqlearn.viz.model import WorkbenchModel
from tests.viz.helpers import APP_Q, REPLY_Q, new_model


def test_exp26_get_on_an_empty_queue_names_2033() -> None:
    """EXP-26: nothing live -> MQRC_NO_MSG_AVAILABLE, by name and number."""
    model = new_model()
    line = model.get()
    assert line.startswith("MQGET failed: MQRC_NO_MSG_AVAILABLE (2033)")
    assert model.last_result == line


def test_exp26_only_expired_messages_gives_2033_and_lists_the_discards() -> None:
    """EXP-26/EXP-22: the consumer gets 2033; the line names what the call discarded."""
    model = new_model("FIFO")
    model.put(b"a", expiry=10)
    model.put(b"b", expiry=10)
    model.advance(1_000)
    line = model.get()
    assert line.startswith("MQGET failed: MQRC_NO_MSG_AVAILABLE (2033)")
    assert line.endswith("discarded 2 expired on the way: QM1#1, QM1#2 (EXP-22)")


def test_exp11_get_returns_the_remaining_expiry() -> None:
    """EXP-11/EXP-12: Expiry 100 got 2.55 s later -> 75 tenths left (74.5 rounded up)."""
    model = new_model()
    put_line = model.put(b"hello", expiry=100, priority=4)
    assert put_line == (
        "MQPUT OK: QM1#1 on APP.IN, Priority 4, Expiry 100; eligible for discard from 10.0 s"
    )
    model.advance(2_550)
    line = model.get()
    assert line.startswith("MQGET OK: QM1#1, data b'hello', Priority 4, Expiry 75 (remaining")
    assert "MsgType MQMT_DATAGRAM" in line


def test_exp03_expiry_zero_is_refused_with_2013() -> None:
    model = new_model()
    line = model.put(b"x", expiry=0)
    assert line.startswith("MQPUT failed: MQRC_EXPIRY_ERROR (2013)")
    assert model.qm.curdepth(APP_Q) == 0


def test_md02_priority_above_maxprty_is_a_warning_not_a_failure() -> None:
    """MD-02: 2049 is a warning; the message is there."""
    model = new_model()
    line = model.put(b"x", priority=12)
    assert line.startswith("MQPUT completed with warning MQRC_PRIORITY_EXCEEDS_MAXIMUM (2049)")
    assert model.qm.curdepth(APP_Q) == 1


def test_rpt06_report_without_reply_queue_is_2027() -> None:
    model = new_model()
    assert "MQRC_MISSING_REPLY_TO_Q (2027)" in model.put(b"x", report=C.MQRO_EXPIRATION)


def test_exp06_capexpry_shows_in_the_put_line() -> None:
    """EXP-06: CAPEXPRY 50 lowers an unlimited Expiry; the line says so and gives the deadline."""
    model = new_model()
    model.qm.alter_qlocal(APP_Q, capexpry=50)
    line = model.put(b"x")
    assert "(CAPEXPRY lowered it to 50, rule EXP-06)" in line
    assert line.endswith("eligible for discard from 5.0 s")


def test_exp27_match_by_tag_discards_only_matching_expired_messages() -> None:
    """EXP-27: getting QM1#3 by MsgId discards nothing that does not match."""
    model = new_model("FIFO")
    model.put(b"a", expiry=10)
    model.put(b"b", expiry=10)
    model.put(b"c")
    model.advance(2_000)
    line = model.get(msg_id="QM1#3")
    assert line.startswith("MQGET OK: QM1#3")
    assert "discarded" not in line
    assert model.qm.curdepth(APP_Q) == 2
    line = model.get(msg_id="QM1#1")
    assert line.endswith("discarded 1 expired on the way: QM1#1 (EXP-27)")


def test_match_correl_id_of_a_report() -> None:
    """RPT-05: the report's CorrelId is the original's MsgId, so it can be got by it."""
    model = new_model("FIFO")
    model.put(b"x", expiry=10, report=C.MQRO_EXPIRATION, reply_to_q=REPLY_Q)
    model.advance(1_000)
    model.get()
    inbox = WorkbenchModel(model.qm, REPLY_Q)
    line = inbox.get(correl_id="QM1#1")
    assert "MsgType MQMT_REPORT" in line and "Feedback MQFB_EXPIRATION" in line
    assert "CorrelId QM1#1" in line


def test_lck01_browse_lock_then_expired_under_cursor_is_2034() -> None:
    model = new_model("FIFO")
    model.put(b"x", expiry=10)
    assert model.get(browse="first", lock=True).startswith("MQGET MQGMO_BROWSE_FIRST OK: QM1#1")
    assert model.last_result.endswith("; locked for this handle")
    model.advance(1_000)
    line = model.get(under_cursor=True)
    assert line.startswith("MQGET failed: MQRC_NO_MSG_UNDER_CURSOR (2034)")
    assert line.endswith("(LCK-01)")


def test_uow01_syncpoint_get_backout_restores_with_backout_count() -> None:
    model = new_model()
    model.put(b"x", expiry=600)
    assert model.get(syncpoint=True).endswith(
        "; under syncpoint (MQCMIT removes it, MQBACK restores it)"
    )
    assert model.backout().startswith("MQBACK OK: 1 operation(s) backed out")
    assert "BackoutCount 1" in model.get()
    assert model.commit() == "MQCMIT OK: 0 operation(s) committed"


def test_exp05_uncommitted_put_is_invisible_until_commit() -> None:
    model = new_model()
    assert "under syncpoint" in model.put(b"x", syncpoint=True)
    assert "MQRC_NO_MSG_AVAILABLE (2033)" in model.get()
    model.commit()
    assert model.get().startswith("MQGET OK: QM1#1")


def test_get_wait_runs_the_clock_and_reports_it() -> None:
    """EXP-26: a get with wait is not satisfied by expired messages; the clock moved."""
    model = new_model()
    model.put(b"x", expiry=5)
    line = model.get(wait_ms=2_000)
    assert line.startswith("MQGET OK: QM1#1")  # still live at 0 s
    line = model.get(wait_ms=2_000)
    assert "MQRC_NO_MSG_AVAILABLE (2033)" in line and "waited 2.0 s" in line
    assert model.now_ms == 2_000


def test_advance_line_counts_expired_and_scan_discards() -> None:
    """EXP-20 and EXP-28: time alone discards nothing; the distributed expiry task does."""
    model = new_model()
    model.put(b"x", expiry=10)
    line = model.advance(1_000)
    assert line.startswith("Clock +1 s, now 1.0 s. APP.IN: CURDEPTH 1, 1 expired not yet")
    line = model.advance(300_000)
    assert line.endswith("the expiry scan discarded 1 (EXP-28)")
    assert model.qm.curdepth(APP_Q) == 0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda m: m.get(browse="last"), "browse must be None, 'first' or 'next'"),
        (lambda m: m.get(wait_ms=-1), "wait_ms must be a non-negative int"),
        (lambda m: m.get(msg_id="QM1-3"), "expected a tag like QM1#7 or 48 hex digits"),
        (lambda m: m.advance(0), "ms must be a positive int"),
    ],
)
def test_bad_arguments_are_value_errors_naming_the_field(call: object, message: str) -> None:
    model = new_model()
    with pytest.raises(ValueError, match=message):
        call(model)  # type: ignore[operator]


def test_unknown_queue_is_2085() -> None:
    qm = mq.QueueManager("QM1")
    with pytest.raises(mq.MQMIError) as error:
        WorkbenchModel(qm, "NOPE")
    assert error.value.reason == C.MQRC_UNKNOWN_OBJECT_NAME


def test_ibmi_result_lines_use_short_names() -> None:
    """MD-03: MDEXP, MDPRI, EIULIM and RC2033 on profile ibmi."""
    model = new_model(profile="ibmi")
    assert model.put(b"x").startswith("MQPUT OK: QM1#1 on APP.IN, MDPRI PRQDEF, MDEXP EIULIM")
    assert "MDEXP EIULIM (remaining" in model.get()
    assert model.get().startswith("MQGET failed: RC2033 (MQRC_NO_MSG_AVAILABLE)")
    assert model.get(browse="first").startswith("MQGET GMBRWF failed")


def test_summary_gives_time_depth_counts_and_last_event() -> None:
    model = new_model("FIFO")
    assert summary(model.qm, APP_Q) == (
        "At 0.0 s on QM1: APP.IN (FIFO) has CURDEPTH 0: 0 live, 0 expired but not yet "
        "discarded. Nothing has happened on it yet."
    )
    model.put(b"a", expiry=10)
    model.put(b"b")
    model.advance(1_500)
    assert summary(model.qm, APP_Q) == (
        "At 1.5 s on QM1: APP.IN (FIFO) has CURDEPTH 2: 1 live, 1 expired but not yet "
        "discarded (they still count in CURDEPTH, rule EXP-25). Last event: put b at 0.0 s."
    )
    model.get()
    assert summary(model.qm, APP_Q, at_ms=500).startswith(
        "At 0.5 s (replay; now 1.5 s) on QM1: APP.IN (FIFO) has CURDEPTH 2: 2 live"
    )


def test_views_work_with_the_event_log_off() -> None:
    """Without events the views draw the queue as it is now (no history to replay)."""
    qm = mq.QueueManager("QM1", record_events=False)
    qm.define_qlocal(APP_Q, msgdlvsq="FIFO")
    model = WorkbenchModel(qm, APP_Q)
    model.put(b"a", expiry=10)
    model.put(b"b")
    model.put(b"c")
    model.advance(2_000)
    assert model.get().startswith("MQGET OK: QM1#2")  # no log, no label: the MsgId tag
    timeline = figures.timeline(qm, APP_Q)
    assert list(timeline.layout.yaxis.ticktext) == ["c"]  # its data, read off the queue
    assert summary(qm, APP_Q).startswith("At 2.0 s on QM1: APP.IN (FIFO) has CURDEPTH 1: 1 live")
