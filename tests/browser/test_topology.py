"""The topology view in real Chromium under Voila: both Expiry fields as two countdown bars on a
fixed scale (XQH-05), a message crossing the channel, and the channel's Start/Stop button."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser import servers

SCENARIO = """import mqlearn as mq
from mqlearn.mqi.headers import MQXQH
sim = mq.Simulation()
qm1, qm2 = mq.QueueManager("QM1", sim), mq.QueueManager("QM2", sim)
qm1.define_qlocal("QM2", usage="XMITQ")
qm2.define_qlocal("APP.IN")
channel = mq.Channel(qm1, qm2, xmitq="QM2", latency_ms=2000)
channel.stop()
header = MQXQH(RemoteQName="APP.IN", RemoteQMgrName="QM2", MsgDesc=mq.MD(Expiry=20))
md = mq.MD(Expiry=100, Format=mq.CMQC.MQFMT_XMIT_Q_HEADER)
mq.Queue(qm1, "QM2").put(header.pack() + b"X", md, mq.PMO())
mq.viz.Topology([qm1, qm2], [channel])"""

BAR_SHARES = """(chip) => [...chip.querySelectorAll('.mq-bar')].map(
  (b) => Math.round(100 * b.getBoundingClientRect().width / b.parentNode.getBoundingClientRect().width))"""


def test_xqh05_two_countdown_bars_on_a_fixed_scale_and_a_crossing(
    page: Page, page_errors: list[str], tmp_path: Path, artifacts: Path
) -> None:
    cell = {"cell_type": "code", "execution_count": None, "id": "topology", "metadata": {},
            "outputs": [], "source": SCENARIO}  # fmt: skip
    notebook = tmp_path / "topology.ipynb"
    notebook.write_text(json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4,
                                    "nbformat_minor": 5}))  # fmt: skip
    with servers.voila(notebook, tmp_path / "voila.log") as url:
        page.goto(url)
        chip = page.locator('.mq-topo-queue[data-queue="QM2"] .mq-chip[data-label="X"]')
        expect(chip).to_have_attribute("data-expiry", "100")
        expect(chip).to_have_attribute("data-embedded-expiry", "20")
        assert chip.evaluate(BAR_SHARES) == [100, 20]  # full width = 100 tenths
        page.locator(".mq-advance-1s").click()
        expect(chip).to_have_attribute("data-expiry", "90")
        assert chip.evaluate(BAR_SHARES) == [90, 10]  # same scale: the bars shrink, not rescale
        page.screenshot(path=artifacts / "topology_xmitq.png", full_page=True)
        page.locator(".mq-channel-toggle").click()
        expect(page.locator(".mq-channel-toggle")).to_contain_text("STOP CHANNEL")
        page.locator(".mq-advance-100ms").click()
        page.locator(".mq-advance-1s").click()
        flying = page.locator('.mq-channel-track .mq-chip[data-label="X"]')
        expect(flying).to_have_attribute("data-state", "in-transit")
        expect(flying).to_have_attribute("data-embedded-expiry", "0")
        page.screenshot(path=artifacts / "topology_in_flight.png", full_page=True)
        page.locator(".mq-advance-1s").click()
        arrived = page.locator('.mq-topo-queue[data-queue="APP.IN"] .mq-chip[data-label="X"]')
        expect(arrived).to_have_attribute("data-state", "expired")  # embedded ran out: XQH-05
        page.screenshot(path=artifacts / "topology_arrived.png", full_page=True)
        assert not page_errors, f"JavaScript errors in the page: {page_errors}"
