"""Named build steps: a failure names its step and its cause (StepFailed), commands run
as steps, and the hashes the build keys its caches and manifests by."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from buildsys.paths import ROOT

# A command line: its words, paths among them.
Command = Sequence[str | os.PathLike[str]]


class StepFailed(Exception):
    """A build or set-up step failed; the message names the step and its cause."""


def say(message: str) -> None:
    """Print a line of the build's progress, marked as the build's."""
    print(f"[build] {message}", flush=True)


def run_step(step: str, cmd: Command, *, cwd: Path = ROOT, env: Mapping[str, str] | None = None,
             capture: bool = True) -> subprocess.CompletedProcess[str]:
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


def fingerprint(*paths: Path) -> str:
    """The SHA-256 of the files' bytes one after another (a set-up step's input)."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def sha256_of(path: Path) -> str:
    """The SHA-256 of one file, in hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def node_summary(step: str, cmd: Command) -> dict[str, int]:
    """Run a node tool that ends its output with one JSON line; return that line."""
    result = run_step(step, ["node", *cmd])
    try:
        summary: dict[str, int] = json.loads(result.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise StepFailed(f"step '{step}' failed: no summary in its output: "
                         f"{result.stdout[-500:]!r}") from None
    return summary

