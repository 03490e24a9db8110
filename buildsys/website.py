"""The site's build: the gridforge wheel, the Pyodide runtime precompiled to bytecode with
its start-up snapshot, micropip, the shell from web/, the level blocks, the icons, the
checked web app manifest and the service worker's list of files, laid out in build/site."""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import shutil
import sys
import zipfile
from pathlib import Path

from buildsys.icons import make_icons
from buildsys.install import download_wheels, ensure_npm, ensure_venv
from buildsys.levels import BLOCK_NAME, lay_out_levels, mainline_size
from buildsys.manifest import check_app_manifest
from buildsys.offline import write_offline_manifest
from buildsys.paths import BUILD, DIST, LEVEL_DATA, ROOT, RUNTIME_CACHE, SITE, venv_python
from buildsys.steps import StepFailed, fingerprint, node_summary, run_step, say, sha256_of

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
    # The bridge's type declarations (web/types/*.d.ts) are for tsc only, not served.
    shutil.copytree(ROOT / "web", SITE, ignore=shutil.ignore_patterns("*.d.ts"))
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


def build_all() -> Path:
    """Set up the venv and npm packages, build the wheel and lay out the site; the wheel."""
    ensure_venv()
    ensure_npm()
    wheel = build_wheel()
    lay_out_site(wheel)
    return wheel

