"""The figures, drawn from scripted scenarios and read back without a browser.

Each test names the rule its picture has to show. Marker traces carry the message labels (A, B, …)
as their ``text``, so a test can ask which messages a figure marks as discarded, got or expired.
"""

from __future__ import annotations

import re

import pandas as pd
import plotly.graph_objects as go
import pytest

import mqlearn as mq
from mqlearn import CMQC as C
from mqlearn.viz import figures, pipeline_figures, xqh
from mqlearn.viz.model import WorkbenchModel
from mqlearn.viz.spec import spread
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
    qm.define_process("APP.PROC")  # a process and a trigger monitor (TRG-04)
    mq.Queue(qm, "INITQ", C.MQOO_INPUT_SHARED)
    qm.alter_qlocal(
        APP_Q, trigger=True, trigtype="DEPTH", trigdpth=2, initq="INITQ", process="APP.PROC"
    )
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
    outer, embedded = fig.data[:2]  # the bars; then the markers saying what a 0 means
    assert list(outer.y) == [70] and list(embedded.y) == [0]
    assert list(embedded.text) == ["0 (clamped: XQH-05)"]
    assert outer.hovertext[0] == "body → APP.IN at QM2"  # the learner's label, not the MsgId
    assert list(fig.layout.xaxis.ticktext) == ["body<br>→ APP.IN at QM2"]
    assert fig.layout.title.text.startswith("transmission queue QM2: outer and embedded Expiry")


def test_xqh03_inspector_counts_both_fields_down_after_a_remote_put() -> None:
    """XQH-01/XQH-03: a remote put gives both fields the application's Expiry; both count down."""
    qm = xmit_qm()
    remote = mq.Queue(qm, "TO.QM2")
    remote.put(b"x", mq.MD(Expiry=100))
    remote.put(b"y")  # unlimited: drawn hatched above the others
    qm.sim.advance(seconds=3)
    outer, embedded = figures.xqh_inspector(qm, XMITQ).data[:2]
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


# -- honest charts: the time axis runs past now ---------------------------------------------------
DEPTH_EXPIRED = "expired, not yet discarded (counted: EXP-25)"


def drawn_at(fig: go.Figure, name: str, x: float) -> float:
    """The value a step (``hv``) trace draws at ``x``: its y at the last point at or before x."""
    t = trace(fig, name)
    before = [y for tx, y in zip(t.x, t.y, strict=True) if tx <= x]
    return float(before[-1]) if before else 0.0


def test_exp22_depth_axis_runs_past_now_so_the_drop_at_now_shows() -> None:
    """EXP-22 on the depth chart: three messages expire at 1.0 s (still counted: EXP-25); the get
    at 2.0 s discards all three (none is live). The drop from 3 to 0 happens at now; it used to
    fall on the right edge of the axis ([0, 2.0]) and the area showed 3 next to a title saying
    CURDEPTH 0. Now the axis runs 1 s (the minimum margin) past now and the 0 after the drop is
    drawn up to its end."""
    model = new_model("FIFO")
    puts(model, (10, 0), (10, 0), (10, 0))
    model.advance(2_000)
    assert "MQRC_NO_MSG_AVAILABLE" in model.get()
    fig = figures.depth(model.qm, APP_Q)
    assert list(fig.layout.xaxis.range) == [0, 3.0]
    live, expired = trace(fig, "live"), trace(fig, DEPTH_EXPIRED)
    # the puts, the deadline, the drop at now, and the axis end
    assert list(live.x) == list(expired.x) == [0.0, 1.0, 2.0, 3.0]
    assert list(live.y) == [3, 0, 0, 0] and list(expired.y) == [0, 3, 0, 0]
    assert "CURDEPTH 0, 0 of them expired" in fig.layout.title.text
    assert drawn_at(fig, "live", 2.5) + drawn_at(fig, DEPTH_EXPIRED, 2.5) == 0  # drawn past now


def test_exp25_depth_margin_is_a_share_of_the_span_and_the_trigdpth_line_reaches_it() -> None:
    """EXP-25 with TRG-02: at 20 s the margin is 8 % of the span (1.6 s), more than the 1 s
    minimum; the live and expired stack and the TRIGDPTH line run to the axis end."""
    model = new_model("FIFO")
    qm = model.qm
    qm.define_qlocal("INITQ")
    qm.alter_qlocal(APP_Q, trigger=True, trigtype="DEPTH", trigdpth=5, initq="INITQ")
    puts(model, (10, 0), (C.MQEI_UNLIMITED, 0))
    model.advance(20_000)
    fig = figures.depth(qm, APP_Q)
    end = fig.layout.xaxis.range[1]
    assert end == pytest.approx(21.6)
    assert trace(fig, "live").x[-1] == trace(fig, DEPTH_EXPIRED).x[-1] == end
    assert trace(fig, "TRIGDPTH 5 (TRIGGER on)").x[-1] == end
    assert drawn_at(fig, "live", end) == 1 and drawn_at(fig, DEPTH_EXPIRED, end) == 1


def test_timeline_axis_runs_past_the_time_drawn() -> None:
    """The timeline's axis runs at least 5 s (LOOKAHEAD_MS) past the time drawn, now or replay,
    so marks at that time sit inside the plot."""
    model, _ = fifo_scenario()
    model.get()
    for at_ms in (None, 1_500):
        fig = figures.timeline(model.qm, APP_Q, at_ms=at_ms)
        now_x = trace(fig, "now").x[0]
        assert fig.layout.xaxis.range[1] >= now_x + 5, at_ms


def test_pipeline_depth_series_draws_the_last_row_past_its_time() -> None:
    """EXP-25 in a replay's depth series: the last row (all discarded at 1 h) is drawn on to an
    axis end 8 % of the span later, not left as a point on the edge."""
    frame = pd.DataFrame(
        {"time_ms": [0, 1_800_000, 3_600_000], "live": [2, 1, 0], "expired": [0, 1, 0]}
    )
    fig = pipeline_figures.depth_series(frame, "QMA/Q1")
    live, expired = fig.data
    assert list(live.x) == pytest.approx([0, 0.5, 1.0, 1.08])
    assert list(fig.layout.xaxis.range) == pytest.approx([0, 1.08])
    assert list(live.y) == [2, 1, 0, 0] and list(expired.y) == [0, 1, 0, 0]


# -- honest charts: the MQXQH inspector keeps its scale -------------------------------------------
def test_xqh03_inspector_scale_is_fixed_by_the_values_at_put() -> None:
    """XQH-03: outer 130 and embedded 20 count down; the y axis is fixed from the largest Expiry
    as put (130, rounded up to 200, the axis to 1.25 × 200) and stays while both count down and
    after the embedded one is clamped (XQH-05) and the outer one expired. It used to follow the
    largest value now (1.15² × 130 at put, 1.15² × 100 three seconds later)."""
    qm = xmit_qm()
    put_direct_xqh(qm, outer=130, embedded=20)
    ranges, values = [], []
    for seconds in (0, 3, 10, 20):
        qm.sim.advance(seconds=seconds - qm.sim.now / 1000)
        fig = figures.xqh_inspector(qm, XMITQ)
        ranges.append(list(fig.layout.yaxis.range))
        values.append((fig.data[0].y[0], fig.data[1].y[0]))
    assert ranges == [[0, 250]] * 4
    assert values == [(130, 20), (100, 0), (30, 0), (0, 0)]


def test_xqh_scale_rounds_up_to_one_two_or_five() -> None:
    rows = [figures.XqhRow("t", "d", 0, 0, outer, C.MQEI_UNLIMITED) for outer in (7, 100, 101, 450)]
    assert [xqh.xqh_scale([row]) for row in rows] == [10, 100, 200, 500]
    assert xqh.xqh_scale([]) == 10


def test_xqh05_zero_labels_are_short_and_explained_by_a_marker_and_its_legend() -> None:
    """XQH-05 and XQH-04 without colliding labels: a bar shows its value only ("0"), the full
    label stays the bar's text (shown on hover); a clamped embedded Expiry gets a marker above
    its own bar, an expired message one between its two bars, each with a legend entry."""
    qm = xmit_qm()
    put_direct_xqh(qm, outer=100, embedded=20, data=b"A")  # clamped after 2 s
    put_direct_xqh(qm, outer=10, embedded=10, data=b"B")  # expired after 1 s
    qm.sim.advance(seconds=3)
    fig = figures.xqh_inspector(qm, XMITQ)
    outer, embedded = fig.data[:2]
    clamped = trace(fig, "embedded Expiry ran out, held at 0 (XQH-05)")
    expired = trace(fig, "expired: the next get or channel discards it")
    assert list(embedded.text) == ["0 (clamped: XQH-05)", "0 (expired: discarded by the next get)"]
    assert list(embedded.texttemplate) == ["0", "0"]  # drawn: the value alone
    assert list(outer.texttemplate) == ["%{text}", "0"] and outer.text[0] == "70"
    # the marker sits on the embedded bar of message 0, the other on message 1's pair
    embedded_centre = embedded.x[0] + embedded.offset + embedded.width / 2
    assert list(clamped.x) == pytest.approx([embedded_centre])
    assert list(expired.x) == [1.0]
    assert clamped.showlegend and expired.showlegend
    assert "A → APP.IN at QM2: embedded Expiry 0 (clamped: XQH-05)" in clamped.text[0]
    # nothing to explain: no points, no legend entries, the same traces
    fresh = xmit_qm()
    put_direct_xqh(fresh, outer=100, embedded=20)
    again = figures.xqh_inspector(fresh, XMITQ)
    assert [t.name for t in again.data] == [t.name for t in fig.data]
    assert not any(t.showlegend for t in again.data[2:])


def test_xqh_drawn_labels_are_short_or_inside_their_bar() -> None:
    """No long label sits on top of a bar: a drawn label is a number, or the unlimited value's
    name drawn inside its (tall) bar."""
    qm = xmit_qm()
    put_direct_xqh(qm, outer=100, embedded=20)
    remote = mq.Queue(qm, "TO.QM2")
    remote.put(b"x", mq.MD(Expiry=30))
    remote.put(b"y")
    qm.sim.advance(seconds=5)
    for bars in figures.xqh_inspector(qm, XMITQ).data[:2]:
        for text, template, where in zip(
            bars.text, bars.texttemplate, bars.textposition, strict=True
        ):
            drawn = text if template == "%{text}" else template
            assert drawn.isdigit() or (drawn == "MQEI_UNLIMITED" and where == "inside"), drawn


# -- honest charts: markers at the same instant are spread ----------------------------------------
def marks_at(fig: go.Figure, x: float) -> dict[str, list[float]]:
    """The y of every timeline marker at ``x``, by trace name."""
    found: dict[str, list[float]] = {}
    for t in fig.data:
        if t.mode == "markers" and t.x is not None:
            found.update({t.name: [y for tx, y in zip(t.x, t.y, strict=True) if tx == x]})
    return {name: ys for name, ys in found.items() if ys}


def test_rpt02_discard_and_its_report_at_the_same_instant_are_drawn_apart() -> None:
    """RPT-02 on the timeline: the get at 2.0 s discards A and sends its report at that instant,
    and B is put and got at that instant too. Each pair is drawn half a lane apart around its
    lane (A on lane 0, B on lane 1), the first to happen on top; x stays the true time."""
    model = new_model("FIFO")
    model.put(b"x", expiry=10, report=C.MQRO_EXPIRATION, reply_to_q=REPLY_Q, label="A")
    model.advance(2_000)
    model.put(b"y", label="B")
    assert model.get().startswith("MQGET OK: B")
    fig = figures.timeline(model.qm, APP_Q)
    assert marks_at(fig, 2.0) == {
        "put": [0.75],
        "got": [1.25],
        "discarded": [-0.25],
        "expiration report sent": [0.25],
    }
    assert marks_at(fig, 0.0) == {"put": [0.0]}  # alone at its instant: on the lane
    assert "at %{x:.1f} s" in trace(fig, "discarded").hovertemplate  # the true time


def test_uow01_three_marks_at_one_instant_stay_within_the_lane() -> None:
    """UOW-01: put, syncpoint get and backout at 0 s: three markers 0.4 lane apart (closer than
    half a lane, so that they stay within 0.8 of it), in the order they happened."""
    model = new_model("FIFO")
    puts(model, (C.MQEI_UNLIMITED, 0))
    model.get(syncpoint=True)
    model.backout()
    fig = figures.timeline(model.qm, APP_Q)
    assert marks_at(fig, 0.0) == {
        "put": [pytest.approx(-0.4)],
        "got in unit of work": [pytest.approx(0.0)],
        "backed out": [pytest.approx(0.4)],
    }


def test_spread_offsets_equal_values_only() -> None:
    assert list(spread([1, 2, 1, 1, 3])) == pytest.approx([-0.3, 0, 0, 0.3, 0])
    assert list(spread([5, 5], step=0.5)) == [-0.25, 0.25]


# -- honest charts: the numbers in a title are the numbers drawn ----------------------------------
def title_numbers(fig: go.Figure, pattern: str) -> tuple[str, ...]:
    found = re.search(pattern, fig.layout.title.text)
    assert found, (pattern, fig.layout.title.text)
    return found.groups()


def replay_scenario() -> WorkbenchModel:
    """FIFO: A (expires at 1.0 s) and B (unlimited) put at 0; the get at 2.0 s discards A and
    gets B: nothing is left."""
    model = new_model("FIFO")
    puts(model, (10, 0), (C.MQEI_UNLIMITED, 0))
    model.advance(2_000)
    assert model.get().startswith("MQGET OK: B")
    return model


@pytest.mark.parametrize(
    ("at_ms", "depth", "expired"), [(500, 2, 0), (1_000, 2, 1), (1_500, 2, 1), (None, 0, 0)]
)
def test_exp20_depth_title_states_the_depth_drawn_at_the_time_drawn(
    at_ms: int | None, depth: int, expired: int
) -> None:
    """EXP-20/EXP-25 in replay: A expires at 1.0 s. The title used to give the values at now
    (CURDEPTH 0, 0 expired) whatever the replayed time; it gives those drawn at the replay line
    (before, at and after the deadline), read back here from the stacked traces."""
    model = replay_scenario()
    fig = figures.depth(model.qm, APP_Q, at_ms=at_ms)
    when = float(title_numbers(fig, r"at (?:replay )?([\d.]+) s")[0])
    x = trace(fig, "replay").x[0] if at_ms is not None else model.now_ms / 1000
    assert when == x
    shown_depth, shown_expired = map(int, title_numbers(fig, r"CURDEPTH (\d+), (\d+) of them"))
    drawn_expired = drawn_at(fig, DEPTH_EXPIRED, x)
    assert shown_expired == drawn_expired == expired
    assert shown_depth == drawn_at(fig, "live", x) + drawn_expired == depth


@pytest.mark.parametrize(("at_ms", "depth", "expired"), [(500, 2, 0), (1_500, 2, 1), (None, 0, 0)])
def test_exp20_shelf_title_counts_the_markers_drawn(
    at_ms: int | None, depth: int, expired: int
) -> None:
    """EXP-20 on the shelf, before and after A's deadline and now: CURDEPTH is the number of
    markers drawn (none got in a unit of work here), the expired count that of the expired ones."""
    model = replay_scenario()
    fig = figures.shelf(model.qm, APP_Q, at_ms=at_ms)
    shown = tuple(map(int, title_numbers(fig, r"CURDEPTH (\d+), (\d+) expired")))
    drawn = sum(count(fig, state) for state in ("live", EXPIRED, "uncommitted put"))
    drawn += count(fig, "locked by a browse")
    assert shown == (drawn, count(fig, EXPIRED)) == (depth, expired)


@pytest.mark.parametrize("at_ms", [500, 1_500, None])
def test_timeline_title_states_the_time_and_the_lanes_drawn(at_ms: int | None) -> None:
    """The timeline's time is where its "now" line is drawn; "latest N of M" counts its lanes."""
    model = replay_scenario()
    puts(model, *[(C.MQEI_UNLIMITED, 0)] * 3)
    fig = figures.timeline(model.qm, APP_Q, at_ms=at_ms, max_lanes=2 if at_ms is None else None)
    (when,) = title_numbers(fig, r"at ([\d.]+) s")
    assert float(when) == trace(fig, "now").x[0]
    lanes = count(fig, "lifetime: put → deadline (Expiry)") // 3  # start, end, NaN per lane
    assert lanes == len(fig.layout.yaxis.ticktext)
    if at_ms is None:
        assert title_numbers(fig, r"latest (\d+) of (\d+) messages") == (str(lanes), "5")
    else:
        assert "latest" not in fig.layout.title.text and lanes == 2


def test_xqh_title_counts_the_messages_drawn() -> None:
    qm = xmit_qm()
    put_direct_xqh(qm, outer=100, embedded=20)
    mq.Queue(qm, "TO.QM2").put(b"x", mq.MD(Expiry=30))
    qm.sim.advance(seconds=1)
    fig = figures.xqh_inspector(qm, XMITQ)
    when, shown = title_numbers(fig, r"at ([\d.]+) s \((\d+) message")
    assert float(when) == qm.sim.now / 1000
    assert int(shown) == len(fig.data[0].x) == len(fig.data[1].x) == 2


def test_table_titles_count_the_rows_drawn() -> None:
    """The event log's "last N event(s)" and the inbox's counts are those of the rows shown."""
    model = new_model("FIFO")
    for _ in range(3):
        model.put(b"x", expiry=10, report=C.MQRO_EXPIRATION, reply_to_q=REPLY_Q)
    model.advance(2_000)
    model.get()
    events = figures.event_table(model.qm, APP_Q, last=4)
    (shown,) = title_numbers(events, r"last (\d+) event")
    assert int(shown) == len(column(events, "seq")) == 4
    events = figures.event_table(model.qm, APP_Q, at_ms=0)
    (shown,) = title_numbers(events, r"last (\d+) event")
    assert int(shown) == len(column(events, "seq")) == 3  # the three puts
    inbox = figures.report_inbox(model.qm, REPLY_Q)
    total, reports = title_numbers(inbox, r"(\d+) message\(s\), (\d+) report")
    assert int(total) == len(column(inbox, "MsgType")) == 3
    assert int(reports) == column(inbox, "MsgType").count("MQMT_REPORT") == 3
    clipped = figures.report_inbox(model.qm, REPLY_Q, last=2)
    (first,) = title_numbers(clipped, r"first (\d+) shown")
    assert int(first) == len(column(clipped, "MsgType")) == 2
