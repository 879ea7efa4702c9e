"""The Voila workbench (notebooks/workbench.ipynb) in real Chromium: the animated queue view.

What a learner sees is checked through the view's stable hooks (docs/views.md): every chip is an
element ``.mq-chip`` with ``data-label``, ``data-state``, ``data-lane`` and ``data-expiry``.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Locator, Page, expect

from tests.browser.page_checks import OVERLAPS
from tests.browser.servers import VoilaApp

WORKBENCH = Path(__file__).resolve().parents[2] / "notebooks" / "workbench.ipynb"

# (Priority, Expiry in tenths) on a PRIORITY queue, labelled A, B, C.
MESSAGES = [
    (5, 10),  # A expires at 1 s, at the head of the queue
    (3, 600),  # B lives a minute
    (1, 20),  # C expires at 2 s, behind the live message
]
CONTROLS = (
    ".mq-put, .mq-get, .mq-browse, .mq-step, .mq-undo, .mq-redo, .mq-reset, .mq-advance-100ms, "
    ".mq-advance-1s, .mq-advance-10s, .mq-queue-type, .mq-profile, .mq-expiry, .mq-priority, "
    ".mq-data"
)
WIDER_THAN_PAGE = "() => document.documentElement.scrollWidth > window.innerWidth + 1"


def _type(field: Locator, value: object) -> None:
    """Type into a widget's input and leave it, which is when ipywidgets sends the value."""
    field.fill(str(value))
    field.press("Tab")


def chips(page: Page, where: str = ".mq-qv-lanes") -> Locator:
    return page.locator(f"{where} .mq-chip")


def states(page: Page) -> list[tuple[str, str]]:
    found = chips(page).evaluate_all("(cs) => cs.map((c) => [c.dataset.label, c.dataset.state])")
    return [tuple(pair) for pair in found]


def put_three_and_expire_two(page: Page) -> None:
    result = page.locator(".mq-result")
    # the workbench opens on FIFO, as its introduction starts; these tests want PRIORITY
    page.locator(".mq-queue-type button", has_text="PRIORITY").click()
    expect(result).to_have_text(
        "Reset: an empty PRIORITY queue APP.IN on a new QM1, profile distributed"
    )
    expect(page.locator(".mq-reset")).to_have_text("Reset (PRIORITY, distributed)")
    for n, (priority, expiry) in enumerate(MESSAGES):
        _type(page.locator(".mq-priority input"), priority)
        _type(page.locator(".mq-expiry input"), expiry)
        page.locator(".mq-put").click()
        expect(result).to_contain_text(f"MQPUT OK: {'ABC'[n]} (MsgId QM1#{n + 1})")
    expect(chips(page)).to_have_count(3)
    page.locator(".mq-advance-1s").click()
    page.locator(".mq-advance-1s").click()
    expect(page.locator(".mq-qv-clock")).to_have_text("now 2.0 s")
    expect(page.locator('.mq-qv-lanes .mq-chip[data-state="expired"]')).to_have_count(2)


def test_exp23_priority_get_walks_discards_returns_and_stops(
    page: Page, page_errors: list[str], voila_app: VoilaApp, artifacts: Path
) -> None:
    """EXP-23 on screen: the get looks at A (expired: discarded into the tray), returns B and
    stops; C, expired behind the stop mark, is untouched and still counted (EXP-25)."""
    voila_app(WORKBENCH)
    expect(page.locator(".mq-qv-depth")).to_contain_text("CURDEPTH 0")
    put_three_and_expire_two(page)
    assert states(page) == [("A", "expired"), ("B", "live"), ("C", "expired")]
    lanes = chips(page).evaluate_all("(cs) => cs.map((c) => c.dataset.lane)")
    assert lanes == ["5", "3", "1"]
    page.screenshot(path=artifacts / "workbench_expired.png", full_page=True)

    c_chip = page.locator('.mq-qv-lanes .mq-chip[data-label="C"]')
    keep = "(c) => { c.mqKept = true; c.closest('.mq-lane').mqKept = true; }"
    c_chip.evaluate(keep)  # the same nodes must stay on screen
    page.locator(".mq-get").click()
    a_in_tray = page.locator('.mq-qv-tray .mq-chip[data-label="A"]')
    expect(a_in_tray).to_have_attribute("data-state", "discarded")
    page.screenshot(path=artifacts / "workbench_walk.png", full_page=True)
    expect(page.locator('.mq-qv-out .mq-chip[data-label="B"]')).to_have_attribute(
        "data-state", "got"
    )
    expect(page.locator(".mq-stop")).to_have_count(1)
    assert states(page) == [("C", "expired")]
    behind = page.locator(".mq-stop + .mq-chip")
    expect(behind).to_have_attribute("data-label", "C")
    expect(page.locator(".mq-qv-depth")).to_contain_text("CURDEPTH 1 · 1 expired")
    expect(page.locator(".mq-result")).to_contain_text(
        "discarded 1 expired on the way: A (MsgId QM1#1) (EXP-23)"
    )
    page.screenshot(path=artifacts / "workbench_after_get.png", full_page=True)

    # the rule the result line cites opens its catalogue entry in place, and closes again
    page.locator('.mq-result .mq-rule[data-rule="EXP-23"]').click()
    card = page.locator(".mq-result .mq-rule-card")
    expect(card).to_contain_text("EXP-23 — Priority queue: discard ahead of the returned")
    expect(card).to_contain_text("the same get discards the expired messages of a higher")
    expiry_page = "https://www.ibm.com/docs/en/SSFKSJ_9.2.0/com.ibm.mq.ref.dev.doc/q097490_.html"
    expect(card.locator("a", has_text="Expiry (MQLONG)")).to_have_attribute("href", expiry_page)
    page.screenshot(path=artifacts / "workbench_rule_card.png", full_page=True)
    page.locator('.mq-result .mq-rule[data-rule="EXP-23"]').click()
    expect(card).to_have_count(0)
    # and so does the one the view's narration cites
    page.locator('.mq-qv-narration .mq-rule[data-rule="EXP-23"]').click()
    expect(page.locator(".mq-qv .mq-rule-card")).to_contain_text("EXP-23 — Priority queue")
    page.locator(".mq-qv .mq-rule-close").click()
    expect(page.locator(".mq-qv .mq-rule-card")).to_have_count(0)

    page.locator(".mq-undo").click()  # undo the get: exactly the state before it
    expect(chips(page)).to_have_count(3)
    assert states(page) == [("A", "expired"), ("B", "live"), ("C", "expired")]
    expect(page.locator(".mq-qv-depth")).to_contain_text("CURDEPTH 3 · 2 expired")
    expect(page.locator(".mq-qv-tray .mq-chip")).to_have_count(0)
    # C never changed, so neither the get nor its undo redrew it: the view patches in place
    assert c_chip.evaluate("(c) => c.mqKept === true && c.closest('.mq-lane').mqKept === true")
    page.locator(".mq-redo").click()
    expect(page.locator(".mq-qv-depth")).to_contain_text("CURDEPTH 1 · 1 expired")

    # a get stepped by hand, then a step back: only C is left, expired, so the walk is
    # visit C, discard C (EXP-26: nothing live, 2033)
    page.locator(".mq-step").click()
    expect(page.locator('.mq-qv-lanes .mq-chip[data-label="C"]')).to_have_class(
        "mq-chip mq-visiting"
    )
    page.locator(".mq-step").click()
    c_in_tray = page.locator('.mq-qv-tray .mq-chip[data-label="C"]')
    expect(c_in_tray).to_have_attribute("data-state", "discarded")
    # mid-walk, the step's narration already links the rule it cites
    expect(page.locator(".mq-qv-narration .mq-rule")).to_have_count(1)
    page.locator(".mq-step-back").click()
    expect(c_in_tray).to_have_count(0)
    expect(page.locator('.mq-qv-lanes .mq-chip[data-label="C"]')).to_have_attribute(
        "data-state", "expired"
    )
    expect(page.locator(".mq-qv-depth")).to_contain_text("CURDEPTH 1 · 1 expired")
    page.locator(".mq-step").click()
    expect(c_in_tray).to_have_attribute("data-state", "discarded")
    expect(page.locator(".mq-qv-depth")).to_contain_text("CURDEPTH 0 · 0 expired")
    assert page.get_by_text("Error displaying widget").count() == 0
    assert not page_errors, f"JavaScript errors in the page: {page_errors}"


def test_controls_never_overlap_at_800px_and_follow_a_resize(
    page: Page, page_errors: list[str], voila_app: VoilaApp, artifacts: Path
) -> None:
    page.set_viewport_size({"width": 800, "height": 1000})
    voila_app(WORKBENCH)
    expect(page.locator(".mq-qv")).to_be_visible()
    put_three_and_expire_two(page)
    for width in (800, 1400, 800):
        page.set_viewport_size({"width": width, "height": 1000})
        page.wait_for_timeout(300)
        assert page.locator(CONTROLS).evaluate_all(OVERLAPS) == [], width
        assert not page.evaluate(WIDER_THAN_PAGE), width
        view = page.locator(".mq-qv").bounding_box()
        assert view is not None and view["x"] + view["width"] <= width, width
        page.screenshot(path=artifacts / f"workbench_{width}px.png", full_page=True)
    assert not page_errors, f"JavaScript errors in the page: {page_errors}"


# Text that does not fit where it is drawn: a label or button wider than its box, a dropdown
# whose chosen option is wider than the dropdown, a chart's text outside its chart.
CUT_OFF = """() => {
  const cut = [];
  const visible = (n) => n.offsetParent !== null;
  for (const n of document.querySelectorAll('.widget-label, button, .mq-chip-label, .mq-chip-expiry, td, th'))
    if (visible(n) && n.scrollWidth > n.clientWidth + 1) cut.push(n.textContent.trim());
  const ctx = document.createElement('canvas').getContext('2d');
  for (const s of document.querySelectorAll('select')) {
    if (!visible(s) || s.selectedIndex < 0) continue;
    const style = getComputedStyle(s);
    ctx.font = `${style.fontSize} ${style.fontFamily}`;
    const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
    const text = s.options[s.selectedIndex].text;
    if (ctx.measureText(text).width > room + 1) cut.push(text);
  }
  for (const svg of document.querySelectorAll('.js-plotly-plot svg.main-svg:first-of-type')) {
    const box = svg.getBoundingClientRect();
    for (const t of svg.querySelectorAll('text')) {
      const r = t.getBoundingClientRect();
      if (r.width && (r.left < box.left - 1 || r.right > box.right + 1)) cut.push(t.textContent);
    }
  }
  return cut;
}"""


# A field of the advanced options that reaches out of its column (into the next one, or past the
# page's edge): every widget of each column must lie inside that column's box.
SPILLS = """() => {
  const out = [];
  const row = document.querySelector('.mq-more-options .widget-hbox');
  const columns = [...row.children].filter((c) => c.offsetParent !== null);
  for (const column of columns) {
    const box = column.getBoundingClientRect();
    for (const n of column.querySelectorAll('.widget-inline-hbox, .widget-dropdown, button')) {
      const r = n.getBoundingClientRect();
      if (r.width && (r.left < box.left - 0.5 || r.right > box.right + 0.5))
        out.push(`${n.textContent.trim().slice(0, 40)}: ${Math.round(r.left)}-${Math.round(r.right)} ` +
                 `outside its column ${Math.round(box.left)}-${Math.round(box.right)}`);
    }
  }
  return out;
}"""


def test_no_label_is_cut_off_at_800_or_1400px_with_every_section_open(
    page: Page, page_errors: list[str], voila_app: VoilaApp, artifacts: Path
) -> None:
    """Words match pixels: descriptions, options, chips, the report inbox and the charts' text
    all fit, with a report (MQFB_EXPIRATION) and an unlimited Expiry on screen; no option of
    *More MQI options* reaches out of its column (the widest Report option chosen)."""
    page.set_viewport_size({"width": 1400, "height": 1000})
    voila_app(WORKBENCH)
    expect(page.locator(".mq-qv")).to_be_visible()
    page.locator(".mq-more-options").get_by_text("More MQI options").click()  # its title
    page.locator(".mq-more-options select").first.wait_for()
    report = page.locator(".mq-more-options select").first  # its longest option
    report.select_option(label="MQRO_EXPIRATION_WITH_FULL_DATA")
    _type(page.locator(".mq-expiry input"), 10)
    page.locator(".mq-put").click()
    expect(page.locator(".mq-result")).to_contain_text("MQPUT OK: A")
    _type(page.locator(".mq-expiry input"), -1)
    page.wait_for_timeout(500)  # the value reaches the kernel
    page.locator(".mq-put").click()
    expect(page.locator(".mq-result")).to_contain_text("MQPUT OK: B")
    expect(page.locator(".mq-result")).to_contain_text("Expiry MQEI_UNLIMITED")
    page.locator(".mq-advance-1s").click()
    page.locator(".mq-get").click()
    expect(page.locator(".mq-result")).to_contain_text("MQGET OK: B")
    page.locator(".mq-charts").get_by_text("Charts, event log and replay").click()
    expect(page.locator(".mq-inbox")).to_contain_text("MQFB_EXPIRATION")
    for width in (800, 1400):
        page.set_viewport_size({"width": width, "height": 1000})
        page.wait_for_timeout(1_500)  # plotly relayouts on resize
        page.screenshot(path=artifacts / f"workbench_open_{width}px.png", full_page=True)
        cut = page.evaluate(CUT_OFF)
        assert cut == [], f"cut off at {width} px: {cut}"
        spills = page.evaluate(SPILLS)
        assert spills == [], f"options reach out of their column at {width} px: {spills}"
    assert not page_errors, f"JavaScript errors in the page: {page_errors}"


def test_three_clicks_to_the_first_discard(
    page: Page, page_errors: list[str], voila_app: VoilaApp, artifacts: Path
) -> None:
    """The README's first picture: the app as it opens (FIFO), then MQPUT (A, Expiry 100 tenths),
    +10 s (A expired, still counted: EXP-25), MQGET (its walk discards A: EXP-22; nothing live is
    left, 2033: EXP-26). Saved as tests/artifacts/workbench_readme.png (docs/images/workbench.png)."""
    page.set_viewport_size({"width": 1400, "height": 900})
    voila_app(WORKBENCH)
    expect(page.locator(".mq-reset")).to_have_text("Reset (FIFO, distributed)")
    page.locator(".mq-put").click()
    expect(page.locator('.mq-qv-lanes .mq-chip[data-label="A"]')).to_have_attribute(
        "data-state", "live"
    )
    page.locator(".mq-advance-10s").click()
    expect(page.locator('.mq-qv-lanes .mq-chip[data-label="A"]')).to_have_attribute(
        "data-state", "expired"
    )
    page.locator(".mq-get").click()
    expect(page.locator('.mq-qv-tray .mq-chip[data-label="A"]')).to_have_attribute(
        "data-state", "discarded"
    )
    result = page.locator(".mq-result")
    expect(result).to_contain_text("MQGET failed: MQRC_NO_MSG_AVAILABLE (2033)")
    expect(result).to_contain_text("discarded 1 expired on the way: A (MsgId QM1#1) (EXP-22)")
    page.wait_for_timeout(800)  # the last step's animation
    page.screenshot(path=artifacts / "workbench_readme.png")
    assert not page_errors, f"JavaScript errors in the page: {page_errors}"
