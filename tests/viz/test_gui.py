"""Widget callbacks without a browser: set control values, ``button.click()``, read the figures.

A failing callback would otherwise only be logged by ipywidgets; the widgets keep its traceback
in ``.failures``, and every test here checks that list is empty at the end.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go
import pytest

import mqlearn as mq
from mqlearn import CMQC as C
from mqlearn.viz import Comparison, Workbench, XqhInspector
from mqlearn.viz.charts import LiveFigure, same
from mqlearn.viz.figures import Spec
from mqlearn.viz.gui import prepare_queue_manager
from tests.viz.helpers import APP_Q, XMITQ, put_direct_xqh, tags_of, trace, xmit_qm

EXPIRED = "expired, not yet discarded"


def walk(widget: widgets.Widget) -> Iterator[widgets.Widget]:
    yield widget
    for child in getattr(widget, "children", ()):
        yield from walk(child)


def text_of(html_widget: widgets.HTML) -> str:
    """The text an HTML widget shows (tags removed, entities decoded)."""
    return html.unescape(re.sub(r"<[^>]+>", "", html_widget.value))


def put(wb: Workbench | Comparison, **values: Any) -> None:
    for name, value in values.items():
        getattr(wb, name).value = value
    wb.put_button.click()


def get(wb: Workbench) -> None:
    """MQGET by its button, then what the browser does once the view has played the walk to its
    end (reports it in ``finished``): only then does the result line show the outcome."""
    wb.get_button.click()
    assert wb.stage.transition is not None
    wb.queue_view.finished = wb.stage.transition["n"]


def advance(wb: Workbench | Comparison, seconds: float) -> None:
    labels = {0.1: "+0.1 s", 1: "+1 s", 10: "+10 s"}
    next(b for b in wb.advance_buttons if b.description == labels[seconds]).click()


def test_dom_hooks_and_descriptions_of_every_control() -> None:
    """Browser tests find the main widgets by CSS class; every control says what it is."""
    wb = Workbench()
    assert not wb.chart_box.children  # nothing drawn (nor plotly.js loaded) until opened
    wb.charts.selected_index = 0
    classes = {c for w in walk(wb.widget) for c in w._dom_classes}
    for hook in (
        "mq-put",
        "mq-get",
        "mq-advance-1s",
        "mq-advance-10s",
        "mq-play",
        "mq-summary",
        "mq-eventlog",
        "mq-timeline",
        "mq-depth",
        # docs/views.md, the stable hooks
        "mq-browse",
        "mq-step",
        "mq-undo",
        "mq-redo",
        "mq-reset",
        "mq-advance-100ms",
        "mq-queue-type",
        "mq-profile",
        "mq-expiry",
        "mq-priority",
        "mq-data",
        "mq-result",
    ):
        assert hook in classes, hook
    passive = (widgets.HTML, widgets.Label, widgets.Output, widgets.Box, go.FigureWidget)
    controls = [
        w
        for w in walk(wb.widget)
        if isinstance(w, widgets.Button | widgets.ValueWidget) and not isinstance(w, passive)
    ]
    assert len(controls) > 15
    assert all(w.description for w in controls), [type(w).__name__ for w in controls]


def test_exp22_put_advance_get_updates_figures_summary_and_result() -> None:
    """EXP-22 through the widget: the expired message is shown expired, then discarded."""
    wb = Workbench(msgdlvsq="FIFO")
    wb.charts.selected_index = 0  # the charts and the event log are drawn while open
    before = text_of(wb.summary)
    put(wb, data="first", expiry=10, priority=0)
    put(wb, data="second", expiry=-1)
    assert text_of(wb.result).count("MQPUT OK: B (MsgId QM1#2)") == 1
    assert tags_of(wb.shelf, "live") == ["A", "B"]
    assert text_of(wb.summary) != before and "CURDEPTH 2" in text_of(wb.summary)

    advance(wb, 1)
    assert tags_of(wb.shelf, EXPIRED) == ["A"]
    assert list(trace(wb.timeline, "now").x) == [1.0, 1.0]
    assert "1 expired but not yet discarded" in text_of(wb.summary)

    get(wb)
    assert "MQGET OK: B (MsgId QM1#2)" in text_of(wb.result)
    assert "discarded 1 expired on the way: A (MsgId QM1#1) (EXP-22)" in text_of(wb.result)
    assert tags_of(wb.timeline, "discarded") == ["A"]
    assert tags_of(wb.shelf, EXPIRED) == []
    assert trace(wb.depth, "live").y[-1] == 0
    assert "MQRC_NO_MSG_AVAILABLE" not in text_of(wb.event_log)
    assert "✕ discard" in text_of(wb.event_log)
    get(wb)
    assert "MQRC_NO_MSG_AVAILABLE (2033)" in text_of(wb.result)
    assert "MQRC_NO_MSG_AVAILABLE (2033)" in text_of(wb.event_log)
    assert wb.failures == []


def test_browse_lock_under_cursor_and_unit_of_work_controls() -> None:
    """LCK-01 and UOW-01 from the get panel's options."""
    wb = Workbench()
    put(wb, expiry=600)
    wb.browse.value, wb.lock.value = "first", True
    get(wb)
    assert "MQGMO_BROWSE_FIRST OK: A (MsgId QM1#1)" in text_of(wb.result)
    assert tags_of(wb.shelf, "locked by a browse") == ["A"]
    wb.browse.value, wb.lock.value, wb.under_cursor.value = "get", False, True
    wb.get_syncpoint.value = True
    get(wb)
    assert "MQGET OK: A (MsgId QM1#1)" in text_of(wb.result)
    assert tags_of(wb.shelf, "got in unit of work") == ["A"]
    wb.backout_button.click()
    assert "MQBACK OK: 1 operation(s) backed out" in text_of(wb.result)
    assert tags_of(wb.shelf, "live") == ["A"]
    wb.commit_button.click()
    assert "MQCMIT OK" in text_of(wb.result)
    assert wb.failures == []


def test_match_fields_accept_tags_and_explain_bad_input() -> None:
    wb = Workbench()
    put(wb, expiry=-1)
    put(wb, expiry=-1)
    wb.match_msg_id.value = "QM1#2"
    get(wb)
    assert "MQGET OK: B (MsgId QM1#2)" in text_of(wb.result)
    wb.match_msg_id.value = "not an id"
    get(wb)
    assert "MQGET not called: identifier 'not an id'" in text_of(wb.result)
    assert wb.failures == []


def test_play_advances_the_clock_one_step_per_tick() -> None:
    """ipywidgets.Play drives the clock: each tick is one play step; a reset is not a tick."""
    wb = Workbench()
    wb.play_step.value = 100
    wb.play.value = 3
    assert wb.model.now_ms == 300
    wb.play.value = 0  # the play button starting over
    assert wb.model.now_ms == 300
    assert trace(wb.timeline, "now").text[0] == "now 0.3 s"
    assert wb.failures == []


def test_replay_slider_redraws_the_past_and_back_to_now() -> None:
    """EXP-20 replayed: at 0.5 s the message was live; now it has expired."""
    wb = Workbench()
    put(wb, expiry=10)
    advance(wb, 1)
    advance(wb, 1)
    assert wb.replay.max == 2.0 and wb.replay.value == 2.0
    wb.replay_at(0.5)
    assert tags_of(wb.shelf, "live") == ["A"]
    assert "at 0.5 s" in wb.shelf.layout.title.text
    assert "replay" in text_of(wb.summary)
    assert list(trace(wb.depth, "replay").x) == [0.5, 0.5]
    wb.live_button.click()
    assert tags_of(wb.shelf, EXPIRED) == ["A"]
    assert list(trace(wb.depth, "replay").x) == []
    assert wb.replay.value == 2.0
    assert wb.failures == []


def test_ibmi_workbench_describes_controls_with_short_names() -> None:
    """MD-03: the controls and views of profile ibmi use RPG short names."""
    wb = Workbench(profile="ibmi")
    assert (wb.expiry.description, wb.priority.description) == ("MDEXP", "MDPRI")
    assert wb.report.options[1][0] == "ROEXP"
    assert wb.lock.description == "GMLK" and wb.under_cursor.description == "GMMUC"
    get(wb)
    assert "RC2033 (MQRC_NO_MSG_AVAILABLE)" in text_of(wb.result)
    assert "MDEXP" in wb.timeline.data[0].name
    assert wb.failures == []


def test_reports_reach_the_inbox_widget() -> None:
    """RPT-02: the expiration report appears once the get discards the message."""
    wb = Workbench(msgdlvsq="FIFO")
    wb.charts.selected_index = 0
    put(wb, expiry=10, report=C.MQRO_EXPIRATION)
    advance(wb, 10)
    assert "Report inbox REPLY.Q: 0 message(s)" in text_of(wb.inbox)
    get(wb)
    assert "1 message(s), 1 report(s)" in text_of(wb.inbox)
    assert "MQFB_EXPIRATION" in text_of(wb.inbox)
    # the view's walk cites the rules of its steps, and carries their cards for the learner
    transition = wb.queue_view.state["transition"]
    assert {"EXP-22", "RPT-02"} <= set(transition["rules"])
    assert transition["rules"]["RPT-02"]["heading"] == "RPT-02 — The report is made at discard time"
    assert wb.failures == []


def test_comparison_same_puts_different_discards() -> None:
    """EXP-22 vs EXP-23: FIFO discards the first put, PRIORITY the high-priority one."""
    cmp = Comparison()
    cmp.chart_section.selected_index = 0  # the timelines are drawn while open
    put(cmp, expiry=10, priority=0)  # A: FIFO.Q QM1#1, PRIORITY.Q QM1#2
    put(cmp, expiry=-1, priority=5)  # B: QM1#3, QM1#4
    put(cmp, expiry=10, priority=9)  # C: QM1#5, QM1#6
    advance(cmp, 1)
    cmp.get_button.click()
    for stage in cmp.stages:  # what the browser reports once each view has played its walk
        stage.view.finished = stage.view.state["transition"]["n"]
    fifo, prio = cmp.views
    fifo_charts, prio_charts = cmp.charts
    assert "MQGET OK: B (MsgId QM1#3)" in text_of(fifo.result)
    assert "discarded 1 expired on the way: A (MsgId QM1#1) (EXP-22)" in text_of(fifo.result)
    assert "MQGET OK: B (MsgId QM1#4)" in text_of(prio.result)
    assert "discarded 1 expired on the way: C (MsgId QM1#6) (EXP-23)" in text_of(prio.result)
    assert tags_of(fifo_charts.timeline.figure, "discarded") == ["A"]
    assert tags_of(prio_charts.timeline.figure, "discarded") == ["C"]
    assert tags_of(fifo_charts.shelf.figure, EXPIRED) == ["C"]
    assert tags_of(prio_charts.shelf.figure, EXPIRED) == ["A"]
    walks = [
        [(st["op"], st.get("label")) for st in stage.view.state["transition"]["steps"]]
        for stage in cmp.stages
    ]
    assert walks[0][:4] == [("visit", "A"), ("discard", "A"), ("visit", "B"), ("return", "B")]
    assert walks[1][:4] == [("visit", "C"), ("discard", "C"), ("visit", "B"), ("return", "B")]
    assert cmp.qm.sim.now == 1_000  # one clock, advanced once
    assert "FIFO.Q (FIFO)" in cmp.text() and "PRIORITY.Q (PRIORITY)" in cmp.text()
    assert cmp.failures == []


def test_xqh05_inspector_widget_counts_down_and_clamps() -> None:
    qm = xmit_qm()
    put_direct_xqh(qm, outer=100, embedded=20)
    inspector = XqhInspector(qm, XMITQ)
    assert list(inspector.figure.data[1].y) == [20]
    advance(inspector, 1)  # type: ignore[arg-type]
    assert list(inspector.figure.data[0].y) == [90]
    assert list(inspector.figure.data[1].y) == [10]
    advance(inspector, 1)  # type: ignore[arg-type]
    assert list(inspector.figure.data[0].y) == [80]
    assert list(inspector.figure.data[1].text) == ["0 (clamped: XQH-05)"]
    assert "rule XQH-05" in text_of(inspector.summary)
    assert inspector._repr_mimebundle_()["text/plain"] == inspector.text()
    assert inspector.failures == []


def test_mimebundle_text_is_the_summary() -> None:
    """nbval and static renders see the text summary as text/plain."""
    wb = Workbench()
    put(wb, expiry=10)
    bundle = wb._repr_mimebundle_()
    assert bundle["text/plain"].startswith("At 0.0 s on QM1: APP.IN (FIFO) has CURDEPTH 1")
    assert "MQPUT OK: A (MsgId QM1#1)" in bundle["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_a_failing_callback_is_shown_not_swallowed(monkeypatch: pytest.MonkeyPatch) -> None:
    wb = Workbench()

    def broken(**_: object) -> str:
        raise RuntimeError("boom")

    monkeypatch.setattr(wb.model, "put", broken)
    wb.put_button.click()
    assert len(wb.failures) == 1 and "RuntimeError: boom" in wb.failures[0]
    assert any("RuntimeError: boom" in o.get("text", "") for o in wb.errors.outputs)


def test_workbench_on_a_given_queue_manager() -> None:
    qm = mq.QueueManager("QMX", profile="zos")
    qm.define_qlocal(APP_Q, msgdlvsq="FIFO")
    wb = Workbench(qm, APP_Q)  # FIFO, the workbench's first queue type
    assert wb.model.qm is qm and "REPLY.Q" in qm.objects
    with pytest.raises(ValueError, match="exists with MSGDLVSQ\\(FIFO\\), not PRIORITY"):
        Workbench(qm, APP_Q, msgdlvsq="PRIORITY")
    with pytest.raises(ValueError, match="profile 'ibmi' given, but QMX has profile 'zos'"):
        prepare_queue_manager(qm, "ibmi", {}, None)


def test_live_figure_sends_only_what_changed_and_keeps_its_traces() -> None:
    spec = Spec([{"type": "scatter", "x": [1.0, None], "name": "a"}], {"height": 300})
    live = LiveFigure(spec, "mq-test")
    assert same([1.0, None], [1.0, None])  # a gap in a line equals a gap
    assert not same([1.0, None], [1.0, 0.0])
    assert not same({"a": 1}, {"a": 1, "b": 2})
    live.show(Spec([{"type": "scatter", "x": [1.0, None], "name": "a"}], {"height": 300}))
    assert live.figure.data[0].x == (1.0, None)
    live.show(Spec([{"type": "scatter", "x": [2.0], "name": "a"}], {"height": 300}))
    assert list(live.figure.data[0].x) == [2.0]
    with pytest.raises(ValueError, match="a view must keep its traces: 1 shown, 0 given"):
        live.show(Spec([], {}))


def test_workbench_without_reply_queue_hides_the_inbox() -> None:
    wb = Workbench(reply_q=None)
    assert wb.inbox.layout.display == "none" and wb.reply_to.value == ""
    put(wb, expiry=10)
    assert "MQPUT OK: A (MsgId QM1#1)" in text_of(wb.result)
    assert wb.failures == []
