"""Hostile input against every mines loader, the page's dispatcher and the mines CLI verbs.

Each case starts from a valid file (a board, a generated board, a replay script, a
generation table, a solver position) and mutates it: truncation, deep nesting, a value
swapped for one of another type, huge or non-finite numbers, invalid UTF-8, a list
repeated, a key added or dropped, bytes flipped. The loaded value is then used the way the
tools use it (installed, solved, replayed, generated from). The only outcomes allowed are
success and the project's own error (:class:`~gridforge.errors.GridforgeError`); through
``dispatch`` anything but an ``InternalError`` envelope; on the CLI, exit codes 0, 1 or 2
and no traceback.

The default run is short. ``pytest -m fuzz_long tests/mines/test_fuzz.py`` runs at least
10,000 cases per loader and through ``dispatch``, and 3,000 per CLI verb (figures in
docs/mines-engine.md, "Hostile input").
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import tempfile
from collections.abc import Callable
from typing import Any

import pytest
from gridforge import api, cli
from gridforge.errors import GridforgeError, parse_json
from gridforge.mines.board import Board, initial_expansion
from gridforge.mines.engine import Engine
from gridforge.mines.gen_table import GenTable
from gridforge.mines.generate import generate, load_generated
from gridforge.mines.ledger import Ledger
from gridforge.mines.playthrough import solve_board
from gridforge.mines.position import deduce, position_from_json
from gridforge.mines.replay import parse_script, replay
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .fixtures import b_fog, b_spawn
from .test_replay import SCRIPT as PLAY_SCRIPT

SHORT = 8 if sys.platform == "emscripten" else 30  # cases per loader in the default run
LONG = 10_000  # cases per loader (and dispatch calls) in the fuzz_long run
LONG_CLI = 3_000  # cases per CLI verb in the fuzz_long run (each builds the whole parser)
# Generation and solving run on loaded values only up to this area (a bigger valid table
# is a fine outcome, but its generation would make the fuzz run minutes long).
SMALL_AREA = 144

# ------------------------------------------------------------------------ valid seeds
BOARD = b_fog().dumps()

def _tampered() -> str:
    """A board carrying its digits (one of them wrong), so that the digits rows are fuzzed."""
    board = b_spawn()
    digits = dict(board.digits)
    digits[(6, 6)] = (digits[(6, 6)] + 1) % 9
    return Board(7, 7, board.mines, board.spawn, digits=digits).dumps()


TAMPERED = _tampered()
GENERATED = generate("battle-3", 1).dumps()
# The pinned replay script, with a price override and a refresh call added.
SCRIPT = json.dumps({**PLAY_SCRIPT, "economy": {"flag_place_ap_cost": 2},
                     "steps": [*PLAY_SCRIPT["steps"], {"call": "refresh"}]})
TABLE = json.dumps({"name": "t", "cols": 9, "rows": 8, "mines": 9, "spawn": [4, 4], "fog": 2,
                    "fog_thickness": 1, "unlock_level": 0, "guarantee": "no_guess",
                    "attempts": 5, "mine_count_shown": True})  # fmt: skip
TABLE_DENSITY = json.dumps({"cols": 8, "rows": 8, "density": 0.12})


def _position() -> str:
    board = b_fog()
    opened = [[x, y, None if board.variant_ids((x, y)) else board.digit((x, y))]
              for x, y in initial_expansion(board)]  # fmt: skip
    return json.dumps({"cols": 7, "rows": 7, "opened": opened,
                       "known_mines": [list(min(board.mines))],
                       "mine_total": len(board.mines)})  # fmt: skip


POSITION = _position()

# --------------------------------------------------------------------------- mutations
SENTINEL = "\x00fuzz\x00"
MAX_TEXT = 12 * 1024 * 1024  # a mutated text stays about this size or smaller
RAW_VALUES = [
    b"[" * 31 + b"1" + b"]" * 31, b"[" * 33 + b"1" + b"]" * 33, b"[" * 5000,
    b"{\"a\":" * 40 + b"1" + b"}" * 40,
    b"9" * 30, b"9" * 31, b"-" + b"9" * 4400, b"1" + b"0" * 400 + b".5", b"1e999", b"-1e999",
    b"1e-999", b"NaN", b"Infinity", b"-Infinity", b"-0", b"0.0", b"1E2",
    b'"\xff\xfe"', b'"\xc3"', b'"\xed\xa0\x80"', b"\x80", b'"\\ud800"', b'"\\u0000"',
    b"[true, false]", b"[1.5, 2]", b"[-1, -1]", b"[1, 2, 3]", b"[]", b"{}", b'""', b"null",
    b"[[0, 0]]", b"[256, 256]", b"[255, 255]", b"[3, 3]", b"2147483648",
]  # fmt: skip
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30) + 1, 10**30 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=5),
    max_leaves=12,
)  # fmt: skip


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for key in value:
            out += _paths(value[key], (*path, key))
    elif isinstance(value, list):
        for k, item in enumerate(value[:6]):
            out += _paths(item, (*path, k))
    return out


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _replace(value[path[0]], path[1:], new)
    return copy


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


@st.composite
def mutated(draw: st.DrawFn, seeds: tuple[str, ...]) -> bytes:
    """A valid seed text with one to three mutations, as bytes."""
    text = draw(st.sampled_from(seeds))
    data = json.loads(text)
    raw = text.encode("utf-8")
    for _ in range(draw(st.integers(1, 3))):
        # Structural mutations weigh more: they reach the validators behind the parser.
        kind = draw(st.sampled_from(("swap", "swap", "swap", "raw", "repeat", "key", "key",
                                     "truncate", "bytes")))  # fmt: skip
        if kind in ("swap", "raw", "repeat", "key") and data is not None:
            path = draw(st.sampled_from(_paths(data)))
            if kind == "swap":
                data = _replace(data, path, draw(json_values))
                raw = json.dumps(data).encode("utf-8")
            elif kind == "repeat":
                node = _get(data, path)
                times = draw(st.sampled_from((2, 10, 300, 5000)))
                # Repeats of repeats grow as a product: keep the text near the readers'
                # 8 MiB cap, or the harness (not the loader) runs out of memory.
                times = max(2, min(times, MAX_TEXT // max(1, len(json.dumps(node)))))
                data = _replace(data, path, [node] * times if not isinstance(node, list)
                                else node * times)  # fmt: skip
                raw = json.dumps(data).encode("utf-8")
            elif kind == "key":
                node = _get(data, path)
                if isinstance(node, dict) and node and draw(st.booleans()):
                    key = draw(st.sampled_from(sorted(node)))
                    data = _replace(data, path, {k: v for k, v in node.items() if k != key})
                elif isinstance(node, dict):
                    data = _replace(data, path, {**node, draw(st.text(max_size=6)): 1})
                raw = json.dumps(data).encode("utf-8")
            else:  # a raw token where a value stood: the text is no longer Python's JSON
                marked = json.dumps(_replace(data, path, SENTINEL)).encode("utf-8")
                token = json.dumps(SENTINEL).encode("utf-8")
                raw = marked.replace(token, draw(st.sampled_from(RAW_VALUES)), 1)
                data = None
        elif kind == "truncate":
            raw = raw[: draw(st.integers(0, max(0, len(raw) - 1)))]
            data = None
        else:
            at = draw(st.integers(0, len(raw)))
            junk = draw(st.binary(min_size=1, max_size=4)
                        | st.text('[]{},:"-.0123456789eE ', min_size=1, max_size=4).map(
                            str.encode))  # fmt: skip
            raw = raw[:at] + junk + raw[at + draw(st.integers(0, 2)):]
            data = None
    return raw


# ---------------------------------------------------------------------------- loaders
def load_board(data: bytes) -> None:
    """``mines solve``'s path: a board or generator wrapper, installed and (small) solved."""
    board, _ = load_generated(data)
    engine = Engine(Ledger())
    engine.install_board(board)
    if board.size <= SMALL_AREA * 4:
        solve_board(board)


def load_script(data: bytes) -> None:
    """``mines replay``'s path: a script validated, then run on a board."""
    replay(b_spawn(), parse_script(parse_json(data, "mines script")), outcomes=True)


def load_table(data: bytes) -> None:
    """``mines generate --table``'s path: a table validated and (small ones) generated from."""
    table = GenTable.from_json(parse_json(data, "generation table"))
    if table.cols * table.rows <= SMALL_AREA and table.attempts <= 20:
        generate(table, 0)


def load_position(data: bytes) -> None:
    """The hint's path: a position validated, then everything logic proves in it."""
    deduce(**position_from_json(parse_json(data, "position")))


LOADERS: dict[str, tuple[Callable[[bytes], None], tuple[str, ...]]] = {
    "board": (load_board, (BOARD, TAMPERED, GENERATED)),
    "script": (load_script, (SCRIPT,)),
    "table": (load_table, (TABLE, TABLE_DENSITY)),
    "position": (load_position, (POSITION,)),
}


def fuzz_loader(name: str, examples: int) -> int:
    load, seeds = LOADERS[name]
    count = [0]

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(mutated(seeds))
    def case(data: bytes) -> None:
        count[0] += 1
        with contextlib.suppress(GridforgeError):
            load(data)

    case()
    return count[0]


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_mutated_files_load_or_are_refused(name: str) -> None:
    assert fuzz_loader(name, SHORT) >= SHORT // 2


@pytest.mark.fuzz_long
@pytest.mark.parametrize("name", sorted(LOADERS))
def test_mutated_files_load_or_are_refused_long(name: str) -> None:
    assert fuzz_loader(name, LONG) >= LONG


def test_the_valid_seeds_load() -> None:
    for load, seeds in LOADERS.values():
        for seed in seeds:
            load(seed.encode("utf-8"))


# --------------------------------------------------------------------------- dispatch
CONTRACT = [entry["name"] for entry in api.functions() if entry["name"] != "gridforge.api.spin"]
names = st.sampled_from(CONTRACT) | st.sampled_from(
    ["gridforge.api.spin", "gridforge.api.set_progress", "gridforge.cli.main",
     "gridforge.mines.replay.replay", "gridforge.mines.page", "", ".", "gridforge..x"]
) | st.text(max_size=30)  # fmt: skip
seed_values = [json.loads(t) for t in (BOARD, GENERATED, TABLE, POSITION)] + ["expert", 3]


@st.composite
def arguments(draw: st.DrawFn, name: str) -> str:
    """A JSON argument list for ``name``: random values, seeds, or a mutated text."""
    if name == "gridforge.api.spin":
        return json.dumps([draw(st.floats(-1, 0.001)) if draw(st.booleans()) else "x"])
    how = draw(st.sampled_from(("values", "seeds", "mutated")))
    if how == "values":
        return json.dumps(draw(st.lists(json_values, max_size=3)))
    if how == "seeds":
        return json.dumps(draw(st.lists(st.sampled_from(seed_values) | json_values,
                                        max_size=3)))  # fmt: skip
    raw = draw(mutated((json.dumps([json.loads(BOARD)]), json.dumps([json.loads(POSITION)]),
                        json.dumps([json.loads(TABLE), 1]))))  # fmt: skip
    return raw.decode("utf-8", "replace")


def fuzz_dispatch(examples: int) -> int:
    count = [0]

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def case(data: st.DataObject) -> None:
        count[0] += 1
        name = data.draw(names)
        args = data.draw(arguments(name))
        answer = json.loads(api.dispatch(name, args))
        assert answer["ok"] is True or answer["error"]["type"] != "InternalError", (
            name, args[:300], answer)

    case()
    return count[0]


def test_dispatch_answers_every_name_and_argument_list() -> None:
    assert fuzz_dispatch(SHORT * 2) >= SHORT


@pytest.mark.fuzz_long
def test_dispatch_answers_every_name_and_argument_list_long() -> None:
    assert fuzz_dispatch(LONG) >= LONG


# ----------------------------------------------------------------------- the CLI verbs
def _small_or_invalid_table(data: bytes) -> bool:
    try:
        table = json.loads(data)
    except (ValueError, RecursionError):
        return True
    if not isinstance(table, dict):
        return True
    cols, rows, attempts = table.get("cols"), table.get("rows"), table.get("attempts", 100)
    sizes = [v for v in (cols, rows, attempts) if isinstance(v, int) and not isinstance(v, bool)]
    return len(sizes) < 3 or (cols * rows <= SMALL_AREA and attempts <= 20)  # type: ignore


def run_cli(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as exc:  # argparse: --help, --version, usage errors
            code = exc.code if isinstance(exc.code, int) else 2
    return code, err.getvalue()


def fuzz_cli(verb: str, examples: int) -> int:
    count = [0]
    seeds = {"replay": (SCRIPT,), "solve": (BOARD, GENERATED, TAMPERED),
             "generate": (TABLE, TABLE_DENSITY)}[verb]  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "input.json")
        board_path = os.path.join(folder, "board.json")
        with open(board_path, "w", encoding="utf-8") as handle:
            handle.write(BOARD)

        @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
        @given(mutated(seeds), st.booleans())
        def case(data: bytes, swap: bool) -> None:
            if verb == "generate" and not _small_or_invalid_table(data):
                return
            count[0] += 1
            with open(path, "wb") as handle:
                handle.write(data)
            if verb == "replay":
                # The mutated file is the script, or (swap) the board the script runs on.
                board, script = (path, board_path) if swap else (board_path, path)
                if swap:
                    with open(board_path, "w", encoding="utf-8") as handle:
                        handle.write(SCRIPT)
                argv = ["mines", "replay", "--board", board, "--script", script, "--outcomes"]
            elif verb == "solve":
                argv = ["mines", "solve", path, *(["--json"] if swap else [])]
            else:
                argv = ["mines", "generate", "--table", path, "--quiet", "--out", os.devnull]
            code, err = run_cli(argv)
            if verb == "replay" and swap:
                with open(board_path, "w", encoding="utf-8") as handle:
                    handle.write(BOARD)
            assert code in (0, 1, 2) and "Traceback" not in err, (argv, data[:300], err)
            assert code == 0 or err.startswith("gridforge") or "usage:" in err, err

        case()
    return count[0]


@pytest.mark.cpython_only
@pytest.mark.parametrize("verb", ["generate", "replay", "solve"])
def test_cli_verbs_refuse_mutated_files_cleanly(verb: str) -> None:
    assert fuzz_cli(verb, SHORT) >= SHORT // 4


@pytest.mark.cpython_only
@pytest.mark.fuzz_long
@pytest.mark.parametrize("verb", ["generate", "replay", "solve"])
def test_cli_verbs_refuse_mutated_files_cleanly_long(verb: str) -> None:
    assert fuzz_cli(verb, LONG_CLI) >= LONG_CLI // 2
