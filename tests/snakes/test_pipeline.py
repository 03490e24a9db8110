"""The designer's pipeline on small requests: determinism, certificates, budgets, the CLI."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys

import pytest
from gridforge.errors import Cancelled, ValidationError
from gridforge.progress import Progress
from gridforge.snakes.design.pipeline import SafetyNetError, design_levels
from gridforge.snakes.design.request import parse_request
from gridforge.snakes.game.level import Level, level_sha256
from gridforge.snakes.solver.recheck import check_certificate

SMALL = {"candidates": 300, "exact_states": 500}


def _batch(target: float, count: int = 2, seed: int = 1, **extra) -> dict:
    request = {"target": target, "count": count, "seed": seed, "budgets": dict(SMALL), **extra}
    return design_levels(request, Progress())


def test_batch_levels_in_range_and_certificates_replay():
    batch = _batch(20)
    assert batch["format"] == "gridforge.snakes.batch/1"
    assert len(batch["levels"]) == len(batch["certificates"]) == 2
    for raw, cert in zip(batch["levels"], batch["certificates"], strict=True):
        level = Level.from_json(raw)
        assert check_certificate(level, cert) == []
        assert cert["status"] == "verified"
        assert cert["level_sha256"] == level_sha256(level)
        assert abs(cert["score"]["total"] - 20) <= 7
        assert cert["lower_bound"] <= cert["steps"] == len(cert["solution"])
        assert cert["reading"]["body_bound"] <= cert["steps"]  # its figures rechecked above
    assert batch["levels"][0] != batch["levels"][1]


def test_same_request_same_bytes():
    first = json.dumps(_batch(30, count=1, seed=4), sort_keys=True)
    again = json.dumps(_batch(30, count=1, seed=4), sort_keys=True)
    assert first == again


def test_fixed_parameters_are_kept():
    batch = _batch(35, count=2, seed=3, topology="twin",
                   bodies={"count": 3, "min_length": 2, "max_length": 5}, colors=2, coats=1,
                   frozen=1)
    for raw, cert in zip(batch["levels"], batch["certificates"], strict=True):
        assert raw["meta"]["template"] == "twin"
        assert len(raw["bodies"]) == 3
        assert all(2 <= len(b["cells"]) <= 5 for b in raw["bodies"])
        assert len({b["colors"][0] for b in raw["bodies"]}) <= 2
        assert sum(len(b["colors"]) - 1 for b in raw["bodies"]) == 1
        assert sum(1 for b in raw["bodies"] if b.get("frozen")) == 1
        assert check_certificate(Level.from_json(raw), cert) == []


@pytest.mark.search_heavy
def test_locks_arranged_along_the_solution_replay():
    batch = _batch(45, count=1, seed=2, bodies={"count": 4}, locks=1, gold=0)
    (raw,), (cert,) = batch["levels"], batch["certificates"]
    assert sum(1 for b in raw["bodies"] if "lock" in b) == 1
    assert sum(1 for b in raw["bodies"] if "key" in b) == 1
    assert check_certificate(Level.from_json(raw), cert) == []


def test_budget_spent_ends_with_reasons_not_a_hang():
    batch = design_levels({"target": 100, "count": 1, "seed": 1,
                           "budgets": {"candidates": 3, "exact_states": 200}}, Progress())
    report = batch["report"]
    assert report["made"] == 0 and batch["levels"] == []
    assert report["shortfall"]["candidates"] == 3
    assert report["shortfall"]["stopped_by"] == "candidates"
    assert sum(report["shortfall"]["reasons"].values()) == 3


def test_the_level_time_cap_is_a_loud_safety_net_not_a_budget():
    # Pillars have no narrow point: 100 is out of reach, and each candidate is costly. The
    # seconds cap must not decide what is written: hitting it stops the batch with an error.
    with pytest.raises(SafetyNetError, match="level_seconds"):
        design_levels({"target": 100, "count": 1, "seed": 1, "topology": "pillars",
                       "budgets": {"level_seconds": 0.5}}, Progress())


def test_the_exact_search_time_cap_is_a_loud_safety_net():
    with pytest.raises(SafetyNetError, match="exact_seconds"):
        design_levels({"target": 60, "count": 1, "seed": 3,
                       "budgets": {"exact_seconds": 1e-9, "candidates": 50}}, Progress())


def test_time_budgets_are_validated():
    with pytest.raises(ValidationError) as info:
        parse_request({"target": 50, "budgets": {"level_seconds": 0, "exact_seconds": -1}})
    assert {i.path for i in info.value.issues} == {"budgets.level_seconds",
                                                   "budgets.exact_seconds"}


def test_cancellation_stops_generation():
    calls = []

    def sink(done, total, label, figures):
        calls.append(done)
        return len(calls) > 2

    with pytest.raises(Cancelled):
        design_levels({"target": 60, "count": 3, "seed": 1, "budgets": dict(SMALL)},
                      Progress(sink))


@pytest.mark.search_heavy
def test_progress_names_the_level_and_the_score_nearest_the_target_so_far():
    labels = []
    figures = []

    def sink(done, total, label, named):
        labels.append(label)
        figures.append(named)
        return False

    batch = design_levels({"target": 70, "tolerance": 1, "count": 1, "seed": 2,
                           "budgets": {"candidates": 24}}, Progress(sink))
    scored = [float(m[1]) for m in (re.search(r"best score ([\d.]+)", x) for x in labels) if m]
    assert labels[0] == "level 1/1" and labels[-1] == "done" and scored
    # The same, named for a page to word itself: the level, and the best score once seen.
    assert figures[0] == {"level": 1, "levels": 1} and figures[-1] == {"finished": True}
    assert [f["best"] for f in figures if "best" in f] == scored
    # Each reported best is at least as near the target as the one before.
    assert all(abs(b - 70) <= abs(a - 70) for a, b in itertools.pairwise(scored))
    report = batch["report"]
    if not batch["levels"]:
        lowest, highest = report["shortfall"]["lowest_score"], report["shortfall"]["highest_score"]
        assert lowest <= scored[-1] <= highest


@pytest.mark.cpython_only
def test_cli_design_levels_writes_a_batch(tmp_path):
    out = tmp_path / "batch.json"
    proc = subprocess.run(
        [sys.executable, "-m", "gridforge", "design-levels", "--target", "15", "--count", "1",
         "--seed", "7", "--out", str(out), "--quiet"],
        capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    batch = json.loads(out.read_text(encoding="utf-8"))
    assert batch["format"] == "gridforge.snakes.batch/1" and len(batch["levels"]) == 1
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"target": 40, "bodies": {"count": 1}, "colors": 2}))
    proc = subprocess.run(
        [sys.executable, "-m", "gridforge", "design-levels", "--spec", str(spec), "--out",
         str(out), "--quiet"], capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 2
    assert "colors" in proc.stderr and "Traceback" not in proc.stderr


def test_a_recipe_never_asks_for_more_cells_than_the_fixed_floor_holds():
    # Issue 20: the recipe drew bodies for the pressure alone, so a fixed size.cells of 10 got
    # 20 body cells, and laying them out ran out of floor (IndexError from random.choice).
    # Now every recipe is None (counted) or leaves a hole per layer and a free cell, and its
    # bodies are laid out (or refused, counted) on the shape it asks for, never a crash.
    import random

    from gridforge.snakes.design.layout import place_bodies
    from gridforge.snakes.design.recipe import area_for, floor_room, make_recipe
    from gridforge.snakes.design.templates import TOPOLOGIES, TemplateError, make_shape

    made = 0
    for topology, (size, cells) in itertools.product(TOPOLOGIES, [
            (None, 4), (None, 10), ((18, 24), 10), ((18, 24), 5), ((5, 5), None), ((3, 3), 4),
            ((5, 5), 10), ((6, 8), 12), ((2, 2), None)]):
        box: dict = {"auto": size is None}
        if size is not None:
            box["cols"], box["rows"] = size
        if cells is not None:
            box["cells"] = cells
        try:
            req = parse_request({"topology": topology, "target": 50, "tolerance": 100,
                                 "size": box})
        except ValidationError:
            continue
        for k in range(25):
            rng = random.Random(k)
            recipe = make_recipe(req, k / 21, rng, provable=k % 5 == 0)
            if recipe is None:
                continue
            made += 1
            need = sum(recipe.lengths) + len(recipe.lengths) + recipe.coats + 1
            assert need <= floor_room(req), (topology, size, cells, recipe)
            if size is not None and size[0] * size[1] > 64:
                continue  # trimming a large board to a few cells is slow: the bound suffices
            try:
                shape = make_shape(recipe.template, area_for(req, recipe), rng,
                                   cols=req.cols, rows=req.rows)
            except TemplateError:
                continue
            place_bodies(shape, recipe.lengths, recipe.pressure, rng)
    assert made > 150


@pytest.mark.cpython_only
def test_cli_design_levels_exit_codes_are_0_1_2_never_a_traceback(tmp_path):
    # 0: every level made; 1: fewer (the batch is still written, the reason on stderr);
    # 2: a refused request, the field named. The first spec is issue 20's.
    out, spec = tmp_path / "batch.json", tmp_path / "spec.json"
    cases = [
        ({"topology": "winding", "target": 30, "seed": 0,
          "size": {"auto": False, "cols": 18, "rows": 24, "cells": 10}}, 0, None),
        ({"target": 60, "tolerance": 0, "budgets": {"candidates": 1}}, 1, "budgets.candidates"),
        ({"topology": "winding", "target": 30, "size": {"cells": 3}}, 2, "size.cells"),
        ({"topology": "twin", "target": 30, "size": {"auto": False, "cols": 3, "rows": 3}},
         2, "size"),
    ]
    for request, code, named in cases:
        spec.write_text(json.dumps(request), encoding="utf-8")
        proc = subprocess.run(
            [sys.executable, "-m", "gridforge", "design-levels", "--spec", str(spec), "--out",
             str(out), "--quiet"], capture_output=True, text=True, check=False)
        assert proc.returncode == code, (request, proc.stderr)
        assert "Traceback" not in proc.stderr
        if named:
            assert named in proc.stderr, proc.stderr
    spec.write_text('{"target": 30, "size": {"cells": 10, "cells": 400}}', encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "gridforge", "design-levels", "--spec", str(spec), "--out",
         str(out), "--quiet"], capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "size.cells" in proc.stderr and "Traceback" not in proc.stderr
