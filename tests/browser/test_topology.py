"""The topology view in real Chromium under Voila: notebook 06's hop seen through the stable hooks
(docs/views.md): chips side by side, a message expiring on the transmission queue and on the
channel, its discard, its report travelling back, and the two Expiry fields of one message."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser import servers
from tests.browser.page_checks import OVERLAPS, WIDTHS
from tests.browser.servers import VoilaApp

NOTEBOOK_06 = Path(__file__).resolve().parents[2] / "notebooks" / "06_remote_queues.ipynb"

SETUP = """import mqlearn as mq
from mqlearn import CMQC
"""

BURST = """import mqlearn as mq
sim = mq.Simulation()
qm1, qm2 = mq.QueueManager("QM1", sim), mq.QueueManager("QM2", sim)
qm1.define_qlocal("QM2", usage="XMITQ")
qm1.define_qremote("TO.APP", rname="APP.IN", rqmname="QM2", xmitq="QM2")
qm2.define_qlocal("APP.IN")
channel = mq.Channel(qm1, qm2, xmitq="QM2", latency_ms=3000)
for n in range(12):  # a burst of puts while the channel runs
    mq.Queue(qm1, "TO.APP").put(b"%c" % (65 + n), mq.MD(Expiry=5 if n % 3 == 0 else 600))
mq.viz.Topology([qm1, qm2], [channel])"""

BAR_SHARES = """(chip) => [...chip.querySelectorAll('.mq-bar')].map(
  (b) => Math.round(100 * b.getBoundingClientRect().width / b.parentNode.getBoundingClientRect().width))"""
GLIDING_DONE = """() => [...document.querySelectorAll('.mq-topology .mq-chip')].every((n) =>
  !n.getAnimations().some((a) => a.effect && a.effect.getKeyframes().some((k) => k.transform)))"""
TRUNCATED = """(root) => [...root.querySelectorAll('button, .mq-chip-label, .mq-chip-expiry, span')]
  .filter((n) => n.offsetParent !== null && n.scrollWidth > n.clientWidth + 1)
  .map((n) => n.textContent)"""


def _hop_source() -> str:
    """Notebook 06's §7 cell, as the learner runs it."""
    cells = json.loads(NOTEBOOK_06.read_text())["cells"]
    (cell,) = [c for c in cells if c.get("id") == "nb06-topology"]
    return "".join(cell["source"])


@pytest.fixture
def hosts(page: Page) -> Iterator[list[str]]:
    """Every URL the page asks for that is not on the test's own server."""
    outside: list[str] = []

    def record(request: object) -> None:
        url = request.url  # type: ignore[attr-defined]
        if urlsplit(url).hostname not in (servers.HOST, None) and not url.startswith("data:"):
            outside.append(url)

    page.on("request", record)
    yield outside


def chip(page: Page, label: str, where: str | None = None) -> Locator:
    found = f'.mq-topology .mq-chip[data-label="{label}"]'
    if where is not None:
        found += f'[data-where="{where}"]'
    return page.locator(found)


def settled(page: Page) -> Page:
    """``page`` once no chip of the topology is still gliding (for a screenshot of where things
    are, not of where they pass)."""
    page.wait_for_function(GLIDING_DONE)
    return page


def clock(page: Page, button: str, now: str) -> None:
    page.locator(f".mq-topology {button}").click()
    expect(page.locator(".mq-topology .mq-qv-clock")).to_have_text(f"now {now}")


# Where QM2's box is drawn from QM1's, and the arrow each channel's label shows: side by side at
# 1400 px, stacked at 800 px (the view is narrower than 900 px), the arrow pointing at the box the
# channel delivers to.
ARROWS = {
    800: ("below", {"QM1.TO.QM2": "↓", "QM2.TO.QM1": "↑"}),
    1400: ("right", {"QM1.TO.QM2": "→", "QM2.TO.QM1": "←"}),
}


def arrows_and_layout(page: Page) -> tuple[str, dict[str, str]]:
    boxes = {
        name: page.locator(f'.mq-topology .mq-qmgr[data-qmgr="{name}"]').bounding_box()
        for name in ("QM1", "QM2")
    }
    one, two = boxes["QM1"], boxes["QM2"]
    assert one is not None and two is not None
    where = "below" if two["y"] >= one["y"] + one["height"] else "right"
    if where == "right":
        assert two["x"] >= one["x"] + one["width"], f"QM2 neither below nor right: {boxes}"
    shown = {
        name: page.locator(f'.mq-channel[data-channel="{name}"] .mq-channel-name')
        .inner_text()
        .split()[0]
        for name in ("QM1.TO.QM2", "QM2.TO.QM1")
    }
    return where, shown


def test_exp10_xqh06_the_hop_seen_expiry_on_xmitq_and_link_discard_and_report_back(
    page: Page,
    page_errors: list[str],
    hosts: list[str],
    voila_app: VoilaApp,
    tmp_path: Path,
    artifacts: Path,
) -> None:
    notebook = servers.notebook_file(tmp_path / "hop.ipynb", SETUP, _hop_source())
    voila_app(notebook)
    page.set_viewport_size({"width": 1400, "height": 900})
    c = chip(page, "C", "QM2")
    expect(c).to_have_attribute("data-expiry", "600")
    expect(c).to_have_attribute("data-embedded-expiry", "150")
    assert c.evaluate(BAR_SHARES) == [100, 25]  # MD and MQXQH Expiry on one chip's scale
    clock(page, ".mq-advance-1s", "1.0 s")
    expect(chip(page, "A", "QM2")).to_have_attribute("data-state", "expired")
    settled(page).screenshot(path=artifacts / "topology_1400_expired_on_xmitq.png", full_page=True)
    page.locator('.mq-channel-start[data-channel="QM1.TO.QM2"]').click()
    expect(page.locator('.mq-channel-stop[data-channel="QM1.TO.QM2"]')).to_have_count(1)
    clock(page, ".mq-advance-100ms", "1.1 s")
    expect(chip(page, "A", "QM2")).to_have_attribute("data-state", "discarded")
    expect(chip(page, "B", "QM1.TO.QM2")).to_have_attribute("data-state", "in-transit")
    expect(chip(page, "R·A", "REPLY.Q")).to_have_attribute("data-state", "report")
    clock(page, ".mq-advance-1s", "2.1 s")
    clock(page, ".mq-advance-1s", "3.1 s")
    expect(chip(page, "B", "QM1.TO.QM2")).to_have_attribute("data-state", "expired")
    settled(page).screenshot(
        path=artifacts / "topology_1400_expired_in_transit.png", full_page=True
    )
    clock(page, ".mq-advance-1s", "4.1 s")
    expect(chip(page, "B", "APP.IN")).to_have_attribute("data-state", "expired")
    page.locator('.mq-get[data-queue="APP.IN"]').click()
    expect(chip(page, "B", "APP.IN")).to_have_attribute("data-state", "discarded")
    expect(chip(page, "R·B", "QM1")).to_have_attribute("data-state", "report")
    step = page.locator(".mq-topology .mq-qv-step")
    expect(step).to_contain_text("3. the MQGET on queue APP.IN at QM2 returns C")  # played
    scrubber = page.locator(".mq-topology .mq-step-scrubber")
    scrubber.focus()
    page.keyboard.press("Home")  # the scrubber back to the start, then one step on
    page.keyboard.press("ArrowRight")
    expect(step).to_contain_text("1. the MQGET discards B, expired on queue APP.IN at QM2")
    expect(step).to_contain_text("(it ran out on channel QM1.TO.QM2) (EXP-23)")
    expect(page.locator(".mq-topology .mq-play")).to_be_enabled()
    clock(page, ".mq-advance-1s", "5.1 s")
    expect(chip(page, "R·B", "QM2.TO.QM1")).to_have_attribute("data-state", "report")
    settled(page).screenshot(path=artifacts / "topology_1400_report_back.png", full_page=True)
    for now in ("6.1 s", "7.1 s", "8.1 s"):
        clock(page, ".mq-advance-1s", now)
    expect(chip(page, "R·B", "REPLY.Q")).to_have_attribute("data-state", "report")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        settled(page).screenshot(path=artifacts / f"topology_{width}.png", full_page=True)
        cut = page.locator(".mq-topology").evaluate(TRUNCATED)
        assert cut == [], f"labels cut off at {width} px: {cut}"
        assert arrows_and_layout(page) == ARROWS[width], f"channel arrows at {width} px"
    assert hosts == [], f"requests left the server: {hosts}"
    assert not page_errors, f"JavaScript errors in the page: {page_errors}"


def test_no_two_chips_overlap_after_a_burst_over_a_running_channel(
    page: Page, page_errors: list[str], voila_app: VoilaApp, tmp_path: Path, artifacts: Path
) -> None:
    notebook = servers.notebook_file(tmp_path / "burst.ipynb", BURST)
    voila_app(notebook)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        expect(chip(page, "L", "QM2")).to_have_count(1)
    clock(page, ".mq-advance-100ms", "0.1 s")
    flying = page.locator('.mq-topology .mq-chip[data-where="QM1.TO.QM2"]')
    expect(flying).to_have_count(12)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(800)  # let the glide from the queue to the channel finish
        chips = page.locator(".mq-topology .mq-chip")
        assert chips.evaluate_all(OVERLAPS) == [], f"chips overlap at {width} px"
        page.screenshot(path=artifacts / f"topology_burst_{width}.png", full_page=True)
    clock(page, ".mq-advance-1s", "1.1 s")
    clock(page, ".mq-advance-1s", "2.1 s")
    clock(page, ".mq-advance-1s", "3.1 s")
    expect(page.locator('.mq-topology .mq-chip[data-where="APP.IN"]')).to_have_count(12)
    page.wait_for_timeout(800)
    assert page.locator(".mq-topology .mq-chip").evaluate_all(OVERLAPS) == []
    assert not page_errors, f"JavaScript errors in the page: {page_errors}"
