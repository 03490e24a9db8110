"""The designer's interlock requests (issue 50, ``design-levels --spec`` with an ``interlock``
field): levels on one board whose bodies need each other, each certified proven-minimal, its
figures of spec 5d measured again here (not read from the builder's report), the same bytes
for the same request, the rest of the request honoured or refused at once with a field path,
and the CLI and the editor's design call end to end. The searches are CPython's (search_heavy);
inside Pyodide tests/test_determinism.py pins an interlock batch's bytes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from gridforge.errors import Cancelled, ValidationError
from gridforge.progress import Progress
from gridforge.snakes import page
from gridforge.snakes.design.certify import check, check_file_certificates
from gridforge.snakes.design.interlock import measure_layout, must_move_chain
from gridforge.snakes.design.interlock_spec import templates_for
from gridforge.snakes.design.pipeline import design_levels
from gridforge.snakes.design.request import check_batch, parse_request
from gridforge.snakes.game.level import level_from_json
from gridforge.snakes.game.regions import floor_map
from gridforge.snakes.game.rules import Game
from gridforge.snakes.solver.puzzle import serial
from gridforge.snakes.solver.search import bfs_optimum
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from .fixtures import run

COMB = {"topology": "comb", "count": 2, "seed": 1,
        "interlock": {"bodies": 3, "joint": 4, "beyond": 1, "chain": 1}}
MEASURE_STATES = 60_000  # the exact searches of the measures below (the builder's: 40,000)


@pytest.fixture(scope="module")
def comb_batch() -> Any:
    return design_levels(COMB)


def plain(level: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in level.items() if k != "meta"}


def assert_legible_one_board(level: dict[str, Any]) -> None:
    """Spec 5d's one floor region, and issue 50's legibility: bodies of at most 5 cells,
    occupancy at most 0.55, a phone board of at most 10 x 16."""
    regions = floor_map(level)
    assert len(regions.cells) == 1
    floor = len(regions.cells[0])
    cells = sum(len(b["cells"]) for b in level["bodies"])
    assert all(len(b["cells"]) <= 5 for b in level["bodies"])
    assert (cells + len(level["holes"])) / floor <= 0.55
    assert level["cols"] <= 10 and level["rows"] <= 16


def lifted(level: dict[str, Any]) -> dict[str, Any]:
    """The level with its freezes and locks lifted (spec 5d's main-region figures)."""
    out = plain(level)
    out["bodies"] = [{k: v for k, v in b.items() if k not in ("frozen", "lock", "key")}
                     for b in out["bodies"]]
    out["holes"] = [{k: v for k, v in h.items() if k != "frozen"} for h in out["holes"]]
    return out


def assert_meets(level: dict[str, Any], cert: dict[str, Any], ask: dict[str, int]) -> None:
    """The certificate is proven and holds (replayed, re-proved, rescored, its witnesses
    refused, by the recheck); the level's figures of spec 5d (freezes and locks lifted),
    measured again from its JSON alone, meet what was asked."""
    assert cert["status"] == "verified" and cert["optimal"]
    assert check(plain(level), cert) == []
    game = Game(level_from_json(plain(level)))
    assert game.is_complete(game.replay(cert["solution"])[-1])
    measured = measure_layout(lifted(level), MEASURE_STATES)
    assert measured is not None
    if lifted(level) == plain(level):
        assert measured.minimum == cert["steps"]
    assert measured.beyond >= ask["beyond"]
    assert measured.joint >= ask["joint"]
    assert must_move_chain(level_from_json(lifted(level))) >= ask["chain"]
    assert len(level["bodies"]) == ask["bodies"]
    assert_legible_one_board(level)


@pytest.mark.search_heavy
def test_an_interlock_request_builds_every_level_proven_and_as_deep_as_asked(comb_batch):
    batch = comb_batch
    assert batch["report"]["made"] == 2 and "shortfall" not in batch["report"]
    for level, cert, row in zip(batch["levels"], batch["certificates"],
                                batch["report"]["levels"], strict=True):
        assert level["meta"]["template"] == "comb"
        assert_meets(level, cert, COMB["interlock"])
        # What the report and the certificate claim is what was measured.
        measured = measure_layout(plain(level), MEASURE_STATES)
        assert measured is not None
        assert row["interlock"] == {"minimum": measured.minimum,
                                    "pair_split": measured.pair_split,
                                    "beyond_pairs": measured.beyond, "joint": measured.joint,
                                    "chain": measured.chain}
        assert cert["reading"]["main_region"] == {
            "beyond_pairs": measured.beyond, "chain": measured.chain, "joint": measured.joint,
            "bodies": 3}
        assert cert["reading"]["joint_steps"] == measured.joint


@pytest.mark.search_heavy
def test_the_same_interlock_request_gives_the_same_bytes(comb_batch):
    again = design_levels(json.loads(json.dumps(COMB)))
    assert json.dumps(again, sort_keys=True) == json.dumps(comb_batch, sort_keys=True)
    other = design_levels({**COMB, "seed": 2, "count": 1})
    assert other["levels"][0] != comb_batch["levels"][0]


@pytest.mark.search_heavy
def test_a_batch_of_interlock_levels_reads_back_and_its_certificates_recheck(comb_batch):
    assert check_batch(comb_batch)["request"] == comb_batch["request"]
    assert parse_request(comb_batch["request"]).to_json() == comb_batch["request"]
    assert check_file_certificates(comb_batch) == 2


@pytest.mark.search_heavy
def test_mixed_chooses_a_connected_template_per_level():
    ask = {"bodies": 3, "joint": 3, "beyond": 0, "chain": 1}
    batch = design_levels({"topology": "mixed", "count": 3, "seed": 3, "interlock": ask})
    assert batch["report"]["made"] == 3
    for level, cert in zip(batch["levels"], batch["certificates"], strict=True):
        assert level["meta"]["template"] in templates_for("mixed")
        assert_meets(level, cert, ask)
    assert "split" not in templates_for("mixed")


@pytest.mark.search_heavy
def test_the_rest_of_an_interlock_request_is_honoured():
    request = {"topology": "winding", "count": 2, "seed": 2, "target": 42, "tolerance": 6,
               "palette": [1, 3, 5, 7], "steps": {"min": 15, "max": 40}, "portrait": True,
               "make_way": True, "interaction": {"min": 2},
               "bodies": {"min_length": 2, "max_length": 2},
               "interlock": {"bodies": 3, "joint": 3, "beyond": 1, "chain": 1}}
    batch = design_levels(request)
    assert batch["report"]["made"] == 2
    for level, cert in zip(batch["levels"], batch["certificates"], strict=True):
        assert_meets(level, cert, request["interlock"])
        assert abs(cert["score"]["total"] - 42) <= 6
        assert 15 <= cert["steps"] <= 40
        assert {b["colors"][0] for b in level["bodies"]} <= {1, 3, 5, 7}
        assert all(len(b["cells"]) == 2 for b in level["bodies"])
        assert level["rows"] >= level["cols"]
        assert serial(Game(level_from_json(plain(level)))).status == "not_serial"
        assert cert["score"]["diagnostics"]["interaction_steps"] >= 2


@pytest.mark.search_heavy
@pytest.mark.parametrize(("piece", "field"), [("frozen", "bodies[{}].frozen"),
                                              ("locks", "bodies[{}].lock"),
                                              ("paths", "paths[0]")])
def test_a_piece_asked_is_placed_where_it_costs_at_least_two_steps(piece, field):
    ask = {"bodies": 3, "joint": 4, "beyond": 1, "chain": 1}
    batch = design_levels({"topology": "comb", "count": 1, "seed": 1, piece: 1,
                           "interlock": ask})
    (level,), (cert,) = batch["levels"], batch["certificates"]
    assert_meets(level, cert, ask)  # the recheck refuses the witness on the real rules too
    placed = [i for i, b in enumerate(level["bodies"]) if "frozen" in b or "lock" in b]
    name = field.format(*placed)
    assert level["meta"]["piece"] == piece
    assert [w["mechanic"] for w in cert["witnesses"]] == [name]
    without = lifted(level)
    if piece == "paths":
        assert len(level["paths"]) == 1
        del without["paths"]
    else:
        assert len(placed) == 1 and not level.get("paths")
    # Its cost, measured here: the minimum with it less the minimum without it.
    relaxed = bfs_optimum(Game(level_from_json(without)), max_states=2_000_000)
    assert relaxed is not None and cert["steps"] - relaxed >= 2
    assert cert["reading"]["piece_cost"] == {name: cert["steps"] - relaxed}


def test_a_budget_that_runs_out_says_so_with_its_reasons():
    batch = design_levels({"topology": "comb", "count": 2, "seed": 5,
                           "budgets": {"candidates": 5},
                           "interlock": {"bodies": 3, "joint": 18, "beyond": 8, "chain": 2}})
    report = batch["report"]
    assert batch["levels"] == [] and report["made"] == 0 and report["asked"] == 2
    assert report["shortfall"]["level"] == 0
    assert report["shortfall"]["candidates"] == 5
    assert report["shortfall"]["reasons"] == {"no_idea": 1}


@pytest.mark.search_heavy
def test_an_interlock_request_stops_when_the_progress_sink_asks():
    seen: list[tuple[int, int]] = []

    def sink(done: int, total: int, label: str, figures: dict[str, Any]) -> bool:
        seen.append((done, total))
        return figures.get("level") == 2  # stop once the second level starts

    with pytest.raises(Cancelled):
        design_levels(COMB, Progress(sink))
    assert seen[0] == (0, 2 * 1800) and len(seen) >= 2


def issue_paths(request: Any) -> list[str]:
    with pytest.raises(ValidationError) as info:
        parse_request(request)
    return [issue.path for issue in info.value.issues]


@pytest.mark.parametrize(("request_", "path"), [
    ({"interlock": "deep"}, "interlock"),
    ({"interlock": {"bodies": 2}}, "interlock.bodies"),
    ({"interlock": {"bodies": 7}}, "interlock.bodies"),
    ({"interlock": {"joint": 19}}, "interlock.joint"),
    ({"interlock": {"beyond": -1}}, "interlock.beyond"),
    ({"interlock": {"chain": 4, "bodies": 6}}, "interlock.chain"),
    ({"interlock": {"chain": 3, "bodies": 3}}, "interlock.chain"),
    ({"interlock": {"depth": 3}}, "interlock.depth"),
    ({"interlock": {}, "topology": "split"}, "topology"),
    ({"interlock": {}, "size": {"auto": False, "cols": 8, "rows": 8}}, "size.cols"),
    ({"interlock": {}, "size": {"cells": 30}}, "size.cells"),
    ({"interlock": {"bodies": 4}, "bodies": {"count": 3}}, "bodies.count"),
    ({"interlock": {}, "bodies": {"total": 9}}, "bodies.total"),
    ({"interlock": {}, "bodies": {"min_length": 5}}, "bodies.min_length"),
    ({"interlock": {}, "topology": "comb", "bodies": {"min_length": 4}}, "bodies.min_length"),
    ({"interlock": {}, "colors": 2}, "colors"),
    ({"interlock": {"bodies": 4}, "palette": [0, 1, 2]}, "palette"),
    ({"interlock": {}, "paths": 2}, "paths"),
    ({"interlock": {}, "paths": "auto"}, "paths"),
    ({"interlock": {}, "bridges": "auto"}, "bridges"),
    ({"interlock": {}, "bridges": 1}, "bridges"),
    ({"interlock": {}, "frozen": 2}, "frozen"),
    ({"interlock": {}, "frozen": 1, "locks": 1}, "locks"),
    ({"interlock": {}, "locks": 1, "paths": 1}, "paths"),
    ({"interlock": {}, "locks": 1, "gold": 1}, "gold"),
    ({"interlock": {}, "coats": 2}, "coats"),
    ({"interlock": {}, "budgets": {"path_search": 10}}, "budgets.path_search"),
    ({"interlock": {}, "tolerance": 5}, "tolerance"),
])
def test_what_an_interlock_request_cannot_honour_is_refused_naming_the_field(request_, path):
    assert path in issue_paths(request_)


def test_what_an_interlock_request_honours_is_taken():
    req = parse_request({"interlock": {"bodies": 4}, "bodies": {"count": 4}, "colors": 4,
                         "paths": 0, "bridges": 0, "frozen": 0, "binding": True,
                         "proven": True, "budgets": {"candidates": 50}})
    assert req.interlock is not None and req.interlock.bodies == 4 and req.bodies == 4
    assert req.budgets == {"candidates": 50, "exact_states": 40_000, "level_seconds": 300.0}
    assert (req.target, req.tolerance) == (50.0, 50.0)  # no target: any score


KEYS = ("bodies", "joint", "beyond", "chain")
BOUNDS = {"bodies": (3, 6), "joint": (0, 18), "beyond": (0, 8), "chain": (0, 3)}


def bad_value(key: str) -> st.SearchStrategy[Any]:
    lo, hi = BOUNDS[key]
    return st.one_of(st.integers(max_value=lo - 1), st.integers(min_value=hi + 1),
                     st.floats(allow_nan=False), st.text(max_size=4), st.booleans(),
                     st.lists(st.integers(), max_size=2))


@given(st.sampled_from(KEYS).flatmap(lambda k: st.tuples(st.just(k), bad_value(k))))
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
def test_any_bad_interlock_value_is_refused_naming_its_path(bad):
    key, value = bad
    ask = {"bodies": 6, key: value} if key != "bodies" else {key: value}
    assert f"interlock.{key}" in issue_paths({"interlock": ask})


@pytest.mark.search_heavy
def test_the_command_line_designs_an_interlock_spec_end_to_end(tmp_path, capsys):
    spec, out = tmp_path / "spec.json", tmp_path / "batch.json"
    request = {"topology": "comb", "count": 1, "seed": 4,
               "interlock": {"bodies": 3, "joint": 3, "beyond": 1, "chain": 1}}
    spec.write_text(json.dumps(request), encoding="utf-8")
    code, said, err = run(["design-levels", "--spec", str(spec), "--out", str(out), "--quiet"],
                          capsys)
    assert code == 0, err
    assert "minimum proven; joint " in said and "beyond-pairs" in said
    batch = json.loads(out.read_text(encoding="utf-8"))
    assert batch["request"]["interlock"] == request["interlock"]
    assert_meets(batch["levels"][0], batch["certificates"][0], request["interlock"])
    # The editor's design call passes the request through: the same bytes.
    assert page.editor_design(request)["text"].encode("utf-8") == out.read_bytes()
    spec.write_text(json.dumps({**request, "interlock": {"joint": 40}}), encoding="utf-8")
    code, _, err = run(["design-levels", "--spec", str(spec), "--out", str(out), "--quiet"],
                       capsys)
    assert code == 2 and "interlock.joint" in err and "Traceback" not in err


HONOURED_FIELDS = st.fixed_dictionaries({}, optional={
    "topology": st.sampled_from(["mixed", "comb", "winding"]),
    "target": st.sampled_from([30, 40]), "tolerance": st.sampled_from([12, 20]),
    "bodies": st.fixed_dictionaries({}, optional={
        "min_length": st.integers(2, 3), "max_length": st.integers(3, 6)}),
    "coats": st.just(0), "frozen": st.just(0), "locks": st.just(0), "paths": st.just(0),
    "bridges": st.just(0),
    "steps": st.tuples(st.none() | st.integers(5, 15), st.none() | st.integers(30, 60)).map(list),
    "palette": st.lists(st.integers(0, 14), min_size=4, max_size=8, unique=True),
    "make_way": st.booleans(), "portrait": st.booleans(), "proven": st.booleans(),
})
# Fields an interlock request cannot honour, each with the path its refusal names.
REFUSED_FIELDS = st.sampled_from([
    ({"topology": "split"}, "topology"), ({"coats": 1}, "coats"), ({"frozen": 2}, "frozen"),
    ({"locks": 1, "paths": 1}, "paths"), ({"paths": "auto"}, "paths"), ({"bridges": 1}, "bridges"),
    ({"bodies": {"total": 9}}, "bodies.total"), ({"size": {"cells": 30}}, "size.cells"),
    ({"colors": 2}, "colors"), ({"budgets": {"fast_branches": 9}}, "budgets.fast_branches"),
    ({"interlock": {"joint": 99}}, "interlock.joint")])


@pytest.mark.search_heavy
@given(fields=HONOURED_FIELDS, refused=st.none() | REFUSED_FIELDS, bodies=st.integers(3, 4),
       seed=st.integers(0, 50))
@settings(max_examples=25, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
def test_every_other_field_of_an_interlock_request_is_honoured_or_refused(fields, refused,
                                                                          bodies, seed):
    ask = {"bodies": bodies, "joint": 3, "beyond": 0, "chain": 1}
    request = {**fields, "seed": seed, "count": 1, "budgets": {"candidates": 200},
               "interlock": ask}
    if refused is not None:
        assert refused[1] in issue_paths({**request, **refused[0]})
        return
    batch = design_levels(request)
    event("designed" if batch["levels"] else "shortfall")
    assert batch["report"]["made"] == 1 or batch["report"]["shortfall"]["reasons"]
    for level, cert in zip(batch["levels"], batch["certificates"], strict=True):
        assert_meets(level, cert, ask)
        colours = [b["colors"][0] for b in level["bodies"]]
        assert len(set(colours)) == bodies and set(colours) <= set(fields.get("palette", colours))
        assert not any(key in b for b in level["bodies"] for key in ("frozen", "lock", "key"))
        assert not level.get("paths") and not level.get("bridges")
        if "target" in fields:
            assert abs(cert["score"]["total"] - fields["target"]) <= fields.get("tolerance", 7)
        low, high = fields.get("steps", [None, None])
        assert (low is None or cert["steps"] >= low) and (high is None or cert["steps"] <= high)
        lengths = fields.get("bodies", {})
        assert all(lengths.get("min_length", 2) <= len(b["cells"]) <= lengths.get("max_length", 5)
                   for b in level["bodies"])
        if fields.get("portrait"):
            assert level["rows"] >= level["cols"]
        if fields.get("make_way"):
            assert serial(Game(level_from_json(plain(level)))).status == "not_serial"
        if fields.get("topology", "mixed") != "mixed":
            assert level["meta"]["template"] == fields["topology"]
