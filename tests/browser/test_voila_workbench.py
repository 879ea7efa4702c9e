"""The Voila workbench (notebooks/workbench.ipynb) in a real browser: put three messages, move the
clock, get, and see on the page what rule EXP-23 (priority queues) says happens to the expired
ones."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Locator, Page, expect

from tests.browser import servers

WORKBENCH = Path(__file__).resolve().parents[2] / "notebooks" / "workbench.ipynb"

# (Data, Priority, Expiry in tenths of a second) on the workbench's PRIORITY queue.
MESSAGES = [
    ("urgent", 5, 10),  # expires at 1 s, at the head of the queue
    ("steady", 3, 600),  # lives a minute
    ("minor", 1, 20),  # expires at 2 s, behind the live message
]

CHANGED = "([selector, before]) => document.querySelector(selector).innerHTML !== before"


def _type(field: Locator, value: object) -> None:
    """Type into a widget's input and leave it, which is when ipywidgets sends the value."""
    field.fill(str(value))
    field.press("Tab")


def test_exp23_workbench_discards_the_expired_head_on_get_and_keeps_the_one_behind(
    page: Page, page_errors: list[str], tmp_path: Path, artifacts: Path
) -> None:
    """EXP-23/EXP-25 on screen: at 2 s both short-lived messages have expired and still count;
    the get discards the one ahead of the live message, returns the live one and leaves the one
    behind it. The figures' titles and marks must follow, not only the text."""
    with servers.voila(WORKBENCH, tmp_path / "voila.log") as url:
        page.goto(url)
        summary, result = page.locator(".mq-summary"), page.locator(".mq-result")
        shelf, timeline = page.locator(".mq-shelf"), page.locator(".mq-timeline")
        expect(summary).to_contain_text("Nothing has happened on it yet")
        expect(shelf).to_contain_text("CURDEPTH 0, 0 expired not yet discarded")

        for number, (data, priority, expiry) in enumerate(MESSAGES, start=1):
            _type(page.get_by_label("Data", exact=True), data)
            _type(page.get_by_label("Priority", exact=True), priority)
            _type(page.get_by_label("Expiry", exact=True), expiry)
            page.locator(".mq-put").click()
            expect(result).to_contain_text(f"MQPUT OK: QM1#{number} ")
        expect(summary).to_contain_text("CURDEPTH 3: 3 live, 0 expired")
        expect(shelf).to_contain_text("CURDEPTH 3, 0 expired not yet discarded")

        page.locator(".mq-advance-1s").click()
        expect(summary).to_contain_text("At 1.0 s")
        page.locator(".mq-advance-1s").click()
        expect(summary).to_contain_text("CURDEPTH 3: 1 live, 2 expired but not yet discarded")
        expect(shelf).to_contain_text("CURDEPTH 3, 2 expired not yet discarded")
        expect(timeline).to_contain_text("at 2.0 s")
        page.screenshot(path=artifacts / "voila_workbench_expired.png")

        timeline_before_get = timeline.locator(".js-plotly-plot").inner_html()
        page.locator(".mq-get").click()
        expect(result).to_contain_text("data b'steady'")
        expect(result).to_contain_text("discarded 1 expired on the way: QM1#1 (EXP-23)")
        expect(summary).to_contain_text("CURDEPTH 1: 0 live, 1 expired but not yet discarded")
        expect(shelf).to_contain_text("CURDEPTH 1, 1 expired not yet discarded")
        page.wait_for_function(CHANGED, arg=[".mq-timeline .js-plotly-plot", timeline_before_get])
        event_log = page.locator(".mq-eventlog")
        expect(event_log).to_contain_text("discard")
        page.screenshot(path=artifacts / "voila_workbench_after_get.png")
        event_log.screenshot(path=artifacts / "voila_workbench_event_log.png")
        assert page.get_by_text("Error displaying widget").count() == 0
        assert not page_errors, f"JavaScript errors in the page: {page_errors}"
