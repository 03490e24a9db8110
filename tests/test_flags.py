"""Argparse types of the numeric flags (gridforge.flags): whole or finite numbers in range."""

from __future__ import annotations

import argparse

import pytest
from gridforge.flags import finite_float, int_range


def test_int_range_accepts_whole_numbers_in_range():
    parse = int_range(1, 10)
    assert parse("1") == 1 and parse("10") == 10 and parse(" 7 ") == 7
    assert int_range()("-123456789") == -123456789
    assert int_range(0)("99999") == 99999


@pytest.mark.parametrize("text", ["0", "11", "-1", "1.5", "1e3", "nan", "inf", "", "x",
                                  "9" * 31])  # fmt: skip
def test_int_range_refuses_the_rest_with_a_reason(text):
    with pytest.raises(argparse.ArgumentTypeError) as info:
        int_range(1, 10)(text)
    assert str(info.value)


def test_finite_float_accepts_finite_numbers_in_range():
    parse = finite_float(0.0, 60.0)
    assert parse("0") == 0.0 and parse("2.5") == 2.5 and parse("6e1") == 60.0
    assert finite_float(high=0.0)("-1e300") == -1e300


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "-1", "60.5", "1e999", "x", "",
                                  "1" * 65])  # fmt: skip
def test_finite_float_refuses_nan_infinities_and_out_of_range(text):
    with pytest.raises(argparse.ArgumentTypeError):
        finite_float(0.0, 60.0)(text)


def test_a_parser_reports_the_flag_and_exits_2(capsys):
    parser = argparse.ArgumentParser(prog="t")
    parser.add_argument("--seconds", type=finite_float(0.0, 60.0))
    with pytest.raises(SystemExit) as info:
        parser.parse_args(["--seconds", "nan"])
    assert info.value.code == 2
    assert "argument --seconds: 'nan' is not a finite number" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["1_000", "1_0", "٣", "５", "๓", "²", "0x5", "1 0", "\u00a05"])
def test_whole_numbers_are_ascii_digits_only(text):
    with pytest.raises(argparse.ArgumentTypeError, match="ASCII digits"):
        int_range(1, 2000)(text)


@pytest.mark.parametrize("text", ["1_0.5", "٣.5", "５", "1.5_0", "0x1p3"])
def test_numbers_are_ascii_digits_only(text):
    with pytest.raises(argparse.ArgumentTypeError, match="ASCII digits"):
        finite_float(0.0, 100.0)(text)


@pytest.mark.parametrize(("argv", "flag"), [
    (["mainline", "level", "1_000"], "n"), (["mainline", "level", "٣"], "n"),
    (["mainline", "level", "５"], "n"), (["synthetic-play", "--levels", "٣-5", "--out", "x"],
                                         "--levels"),
    (["generate-levels", "--levels", "1_0-12"], "--levels"),
    (["design-levels", "--target", "５０", "--out", "x"], "--target"),
    (["mines", "generate", "--seed", "1_000"], "--seed")])
def test_the_commands_refuse_numbers_that_are_not_ascii_digits(argv, flag, capsys):
    from gridforge.cli import main

    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert f"argument {flag}: " in capsys.readouterr().err
