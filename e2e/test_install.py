"""Installable (issue 22): the page links the web app manifest; the browser fetches it as
application/manifest+json with the fields an installable app needs and every icon at its
stated size; Chromium itself finds the app installable (Chrome DevTools Protocol
``Page.getInstallabilityErrors``: no error), also when the site lives under a sub-path, where
start URL, scope and app id are that sub-path; after one visit, with the network gone, the
manifest and the icons come from the service worker's cache and the app is still
installable. (Lighthouse's audit of the same: tests/test_lighthouse.py.)"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from buildsys.paths import SITE

from .conftest import READY_TIMEOUT_MS, open_page, served_site, wait_idle
from .test_offline import block_everything, wait_offline_ready

MANIFEST = "app.webmanifest"
# Playwright's contexts are incognito profiles; Chromium says so among the installability
# errors, which Lighthouse leaves out too: it is about the profile, not the site.
PROFILE_ONLY = {"in-incognito"}


@pytest.fixture(scope="module")
def host_url() -> Iterator[str]:
    """build/ served as a static host's root: the site lives under /site/."""
    with served_site(root=SITE.parent) as url:
        yield url


def ready(page: Page, path: str = "/") -> None:
    page.goto(path)
    page.evaluate("() => window.gridforge.ready")
    wait_idle(page)


def browser_view(page: Page) -> dict[str, Any]:
    """What Chromium makes of the page's manifest (``Page.getAppManifest``), its app id and
    its installability errors (those about the profile left out)."""
    cdp = page.context.new_cdp_session(page)
    try:
        manifest = cdp.send("Page.getAppManifest")
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        app_id = cdp.send("Page.getAppId")
    finally:
        cdp.detach()
    return {"manifest": manifest, "app_id": app_id,
            "errors": [e for e in errors if e["errorId"] not in PROFILE_ONLY]}


def fetched_icons(page: Page, icons: list[dict[str, str]]) -> list[dict[str, Any]]:
    """Each icon fetched by the page and decoded: its type and its size in pixels."""
    return page.evaluate("""async (icons) => Promise.all(icons.map(async (icon) => {
        const response = await fetch(icon.src);
        const bitmap = await createImageBitmap(await response.blob());
        return {src: icon.src, type: response.headers.get('content-type'),
                size: `${bitmap.width}x${bitmap.height}`};
    }))""", icons)


def test_the_manifest_is_linked_fetched_with_its_fields_and_chromium_finds_the_app_installable(
        page: Page, base_url: str):
    responses: dict[str, str] = {}
    page.on("response", lambda r: responses.__setitem__(r.url, r.headers.get("content-type")))
    ready(page)
    assert page.locator('link[rel="manifest"]').get_attribute("href") == MANIFEST
    view = browser_view(page)
    assert view["errors"] == []
    assert view["manifest"]["url"] == base_url + MANIFEST and view["manifest"]["errors"] == []
    assert responses[base_url + MANIFEST] == "application/manifest+json"
    manifest = json.loads(view["manifest"]["data"])
    assert manifest["name"] and manifest["short_name"] == "gridforge" and manifest["description"]
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == manifest["scope"] == "./"
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    parsed = view["manifest"]["manifest"]
    assert parsed["startUrl"] == parsed["scope"] == base_url
    assert parsed["display"] == "kStandalone"
    # Every icon at its stated size, among them 192 and 512 px and a maskable 512 px one.
    icons = manifest["icons"]
    assert {(i["sizes"], i.get("purpose", "any")) for i in icons} >= {
        ("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for icon, got in zip(icons, fetched_icons(page, icons), strict=True):
        assert got == {"src": icon["src"], "type": "image/png", "size": icon["sizes"]}
    # The favicon and the apple-touch-icon are there too.
    for selector in ('link[rel="icon"][type="image/svg+xml"]', 'link[rel="apple-touch-icon"]'):
        href = page.locator(selector).get_attribute("href")
        assert page.evaluate("(h) => fetch(h).then(r => r.ok)", href)
    assert page.page_errors == []


def test_under_a_sub_path_the_start_url_scope_and_app_id_are_that_sub_path(
        browser: Browser, host_url: str):
    with open_page(browser, host_url, service_workers="block") as page:
        ready(page, f"/{SITE.name}/#snakes")
        view = browser_view(page)
        site = f"{host_url}{SITE.name}/"
        assert view["errors"] == []
        parsed = view["manifest"]["manifest"]
        assert (parsed["startUrl"], parsed["scope"], parsed["id"]) == (site, site, site)
        assert view["app_id"]["appId"] == site
        assert page.page_errors == []


def test_after_one_visit_the_manifest_and_icons_come_from_the_cache_offline(
        browser: Browser, base_url: str):
    context = browser.new_context(base_url=base_url)
    try:
        page = context.new_page()
        ready(page)
        wait_offline_ready(page)
        reached = block_everything(context)
        from_network: list[str] = []
        from_cache: list[str] = []
        page.on("response", lambda r: (from_cache if r.from_service_worker else from_network)
                .append(r.url))
        page.reload()
        page.evaluate("() => window.gridforge.ready")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null",
                               timeout=READY_TIMEOUT_MS)
        view = browser_view(page)  # the browser fetches the manifest and an icon itself
        assert view["errors"] == [] and view["manifest"]["errors"] == []
        manifest = json.loads(view["manifest"]["data"])
        icons = manifest["icons"] + [{"src": "icons/icon.svg", "sizes": "any"}]
        got = fetched_icons(page, icons[:-1])
        assert [g["size"] for g in got] == [i["sizes"] for i in manifest["icons"]]
        assert page.evaluate("() => fetch('icons/icon.svg').then(r => r.ok)")
        assert base_url + MANIFEST in from_cache
        assert {base_url + i["src"] for i in icons} <= set(from_cache)
        assert from_network == []
        assert reached == [] or all(u.endswith("/sw.js") for u in reached), reached
    finally:
        context.close()
