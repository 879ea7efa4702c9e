"""Fixtures for the real-browser tests: Debian's chromium driven by Playwright (sync API).

No browser is ever downloaded: the tests skip, saying why, when /usr/bin/chromium is missing
(CI installs it, so there they always run). Screenshots go to tests/artifacts/ (gitignored).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Error, Page, expect, sync_playwright

from tests.browser import servers

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",  # CI runs as root
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
UI_TIMEOUT_MS = 120_000  # kernels and Spark start slowly on a busy 2-core machine
expect.set_options(timeout=UI_TIMEOUT_MS)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium; .ci/run does)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh page with its own cookies and storage, and patient timeouts."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(UI_TIMEOUT_MS)
    tab = context.new_page()
    yield tab
    context.close()


@pytest.fixture
def page_errors(page: Page) -> list[str]:
    """Uncaught JavaScript errors of ``page`` (a widget front end that failed, for instance),
    also printed, so that any failing test's report shows them."""
    errors: list[str] = []

    def record(error: Error) -> None:
        errors.append(f"{error.name}: {error.message}")
        print(f"page error: {errors[-1]}")

    page.on("pageerror", record)
    return errors


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def voila_app(page: Page, tmp_path: Path) -> Iterator[servers.VoilaApp]:
    """``voila_app(notebook)``: serve ``notebook`` under Voila with mqlearn's template (its log in
    ``tmp_path/voila.log``), open it in ``page`` and return its URL. Every server it started
    stops when the test ends, passed or failed."""
    with ExitStack() as started:

        def open_app(notebook: Path) -> str:
            url = started.enter_context(servers.voila(notebook, tmp_path / "voila.log"))
            page.goto(url)
            return url

        yield open_app
