"""No function of the page's JavaScript (web/) over cyclomatic complexity 15, as ruff's C901
holds Python's (issue 53). ESLint, pinned in package.json, counts it with its ``complexity``
rule (eslint.config.mjs: that rule only, no inline switches); the test reads its JSON report,
and first checks on a snippet that the rule counts at all, so that it cannot pass a web/ it
failed to read."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.cpython_only  # runs Node.js on the source tree

ROOT = Path(__file__).resolve().parent.parent
ESLINT = ROOT / "node_modules" / "eslint" / "bin" / "eslint.js"
MAX_COMPLEXITY = 15
needs_eslint = pytest.mark.requires(ESLINT.exists(), "ESLint (npm ci)")


def over_the_cap(*, files: list[str] | None = None, stdin: str | None = None) -> list[str]:
    """``path:line message`` for each function ESLint finds over the cap."""
    cmd = ["node", str(ESLINT), "--format", "json", "--max-warnings", "0"]
    cmd += ["--stdin", "--stdin-filename", "web/snippet.js"] if stdin is not None else files or []
    done = subprocess.run(cmd, cwd=ROOT, input=stdin, capture_output=True, text=True,
                          check=False)
    assert done.returncode in (0, 1), done.stderr  # 2: ESLint itself failed
    found = []
    for report in json.loads(done.stdout):
        for message in report["messages"]:
            assert message.get("ruleId") == "complexity", message  # a parse error fails here
            found.append(f"{Path(report['filePath']).relative_to(ROOT)}:{message['line']} "
                         f"{message['message']}")
    return found


@needs_eslint
def test_the_counter_counts_branches() -> None:
    # A function's own path counts one: 14 branches more make 15, at the cap.
    branches = "\n".join(f"  if (x === {i}) return {i};" for i in range(MAX_COMPLEXITY - 1))
    at_cap = f"export function f(x) {{\n{branches}\n  return -1;\n}}\n"
    assert over_the_cap(stdin=at_cap) == []
    over = at_cap.replace("return -1;", "return x && -1;")
    assert len(over_the_cap(stdin=over)) == 1


@needs_eslint
def test_no_javascript_function_of_web_is_over_complexity_15() -> None:
    assert over_the_cap(files=["web"]) == []
