"""A chip's tooltip names its message's properties, in real Chromium, through the view's own
ES module (mqlearn/viz/static/views.js) given the scene the kernel would send. No server: the
page and the module are answered by Playwright's routing, and the widget model is a plain
object with anywidget's get/on/set."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page, Route

import mqlearn as mq
from mqlearn import CMQC as C
from mqlearn.viz.model import WorkbenchModel
from mqlearn.viz.queue_view import QueueStage

STATIC = Path(mq.__file__).resolve().parent / "viz" / "static"
ORIGIN = "http://mqlearn.test"
PAGE = """<!doctype html><html><head><link rel="stylesheet" href="views.css"></head><body>
<div id="host" style="width: 900px"></div>
<script type="module">
import views from "./views.js";
const values = {view: "queue", state: STATE, shown: 0, speed: 1.0, finished: 0};
const model = {
  get: (key) => values[key], set: (key, value) => { values[key] = value; },
  save_changes() {}, on() {}, off() {}, send() {},
};
views.render({model, el: document.getElementById("host")});
window.rendered = true;
</script></body></html>"""


def test_a_chip_tooltip_lists_the_properties(page: Page, page_errors: list[str]) -> None:
    qm = mq.QueueManager("QM1")
    qm.define_qlocal("APP.IN")
    q = mq.Queue(qm, "APP.IN")
    q.put(b"A")
    handle = mq.MessageHandle(qm)
    handle.set("colour", "blue")
    handle.set("amount", 250, C.MQTYPE_INT32)
    q.put(b"B", mq.MD(Expiry=600), mq.PMO(Version=3, OriginalMsgHandle=handle.msg_handle))
    state = {"scene": QueueStage(WorkbenchModel(qm, "APP.IN")).scene(), "transition": None}
    files = {
        "/page.html": (PAGE.replace("STATE", json.dumps(state)), "text/html"),
        "/views.js": ((STATIC / "views.js").read_text("utf-8"), "text/javascript"),
        "/views.css": ((STATIC / "views.css").read_text("utf-8"), "text/css"),
    }

    def answer(route: Route) -> None:
        body, kind = files[route.request.url.removeprefix(ORIGIN)]
        route.fulfill(body=body, content_type=kind)

    page.route(f"{ORIGIN}/**", answer)
    page.goto(f"{ORIGIN}/page.html")
    page.wait_for_function("window.rendered === true")
    titles = page.locator(".mq-qv-lanes .mq-chip").evaluate_all("(cs) => cs.map((c) => c.title)")
    assert titles == [
        "A: Priority 0, Expiry ∞ tenths left, never expires; live",
        "B: Priority 0, Expiry 600 tenths left, deadline 60.0 s; live; properties: "
        "colour = 'blue' (MQTYPE_STRING), amount = 250 (MQTYPE_INT32)",
    ]
    assert page_errors == []
