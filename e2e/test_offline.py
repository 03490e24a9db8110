"""Offline and hosting: after one visit the site is ready with every request blocked; a new
build replaces the cache as a whole; a plain static host (no isolation headers) works; the
whole main line is saved in the background after the install."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from buildsys.offline import write_offline_manifest
from buildsys.paths import SITE
from buildsys.server import make_server, start_in_thread

from .conftest import READY_TIMEOUT_MS, ROOT, served_site

SW_PREFIX = "gridforge-"



def install_update(page) -> None:
    """Ask the service worker for the redeployed build and wait until it has installed."""
    page.evaluate("""() => {
        window.updated = false;
        navigator.serviceWorker.getRegistration().then(async (reg) => {
            await reg.update();
            const waiting = reg.installing || reg.waiting;
            if (waiting.state !== 'installed') {
                await new Promise((resolve) => waiting.addEventListener(
                    'statechange', () => waiting.state === 'installed' && resolve()));
            }
            window.updated = true;
        });
    }""")
    page.wait_for_function("() => window.updated", timeout=READY_TIMEOUT_MS)

def build_version(site: Path) -> str:
    return json.loads((site / "sw-manifest.json").read_text())["version"]


def wait_offline_ready(page: Page) -> list[str]:
    """Wait until the page's service worker is active and has saved the main line in the
    background (the page says so on <html data-offline>); return the site's caches."""
    try:
        page.wait_for_function(
            "() => ['ready', 'partial'].includes(document.documentElement.dataset.offline)",
            timeout=READY_TIMEOUT_MS)
    except Exception:
        print("offline state:", page.evaluate("() => ({...document.documentElement.dataset,"
                                              " sw: navigator.serviceWorker.controller && 1})"))
        raise
    page.evaluate("""() => {
        window.offlineCaches = null;
        navigator.serviceWorker.ready
            .then(() => caches.keys())
            .then((keys) => {
                window.offlineCaches = keys.filter(k => k.startsWith('gridforge-'));
            });
    }""")
    page.wait_for_function("() => window.offlineCaches !== null", timeout=READY_TIMEOUT_MS)
    return page.evaluate("() => window.offlineCaches")


def ready(page: Page) -> dict:
    page.wait_for_function("() => window.gridforge && window.gridforge.versions",
                           timeout=READY_TIMEOUT_MS)
    return page.evaluate("() => window.gridforge.versions")


def block_everything(context: BrowserContext) -> list[str]:
    """Take the network away: offline, and every request that still reaches the network
    aborted and recorded (requests the service worker answers never get here)."""
    reached: list[str] = []

    def refuse(route):
        reached.append(route.request.url)
        route.abort()

    context.set_offline(True)
    context.route("**/*", refuse)
    return reached


def test_on_the_first_visit_ready_means_a_level_never_opened_plays_offline_without_a_reload(
        browser: Browser, base_url: str):
    from .snakes_helpers import wait_level

    context = browser.new_context(base_url=base_url)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto("/")
        ready(page)
        html = page.locator("html")
        # Said only once the worker serves this very page (no reload in between).
        expect(html).to_have_attribute("data-offline", "ready", timeout=READY_TIMEOUT_MS)
        expect(page.get_by_test_id("offline-status")).to_have_text(
            "Every level plays offline on this device.")
        assert page.evaluate("() => navigator.serviceWorker.controller !== null")
        page.evaluate("(t) => localStorage.setItem('gridforge.progress', t)", json.dumps(
            {"format": "gridforge.progress/1", "mines": {"run": None},
             "snakes": {"done": {}, "open": 2000}}))
        reached = block_everything(context)
        # Levels never opened, in a block of the install and in one saved in the background.
        for n in (7, 1999):
            page.evaluate("(n) => { location.hash = '#snakes/level/' + n; }", n)
            wait_level(page, n)
            expect(page.get_by_test_id("snakes-unavailable")).to_have_count(0)
        assert reached == []
        assert errors == []
    finally:
        context.close()


@pytest.fixture(scope="module")
def plain_url() -> Iterator[str]:
    """The built site on a plain static host: no COOP/COEP, no Cache-Control."""
    with served_site(isolation=False) as url:
        yield url


@pytest.mark.parametrize("host", ["isolated", "plain"])
def test_after_one_visit_a_reload_with_every_request_blocked_is_ready_and_answers(
        browser: Browser, base_url: str, plain_url: str, host: str):
    url = base_url if host == "isolated" else plain_url
    context = browser.new_context(base_url=url)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto("/")
        first = ready(page)
        assert first["crossOriginIsolated"] is (host == "isolated")
        assert wait_offline_ready(page) == [SW_PREFIX + build_version(SITE)]

        reached = block_everything(context)
        served_by_network: list[str] = []
        page.on("response", lambda r: None if r.from_service_worker
                else served_by_network.append(r.url))
        page.reload()
        versions = ready(page)
        expect(page.get_by_test_id("status")).to_have_text("Ready")
        assert versions["gridforge"] == first["gridforge"]
        # The page keeps its isolation from the cached headers (or its absence on a plain host).
        assert versions["crossOriginIsolated"] is (host == "isolated")
        assert page.evaluate("() => window.gridforge.call('gridforge.api.echo', {a: [1]})") \
            == {"a": [1]}
        # The level blocks are there too, fetched on demand, as the index says.
        index = page.evaluate("() => fetch('levels/index.json').then(r => r.json())")
        assert index["format"] == "gridforge.levels-index/1" and index["blocks"]
        first_block = index["blocks"][0]
        block = page.evaluate("(f) => fetch('levels/' + f).then(r => r.json())",
                              first_block["file"])
        assert len(block["levels"]) == first_block["last"] - first_block["first"] + 1
        assert reached == [] or all(u.endswith("/sw.js") for u in reached), reached
        assert served_by_network == []
        assert errors == []
    finally:
        context.close()


def test_without_isolation_cancel_restarts_the_worker_on_a_plain_host(
        browser: Browser, plain_url: str):
    context = browser.new_context(base_url=plain_url)
    try:
        page = context.new_page()
        page.goto("/")
        assert ready(page)["crossOriginIsolated"] is False
        page.evaluate(
            """() => { window.spinOutcome = window.gridforge.call('gridforge.api.spin', 60)
                         .then(v => 'finished', e => e.type); }"""
        )
        expect(page.get_by_test_id("progress-label")).to_contain_text("spinning")
        page.get_by_test_id("cancel").click()
        assert page.evaluate("() => window.spinOutcome") == "Cancelled"
        assert page.evaluate("() => window.gridforge.call('gridforge.api.echo', 'again')") \
            == "again"
    finally:
        context.close()


@pytest.fixture
def deployed(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A copy of the site deployed under /app/ of its own server (its own origin, so its
    service worker is its own), with /watch.html outside the app's scope."""
    site = tmp_path / "host" / "app"
    shutil.copytree(SITE, site)
    (tmp_path / "host" / "watch.html").write_text("<!doctype html><title>watch</title>")
    server = make_server(tmp_path / "host", port=0)
    start_in_thread(server)
    host, port = server.server_address[:2]
    try:
        yield f"http://{host}:{port}/", site
    finally:
        server.shutdown()
        server.server_close()


def redeploy(site: Path) -> str:
    """A new build of the deployed copy: one file changed, the offline list written anew.

    The build is made in a staging copy and sw.js is put in place last, as a real deploy
    does: the page's own registration checks sw.js at any moment, and a check between two
    steps would otherwise see web/sw.js without its build line (a third worker)."""
    staging = site.with_name("staging")
    shutil.copytree(site, staging)
    manifest = json.loads((staging / "manifest.json").read_text())
    manifest["deployed"] = "second build"
    (staging / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True))
    shutil.copy2(ROOT / "web" / "sw.js", staging / "sw.js")
    version = write_offline_manifest(staging)
    for name in ("manifest.json", "sw-manifest.json"):
        shutil.copy2(staging / name, site / name)
    os.replace(staging / "sw.js", site / "sw.js")
    return version


def test_a_new_build_replaces_the_cache_as_a_whole(browser: Browser, deployed):
    origin, site = deployed
    old = SW_PREFIX + build_version(site)
    context = browser.new_context(base_url=origin)
    try:
        page = context.new_page()
        page.goto("/app/")
        ready(page)
        assert wait_offline_ready(page) == [old]
        page.reload()  # the second visit: now the old build's worker serves this page
        ready(page)
        assert page.evaluate("() => navigator.serviceWorker.controller !== null")

        new = SW_PREFIX + redeploy(site)
        assert new != old
        install_update(page)
        # The new build waits while a page of the old one is open: that page still gets
        # the old files, never a mix.
        assert sorted(page.evaluate(
            "() => caches.keys().then(k => k.filter(n => n.startsWith('gridforge-')))"
        )) == sorted([old, new])
        manifest = page.evaluate("() => fetch('manifest.json').then(r => r.json())")
        assert "deployed" not in manifest
        assert page.evaluate("() => window.gridforge.call('gridforge.api.echo', 1)") == 1

        page.close()
        # From outside the app's scope (not a client of its worker), wait until the new
        # worker is active and the old cache is gone.
        watch = context.new_page()
        watch.goto("/watch.html")
        watch.evaluate("""(want) => {
            window.switched = false;
            (async () => {
                for (;;) {
                    const reg = await navigator.serviceWorker.getRegistration('/app/');
                    const keys = (await caches.keys()).filter(k => k.startsWith('gridforge-'));
                    if (reg && reg.active && !reg.waiting && !reg.installing
                        && keys.length === 1 && keys[0] === want) break;
                    await new Promise((resolve) => setTimeout(resolve, 50));
                }
                window.switched = true;
            })();
        }""", new)
        watch.wait_for_function("() => window.switched", timeout=READY_TIMEOUT_MS)

        page = context.new_page()
        from_network: list[str] = []
        page.on("response", lambda r: None if r.from_service_worker
                else from_network.append(r.url))
        page.goto("/app/")
        ready(page)
        manifest = page.evaluate("() => fetch('manifest.json').then(r => r.json())")
        assert manifest["deployed"] == "second build"
        assert [u for u in from_network if not u.endswith("/sw.js")] == []
        assert page.evaluate("() => window.gridforge.call('gridforge.api.echo', 2)") == 2
    finally:
        context.close()


def test_a_file_of_another_build_fails_the_install_and_nothing_is_cached(
        browser: Browser, deployed):
    origin, site = deployed
    # A half-finished deploy: the list names a level index that is not the one served.
    (site / "levels" / "index.json").write_text('{"format": "tampered"}')
    context = browser.new_context(base_url=origin)
    # Watch the registration from its start: the failed worker is gone soon after.
    context.add_init_script("""
        const register = navigator.serviceWorker.register.bind(navigator.serviceWorker);
        window.installOutcome = null;
        navigator.serviceWorker.register = (...args) => register(...args).then((reg) => {
            const worker = reg.installing;
            const settle = async () => {
                if (worker.state === 'installing') return;
                const keys = (await caches.keys()).filter(k => k.startsWith('gridforge-'));
                window.installOutcome = { state: worker.state, keys };
            };
            worker.addEventListener('statechange', settle);
            settle();
            return reg;
        });
    """)
    try:
        page = context.new_page()
        page.goto("/app/")
        ready(page)
        page.wait_for_function("() => window.installOutcome", timeout=READY_TIMEOUT_MS)
        outcome = page.evaluate("() => window.installOutcome")
        assert outcome == {"state": "redundant", "keys": []}
    finally:
        context.close()


def test_later_main_line_blocks_are_saved_in_the_background_after_the_install(
        browser: Browser, deployed):
    origin, site = deployed
    # Blocks past level 100 are not part of the install (a phone's first visit downloads the
    # first 100 levels and the rest of the site); once the worker is active the page asks it
    # to save the rest of the line, one checked block at a time, and says when it is done.
    later = ["main-0101-0125.json", "main-0126-0150.json", "main-0151-0175.json"]
    for name in later:
        (site / "levels" / name).write_text(json.dumps({"block": name}))
    shutil.copy2(ROOT / "web" / "sw.js", site / "sw.js")
    write_offline_manifest(site)
    listed = {f["path"]: f for f in json.loads((site / "sw-manifest.json").read_text())["files"]}
    assert all(listed[f"levels/{name}"]["lazy"] for name in later)
    blocks = [p for p in listed if p.startswith("levels/main-")]
    # One block the server no longer has: the line is saved but for it ("partial").
    missing = later[2]
    (site / "levels" / missing).unlink()
    context = browser.new_context(base_url=origin)
    cached = """() => caches.keys().then((keys) => caches.open(keys.find(
        k => k.startsWith('gridforge-')))).then((c) => c.keys())
        .then((requests) => requests.map((r) => new URL(r.url).pathname))"""
    fetch_block = """(name) => fetch('levels/' + name).then((r) => r.json())
        .then((v) => v.block, () => 'unavailable')"""
    try:
        page = context.new_page()
        page.goto("/app/")
        ready(page)
        html = page.locator("html")
        expect(html).to_have_attribute("data-offline", "partial", timeout=READY_TIMEOUT_MS)
        assert html.get_attribute("data-offline-total") == str(len(blocks))
        assert html.get_attribute("data-offline-done") == str(len(blocks) - 1)
        expect(page.get_by_test_id("offline-status")).to_contain_text("next visit")
        paths = page.evaluate(cached)
        assert all(f"/app/levels/{name}" in paths for name in later[:2])
        assert f"/app/levels/{missing}" not in paths

        page.reload()  # now this page is served by the worker
        ready(page)
        block_everything(context)
        assert page.evaluate(fetch_block, later[0]) == later[0]  # offline: from the cache
        assert page.evaluate(fetch_block, later[1]) == later[1]
        assert page.evaluate(fetch_block, missing) == "unavailable"  # never had
    finally:
        context.close()


def test_a_new_build_takes_the_blocks_it_shares_from_the_old_cache(browser: Browser, deployed):
    origin, site = deployed
    context = browser.new_context(base_url=origin)
    try:
        page = context.new_page()
        page.goto("/app/")
        ready(page)
        expect(page.locator("html")).to_have_attribute("data-offline", "ready",
                                                       timeout=READY_TIMEOUT_MS)
        new = SW_PREFIX + redeploy(site)
        fetched: list[str] = []
        context.on("request", lambda r: fetched.append(r.url) if "/levels/main-" in r.url else None)
        install_update(page)
        count = page.evaluate("""(name) => caches.open(name).then((c) => c.keys())
            .then((r) => r.filter((q) => q.url.includes('/levels/main-')).length)""", new)
        listed = json.loads((site / "sw-manifest.json").read_text())["files"]
        assert count == len([f for f in listed if f["path"].startswith("levels/main-")])
        # Only the first 100 levels were fetched again (the install checks them); the rest came
        # from the old build's cache, checked against their SHA-256.
        lazy = {f["path"] for f in listed if f.get("lazy")}
        assert not any(u.split("/app/")[-1] in lazy for u in fetched), fetched
    finally:
        context.close()
