"""Playwright fixtures: the built site served on a free loopback port, and Debian's Chromium.

The server runs in this process and is always shut down at the end of the session, so the
test command never leaves a server running. No browser is downloaded: /usr/bin/chromium.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from buildsys.paths import CHROMIUM, SITE
from buildsys.server import make_server, start_in_thread  # the one place the server is defined

ROOT = Path(__file__).resolve().parent.parent

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
READY_TIMEOUT_MS = 60_000
# How long an expectation waits for its page state before it fails. Playwright's 5 s is
# too short on a loaded machine for a state that needs Python (a map's tiles, a fresh page's
# level, a verification): the bound only ends a broken run, a passing one never waits it out.
STATE_TIMEOUT_MS = 30_000
expect.set_options(timeout=STATE_TIMEOUT_MS)


@contextmanager
def served_site(*, isolation: bool = True, root: Path | None = None) -> Iterator[str]:
    """The built site served on a free loopback port (with or without the isolation headers),
    always shut down afterwards; yields its base URL. ``root``: the folder served instead of
    the site itself (``build/``, so that the site lives under a sub-path, /site/)."""
    if not (SITE / "manifest.json").exists():
        pytest.fail("the site is not built: run `python3 build.py build` (or build.py test)")
    server = make_server(root or SITE, port=0, isolation=isolation)
    start_in_thread(server)
    host, port = server.server_address[:2]
    try:
        yield f"http://{host}:{port}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def base_url() -> Iterator[str]:
    with served_site() as url:
        yield url


@contextmanager
def open_page(browser: Browser, base_url: str, **options: object) -> Iterator[Page]:
    """A page in a fresh context (``options`` go to ``browser.new_context``) whose uncaught
    errors are collected in ``page.page_errors``; the context is closed afterwards."""
    context = browser.new_context(base_url=base_url, **options)  # type: ignore[arg-type]
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.page_errors = errors  # type: ignore[attr-defined]
    try:
        yield page
    finally:
        context.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(browser: Browser, base_url: str) -> Iterator[Page]:
    """A page in a fresh context. Its service worker is blocked: the offline cache is
    tested in test_offline.py, and elsewhere it would only fill itself (about 13 MiB) in the
    background of every test. A test that makes its own context and routes requests with
    `route.fetch` should pass `service_workers="block"` too, or a worker still filling its
    cache when the context closes makes the route handler fail."""
    with open_page(browser, base_url, service_workers="block") as opened:
        yield opened


@pytest.fixture
def context(browser: Browser, base_url: str) -> Iterator[BrowserContext]:
    """A fresh context for tests that open several tabs of one site (two tabs on one saved
    game), its service worker blocked as for :func:`page`."""
    context = browser.new_context(base_url=base_url, service_workers="block")
    try:
        yield context
    finally:
        context.close()


def wait_idle(page: Page, timeout: float = READY_TIMEOUT_MS) -> None:
    """Wait until no Python call is in flight and the page has drawn the last answer (the
    idle signal: ``<body>`` without ``data-busy``), however long a loaded machine takes."""
    expect(page.locator("body:not([data-busy])")).to_have_count(1, timeout=timeout)


def press(page: Page, device: str, testid: str) -> None:
    """The visible control ``testid``, clicked (``device`` "desktop") or tapped ("phone") as a
    person would."""
    target = page.get_by_test_id(testid)
    expect(target).to_be_visible()
    if device == "phone":
        target.tap()
    else:
        target.click()


def set_setting(page: Page, testid: str, on: bool = True) -> None:
    """Set the checkbox ``testid`` of the settings screen as a player does: the Settings tab
    in the navigation, then the box; the page stays on #settings."""
    page.get_by_test_id("screen-settings").click()
    page.get_by_test_id(testid).set_checked(on)


def open_ready(page: Page) -> dict:
    """Open the page and wait until Python is loaded; return the versions it reports."""
    page.goto("/")
    page.evaluate("() => window.gridforge.ready")  # rejects with the reason if loading fails
    wait_idle(page)
    return page.evaluate("() => window.gridforge.versions")
