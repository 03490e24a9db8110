"""The page's shell (web/): small modules, and one module that names Python's functions.

Every Python function the page calls is named in ``web/contract.js`` alone (the worker,
which boots the runtime, asks ``gridforge.api`` for its version); no file of ``web/`` is
longer than 450 lines; none writes the main line's last level number, which the page reads
from ``levels/index.json`` (issue 19)."""

from __future__ import annotations

import re
from pathlib import Path

from gridforge import api
from gridforge.snakes.game.mainline import LEVELS

WEB = Path(__file__).resolve().parent.parent / "web"
MAX_LINES = 450
# The contract, and the worker that runs Python and reports its version when it is loaded.
NAMERS = {"contract.js", "worker.js"}


def web_files() -> list[Path]:
    return sorted(p for p in WEB.rglob("*") if p.is_file() and "pyodide" not in p.parts
                  and p.suffix in {".js", ".html", ".css"})


def test_no_file_of_web_is_over_450_lines():
    long = {p.relative_to(WEB).as_posix(): n for p in web_files()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_no_file_of_web_writes_the_main_lines_size():
    # The number on its own (not in "CIEDE2000" or ".../2000/svg").
    number = re.compile(rf"(?<![\w./]){LEVELS}(?![\w/])")
    found = [p.relative_to(WEB).as_posix() for p in web_files()
             if number.search(p.read_text(encoding="utf-8"))]
    assert found == []


def test_only_the_contract_module_names_a_python_function():
    names = [entry["name"] for entry in api.functions()]
    assert names and all(name.startswith("gridforge.") for name in names)
    # Full dotted names, and the short names no JavaScript word could be by chance.
    distinct = [name.rsplit(".", 1)[1] for name in names if "_" in name.rsplit(".", 1)[1]]
    literal = re.compile(r"""["'`](?:gridforge\.)?(?:api|mines\.page|snakes\.page)\.""")
    found = {}
    for path in web_files():
        if path.suffix != ".js" or path.name in NAMERS:
            continue
        text = path.read_text(encoding="utf-8")
        hits = [n for n in names if n in text]
        hits += [n for n in distinct if re.search(rf"\b{n}\b", text)]
        hits += literal.findall(text)
        if hits:
            found[path.relative_to(WEB).as_posix()] = hits
    assert found == {}


def test_the_contract_names_only_functions_python_lists():
    text = (WEB / "contract.js").read_text(encoding="utf-8")
    prefixes = dict(re.findall(r'const (\w+) = "(gridforge\.[a-z.]+\.)";', text))
    named = {prefixes[p] + n for p, n in re.findall(r"`\$\{(\w+)\}([a-z_]+)`", text)}
    assert named and named <= {entry["name"] for entry in api.functions()}
