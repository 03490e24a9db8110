"""The snakes CLI verbs (snakes/commands.py): exit codes, flags, size limits, no tracebacks."""

from __future__ import annotations

import json

import pytest
from gridforge.cli import main
from gridforge.snakes.certificate import BATCH_FORMAT
from gridforge.snakes.commands import MAX_VERIFY_BYTES
from gridforge.snakes.design import certify
from gridforge.snakes.level import MAX_LEVEL_BYTES

from .fixtures import data_with_first_block, level_dict, spec_example

pytestmark = pytest.mark.cpython_only


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    """``gridforge argv`` in-process: (exit code, stdout, stderr); argparse exits count."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    out = capsys.readouterr()
    return code, out.out, out.err


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
