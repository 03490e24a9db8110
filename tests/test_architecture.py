"""The package's import architecture, read from the source (AST), function-level imports included.

Imports run one way, as the README states it (checked here against the README's own line):
the shared core (``errors``, ``grid``, ``progress``, ``flags``, ``files``, ``jsontypes``,
``midend``, ``words``, ``i18n``) <- the games (``mines``, ``snakes``) <- ``api`` and ``cli``,
which load the games' page and command modules by name and never import each other. The games
never import each other; no game module reaches up into ``api`` or ``cli``; the snakes game
never reaches into its designer (``snakes.design``) except through its contract and command
layers; and the module graph has no cycle.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import gridforge

PACKAGE_DIR = Path(gridforge.__file__).parent
CORE = ("gridforge", "gridforge.errors", "gridforge.grid", "gridforge.progress",
        "gridforge.flags", "gridforge.files", "gridforge.jsontypes", "gridforge.midend",
        "gridforge.words", "gridforge.i18n")
TOP = ("gridforge.api", "gridforge.cli")  # the two entries: the page's and the command line's
README = Path(__file__).resolve().parent.parent / "README.md"  # the repository's, in Pyodide too
GAMES = ("gridforge.mines", "gridforge.snakes")
DESIGN = "gridforge.snakes.design"
# The snakes modules allowed to import the designer: the page's contract and the CLI verbs.
DESIGN_CALLERS = ("gridforge.snakes.page", "gridforge.snakes.commands")
# The snakes rooms (gridforge/snakes/*/__init__.py say the same) and what each may import
# beside the core: a room never imports a room above it.
SNAKES = "gridforge.snakes"
ROOMS: dict[str, tuple[str, ...]] = {
    "gridforge.snakes.game": (),
    "gridforge.snakes.solver": ("gridforge.snakes.game",),
    "gridforge.snakes.play": ("gridforge.snakes.game", "gridforge.snakes.solver"),
    "gridforge.snakes.editor": ("gridforge.snakes.game", "gridforge.snakes.solver",
                                "gridforge.snakes.play"),
    "gridforge.snakes.player": ("gridforge.snakes.game", "gridforge.snakes.solver"),
    "gridforge.snakes.lessons": ("gridforge.snakes.game", "gridforge.snakes.solver",
                                 "gridforge.snakes.play"),
}
MAX_SNAKES_TOP_MODULES = 8  # modules at snakes/ top level besides its sub-packages
MAX_MODULE_LINES = 800  # a module past this is split along its seams (issue 53)


def module_files() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    out = {}
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_package(name: str, modules: dict[str, Path]) -> bool:
    return modules[name].name == "__init__.py"


def imports_of(name: str, source: str, modules: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """The package's modules that ``source`` (module ``name``) imports, with line numbers:
    every ``import``/``from`` anywhere in the file, inside functions too. ``from pkg import
    mod`` names the submodule ``mod`` when there is one, else ``pkg`` itself."""
    here = name if _is_package(name, modules) else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here
                for _ in range(node.level - 1):
                    anchor = anchor.rpartition(".")[0]
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in modules:
                    yield sub, node.lineno
                elif base in modules:
                    yield base, node.lineno


def import_graph() -> dict[str, dict[str, int]]:
    """``{module: {imported module: first line}}`` over the whole package."""
    modules = module_files()
    graph: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        edges: dict[str, int] = {}
        for target, line in imports_of(name, path.read_text("utf-8"), modules):
            if target != name:
                edges.setdefault(target, line)
        graph[name] = edges
    return graph


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative),
    each as a sorted list of names, sorted; an empty list means the graph is acyclic."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def violations(graph: dict[str, dict[str, int]]) -> list[str]:
    """Every import that breaks a layering rule, as ``module:line -> target (rule)``."""
    out = []
    for name, edges in sorted(graph.items()):
        for target, line in sorted(edges.items()):
            where = f"{name}:{line} -> {target}"
            game = next((g for g in GAMES if within(name, g)), None)
            if game is not None:
                other = [g for g in GAMES if g != game and within(target, g)]
                if other:
                    out.append(f"{where} (the games never import each other)")
                if target in ("gridforge.api", "gridforge.cli"):
                    out.append(f"{where} (a game never imports api or cli)")
            if name in CORE and not any(target == c for c in CORE):
                out.append(f"{where} (the core imports only the core)")
            if name in TOP and target in TOP:
                out.append(f"{where} (api and cli never import each other)")
            if (within(name, "gridforge.snakes") and not within(name, DESIGN)
                    and name not in DESIGN_CALLERS and within(target, DESIGN)):
                out.append(f"{where} (the snakes game never reaches into its designer)")
            room = next((r for r in ROOMS if within(name, r)), None)
            if (room is not None and within(target, SNAKES) and not within(target, room)
                    and not any(within(target, allowed) for allowed in ROOMS[room])):
                out.append(f"{where} (the {room.rpartition('.')[2]} room imports only "
                           "the rooms below it)")
    return out


# ---------------------------------------------------------------------------- the package
def test_the_graph_covers_every_module_and_sees_function_level_imports():
    graph = import_graph()
    assert {"gridforge.errors", "gridforge.mines.engine", "gridforge.snakes.solver.search",
            "gridforge.snakes.design.pipeline", "gridforge.api", "gridforge.cli"} <= set(graph)
    # mines.board imports errors and grid at module level; api imports its page modules
    # only through importlib, which is no import statement.
    assert {"gridforge.errors", "gridforge.grid"} <= set(graph["gridforge.mines.board"])


def test_the_layering_rules_hold():
    assert violations(import_graph()) == []


def test_snakes_keeps_few_modules_at_its_top_level_and_each_room_says_what_it_may_import():
    top = sorted(PACKAGE_DIR.joinpath("snakes").glob("*.py"))
    assert len(top) <= MAX_SNAKES_TOP_MODULES, [path.name for path in top]
    modules = module_files()
    for room in ROOMS:
        if _is_package(room, modules):
            doc = ast.get_docstring(ast.parse(modules[room].read_text("utf-8"))) or ""
            assert "May import:" in doc, room


def test_no_module_of_the_package_is_over_800_lines():
    sizes = {name: len(path.read_text("utf-8").splitlines())
             for name, path in module_files().items()}
    assert {name: n for name, n in sizes.items() if n > MAX_MODULE_LINES} == {}


def test_the_module_graph_has_no_cycle():
    assert cycles(import_graph()) == []


def test_the_readme_states_this_chain():
    text = " ".join(README.read_text("utf-8").split())
    chain = text[text.index("Imports run one way:"):].split(";")[0]
    core, games, top = (re.findall(r"`([a-z0-9_.]+)`", part.split("(")[0])
                        for part in chain.split("←"))
    assert {f"gridforge.{name}" for name in core} == set(CORE) - {"gridforge"}
    assert {f"gridforge.{name}" for name in games} == set(GAMES)
    assert {f"gridforge.{name}" for name in top} == set(TOP)
    modules = module_files()
    assert set(TOP) <= set(modules) and all(c in modules for c in CORE)


def test_the_contract_and_command_modules_that_api_and_cli_load_exist():
    from gridforge import api, cli

    modules = module_files()
    for name in (*api.PAGE_MODULES, *cli.COMMAND_MODULES):
        assert name in modules and any(within(name, g) for g in GAMES), name


# ------------------------------------------------------------ the checks themselves
def test_imports_of_resolves_relative_nested_and_submodule_imports():
    modules = {name: Path(f"{name.replace('.', '/')}.py") for name in
               ("gridforge.errors", "gridforge.mines.board", "gridforge.snakes.game.level")}
    modules["gridforge.mines"] = Path("gridforge/mines/__init__.py")
    source = (
        "import os\n"
        "from gridforge.errors import Issue\n"
        "from . import board\n"
        "def late():\n"
        "    from gridforge.snakes.game.level import Level\n"
    )
    found = dict(imports_of("gridforge.mines.engine", source, modules | {
        "gridforge.mines.engine": Path("gridforge/mines/engine.py")}))
    assert found == {"gridforge.errors": 2, "gridforge.mines.board": 3,
                     "gridforge.snakes.game.level": 5}


def test_cycles_finds_a_two_module_cycle_and_nothing_in_a_chain():
    chain = {"a": {"b": 1}, "b": {"c": 1}, "c": {}}
    assert cycles(chain) == []
    looped = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"d": 1}, "e": {"a": 1}}
    assert cycles(looped) == [["a", "b", "c"]]


def test_violations_names_each_broken_rule():
    graph = {
        "gridforge.mines.solver": {"gridforge.snakes.game.level": 3, "gridforge.api": 4},
        "gridforge.errors": {"gridforge.mines.board": 7},
        "gridforge.snakes.solver.certificate": {"gridforge.snakes.design.score": 9},
        "gridforge.snakes.page": {"gridforge.snakes.design.pipeline": 2},
        "gridforge.snakes.game.rules": {"gridforge.snakes.solver.search": 5},
    }
    found = violations(graph)
    assert found == [
        "gridforge.errors:7 -> gridforge.mines.board (the core imports only the core)",
        "gridforge.mines.solver:4 -> gridforge.api (a game never imports api or cli)",
        "gridforge.mines.solver:3 -> gridforge.snakes.game.level (the games never import each "
        "other)",
        "gridforge.snakes.game.rules:5 -> gridforge.snakes.solver.search (the game room "
        "imports only the rooms below it)",
        "gridforge.snakes.solver.certificate:9 -> gridforge.snakes.design.score (the snakes "
        "game never reaches into its designer)",
        "gridforge.snakes.solver.certificate:9 -> gridforge.snakes.design.score (the solver "
        "room imports only the rooms below it)",
    ]
