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
import dataclasses
import functools
import hashlib
import http.server
import importlib.util
import inspect
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
import xml.etree.ElementTree as ET
import zipfile
import zlib
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
    ".webmanifest": "application/manifest+json",
    ".png": "image/png",
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
    """Install the pinned npm packages from package-lock.json with `npm ci`: pyodide, and
    lighthouse and axe-core for the tests (devDependencies)."""
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


def precompiled(step: str, source: Path, name: str, *, least: float,
                bytecode_only: bool = False) -> Path:
    """``source`` (a zip of Python modules) with bytecode beside every module (see
    tools/precompile.mjs), or instead of it (``bytecode_only``), made once per source and
    kept in build/runtime-cache as ``name``-<hash>.zip; ``least`` is the share of modules
    that must compile.
    """
    mode = "-bytecode" if bytecode_only else ""  # a cached copy of the other kind is not it
    target = RUNTIME_CACHE / f"{name}-{sha256_of(source)[:16]}{mode}.zip"
    if target.exists():
        return target
    RUNTIME_CACHE.mkdir(parents=True, exist_ok=True)
    for old in RUNTIME_CACHE.glob(f"{name}-*.zip"):
        old.unlink()  # keep only the newest
    partial = target.with_suffix(".partial")
    summary = node_summary(step, [ROOT / "tools" / "precompile.mjs", source, partial,
                                  *(["--bytecode-only"] if bytecode_only else [])])
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
    modules gridforge imports already imported (read from ``wheel``'s sources); made once per
    runtime and module list (not per wheel: most changes to gridforge leave it as it is) and
    kept in build/runtime-cache.
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
    # The message catalogues (one per language) live in the package, shared with Python;
    # the shell reads the same files from catalogue/ (docs/languages.md).
    shutil.copytree(ROOT / "pkg" / "gridforge" / "catalogue", SITE / "catalogue")
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
    # The page imports gridforge straight from this zip (zipimport, nothing unpacked), its
    # modules as bytecode alone (about 30% less to download than with the sources); build/dist
    # keeps the plain wheel, sources included, for pip and the tests.
    shipped = wheels_dir / wheel.name
    sources = without_mainline(wheel)
    shutil.copy2(precompiled("precompile the gridforge wheel", sources, "gridforge-wheel",
                             least=1.0, bytecode_only=True), shipped)
    wheel = shipped
    pyodide_version = json.loads((pyodide_pkg / "package.json").read_text())["version"]
    manifest = {
        "wheel": f"wheels/{wheel.name}",
        "wheel_sha256": sha256_of(wheel),
        "wheel_bytes": wheel.stat().st_size,
        "pyodide": pyodide_version,
    }
    shutil.copy2(start_snapshot(runtime, sources), runtime / SNAPSHOT_NAME)
    manifest["snapshot"] = f"pyodide/{SNAPSHOT_NAME}"
    (SITE / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True))
    blocks = lay_out_levels(LEVEL_DATA, SITE / "levels", mainline_size())
    make_icons(SITE)
    check_app_manifest(SITE)
    version = write_offline_manifest(SITE)
    say(f"site laid out in {SITE.relative_to(ROOT)} (wheel {wheel.name}, "
        f"{wheel.stat().st_size / 1024:.1f} KiB; pyodide {pyodide_version}; "
        f"{len(blocks)} level blocks; build {version})")


# ---------------------------------------------------------------------------- the app's icons

# The web app manifest (web/app.webmanifest) names these; build.py renders them from the one
# source, web/icons/icon.svg. "any" icons keep the rounded plate (transparent corners);
# maskable ones have a full-bleed plate and the motif scaled into the safe zone (the circle
# of radius 40% of the size around the centre, which every launcher's mask keeps);
# apple-touch-icon (iOS ignores the manifest's icons and rounds the corners itself) has a
# full-bleed plate and the motif at full size.
ICON_SOURCE = Path("icons") / "icon.svg"
ICONS = (
    ("icons/icon-192.png", 192, "any"),
    ("icons/icon-512.png", 512, "any"),
    ("icons/icon-maskable-192.png", 192, "maskable"),
    ("icons/icon-maskable-512.png", 512, "maskable"),
    ("icons/apple-touch-icon.png", 180, "bleed"),
)
MASKABLE_SAFE_RADIUS = 0.4   # of the icon's size, around its centre (the W3C's safe zone)
MASKABLE_MOTIF_SCALE = 0.76  # the motif's corners then lie at 0.387 of the size
_SVG = "{http://www.w3.org/2000/svg}"


@dataclasses.dataclass(frozen=True)
class Shape:
    """One flat shape of the icon, in the SVG's units: a rect (rounded, filled and/or
    stroked), a circle or a polyline stroked with round caps and joins."""

    kind: str
    fill: tuple[int, int, int] | None
    stroke: tuple[int, int, int] | None
    width: float  # stroke width
    params: tuple[float, ...]  # rect: x, y, w, h, rx; circle: cx, cy, r; polyline: x0, y0, ...

    def scaled(self, scale: float, centre: float) -> Shape:
        """This shape scaled by ``scale`` about (centre, centre)."""
        def at(v: float) -> float:
            return centre + scale * (v - centre)
        p = self.params
        if self.kind == "rect":
            params: tuple[float, ...] = (at(p[0]), at(p[1]), p[2] * scale, p[3] * scale,
                                         p[4] * scale)
        elif self.kind == "circle":
            params = (at(p[0]), at(p[1]), p[2] * scale)
        else:
            params = tuple(at(v) for v in p)
        return dataclasses.replace(self, width=self.width * scale, params=params)


def _colour(value: str | None, where: str) -> tuple[int, int, int] | None:
    if value in (None, "none"):
        return None
    assert value is not None
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        raise StepFailed(f"step 'render the icons' failed: {where}: colour {value!r} is not "
                         "#rrggbb")
    return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)


def read_icon(svg: Path) -> tuple[float, Shape, list[Shape]]:
    """The icon's source: its size (a square viewBox from 0), its plate (the rect with
    id="plate") and the motif's shapes (the group id="motif"), in drawing order. Anything
    this renderer cannot draw fails the build, naming the element."""
    step = "step 'render the icons' failed"
    try:
        root = ET.fromstring(svg.read_text(encoding="utf-8"))
    except (OSError, ET.ParseError) as exc:
        raise StepFailed(f"{step}: {svg.name}: {exc}") from None
    box = [float(v) for v in (root.get("viewBox") or "").split()]
    if len(box) != 4 or box[:2] != [0, 0] or box[2] != box[3] or box[2] <= 0:
        raise StepFailed(f"{step}: {svg.name}: viewBox must be a square from 0 0")

    def shape(node: ET.Element) -> Shape:
        tag = node.tag.removeprefix(_SVG)
        where = f"{svg.name}: <{tag}>"

        def num(name: str, default: float | None = None) -> float:
            value = node.get(name)
            if value is None and default is not None:
                return default
            try:
                number = float(value or "")
            except ValueError:
                raise StepFailed(f"{step}: {where}: {name}={value!r} is not a number") from None
            if not math.isfinite(number):
                raise StepFailed(f"{step}: {where}: {name}={value!r} is not finite")
            return number

        fill = _colour(node.get("fill", "#000000"), where)
        stroke = _colour(node.get("stroke"), where)
        width = num("stroke-width", 1.0) if stroke else 0.0
        if tag == "rect":
            return Shape("rect", fill, stroke, width, (num("x", 0), num("y", 0), num("width"),
                                                       num("height"), num("rx", 0)))
        if tag == "circle":
            return Shape("circle", fill, stroke, width, (num("cx"), num("cy"), num("r")))
        if tag == "polyline":
            values = [float(v) for v in re.split(r"[\s,]+", (node.get("points") or "").strip())
                      if v]
            if fill is not None or stroke is None or len(values) < 4 or len(values) % 2:
                raise StepFailed(f"{step}: {where}: a polyline needs fill=\"none\", a stroke "
                                 "and at least two points")
            if node.get("stroke-linecap") != "round" or node.get("stroke-linejoin") != "round":
                raise StepFailed(f"{step}: {where}: a polyline is drawn with round caps and "
                                 "joins only")
            return Shape("polyline", None, stroke, width, tuple(values))
        raise StepFailed(f"{step}: {where}: only rect, circle and polyline are drawn")

    plate = root.find(f"{_SVG}rect[@id='plate']")
    motif = root.find(f"{_SVG}g[@id='motif']")
    if plate is None or motif is None:
        raise StepFailed(f"{step}: {svg.name}: needs <rect id=\"plate\"> and <g id=\"motif\">")
    return box[2], shape(plate), [shape(node) for node in motif]


def _distance(shape: Shape, x: float, y: float) -> float:
    """Signed distance from (x, y) to the shape's filled outline (negative inside)."""
    p = shape.params
    if shape.kind == "rect":
        hx, hy, r = p[2] / 2, p[3] / 2, min(p[4], p[2] / 2, p[3] / 2)
        qx = abs(x - p[0] - hx) - hx + r
        qy = abs(y - p[1] - hy) - hy + r
        return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - r
    if shape.kind == "circle":
        return math.hypot(x - p[0], y - p[1]) - p[2]
    best = math.inf  # a polyline: the nearest of its segments
    for i in range(0, len(p) - 2, 2):
        ax, ay, bx, by = p[i], p[i + 1], p[i + 2], p[i + 3]
        dx, dy = bx - ax, by - ay
        length = dx * dx + dy * dy
        t = 0.0 if length == 0 else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / length))
        best = min(best, math.hypot(x - ax - t * dx, y - ay - t * dy))
    return best


def _extent(shape: Shape) -> tuple[float, float, float, float]:
    """The shape's bounding box with its stroke: x0, y0, x1, y1."""
    p = shape.params
    pad = shape.width / 2
    if shape.kind == "rect":
        return p[0] - pad, p[1] - pad, p[0] + p[2] + pad, p[1] + p[3] + pad
    if shape.kind == "circle":
        return p[0] - p[2] - pad, p[1] - p[2] - pad, p[0] + p[2] + pad, p[1] + p[2] + pad
    return min(p[0::2]) - pad, min(p[1::2]) - pad, max(p[0::2]) + pad, max(p[1::2]) + pad


def render_icon(size: int, units: float, shapes: list[Shape]) -> bytes:
    """RGBA pixels (size x size, rows top to bottom) of ``shapes`` drawn in order, each pixel
    covered by how far its centre lies inside the outline (a one-pixel anti-aliased edge)."""
    scale = size / units  # pixels per unit
    n = size * size
    premultiplied = [[0.0] * n for _ in range(4)]
    r_, g_, b_, a_ = premultiplied
    for shape in shapes:
        x0, y0, x1, y1 = _extent(shape)
        cols = range(max(0, int(x0 * scale) - 1), min(size, int(x1 * scale) + 2))
        rows = range(max(0, int(y0 * scale) - 1), min(size, int(y1 * scale) + 2))
        for colour, stroked in ((shape.fill, False), (shape.stroke, True)):
            if colour is None:
                continue
            red, green, blue = (c / 255 for c in colour)
            half = shape.width / 2
            for py in rows:
                y = (py + 0.5) / scale
                base = py * size
                for px in cols:
                    d = _distance(shape, (px + 0.5) / scale, y)
                    if stroked:
                        d = d - half if shape.kind == "polyline" else abs(d) - half
                    cover = 0.5 - d * scale
                    if cover <= 0.0:
                        continue
                    if cover > 1.0:
                        cover = 1.0
                    i = base + px
                    keep = 1.0 - cover
                    r_[i] = red * cover + r_[i] * keep
                    g_[i] = green * cover + g_[i] * keep
                    b_[i] = blue * cover + b_[i] * keep
                    a_[i] = cover + a_[i] * keep
    out = bytearray(4 * n)
    for i in range(n):
        alpha = a_[i]
        if alpha > 0:
            out[4 * i] = round(min(1.0, r_[i] / alpha) * 255)
            out[4 * i + 1] = round(min(1.0, g_[i] / alpha) * 255)
            out[4 * i + 2] = round(min(1.0, b_[i] / alpha) * 255)
            out[4 * i + 3] = round(alpha * 255)
    return bytes(out)


def png_bytes(size: int, rgba: bytes) -> bytes:
    """A PNG file (8-bit RGBA, no filter, zlib level 9) of square ``rgba`` pixels."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (len(data).to_bytes(4, "big") + kind + data
                + zlib.crc32(kind + data).to_bytes(4, "big"))

    stride = 4 * size
    raw = b"".join(b"\x00" + rgba[y * stride:(y + 1) * stride] for y in range(size))
    header = size.to_bytes(4, "big") * 2 + bytes([8, 6, 0, 0, 0])
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG file's header; ValueError if it is not a PNG."""
    head = path.read_bytes()[:24]
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        raise ValueError("not a PNG file")
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def icon_shapes(kind: str, units: float, plate: Shape, motif: list[Shape]) -> list[Shape]:
    """What an icon of ``kind`` draws: "any" the plate as drawn and the motif; "maskable" a
    full-bleed plate and the motif scaled into the safe zone; "bleed" a full-bleed plate."""
    if kind == "any":
        return [plate, *motif]
    bleed = dataclasses.replace(plate, stroke=None, width=0.0, params=(0, 0, units, units, 0))
    if kind == "maskable":
        return [bleed, *(s.scaled(MASKABLE_MOTIF_SCALE, units / 2) for s in motif)]
    return [bleed, *motif]


def make_icons(site: Path) -> list[str]:
    """Render every icon of ICONS from the site's icons/icon.svg into the site (kept in
    build/runtime-cache by the source's hash, so an unchanged icon is not drawn again);
    return their paths."""
    source = site / ICON_SOURCE
    if not source.is_file():
        raise StepFailed(f"step 'render the icons' failed: web/{ICON_SOURCE.as_posix()} is "
                         "missing")
    units, plate, motif = read_icon(source)
    renderer = inspect.getsource(render_icon) + inspect.getsource(icon_shapes)
    key = hashlib.sha256((source.read_text(encoding="utf-8") + renderer + repr(ICONS)
                          + repr(MASKABLE_MOTIF_SCALE)).encode()).hexdigest()[:16]
    cache = RUNTIME_CACHE / f"icons-{key}"
    if not cache.is_dir():
        say(f"render the icons from web/{ICON_SOURCE.as_posix()}")
        RUNTIME_CACHE.mkdir(parents=True, exist_ok=True)
        for old in RUNTIME_CACHE.glob("icons-*"):
            shutil.rmtree(old)  # keep only the newest
        partial = RUNTIME_CACHE / "partial-icons"
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir()
        for name, size, kind in ICONS:
            pixels = render_icon(size, units, icon_shapes(kind, units, plate, motif))
            (partial / Path(name).name).write_bytes(png_bytes(size, pixels))
        partial.replace(cache)
    for name, _size, _kind in ICONS:
        shutil.copy2(cache / Path(name).name, site / name)
    return [name for name, _size, _kind in ICONS]


APP_MANIFEST = "app.webmanifest"  # the web app manifest (manifest.json is the wheel's)
_HEX_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


def app_manifest_issues(site: Path) -> list[str]:
    """Every problem of the site's web app manifest, each as "field: what is wrong" (empty
    when it is valid): the fields an installable app needs, relative start_url and scope
    (so the app works under any sub-path) with the start URL inside the scope, and each
    icon present in the site as a PNG of its stated size, among them "any" icons of 192
    and 512 px and a maskable one."""
    try:
        manifest = json.loads((site / APP_MANIFEST).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return [f"{APP_MANIFEST}: {exc}"]
    if not isinstance(manifest, dict):
        return ["(top): must be an object"]
    issues: list[str] = []
    for key in ("name", "short_name", "description"):
        if not isinstance(manifest.get(key), str) or not manifest[key].strip():
            issues.append(f"{key}: must be a non-empty string")
    if isinstance(manifest.get("short_name"), str) and len(manifest["short_name"]) > 12:
        issues.append("short_name: at most 12 characters (a launcher cuts longer ones)")
    if manifest.get("display") not in ("standalone", "fullscreen"):
        issues.append('display: must be "standalone" or "fullscreen"')
    for key in ("theme_color", "background_color"):
        if not isinstance(manifest.get(key), str) or not _HEX_COLOUR.fullmatch(manifest[key]):
            issues.append(f"{key}: must be a #rrggbb colour")
    # Resolved as the browser does, against the manifest's own URL on some sub-path.
    here = "https://host.invalid/some/path/" + APP_MANIFEST
    urls: dict[str, str] = {}
    for key in ("start_url", "scope"):
        value = manifest.get(key)
        if (not isinstance(value, str) or value.startswith("/")
                or urllib.parse.urlsplit(value).scheme or urllib.parse.urlsplit(value).netloc):
            issues.append(f"{key}: must be a relative URL (the site may live under any path)")
        else:
            urls[key] = urllib.parse.urljoin(here, value)
    if len(urls) == 2 and not urls["start_url"].startswith(urls["scope"]):
        issues.append("start_url: must lie inside scope")
    icons = manifest.get("icons")
    if not isinstance(icons, list) or not icons:
        return [*issues, "icons: must be a non-empty list"]
    found: set[tuple[str, int]] = set()
    for i, icon in enumerate(icons):
        where = f"icons[{i}]"
        if not isinstance(icon, dict) or not isinstance(icon.get("src"), str):
            issues.append(f"{where}.src: must be a path in the site")
            continue
        src = icon["src"]
        path = site / src
        if urllib.parse.urlsplit(src).scheme or src.startswith("/") or not path.is_file():
            issues.append(f"{where}.src: {src!r} is not a file of the site")
            continue
        if icon.get("type") != "image/png":
            issues.append(f'{where}.type: must be "image/png"')
            continue
        try:
            width, height = png_size(path)
        except ValueError as exc:
            issues.append(f"{where}.src: {src}: {exc}")
            continue
        if icon.get("sizes") != f"{width}x{height}":
            issues.append(f"{where}.sizes: {icon.get('sizes')!r}, but {src} is "
                          f"{width}x{height}")
            continue
        for purpose in str(icon.get("purpose", "any")).split():
            found.add((purpose, width))
    for purpose, size in (("any", 192), ("any", 512), ("maskable", 512)):
        if (purpose, size) not in found:
            issues.append(f"icons: no {purpose} icon of {size}x{size}")
    return issues


def check_app_manifest(site: Path) -> None:
    """Fail the build, naming every problem, when the web app manifest is not valid."""
    issues = app_manifest_issues(site)
    if issues:
        raise StepFailed(f"step 'check the web app manifest' failed: {APP_MANIFEST}: "
                         + "; ".join(issues))


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
        # Written beside and renamed: a browser checking sw.js mid-deploy gets the old
        # file or the new one, never half of one.
        staged = sw.with_name("sw.js.tmp")
        staged.write_text(source.replace(
            SW_PLACEHOLDER, f"const BUILD = {json.dumps(build_info, sort_keys=True)};"),
            encoding="utf-8")
        os.replace(staged, sw)
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


class SuiteBeside:
    """A suite run in a process of its own beside the others (on a second core), its output
    kept in a log that is printed whole when it ends, so that it never interleaves."""

    def __init__(self, name: str, cmd: list[str | Path], env: dict) -> None:
        self.name = name
        self.log = BUILD / f"{name}-suite.log"
        self.log.parent.mkdir(parents=True, exist_ok=True)
        say(f"--- {name} (beside the others; output when it ends): "
            f"{' '.join(str(c) for c in cmd)}")
        self.started = time.monotonic()
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen([str(c) for c in cmd], cwd=ROOT, env=env,
                                         stdout=out, stderr=subprocess.STDOUT)

    def finish(self) -> bool:
        code = self.proc.wait()
        say(f"--- {self.name}: its output")
        sys.stdout.write(self.log.read_text(encoding="utf-8", errors="replace"))
        say(f"--- {self.name}: exit code {code} after {time.monotonic() - self.started:.1f} s")
        return code == 0


def test(only: list[str]) -> int:
    """Set up what the chosen suites need (all suites when ``only`` is empty), run them."""
    chosen = [name for name in SUITES if not only or name in only]
    full = "pyodide" in chosen or "e2e" in chosen  # the site is built: every part is there
    if "e2e" in chosen or (full and "pytest" in chosen):
        ensure_chromium()  # the e2e tests, and pytest's Lighthouse run on the built site
    if full:
        build_all()
    else:
        ensure_venv()  # ruff, mypy and pytest run on the sources
    if "pyodide" in chosen:
        download_wheels("download the Pyodide test wheels", PYODIDE_TEST_WHEELS, WHEELHOUSE,
                        python_version="3.14")
    py = venv_python()
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    if full:
        env["GRIDFORGE_FULL_SUITE"] = "1"  # everything is installed: a missing part fails
    suites = {
        "ruff": [py, "-m", "ruff", "check", "."],
        "mypy": [py, "-m", "mypy", "--strict", "pkg/gridforge"],
        # --durations: the slowest tests in every log, where the suite's time goes.
        "pytest": [py, "-m", "pytest", "-q", "--durations=15", "tests"],
        "pyodide": ["node", ROOT / "tools" / "pyodide_run.mjs", "test"],
        # Two browsers at once, a test module each (its served site and browser stay shared
        # within the module).
        "e2e": [py, "-m", "pytest", "-q", "--durations=25", "-n", "2", "--dist", "loadfile",
                "e2e"],
    }
    # The Pyodide run shares nothing with the CPython suites and takes about as long as
    # pytest: it starts first and runs beside ruff, mypy and pytest; its turn in SUITES
    # (after pytest, before the browser tests) is where it is waited for.
    beside = SuiteBeside("pyodide", suites["pyodide"], env) if (
        "pyodide" in chosen and len(chosen) > 1) else None
    failed = [name for name in chosen if not (
        beside.finish() if name == "pyodide" and beside is not None
        else run_suite(name, suites[name], env))]
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
