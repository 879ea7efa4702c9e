"""The side-by-side view (notebook 03's playground) in real Chromium under Voila: one naming
scheme across many learner puts, both walks stepping together, and both trays on the screen."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser import servers
from tests.browser.page_checks import WIDTHS
from tests.browser.servers import VoilaApp

PLAYGROUND = """import mqlearn as mq
from mqlearn.checks import Letters
qm = mq.QueueManager("QM1")
qm.define_qlocal("FIFO.Q", msgdlvsq="FIFO")
qm.define_qlocal("PRIORITY.Q", msgdlvsq="PRIORITY")
letters = Letters()
for name in ("FIFO.Q", "PRIORITY.Q"):  # notebook 03's five messages, named by their data
    for letter, expiry, priority in (("A", 10, 2), ("B", 10, 7), ("C", -1, 2), ("D", 10, 2), ("E", 10, 7)):
        letters.put(mq.Queue(qm, name), letter, mq.MD(Expiry=expiry, Priority=priority))
qm.sim.advance(seconds=2)
mq.viz.Comparison(qm)"""
LEARNER_PUTS = 30
LABELS = "(nodes) => nodes.map((n) => n.dataset.label)"


def _in(page: Page, column: str, where: str) -> list[str]:
    found: list[str] = page.locator(f".{column} {where} .mq-chip").evaluate_all(LABELS)
    return found


def test_letters_unique_across_30_puts_steps_together_and_both_trays_fit(
    page: Page, page_errors: list[str], voila_app: VoilaApp, tmp_path: Path, artifacts: Path
) -> None:
    notebook = servers.notebook_file(tmp_path / "compare.ipynb", PLAYGROUND)
    page.set_viewport_size({"width": 1400, "height": 900})
    voila_app(notebook)
    for column in ("mq-compare-fifo", "mq-compare-priority"):
        expect(page.locator(f".{column} .mq-qv-lanes .mq-chip")).to_have_count(5)
    # one get on both, stepped by hand: one step of each per click
    step = page.locator(".mq-comparison .mq-step")
    expect(step).to_have_text("Step ▸ a new MQGET")
    step.click()
    for column, first in (("mq-compare-fifo", "A"), ("mq-compare-priority", "B")):
        visiting = page.locator(f".{column} .mq-chip.mq-visiting")
        expect(visiting).to_have_attribute("data-label", first)
    expect(step).to_have_text("Step ▸")
    step.click()
    expect(page.locator('.mq-compare-fifo .mq-qv-tray .mq-chip[data-label="A"]')).to_have_count(1)
    expect(page.locator('.mq-compare-priority .mq-qv-tray .mq-chip[data-label="B"]')).to_have_count(
        1
    )
    page.locator(".mq-comparison .mq-step-scrubber").first.wait_for()
    page.screenshot(path=artifacts / "comparison_1400_stepping.png", full_page=True)
    while step.inner_text() == "Step ▸":
        step.click()
        page.wait_for_timeout(300)
    expect(page.locator(".mq-compare-fifo .mq-result")).to_contain_text("MQGET OK: C")
    expect(page.locator(".mq-compare-priority .mq-result")).to_contain_text("MQGET OK: C")
    # both trays and the returned boxes stay on a 1400x900 screen (empty lanes collapse)
    top = page.locator(".mq-comparison").bounding_box()
    for column in ("mq-compare-fifo", "mq-compare-priority"):
        tray = page.locator(f".{column} .mq-qv-tray").bounding_box()
        assert top is not None and tray is not None
        assert tray["y"] + tray["height"] - top["y"] <= 900, column
    # 30 learner puts: letters F, G, … never one already used on this queue manager
    put = page.locator(".mq-comparison .mq-put")
    result = page.locator(".mq-compare-fifo .mq-result")
    for n in range(LEARNER_PUTS):
        put.click()
        expect(result).to_contain_text(f"MQPUT OK: {_letter(5 + n)} (MsgId")
    late = f'.mq-qv-lanes .mq-chip[data-label="{_letter(5 + 19)}"]'  # Y: 20th, shown
    for column in ("mq-compare-fifo", "mq-compare-priority"):
        expect(page.locator(f".{column} {late}")).to_have_count(1)
    for column in ("mq-compare-fifo", "mq-compare-priority"):
        shown = _in(page, column, ".mq-qv-lanes") + _in(page, column, ".mq-qv-tray")
        assert len(shown) >= 24 + 2, shown
        assert len(shown) == len(set(shown)), f"a letter used twice in {column}: {shown}"
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(300)
        page.screenshot(path=artifacts / f"comparison_{width}.png", full_page=True)
    assert not page_errors, f"JavaScript errors in the page: {page_errors}"


def _letter(n: int) -> str:
    from mqlearn.viz.labels import letters

    return letters(n)
