"""The snakes CLI verbs (snakes/commands.py): exit codes, flags, size limits, no tracebacks."""

from __future__ import annotations

import json

import pytest
from gridforge.snakes import page as snakes_page
from gridforge.snakes.commands import MAX_VERIFY_BYTES
from gridforge.snakes.design import certify
from gridforge.snakes.game.certfile import BATCH_FORMAT
from gridforge.snakes.game.level import MAX_LEVEL_BYTES

from .fixtures import data_with_first_block, level_dict, run, spec_example

pytestmark = pytest.mark.cpython_only


def test_cli_verify_writes_the_certificate(tmp_path, capsys):
    src = tmp_path / "in.json"
    src.write_text(json.dumps(spec_example()), encoding="utf-8")
    out = tmp_path / "cert.json"
    code, stdout, _ = run(["design-levels", "--verify", str(src), "--out", str(out), "--quiet"],
                          capsys)
    assert code == 0 and "verified" in stdout
    cert = json.loads(out.read_text(encoding="utf-8"))
    assert cert["status"] == "verified" and cert["minimum"] == 20
    assert cert["score"]["total"] > 0  # the full certificate: the designer's score included


def test_cli_bad_input_is_a_clean_error(tmp_path, capsys):
    src = tmp_path / "in.json"
    src.write_text("{oops", encoding="utf-8")
    code, _, err = run(["design-levels", "--verify", str(src), "--out", str(tmp_path / "o")],
                       capsys)
    assert code == 2 and "not valid JSON" in err
    data = spec_example()
    data["bodies"][3]["lock"]["kind"] = "gold"
    src.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(["design-levels", "--verify", str(src), "--out", str(tmp_path / "o")],
                       capsys)
    assert code == 2 and "bodies[3].lock" in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("kind", [["gold"], {"k": 1}])
def test_cli_verify_a_lock_kind_that_is_a_list_or_object_names_the_field(tmp_path, capsys,
                                                                          kind):
    data = spec_example()
    data["bodies"][3]["lock"]["kind"] = kind
    src = tmp_path / "in.json"
    src.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(["design-levels", "--verify", str(src), "--out", str(tmp_path / "o")],
                       capsys)
    assert code == 2 and "bodies[3].lock.kind" in err and "Traceback" not in err


def test_cli_unsolvable_is_exit_1_and_bad_input_exit_2(tmp_path, capsys):
    data = level_dict(4, 2, [{"cells": [[0, 0], [1, 0]], "colors": [0]}],
                      [{"cell": [3, 1], "color": 0}], stones=[[2, 0], [2, 1]])
    src = tmp_path / "in.json"
    src.write_text(json.dumps(data), encoding="utf-8")
    code, stdout, _ = run(["design-levels", "--verify", str(src), "--out",
                           str(tmp_path / "c.json"), "--quiet"], capsys)
    assert code == 1 and "unsolvable" in stdout


@pytest.mark.parametrize("argv, flag", [
    (["design-levels", "--verify", "x.json", "--out", "o.json", "--seconds", "nan"], "--seconds"),
    (["design-levels", "--verify", "x.json", "--out", "o.json", "--seconds", "inf"], "--seconds"),
    (["design-levels", "--verify", "x.json", "--out", "o.json", "--seconds", "-1"], "--seconds"),
    (["design-levels", "--verify", "x.json", "--out", "o.json", "--seconds", "0"], "--seconds"),
    (["design-levels", "--verify", "x.json", "--out", "o.json", "--states", "0"], "--states"),
    (["design-levels", "--verify", "x.json", "--out", "o.json", "--states", "-1"], "--states"),
    (["design-levels", "--verify", "x.json", "--out", "o.json", "--states", "1e3"], "--states"),
    (["check-designer", "--levels", "-5"], "--levels"),
    (["check-designer", "--levels", "0"], "--levels"),
])
def test_cli_numeric_flags_out_of_range_exit_2_naming_the_flag(argv, flag, capsys, tmp_path,
                                                               monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(argv, capsys)
    lines = [line for line in err.splitlines() if "error" in line]
    assert code == 2 and len(lines) == 1 and flag in lines[0] and "Traceback" not in err
    assert not (tmp_path / "o.json").exists()


def test_cli_verify_refuses_an_oversized_file_before_reading_it(tmp_path, capsys):
    src = tmp_path / "big.json"
    with open(src, "wb") as handle:  # a sparse file: the size is refused, nothing is read
        handle.truncate(MAX_VERIFY_BYTES + 1)
    code, _, err = run(["design-levels", "--verify", str(src), "--out", str(tmp_path / "o")],
                       capsys)
    assert code == 2 and "limit" in err and "Traceback" not in err


def test_cli_two_million_duplicate_stones_are_refused_up_front(tmp_path, capsys):
    data = spec_example()
    data["stones"] = [[3, 0]] * 2_000_000
    src = tmp_path / "stones.json"
    src.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(["design-levels", "--verify", str(src), "--out", str(tmp_path / "o")],
                       capsys)
    assert code == 2 and "the limit is 1048576" in err and len(err.splitlines()) <= 3


def test_cli_verify_reads_a_batch_above_the_level_cap(tmp_path, capsys):
    level = spec_example()
    level["meta"]["note"] = "x" * (MAX_LEVEL_BYTES + 10)
    batch = {"format": BATCH_FORMAT, "request": None, "levels": [level]}
    src = tmp_path / "batch.json"
    src.write_text(json.dumps(batch), encoding="utf-8")
    out = tmp_path / "o.json"
    code, stdout, _ = run(["design-levels", "--verify", str(src), "--out", str(out), "--quiet"],
                          capsys)
    assert code == 0 and "level 0: verified" in stdout
    src.write_text(json.dumps({"levels": [level], "format": BATCH_FORMAT}), encoding="utf-8")
    code, _, err = run(["design-levels", "--verify", str(src), "--out", str(out)], capsys)
    assert code == 2 and "must be a batch that begins with its format" in err


def test_cli_check_designer_small(capsys, monkeypatch, tmp_path):
    data = data_with_first_block(tmp_path / "data")
    monkeypatch.setattr(certify, "shipped_data", lambda: data)
    code, stdout, _ = run(["check-designer", "--levels", "10", "--quiet"], capsys)
    assert code == 0
    assert "astar_vs_bfs: ok" in stdout and "matching_vs_brute_force: ok" in stdout
    assert "shipped_certificates: ok" in stdout


def test_cli_verify_keeps_the_solutions_of_a_designed_batch(tmp_path, capsys):
    from gridforge.snakes.design.pipeline import design_levels

    batch = design_levels({"target": 30, "count": 2, "seed": 1,
                           "budgets": {"candidates": 300, "exact_states": 500}})
    assert len(batch["certificates"]) == 2
    src, out = tmp_path / "batch.json", tmp_path / "checked.json"
    src.write_text(json.dumps(batch), encoding="utf-8")
    # A budget of one state could not find a solution: the batch's own are kept.
    code, stdout, _ = run(["design-levels", "--verify", str(src), "--out", str(out),
                           "--states", "1", "--seconds", "5", "--quiet"], capsys)
    assert code == 0, stdout
    assert [line.split(":")[1].split()[0] for line in stdout.splitlines()] == ["verified"] * 2
    checked = json.loads(out.read_text(encoding="utf-8"))["certificates"]
    for given, cert in zip(batch["certificates"], checked, strict=True):
        assert cert["status"] == "verified" and cert["steps"] <= given["steps"]


def test_cli_verify_a_certified_level_keeps_its_solution_and_refuses_an_illegal_one(
        tmp_path, capsys):
    level = spec_example()
    exported = json.loads(snakes_page.export(level, certify.certify(level)))
    src, out = tmp_path / "certified.json", tmp_path / "c.json"
    src.write_text(json.dumps(exported), encoding="utf-8")
    code, stdout, _ = run(["design-levels", "--verify", str(src), "--out", str(out),
                           "--states", "1", "--seconds", "5", "--quiet"], capsys)
    cert = json.loads(out.read_text(encoding="utf-8"))
    assert code == 0 and stdout.startswith("level 0: verified")
    assert cert["status"] == "verified" and cert["steps"] <= exported["certificate"]["steps"]
    exported["certificate"]["solution"][0] = [0, "head", "X"]
    src.write_text(json.dumps(exported), encoding="utf-8")
    out.unlink()
    code, _, err = run(["design-levels", "--verify", str(src), "--out", str(out)], capsys)
    assert code == 2 and "certificate.solution" in err and "Traceback" not in err
    assert not out.exists()


@pytest.mark.slow  # several seconds of search per level
@pytest.mark.parametrize("number", [1000, 2000])  # 1000: a search from scratch finds nothing
def test_cli_verify_main_line_levels_never_report_more_steps(number, tmp_path, capsys):
    code, stdout, _ = run(["mainline", "level", str(number)], capsys)
    assert code == 0
    shipped = json.loads(stdout)
    src, out = tmp_path / "L.json", tmp_path / "c.json"
    src.write_text(stdout, encoding="utf-8")
    code, stdout, _ = run(["design-levels", "--verify", str(src), "--out", str(out), "--quiet"],
                          capsys)
    cert = json.loads(out.read_text(encoding="utf-8"))
    assert code == 0 and stdout.startswith("level 0: verified")
    assert cert["status"] == "verified" and cert["steps"] <= shipped["certificate"]["steps"]


# ------------------------------------------------------ informational certificate fields


def test_budgets_search_and_version_are_informational_never_believed(tmp_path, capsys):
    # They are no claims: a recheck accepts any of the right shape and shows only its own.
    from gridforge import __version__

    level = spec_example()
    exported = json.loads(snakes_page.export(level, certify.certify(level)))
    forged = exported["certificate"]
    forged["budgets"] = {"exact_states": 200_000, "candidates": 10**9, "exact_seconds": 1e9}
    forged["search"] = {"expanded": 10**12, "status": "proved by hand", "stopped_by": None}
    forged["version"] = "99.0-forged"
    checked = certify.recheck(level, forged)
    assert checked.issues == [] and checked.certificate is not None
    own = checked.certificate
    assert own["version"] == __version__
    assert own["budgets"]["exact_states"] <= 200_000 and "candidates" not in own["budgets"]
    assert own["search"] != forged["search"]
    assert "proved by hand" not in snakes_page.export(level, forged)
    src, out = tmp_path / "certified.json", tmp_path / "c.json"
    src.write_text(json.dumps(exported), encoding="utf-8")
    code, stdout, _ = run(["design-levels", "--verify", str(src), "--out", str(out),
                           "--states", "50", "--seconds", "5", "--quiet"], capsys)
    assert code == 0 and stdout.startswith("level 0: verified")
    cert = json.loads(out.read_text(encoding="utf-8"))
    assert cert["version"] == __version__
    assert cert["budgets"] == {"exact_states": 50, "exact_seconds": 5.0, "fast_states": 50}
    assert "proved by hand" not in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(("field", "value", "path"), [
    ("budgets", {"exact_states": "lots"}, "certificate.budgets.exact_states"),
    ("budgets", {"exact_states": -1}, "certificate.budgets.exact_states"),
    ("budgets", {f"b{i}": 1 for i in range(17)}, "certificate.budgets"),
    ("search", {"expanded": {"nested": 1}}, "certificate.search.expanded"),
    ("search", {"note": "x" * 65}, "certificate.search.note"),
    ("version", "v" * 65, "certificate.version"),
    ("version", 1, "certificate.version"),
])
def test_informational_fields_of_another_shape_are_refused_naming_them(tmp_path, capsys, field,
                                                                       value, path):
    level = spec_example()
    exported = json.loads(snakes_page.export(level, certify.certify(level)))
    exported["certificate"][field] = value
    src, out = tmp_path / "certified.json", tmp_path / "c.json"
    src.write_text(json.dumps(exported), encoding="utf-8")
    code, _, err = run(["design-levels", "--verify", str(src), "--out", str(out)], capsys)
    assert code == 2 and path in err and "Traceback" not in err
    assert not out.exists()


@pytest.mark.parametrize("text", [
    '{"format": "gridforge.snakes.batch/1", "levels": [' + '{"a": 1},' * 600 + "]}",
    '{"format": "gridforge.snakes.batch/1", "levels": [], "levels": []}' + " " * 5000,
    '{"format": "gridforge.snakes.batch/1", "levels": [NaN]}',
])
def test_cli_a_refused_small_batch_is_headed_as_a_batch(tmp_path, capsys, text):
    src = tmp_path / "batch.json"
    src.write_text(text, encoding="utf-8")
    code, _, err = run(["design-levels", "--verify", str(src), "--out", str(tmp_path / "o")],
                       capsys)
    assert code == 2 and err.splitlines()[0].endswith("invalid batch file:")
    assert "1 MiB" not in err
    src.write_text('{"cols": 5,', encoding="utf-8")  # neither: a small file of any kind
    code, _, err = run(["design-levels", "--verify", str(src), "--out", str(tmp_path / "o")],
                       capsys)
    assert code == 2 and "invalid level or batch file" in err and "1 MiB" not in err
