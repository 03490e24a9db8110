"""The page loads Python in a worker and answers calls: the foundation every screen uses."""

from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Page, expect

from .conftest import READY_TIMEOUT_MS, open_ready, set_setting


def test_page_becomes_ready_and_shows_both_versions(page: Page):
    versions = open_ready(page)
    expect(page.get_by_test_id("status")).to_have_text("Ready")
    set_setting(page, "setting-developer")  # the version line is a developer's
    shown = page.get_by_test_id("versions").inner_text()
    assert f"gridforge {versions['gridforge']}" in shown
    assert re.search(r"Python 3\.\d+\.\d+", shown)
    assert versions["implementation"] == "cpython" and versions["platform"] == "emscripten"
    assert versions["crossOriginIsolated"] is True
    assert versions["startup"] == "snapshot", versions.get("startupFallback")
    assert page.page_errors == []


@pytest.mark.parametrize("damage", ["missing", "corrupt"])
def test_without_a_usable_snapshot_python_starts_cold_and_answers(browser, base_url, damage):
    context = browser.new_context(base_url=base_url, service_workers="block")

    def spoil(route):
        if damage == "missing":
            return route.fulfill(status=404, body="")
        response = route.fetch()
        body = bytearray(response.body())
        body[len(body) // 2 : len(body) // 2 + 64] = bytes(64)  # fails the gzip check
        return route.fulfill(response=response, body=bytes(body))

    context.route("**/pyodide/snapshot.bin.gz", spoil)
    try:
        page = context.new_page()
        page.goto("/")
        versions = page.evaluate("() => window.gridforge.ready")
        assert versions["startup"] == "cold"
        assert versions["startupFallback"]
        assert page.evaluate("() => window.gridforge.call('gridforge.api.echo', [3])") == [3]
        expect(page.get_by_test_id("status")).to_have_text("Ready")
    finally:
        context.close()


def test_round_trip_call_returns_the_right_json(page: Page):
    open_ready(page)
    payload = {"cells": [[0, 1], [2, 3]], "name": "ü", "n": 1.5, "none": None, "ok": True}
    echoed = page.evaluate("(p) => window.gridforge.call('gridforge.api.echo', p)", payload)
    assert echoed == payload
    version = page.evaluate("() => window.gridforge.call('gridforge.api.version')")
    assert version["gridforge"] == page.evaluate("() => window.gridforge.versions.gridforge")


def test_console_screen_calls_python(page: Page):
    open_ready(page)
    set_setting(page, "setting-developer")  # the Console tab is a developer's
    page.get_by_test_id("screen-console").click()
    page.get_by_test_id("call-name").fill("gridforge.api.echo")
    page.get_by_test_id("call-args").fill('[{"a": [1, 2]}]')
    page.get_by_test_id("call-run").click()
    expect(page.get_by_test_id("call-result")).to_contain_text('"a"')
    expect(page.get_by_test_id("error")).to_be_hidden()


def test_long_call_is_cancelled_and_the_same_python_answers_next(page: Page):
    open_ready(page)
    page.evaluate(
        """() => { window.readyBefore = window.gridforge.ready;
                   window.spinOutcome = window.gridforge.call('gridforge.api.spin', 30)
                     .then(v => ({ok: true, v}),
                           e => ({ok: false, type: e.type, message: e.message})); }"""
    )
    expect(page.get_by_test_id("busy")).to_be_visible()
    expect(page.get_by_test_id("progress-label")).to_contain_text("spinning")
    page.get_by_test_id("cancel").click()
    outcome = page.evaluate("() => window.spinOutcome")
    assert outcome["ok"] is False and outcome["type"] == "Cancelled"
    answer = page.evaluate("() => window.gridforge.call('gridforge.api.echo', 42)")
    assert answer == 42
    # Answered by the same Python, interrupted and not replaced (no reload of the runtime,
    # which is what made a cancel slow): the bridge's ready promise is still the first one.
    assert page.evaluate("() => window.gridforge.ready === window.readyBefore")
    expect(page.get_by_test_id("busy")).to_be_hidden()


def test_bad_arguments_show_a_clear_error_and_the_worker_lives(page: Page):
    open_ready(page)
    set_setting(page, "setting-developer")  # the Console tab is a developer's
    page.get_by_test_id("screen-console").click()
    page.get_by_test_id("call-name").fill("gridforge.api.echo")
    page.get_by_test_id("call-args").fill("[1, 2, 3]")
    page.get_by_test_id("call-run").click()
    error = page.get_by_test_id("error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("bad arguments for gridforge.api.echo")
    page.get_by_test_id("call-name").fill("gridforge.api.no_such_function")
    page.get_by_test_id("call-args").fill("[]")
    page.get_by_test_id("call-run").click()
    expect(error).to_contain_text("unknown function")
    page.get_by_test_id("call-args").fill("[1,")
    page.get_by_test_id("call-run").click()
    expect(error).to_contain_text("arguments:")
    # The worker still answers.
    assert page.evaluate("() => window.gridforge.call('gridforge.api.echo', 'alive')") == "alive"


def test_page_works_with_every_non_local_request_blocked(browser, base_url):
    context = browser.new_context(base_url=base_url, service_workers="block")
    outside: list[str] = []

    def guard(route):
        host = urlparse(route.request.url).hostname
        if host not in ("127.0.0.1", "localhost"):
            outside.append(route.request.url)
            return route.abort()
        return route.continue_()

    context.route("**/*", guard)
    context.on("request", lambda request: None if urlparse(request.url).hostname in
               ("127.0.0.1", "localhost", None) else outside.append(request.url))
    try:
        page = context.new_page()
        page.goto("/")
        page.wait_for_function("() => window.gridforge && window.gridforge.versions",
                               timeout=READY_TIMEOUT_MS)
        assert page.evaluate("() => window.gridforge.call('gridforge.api.echo', [1])") == [1]
        assert outside == []
    finally:
        context.close()


def test_missing_file_is_a_404_and_the_server_lives(page: Page, base_url: str):
    response = page.request.get(base_url + "no/such/file.js")
    assert response.status == 404
    assert page.request.get(base_url + "manifest.json").status == 200


def test_wasm_and_modules_are_served_with_the_right_types_and_isolation(page: Page, base_url: str):
    wasm = page.request.get(base_url + "pyodide/pyodide.asm.wasm")
    assert wasm.headers["content-type"] == "application/wasm"
    mjs = page.request.get(base_url + "pyodide/pyodide.mjs")
    assert mjs.headers["content-type"].startswith("text/javascript")
    assert mjs.headers["cross-origin-opener-policy"] == "same-origin"
    assert mjs.headers["cross-origin-embedder-policy"] == "require-corp"


def test_a_tampered_wheel_rejects_ready_with_the_reason(browser, base_url):
    context = browser.new_context(base_url=base_url, service_workers="block")

    def tamper(route):
        response = route.fetch()
        body = bytearray(response.body())
        body[len(body) // 2] ^= 0xFF
        route.fulfill(response=response, body=bytes(body))

    context.route("**/wheels/*.whl", tamper)
    try:
        page = context.new_page()
        page.goto("/")
        reason = page.evaluate(
            "() => window.gridforge.ready.then(() => 'ready', (e) => e.message)",
        )
        assert "SHA-256 mismatch" in reason
        later = page.evaluate(
            "() => window.gridforge.call('gridforge.api.echo', 1)"
            ".then(() => 'answered', e => e.message)"
        )
        assert "SHA-256 mismatch" in later  # calls after a failed load fail at once, never hang
        expect(page.get_by_test_id("status")).to_have_text("Failed to load")
        expect(page.get_by_test_id("error")).to_contain_text("SHA-256 mismatch")
    finally:
        context.close()


def test_without_isolation_cancel_replaces_the_worker_and_calls_go_on(browser, base_url):
    context = browser.new_context(base_url=base_url, service_workers="block")

    def strip_isolation(route):
        response = route.fetch()
        headers = {k: v for k, v in response.headers.items()
                   if k.lower() not in ("cross-origin-opener-policy",
                                        "cross-origin-embedder-policy")}
        route.fulfill(response=response, headers=headers)

    context.route("**/*", strip_isolation)
    try:
        page = context.new_page()
        page.goto("/")
        versions = page.evaluate("() => window.gridforge.ready")
        assert versions["crossOriginIsolated"] is False
        page.evaluate(
            """() => { window.spinOutcome = window.gridforge.call('gridforge.api.spin', 60)
                         .then(v => 'finished', e => e.type); }"""
        )
        expect(page.get_by_test_id("progress-label")).to_contain_text("spinning")
        page.get_by_test_id("cancel").click()
        assert page.evaluate("() => window.spinOutcome") == "Cancelled"
        assert page.evaluate("() => window.gridforge.call('gridforge.api.echo', 'again')") == \
            "again"
    finally:
        context.close()
