"""The figures, drawn from scripted scenarios and read back without a browser.

Each test names the rule its picture has to show. Marker traces carry the message labels (A, B, …)
as their ``text``, so a test can ask which messages a figure marks as discarded, got or expired.
"""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

import mqlearn as mq
from mqlearn import CMQC as C
from mqlearn.viz import figures
from mqlearn.viz.model import WorkbenchModel
from tests.viz.helpers import (
    APP_Q,
    REPLY_Q,
    XMITQ,
    column,
    count,
    new_model,
    put_direct_xqh,
    tags_of,
    trace,
    xmit_qm,
)

EXPIRED = "expired, not yet discarded"
EXPIRED_LINE = "on the queue, expired (not yet discarded)"


def puts(model: WorkbenchModel, *specs: tuple[int, int]) -> list[str]:
    """Put one message per (Expiry, Priority), labelled A, B, …; returns the labels."""
    for expiry, priority in specs:
        line = model.put(b"data", expiry=expiry, priority=priority, label="auto")
        assert line.startswith("MQPUT OK")
    return [chr(ord("A") + n) for n in range(len(specs))]


def fifo_scenario() -> tuple[WorkbenchModel, list[str]]:
    """FIFO: A expires, B lives, C expires; 2 s later A and C have expired."""
    model = new_model("FIFO")
    tags = puts(model, (10, 0), (C.MQEI_UNLIMITED, 0), (10, 0))
    model.advance(2_000)
    return model, tags


def test_exp22_fifo_timeline_marks_the_discard_only_after_the_get() -> None:
    """EXP-22: before the get both expired messages sit on the queue (drawn as expired lanes,
    nothing discarded); the get discards A, which is ahead of B, and leaves C behind it."""
    model, (a, b, c) = fifo_scenario()
    before = figures.timeline(model.qm, APP_Q)
    assert tags_of(before, "discarded") == []
    assert count(before, EXPIRED_LINE) == 2 * 3  # two NaN-separated segments
    assert sorted(tags_of(before, "deadline passed while on the queue (EXP-20)")) == [a, c]

    assert model.get().startswith(f"MQGET OK: {b}")
    after = figures.timeline(model.qm, APP_Q)
    assert tags_of(after, "discarded") == [a]
    assert list(trace(after, "discarded").x) == [2.0]
    assert tags_of(after, "got") == [b]
    lanes = list(after.layout.yaxis.ticktext)
    assert list(trace(after, "discarded").y) == [lanes.index(a)]


def test_exp22_fifo_shelf_keeps_the_expired_message_behind_the_live_one() -> None:
    """EXP-22 on the shelf: expired messages at positions 0 and 2, then only C is left."""
    model, (a, b, c) = fifo_scenario()
    before = figures.shelf(model.qm, APP_Q)
    assert tags_of(before, EXPIRED) == [a, c]
    assert list(trace(before, EXPIRED).x) == [0, 2]
    assert tags_of(before, "live") == [b]
    assert "CURDEPTH 3, 2 expired" in before.layout.title.text

    model.get()
    after = figures.shelf(model.qm, APP_Q)
    assert tags_of(after, EXPIRED) == [c]
    assert tags_of(after, "live") == []
    assert "CURDEPTH 1, 1 expired" in after.layout.title.text


def test_exp23_priority_get_discards_higher_and_earlier_expired_only() -> None:
    """EXP-23: C (priority 7, expired) and A (priority 5, ahead of B) are discarded; D
    (priority 1, expired, behind B) stays on the shelf in its own lane."""
    model = new_model("PRIORITY")
    a, b, c, d = puts(model, (10, 5), (C.MQEI_UNLIMITED, 5), (10, 7), (10, 1))
    model.advance(2_000)
    assert tags_of(figures.shelf(model.qm, APP_Q), EXPIRED) == [c, a, d]  # delivery order

    assert model.get().startswith(f"MQGET OK: {b}")
    timeline = figures.timeline(model.qm, APP_Q)
    assert sorted(tags_of(timeline, "discarded")) == sorted([a, c])
    shelf = figures.shelf(model.qm, APP_Q)
    assert tags_of(shelf, EXPIRED) == [d]
    assert list(trace(shelf, EXPIRED).y) == [1]  # lane = Priority on a PRIORITY queue


def test_exp25_depth_stacks_expired_messages_into_curdepth() -> None:
    """EXP-25: expired, undiscarded messages count in CURDEPTH; the get's discard removes one."""
    model, _ = fifo_scenario()
    fig = figures.depth(model.qm, APP_Q)
    live = trace(fig, "live")
    expired = trace(fig, "expired, not yet discarded (counted: EXP-25)")
    assert live.y[-1] + expired.y[-1] == model.qm.curdepth(APP_Q) == 3
    assert expired.y[-1] == 2
    model.get()
    fig = figures.depth(model.qm, APP_Q)
    assert trace(fig, "live").y[-1] == 0
    assert trace(fig, "expired, not yet discarded (counted: EXP-25)").y[-1] == 1


def test_exp20_replay_draws_the_queue_as_it_was() -> None:
    """EXP-20: at 0.5 s nothing had expired; at 1.0 s (the deadline) both were eligible; the
    replay is rebuilt from the event log even after the get changed the queue."""
    model, (a, b, c) = fifo_scenario()
    model.get()
    early = figures.shelf(model.qm, APP_Q, at_ms=500)
    assert tags_of(early, "live") == [a, b, c]
    at_deadline = figures.shelf(model.qm, APP_Q, at_ms=1_000)
    assert tags_of(at_deadline, EXPIRED) == [a, c]
    timeline = figures.timeline(model.qm, APP_Q, at_ms=1_500)
    assert tags_of(timeline, "discarded") == []  # the get at 2.0 s had not happened yet
    now_line = trace(timeline, "now")
    assert "replay 1.5 s" in now_line.text[0]
    assert list(now_line.x) == [1.5, 1.5]


@pytest.mark.parametrize("at_ms", [-1, 2_001, 1.5, True])
def test_at_ms_outside_the_past_is_a_value_error(at_ms: object) -> None:
    model, _ = fifo_scenario()
    with pytest.raises(ValueError, match="at_ms must be an int from 0 to now"):
        figures.timeline(model.qm, APP_Q, at_ms=at_ms)  # type: ignore[arg-type]


def test_uow01_backed_out_get_returns_to_the_shelf_with_its_deadline() -> None:
    """UOW-01: a syncpoint get leaves CURDEPTH (in unit of work), a backout puts it back."""
    model = new_model("FIFO")
    (a,) = puts(model, (50, 0))
    model.get(syncpoint=True)
    assert tags_of(figures.shelf(model.qm, APP_Q), "got in unit of work") == [a]
    assert "CURDEPTH 0" in figures.shelf(model.qm, APP_Q).layout.title.text
    model.backout()
    model.advance(6_000)
    assert tags_of(figures.shelf(model.qm, APP_Q), EXPIRED) == [a]
    assert tags_of(figures.timeline(model.qm, APP_Q), "backed out") == [a]


def test_lck01_locked_message_is_marked_then_discarded_under_the_cursor() -> None:
    """LCK-01: a browse with MQGMO_LOCK marks the message locked; once it expires, the get
    under the cursor discards it (2034) and the timeline shows the discard."""
    model = new_model("FIFO")
    (a,) = puts(model, (10, 0))
    model.get(browse="first", lock=True)
    assert tags_of(figures.shelf(model.qm, APP_Q), "locked by a browse") == [a]
    model.advance(1_000)
    assert "MQRC_NO_MSG_UNDER_CURSOR (2034)" in model.get(under_cursor=True)
    assert tags_of(figures.timeline(model.qm, APP_Q), "discarded") == [a]


def test_trg02_depth_shows_trigdpth_line_and_the_trigger() -> None:
    """TRG-02: on a depth-triggered queue the TRIGDPTH line is drawn and the trigger message
    marked where the depth (expired messages included) reached it."""
    model = new_model("FIFO")
    qm = model.qm
    qm.define_qlocal("INITQ")
    qm.alter_qlocal(APP_Q, trigger=True, trigtype="DEPTH", trigdpth=2, initq="INITQ")
    puts(model, (10, 0))
    model.advance(2_000)
    puts(model, (10, 0))
    fig = figures.depth(qm, APP_Q)
    line = trace(fig, "TRIGDPTH 2 (TRIGGER off: it fired)")
    assert list(line.y) == [2, 2]
    fired = trace(fig, "trigger message")
    assert list(fired.x) == [2.0] and list(fired.y) == [2]


def test_rpt03_report_inbox_shows_the_descriptor_of_an_expiration_report() -> None:
    """RPT-03/RPT-05: MsgType MQMT_REPORT, Feedback MQFB_EXPIRATION, CorrelId = the original's
    MsgId, Expiry MQEI_UNLIMITED; the report is there only after the discard (RPT-02)."""
    model = new_model("FIFO")
    model.put(b"x", expiry=10, report=C.MQRO_EXPIRATION_WITH_DATA, reply_to_q=REPLY_Q)
    model.advance(2_000)
    assert "0 message(s)" in figures.report_inbox(model.qm, REPLY_Q).layout.title.text
    model.get()
    inbox = figures.report_inbox(model.qm, REPLY_Q)
    assert "1 message(s), 1 report(s)" in inbox.layout.title.text
    assert column(inbox, "MsgType") == ["MQMT_REPORT"]
    assert column(inbox, "Feedback") == ["MQFB_EXPIRATION"]
    assert column(inbox, "CorrelId (= original MsgId)") == ["QM1#1"]
    assert column(inbox, "Expiry") == ["MQEI_UNLIMITED"]
    assert column(inbox, "data length") == ["1"]


def test_rpt07_passed_expiry_gives_the_report_600_tenths() -> None:
    """RPT-07: with MQRO_PASS_DISCARD_AND_EXPIRY the report lives 60 s, counting down."""
    model = new_model("FIFO")
    report = C.MQRO_EXPIRATION | C.MQRO_PASS_DISCARD_AND_EXPIRY
    model.put(b"x", expiry=10, report=report, reply_to_q=REPLY_Q)
    model.advance(2_000)
    model.get()
    model.advance(1_000)
    assert column(figures.report_inbox(model.qm, REPLY_Q), "Expiry") == ["590"]


def test_event_table_names_reason_codes_newest_first() -> None:
    model = new_model("FIFO")
    model.get()
    model.put(b"x", expiry=0)
    fig = figures.event_table(model.qm, APP_Q)
    assert column(fig, "reason") == ["MQRC_EXPIRY_ERROR (2013)", "MQRC_NO_MSG_AVAILABLE (2033)"]
    assert column(fig, "cause") == ["put", "get"]
    assert column(fig, "event") == ["failed", "failed"]
    model.put(b"x")
    assert column(figures.event_table(model.qm, last=1), "event") == ["● put"]
    assert len(figures.event_table(model.qm, last=1).data[0].cells.values[0]) == 1
    with pytest.raises(ValueError, match="last must be at least 1"):
        figures.event_table(model.qm, last=0)


def test_xqh05_inspector_clamps_the_embedded_expiry_at_zero() -> None:
    """XQH-05: outer 100, embedded 20; after 3 s the outer one has 70 left and the embedded one
    is 0, not negative, and labelled as clamped; the outer one alone decides discard (XQH-04)."""
    qm = xmit_qm()
    put_direct_xqh(qm, outer=100, embedded=20)
    qm.sim.advance(seconds=3)
    fig = figures.xqh_inspector(qm, XMITQ)
    outer, embedded = fig.data
    assert list(outer.y) == [70] and list(embedded.y) == [0]
    assert list(embedded.text) == ["0 (clamped: XQH-05)"]
    assert "QM1#1 → APP.IN at QM2" in outer.x[0]


def test_xqh03_inspector_counts_both_fields_down_after_a_remote_put() -> None:
    """XQH-01/XQH-03: a remote put gives both fields the application's Expiry; both count down."""
    qm = xmit_qm()
    remote = mq.Queue(qm, "TO.QM2")
    remote.put(b"x", mq.MD(Expiry=100))
    remote.put(b"y")  # unlimited: drawn hatched above the others
    qm.sim.advance(seconds=3)
    outer, embedded = figures.xqh_inspector(qm, XMITQ).data
    assert list(outer.text) == ["70", "MQEI_UNLIMITED"]
    assert list(embedded.text) == ["70", "MQEI_UNLIMITED"]
    assert list(outer.marker.pattern.shape) == ["", "/"]
    assert outer.y[1] > outer.y[0]


def test_md03_ibmi_profile_labels_views_with_short_names() -> None:
    """MD-03: profile ibmi shows MDEXP, MDPRI, EIULIM, MTRPRT, FBEXP, RCnnnn."""
    model = new_model("FIFO", profile="ibmi")
    model.put(b"x", expiry=10, report=C.MQRO_EXPIRATION, reply_to_q=REPLY_Q)
    model.put(b"y")
    model.advance(2_000)
    live = trace(figures.shelf(model.qm, APP_Q), "live").text
    assert list(live) == ["y · MDPRI 0 · MDEXP EIULIM at put · never expires"]  # data as label
    model.get()
    model.get()
    assert "RC2033 (MQRC_NO_MSG_AVAILABLE)" in model.last_result
    timeline = figures.timeline(model.qm, APP_Q)
    assert "MDEXP" in timeline.data[0].name
    assert "MDPRI" in trace(timeline, "put").hovertemplate
    events = figures.event_table(model.qm, APP_Q)
    assert "RC2033 (MQRC_NO_MSG_AVAILABLE)" in column(events, "reason")
    assert "EIULIM" in column(events, "MDEXP")
    inbox = figures.report_inbox(model.qm, REPLY_Q)
    assert column(inbox, "MDMT") == ["MTRPRT"]
    assert column(inbox, "MDFB") == ["FBEXP"]
    assert column(inbox, "MDEXP") == ["EIULIM"]
    qm = xmit_qm("ibmi")
    put_direct_xqh(qm, outer=100, embedded=20)
    assert "MDEXP" in figures.xqh_inspector(qm, XMITQ).layout.title.text


def all_figures(model: WorkbenchModel) -> dict[str, go.Figure]:
    qm = model.qm
    return {
        "timeline": figures.timeline(qm, APP_Q),
        "shelf": figures.shelf(qm, APP_Q),
        "depth": figures.depth(qm, APP_Q),
        "event_table": figures.event_table(qm),
        "report_inbox": figures.report_inbox(qm, REPLY_Q),
    }


def test_every_figure_is_titled_and_every_plot_has_labelled_axes() -> None:
    model, _ = fifo_scenario()
    drawn = all_figures(model)
    qm = xmit_qm()
    put_direct_xqh(qm, outer=100, embedded=20)
    drawn["xqh_inspector"] = figures.xqh_inspector(qm, XMITQ)
    for name, fig in drawn.items():
        assert fig.layout.title.text, name
        if fig.data[0].type != "table":
            assert fig.layout.xaxis.title.text and fig.layout.yaxis.title.text, name


def test_a_view_keeps_its_traces_whatever_the_state() -> None:
    """Widgets update figures in place, so a view's traces never change in number or name."""
    empty = new_model("FIFO")
    busy, _ = fifo_scenario()
    busy.get()
    for (name, a), b in zip(all_figures(empty).items(), all_figures(busy).values(), strict=True):
        assert [t.name for t in a.data] == [t.name for t in b.data], name


def test_timeline_draws_the_latest_lanes_only() -> None:
    model = new_model("FIFO")
    puts(model, *[(C.MQEI_UNLIMITED, 0)] * 5)
    fig = figures.timeline(model.qm, APP_Q, max_lanes=3)
    assert list(fig.layout.yaxis.ticktext) == ["C", "D", "E"]
    assert "latest 3 of 5 messages" in fig.layout.title.text
