"""The suite ``tsc``: the TypeScript compiler (pinned in package.json) checks the page's
JavaScript with ``checkJs`` against the bridge's types generated from Python
(``web/types/bridge.d.ts``): the page's modules (``tsconfig.json``, the DOM's library) and
the service worker (``tsconfig.sw.json``, the web worker's library: its global scope is not
a window). Run by ``python3 build.py test``; alone: ``.venv/bin/python -m buildsys.typecheck``."""

from __future__ import annotations

import subprocess
import sys

from buildsys.paths import ROOT

TSC = ROOT / "node_modules" / "typescript" / "bin" / "tsc"
CONFIGS = ("tsconfig.json", "tsconfig.sw.json")


def main() -> int:
    """Run tsc on every configuration (each is reported); 0 when all pass."""
    if not TSC.exists():
        print(f"{TSC.relative_to(ROOT)} is missing: run `npm ci` (build.py's set-up does)",
              file=sys.stderr)
        return 1
    failed = []
    for config in CONFIGS:
        code = subprocess.call(["node", str(TSC), "--pretty", "false", "-p", config], cwd=ROOT)
        print(f"tsc -p {config}: {'passed' if code == 0 else f'exit code {code}'}", flush=True)
        if code != 0:
            failed.append(config)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
