"""A message group in the Voila workbench, in real Chromium (issue 24): one box (``.mq-group``)
around its members in MsgSeqNumber order, each member a chip with its own expiry, the label
counting what is left as members expire and are got one by one; a plain message as before."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser import servers
from tests.browser.servers import VoilaApp

# A program's group on a FIFO queue, put in the order 2, 1, 3 (3 is the last in the group):
# g1 expires at 1 s, g3 at 2 s, g2 lives a minute; then a plain message B.
GROUP = """import mqlearn as mq
from mqlearn import CMQC as C
qm = mq.QueueManager("QM1")
qm.define_qlocal("APP.IN", msgdlvsq="FIFO")
q = mq.Queue(qm, "APP.IN")
group = b"G1".ljust(24, b"\\0")
for seq, expiry in ((2, 600), (1, 10), (3, 20)):
    flags = C.MQMF_LAST_MSG_IN_GROUP if seq == 3 else C.MQMF_MSG_IN_GROUP
    md = mq.MD(Version=2, GroupId=group, MsgSeqNumber=seq, MsgFlags=flags, Expiry=expiry)
    q.put(b"g%d" % seq, md)
q.put(b"B", mq.MD(Expiry=600))
# a logical message in two segments (Offsets 0 and 8), and a group whose message 1 is segmented
for data, offset, flags in ((b"s0", 0, C.MQMF_SEGMENT), (b"s8", 8, C.MQMF_LAST_SEGMENT)):
    q.put(data, mq.MD(Version=2, GroupId=b"S".ljust(24, b"\\0"), Offset=offset, MsgFlags=flags))
for data, seq, offset, flags in (
    (b"h1a", 1, 0, C.MQMF_MSG_IN_GROUP | C.MQMF_SEGMENT),
    (b"h1b", 1, 4, C.MQMF_MSG_IN_GROUP | C.MQMF_LAST_SEGMENT),
    (b"h2", 2, 0, C.MQMF_LAST_MSG_IN_GROUP),
):
    md = mq.MD(Version=2, GroupId=b"H".ljust(24, b"\\0"), MsgSeqNumber=seq, Offset=offset,
               MsgFlags=flags)
    q.put(data, md)
mq.viz.Workbench(qm, "APP.IN")"""
G1_HEX = b"G1".ljust(24, b"\0").hex()
TAG = G1_HEX[:12] + "…"
S_TAG = b"S".ljust(24, b"\0").hex()[:12] + "…"
MEMBERS = """(box) => [...box.querySelectorAll('.mq-chip')].map((c) =>
  [c.dataset.label, c.dataset.msgSeqNumber, c.dataset.state, c.dataset.expiry])"""
INSIDE = """(box) => { const b = box.getBoundingClientRect();
  return [...box.querySelectorAll('.mq-chip')].every((c) => { const r = c.getBoundingClientRect();
    return r.left >= b.left && r.right <= b.right && r.top >= b.top && r.bottom <= b.bottom; }); }"""


def test_a_group_is_one_box_whose_members_expire_one_by_one(
    page: Page, page_errors: list[str], voila_app: VoilaApp, tmp_path: Path, artifacts: Path
) -> None:
    voila_app(servers.notebook_file(tmp_path / "group.ipynb", GROUP))
    expect(page.locator(".mq-qv-lanes .mq-group")).to_have_count(4)  # one nested
    box = page.locator(f'.mq-qv-lanes .mq-group[data-key="{G1_HEX}"]')
    label = box.locator(".mq-group-label")
    expect(label).to_have_text(f"group {TAG} · 3 of 3 present · last seq 3")
    expect(box).to_have_attribute("data-kind", "group")
    expect(box).to_have_attribute("data-last-seq", "3")
    assert box.evaluate(MEMBERS) == [  # MsgSeqNumber order, not the put order
        ["g1", "1", "live", "10"],
        ["g2", "2", "live", "600"],
        ["g3", "3", "live", "20"],
    ]
    assert box.evaluate(INSIDE), "a member's chip sticks out of its group's box"
    plain = page.locator('.mq-qv-lanes .mq-chip[data-label="B"]')
    expect(plain).to_have_count(1)
    assert plain.evaluate("(c) => c.closest('.mq-group') === null && !('group' in c.dataset)")
    segments = page.locator('.mq-group[data-kind="logical"]', has_text="s0").first
    expect(segments.locator(".mq-group-label").first).to_have_text(
        f"message {S_TAG} · 2 segments present · last segment at offset 8"
    )
    nested = page.locator('.mq-group[data-kind="group"] .mq-group[data-kind="logical"]')
    expect(nested.locator(".mq-group-label")).to_have_text(
        "seq 1 · 2 segments present · last segment at offset 4"
    )
    labels = "(box) => [...box.querySelectorAll('.mq-chip')].map((c) => c.dataset.label)"
    assert nested.locator("xpath=../..").evaluate(labels) == ["h1a", "h1b", "h2"]
    page.screenshot(path=artifacts / "workbench_groups.png", full_page=True)
    page.locator(".mq-qv-lanes").screenshot(path=artifacts / "workbench_groups_lanes.png")
    g3 = box.locator('.mq-chip[data-label="g3"]')
    assert "MsgSeqNumber 3, Offset 0, MsgFlags MQMF_MSG_IN_GROUP + MQMF_LAST_MSG_IN_GROUP" in (
        g3.get_attribute("title") or ""
    )

    page.locator(".mq-advance-1s").click()
    expect(box.locator('.mq-chip[data-label="g1"]')).to_have_attribute("data-state", "expired")
    page.screenshot(path=artifacts / "workbench_group_one_expired.png", full_page=True)

    # a get takes the physical message first in delivery order: g2, out of the group
    page.locator(".mq-get").click()
    expect(page.locator('.mq-qv-out .mq-chip[data-label="g2"]')).to_have_attribute(
        "data-state", "got"
    )
    expect(label).to_have_text(f"group {TAG} · 2 of 3 present · last seq 3")
    expect(page.locator(".mq-result")).to_contain_text(
        f"GroupId {TAG}, MsgSeqNumber 2, Offset 0, MsgFlags MQMF_MSG_IN_GROUP"
    )
    assert box.evaluate(MEMBERS) == [["g1", "1", "expired", "0"], ["g3", "3", "live", "10"]]
    page.screenshot(path=artifacts / "workbench_group_after_get.png", full_page=True)

    page.locator(".mq-advance-1s").click()
    page.locator(".mq-get").click()  # discards g1 and g3 (EXP-22), returns B
    expect(page.locator('.mq-qv-out .mq-chip[data-label="B"]')).to_have_count(1)
    expect(box).to_have_count(0)
    expect(page.locator(".mq-qv-lanes .mq-group")).to_have_count(3)  # the others stay
    tray = page.locator(".mq-qv-tray .mq-chip").evaluate_all(
        "(cs) => cs.map((c) => c.dataset.label)"
    )
    assert tray == ["g1", "g3"]
    assert page_errors == []


WORKBENCH = Path(__file__).resolve().parents[2] / "notebooks" / "workbench.ipynb"


def test_a_learner_puts_a_group_from_more_mqi_options(
    page: Page, page_errors: list[str], voila_app: VoilaApp, artifacts: Path
) -> None:
    """The app as a learner uses it: GroupId ORDER-7, MsgSeqNumber 1 then 2 with
    MQMF_LAST_MSG_IN_GROUP, from *More MQI options*; the two chips appear in one box."""
    voila_app(WORKBENCH)
    page.locator(".mq-more-options").get_by_text("More MQI options").click()
    group_id = page.locator(".mq-group-id input")
    group_id.fill("ORDER-7")
    group_id.press("Tab")
    result = page.locator(".mq-result")
    for n, (seq, flags) in enumerate(((1, "MQMF_MSG_IN_GROUP"), (2, "MQMF_LAST_MSG_IN_GROUP"))):
        seq_field = page.locator(".mq-msg-seq-number input")
        seq_field.fill(str(seq))
        seq_field.press("Tab")
        page.locator(".mq-msg-flags select").select_option(label=flags)
        page.wait_for_timeout(300)  # the values reach the kernel before the click
        page.locator(".mq-put").click()
        expect(result).to_contain_text(f"MQPUT OK: {'AB'[n]} ")
        expect(result).to_contain_text(f"MsgSeqNumber {seq}, Offset 0, MsgFlags {flags}")
    tag = b"ORDER-7".ljust(24, b"\0").hex()[:12] + "…"
    box = page.locator(".mq-qv-lanes .mq-group")
    expect(box.locator(".mq-group-label")).to_have_text(
        f"group {tag} · 2 of 2 present · last seq 2"
    )
    labels = box.locator(".mq-chip").evaluate_all("(cs) => cs.map((c) => c.dataset.label)")
    assert labels == ["A", "B"]
    page.locator(".mq-qv").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "workbench_group_from_options.png", full_page=True)
    assert page_errors == []
