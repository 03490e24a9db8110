"""Set-up: the virtual environment with the project, Debian's chromium, the pinned npm
packages and pinned pure-Python wheels, each done again only when its input changes."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from buildsys.paths import CHROMIUM, ROOT, VENV, venv_python
from buildsys.steps import Command, StepFailed, fingerprint, run_step


def ensure_venv() -> None:
    """Create .venv and install the project with its test extras and the cluster extra (the
    determinism test builds a block on a real Dask cluster); again when they change."""
    stamp = VENV / ".gridforge-installed"
    wanted = fingerprint(ROOT / "pyproject.toml")
    if not venv_python().exists():
        run_step("create virtual environment", [sys.executable, "-m", "venv", VENV])
    if stamp.exists() and stamp.read_text() == wanted:
        return
    pip: Command = [venv_python(), "-m", "pip", "--disable-pip-version-check"]
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

