"""Fuzzing the snakes loaders: any outcome but success or the package's own error fails.

Inputs are valid files mutated by hypothesis: truncated text, invalid UTF-8, deep nesting,
huge numbers, and values swapped for other types at any path of the JSON. They go to the level
loader, the certificate recheck, the page's play/verify/export calls and, in-process, to the
CLI verbs that read a file (exit 0, 1 or 2, never an exception). The default run is short; the
``fuzz_long`` run (``pytest -m fuzz_long tests/snakes/test_fuzz.py``) does 10,000 cases per
loader and its figures are in docs/snakes-engine.md.
"""

from __future__ import annotations

import contextlib
import copy
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from gridforge.cli import main
from gridforge.errors import GridforgeError
from gridforge.snakes import page
from gridforge.snakes.design import certify
from gridforge.snakes.game.certfile import BATCH_FORMAT
from gridforge.snakes.game.level import parse_level, spec_example
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ..page_copy import PageCopy

SHORT = settings(max_examples=10 if sys.platform == "emscripten" else 40, deadline=None,
                 suppress_health_check=list(HealthCheck))
LONG = settings(max_examples=10_000, deadline=None, suppress_health_check=list(HealthCheck),
                database=None)
STATES = 400  # search budget of the fuzzed verify calls: a search is not what is fuzzed

CERT = certify.certify(spec_example())
WEIRD: list[Any] = [None, True, False, 0, -1, 1, 2**31, 10**29, -(10**29), 1.5, 1e308, -1e308,
                    "", "x", "gold", "head", "U", "gridforge.snakes.level/1", [], {}, [0], [[0]],
                    [[0, 0]] * 50, {"id": "L1"}, {"kind": ["gold"]}, "x" * 500]


MAX_PATHS = 2_000  # a value duplicated thousands of times is mutated through its first paths


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths into a JSON value, the root first, depth first, at most MAX_PATHS."""
    out = [prefix]
    stack = [(value, prefix)]
    while stack and len(out) < MAX_PATHS:
        node, path = stack.pop()
        items = node.items() if isinstance(node, dict) else (
            enumerate(node) if isinstance(node, list) else ())
        children = [(item, (*path, key)) for key, item in items]
        out += [p for _, p in children]
        stack += reversed(children)
    return out[:MAX_PATHS]


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    out = copy.copy(value)
    out[path[0]] = _replace(value[path[0]], path[1:], new)
    return out


@st.composite
def mutated_values(draw: st.DrawFn, base: Any) -> Any:
    """``base`` with one to three values swapped for odd ones (types, sizes, deletions)."""
    value = base
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(value)
        path = draw(st.sampled_from(paths))
        kind = draw(st.sampled_from(["weird", "delete", "nest", "duplicate"]))
        if kind == "delete" and path:
            parent = _paths_get(value, path[:-1])
            if isinstance(parent, dict | list):
                parent = copy.copy(parent)
                del parent[path[-1]]
                value = _replace(value, path[:-1], parent)
            continue
        if kind == "nest":
            new: Any = _paths_get(value, path)
            for _ in range(draw(st.integers(1, 40))):
                new = [new]
        elif kind == "duplicate":
            new = [_paths_get(value, path)] * draw(st.integers(2, 600))
        else:
            new = draw(st.sampled_from(WEIRD))
        value = _replace(value, path, new)
    return value


def _paths_get(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


@st.composite
def mutated_texts(draw: st.DrawFn, base: Any) -> bytes:
    """The JSON text of ``base`` (or of a mutated value), then maybe damaged as text."""
    value = draw(mutated_values(base)) if draw(st.booleans()) else base
    data = json.dumps(value).encode()
    kind = draw(st.sampled_from(["none", "truncate", "bytes", "number", "deep", "bom"]))
    if kind == "truncate":
        data = data[: draw(st.integers(0, len(data)))]
    elif kind == "bytes":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00",
                                                  b"NaN", b"Infinity", b"]"])) + data[at:]
    elif kind == "number":
        digits = draw(st.sampled_from([b"1e999", b"-1e999", b"9" * 40, b"1" * 5000, b"-0"]))
        data = data.replace(b"2", digits, 1)
    elif kind == "deep":
        depth = draw(st.integers(30, 3_000))  # past MAX_DEPTH and the interpreter's limit
        data = b"[" * depth + data + b"]" * depth
    elif kind == "bom":
        data = b"\xef\xbb\xbf" + data
    return data


# ------------------------------------------------------------------------- the properties


def check_level_loader(data: bytes) -> None:
    with contextlib.suppress(GridforgeError):
        parse_level(data)


def check_certificate_recheck(cert: Any) -> None:
    with contextlib.suppress(GridforgeError):
        certify.recheck(spec_example(), cert, max_states=STATES * 10)


def check_page(level: Any, cert: Any, choice: int) -> None:
    with contextlib.suppress(GridforgeError):  # the project's own refusal is an outcome
        if choice == 0:
            answer = page.open(level)
            page.act(answer["id"], {"do": "step", "step": [0, "tail", "R"]})
            page.resume(level, SAVE)
            page.close(answer["id"])
        elif choice == 1:
            page.verify(level, STATES, 5.0)
        else:
            page.export(level, cert)


def check_session(save: Any, args: Any) -> None:
    with contextlib.suppress(GridforgeError):  # a save refused, an unknown id: the package's
        page.position(LEVEL, save.get("steps") if isinstance(save, dict) else save)
    with contextlib.suppress(GridforgeError):
        answer = page.resume(LEVEL, save)
        sid = answer["id"]
        page.act(sid, {"do": "step", "step": args})
        page.act(sid, {"do": "undo"})
        page.act(sid, {"do": "redo"})
        page.act(sid, {"do": "restart"})
        page.close(sid)
    for do in ("undo", "redo", "restart"):
        with contextlib.suppress(GridforgeError):  # ``args`` as the id: unknown
            page.act(args, {"do": do})
    for verb in (page.hint, page.close):
        with contextlib.suppress(GridforgeError):
            verb(args)
    for action in ({"do": "step", "step": args}, args):
        with contextlib.suppress(GridforgeError):
            page.act(args, action)


def check_cli(tmp: Path, data: bytes) -> None:
    src = tmp / "in.json"
    src.write_bytes(data)
    out = tmp / "out.json"
    try:
        code = main(["design-levels", "--verify", str(src), "--out", str(out), "--quiet",
                     "--states", str(STATES), "--seconds", "5"])
    except SystemExit as exc:  # argparse only; the verbs return their code
        code = exc.code if isinstance(exc.code, int) else -1
    assert code in (0, 1, 2)


LEVEL = spec_example()
BATCH = {"format": BATCH_FORMAT, "request": {"target": 30, "tolerance": 7},
         "levels": [spec_example()], "certificates": [CERT]}
EXPORTED = {"level": spec_example(), "certificate": CERT}
_COPY = PageCopy()
_OPENED = _COPY(page.open(spec_example()))
_OPENED = _COPY(page.act(_OPENED["id"], {"do": "step", "step": _OPENED["offer"]["legal"][0]}))
_STEPPED = page.act(_OPENED["id"], {"do": "step", "step": _OPENED["offer"]["legal"][0]})
SAVE = page.act(_STEPPED["id"], {"do": "undo"})["save"]


def _properties(conf: settings) -> list[Any]:
    @conf
    @given(data=st.one_of(mutated_texts(LEVEL), mutated_texts(EXPORTED)))
    def level_loader(data: bytes) -> None:
        check_level_loader(data)

    @conf
    @given(cert=mutated_values(CERT))
    def certificate_recheck(cert: Any) -> None:
        check_certificate_recheck(cert)

    @conf
    @given(level=mutated_values(LEVEL), cert=mutated_values(CERT), choice=st.integers(0, 2))
    def page_calls(level: Any, cert: Any, choice: int) -> None:
        check_page(level, cert, choice)

    @conf
    @given(save=mutated_values(SAVE), args=st.sampled_from(WEIRD))
    def page_sessions(save: Any, args: Any) -> None:
        check_session(save, args)

    return [level_loader, certificate_recheck, page_calls, page_sessions]


@pytest.mark.parametrize("index", range(4), ids=["level", "certificate", "page", "session"])
def test_fuzz_loaders_answer_success_or_the_packages_error(index):
    _properties(SHORT)[index]()


def _cli_property(conf: settings, tmp_path: Path) -> Any:
    @conf
    @given(data=st.one_of(mutated_texts(LEVEL), mutated_texts(BATCH), mutated_texts(EXPORTED)))
    def cli(data: bytes) -> None:
        check_cli(tmp_path, data)

    return cli


@pytest.mark.cpython_only
def test_fuzz_cli_verify_exits_0_1_or_2(tmp_path):
    _cli_property(SHORT, tmp_path)()


@pytest.mark.fuzz_long
@pytest.mark.cpython_only  # also keeps it out of Pyodide, whose runner replaces addopts' -m
@pytest.mark.parametrize("index", range(4), ids=["level", "certificate", "page", "session"])
def test_fuzz_long_loaders(index):
    _properties(LONG)[index]()


@pytest.mark.fuzz_long
@pytest.mark.cpython_only
def test_fuzz_long_cli_verify(tmp_path):
    _cli_property(LONG, tmp_path)()


def test_the_mutations_reach_the_files_every_way():
    # A guard on the fuzzer itself: each kind of damage is drawn and reaches a loader.
    seen: set[str] = set()

    @settings(max_examples=200, deadline=None, database=None)
    @given(data=mutated_texts(LEVEL))
    def probe(data: bytes) -> None:
        try:
            parse_level(data)
            seen.add("ok")
        except GridforgeError as exc:
            seen.add(str(getattr(exc, "issues", [None])[0].code
                         if getattr(exc, "issues", None) else "error"))

    probe()
    assert {"ok", "json", "encoding"} <= seen and len(seen) >= 5, seen


# ------------------------------------------------------ the designer's whole request space
# Every template at sizes and cell counts across the limits either designs (a batch, with a
# shortfall report when the candidates ran out) or is refused with the request field at
# fault; anything else fails. Tiny budgets: what is swept is the request space, not the
# search. The long run adds sizes, cell counts, targets and every other request field.

SWEEP_BUDGETS = {"candidates": 1, "fast_branches": 60, "exact_states": 60, "path_search": 40}
SWEEP_SIZES: list[tuple[int, int] | None] = [None, (2, 2), (5, 5), (9, 12)]
SWEEP_CELLS: list[int | None] = [None, 4, 10, 60]
LONG_SIZES: list[tuple[int, int] | None] = [None] + [
    (c, r) for c in (2, 3, 5, 8, 12, 18) for r in (2, 3, 6, 12, 18, 24)
    if (c + 2) * (r + 2) <= 600]
LONG_CELLS: list[int | None] = [None, 4, 5, 7, 10, 16, 30, 60, 120, 250, 400]


def sweep_request(topology: str, size: tuple[int, int] | None, cells: int | None,
                  target: float, **fields: Any) -> dict[str, Any]:
    box: dict[str, Any] = {"auto": size is None}
    if size is not None:
        box["cols"], box["rows"] = size
    if cells is not None:
        box["cells"] = cells
    return {"topology": topology, "target": target, "seed": 1, "size": box,
            "budgets": SWEEP_BUDGETS, **fields}


def design_or_refusal(request: dict[str, Any]) -> str:
    """``designed``, ``shortfall`` or ``refused`` (with the request's fields named); any other
    exception escapes and fails the test."""
    from gridforge.errors import ValidationError
    from gridforge.snakes.design.pipeline import design_levels
    from gridforge.snakes.design.request import REQUEST_KEYS

    try:
        batch = design_levels(request)
    except ValidationError as exc:
        heads = {issue.path.split(".")[0] for issue in exc.issues}
        assert heads <= set(REQUEST_KEYS), (request, exc)
        return "refused"
    report = batch["report"]
    assert len(batch["levels"]) == len(batch["certificates"]) == report["made"]
    if report["made"] == report["asked"]:
        assert "shortfall" not in report
        return "designed"
    assert report["shortfall"]["reasons"], request
    return "shortfall"


def test_every_template_size_and_cell_count_designs_or_names_the_field():
    from gridforge.snakes.design.templates import TOPOLOGIES

    seen: dict[str, int] = {}
    for topology in TOPOLOGIES:
        for size in SWEEP_SIZES:
            for cells in SWEEP_CELLS:
                outcome = design_or_refusal(sweep_request(topology, size, cells, 25))
                seen[outcome] = seen.get(outcome, 0) + 1
    assert seen.get("designed", 0) > 0 and seen.get("refused", 0) > 0, seen


def test_the_issue_20_request_designs_a_level_of_ten_cells():
    # template winding, 18x24, 10 effective cells: the recipe asked for more body cells than
    # the fixed floor holds, and laying out the bodies ran out of cells (IndexError).
    from gridforge.snakes.design.pipeline import design_levels
    from gridforge.snakes.game.level import level_from_json

    for target in (10, 30):
        batch = design_levels({"topology": "winding", "target": target, "seed": 0,
                               "size": {"auto": False, "cols": 18, "rows": 24, "cells": 10},
                               "budgets": {"candidates": 40}})
        for raw in batch["levels"]:
            level = level_from_json(raw)
            assert (level.cols, level.rows) == (18, 24)
            assert level.cols * level.rows - len(level.stones) == 10
        assert batch["levels"] or batch["report"]["shortfall"]
    assert design_or_refusal(sweep_request("winding", (18, 24), 10, 30)) != "refused"


REQUEST_FIELDS = st.fixed_dictionaries({}, optional={
    "bodies": st.fixed_dictionaries({}, optional={
        "count": st.integers(1, 16), "min_length": st.integers(2, 6),
        "max_length": st.integers(2, 40), "total": st.integers(2, 350)}),
    "colors": st.integers(1, 15), "coats": st.integers(0, 48), "frozen": st.integers(0, 16),
    "frozen_holes": st.integers(0, 64), "locks": st.integers(0, 8), "gold": st.integers(0, 8),
    "steps": st.tuples(st.none() | st.integers(0, 700), st.none() | st.integers(0, 700)).map(list),
    "palette": st.lists(st.integers(0, 14), min_size=1, max_size=15, unique=True),
    "tolerance": st.sampled_from([0, 3, 7, 20, 100]),
})


def _request_property(conf: settings) -> Any:
    from gridforge.snakes.design.templates import TOPOLOGIES

    @conf
    @given(topology=st.sampled_from(TOPOLOGIES), size=st.sampled_from(LONG_SIZES),
           cells=st.sampled_from(LONG_CELLS), target=st.sampled_from([0, 10, 30, 50, 70]),
           fields=REQUEST_FIELDS)
    def designs_or_refuses(topology: str, size: tuple[int, int] | None, cells: int | None,
                           target: float, fields: dict[str, Any]) -> None:
        design_or_refusal(sweep_request(topology, size, cells, target, **fields))

    return designs_or_refuses


def test_fuzz_design_requests_design_or_name_the_field():
    _request_property(settings(max_examples=10 if sys.platform == "emscripten" else 30,
                               deadline=None, suppress_health_check=list(HealthCheck)))()


@pytest.mark.fuzz_long
@pytest.mark.cpython_only
def test_fuzz_long_every_template_size_and_cell_count(tmp_path):
    # Every template at 36 sizes across the limits (and auto) x 11 cell counts, then the CLI
    # on a sample of it: exit 0 designed, 1 shortfall, 2 refused, never a traceback.
    from gridforge.snakes.design.templates import TOPOLOGIES

    expected = {"designed": 0, "shortfall": 1, "refused": 2}
    spec = tmp_path / "spec.json"
    for k, (topology, size, cells) in enumerate(
            (t, s, c) for t in TOPOLOGIES for s in LONG_SIZES for c in LONG_CELLS):
        # Targets in turn; every tenth request aims high (backward play, the costly recipe).
        target = 97 if k % 10 == 9 else (5, 30, 50, 75)[k % 4]
        request = sweep_request(topology, size, cells, target)
        outcome = design_or_refusal(request)
        if k % 25 == 0:
            spec.write_text(json.dumps(request), encoding="utf-8")
            code = main(["design-levels", "--spec", str(spec), "--out",
                         str(tmp_path / "out.json"), "--quiet"])
            assert code == expected[outcome], request


@pytest.mark.fuzz_long
@pytest.mark.cpython_only
def test_fuzz_long_design_requests_design_or_name_the_field():
    _request_property(settings(max_examples=3_000, deadline=None, database=None,
                               suppress_health_check=list(HealthCheck)))()
