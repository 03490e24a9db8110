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
import ast
import functools
import hashlib
import http.server
import importlib.util
import io
import json
import math
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import zipfile
from http import HTTPStatus
from pathlib import Path
from typing import Any, BinaryIO, ClassVar

ROOT = Path(__file__).resolve().parent
BUILD = ROOT / "build"
SITE = BUILD / "site"
DIST = BUILD / "dist"
WHEELHOUSE = BUILD / "wheelhouse"  # pure-Python wheels for the Pyodide test run
VENV = ROOT / ".venv"
LEVEL_DATA = ROOT / "pkg" / "gridforge" / "snakes" / "data"  # main-line blocks
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
    """Create .venv and install the project with its test extras and the cluster extra (the
    determinism test builds a block on a real Dask cluster); again when they change."""
    stamp = VENV / ".gridforge-installed"
    wanted = fingerprint(ROOT / "pyproject.toml")
    if not venv_python().exists():
        run_step("create virtual environment", [sys.executable, "-m", "venv", VENV])
    if stamp.exists() and stamp.read_text() == wanted:
        return
    pip = [venv_python(), "-m", "pip", "--disable-pip-version-check"]
    run_step("pip install the project and its test and cluster extras",
             [*pip, "install", "--quiet", "-e", f"{ROOT}[test,cluster]"])
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


RUNTIME_CACHE = BUILD / "runtime-cache"  # what node made once per input, by its hash


def node_summary(step: str, cmd: list[str | Path]) -> dict[str, int]:
    """Run a node tool that ends its output with one JSON line; return that line."""
    result = run_step(step, ["node", *cmd])
    try:
        summary: dict[str, int] = json.loads(result.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise StepFailed(f"step '{step}' failed: no summary in its output: "
                         f"{result.stdout[-500:]!r}") from None
    return summary


def precompiled(step: str, source: Path, name: str, *, least: float) -> Path:
    """``source`` (a zip of Python modules) with bytecode beside every module (see
    tools/precompile.mjs), made once per source and kept in build/runtime-cache as
    ``name``-<hash>.zip; ``least`` is the share of modules that must compile.
    """
    target = RUNTIME_CACHE / f"{name}-{sha256_of(source)[:16]}.zip"
    if target.exists():
        return target
    RUNTIME_CACHE.mkdir(parents=True, exist_ok=True)
    for old in RUNTIME_CACHE.glob(f"{name}-*.zip"):
        old.unlink()  # keep only the newest
    partial = target.with_suffix(".partial")
    summary = node_summary(step, [ROOT / "tools" / "precompile.mjs", source, partial])
    if summary["compiled"] < least * summary["modules"]:
        raise StepFailed(f"step '{step}' failed: only {summary['compiled']} of "
                         f"{summary['modules']} modules compiled")
    partial.replace(target)
    say(f"{step}: {summary['compiled']} of {summary['modules']} modules, "
        f"{summary['bytes'] / 1024:.0f} KiB")
    return target


def is_mainline_member(name: str) -> bool:
    """Whether a wheel member is one of the main line's block files or its progress.json:
    served beside the wheel (levels/), fetched a block at a time by the page; only pip's
    wheel carries them (for `gridforge mainline`)."""
    folder, _, file = name.rpartition("/")
    return folder == "gridforge/snakes/data" and (
        file == "progress.json" or BLOCK_NAME.fullmatch(file) is not None)


def without_mainline(wheel: Path) -> Path:
    """A copy of ``wheel`` without the main line's files (the site's wheel), entries and
    their dates as they were, so the same wheel gives the same bytes; RECORD keeps no line
    for a dropped file."""
    target = BUILD / "site-wheel" / wheel.name
    target.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(wheel) as source, zipfile.ZipFile(target, "w") as out:
        for info in source.infolist():
            if is_mainline_member(info.filename):
                continue
            data = source.read(info)
            if info.filename.endswith(".dist-info/RECORD"):
                lines = data.decode("utf-8").splitlines(keepends=True)
                data = "".join(x for x in lines
                               if not is_mainline_member(x.split(",")[0])).encode()
            out.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)
    return target


SNAPSHOT_NAME = "snapshot.bin.gz"


def stdlib_imports(wheel: Path) -> list[str]:
    """The standard-library modules that the wheel's code imports anywhere (at the top of a
    module or inside a function), from its sources; for ``from a import b`` both ``a`` and
    ``a.b`` (b may be a submodule)."""
    names: set[str] = set()
    with zipfile.ZipFile(wheel) as archive:
        for member in archive.namelist():
            if not member.endswith(".py"):
                continue
            for node in ast.walk(ast.parse(archive.read(member), member)):
                if isinstance(node, ast.Import):
                    names.update(alias.name for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names.add(node.module)
                    names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return sorted(name for name in names
                  if name.partition(".")[0] in sys.stdlib_module_names
                  and name.partition(".")[0] != "__future__" and is_module(name))


def is_module(name: str) -> bool:
    """Whether ``name`` is a module here (``typing.Any`` is not): the snapshot's list then
    changes only when gridforge starts or stops using a module."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def start_snapshot(runtime: Path, wheel: Path) -> Path:
    """The runtime's start-up snapshot (see tools/make_snapshot.mjs) with the standard-library
    modules gridforge imports already imported; made once per runtime and module list (not
    per wheel: most changes to gridforge leave it as it is) and kept in build/runtime-cache.
    """
    modules = stdlib_imports(wheel)
    digest = hashlib.sha256(fingerprint(*(runtime / name for name in (
        "pyodide.asm.wasm", "pyodide.asm.mjs", "python_stdlib.zip"))).encode())
    digest.update(" ".join(modules).encode())
    target = RUNTIME_CACHE / f"snapshot-{digest.hexdigest()[:16]}.bin.gz"
    if target.exists():
        return target
    RUNTIME_CACHE.mkdir(parents=True, exist_ok=True)
    for old in RUNTIME_CACHE.glob("snapshot-*.bin.gz"):
        old.unlink()  # keep only the newest
    partial = target.with_suffix(".partial")
    summary = node_summary("make the start-up snapshot",
                           [ROOT / "tools" / "make_snapshot.mjs", runtime, partial, *modules])
    partial.replace(target)
    say(f"start-up snapshot: {summary['modules']} of {len(modules)} modules imported, "
        f"{summary['gzip_bytes'] / 1024 / 1024:.1f} MiB gzipped")
    return target


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
    # Sources only in the npm package: without bytecode, Python would compile every module
    # it imports on every visit, most of the runtime's start-up time.
    shutil.copy2(precompiled("precompile the standard library",
                             pyodide_pkg / "python_stdlib.zip", "python_stdlib", least=0.95),
                 runtime / "python_stdlib.zip")

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

    wheels_dir = SITE / "wheels"
    wheels_dir.mkdir()
    # The page imports gridforge straight from this zip (zipimport, nothing unpacked), with
    # bytecode beside each module; build/dist keeps the plain wheel for pip and the tests.
    shipped = wheels_dir / wheel.name
    shutil.copy2(precompiled("precompile the gridforge wheel", without_mainline(wheel),
                             "gridforge-wheel", least=1.0), shipped)
    wheel = shipped
    pyodide_version = json.loads((pyodide_pkg / "package.json").read_text())["version"]
    manifest = {
        "wheel": f"wheels/{wheel.name}",
        "wheel_sha256": sha256_of(wheel),
        "wheel_bytes": wheel.stat().st_size,
        "pyodide": pyodide_version,
    }
    shutil.copy2(start_snapshot(runtime, wheel), runtime / SNAPSHOT_NAME)
    manifest["snapshot"] = f"pyodide/{SNAPSHOT_NAME}"
    (SITE / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True))
    blocks = lay_out_levels(LEVEL_DATA, SITE / "levels", mainline_size())
    version = write_offline_manifest(SITE)
    say(f"site laid out in {SITE.relative_to(ROOT)} (wheel {wheel.name}, "
        f"{wheel.stat().st_size / 1024:.1f} KiB; pyodide {pyodide_version}; "
        f"{len(blocks)} level blocks; build {version})")


# The builder's block names (gridforge generate-levels): main-NNNN-NNNN.json, levels first..last.
BLOCK_NAME = re.compile(r"main-(\d{4})-(\d{4})\.json")
BATCH_FORMAT = "gridforge.snakes.batch/1"
LEVELS_INDEX_FORMAT = "gridforge.levels-index/1"


def mainline_size() -> int:
    """The number of levels of the main line, as Python defines it
    (``gridforge.snakes.design.mainline.LEVELS``, read from the installed package)."""
    step = "read the main line's size"
    result = run_step(step, [venv_python(), "-c",
                             "from gridforge.snakes.design.mainline import LEVELS; print(LEVELS)"])
    lines = (result.stdout or "").split()
    if not lines or not lines[-1].isdigit() or int(lines[-1]) < 1:
        raise StepFailed(f"step '{step}' failed: expected a number of levels, got {lines[-1:]}")
    return int(lines[-1])


def lay_out_levels(source: Path, dest: Path, size: int) -> list[dict[str, object]]:
    """Copy the main line's level blocks (and progress.json, if any) from ``source`` to
    ``dest`` and write ``dest/index.json``; return the index's blocks.

    The page fetches a block when it needs one, so start-up never parses them; the index
    says which levels each block holds and its SHA-256, and the main line's ``size`` (its
    last level number, Python's: the page checks routes and saved progress against it
    before Python has loaded, and writes no number of its own). Each block is checked here
    (its name, its format, one level per number it covers, none past ``size``, no overlap
    with another block), so a broken data file fails the build, naming the file and the
    field.
    """
    step = "lay out the level blocks"
    dest.mkdir(parents=True, exist_ok=True)
    blocks: list[dict[str, object]] = []
    for path in sorted(source.glob("main-*.json")):
        match = BLOCK_NAME.fullmatch(path.name)
        if not match:
            raise StepFailed(f"step '{step}' failed: {path.name}: not a block name "
                             "(main-NNNN-NNNN.json)")
        first, last = int(match[1]), int(match[2])
        if not 1 <= first <= last:
            raise StepFailed(f"step '{step}' failed: {path.name}: levels {first}..{last}")
        if last > size:
            raise StepFailed(f"step '{step}' failed: {path.name}: levels past the main "
                             f"line's last, {size}")
        try:
            block = json.loads(path.read_bytes().decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise StepFailed(f"step '{step}' failed: {path.name}: not JSON: {exc}") from None
        if not isinstance(block, dict) or block.get("format") != BATCH_FORMAT:
            raise StepFailed(f"step '{step}' failed: {path.name}: format: "
                             f"expected {BATCH_FORMAT!r}")
        levels = block.get("levels")
        if not isinstance(levels, list) or len(levels) != last - first + 1:
            count = len(levels) if isinstance(levels, list) else type(levels).__name__
            raise StepFailed(f"step '{step}' failed: {path.name}: levels: expected "
                             f"{last - first + 1} levels, got {count}")
        if blocks and first <= int(str(blocks[-1]["last"])):
            raise StepFailed(f"step '{step}' failed: {path.name}: overlaps "
                             f"{blocks[-1]['file']}")
        shutil.copy2(path, dest / path.name)
        blocks.append({"file": path.name, "first": first, "last": last,
                       "sha256": sha256_of(path), "bytes": path.stat().st_size})
    index: dict[str, object] = {"format": LEVELS_INDEX_FORMAT, "levels": size, "blocks": blocks}
    progress = source / "progress.json"
    if progress.is_file():
        shutil.copy2(progress, dest / progress.name)
        index["progress"] = {"file": progress.name, "sha256": sha256_of(progress)}
    (dest / "index.json").write_text(json.dumps(index, indent=1, sort_keys=True))
    return blocks


SW_PLACEHOLDER = "const BUILD = null;  // build.py writes this build's version and files here"


# The service worker fills its cache with the whole site but the main line's later blocks:
# those (tens of MiB in all) are cached one by one as the player reaches them.
PRECACHED_LEVELS = 100


def write_offline_manifest(site: Path) -> str:
    """Write the service worker's list of files (every file of the site but sw.js, with
    its SHA-256 and size; main-line blocks past level 100 marked ``lazy``) into sw.js and
    sw-manifest.json; return the build's version.

    The version is a hash of that list, so any change to any file names a new cache; and
    because it is written into sw.js itself, the browser sees a new service worker on
    every new build (an unchanged sw.js would never be re-installed).
    """
    sw = site / "sw.js"
    files: list[dict[str, object]] = []
    for path in sorted(site.rglob("*")):
        if path.is_file() and path != sw and path.name != "sw-manifest.json":
            entry: dict[str, object] = {"path": path.relative_to(site).as_posix(),
                                        "sha256": sha256_of(path),
                                        "bytes": path.stat().st_size}
            block = BLOCK_NAME.fullmatch(path.name) if path.parent.name == "levels" else None
            if block and int(block[1]) > PRECACHED_LEVELS:
                entry["lazy"] = True  # cached when first fetched, not at install
            files.append(entry)
    listing = "".join(f"{f['path']} {f['sha256']}\n" for f in files)
    version = hashlib.sha256(listing.encode("utf-8")).hexdigest()[:16]
    build_info = {"version": version, "files": files}
    (site / "sw-manifest.json").write_text(json.dumps(build_info, indent=1, sort_keys=True))
    if sw.exists():
        source = sw.read_text(encoding="utf-8")
        if source.count(SW_PLACEHOLDER) != 1:
            raise StepFailed("step 'write the offline manifest' failed: web/sw.js must hold "
                             f"the line {SW_PLACEHOLDER!r} once")
        sw.write_text(source.replace(
            SW_PLACEHOLDER, f"const BUILD = {json.dumps(build_info, sort_keys=True)};"),
            encoding="utf-8")
    return version


def build_all() -> Path:
    ensure_venv()
    ensure_npm()
    wheel = build_wheel()
    lay_out_site(wheel)
    return wheel


# ---------------------------------------------------------------------------- serving

class BadPath(ValueError):
    """A request path that names no file of any site: answered 400 with this reason."""


_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")


def site_path_parts(path: str) -> list[str]:
    """The segments of a request's URL path, decoded; BadPath when it is malformed.

    Refused: a path that does not start with ``/``, a ``%`` not followed by two hex digits,
    bytes that are not UTF-8, control characters (NUL included), backslashes, and the dot
    segments ``.`` and ``..`` (a browser removes them before sending; anything else that
    sends them is probing).
    """
    if not path.startswith("/"):
        raise BadPath("the path must start with /")
    if _PERCENT.search(path):
        raise BadPath("bad percent-encoding")
    try:
        text = urllib.parse.unquote_to_bytes(path).decode("utf-8")
    except UnicodeDecodeError:
        raise BadPath("the path is not UTF-8") from None
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in text):
        raise BadPath("control character in the path")
    if "\\" in text:
        raise BadPath("backslash in the path")
    segments = text.split("/")[1:]
    if any(segment in (".", "..") for segment in segments):
        raise BadPath("dot segment in the path")
    return [segment for segment in segments if segment]


class _Deadline:
    """The deadline of the request a connection is on: every read and write of the
    connection waits at most until then (a per-request limit, not a per-read one)."""

    def __init__(self, sock: socket.socket, seconds: float) -> None:
        self.sock = sock
        self.seconds = seconds
        self.at = time.monotonic() + seconds

    def restart(self) -> None:
        """A new request begins (the first, or the next one on a kept-alive connection)."""
        self.at = time.monotonic() + self.seconds

    def arm(self) -> None:
        """Let the next socket call wait only for what is left; TimeoutError when nothing is."""
        left = self.at - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request deadline passed")
        self.sock.settimeout(left)


class _DeadlineReader(io.RawIOBase):
    """The reading side of a connection under its request's deadline."""

    def __init__(self, deadline: _Deadline) -> None:
        self.deadline = deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        self.deadline.arm()
        return self.deadline.sock.recv_into(buffer)


class _DeadlineWriter(io.BufferedIOBase):
    """The writing side of a connection under its request's deadline (unbuffered)."""

    def __init__(self, deadline: _Deadline) -> None:
        self.deadline = deadline

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        self.deadline.arm()
        self.deadline.sock.sendall(data)
        with memoryview(data) as view:
            return view.nbytes


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files of one folder, with the right MIME types and, unless the server is a
    plain host, cross-origin isolation headers.

    Only regular files inside the folder are served: a folder answers its index.html (a
    redirect adds the trailing slash) or 404, never a listing; a path that goes on past a
    file (``/index.html/``) is 404; a symlink whose target lies outside the folder is
    refused (403); a malformed path is answered 400. Each request, from its first byte to
    the last byte of its answer (and the wait for it on a kept-alive connection), must be
    done within the server's ``request_timeout``, however slowly the client trickles it.
    """

    server: SiteServer
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES
    }

    def setup(self) -> None:
        # Reads and writes go through the request's deadline, so a client that sends half a
        # request, trickles it a line at a time, reads the answer slowly or idles on a
        # kept-alive connection is dropped when its request's time is up.
        self.connection = self.request
        self.deadline = _Deadline(self.connection, self.server.request_timeout)
        self.rfile = io.BufferedReader(_DeadlineReader(self.deadline))
        self.wfile = _DeadlineWriter(self.deadline)

    def handle_one_request(self) -> None:
        self.deadline.restart()
        super().handle_one_request()

    def end_headers(self) -> None:
        if self.server.isolation:
            # COOP + COEP make the page cross-origin isolated: SharedArrayBuffer, and so an
            # interrupt buffer that stops long Python work without killing the worker.
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
            self.send_header("Cross-Origin-Resource-Policy", "same-origin")
            self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self) -> BinaryIO | None:
        """Resolve the request to a file inside the site and send its headers."""
        split = urllib.parse.urlsplit(self.path)
        try:
            parts = site_path_parts(split.path)
        except BadPath as exc:
            self.send_error(HTTPStatus.BAD_REQUEST, str(exc))
            return None
        root = Path(self.directory).resolve()
        try:
            # strict: every link followed; a dangling one is a missing file
            real = root.joinpath(*parts).resolve(strict=True)
        except (OSError, RuntimeError):
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        if not real.is_relative_to(root):
            self.send_error(HTTPStatus.FORBIDDEN, "outside the site")
            return None
        if urllib.parse.unquote(split.path).endswith("/") and not real.is_dir():
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")  # nothing below a file
            return None
        if real.is_dir():
            index = real / "index.html"
            if not index.is_file():
                self.send_error(HTTPStatus.NOT_FOUND, "File not found")  # no listings
                return None
            if not split.path.endswith("/"):
                self.send_response(HTTPStatus.MOVED_PERMANENTLY)
                self.send_header("Location", urllib.parse.urlunsplit(
                    (split.scheme, split.netloc, split.path + "/", split.query, "")))
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            real = index.resolve()
            if not real.is_relative_to(root):
                self.send_error(HTTPStatus.FORBIDDEN, "outside the site")
                return None
        if not real.is_file():
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        try:
            f = real.open("rb")
        except OSError:
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        try:
            stat = os.fstat(f.fileno())
            # A validator, so that a revalidation (Cache-Control: no-cache, or the service
            # worker filling its cache right after the first visit) costs a 304, not the
            # file again. A build re-creates every file, so inode and mtime both change.
            etag = f'"{stat.st_ino:x}-{stat.st_size:x}-{stat.st_mtime_ns:x}"'
            if etag in (self.headers.get("If-None-Match") or ""):
                f.close()
                self.send_response(HTTPStatus.NOT_MODIFIED)
                self.send_header("ETag", etag)
                self.end_headers()
                return None
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", self.guess_type(str(real)))
            self.send_header("Content-Length", str(stat.st_size))
            self.send_header("ETag", etag)
            self.end_headers()
        except BaseException:
            f.close()
            raise
        return f

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        """Never list a folder (send_head does not call this; kept as a guard)."""
        self.send_error(HTTPStatus.NOT_FOUND, "File not found")
        return None

    def log_message(self, format: str, *args: object) -> None:
        if self.server.verbose:
            super().log_message(format, *args)


BUSY = (b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
        b"Content-Length: 12\r\nRetry-After: 1\r\nConnection: close\r\n\r\nServer busy\n")


class SiteServer(http.server.ThreadingHTTPServer):
    """The site's server: one thread per connection, at most ``max_connections`` of them,
    bound to the loopback address. A connection beyond that is answered 503 and closed at
    once, without a thread."""

    daemon_threads = True
    verbose = False
    isolation = True
    request_timeout = 10.0
    max_connections = 64

    def __init__(self, address: tuple[str, int], handler: Any, *,
                 max_connections: int = 64) -> None:
        self.max_connections = max_connections
        self.slots = threading.BoundedSemaphore(max_connections)
        super().__init__(address, handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.slots.acquire(blocking=False):
            try:
                request.setblocking(False)  # a fresh socket takes these bytes at once
                request.send(BUSY)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.slots.release()  # no thread was started to release it
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()

    def handle_error(self, request: socket.socket | tuple[bytes, socket.socket],
                     client_address: Any) -> None:
        # A browser closing a connection early is not a server fault; never crash on it.
        exc = sys.exc_info()[1]
        if not isinstance(exc, ConnectionError | TimeoutError):
            super().handle_error(request, client_address)


def make_server(root: Path = SITE, port: int = 8000, *, verbose: bool = False,
                isolation: bool = True, request_timeout: float = 10.0,
                max_connections: int = 64) -> SiteServer:
    """A server for ``root`` on 127.0.0.1 (never another interface); port 0 picks a free
    port (see ``server.server_address``).

    ``isolation=False`` serves as a plain static host would: no COOP/COEP/CORP and no
    Cache-Control header. ``request_timeout`` is the deadline (seconds) of each request,
    from the wait for its first byte to the last byte of its answer: a connection still on
    it then is dropped. ``max_connections`` bounds the connections (threads) served at once.
    """
    if not request_timeout > 0 or not math.isfinite(request_timeout):
        raise ValueError(f"request_timeout must be > 0, got {request_timeout!r}")
    if not isinstance(max_connections, int) or max_connections < 1:
        raise ValueError(f"max_connections must be an integer >= 1, got {max_connections!r}")
    handler = functools.partial(SiteHandler, directory=str(root))
    server = SiteServer(("127.0.0.1", port), handler, max_connections=max_connections)
    server.verbose = verbose
    server.isolation = isolation
    server.request_timeout = request_timeout
    return server


def start_in_thread(server: SiteServer) -> threading.Thread:
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    return thread


def serve(port: int, *, isolation: bool = True) -> None:
    build_all()
    try:
        server = make_server(SITE, port=port, verbose=True, isolation=isolation)
    except OSError as exc:
        raise StepFailed(f"step 'serve' failed: cannot listen on 127.0.0.1:{port}: {exc}") \
            from None
    kind = "" if isolation else " as a plain static host (no COOP/COEP)"
    say(f"serving {SITE.relative_to(ROOT)}{kind} on http://127.0.0.1:{port}/ (Ctrl-C stops)")
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
    """Set up what the chosen suites need (all suites when ``only`` is empty), run them."""
    chosen = [name for name in SUITES if not only or name in only]
    if "e2e" in chosen:
        ensure_chromium()
    if "pyodide" in chosen or "e2e" in chosen:
        build_all()
    else:
        ensure_venv()  # ruff, mypy and pytest run on the sources
    if "pyodide" in chosen:
        download_wheels("download the Pyodide test wheels", PYODIDE_TEST_WHEELS, WHEELHOUSE,
                        python_version="3.14")
    py = venv_python()
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    if "pyodide" in chosen or "e2e" in chosen:
        env["GRIDFORGE_FULL_SUITE"] = "1"  # everything is installed: a missing part fails
    suites = {
        "ruff": [py, "-m", "ruff", "check", "."],
        "mypy": [py, "-m", "mypy", "--strict", "pkg/gridforge"],
        "pytest": [py, "-m", "pytest", "-q", "tests"],
        "pyodide": ["node", ROOT / "tools" / "pyodide_run.mjs", "test"],
        "e2e": [py, "-m", "pytest", "-q", "e2e"],
    }
    failed = [name for name in chosen if not run_suite(name, suites[name], env)]
    if failed:
        say(f"FAILED: {', '.join(failed)}")
        return 1
    say("all suites passed")
    return 0


SUITES = ("ruff", "mypy", "pytest", "pyodide", "e2e")


def port_number(text: str) -> int:
    """argparse type for --port: an integer 1..65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"must be 1..65535, got {port}")
    return port


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    serve_p = sub.add_parser("serve", help="build everything and serve on 127.0.0.1")
    serve_p.add_argument("--port", type=port_number, default=8000)
    serve_p.add_argument("--plain", action="store_true",
                         help="serve as a plain static host: no cross-origin isolation "
                              "headers (cancel then restarts the Python worker)")
    sub.add_parser("build", help="build the wheel and the static site")
    test_p = sub.add_parser("test", help="set up, build and run every test")
    test_p.add_argument("--only", action="append", choices=SUITES,
                        help="run only these suites (repeatable); default: all")
    args = parser.parse_args(argv)
    try:
        if args.command == "serve":
            serve(args.port, isolation=not args.plain)
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
