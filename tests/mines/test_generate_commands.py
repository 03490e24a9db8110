"""``gridforge mines generate`` and ``gridforge mines solve`` (gridforge.mines.generate_commands):
boards written and solved from the command line, and every bad input a clear refusal (exit 2)."""

from __future__ import annotations

import argparse
import json

import pytest
from gridforge.cli import main
from gridforge.mines.board import Board
from gridforge.mines.generate import generate
from gridforge.mines.generate_commands import register_generate


@pytest.mark.cpython_only
def test_cli_generate_and_solve(tmp_path, capsys):
    parser = argparse.ArgumentParser()
    register_generate(parser.add_subparsers())
    out = tmp_path / "board.json"
    args = parser.parse_args(["generate", "--preset", "expert", "--seed", "7", "--out", str(out)])
    assert args.handler(args) == 0
    assert out.read_text() == generate("expert", 7).dumps()
    args = parser.parse_args(["solve", str(out)])
    assert args.handler(args) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("no-guess: yes")
    assert "single" in printed
    many = tmp_path / "many.jsonl"
    args = parser.parse_args(
        ["generate", "--preset", "battle-1", "--seed", "3", "--count", "4", "--out", str(many)]
    )
    assert args.handler(args) == 0
    lines = many.read_text().splitlines()
    assert [json.loads(line)["seed"] for line in lines] == [3, 4, 5, 6]
    plain = tmp_path / "plain.json"
    args = parser.parse_args(["generate", "--seed", "2", "--board-only", "--out", str(plain)])
    assert args.handler(args) == 0
    assert Board.from_json(plain.read_text()) == generate("beginner", 2).board


@pytest.mark.cpython_only
def test_cli_solve_of_a_guessing_board_exits_1(tmp_path, capsys):
    parser = argparse.ArgumentParser()
    register_generate(parser.add_subparsers())
    path = tmp_path / "guess.json"
    path.write_text(Board(6, 4, [(3, 2), (3, 3), (4, 3)], (1, 1)).dumps())
    args = parser.parse_args(["solve", str(path)])
    assert args.handler(args) == 1
    assert "no-guess: no" in capsys.readouterr().out


@pytest.mark.cpython_only
def test_gridforge_command_line(tmp_path, capsys):
    out = tmp_path / "b.json"
    assert main(["mines", "generate", "--preset", "expert", "--seed", "7", "--out", str(out)]) == 0
    assert out.read_text() == generate("expert", 7).dumps()
    assert main(["mines", "solve", str(out)]) == 0
    assert capsys.readouterr().out.startswith("no-guess: yes")
    bad = tmp_path / "t.json"
    bad.write_text(json.dumps({"cols": 5, "rows": 5, "mines": 30}))
    assert main(["mines", "generate", "--table", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "mines: 30 mines do not fit" in err


def run(argv: list[str], capsys) -> tuple[int, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's usage errors
        code = exc.code if isinstance(exc.code, int) else 2
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.mark.cpython_only
@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("[" * 10_000, "nested deeper than 32"),
        ('{"name": "caf\xe9", "cols": 9, "rows": 9, "mines": 10}'.encode("latin-1"),
         "not UTF-8"),
        ('{"cols": 9, "rows": 9, "mines": ' + "9" * 5000 + "}", "the limit is 30"),
        ('{"cols": 9, "rows": 9, "density": 1e999}', "out of range"),
        ('{"cols": 9, "rows": 9, "density": NaN}', "not a JSON number"),
        ('{"cols": "9", "rows": 9, "mines": 10}', "cols: must be an integer"),
        ('[{"cols": 9}]', "a table is a JSON object"),
        (" " * 70_000 + "{}", "the limit is 65536"),
    ],
)
def test_generate_table_refusals_name_the_flag_and_field(tmp_path, capsys, content, said):
    path = tmp_path / "t.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    code, text = run(["mines", "generate", "--table", str(path)], capsys)
    assert code == 2 and said in text and "Traceback" not in text
    assert f"--table {path}" in text


@pytest.mark.cpython_only
@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("[" * 100_000, "nested deeper than 32"),
        (b"\xff\xfe{}", "not UTF-8"),
        ('{"format": "gridforge.mines.board/1", "cols": 1000, "rows": 1000, "spawn": [3, 3], '
         '"mines": []}', "cols: must be in 3..256"),
        ('{"format": "gridforge.mines.board/1", "cols": 9, "rows": 9, "spawn": [4, 4], '
         '"mines": [' + ",".join(["[0, 0]"] * 82) + "]}", "82 entries, but a 9x9 board has "
         "only 81 cells"),
        ('{"format": "gridforge.mines.generated/1"}', "board: missing field"),
        ('{"format": "gridforge.mines.board/2"}', "format"),
    ],
)
def test_solve_refusals_name_the_file_and_field(tmp_path, capsys, content, said):
    path = tmp_path / "b.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    code, text = run(["mines", "solve", str(path)], capsys)
    assert code == 2 and said in text and "Traceback" not in text
    assert str(path) in text


@pytest.mark.cpython_only
def test_a_board_with_many_duplicate_mines_lists_ten_issues_and_counts_the_rest(tmp_path,
                                                                                 capsys):
    path = tmp_path / "b.json"
    board = {"format": "gridforge.mines.board/1", "cols": 9, "rows": 9, "spawn": [4, 4],
             "mines": [[0, 0]] * 81}  # fmt: skip
    path.write_text(json.dumps(board))
    code, text = run(["mines", "solve", str(path)], capsys)
    lines = text.splitlines()
    assert code == 2 and len(lines) == 12
    assert lines[1] == "  mines[1]: mine [0, 0] twice" and lines[-1] == "  ... and 70 more"


@pytest.mark.cpython_only
@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--count", "0"], "argument --count: 0 is not in 1..10000"),
        (["--count", "-1"], "argument --count"),
        (["--count", "1e3"], "'1e3' is not a whole number"),
        (["--seed", "nan"], "argument --seed: 'nan' is not a whole number"),
        (["--seed", "-1"], "argument --seed"),
        (["--seed", "9" * 400], "too many digits"),
        (["--level", "-5"], "argument --level: -5 is not in 0..1000"),
        (["--level", "inf"], "argument --level"),
    ],
)
def test_generate_numeric_flags_are_checked_before_any_work(capsys, flags, said):
    code, text = run(["mines", "generate", *flags], capsys)
    assert code == 2 and said in text and "Traceback" not in text


def test_generate_refuses_seeds_past_the_range_before_any_work(tmp_path, capsys):
    # issue 54: seeds are 0..2^63-1 on every path; the boards' seeds run seed..seed+count-1
    out = tmp_path / "boards.jsonl"
    code, text = run(["mines", "generate", "--seed", str(2**63 - 1), "--count", "2",
                      "--out", str(out), "--quiet"], capsys)
    assert code == 2 and "--count 2 from --seed" in text and not out.exists()
    code, text = run(["mines", "generate", "--seed", str(2**63), "--quiet"], capsys)
    assert code == 2 and "--seed" in text
