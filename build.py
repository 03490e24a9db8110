#!/usr/bin/env python3
"""Build, serve and test gridforge: one script, standard library only.

    python3 build.py serve     build the wheel and the static site, serve it on 127.0.0.1:8000
    python3 build.py build     build the wheel and the static site only
    python3 build.py test      set up everything on a fresh machine, build, run every test

Every set-up step is done here, so a fresh Debian machine with Python, Node.js and npm
needs nothing installed by hand: a virtual environment in ``.venv`` with the project and
its test extras, Debian's ``chromium`` when ``/usr/bin/chromium`` is missing, and the npm
packages from the committed lock file. A step that fails names itself and its cause.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import ClassVar

ROOT = Path(__file__).resolve().parent
BUILD = ROOT / "build"
SITE = BUILD / "site"
DIST = BUILD / "dist"
WHEELHOUSE = BUILD / "wheelhouse"  # pure-Python wheels for the Pyodide test run
VENV = ROOT / ".venv"
CHROMIUM = Path("/usr/bin/chromium")

# Files of the npm package `pyodide` that the site needs (the rest is docs and types).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
)
# Pyodide's own micropip, shipped beside the runtime (its lock entry gets the real hash).
MICROPIP = "micropip==0.11.1"
# Pure-Python wheels that run the package's tests inside Pyodide under Node.js. The newest
# hypothesis releases ship only compiled wheels, so the pin is the last pure one, used on
# CPython too (pyproject.toml) so that both runs draw the same examples.
PYODIDE_TEST_WHEELS = (
    "pytest==9.2.0",
    "pluggy==1.7.0",
    "iniconfig==2.3.1",
    "packaging==26.4",
    "pygments==2.21.0",
    "hypothesis==6.155.7",
    "sortedcontainers==2.4.0",
)

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".css": "text/css",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
}


class StepFailed(Exception):
    """A build or set-up step failed; the message names the step and its cause."""


def say(message: str) -> None:
    print(f"[build] {message}", flush=True)


def run_step(step: str, cmd: list[str], *, cwd: Path = ROOT, env: dict | None = None,
             capture: bool = True) -> subprocess.CompletedProcess:
    """Run one command of a named step; on failure raise StepFailed with the cause."""
    say(f"{step}: {' '.join(str(c) for c in cmd)}")
    try:
        result = subprocess.run(
            [str(c) for c in cmd], cwd=cwd, env=env, text=True,
            stdout=subprocess.PIPE if capture else None,
            stderr=subprocess.STDOUT if capture else None,
        )
    except FileNotFoundError as exc:
        raise StepFailed(f"step '{step}' failed: command not found: {exc.filename}") from None
    if result.returncode != 0:
        tail = "\n".join((result.stdout or "").strip().splitlines()[-25:])
        raise StepFailed(
            f"step '{step}' failed with exit code {result.returncode}"
            + (f"; its last output:\n{tail}" if tail else "")
        )
    return result


def venv_python() -> Path:
    return VENV / "bin" / "python"


def fingerprint(*paths: Path) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()


# ---------------------------------------------------------------------------- set-up steps

def ensure_venv() -> None:
    """Create .venv and install the project with its test extras (again when they change)."""
    stamp = VENV / ".gridforge-installed"
    wanted = fingerprint(ROOT / "pyproject.toml")
    if not venv_python().exists():
        run_step("create virtual environment", [sys.executable, "-m", "venv", VENV])
    if stamp.exists() and stamp.read_text() == wanted:
        return
    pip = [venv_python(), "-m", "pip", "--disable-pip-version-check"]
    run_step("pip install the project and its test extras",
             [*pip, "install", "--quiet", "-e", f"{ROOT}[test]"])
    stamp.write_text(wanted)


def ensure_chromium() -> None:
    """Install Debian's chromium when /usr/bin/chromium is missing."""
    if CHROMIUM.exists():
        return
    prefix = [] if os.geteuid() == 0 else ["sudo", "-n"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run_step("apt-get update", [*prefix, "apt-get", "update", "-qq"], env=env)
    run_step("apt-get install chromium",
             [*prefix, "apt-get", "install", "-y", "-qq", "chromium"], env=env)
    if not CHROMIUM.exists():
        raise StepFailed(f"step 'apt-get install chromium' left no {CHROMIUM}")


def ensure_npm() -> None:
    """Install the pinned npm packages (pyodide) from package-lock.json with `npm ci`."""
    stamp = ROOT / "node_modules" / ".gridforge-installed"
    wanted = fingerprint(ROOT / "package-lock.json")
    if stamp.exists() and stamp.read_text() == wanted:
        return
    run_step("npm ci", ["npm", "ci", "--no-audit", "--no-fund"])
    stamp.write_text(wanted)


def download_wheels(step: str, specs: tuple[str, ...], dest: Path, *, python_version: str
                    ) -> list[Path]:
    """Download pinned pure-Python wheels (no dependencies resolved: every pin is listed)."""
    dest.mkdir(parents=True, exist_ok=True)
    run_step(step, [venv_python(), "-m", "pip", "--disable-pip-version-check", "download",
                    "--quiet", "--no-deps", "--only-binary=:all:", "--platform", "any",
                    "--python-version", python_version, "--dest", dest, *specs])
    found = []
    for spec in specs:
        name, _, version = spec.partition("==")
        prefix = f"{name.replace('-', '_')}-{version}-"
        matches = sorted(p for p in dest.glob("*.whl") if p.name.lower().startswith(prefix))
        if not matches:
            raise StepFailed(f"step '{step}' failed: no wheel for {spec} in {dest}")
        found.append(matches[0])
    return found


# ---------------------------------------------------------------------------- build steps

def build_wheel() -> Path:
    """Build the project's wheel into build/dist and return its path."""
    if DIST.exists():
        shutil.rmtree(DIST)
    run_step("build the gridforge wheel",
             [venv_python(), "-m", "pip", "--disable-pip-version-check", "wheel", "--quiet",
              "--no-deps", "--wheel-dir", DIST, ROOT])
    wheels = sorted(DIST.glob("gridforge-*.whl"))
    if len(wheels) != 1:
        raise StepFailed(f"step 'build the gridforge wheel' produced {len(wheels)} wheels")
    return wheels[0]


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


MAINLINE_DATA = ROOT / "pkg" / "gridforge" / "snakes" / "data"
BLOCK_NAME = re.compile(r"main-(\d{4})-(\d{4})\.json")


def lay_out_levels(dest: Path) -> None:
    """Copy the main line's block files beside the wheel, with ``index.json`` listing them
    (``[{file, first, last, sha256}]`` in level order) so the page fetches blocks as needed."""
    dest.mkdir()
    index = []
    for block in sorted(MAINLINE_DATA.glob("main-*.json")):
        match = BLOCK_NAME.fullmatch(block.name)
        if match is None:
            continue
        shutil.copy2(block, dest / block.name)
        index.append({"file": block.name, "first": int(match[1]), "last": int(match[2]),
                      "sha256": sha256_of(block)})
    (dest / "index.json").write_text(json.dumps(index, indent=1))


def lay_out_site(wheel: Path) -> None:
    """Lay out the static site in build/site: runtime, micropip, our wheel, the shell."""
    pyodide_pkg = ROOT / "node_modules" / "pyodide"
    if not (pyodide_pkg / "pyodide.mjs").exists():
        raise StepFailed("step 'lay out the site' failed: node_modules/pyodide is missing "
                         "(run `python3 build.py test` or `npm ci` first)")
    if SITE.exists():
        shutil.rmtree(SITE)
    shutil.copytree(ROOT / "web", SITE)
    runtime = SITE / "pyodide"
    runtime.mkdir()
    for name in PYODIDE_FILES:
        shutil.copy2(pyodide_pkg / name, runtime / name)

    # micropip: the lock names a file whose hash differs from PyPI's; ship PyPI's wheel
    # under the lock's file name and write its real hash, so integrity checks stay on.
    (micropip,) = download_wheels("download micropip", (MICROPIP,), BUILD / "runtime-wheels",
                                  python_version="3.14")
    lock_path = runtime / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text())
    entry = lock["packages"]["micropip"]
    shutil.copy2(micropip, runtime / entry["file_name"])
    entry["sha256"] = sha256_of(micropip)
    # Keep only what the site ships, so nothing can silently reach for a missing file.
    lock["packages"] = {"micropip": entry}
    lock_path.write_text(json.dumps(lock, indent=1, sort_keys=True))

    lay_out_levels(SITE / "levels")

    wheels_dir = SITE / "wheels"
    wheels_dir.mkdir()
    shutil.copy2(wheel, wheels_dir / wheel.name)
    pyodide_version = json.loads((pyodide_pkg / "package.json").read_text())["version"]
    manifest = {
        "wheel": f"wheels/{wheel.name}",
        "wheel_sha256": sha256_of(wheel),
        "wheel_bytes": wheel.stat().st_size,
        "pyodide": pyodide_version,
    }
    (SITE / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True))
    say(f"site laid out in {SITE.relative_to(ROOT)} (wheel {wheel.name}, "
        f"{wheel.stat().st_size / 1024:.1f} KiB; pyodide {pyodide_version})")


def build_all() -> Path:
    ensure_venv()
    ensure_npm()
    wheel = build_wheel()
    lay_out_site(wheel)
    return wheel


# ---------------------------------------------------------------------------- serving

class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the right MIME types and cross-origin isolation headers."""

    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES
    }

    def end_headers(self) -> None:
        # COOP + COEP make the page cross-origin isolated: SharedArrayBuffer, and so an
        # interrupt buffer that stops long Python work without killing the worker.
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        if getattr(self.server, "verbose", False):
            super().log_message(format, *args)


class SiteServer(http.server.ThreadingHTTPServer):
    daemon_threads = True
    verbose = False

    def handle_error(self, request, client_address) -> None:
        # A browser closing a connection early is not a server fault; never crash on it.
        exc = sys.exc_info()[1]
        if not isinstance(exc, ConnectionError):
            super().handle_error(request, client_address)


def make_server(root: Path = SITE, host: str = "127.0.0.1", port: int = 8000,
                verbose: bool = False) -> SiteServer:
    """A server for ``root``; port 0 picks a free port (see ``server.server_address``)."""
    handler = functools.partial(SiteHandler, directory=str(root))
    server = SiteServer((host, port), handler)
    server.verbose = verbose
    return server


def start_in_thread(server: SiteServer) -> threading.Thread:
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    return thread


def serve(port: int) -> None:
    build_all()
    try:
        server = make_server(SITE, port=port, verbose=True)
    except OSError as exc:
        raise StepFailed(f"step 'serve' failed: cannot listen on 127.0.0.1:{port}: {exc}") \
            from None
    say(f"serving {SITE.relative_to(ROOT)} on http://127.0.0.1:{port}/ (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        say("stopped")
    finally:
        server.server_close()


# ---------------------------------------------------------------------------- tests

def run_suite(name: str, cmd: list[str], env: dict | None = None) -> bool:
    say(f"--- {name}: {' '.join(str(c) for c in cmd)}")
    started = time.monotonic()
    code = subprocess.call([str(c) for c in cmd], cwd=ROOT, env=env)
    say(f"--- {name}: exit code {code} after {time.monotonic() - started:.1f} s")
    return code == 0


def test(only: list[str]) -> int:
    ensure_chromium()
    build_all()
    download_wheels("download the Pyodide test wheels", PYODIDE_TEST_WHEELS, WHEELHOUSE,
                    python_version="3.14")
    py = venv_python()
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    suites = {
        "ruff": [py, "-m", "ruff", "check", "."],
        "pytest": [py, "-m", "pytest", "-q", "tests"],
        "pyodide": ["node", ROOT / "tools" / "pyodide_run.mjs", "test"],
        "e2e": [py, "-m", "pytest", "-q", "e2e"],
    }
    failed = [name for name, cmd in suites.items()
              if (not only or name in only) and not run_suite(name, cmd, env)]
    if failed:
        say(f"FAILED: {', '.join(failed)}")
        return 1
    say("all suites passed")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    serve_p = sub.add_parser("serve", help="build everything and serve on 127.0.0.1")
    serve_p.add_argument("--port", type=int, default=8000)
    sub.add_parser("build", help="build the wheel and the static site")
    test_p = sub.add_parser("test", help="set up, build and run every test")
    test_p.add_argument("--only", action="append", choices=["ruff", "pytest", "pyodide", "e2e"],
                        help="run only these suites (repeatable); default: all")
    args = parser.parse_args(argv)
    try:
        if args.command == "serve":
            serve(args.port)
            return 0
        if args.command == "build":
            build_all()
            return 0
        return test(args.only or [])
    except StepFailed as exc:
        print(f"build.py: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("build.py: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
