"""Installable (issue 22): Lighthouse, the version pinned in package.json, runs its PWA
category against the built site served under a sub-path (/site/ of build/) in Debian's
Chromium, headless; the installability audit and every automated check of the category
pass. (Lighthouse 12 dropped the PWA category; 11.7.1 is its last release with it and runs on
Node.js 18.16 or later. e2e/test_install.py asks the browser itself too, by the Chrome
DevTools Protocol.)"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

import pytest

from buildsys.manifest import APP_MANIFEST
from buildsys.paths import CHROMIUM, SITE
from buildsys.server import make_server, start_in_thread

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.cpython_only  # runs Node.js, Chromium and a server

LIGHTHOUSE = ROOT / "node_modules" / "lighthouse" / "cli" / "index.js"
PINNED = json.loads((ROOT / "package.json").read_text())["devDependencies"]["lighthouse"]
SLOW_CPU_WARNING = "The tested device appears to have a slower CPU than"
RUN_SECONDS = 300  # far beyond the ~20 s it takes, for a loaded machine


def lighthouse(url: str, out: Path) -> dict:
    """Run the pinned Lighthouse's PWA category on ``url``; its JSON report."""
    flags = "--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run"
    command = ["node", str(LIGHTHOUSE), url, "--only-categories=pwa", "--output=json",
               f"--output-path={out}", f"--chrome-path={CHROMIUM}",
               f"--chrome-flags={flags}", "--quiet"]
    # Its own process group: on a timeout Lighthouse and the Chromium it started both go.
    with subprocess.Popen(command, cwd=ROOT, start_new_session=True, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True) as process:
        try:
            output, _ = process.communicate(timeout=RUN_SECONDS)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            pytest.fail(f"Lighthouse did not finish in {RUN_SECONDS} s")
    assert process.returncode == 0, output[-3000:]
    report: dict = json.loads(out.read_text())
    return report


@pytest.mark.slow
@pytest.mark.requires(LIGHTHOUSE.exists(),
                      "node_modules/lighthouse is missing: run `python3 build.py build`")
@pytest.mark.requires(CHROMIUM.exists(), f"{CHROMIUM} is missing")
@pytest.mark.requires((SITE / APP_MANIFEST).exists(),
                      "the site is not built: run `python3 build.py build`")
def test_lighthouse_finds_the_site_installable_under_a_sub_path(tmp_path: Path):
    # build/ served as a host's root: the site lives under /site/, as on a static host's
    # sub-path; its manifest's relative start URL and scope must hold there.
    server = make_server(SITE.parent, port=0)
    start_in_thread(server)
    host, port = server.server_address[:2]
    try:
        report = lighthouse(f"http://{host}:{port}/{SITE.name}/", tmp_path / "report.json")
    finally:
        server.shutdown()
        server.server_close()
    assert report["lighthouseVersion"] == PINNED
    # A loaded machine makes Lighthouse warn that the CPU is slow; that warning is about its
    # performance figures, which this test does not read. Any other warning fails it.
    warnings = [w for w in report["runWarnings"] if not w.startswith(SLOW_CPU_WARNING)]
    assert report.get("runtimeError") is None and warnings == []
    audits = report["audits"]
    installable = audits["installable-manifest"]
    assert installable["score"] == 1, installable.get("details")
    assert installable["details"]["items"] == [] and installable["warnings"] == []
    assert installable["details"]["debugData"]["manifestUrl"] == \
        f"http://{host}:{port}/{SITE.name}/{APP_MANIFEST}"
    category = report["categories"]["pwa"]
    automated = [ref["id"] for ref in category["auditRefs"]
                 if audits[ref["id"]]["scoreDisplayMode"] != "manual"]
    assert {"installable-manifest", "maskable-icon", "splash-screen", "themed-omnibox",
            "viewport"} <= set(automated)
    failed = {name: audits[name].get("explanation") or audits[name]["title"]
              for name in automated if audits[name]["score"] != 1}
    assert failed == {}
    assert category["score"] == 1
