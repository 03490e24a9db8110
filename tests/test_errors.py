"""The project's errors and its one bounded JSON reader (gridforge.errors)."""

from __future__ import annotations

import contextlib
import json
import os

import pytest
from gridforge import errors
from gridforge.errors import (
    MAX_DEPTH,
    MAX_INT_DIGITS,
    MAX_ISSUES,
    Issue,
    ValidationError,
    field_path,
    is_int,
    load_file,
    parse_json,
    read_json,
    read_package_json,
)
from hypothesis import given
from hypothesis import strategies as st


def refusal(text: str | bytes, **kwargs: object) -> Issue:
    with pytest.raises(ValidationError) as info:
        parse_json(text, "thing", **kwargs)  # type: ignore[arg-type]
    assert info.value.what == "thing"
    (issue,) = info.value.issues
    return issue


def test_parse_json_reads_plain_json_and_a_leading_bom():
    assert parse_json('{"a": [1, 2.5, null, true, "ü"]}', "x") == {"a": [1, 2.5, None, True, "ü"]}
    assert parse_json("\ufeff[1]".encode(), "x") == [1]
    assert parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH, "x") is not None
    assert parse_json("9" * MAX_INT_DIGITS, "x") == int("9" * MAX_INT_DIGITS)


def test_parse_json_refuses_deep_nesting_before_parsing():
    assert refusal("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)).code == "too_deep"
    assert refusal("[" * 200_000).code == "too_deep"
    assert refusal('{"a":' * 5000).code == "too_deep"
    # Brackets inside strings are text, not nesting.
    assert parse_json(json.dumps(["[" * 1000, "\\\"{" * 100]), "x")[0] == "[" * 1000


def test_parse_json_refuses_huge_and_non_finite_numbers():
    assert refusal("9" * (MAX_INT_DIGITS + 1)).code == "number"
    assert refusal("[-" + "1" * 5000 + "]").code == "number"
    for text in ("1e999", "-1e999", "[NaN]", "Infinity", "[-Infinity]"):
        assert refusal(text).code == "number", text


def test_parse_json_refuses_other_encodings_sizes_and_types():
    assert refusal("café".encode("latin-1")).code == "encoding"
    assert refusal(b"\xff\xfe[\x001\x00]\x00").code == "encoding"
    assert refusal("[1, 2]", max_bytes=3).code == "too_large"
    assert refusal("{").code == "json"
    assert refusal("").code == "json"
    assert refusal(None).code == "type"  # type: ignore[arg-type]
    assert refusal(42).code == "type"  # type: ignore[arg-type]


def test_parse_json_checks_the_format_tag():
    assert parse_json('{"format": "f/1", "x": 1}', "x", expect_format="f/1") == {
        "format": "f/1", "x": 1}
    assert refusal("[1]", expect_format="f/1").code == "type"
    issue = refusal('{"format": "g/1"}', expect_format="f/1")
    assert (issue.path, issue.code) == ("format", "format")


def test_parse_json_refuses_a_key_given_twice_naming_its_path():
    issue = refusal('{"format": "f/1", "format": "g/1"}')
    assert (issue.path, issue.code) == ("format", "duplicate_key")
    issue = refusal('{"bodies": [{"cells": [[0, 0]]}, {"cells": [], "colors": [1], "cells": []}]}')
    assert (issue.path, issue.code) == ("bodies[1].cells", "duplicate_key")
    assert refusal('[{"a": 1}, {"b": {"c": 1, "c": 1}}]').path == "[1].b.c"
    with pytest.raises(ValidationError) as info:
        parse_json('{"a": 1, "a": 2, "b": {"x": 0, "x": 0}, "a": 3}', "thing")
    assert [(i.path, i.code) for i in info.value.issues] == [
        ("a", "duplicate_key"), ("b.x", "duplicate_key")]
    # The same key in different objects is no duplicate, and nothing of the hook leaks out.
    value = parse_json('{"a": {"k": 1}, "b": [{"k": 2}, {"k": 3}]}', "x")
    assert value == {"a": {"k": 1}, "b": [{"k": 2}, {"k": 3}]}
    assert type(value) is dict and type(value["a"]) is dict


def test_read_json_refuses_a_duplicate_key_naming_the_file_kind(tmp_path):
    path = tmp_path / "spec.json"
    path.write_text('{"target": 30, "size": {"cells": 10, "cells": 400}}')
    with pytest.raises(ValidationError) as info:
        read_json(path, "design spec")
    assert info.value.what == "design spec"
    assert [(i.path, i.code) for i in info.value.issues] == [("size.cells", "duplicate_key")]


def test_validation_error_keeps_fifty_issues_and_counts_the_rest():
    exc = ValidationError((Issue(f"a[{k}]", "bad", "no") for k in range(200_000)), "list")
    assert len(exc.issues) == MAX_ISSUES and exc.more == 200_000 - MAX_ISSUES
    assert exc.to_json()["more"] == exc.more
    assert str(exc).count("a[") == 10 and f"+{200_000 - 10} more" in str(exc)
    renamed = exc.about("list in --x f.json")
    assert renamed.what == "list in --x f.json" and renamed.more == exc.more
    assert renamed.issues == exc.issues
    with pytest.raises(ValueError):
        ValidationError([], "nothing")


@pytest.mark.cpython_only
def test_read_json_names_the_file_and_refuses_big_ones_before_reading(tmp_path):
    good = tmp_path / "good.json"
    good.write_text('{"format": "f/1"}')
    assert read_json(good, "x", expect_format="f/1") == {"format": "f/1"}
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 2000 + b"[]")
    with pytest.raises(ValidationError) as info:
        read_json(big, "x", max_bytes=1000)
    assert info.value.issues[0].code == "too_large" and "the limit is 1000" in str(info.value)
    for path, code in ((tmp_path / "missing.json", "file"), (tmp_path, "file"),
                       (str(good) + "\0x", "file")):  # fmt: skip
        with pytest.raises(ValidationError) as info:
            read_json(path, "x")
        assert info.value.issues[0].code == code


@pytest.mark.cpython_only
def test_read_json_refuses_a_pipe_at_once_even_with_no_writer(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # no writer: opening it to read would wait forever
    with pytest.raises(ValidationError) as info:
        read_json(fifo, "x", max_bytes=1000)
    assert info.value.issues[0].code == "file"
    assert str(info.value.issues[0]).endswith(f"cannot read {fifo}: it is a pipe (FIFO), "
                                              "not a regular file")


@pytest.mark.cpython_only
def test_load_file_says_which_file_a_field_belongs_to(tmp_path):
    path = tmp_path / "t.json"
    path.write_text('{"n": "x"}')

    def build(data: dict[str, object]) -> int:
        if not is_int(data.get("n")):
            raise ValidationError([Issue("n", "type", "n is an integer")], "thing")
        return 1

    with pytest.raises(ValidationError) as info:
        load_file(path, f"--thing {path}", build)
    assert info.value.what == f"thing in --thing {path}"
    assert info.value.issues[0].path == "n"
    path.write_text('{"n": 3}')
    assert load_file(path, "--thing", build) == 1


def test_read_package_json_reads_shipped_data_with_its_format():
    data = read_package_json("gridforge.mines", "data/economy.json",
                             expect_format="gridforge.mines.economy/1")
    assert data["action_economy"]["ap_per_round"] >= 1
    with pytest.raises(ValidationError) as info:
        read_package_json("gridforge.mines", "data/economy.json", expect_format="other/1")
    assert info.value.what == "gridforge/mines/data/economy.json"
    with pytest.raises(ValidationError):
        read_package_json("gridforge.mines", "data/none.json", expect_format="x")


def test_is_int_and_field_path():
    assert is_int(3) and is_int(-(10**40))
    assert not is_int(True) and not is_int(3.0) and not is_int("3")
    assert field_path("bodies", 2, "cells", 3) == "bodies[2].cells[3]"
    assert field_path("", "a", 0) == "a[0]"


def test_the_limits_are_the_documented_ones():
    # docs/mines-engine.md states these figures; a change of a limit changes the docs.
    assert (errors.MAX_DEPTH, errors.MAX_INT_DIGITS, errors.MAX_BYTES, errors.MAX_ISSUES) == (
        32, 30, 8 * 1024 * 1024, 50)


@given(st.text(max_size=200) | st.binary(max_size=200))
def test_parse_json_of_any_text_is_a_value_or_a_validation_error(text):
    with contextlib.suppress(ValidationError):
        parse_json(text, "x")
