"""The course in the browser (JupyterLite, tools/lite_build.py): built once per set of inputs
(cached under build/), served from 127.0.0.1 with every other host unreachable (Chromium's host
resolver rules; every request is routed and any to another host aborted and recorded), each of
notebooks 00-08 run top to bottom in Pyodide with the outputs nbval checks compared with the saved ones, and
the workbench's put, advance and get clicked. No request leaves localhost; any attempt fails the
test.

Skipped only when Chromium is missing or when a build is needed and the npm registry (Pyodide's
core) cannot be reached; either way the reason is printed.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from nbval.plugin import get_sanitize_patterns
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from tests.browser import servers
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "build" / "lite"
COURSE = sorted(p.name for p in (ROOT / "notebooks").glob("0[0-8]_*.ipynb"))
NOTEBOOK_TIMEOUT_MS = 600_000  # a notebook's cells in Pyodide on a busy 2-core machine
# every host but this one resolves to nothing: a fetch from elsewhere cannot succeed
OFFLINE_ARGS = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
SKIP_KEYS = {"application/vnd.jupyter.widget-view+json", "image/png", "image/jpeg"}
SANITIZE = get_sanitize_patterns((ROOT / "tests" / "nbval_sanitize.cfg").read_text())

# The notebook panel's model, read in the page (window.jupyterapp is JupyterLite's application).
NOTEBOOK_JSON = "() => window.jupyterapp.shell.currentWidget.content.model.toJSON()"
# The learner's progress record, as JupyterLite's contents (the browser's storage) hold it.
PROGRESS_RECORD = """async () => {
  const file = await window.jupyterapp.serviceManager.contents.get(
    'notebooks/.mqlearn-progress.json', { content: true });
  if (file.format === 'base64') return atob(file.content);  // how the kernel's writes are kept
  return typeof file.content === 'string' ? file.content : JSON.stringify(file.content);
}"""
RUN_ALL = "() => window.jupyterapp.commands.execute('notebook:run-all-cells')"
# Done: every code cell has an execution count, or one failed (run-all stops at an error).
RUN_FINISHED = """() => {
  const cells = window.jupyterapp.shell.currentWidget.content.model.toJSON().cells
    .filter((c) => c.cell_type === 'code');
  const failed = cells.some((c) => (c.outputs || []).some((o) => o.output_type === 'error'));
  return failed || cells.every((c) => c.execution_count !== null);
}"""


def _build_site() -> Path:
    stamp = SITE / ".mqlearn-lite-inputs"
    cached = stamp.exists() and any((ROOT / "build" / "lite-cache").glob("pyodide-*.tgz"))
    if not cached:
        try:
            subprocess.run(["npm", "ping"], check=True, capture_output=True, timeout=60)
        except (OSError, subprocess.SubprocessError) as error:
            pytest.skip(f"the npm registry (Pyodide's core) is unreachable: {error}")
    subprocess.run([sys.executable, str(ROOT / "tools" / "lite_build.py")], check=True, cwd=ROOT)
    return SITE


@pytest.fixture(scope="module")
def site_url() -> Iterator[str]:
    site = _build_site()
    port = servers.free_port()
    command = [sys.executable, str(ROOT / "tools" / "lite_serve.py")]
    command += ["--dir", str(site), "--port", str(port), "--quiet"]
    log = ROOT / "tests" / "artifacts" / "lite-serve.log"
    log.parent.mkdir(exist_ok=True)
    with servers._serving(command, port, log, dict(os.environ)) as url:
        yield url


@pytest.fixture(scope="module")
def offline_browser(browser: Browser) -> Iterator[Browser]:
    """Chromium that resolves no host but 127.0.0.1 (its own process, for the flag)."""
    offline = browser.browser_type.launch(
        executable_path=str(CHROMIUM), args=[*CHROMIUM_ARGS, *OFFLINE_ARGS]
    )
    yield offline
    offline.close()


@pytest.fixture
def lite_page(offline_browser: Browser, site_url: str) -> Iterator[tuple[Page, list[str]]]:
    """A fresh page (own profile: storage and cache) whose requests to anywhere but the site are
    aborted and kept. A profile per notebook: with one profile shared by the module, notebook 02's
    run never finished here, twice (the cause was not found)."""
    context: BrowserContext = offline_browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(NOTEBOOK_TIMEOUT_MS)
    outside: list[str] = []

    def local_only(route: Route) -> None:
        if route.request.url.startswith(site_url + "/"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", local_only)
    page = context.new_page()
    yield page, outside
    context.close()
    assert not outside, f"requests to other hosts: {outside}"


def _sanitized(text: str) -> str:
    for regex, replacement in SANITIZE:
        text = re.sub(regex, replacement, text)
    return text


def _text(value: str | list[str]) -> str:
    return value if isinstance(value, str) else "".join(value)


def comparable(outputs: list[dict[str, Any]]) -> list[Any]:
    """Outputs as nbval compares them: streams of one name joined, widget ids and images left
    out, the sanitizer's patterns applied."""
    result: list[Any] = []
    for output in outputs:
        kind = output["output_type"]
        if kind == "stream":
            text = _sanitized(_text(output["text"]))
            if result and result[-1][0] == "stream" and result[-1][1] == output["name"]:
                result[-1] = ("stream", output["name"], result[-1][2] + text)
            else:
                result.append(("stream", output["name"], text))
        elif kind in ("display_data", "execute_result"):
            data = {
                key: _sanitized(
                    _text(value) if isinstance(value, str | list) else json.dumps(value)
                )
                for key, value in output.get("data", {}).items()
                if key not in SKIP_KEYS
            }
            result.append(("data", data))
        elif kind == "error":
            result.append(("error", output["ename"], output["evalue"]))
    return result


def _checked(cells: list[dict[str, Any]]) -> list[tuple[int, str, list[Any]]]:
    return [
        (i, _text(cell["source"]), comparable(cell["outputs"]))
        for i, cell in enumerate(c for c in cells if c["cell_type"] == "code")
        if "NBVAL_CHECK_OUTPUT" in _text(cell["source"])
    ]


def _open(page: Page, site_url: str, notebook: str) -> None:
    page.goto(f"{site_url}/lab/index.html?path=notebooks/{notebook}")
    page.locator(".jp-Notebook .jp-Cell").first.wait_for()
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget")


def _run_all(page: Page) -> list[dict[str, Any]]:
    page.locator(".jp-StatusBar-TextItem", has_text="| Idle").wait_for()  # the kernel is up
    page.evaluate(RUN_ALL)
    page.wait_for_function(RUN_FINISHED, timeout=NOTEBOOK_TIMEOUT_MS, polling=1000)
    cells: list[dict[str, Any]] = page.evaluate(NOTEBOOK_JSON)["cells"]
    return cells


@pytest.mark.slow
@pytest.mark.parametrize("notebook", COURSE)
def test_each_course_notebook_runs_in_the_browser_and_prints_what_it_saved(
    lite_page: tuple[Page, list[str]], site_url: str, notebook: str, artifacts: Path
) -> None:
    page, _ = lite_page
    _open(page, site_url, notebook)
    cells = _run_all(page)
    page.screenshot(path=artifacts / f"lite_{notebook.removesuffix('.ipynb')}.png")
    errors = [
        (i, o["ename"], o["evalue"])
        for i, c in enumerate(cells)
        for o in c.get("outputs", [])
        if o["output_type"] == "error"
    ]
    assert not errors, f"{notebook}: cells failed: {errors}"
    saved = json.loads((ROOT / "notebooks" / notebook).read_text())["cells"]
    ran = [c for c in cells if c.get("id") not in ("lite-install", "lite-charts")]
    expected, got = _checked(saved), _checked(ran)
    assert [i for i, *_ in got] == [i for i, *_ in expected]
    assert len(expected) > 0
    for (i, source, want), (_, _, have) in zip(expected, got, strict=True):
        assert have == want, f"{notebook} code cell {i}:\n{source}"
    if notebook.startswith("00_"):  # its exercise was checked: the record is in the browser
        record = page.evaluate(PROGRESS_RECORD)
        assert json.loads(record)["mqlearn-progress"] == 1, record


@pytest.mark.slow
def test_the_workbench_puts_advances_and_gets_in_the_browser(
    lite_page: tuple[Page, list[str]], site_url: str, artifacts: Path
) -> None:
    page, _ = lite_page
    _open(page, site_url, "workbench.ipynb")
    _run_all(page)
    put = page.locator(".mq-put")
    put.wait_for()
    expiry = page.locator(".mq-expiry input")
    expiry.fill("10")  # 1 s
    expiry.press("Enter")
    put.click()
    expect(page.locator(".mq-qv-lanes .mq-chip")).to_have_count(1)
    page.locator(".mq-advance-1s").click()
    page.locator(".mq-advance-1s").click()
    expect(page.locator(".mq-qv-clock")).to_have_text("now 2.0 s")
    expect(page.locator('.mq-qv-lanes .mq-chip[data-state="expired"]')).to_have_count(1)
    page.locator(".mq-get").click()
    expect(page.locator(".mq-result")).to_contain_text("2033")
    expect(page.locator(".mq-qv-depth")).to_contain_text("CURDEPTH 0")
    page.screenshot(path=artifacts / "lite_workbench.png")
